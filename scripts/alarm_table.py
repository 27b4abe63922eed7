#!/usr/bin/env python3
"""Alarm rates pooled over several validation reports (persona workspaces with planted
health events, one per seed), per signal and regression method, as a Markdown table.

Usage: alarm_table.py LABEL=REPORT_DIR[,REPORT_DIR...] [LABEL=...]

Each REPORT_DIR holds a validation.json from `resonance validate` with its "alarms"
section. Counts are pooled over every person of every report of a label; 95 % intervals
are percentile bootstraps over persons (2000 resamples, seed 2024), as in the report.
Printed: every signal as daily.csv holds it (the shown flags, each trend flag, the
stress level `elevated`, readiness `recovering`, the coaching scenario `overtraining` and
the morning recovery's rest), then the shown flags and the
regression flag of each regression method, the engines re-run with the report's constants.
"""
import json
import random
import sys

DAYS_PER_MONTH = 30.4375


def tallies(report_dirs, section, name):
    out = []
    for d in report_dirs:
        with open(f"{d}/validation.json", encoding="utf-8") as f:
            alarms = json.load(f)["alarms"]
        line = next(s for s in alarms[section] if s["signal"] == name)
        out += line["per_subject"]
    return out


def pooled(ts):
    events = sum(t["events"].get("illness", 0) for t in ts)
    found = sum(t["detected"].get("illness", 0) for t in ts)
    all_events = sum(sum(t["events"].values()) for t in ts)
    all_found = sum(sum(t["detected"].values()) for t in ts)
    delays = [d for t in ts for d in t["delays"].get("illness", [])]
    false = sum(t["false_episodes"] for t in ts)
    true = sum(t["true_episodes"] for t in ts)
    quiet = sum(t["quiet_days"] for t in ts)
    nan = float("nan")
    return {
        "illness": (found, events),
        "illness_sensitivity": found / events if events else nan,
        "sensitivity": all_found / all_events if all_events else nan,
        "delay": sum(delays) / len(delays) if delays else nan,
        "fa": false / (quiet / DAYS_PER_MONTH) if quiet else nan,
        "precision": true / (true + false) if true + false else nan,
    }


def interval(ts, key, rng):
    values = []
    for _ in range(2000):
        v = pooled([ts[rng.randrange(len(ts))] for _ in ts])[key]
        if v == v:
            values.append(v)
    values.sort()
    if not values:
        return (float("nan"), float("nan"))
    return (values[int(0.025 * (len(values) - 1))], values[int(0.975 * (len(values) - 1))])


def cell(ts, key, rng):
    p = pooled(ts)[key]
    lo, hi = interval(ts, key, rng)
    return f"{p:.2f} ({lo:.2f}–{hi:.2f})"


def main(args):
    if not args:
        sys.exit(__doc__)
    methods = ["least-squares slope (product)", "significant slope", "Theil–Sen slope", "EWMA chart"]
    rows = [("signals", name, "as written") for name in
            ("shown flags", "regression", "stress_pattern", "consecutive_elevation", "anomaly", "rhr_week_up",
             "stress elevated", "readiness recovering", "overtraining scenario", "morning rest")]
    for m in methods:
        rows += [("regression_methods", f"shown flags: {m}", m), ("regression_methods", f"regression: {m}", m)]
    print("| constants | signal | illness found | illness sensitivity (95 % CI) | all-event sensitivity (95 % CI) "
          "| illness delay (days) | false alarms / person-month (95 % CI) | precision (95 % CI) |")
    print("|---|---|---|---|---|---|---|---|")
    for arg in args:
        label, dirs = arg.split("=", 1)
        for section, name, _ in rows:
            ts = tallies(dirs.split(","), section, name)
            rng = random.Random(2024)
            p = pooled(ts)
            found, events = p["illness"]
            print(f"| {label} | {name} | {found}/{events} | {cell(ts, 'illness_sensitivity', rng)} | "
                  f"{cell(ts, 'sensitivity', rng)} | {p['delay']:.1f} | {cell(ts, 'fa', rng)} | {cell(ts, 'precision', rng)} |")


if __name__ == "__main__":
    main(sys.argv[1:])
