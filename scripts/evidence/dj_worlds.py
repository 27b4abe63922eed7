#!/usr/bin/env python3
"""The AI DJ's policies on every simulated world (docs/dj.md, Worlds).

    dj_worlds.py --out FRAGMENT.md [--json RESULT.json] --command TEXT
                 [--tuned-worlds "W ..." --tuned WORLD=WORKSPACE ...] WORKSPACE...

Each WORKSPACE is a `resonance dj simulate` output of one world (its lineage names the
world). Reads dj_simulation.csv (per seed, scoring `shared`: every policy's pick at the
random policy's decisions; `closed_loop`: each policy's own decisions) and writes a
Markdown fragment: per world and policy, the mean regret over all needs and the
calm-need planted ΔHR, each as the paired difference from random with its 95 %
Student-t interval over seeds, and the verdict: helps (the interval is below 0 for
regret, below 0 for calm ΔHR), hurts (above 0), does nothing (it contains 0); the same
regret on the closed loops; per need the closed loops' cumulative regret per listener
(bpm summed over its decisions of the need) of the best learning policy, learned effect
only and the oracle; and the share of the gap between learned effect only and the
oracle that the best learning policy (BEST, fixed on the development seeds) closes, at
the shared decisions and on the closed loops, with its paired difference from learned
effect only. With --tuned, the same world simulated under tuned ranking constants:
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

POLICIES = ["dj", "most_played", "learned_effect", "bayes", "thompson", "hybrid", "oracle"]
NAMES = {"dj": "DJ (product formula)", "most_played": "most-played", "learned_effect": "learned effect only",
         "oracle": "oracle", "random": "random", "bayes": "bayes (population prior)",
         "thompson": "thompson (posterior draws)", "hybrid": "hybrid (content as prior mean)"}
# The best learning policy, chosen on the development seeds (docs/dj.md, Learning policies).
BEST = "hybrid"
NEEDS = ["energize", "calm", "focus", "maintain", "transition"]
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


def listeners_of(ws):
    """Listeners per seed: the ten personas × the run's replicas."""
    with open(os.path.join(ws, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    for lineage in manifest.get("lineage", {}).values():
        replicas = lineage.get("settings", {}).get("replicas")
        if replicas:
            return 10 * int(replicas)
    return 30


def shared(ws, need, metric, scoring="shared"):
    """(policy, seed) → the metric at the shared decision points (or on the closed loops)."""
    by = {}
    with open(os.path.join(ws, "dj_simulation.csv"), encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f):
            if r["scoring"] == scoring and r["need"] == need and r[metric] != "":
                by[(r["policy"], r["seed"])] = float(r[metric]) * (float(r["decisions"]) if metric == "cumulative" else 1)
    return by


def differences(ws, need, metric, scoring="shared", base="random"):
    """Per policy, the per-seed differences from `base`."""
    by = shared(ws, need, metric, scoring)
    seeds = sorted({s for (_, s) in by}, key=int)
    return {p: [by[(p, s)] - by[(base, s)] for s in seeds if (p, s) in by and (base, s) in by] for p in POLICIES}, len(seeds)


def cumulative(ws, need):
    """Per policy, per seed: the closed loops' summed regret of `need` per listener (bpm)."""
    by = {}
    with open(os.path.join(ws, "dj_simulation.csv"), encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f):
            if r["scoring"] == "closed_loop" and r["need"] == need and r["mean_regret_bpm"] != "":
                by.setdefault(r["policy"], {})[r["seed"]] = float(r["mean_regret_bpm"]) * float(r["decisions"]) / listeners_of(ws)
    return by


def gap(ws, scoring):
    """The share of the gap learned effect − oracle (mean regret, all needs) that BEST
    closes: the ratio of the seed means and the per-seed shares' interval; and BEST −
    learned effect only per seed. None unless all three have every seed's value."""
    by = shared(ws, "all", "mean_regret_bpm", scoring)
    seeds = sorted({s for (_, s) in by}, key=int)
    if not seeds or any((p, s) not in by for p in ("learned_effect", BEST, "oracle") for s in seeds):
        return None
    le = [by[("learned_effect", s)] for s in seeds]
    best = [by[(BEST, s)] for s in seeds]
    oracle = [by[("oracle", s)] for s in seeds]
    ratio = (sum(le) - sum(best)) / (sum(le) - sum(oracle))
    per_seed = [(a - b) / (a - o) for a, b, o in zip(le, best, oracle)]
    return {"share": ratio, "share_interval": interval(per_seed), "best_minus_learned_effect_bpm": interval([b - a for a, b in zip(le, best)])}


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
    closed = {}
    seeds = 0
    for ws in a.workspaces:
        world = world_of(ws)
        regret, seeds = differences(ws, "all", "mean_regret_bpm")
        calm, _ = differences(ws, "calm", "mean_planted_delta_hr_bpm")
        loop, _ = differences(ws, "all", "mean_regret_bpm", "closed_loop")
        result[world] = {p: {"regret_minus_random_bpm": interval(regret[p]) if regret[p] else None,
                             "calm_delta_hr_minus_random_bpm": interval(calm[p]) if calm[p] else None,
                             "closed_loop_regret_minus_random_bpm": interval(loop[p]) if loop[p] else None} for p in POLICIES}
        per_need = {n: cumulative(ws, n) for n in NEEDS}
        closed[world] = {"gap_shared": gap(ws, "shared"), "gap_closed_loop": gap(ws, "closed_loop"),
                         "cumulative_regret_per_listener_bpm": {
                             n: {p: interval([v[s] for s in sorted(v, key=int)]) for p, v in per_need[n].items()
                                 if p in (BEST, "learned_effect", "oracle") and v} for n in NEEDS}}
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
    lines += ["", "Closed loops (each policy's own decisions and its own learning): regret against the best song, "
              "all needs, policy − random (bpm per decision; every policy makes the same number of decisions):", "",
              "| policy | " + " | ".join(worlds) + " |", "|---|" + "---|" * len(worlds)]
    for p in POLICIES:
        lines.append(f"| {NAMES[p]} | " + " | ".join(cell(result[w][p]["closed_loop_regret_minus_random_bpm"]) for w in worlds) + " |")

    def plain(v):
        return "–" if not v else f"{v[0]:.1f} [{v[1]:.1f}, {v[2]:.1f}]" if v[1] is not None else f"{v[0]:.1f}"
    table = ["", f"Closed loops per need: cumulative regret per listener over the days (bpm summed over the need's "
             f"decisions; lower is better), {NAMES[BEST]} / learned effect only / oracle:", "",
             "| need | " + " | ".join(worlds) + " |", "|---|" + "---|" * len(worlds)]
    for n in [n for n in NEEDS if any(closed[w]["cumulative_regret_per_listener_bpm"][n] for w in worlds)]:
        table.append(f"| {n} | " + " | ".join(" / ".join(plain(closed[w]["cumulative_regret_per_listener_bpm"][n].get(p))
                                                         for p in (BEST, "learned_effect", "oracle")) for w in worlds) + " |")

    # The per-need table only when some need has closed loops.
    lines += table if len(table) > 5 else []

    def share(g):
        if g is None:
            return "–"
        i = g["share_interval"]
        d = g["best_minus_learned_effect_bpm"]
        worse = "worse" if d[1] is not None and d[1] > 0 else "better" if d[2] is not None and d[2] < 0 else "no different"
        return f"{g['share']:.2f} (seeds {i[1]:.2f}–{i[2]:.2f}); {d[0]:+.2f} [{d[1]:+.2f}, {d[2]:+.2f}] {worse}"
    lines += ["", f"Share of the gap between learned effect only and the oracle closed by {NAMES[BEST]} "
              "((learned effect − it) / (learned effect − oracle), mean regret over all needs; the ratio of the seed means, "
              "the 95 % interval of the per-seed shares), and it − learned effect only (bpm, paired per seed):", "",
              "| | " + " | ".join(worlds) + " |", "|---|" + "---|" * len(worlds),
              "| shared decisions | " + " | ".join(share(closed[w]["gap_shared"]) for w in worlds) + " |",
              "| closed loops | " + " | ".join(share(closed[w]["gap_closed_loop"]) for w in worlds) + " |"]
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
            json.dump({"seeds": seeds, "command": a.command, "tuned_on_worlds": seen, "best_learning_policy": BEST,
                       "learning": {w: {k: (v if k == "cumulative_regret_per_listener_bpm" or v is None else
                                            {"share": v["share"], "share_interval": list(v["share_interval"]),
                                             "best_minus_learned_effect_bpm": list(v["best_minus_learned_effect_bpm"])})
                                        for k, v in closed[w].items()} for w in worlds},
                       "tuned_minus_default_dj_regret_bpm": {w: (None if v is None else {"mean": v[0], "ci_low": v[1], "ci_high": v[2]})
                                                             for w, v in tuned.items()}, "worlds": {
                w: {p: {k: (None if v is None else {"mean": v[0], "ci_low": v[1], "ci_high": v[2],
                                                    "verdict": verdict(v[1], v[2])})
                        for k, v in result[w][p].items()} for p in POLICIES} for w in worlds}}, f, indent=2, sort_keys=True)
            f.write("\n")
        os.replace(a.json + ".tmp", a.json)


if __name__ == "__main__":
    main()
