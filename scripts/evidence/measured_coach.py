#!/usr/bin/env python3
"""The heart coach's rules on the personas (measured:coach_personas, docs/engines/heart-coach.md, Coaching rules).

Runs `resonance daily` on a copy of a persona workspace with the default constants and
with `trend.regression_method` 3 (the EWMA chart), and counts from nudges.csv and
coaching.csv: the primary nudge's tier and readiness gate, the days of low confidence
(the assessment's) by the primary nudge's tier and gate, and per persona the days the
activity-pattern and sleep-pattern recommendations fire.

    measured_coach.py --bin BIN --personas WS --work DIR --caption TEXT --out FILE

Standard library only.
"""
import argparse
import collections
import os
import sys

import measured

# The primary tiers in the order the rules try them (negative feedback never fires offline).
TIERS = ["stress", "regression", "low_data", "negative", "positive", "default"]
GATES = ["full", "moderate", "recovering", "ungated"]
PATTERNS = ["activity_pattern", "sleep_pattern"]


def replay(binary, source, ws, constants=None):
    """(primary nudges by (subject, date), coaching rows) of `resonance daily` on a copy."""
    measured.fresh_copy(source, ws)
    measured.run(binary, "daily", ws, *(["--constants", constants] if constants else []))
    primary = {(r["subject"], r["date"]): r for r in measured.read_csv(os.path.join(ws, "nudges.csv"))
               if r["rank"] == "1"}
    return primary, measured.read_csv(os.path.join(ws, "coaching.csv"))


def present(order, *counters):
    """The keys of `order` that any counter holds, then any others, sorted."""
    seen = set().union(*counters)
    return [k for k in order if k in seen] + sorted(seen - set(order))


def fragment(binary, personas, work, caption):
    ewma = measured.write_constants(os.path.join(work, "regression_ewma.json"), "trend", {"regression_method": 3})
    default, coaching = replay(binary, personas, os.path.join(work, "defaults"))
    chart, _ = replay(binary, personas, os.path.join(work, "ewma"), ewma)
    days = len(default)
    lines = [caption, ""]

    tiers = collections.Counter(r["tier"] for r in default.values())
    tiers_chart = collections.Counter(r["tier"] for r in chart.values())
    gates = collections.Counter(r["gate"] for r in default.values())
    gates_chart = collections.Counter(r["gate"] for r in chart.values())
    lines += [f"The primary nudge on the {days} person-days, by tier and by the readiness gate:", ""]
    lines += measured.table(["primary tier", "days (defaults)", "days (`trend.regression_method` 3)"],
                            [[f"`{t}`", tiers[t], tiers_chart[t]] for t in present(TIERS, tiers, tiers_chart)])
    lines += [""]
    lines += measured.table(["readiness gate", "days (defaults)", "days (`trend.regression_method` 3)"],
                            [[f"`{g}`", gates[g], gates_chart[g]] for g in present(GATES, gates, gates_chart)])

    confidence = {(r["subject"], r["date"]): r["category"] for r in coaching if r["kind"] == "assessment"}
    low = [default[k] for k in sorted(default) if confidence.get(k) == "low"]
    per_persona = sorted(set(collections.Counter(k[0] for k in default if confidence.get(k) == "low").values()))
    cells = collections.Counter((r["tier"], r["gate"]) for r in low)
    low_tiers = present(TIERS, {t for t, _ in cells})
    low_gates = present(GATES, {g for _, g in cells})
    spread = (f"{per_persona[0]} per persona" if len(per_persona) == 1
              else f"{per_persona[0]}–{per_persona[-1]} per persona")
    lines += ["", f"Days of low confidence (the assessment's): {len(low)} ({spread}), by the primary nudge's "
              "tier and readiness gate (defaults):", ""]
    lines += measured.table(["primary tier"] + [f"`{g}`" for g in low_gates] + ["all"],
                            [[f"`{t}`"] + [cells[(t, g)] for g in low_gates] + [sum(cells[(t, g)] for g in low_gates)]
                             for t in low_tiers])

    fired = collections.Counter((r["subject"], r["id"]) for r in coaching
                                if r["kind"] == "recommendation" and r["id"] in PATTERNS)
    subject_days = collections.Counter(subject for subject, _ in default)
    lines += ["", "Days the pattern recommendations fire, per persona (defaults):", ""]
    lines += measured.table(["persona", "days", "activity pattern", "sleep pattern"],
                            [[s, subject_days[s]] + [fired[(s, p)] for p in PATTERNS] for s in sorted(subject_days)])
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the resonance binary")
    parser.add_argument("--personas", required=True, help="a `resonance personas generate` workspace")
    parser.add_argument("--work", required=True, help="a folder for the copies")
    parser.add_argument("--caption", required=True, help="the fragment's first line")
    parser.add_argument("--out", required=True, help="the fragment to write")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    return measured.emit("measured_coach", args.out, lambda: fragment(args.bin, args.personas, args.work, args.caption))


if __name__ == "__main__":
    sys.exit(main())
