#!/usr/bin/env python3
"""Every pacer strategy on every simulated world (docs/methods.md, Breathing, "Simulated
breathers"): `resonance breathing simulate --world W` on the given seeds (contiguous,
so one --first-seed/--seeds run per world), then one Markdown table of
breathing_sim_summary.csv (mean [95 % interval over seeds]) per world and strategy, with
the strategy that wins each judged metric — |error| to the nearest rate of peak
amplitude, the share within ±0.5/min of it, lock time, coherence reached and the HR
amplitude share at the locked rate (breathing_sim_wins.csv: the interval of its
difference from the runner-up excludes 0) — marked. Deterministic: the same binary,
seeds and constants give the same bytes. Standard library only.

Usage: pacer_worlds.py BIN --work DIR --seeds 0,1,...,19 --markdown OUT.md
                       [--json OUT.json] [--constants FILE] [--worlds a,b,...]
"""
import argparse
import csv
import json
import os
import subprocess
import sys

WORLDS = ["standard", "transient", "adherence", "phase_lag", "skewed", "flat", "double_peak", "drift_ectopic",
          "outside", "all"]
METRICS = [("abs_error_bpm", "abs error (bpm)", 2), ("within_0_5", "within ±0.5/min", 2), ("lock_s", "lock (s)", 0),
           ("coherence_reached", "coherence reached", 3), ("amplitude_share", "amplitude share", 3)]


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def cell(row, digits):
    mean, lo, hi = (float(row[k]) for k in ("mean", "ci_low", "ci_high"))
    if lo == hi == mean:
        return "%.*f" % (digits, mean)
    return "%.*f [%.*f, %.*f]" % (digits, mean, digits, lo, digits, hi)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--work", required=True)
    ap.add_argument("--seeds", required=True, help="comma-separated, contiguous")
    ap.add_argument("--markdown", required=True)
    ap.add_argument("--json")
    ap.add_argument("--constants")
    ap.add_argument("--worlds", default=",".join(WORLDS))
    a = ap.parse_args()
    seeds = [int(s) for s in a.seeds.split(",") if s.strip()]
    if not seeds or seeds != list(range(seeds[0], seeds[0] + len(seeds))):
        sys.exit("pacer_worlds: --seeds must be contiguous, got %s" % a.seeds)
    worlds = [w for w in a.worlds.split(",") if w]
    results = {}
    for world in worlds:
        ws = os.path.join(a.work, world)
        cmd = [a.binary, "breathing", "simulate", "--out", ws, "--world", world, "--first-seed", str(seeds[0]),
               "--seeds", str(len(seeds)), "--jobs", "2", "--quiet"]
        if a.constants:
            cmd += ["--constants", a.constants]
        subprocess.run(cmd, check=True)
        results[world] = (read(os.path.join(ws, "breathing_sim_summary.csv")),
                          read(os.path.join(ws, "breathing_sim_wins.csv")))
    lines = ["| world | strategy | " + " | ".join(m[1] for m in METRICS) + " |",
             "|---|---|" + "---|" * len(METRICS)]
    out = {"seeds": seeds, "constants": a.constants, "worlds": {}}
    for world in worlds:
        summary, wins = results[world]
        won = {w["metric"]: w["best"] for w in wins if w["wins"] == "true"}
        strategies = list(dict.fromkeys(r["strategy"] for r in summary))
        for s in strategies:
            cells = []
            for metric, _, digits in METRICS:
                row = next(r for r in summary if r["strategy"] == s and r["metric"] == metric)
                text = cell(row, digits)
                cells.append("**%s**" % text if won.get(metric) == s else text)
            lines.append("| %s | `%s` | %s |" % (world, s, " | ".join(cells)))
        out["worlds"][world] = {
            "summary": {s: {r["metric"]: {k: float(r[k]) for k in ("mean", "ci_low", "ci_high")}
                            for r in summary if r["strategy"] == s} for s in strategies},
            "wins": [{"metric": w["metric"], "best": w["best"], "runner_up": w["runner_up"],
                      "difference": float(w["difference"]), "ci_low": float(w["ci_low"]),
                      "ci_high": float(w["ci_high"]), "wins": w["wins"] == "true"} for w in wins],
        }
    lines.append("")
    lines.append("Bold: the strategy wins that world on that metric (the 95 %% interval over seeds of its "
                 "per-seed difference from the runner-up excludes 0). Seeds %d–%d, 10 personas each%s." %
                 (seeds[0], seeds[-1], ", constants " + os.path.basename(a.constants) if a.constants else ""))
    lines.append("Error: the locked rate's distance to the nearest rate of peak amplitude (the planted rate; "
                 "in a flat curve its plateau, 0 on it). Amplitude share: the HR amplitude at the locked rate over "
                 "that at the peak.")
    lines.append("Made by `make pacer-worlds` (scripts/evidence/pacer_worlds.py).")
    os.makedirs(os.path.dirname(os.path.abspath(a.markdown)), exist_ok=True)
    tmp = a.markdown + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, a.markdown)
    if a.json:
        tmp = a.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
            f.write("\n")
        os.replace(tmp, a.json)
    print("pacer_worlds: wrote %s" % a.markdown, file=sys.stderr)


if __name__ == "__main__":
    main()
