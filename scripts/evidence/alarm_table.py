#!/usr/bin/env python3
"""Alarm rates pooled over several validation reports (persona workspaces with planted
health events, one per seed), per signal and regression method, as Markdown.

Usage: alarm_table.py LABEL=REPORT_DIR[,REPORT_DIR...] [LABEL=...]

Each REPORT_DIR holds a validation.json from `resonance validate` with its "alarms"
section, one seed of the same persona profiles. Counts are pooled over every (profile,
seed) cell of a label. The 95 % intervals are a crossed (pigeonhole) bootstrap (Owen
2007, Ann. Appl. Stat. 1:386): each of 2000 resamples draws the profiles and the seeds
independently with replacement and pools every cell of a drawn profile and a drawn seed,
so that neither the ten profiles nor the seeds are taken for more independent units than
they are (seed 2024; the same resamples for every line).

Label `default` prints every signal as daily.csv holds it (the shown flags, each trend
flag, the stress level `elevated`, readiness `recovering`, the coaching scenario
`overtraining` and the morning recovery's rest), then the shown flags and the
regression flag of each regression method, the engines re-run with the report's
constants; a label `tuned-M` prints the lines of regression method M. Last, which
methods' shown flags meet the alarm target (at most 1 false alarm per person-month and
at least 0.80 of illnesses found, point estimates) and, of those, the one finding the
most deterioration events, then raising the fewest false alarms: the recommendation on
these seeds.
"""
import json
import sys

import numpy as np

DAYS_PER_MONTH = 30.4375
RESAMPLES = 2000
SEED = 2024
MAX_FALSE_PER_MONTH = 1.0
MIN_ILLNESS_SENSITIVITY = 0.80
METHODS = ["least-squares slope (product)", "significant slope", "Theil–Sen slope", "EWMA chart"]
SIGNALS = ["shown flags", "regression", "stress_pattern", "consecutive_elevation", "anomaly", "rhr_week_up",
           "stress elevated", "readiness recovering", "overtraining scenario", "morning rest"]
# The counts pooled per (seed, profile) cell.
FIELDS = ["illness", "illness_found", "events", "found", "delay_sum", "delay_n", "false", "true", "quiet",
          "load_episodes", "load_blocks", "load_flagged"]


def cells(report_dirs, section, name):
    """Counts of one line, shape (fields, seeds, profiles); profiles in the first report's order."""
    profiles = None
    grid = []
    for d in report_dirs:
        with open(f"{d}/validation.json", encoding="utf-8") as f:
            alarms = json.load(f)["alarms"]
        line = next(s for s in alarms[section] if s["signal"] == name)
        by_subject = dict(zip(alarms["subjects"], line["per_subject"]))
        if profiles is None:
            profiles = list(alarms["subjects"])
        if set(by_subject) != set(profiles):
            sys.exit(f"alarm_table.py: {d}/validation.json: its persons differ from {report_dirs[0]}'s")
        row = []
        for p in profiles:
            t = by_subject[p]
            delays = [x for x in t["delays"].get("illness", [])]
            row.append([t["events"].get("illness", 0), t["detected"].get("illness", 0), sum(t["events"].values()),
                        sum(t["detected"].values()), sum(delays), len(delays), t["false_episodes"], t["true_episodes"],
                        t["quiet_days"], t.get("load_block_episodes", 0), t.get("load_blocks", 0),
                        t.get("load_blocks_flagged", 0)])
        grid.append(row)
    return np.array(grid, dtype=float).transpose(2, 0, 1)


def statistics(sums):
    """Rates from pooled counts (leading axis: FIELDS); NaN where undefined."""
    c = dict(zip(FIELDS, sums))
    with np.errstate(divide="ignore", invalid="ignore"):
        return {
            "illness_sensitivity": c["illness_found"] / c["illness"],
            "sensitivity": c["found"] / c["events"],
            "delay": c["delay_sum"] / c["delay_n"],
            "fa": c["false"] / (c["quiet"] / DAYS_PER_MONTH),
            "precision": c["true"] / (c["true"] + c["false"]),
        }


def weights(n_seeds, n_profiles):
    """Multiplicity of every (seed, profile) cell in each crossed resample: (resamples, seeds, profiles)."""
    rng = np.random.default_rng(SEED)
    s = rng.integers(0, n_seeds, size=(RESAMPLES, n_seeds))
    p = rng.integers(0, n_profiles, size=(RESAMPLES, n_profiles))
    ws = np.stack([np.bincount(r, minlength=n_seeds) for r in s])
    wp = np.stack([np.bincount(r, minlength=n_profiles) for r in p])
    return ws[:, :, None] * wp[:, None, :]


def line(counts, w):
    point = statistics(counts.sum(axis=(1, 2)))
    boot = statistics(np.einsum("fsp,rsp->fr", counts, w))
    out = {}
    for key, value in point.items():
        b = boot[key][np.isfinite(boot[key])]
        lo, hi = (np.quantile(b, [0.025, 0.975], method="lower") if b.size else (np.nan, np.nan))
        out[key] = (float(value), float(lo), float(hi))
    return out


def fmt(x, d=2):
    return f"{x:.{d}f}" if np.isfinite(x) else "–"


def cell(stat):
    v, lo, hi = stat
    return f"{fmt(v)} ({fmt(lo)}–{fmt(hi)})"


def rows_of(label):
    if label.startswith("tuned-"):
        m = METHODS[int(label.split("-", 1)[1])]
        return [("regression_methods", f"shown flags: {m}"), ("regression_methods", f"regression: {m}")]
    rows = [("signals", name) for name in SIGNALS]
    for m in METHODS:
        rows += [("regression_methods", f"shown flags: {m}"), ("regression_methods", f"regression: {m}")]
    return rows


def main(args):
    if not args:
        sys.exit(__doc__)
    labels = [a.split("=", 1) for a in args]
    first_dirs = labels[0][1].split(",")
    summary = cells(first_dirs, "signals", "shown flags").sum(axis=(1, 2))
    c = dict(zip(FIELDS, summary))
    with open(f"{first_dirs[0]}/validation.json", encoding="utf-8") as f:
        n_profiles = len(json.load(f)["alarms"]["subjects"])
    print(f"{len(first_dirs)} seeds × {n_profiles} persona profiles: {int(c['illness'])} illnesses, "
          f"{int(c['events'])} deterioration events ({int(c['load_blocks'])} overreachings with their load blocks). "
          "95 % intervals: crossed bootstrap over profiles and seeds. A flag counts from an event's first symptom; "
          "episodes only in a load block are neither true nor false.\n")
    print("| constants | signal | illness found | illness sensitivity (95 % CI) | all-event sensitivity (95 % CI) "
          "| illness delay (days) | false alarms / person-month (95 % CI) | precision (95 % CI) | load blocks flagged |")
    print("|---|---|---|---|---|---|---|---|---|")
    meets = []
    for label, dirs in labels:
        dirs = dirs.split(",")
        w = None
        for section, name in rows_of(label):
            counts = cells(dirs, section, name)
            if w is None:
                w = weights(counts.shape[1], counts.shape[2])
            s = line(counts, w)
            total = dict(zip(FIELDS, counts.sum(axis=(1, 2))))
            print(f"| {label} | {name} | {int(total['illness_found'])}/{int(total['illness'])} | {cell(s['illness_sensitivity'])} | "
                  f"{cell(s['sensitivity'])} | {fmt(s['delay'][0], 1)} | {cell(s['fa'])} | {cell(s['precision'])} | "
                  f"{int(total['load_flagged'])}/{int(total['load_blocks'])} |")
            if name.startswith("shown flags: ") and s["fa"][0] <= MAX_FALSE_PER_MONTH \
                    and s["illness_sensitivity"][0] >= MIN_ILLNESS_SENSITIVITY:
                meets.append((s["sensitivity"][0], s["fa"][0], label, name[len("shown flags: "):]))
    print()
    if meets:
        listed = "; ".join(f"{m} ({label}: all-event sensitivity {fmt(v)}, {fmt(fa)} false alarms / person-month)"
                           for v, fa, label, m in meets)
        best = max(meets, key=lambda x: (x[0], -x[1]))
        print(f"Target (at most {MAX_FALSE_PER_MONTH:g} false alarm per person-month, at least "
              f"{MIN_ILLNESS_SENSITIVITY:.2f} of illnesses found) met by the shown flags of: {listed}. "
              f"Recommended on these seeds (most deterioration events found, then fewest false alarms): "
              f"{best[3]} ({best[2]}).")
    else:
        print(f"Target (at most {MAX_FALSE_PER_MONTH:g} false alarm per person-month, at least "
              f"{MIN_ILLNESS_SENSITIVITY:.2f} of illnesses found) met by no regression method's shown flags on these seeds.")


if __name__ == "__main__":
    main(sys.argv[1:])
