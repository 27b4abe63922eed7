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


def test_spectral_hr_is_the_pulse_waves_dominant_frequency():
    # 60 s at 64 Hz of a 1.25-Hz wave: 2^16 points put a bin every 64/65536 Hz, and
    # 1.25 Hz is bin 1280 exactly, 75 bpm. A larger 0.2-Hz swing (12 bpm, as breathing
    # moves the baseline) lies outside 40–180 bpm and changes nothing; 1 s of samples is
    # too short.
    t = np.arange(60 * 64) / 64
    pulse = np.sin(2 * np.pi * 1.25 * t)
    expect("spectral_hr", [bsp.spectral_hr(pulse, 64.0)], [75.0])
    expect("spectral_hr_baseline", [bsp.spectral_hr(pulse + 3 * np.sin(2 * np.pi * 0.2 * t), 64.0)], [75.0])
    expect("spectral_hr_short", [float(np.isnan(bsp.spectral_hr(pulse[:64], 64.0)))], [1.0])


def test_window_kinds():
    # Coverage is the intervals' sum over 60 s; 40 HR.csv values suffice, 29 do not.
    thirty_six, six, hr = np.full(36, 1.0), np.full(6, 1.0), np.full(40, 70.0)
    kinds = [bsp.hr_window_kind(thirty_six, six, hr, 60, 0), bsp.hr_window_kind(thirty_six, thirty_six, hr, 60, 0),
             bsp.hr_window_kind(six, six, hr, 60, 0), bsp.hr_window_kind(thirty_six, six, hr, 29, 0),
             bsp.hr_window_kind(thirty_six, six, hr[:29], 60, 0)]
    results.append(kinds == ["pulse", "both", None, None, None])
    print(f"Test Case 'beats_bench.window_kinds' {'passed' if results[-1] else 'failed'}")
    if not results[-1]:
        print(f"  got {kinds}")


def test_windows_both_cover_compare_the_detected_beats_with_the_devices():
    # Window [60, 120): detected beats each second from 61 s (59 intervals of 1 s, 60 bpm),
    # IBI.csv's every 0.8 s from 61.6 s (40 intervals, 32 s, 75 bpm), HR.csv 70 bpm
    # stamped 70–129 s. [0, 60) lies in the first 30 s.
    ours = (np.arange(61, 120, 1.0), np.full(59, 1.0))
    ibi = (60.8 + 0.8 * np.arange(1, 41), np.full(40, 0.8))
    hr = (np.arange(70, 130, 1.0), np.full(60, 70.0))
    from_ibi, from_ours, ours_to_ibi = bsp.covered_hr_errors(ours, ibi, hr, (0.0, 130.0), bsp.HR_SPAN_S)
    expect("covered_ibi_to_hr", from_ibi, [5.0])
    expect("covered_ours_to_hr", from_ours, [10.0])
    expect("covered_ours_to_ibi", ours_to_ibi, [15.0])


def test_the_choice_of_beats_alone_moves_rmssd():
    # Reliable intervals 1.0, 1.1, … (26) then 1.0, 1.2, … (24) from a beat at 0.5 s: 49
    # successive differences, 26 of ±0.1 s (the one across the change included) and 23 of
    # ±0.2 s, RMSSD √(1.18 / 49) s. IBI.csv holds the first 27 beats only: its 25
    # differences, as measured here, are all ±0.1 s, RMSSD 0.1 s.
    intervals = np.r_[np.tile([1.0, 1.1], 13), np.tile([1.0, 1.2], 12)]
    t = 0.5 + np.r_[0, np.cumsum(intervals)]
    iv = np.r_[np.nan, intervals]
    ok = np.r_[False, np.full(50, True)]
    chained = np.r_[False, ok[1:] & ok[:-1]][ok]
    ti, ii = t[:27], np.r_[0.8, intervals[:26]]
    succ = np.r_[False, np.abs(ii[1:] - np.diff(ti)) <= bsp.TOL_S]
    got = bsp.subset_rmssd_errors((t[ok], iv[ok], chained), (t, iv, ok), (ti, ii, succ), (0.0, 60.0))
    expect("subset_rmssd", got, [(np.sqrt(1.18 / 49) - 0.1) * 1000])


if __name__ == "__main__":
    test_hr_from_the_values_whose_spans_start_in_the_window()
    test_differences_both_give_come_from_the_same_three_beats()
    test_spectral_hr_is_the_pulse_waves_dominant_frequency()
    test_window_kinds()
    test_windows_both_cover_compare_the_detected_beats_with_the_devices()
    test_the_choice_of_beats_alone_moves_rmssd()
    sys.exit(0 if all(results) else 1)
