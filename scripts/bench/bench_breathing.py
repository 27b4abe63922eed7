#!/usr/bin/env python3
"""Breathing benchmarks (docs/methods.md, Breathing): the product's coherence — a 30 s
window every 0.25 s, the product's cost — over the 69 PhysioNet records
(`resonance coherence --method product`, per-minute rows; every window is computed),
target ≤ 30 s wall on 2 cores; and `resonance breathing simulate` for 1,000 sessions
(100 seeds × 10 personas, one strategy), target ≤ 60 s, in the standard world and
with every difficulty of real breathing on (`--world all`, the `robust` strategy).
Prints wall and CPU seconds.
The PhysioNet part skips without RESONANCE_DATASETS. Standard library only.

Usage: bench_breathing.py BIN WORKDIR
"""
import json
import os
import shutil
import subprocess
import sys

from timed_run import measure


def main():
    binary, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    root = os.environ.get("RESONANCE_DATASETS", "")
    if root:
        ws = os.path.join(work, "physionet-rr")
        manifest = os.path.join(ws, "manifest.json")
        if not os.path.exists(manifest) or "tables" not in json.load(open(manifest)):
            subprocess.run([binary, "import", os.path.join(root, "physionet-rr"), "--out", ws, "--quiet"], check=True)
        run = measure([binary, "coherence", ws, "--method", "product", "--jobs", "2", "--quiet"])
        print(f"bench-breathing: product coherence, 69 PhysioNet records: {run.wall:.1f} s wall "
              f"(target 30 s), {run.cpu:.1f} s CPU, {run.rss_mb:.0f} MB")
    else:
        print("bench-breathing: RESONANCE_DATASETS is not set: skipping the PhysioNet coherence benchmark")
    for world, strategy in (("standard", "amplitude"), ("all", "robust")):
        sim = os.path.join(work, "breathing-sim-" + world)
        shutil.rmtree(sim, ignore_errors=True)
        run = measure([binary, "breathing", "simulate", "--out", sim, "--seeds", "100", "--strategies", strategy,
                       "--world", world, "--jobs", "2", "--quiet"])
        print(f"bench-breathing: simulate 1,000 sessions, world {world}, {strategy}: {run.wall:.1f} s wall "
              f"(target 60 s), {run.cpu:.1f} s CPU")


if __name__ == "__main__":
    main()
