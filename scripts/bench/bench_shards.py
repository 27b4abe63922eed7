#!/usr/bin/env python3
"""Scaling table of sharded runs on this machine (make bench-shards).

On a cohort workspace (scripts/data/cohort_workload.py): one `resonance run -w` on every
core as the reference, then for each shard count k the path the workflow
(workflow/Snakefile) takes: `resonance shard` into k shards, the per-subject stages on
each shard as its own process (as many at once as there are cores, the cores shared out
among them), `resonance merge`, then the stages that need every subject on the merged
workspace. The stage lists come from workflow/config.yaml. Prints wall time per step,
total CPU time, the peak resident memory of the largest shard's process, and checks
that every sharded run is byte-identical to the reference.

    bench_shards.py BIN WORKSPACE WORK [--shards 1,2,4] [--cores 2]
"""
import argparse
import concurrent.futures
import filecmp
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timed_run import measure  # noqa: E402


def link_copy(src, dst):
    """Hard-linked copy of a workspace, as the workflow makes (workflow/Snakefile): stages
    rename finished files into place, so the source never changes; the lock file is
    the folder's own."""
    shutil.rmtree(dst, ignore_errors=True)
    subprocess.run(["cp", "-al", str(src), str(dst)], check=True)
    (Path(dst) / ".lock").unlink(missing_ok=True)


def identical(a, b):
    """Whether folders a and b hold the same file names with the same bytes."""
    names = sorted(os.listdir(a))
    if names != sorted(os.listdir(b)):
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    return not mismatch and not errors


def count_rows(ws, table):
    with open(ws / table, "rb") as f:
        return sum(1 for _ in f) - 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin")
    ap.add_argument("workspace", type=Path)
    ap.add_argument("work", type=Path)
    ap.add_argument("--shards", default="1,2,4", help="shard counts (default 1,2,4)")
    ap.add_argument("--cores", type=int, default=2, help="cores to use at once (default 2)")
    args = ap.parse_args()
    config = yaml.safe_load(open(Path(__file__).resolve().parent.parent.parent / "workflow" / "config.yaml"))
    shard_stages, merged_stages = config["shard_stages"], config["merged_stages"]
    cores = args.cores
    work = args.work
    work.mkdir(parents=True, exist_ok=True)
    subjects = len(json.load(open(args.workspace / "manifest.json"))["subjects"])
    print(f"bench-shards: cohort {args.workspace}: {subjects} subjects, {count_rows(args.workspace, 'rr.csv'):,} R-R "
          f"beats, {count_rows(args.workspace, 'hr.csv'):,} HR samples, {count_rows(args.workspace, 'plays.csv'):,} plays; "
          f"{cores} cores, load average {os.getloadavg()[0]:.1f}")

    reference = work / "run"
    link_copy(args.workspace, reference)
    run = measure([args.bin, "run", "-w", str(reference), "--jobs", str(cores), "--quiet"])
    rows = [("run", run.wall, None, None, None, None, run.cpu, run.rss_mb, None, True)]

    for k in [int(s) for s in args.shards.split(",")]:
        base = work / f"shards-{k}"
        shutil.rmtree(base, ignore_errors=True)
        base.mkdir()
        split = measure([args.bin, "shard", str(args.workspace), "--shards", str(k), "--out", str(base / "split"),
                         "--quiet"])
        folders = sorted(p.name for p in (base / "split").iterdir())
        (base / "staged").mkdir()
        at_once = min(k, cores)
        threads = max(1, cores // at_once)

        def stages(folder):
            link_copy(base / "split" / folder, base / "staged" / folder)
            return measure([args.bin, "run", "-w", str(base / "staged" / folder), "--stages", shard_stages,
                            "--jobs", str(threads), "--quiet"])

        start = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(max_workers=at_once) as pool:
            shard_runs = list(pool.map(stages, folders))
        stages_wall = time.perf_counter() - start
        merge = measure([args.bin, "merge", *[str(base / "staged" / f) for f in folders], "--out",
                         str(base / "merged"), "--quiet"])
        link_copy(base / "merged", base / "final")
        merged = measure([args.bin, "run", "-w", str(base / "final"), "--stages", merged_stages,
                          "--jobs", str(cores), "--quiet"])
        total = split.wall + stages_wall + merge.wall + merged.wall
        cpu = split.cpu + sum(r.cpu for r in shard_runs) + merge.cpu + merged.cpu
        shard_rss = max(r.rss_mb for r in shard_runs)
        same = identical(base / "final", reference)
        rows.append((str(k), total, split.wall, stages_wall, merge.wall, merged.wall, cpu, shard_rss,
                     max(r.wall for r in shard_runs), same))
        print(f"bench-shards: {k} shards: {at_once} at a time, {threads} thread(s) each; per shard "
              + ", ".join(f"{r.wall:.1f} s {r.rss_mb:.0f} MB" for r in shard_runs)
              + f"; merged-workspace stages ({merged_stages}) peak RSS {merged.rss_mb:.0f} MB", flush=True)

    print("bench-shards: | shards | total wall s | split s | shard stages s | slowest shard s | merge s "
          "| merged stages s | CPU s | peak RSS per shard MB | wall vs run | byte-identical |")
    print("bench-shards: |---|---|---|---|---|---|---|---|---|---|---|")
    fmt = lambda v: "" if v is None else f"{v:.1f}"  # noqa: E731
    for name, total, split, stages_wall, merge, merged, cpu, rss, slowest, same in rows:
        print(f"bench-shards: | {name} | {total:.1f} | {fmt(split)} | {fmt(stages_wall)} | {fmt(slowest)} | "
              f"{fmt(merge)} | {fmt(merged)} | {cpu:.1f} | {rss:.0f} | {total / run.wall:.2f} | "
              f"{'yes' if same else 'NO'} |")
    if not all(r[-1] for r in rows):
        sys.exit("bench-shards: a sharded run differs from resonance run")


if __name__ == "__main__":
    main()
