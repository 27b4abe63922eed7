#!/usr/bin/env python3
"""Checks the definitions of scripts/bench/beats_stress_predict.py on small inputs worked by
hand (`make beats-bench-test`, in `make test`, about a second).

    beats_bench_check.py

Prints one `Test Case 'beats_bench.NAME' passed|failed` line per case, with what was
expected and what came for a failed one; exits 1 on any failure. Needs numpy and pandas
(the project's venv), as the script itself does.
"""
import os
import sys

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))
import beats_stress_predict as bsp  # noqa: E402

results = []


def expect(name, have, want):
    ok = len(have) == len(want) and all(abs(h - w) < 1e-9 for h, w in zip(have, want))
    results.append(ok)
    print(f"Test Case 'beats_bench.{name}' {'passed' if ok else 'failed'}")
    if not ok:
        print(f"  expected {want}\n  got      {have}")


def stamps(seconds):
    return pd.to_datetime(np.asarray(seconds), unit="s", utc=True).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def step_recording():
    """200 s: beats every 1 s (60 bpm) up to 120 s, then every 2/3 s (90 bpm); HR.csv from
    10 s on, each value the mean over the 10 s before its stamp, so 60 up to 129 s and 90
    from 130 s. No IBI.csv beats: every window is the pulse wave's alone."""
    t = np.r_[np.arange(0, 120, 1.0), 120 + np.arange(0, 120) * (2 / 3)]
    t = t[t < 200]
    beats = pd.DataFrame({"timestamp": stamps(t), "interval_ms": np.r_[np.nan, np.diff(t) * 1000], "reliable": [False] + [True] * (len(t) - 1)})
    rr = pd.DataFrame({"timestamp": stamps([]), "rr_ms": np.array([], float)})
    ht = np.arange(10, 200, 1.0)
    hr = pd.DataFrame({"timestamp": stamps(ht), "bpm": np.where(ht < 130, 60.0, 90.0)})
    return beats, rr, hr


def test_hr_from_the_values_whose_spans_start_in_the_window():
    # Windows [0, 60) (inside the first 30 s: skipped), [60, 120), [120, 180); [180, 240)
    # runs past the end. [60, 120): 60 bpm both ways. [120, 180): the beat at 120 s closes
    # a 1-s interval, then 89 of 2/3 s, so 60 / ((1 + 89 · 2/3) / 90) bpm; the HR.csv
    # values stamped in [130, 190) are all 90, those stamped in [120, 180) are ten 60s and
    # fifty 90s, a mean of 85.
    beats, rr, hr = step_recording()
    row = bsp.subject_row("S99", beats, rr, hr, (0.0, 200.0))
    ours = 60 / ((1 + 89 * 2 / 3) / 90)
    expect("hr_shifted", row["_dhr"], [0.0, 90 - ours])
    expect("hr_unshifted", row["_dhr_unshifted"], [0.0, ours - 85])


def test_differences_both_give_come_from_the_same_three_beats():
    # Detected beats at 0, 1, 2.1, 3, 4.2 s (reliable but the first); IBI.csv's at 0.01,
    # 1.02, 2.08, 3.0 and, after a gap, 4.2 s. IBI.csv's differences: at 2.08 s
    # (1.06 − 1.01 = 0.05) and at 3.0 s (0.92 − 1.06 = −0.14); the interval closing at
    # 4.2 s does not follow its predecessor, so it gives none. Ours from the same beats:
    # 1.1 − 1.0 = 0.1 and 0.9 − 1.1 = −0.2.
    t = np.array([0, 1, 2.1, 3, 4.2])
    iv = np.r_[np.nan, np.diff(t)]
    ok = np.array([False, True, True, True, True])
    ti = np.array([0.01, 1.02, 2.08, 3.0, 4.2])
    ii = np.array([0.5, 1.01, 1.06, 0.92, 0.7])
    succ = np.r_[False, np.abs(ii[1:] - np.diff(ti)) <= bsp.TOL_S]
    got = bsp.common_differences((t, iv, ok), (ti, ii, succ))
    expect("common_times", [g[0] for g in got], [2.08, 3.0])
    expect("common_ibi", [g[1] for g in got], [0.05, -0.14])
    expect("common_ours", [g[2] for g in got], [0.1, -0.2])
    # The first detected interval unreliable: the difference at 2.08 s is no longer ours.
    ok[1] = False
    expect("common_unreliable", [g[0] for g in bsp.common_differences((t, iv, ok), (ti, ii, succ))], [3.0])


if __name__ == "__main__":
    test_hr_from_the_values_whose_spans_start_in_the_window()
    test_differences_both_give_come_from_the_same_three_beats()
    sys.exit(0 if all(results) else 1)
