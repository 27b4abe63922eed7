#!/usr/bin/env python3
"""Stress scoring with the default and the tuned constants, side by side (Markdown).

Usage: tune_compare.py DEFAULT/validation.json TUNED/validation.json
Reads the `stress` object of each report (written by `resonance validate`).
"""
import json
import sys


def metrics(path):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    s = report.get("stress")
    if s is None:
        sys.exit(f"{path}: no stress section")
    engine = s["auc"]["engine"]
    rows = {
        "constants": next(p for p in report["constants_version"].split() if p.startswith("stress@")),
        "pooled AUC": engine["pooled"],
        "pooled AUC 95 % CI": (engine["pooled_ci_low"], engine["pooled_ci_high"]),
        "median per-subject AUC": engine["subject_median"],
        "per-subject AUC 95 % CI": (engine["subject_ci_low"], engine["subject_ci_high"]),
        "elevated: balanced accuracy": s["elevated"]["balanced_accuracy"],
        "elevated: sensitivity": s["elevated"]["sensitivity"],
        "elevated: specificity": s["elevated"]["specificity"],
    }
    return rows


def fmt(v):
    if isinstance(v, tuple):
        return "–" if None in v else f"{v[0]:.3f}–{v[1]:.3f}"
    if isinstance(v, float):
        return f"{v:.3f}"
    return "–" if v is None else str(v)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = metrics(sys.argv[1]), metrics(sys.argv[2])
    print("# Stress scoring: default vs tuned constants\n")
    print("| metric | default | tuned |\n|---|---|---|")
    for k in a:
        print(f"| {k} | {fmt(a[k])} | {fmt(b[k])} |")


if __name__ == "__main__":
    main()
