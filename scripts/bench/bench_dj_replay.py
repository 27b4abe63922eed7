#!/usr/bin/env python3
"""`resonance dj replay` on the effects workload (1,000,000 plays, 50,000 songs, 1,000
listeners; scripts/data/effects_workload.py), target ≤ 60 s wall on 2 cores. `resonance
sessions` runs first (not timed), so the replay reads this binary's sessions. Prints
wall and CPU seconds, peak memory and the decisions written. Standard library only.

Usage: bench_dj_replay.py BIN WORKSPACE
"""
import os
import subprocess
import sys

from timed_run import measure

TARGET_S = 60.0


def main():
    binary, ws = sys.argv[1], sys.argv[2]
    subprocess.run([binary, "sessions", ws, "--quiet"], check=True)
    run = measure([binary, "dj", "replay", ws, "--jobs", "2", "--quiet"])
    with open(os.path.join(ws, "dj_decisions.csv")) as f:
        decisions = sum(1 for _ in f) - 1
    print(f"bench-dj-replay: dj replay, {decisions:,} logged plays: {run.wall:.1f} s wall (target {TARGET_S:.0f} s, "
          f"ratio {run.wall / TARGET_S:.2f}), {run.cpu:.1f} s CPU, {run.rss_mb:.0f} MB peak; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
