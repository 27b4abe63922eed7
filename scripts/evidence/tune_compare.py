#!/usr/bin/env python3
"""An engine's validation with the default and the tuned constants, side by side (Markdown).

Usage: tune_compare.py [--engine stress|song_effect] DEFAULT/validation.json TUNED/validation.json
stress (default) reads the `stress` object of each report (written by `resonance validate`);
song_effect reads the `ema` rows of the recovery of the planted effects in the section
"Listening sessions and song effects" (persona workspaces, after `resonance effects`).
"""
import argparse
import json
import sys

EFFECTS_SECTION = "Listening sessions and song effects"


def constants(report, engine):
    return next(p for p in report["constants_version"].split() if p.startswith(engine + "@"))


def stress_metrics(path, report):
    s = report.get("stress")
    if s is None:
        sys.exit(f"{path}: no stress section")
    engine = s["auc"]["engine"]
    return {
        "constants": constants(report, "stress"),
        "pooled AUC": engine["pooled"],
        "pooled AUC 95 % CI": (engine["pooled_ci_low"], engine["pooled_ci_high"]),
        "median per-subject AUC": engine["subject_median"],
        "per-subject AUC 95 % CI": (engine["subject_ci_low"], engine["subject_ci_high"]),
        "elevated: balanced accuracy": s["elevated"]["balanced_accuracy"],
        "elevated: sensitivity": s["elevated"]["sensitivity"],
        "elevated: specificity": s["elevated"]["specificity"],
    }


def song_effect_metrics(path, report):
    section = next((s["data"] for s in report["sections"] if s["title"] == EFFECTS_SECTION), None)
    if section is None or "recovery" not in section:
        sys.exit(f"{path}: no recovery of planted effects (a persona workspace after `resonance effects`)")
    rows = {"constants": constants(report, "song_effect")}
    for r in section["recovery"]:
        if r["model"] != "ema":
            continue
        m = r["metric"]
        rows[f"{m}: songs (≥ 10 plays)"] = r["songs"]
        rows[f"{m}: r (song estimate vs planted)"] = r["pearson"]
        rows[f"{m}: bias"] = r["bias"]
        rows[f"{m}: listener sensitivity Spearman"] = r["sensitivity_spearman"]
    return rows


def fmt(v):
    if isinstance(v, tuple):
        return "–" if None in v else f"{v[0]:.3f}–{v[1]:.3f}"
    if isinstance(v, float):
        return f"{v:.3f}"
    return "–" if v is None else str(v)


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("--engine", choices=["stress", "song_effect"], default="stress")
    parser.add_argument("default")
    parser.add_argument("tuned")
    args = parser.parse_args()
    metrics = stress_metrics if args.engine == "stress" else song_effect_metrics
    reports = []
    for path in (args.default, args.tuned):
        with open(path, encoding="utf-8") as f:
            reports.append(metrics(path, json.load(f)))
    a, b = reports
    title = "Stress scoring" if args.engine == "stress" else "Song effects learned by the ema model"
    print(f"# {title}: default vs tuned constants\n")
    print("| metric | default | tuned |\n|---|---|---|")
    for k in a:
        print(f"| {k} | {fmt(a[k])} | {fmt(b.get(k))} |")


if __name__ == "__main__":
    main()
