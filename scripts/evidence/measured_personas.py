#!/usr/bin/env python3
"""What the persona generator produces, measured from its own tables (docs/personas.md).

    measured_personas.py daily-means --personas WS --caption TEXT --out FILE
        per persona, the means over the days of daily.csv: steps, walking and workout
        minutes, readiness and stress (measured:personas_daily_means)
    measured_personas.py law-bounds --bin BIN --work DIR --seeds 201,202 --caption TEXT --out FILE
        per seed, how many listeners the onset floor (`min_onset_s`, fast onset) and the
        threshold cap (`max_threshold_s`, threshold) bind, from truth.csv's realised
        `onset_s` / `threshold_s` rows; a listener's law parameters are drawn before its
        days, so one day per workspace suffices (measured:response_law_bounds)
    measured_personas.py health-events --bin BIN --work DIR --seeds 1,2 --days 90 --caption TEXT --out FILE
        the planted health events of `--events planned` by kind, from truth.csv's
        `health_event` rows (one event per persona and entity) (measured:health_event_counts)

Standard library only.
"""
import argparse
import collections
import os
import shutil
import sys

import measured

DAILY = [("steps", "steps", 0), ("walk_minutes", "walking min/day", 1), ("workout_minutes", "workout min/day", 1),
         ("readiness", "readiness", 1), ("stress", "stress", 1)]
# (law, strength, the realised parameter, the law row holding its bound, floor or cap)
BOUNDS = [("fast-onset", "moderate", "onset_s", "min_onset_s", "floor"),
          ("fast-onset", "severe", "onset_s", "min_onset_s", "floor"),
          ("threshold", "moderate", "threshold_s", "max_threshold_s", "cap"),
          ("threshold", "severe", "threshold_s", "max_threshold_s", "cap")]
EVENT_KINDS = ["illness", "overreaching", "regression", "improvement"]


def daily_means(args):
    rows = measured.read_csv(os.path.join(args.personas, "daily.csv"))
    by_subject = collections.defaultdict(list)
    for r in rows:
        by_subject[r["subject"]].append(r)
    table = []
    for subject in sorted(by_subject):
        cells = [subject, len(by_subject[subject])]
        for column, _, digits in DAILY:
            values = [v for v in (measured.number(r[column]) for r in by_subject[subject]) if v is not None]
            cells.append(measured.fixed(sum(values) / len(values), digits) if values else "–")
        table.append(cells)
    return [args.caption, ""] + measured.table(["persona", "days"] + [label for _, label, _ in DAILY], table)


def law_bounds(args):
    seeds = [int(s) for s in args.seeds.split(",")]
    bound_at = collections.Counter()  # (bound row, seed) → listeners at the bound
    listeners = collections.Counter()
    for column, (law, strength, parameter, bound, _) in enumerate(BOUNDS):
        for seed in seeds:
            ws = os.path.join(args.work, f"{law}-{strength}-{seed}")
            shutil.rmtree(ws, ignore_errors=True)
            measured.run(args.bin, "personas", "generate", "--out", ws, "--days", "1", "--seed", str(seed),
                         "--response-law", law, "--law-strength", strength)
            rows = [r for r in measured.read_csv(os.path.join(ws, "truth.csv")) if r["kind"] == "response_law"]
            limit = next(float(r["value"]) for r in rows if r["subject"] == "" and r["metric"] == bound)
            realised = [float(r["value"]) for r in rows if r["subject"] != "" and r["metric"] == parameter]
            bound_at[(column, seed)] = sum(1 for v in realised if v == limit)
            listeners[(column, seed)] = len(realised)
    header = ["seed"] + [f"`{law}` {strength}: `{bound}` ({kind})" for law, strength, _, bound, kind in BOUNDS]
    table = [[seed] + [f"{bound_at[(c, seed)]} of {listeners[(c, seed)]}" for c in range(len(BOUNDS))]
             for seed in seeds]
    table.append(["all"] + [f"{sum(bound_at[(c, s)] for s in seeds)} of {sum(listeners[(c, s)] for s in seeds)}"
                            for c in range(len(BOUNDS))])
    return [measured.caption(args.caption, seeds), ""] + measured.table(header, table)


def health_events(args):
    seeds = [int(s) for s in args.seeds.split(",")]
    events, person_days = collections.Counter(), 0
    for seed in seeds:
        ws = os.path.join(args.work, f"seed-{seed}")
        shutil.rmtree(ws, ignore_errors=True)
        measured.run(args.bin, "personas", "generate", "--out", ws, "--days", str(args.days), "--seed", str(seed),
                     "--events", "planned")
        planted = {(r["subject"], r["entity"]) for r in measured.read_csv(os.path.join(ws, "truth.csv"))
                   if r["kind"] == "health_event"}
        for _, entity in planted:
            events[entity.rsplit("-", 1)[0]] += 1
        person_days += len({r["subject"] for r in measured.read_csv(os.path.join(ws, "subjects.csv"))}) * args.days
    # A person-month is 365.25 / 12 days.
    months = person_days / (365.25 / 12)
    kinds = EVENT_KINDS + sorted(set(events) - set(EVENT_KINDS))
    table = [[f"`{k}`", events[k], measured.fixed(events[k] / months, 3)] for k in kinds]
    return [measured.caption(args.caption, seeds), "",
            f"{person_days} person-days ({measured.fixed(months, 1)} person-months):", ""] + \
        measured.table(["kind", "events", "per person-month"], table)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    for name, needs_bin in (("daily-means", False), ("law-bounds", True), ("health-events", True)):
        p = sub.add_parser(name)
        if needs_bin:
            p.add_argument("--bin", required=True, help="the resonance binary")
            p.add_argument("--work", required=True, help="a folder for the generated workspaces")
            p.add_argument("--seeds", required=True, help="comma-separated seeds")
        p.add_argument("--caption", required=True, help="the fragment's first line ({seeds} in it: the seeds, as ranges)")
        p.add_argument("--out", required=True, help="the fragment to write")
    sub.choices["daily-means"].add_argument("--personas", required=True, help="a persona workspace")
    sub.choices["health-events"].add_argument("--days", type=int, default=90, help="days per workspace (default 90)")
    args = parser.parse_args()
    produce = {"daily-means": daily_means, "law-bounds": law_bounds, "health-events": health_events}[args.what]
    return measured.emit(f"measured_personas {args.what}", args.out, lambda: produce(args))


if __name__ == "__main__":
    sys.exit(main())
