#!/usr/bin/env python3
"""The AI DJ's policies on every simulated world (docs/dj.md, Worlds).

    dj_worlds.py --out FRAGMENT.md [--json RESULT.json] --command TEXT
                 [--tuned-worlds "W ..." --tuned WORLD=WORKSPACE ...] WORKSPACE...

Each WORKSPACE is a `resonance dj simulate` output of one world (its lineage names the
world). Reads dj_simulation.csv (per seed, scoring `shared`: every policy's pick at the
random policy's decisions) and writes a Markdown fragment: per world and policy, the
mean regret over all needs and the calm-need planted ΔHR, each as the paired difference
from random with its 95 % Student-t interval over seeds, and the verdict: helps (the
interval is below 0 for regret, below 0 for calm ΔHR), hurts (above 0), does nothing
(it contains 0). With --tuned, the same world simulated under tuned ranking constants:
the tuned DJ's regret − the default DJ's at the same shared decisions, per seed, on every
world (--tuned-worlds names those the tuning used; the others it never saw). --json
writes the same numbers. Standard library only.
"""
import argparse
import csv
import json
import math
import os
import statistics

POLICIES = ["dj", "most_played", "learned_effect", "oracle"]
NAMES = {"dj": "DJ (product formula)", "most_played": "most-played", "learned_effect": "learned effect only",
         "oracle": "oracle", "random": "random"}
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086]


def interval(x):
    """Mean and 95 % Student-t interval over independent seeds (as SeedInterval)."""
    m = statistics.fmean(x)
    if len(x) < 2:
        return m, None, None
    t = T975[len(x) - 2] if len(x) - 1 <= len(T975) else 1.96
    half = t * statistics.stdev(x) / math.sqrt(len(x))
    return m, m - half, m + half


def world_of(ws):
    with open(os.path.join(ws, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    for lineage in manifest.get("lineage", {}).values():
        world = lineage.get("settings", {}).get("world")
        if world:
            return world
    return os.path.basename(os.path.normpath(ws))


def shared(ws, need, metric):
    """(policy, seed) → the metric at the shared decision points."""
    by = {}
    with open(os.path.join(ws, "dj_simulation.csv"), encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f):
            if r["scoring"] == "shared" and r["need"] == need and r[metric] != "":
                by[(r["policy"], r["seed"])] = float(r[metric])
    return by


def differences(ws, need, metric):
    """Per policy, the per-seed differences from random (shared scoring)."""
    by = shared(ws, need, metric)
    seeds = sorted({s for (_, s) in by}, key=int)
    return {p: [by[(p, s)] - by[("random", s)] for s in seeds if (p, s) in by and ("random", s) in by] for p in POLICIES}, len(seeds)


def verdict(low, high):
    if low is None:
        return "–"
    return "helps" if high < 0 else "hurts" if low > 0 else "does nothing"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--json")
    ap.add_argument("--command", required=True)
    ap.add_argument("--tuned", action="append", default=[], metavar="WORLD=WORKSPACE")
    ap.add_argument("--tuned-worlds", default="")
    ap.add_argument("workspaces", nargs="+")
    a = ap.parse_args()
    result = {}
    seeds = 0
    for ws in a.workspaces:
        world = world_of(ws)
        regret, seeds = differences(ws, "all", "mean_regret_bpm")
        calm, _ = differences(ws, "calm", "mean_planted_delta_hr_bpm")
        result[world] = {p: {"regret_minus_random_bpm": interval(regret[p]) if regret[p] else None,
                             "calm_delta_hr_minus_random_bpm": interval(calm[p]) if calm[p] else None} for p in POLICIES}
    tuned = {}
    for item in a.tuned:
        world, ws = item.split("=", 1)
        default = next(w for w in a.workspaces if world_of(w) == world)
        mine, base = shared(ws, "all", "mean_regret_bpm"), shared(default, "all", "mean_regret_bpm")
        d = [mine[k] - base[k] for k in sorted(base, key=lambda k: int(k[1])) if k[0] == "dj" and k in mine]
        tuned[world] = interval(d) if d else None
    seen = a.tuned_worlds.split()

    def cell(v):
        if not v:
            return "–"
        m, lo, hi = v
        return f"{m:+.2f} [{lo:+.2f}, {hi:+.2f}] {verdict(lo, hi)}" if lo is not None else f"{m:+.2f}"
    worlds = list(result)
    lines = [f"Regret against the best song (bpm of planted need fulfilment, all needs; lower is better), "
             f"policy − random at the shared decision points, mean [95 % interval over {seeds} seeds]; "
             f"regenerate with `{a.command}`:", "",
             "| policy | " + " | ".join(worlds) + " |", "|---|" + "---|" * len(worlds)]
    for p in POLICIES:
        lines.append(f"| {NAMES[p]} | " + " | ".join(cell(result[w][p]["regret_minus_random_bpm"]) for w in worlds) + " |")
    lines += ["", "Calm need: planted ΔHR of the song picked (bpm; lower is calmer), policy − random:", "",
              "| policy | " + " | ".join(worlds) + " |", "|---|" + "---|" * len(worlds)]
    for p in POLICIES:
        lines.append(f"| {NAMES[p]} | " + " | ".join(cell(result[w][p]["calm_delta_hr_minus_random_bpm"]) for w in worlds) + " |")
    if tuned:
        def tuned_cell(v):
            if not v or v[1] is None:
                return "–"
            word = "better" if v[2] < 0 else "worse" if v[1] > 0 else "no different"
            return f"{v[0]:+.2f} [{v[1]:+.2f}, {v[2]:+.2f}] {word}"
        lines += ["", f"Tuned ranking (`tune --engine ranking` on the worlds {', '.join(seen)} only): the tuned DJ's "
                  "regret − the default DJ's at the same shared decisions (bpm; negative: the tuned weights are better):", "",
                  "| | " + " | ".join(worlds) + " |", "|---|" + "---|" * len(worlds),
                  "| tuning saw the world | " + " | ".join("yes" if w in seen else "no" for w in worlds) + " |",
                  "| tuned − default DJ | " + " | ".join(tuned_cell(tuned.get(w)) for w in worlds) + " |"]
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(a.out + ".tmp", a.out)
    if a.json:
        os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
        with open(a.json + ".tmp", "w", encoding="utf-8") as f:
            json.dump({"seeds": seeds, "command": a.command, "tuned_on_worlds": seen,
                       "tuned_minus_default_dj_regret_bpm": {w: (None if v is None else {"mean": v[0], "ci_low": v[1], "ci_high": v[2]})
                                                             for w, v in tuned.items()}, "worlds": {
                w: {p: {k: (None if v is None else {"mean": v[0], "ci_low": v[1], "ci_high": v[2],
                                                    "verdict": verdict(v[1], v[2])})
                        for k, v in result[w][p].items()} for p in POLICIES} for w in worlds}}, f, indent=2, sort_keys=True)
            f.write("\n")
        os.replace(a.json + ".tmp", a.json)


if __name__ == "__main__":
    main()
