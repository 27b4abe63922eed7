#!/usr/bin/env python3
"""Cost of workspace verification (docs/workspace.md): `resonance hrv --whole` on the 69
PhysioNet records with and without --no-verify (the difference is the SHA-256 check of
rr.csv), against coreutils' `sha256sum` of the same file as the peer. Prints CPU seconds,
throughput in MB/s and the ratio. Skips without RESONANCE_DATASETS. Standard library only.

Usage: bench_verify.py BIN WORKDIR [REPEAT]
"""
import json
import os
import subprocess
import sys

from timed_run import measure


def best(cmd, repeat):
    return min((measure(cmd) for _ in range(repeat)), key=lambda r: r.cpu)


def main():
    binary, work = sys.argv[1], sys.argv[2]
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 2
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
    check = max(1e-3, verified.cpu - unverified.cpu)
    print(f"bench-verify: rr.csv {mb:.0f} MB; hrv --whole: {verified.cpu:.2f} s CPU verified, "
          f"{unverified.cpu:.2f} s with --no-verify (verification {check:.2f} s, "
          f"{100 * check / unverified.cpu:.0f} % of the stage)")
    print(f"bench-verify: SHA-256 {mb / check:.0f} MB/s; sha256sum {mb / max(1e-3, peer.cpu):.0f} MB/s; "
          f"ratio resonance/sha256sum time {check / max(1e-3, peer.cpu):.2f}")


if __name__ == "__main__":
    main()
