#!/usr/bin/env python3
"""Pulse-wave beats on Stress-Predict against the E4's own beats (IBI.csv) and heart rate.

Reads a workspace where `resonance run` (or import then `resonance beats`) ran on the
Stress-Predict folder: `beats.csv` (the pulse onsets found in BVP.csv, `e4:elgendi-foot`),
`rr.csv` (IBI.csv's beats, source `e4`) and `hr.csv` (HR.csv). Per subject, as
definitions:

- matched: the share of IBI.csv's beats with a detected onset within 50 ms;
- positive predictivity: of the reliable detected beats inside IBI.csv's stretches (runs of
  beats each closing an interval equal to the time since the listed beat before it, 50 ms),
  the share within 50 ms of one of IBI.csv's beats;
- coverage: the summed length of reliable intervals over the recording's length (first to
  last BVP sample), against IBI.csv's (its successive intervals over the same length);
- on 60-s windows where reliable intervals cover ≥ 50 % and IBI.csv ≤ 20 %, after the first
  30 s: |60 / mean interval − mean HR.csv|, bpm, where the HR.csv values describing a window
  [w0, w1) are those stamped in [w0 + 10 s, w1 + 10 s): each value is the device's average
  over the 10 s before its time stamp (Empatica, "E4 data - HR.csv explanation": the file
  starts 10 s after the recording because the first value needs 10 s of signal), so these
  are the values whose 10-s spans start inside the window. Also with the values stamped
  inside [w0, w1), as measured before (`hr_lag_s` 0);
- on 60-s windows with ≥ 20 successive differences from each: |RMSSD − RMSSD of IBI.csv|, ms;
  also with each detected onset moved to the nearest sample, as IBI.csv places its beats
  (its times lie on the 64-Hz grid), so that both sides carry the same rounding; and over
  only the successive differences both give, from the same three beats (`common_differences`),
  on windows with ≥ 20 of them: the same beats measured twice.

Prints a Markdown table per subject and the median and minimum over subjects, then the
pooled medians over all subjects, over S02–S13 (on which the beat-quality thresholds were
chosen) and over S14–S26 alone.
"""
import argparse
import os
import sys

import numpy as np
import pandas as pd

TOL_S = 0.050
# HR.csv's value at time t is the average over [t - 10 s, t] (Empatica, "E4 data - HR.csv
# explanation").
HR_SPAN_S = 10.0
# The subjects the beat-quality thresholds were chosen on, and those held out.
DEVELOPMENT = [f"S{k:02d}" for k in range(2, 14)]
HELD_OUT = [f"S{k:02d}" for k in range(14, 27)]


def print_and_write(text, path):
    """Prints the Markdown `text`; with a `path` (--out), writes it there too."""
    print(text)
    if path:
        with open(path, "w") as f:
            f.write(text)


def read_e4_channel(path):
    """An E4 single-channel CSV (first line the start, Unix s; second the rate, Hz; then one
    sample a line): (start s, rate Hz, samples)."""
    try:
        values = np.loadtxt(path, delimiter=",", ndmin=1)
    except (OSError, ValueError) as e:
        sys.exit(f"beats-stress-predict: {path}: {e}")
    if values.ndim != 1 or len(values) < 3:
        sys.exit(f"beats-stress-predict: {path}: not one channel of the E4 layout (start, rate, samples)")
    return float(values[0]), float(values[1]), values[2:]


def spectral_hr(samples, rate_hz):
    """Heart rate (bpm) without detecting a beat: the frequency in 40–180 bpm where the
    periodogram of the samples (mean removed, Hann window, zero-padded to 2^16 points,
    0.06 bpm apart at 64 Hz) peaks; NaN for fewer than 2 s of samples."""
    if len(samples) < 2 * rate_hz:
        return np.nan
    x = (samples - np.mean(samples)) * np.hanning(len(samples))
    n = max(1 << 16, len(x))
    power = np.abs(np.fft.rfft(x, n)) ** 2
    bpm = np.fft.rfftfreq(n, 1 / rate_hz) * 60
    band = (bpm >= 40) & (bpm <= 180)
    return float(bpm[band][np.argmax(power[band])])


def minute_windows(ours_t, ibi_t, hr_t, span, hr_lag_s):
    """The 60-s windows [w0, w0 + 60 s) from the recording's start that end inside it: w0
    and the masks of the detected intervals and of IBI.csv's (by the time of the beat
    closing each) inside the window, and of the HR.csv values stamped in
    [w0 + hr_lag_s, w0 + 60 s + hr_lag_s)."""
    start, end = span
    for w0 in np.arange(start, end - 60 + 1e-9, 60.0):
        w1 = w0 + 60
        yield (w0, (ours_t >= w0) & (ours_t < w1), (ibi_t >= w0) & (ibi_t < w1),
               (hr_t >= w0 + hr_lag_s) & (hr_t < w1 + hr_lag_s))


def hr_window_kind(ours_iv, ibi_iv, hr_values, w0, start):
    """Which heart-rate comparison a 60-s window from w0 enters, given the reliable
    intervals and IBI.csv's successive intervals closing in it and its HR.csv values:
    "pulse" where the reliable ones cover ≥ 50 % and IBI.csv's ≤ 20 %, "both" where each
    covers ≥ 50 %; None within the first 30 s or with fewer than 30 HR.csv values."""
    if len(hr_values) < 30 or w0 < start + 30:
        return None
    ours, ibi = ours_iv.sum() / 60, ibi_iv.sum() / 60
    if ours >= 0.5 and ibi <= 0.2:
        return "pulse"
    if ours >= 0.5 and ibi >= 0.5:
        return "both"
    return None


def seconds(column):
    return (pd.to_datetime(column, utc=True) - pd.Timestamp(0, tz="UTC")).dt.total_seconds().to_numpy()


def nearest(a, b):
    if len(b) == 0:
        return np.full(len(a), np.inf)
    k = np.searchsorted(b, a)
    return np.minimum(np.abs(a - b[np.clip(k - 1, 0, len(b) - 1)]), np.abs(a - b[np.clip(k, 0, len(b) - 1)]))


def rmssd(intervals, chained):
    d = np.diff(intervals)[chained[1:]]
    return (np.sqrt(np.mean(d * d)) if len(d) else np.nan), len(d)


def on_grid(beats, start, rate_hz):
    """The beats with each time moved to the nearest sample of the pulse wave, and each
    interval (not the first of a segment) recomputed from the moved times."""
    t = start + np.round((seconds(beats.timestamp) - start) * rate_hz) / rate_hz
    moved = beats.copy()
    moved["timestamp"] = pd.to_datetime(t, unit="s", utc=True)
    interval = np.r_[np.nan, np.diff(t) * 1000]
    moved["interval_ms"] = np.where(beats.interval_ms.isna(), np.nan, interval)
    return moved


def subject_row(s, beats, rr, hr, span, bvp=None):
    t = seconds(beats.timestamp)
    iv = beats.interval_ms.to_numpy() / 1000
    ok = beats.reliable.to_numpy()
    ti = seconds(rr.timestamp)
    ii = rr.rr_ms.to_numpy() / 1000
    succ = np.zeros(len(ti), bool)
    succ[1:] = np.abs(ii[1:] - np.diff(ti)) <= TOL_S
    start, end = span
    length = end - start
    reliable_beat = ok.copy()
    reliable_beat[:-1] |= ok[1:]
    row = {"subject": s}
    row["matched"] = float(np.mean(nearest(ti, t) <= TOL_S)) if len(ti) else np.nan
    stretches, i = [], 0
    while i < len(ti):
        j = i
        while j + 1 < len(ti) and succ[j + 1]:
            j += 1
        if j > i:
            stretches.append((ti[i], ti[j]))
        i = j + 1
    inside = np.zeros(len(t), bool)
    for a, b in stretches:
        inside |= (t >= a - TOL_S) & (t <= b + TOL_S)
    x = t[reliable_beat & inside]
    row["ppv"] = float(np.mean(nearest(x, ti) <= TOL_S)) if len(x) else np.nan
    row["coverage"] = float(np.nansum(iv[ok]) / length)
    row["coverage_ibi"] = float(np.sum(ii[succ]) / length)
    ours_iv, ours_t = iv[ok], t[ok]
    chained = np.zeros(len(t), bool)
    chained[1:] = ok[1:] & ok[:-1]
    chained = chained[ok]
    ibi_iv, ibi_t = ii[succ], ti[succ]
    chained_ibi = np.zeros(len(ti), bool)
    chained_ibi[1:] = succ[1:] & succ[:-1]
    chained_ibi = chained_ibi[succ]
    hr_t, hr_v = seconds(hr.timestamp), hr.bpm.to_numpy()
    dhr, drm = window_errors((ours_t, ours_iv, chained), (ibi_t, ibi_iv, chained_ibi), (hr_t, hr_v), span, HR_SPAN_S)
    row["hr_windows"] = len(dhr)
    row["hr_error_bpm"] = float(np.median(dhr)) if dhr else np.nan
    row["rmssd_windows"] = len(drm)
    row["rmssd_error_ms"] = float(np.median(drm)) if drm else np.nan
    row["_dhr"], row["_drm"] = dhr, drm
    row["_dhr_unshifted"] = window_errors((ours_t, ours_iv, chained), (ibi_t, ibi_iv, chained_ibi), (hr_t, hr_v), span, 0)[0]
    row["_drm_common"] = common_rmssd_errors((t, iv, ok), (ti, ii, succ), span)
    row["_drm_subset"] = subset_rmssd_errors((ours_t, ours_iv, chained), (t, iv, ok), (ti, ii, succ), span)
    for lag, suffix in ((HR_SPAN_S, ""), (0, "_unshifted")):
        row["_covered_ibi" + suffix], row["_covered_ours" + suffix], row["_covered_ours_ibi" + suffix] = \
            covered_hr_errors((ours_t, ours_iv), (ibi_t, ibi_iv), (hr_t, hr_v), span, lag)
    row["_spec_ours"], row["_spec_hrcsv"], row["_spec_ibi"] = (
        spectral_hr_errors((ours_t, ours_iv), (ibi_t, ibi_iv), (hr_t, hr_v), bvp, span) if bvp else ([], [], []))
    return row


def covered_hr_errors(ours, ibi, hr, span, hr_lag_s):
    """On the 60-s windows that both IBI.csv's successive intervals and the reliable ones
    cover (`hr_window_kind` "both"): |60 / IBI.csv's mean interval − mean HR.csv|,
    |60 / the mean reliable interval − mean HR.csv| and |60 / the mean reliable interval −
    60 / IBI.csv's|, bpm, HR.csv from [w0 + hr_lag_s, w1 + hr_lag_s): how well HR.csv
    follows beats where it has them, and the detected beats the device's."""
    (ours_t, ours_iv), (ibi_t, ibi_iv), (hr_t, hr_v) = ours, ibi, hr
    from_ibi, from_ours, ours_to_ibi = [], [], []
    for w0, mo, mi, mh in minute_windows(ours_t, ibi_t, hr_t, span, hr_lag_s):
        if hr_window_kind(ours_iv[mo], ibi_iv[mi], hr_v[mh], w0, span[0]) == "both":
            from_ibi.append(abs(60 / np.mean(ibi_iv[mi]) - np.mean(hr_v[mh])))
            from_ours.append(abs(60 / np.mean(ours_iv[mo]) - np.mean(hr_v[mh])))
            ours_to_ibi.append(abs(60 / np.mean(ours_iv[mo]) - 60 / np.mean(ibi_iv[mi])))
    return from_ibi, from_ours, ours_to_ibi


def spectral_hr_errors(ours, ibi, hr, bvp, span):
    """The pulse wave's spectral heart rate (`spectral_hr` over the window's samples)
    against the others, bpm: on the pulse-only windows |spectral − 60 / the mean reliable
    interval| and |spectral − mean HR.csv| (HR.csv from [w0 + 10 s, w1 + 10 s)); on the
    windows both cover |spectral − 60 / IBI.csv's mean interval|. `bvp` is (start s,
    rate Hz, samples)."""
    (ours_t, ours_iv), (ibi_t, ibi_iv), (hr_t, hr_v) = ours, ibi, hr
    t0, rate, x = bvp
    to_ours, to_hr, to_ibi = [], [], []
    for w0, mo, mi, mh in minute_windows(ours_t, ibi_t, hr_t, span, HR_SPAN_S):
        kind = hr_window_kind(ours_iv[mo], ibi_iv[mi], hr_v[mh], w0, span[0])
        if kind is None:
            continue
        first = max(0, int(round((w0 - t0) * rate)))
        spectral = spectral_hr(x[first:first + int(round(60 * rate))], rate)
        if kind == "pulse":
            to_ours.append(abs(spectral - 60 / np.mean(ours_iv[mo])))
            to_hr.append(abs(spectral - np.mean(hr_v[mh])))
        else:
            to_ibi.append(abs(spectral - 60 / np.mean(ibi_iv[mi])))
    return to_ours, to_hr, to_ibi


def common_differences(ours, ibi):
    """The successive differences (s) that both give, from the same three beats: each of
    IBI.csv's that follows two successive intervals, where the detected beats nearest its
    three beats (within 50 ms) are three in a row closing two reliable intervals. Returns
    (time of the last beat s, IBI.csv's difference, ours)."""
    (t, iv, ok), (ti, ii, succ) = ours, ibi
    out = []
    if len(t) < 3:
        return out
    k = np.clip(np.searchsorted(t, ti), 1, len(t) - 1)
    j = np.where(np.abs(t[k - 1] - ti) <= np.abs(t[k] - ti), k - 1, k)
    near = np.abs(t[j] - ti) <= TOL_S
    for m in range(2, len(ti)):
        if not (succ[m] and succ[m - 1] and near[m] and near[m - 1] and near[m - 2]):
            continue
        if j[m - 1] == j[m] - 1 and j[m - 2] == j[m] - 2 and ok[j[m]] and ok[j[m] - 1]:
            out.append((ti[m], ii[m] - ii[m - 1], iv[j[m]] - iv[j[m] - 1]))
    return out


def common_rmssd_errors(ours, ibi, span):
    """|RMSSD − IBI.csv's RMSSD| (ms) on the 60-s windows with ≥ 20 differences that both
    give (`common_differences`), each RMSSD over those differences only."""
    d = np.array(common_differences(ours, ibi)).reshape(-1, 3)
    start, end = span
    errors = []
    for w0 in np.arange(start, end - 60 + 1e-9, 60.0):
        m = (d[:, 0] >= w0) & (d[:, 0] < w0 + 60)
        if m.sum() >= 20:
            errors.append(abs(np.sqrt(np.mean(d[m, 1] ** 2)) - np.sqrt(np.mean(d[m, 2] ** 2))) * 1000)
    return errors


def subset_rmssd_errors(reliable, ours, ibi, span):
    """|RMSSD over every reliable successive difference in the window − RMSSD over only
    those IBI.csv also gives (`common_differences`, as measured here)|, ms, on the 60-s
    windows with ≥ 20 of each: how far the choice of beats alone moves RMSSD, every beat
    measured the same way. `reliable` is (time of the closing beat s, reliable interval s,
    whether it follows another)."""
    t, iv, chained = reliable
    times, d = t[1:][chained[1:]], np.diff(iv)[chained[1:]]
    common = np.array(common_differences(ours, ibi)).reshape(-1, 3)
    start, end = span
    errors = []
    for w0 in np.arange(start, end - 60 + 1e-9, 60.0):
        m = (times >= w0) & (times < w0 + 60)
        mc = (common[:, 0] >= w0) & (common[:, 0] < w0 + 60)
        if m.sum() >= 20 and mc.sum() >= 20:
            errors.append(abs(np.sqrt(np.mean(d[m] ** 2)) - np.sqrt(np.mean(common[mc, 2] ** 2))) * 1000)
    return errors


def window_errors(ours, ibi, hr, span, hr_lag_s):
    """On the 60-s windows from the recording's start: |HR − HR.csv| (bpm) where only the
    pulse wave covers the window, the HR.csv values taken from [w0 + hr_lag_s, w1 + hr_lag_s),
    and |RMSSD − IBI.csv's RMSSD| (ms) where both have ≥ 20 successive differences.
    Pulse-only windows are `hr_window_kind`'s "pulse". `ours` and `ibi` are (time of the
    closing beat s, interval s, whether it follows another)."""
    (ours_t, ours_iv, chained), (ibi_t, ibi_iv, chained_ibi), (hr_t, hr_v) = ours, ibi, hr
    dhr, drm = [], []
    for w0, mo, mi, mh in minute_windows(ours_t, ibi_t, hr_t, span, hr_lag_s):
        if hr_window_kind(ours_iv[mo], ibi_iv[mi], hr_v[mh], w0, span[0]) == "pulse":
            dhr.append(abs(60 / np.mean(ours_iv[mo]) - np.mean(hr_v[mh])))
        ro, no = rmssd(ours_iv[mo], chained[mo])
        ri, ni = rmssd(ibi_iv[mi], chained_ibi[mi])
        if no >= 20 and ni >= 20:
            drm.append(abs(ro - ri) * 1000)
    return dhr, drm


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("workspace")
    ap.add_argument("--out", help="also write the tables to this Markdown file")
    ap.add_argument("--bvp-root", help="the Stress-Predict folder (SXX/BVP.csv): adds the pulse wave's spectral "
                                       "heart rate as a third one; without it those rows are left out")
    a = ap.parse_args()
    beats = pd.read_csv(os.path.join(a.workspace, "beats.csv"))
    beats = beats[beats.source == "e4:elgendi-foot"]
    if beats.empty:
        sys.exit(f"beats-stress-predict: {a.workspace}/beats.csv has no E4 pulse-wave beats")
    rr = pd.read_csv(os.path.join(a.workspace, "rr.csv"))
    rr = rr[rr.source == "e4"]
    hr = pd.read_csv(os.path.join(a.workspace, "hr.csv"))
    seg = pd.read_csv(os.path.join(a.workspace, "waveforms.csv"))
    seg = seg[seg.channel == "bvp"]
    rows = []
    for s, group in beats.groupby("subject", sort=True):
        sg = seg[seg.subject == s]
        start = seconds(sg.start).min() + (sg.first_sample / sg.rate_hz).min()
        end = (seconds(sg.start) + (sg.first_sample + sg.samples) / sg.rate_hz).max()
        bvp = read_e4_channel(os.path.join(a.bvp_root, s, "BVP.csv")) if a.bvp_root else None
        rows.append(subject_row(s, group, rr[rr.subject == s], hr[hr.subject == s], (start, end), bvp))
        rows[-1]["_drm_grid"] = subject_row(s, on_grid(group, start, sg.rate_hz.iloc[0]), rr[rr.subject == s],
                                            hr[hr.subject == s], (start, end))["_drm"]
    cols = ["matched", "ppv", "coverage", "coverage_ibi", "hr_windows", "hr_error_bpm", "rmssd_windows", "rmssd_error_ms"]
    lines = ["| subject | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    fmt = lambda v: "" if isinstance(v, float) and np.isnan(v) else (f"{v:.3f}" if isinstance(v, float) else str(v))
    for r in rows:
        lines.append(f"| {r['subject']} | " + " | ".join(fmt(r[c]) for c in cols) + " |")
    for name, fn in (("median", np.nanmedian), ("minimum", np.nanmin), ("maximum", np.nanmax)):
        lines.append(f"| {name} | " + " | ".join(fmt(float(fn([r[c] for r in rows]))) for c in cols) + " |")
    lines += ["", pooled_table(rows)]
    print_and_write("\n".join(lines) + "\n", a.out)


def pooled_table(rows):
    """The windows' errors pooled over all subjects, S02–S13 and S14–S26: median (windows)."""
    groups = [("all", None), ("S02–S13", DEVELOPMENT), ("S14–S26", HELD_OUT)]
    measures = [("\\|HR − HR.csv\\|, bpm, HR.csv from [w0 + 10 s, w1 + 10 s)", "_dhr"),
                ("\\|HR − HR.csv\\|, bpm, HR.csv from [w0, w1)", "_dhr_unshifted"),
                ("windows both cover: \\|IBI.csv's HR − HR.csv\\|, bpm, [w0 + 10 s, w1 + 10 s)", "_covered_ibi"),
                ("the same, [w0, w1)", "_covered_ibi_unshifted"),
                ("windows both cover: \\|HR − HR.csv\\|, bpm, [w0 + 10 s, w1 + 10 s)", "_covered_ours"),
                ("the same, [w0, w1)", "_covered_ours_unshifted"),
                ("windows both cover: \\|HR − IBI.csv's HR\\|, bpm", "_covered_ours_ibi"),
                ("windows both cover: \\|spectral HR of the pulse wave − IBI.csv's HR\\|, bpm", "_spec_ibi"),
                ("pulse-only windows: \\|spectral HR − HR\\|, bpm", "_spec_ours"),
                ("pulse-only windows: \\|spectral HR − HR.csv\\|, bpm, [w0 + 10 s, w1 + 10 s)", "_spec_hrcsv"),
                ("\\|RMSSD − IBI.csv's\\|, ms, sub-sample onsets", "_drm"),
                ("\\|RMSSD − IBI.csv's\\|, ms, onsets on IBI.csv's 64-Hz grid", "_drm_grid"),
                ("\\|RMSSD − IBI.csv's\\|, ms, the successive differences both give", "_drm_common"),
                ("\\|RMSSD − RMSSD over only the differences IBI.csv also gives\\|, ms, both from the detected beats",
                 "_drm_subset")]
    lines = ["| pooled windows, median (windows) | " + " | ".join(g for g, _ in groups) + " |",
             "|---" * (len(groups) + 1) + "|"]
    for label, key in measures:
        cells = []
        for _, subjects in groups:
            values = [v for r in rows if subjects is None or r["subject"] in subjects for v in r[key]]
            cells.append(f"{np.median(values):.2f} ({len(values)})" if values else "")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
