#!/usr/bin/env python3
"""What the release build's speed flag buys: the same sources built with and without
SWIFT_SPEED_FLAGS (`-enforce-exclusivity=unchecked`), timed on the same workspace.

    bench_speed_flag.py --bin FLAGGED --checked-bin CHECKED --work DIR [--runs N] [--days D]

The ten personas over D days (default 90), after `sessions`: `hrv`, `coherence` and
`sessions` with each binary, alternately, N times (default 3); the median CPU seconds
(user + system) of each and their ratio, and whether both write the same bytes. CPU
time, not wall, because this machine's other work moves wall time most.
"""
import argparse
import filecmp
import os
import shutil
import statistics
import subprocess

from timed_run import measure

STAGES = [("hrv", ["hrv.csv"]), ("coherence", ["coherence.csv"]), ("sessions", ["sessions.csv", "session_plays.csv"])]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the release build with the speed flags")
    ap.add_argument("--checked-bin", required=True, help="the same sources built without them")
    ap.add_argument("--work", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--days", type=int, default=90)
    a = ap.parse_args()
    base = os.path.join(a.work, "personas")
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    subprocess.run([a.bin, "personas", "generate", "--quiet", "--out", base, "--days", str(a.days), "--seed", "0"], check=True)
    subprocess.run([a.bin, "sessions", "--quiet", base], check=True)
    builds = {"flagged": a.bin, "checked": a.checked_bin}
    for name in builds:
        shutil.copytree(base, os.path.join(a.work, name))
    cpu = {(stage, name): [] for stage, _ in STAGES for name in builds}
    for _ in range(a.runs):
        for stage, _ in STAGES:
            for name, binary in builds.items():
                cpu[(stage, name)].append(measure([binary, stage, "--quiet", os.path.join(a.work, name)]).cpu)
    print(f"| stage | without the flag (CPU-s) | with it (CPU-s) | ratio | same bytes |")
    print("|---|---|---|---|---|")
    for stage, tables in STAGES:
        checked, flagged = (statistics.median(cpu[(stage, n)]) for n in ("checked", "flagged"))
        same = all(filecmp.cmp(os.path.join(a.work, "checked", t), os.path.join(a.work, "flagged", t), shallow=False)
                   for t in tables)
        print(f"| {stage} | {checked:.2f} | {flagged:.2f} | {flagged / checked:.3f} | {'yes' if same else 'NO'} |")
    print(f"\nmedian of {a.runs} alternating runs each; load {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
