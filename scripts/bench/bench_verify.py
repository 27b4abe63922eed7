#!/usr/bin/env python3
"""Cost of workspace verification (docs/workspace.md): `resonance hrv --whole` on the 69
PhysioNet records with and without --no-verify (the difference is the SHA-256 check of
rr.csv), and the digest alone by OpenSSL's `openssl dgst -sha256` (the libcrypto code the
check runs; the difference of two stage timings is within their noise once hashing takes
a fraction of a second), against coreutils' `sha256sum` of the same file as the peer.
Prints CPU seconds, throughput in MB/s and the ratio. Skips without RESONANCE_DATASETS.
Standard library only.

Usage: bench_verify.py BIN WORKDIR [REPEAT]
"""
import json
import os
import shutil
import subprocess
import sys

from timed_run import measure


def best(cmd, repeat):
    return min((measure(cmd) for _ in range(repeat)), key=lambda r: r.cpu)


def main():
    binary, work = sys.argv[1], sys.argv[2]
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    root = os.environ.get("RESONANCE_DATASETS", "")
    if not root:
        print("bench-verify: RESONANCE_DATASETS is not set: skipping the verification benchmark")
        return
    ws = os.path.join(work, "physionet-rr")
    manifest = os.path.join(ws, "manifest.json")
    if not os.path.exists(manifest) or "tables" not in json.load(open(manifest)):
        subprocess.run([binary, "import", os.path.join(root, "physionet-rr"), "--out", ws, "--quiet"], check=True)
    rr = os.path.join(ws, "rr.csv")
    mb = os.path.getsize(rr) / 1e6
    hrv = [binary, "hrv", ws, "--whole", "--jobs", "1", "--quiet"]
    verified = best(hrv, repeat)
    unverified = best(hrv + ["--no-verify"], repeat)
    peer = best(["sha256sum", rr], repeat)
    difference = verified.cpu - unverified.cpu
    # Debian's `openssl` package; without it the difference of the two timings stands in.
    check = max(1e-3, best(["openssl", "dgst", "-sha256", rr], repeat).cpu if shutil.which("openssl") else difference)
    print(f"bench-verify: rr.csv {mb:.0f} MB; hrv --whole: {verified.cpu:.2f} s CPU verified, "
          f"{unverified.cpu:.2f} s with --no-verify (difference {difference:.2f} s)")
    print(f"bench-verify: SHA-256 (libcrypto) {check:.2f} s CPU, {mb / check:.0f} MB/s, "
          f"{100 * check / unverified.cpu:.0f} % of the stage; sha256sum {peer.cpu:.2f} s, "
          f"{mb / max(1e-3, peer.cpu):.0f} MB/s; ratio resonance/sha256sum time {check / max(1e-3, peer.cpu):.2f}")


if __name__ == "__main__":
    main()
