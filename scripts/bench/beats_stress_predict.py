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
  30 s: |60 / mean interval − mean HR.csv|, bpm;
- on 60-s windows with ≥ 20 successive differences from each: |RMSSD − RMSSD of IBI.csv|, ms;
  also with each detected onset moved to the nearest sample, as IBI.csv places its beats
  (its times lie on the 64-Hz grid), so that both sides carry the same rounding.

Prints a Markdown table per subject and the median and minimum over subjects.
"""
import argparse
import os
import sys

import numpy as np
import pandas as pd

TOL_S = 0.050


def print_and_write(text, path):
    """Prints the Markdown `text`; with a `path` (--out), writes it there too."""
    print(text)
    if path:
        with open(path, "w") as f:
            f.write(text)


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


def subject_row(s, beats, rr, hr, span):
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
    dhr, drm = [], []
    for w0 in np.arange(start, end - 60 + 1e-9, 60.0):
        w1 = w0 + 60
        mo = (ours_t >= w0) & (ours_t < w1)
        mi = (ibi_t >= w0) & (ibi_t < w1)
        mh = (hr_t >= w0) & (hr_t < w1)
        if ours_iv[mo].sum() / 60 >= 0.5 and ibi_iv[mi].sum() / 60 <= 0.2 and mh.sum() >= 30 and w0 >= start + 30:
            dhr.append(abs(60 / np.mean(ours_iv[mo]) - np.mean(hr_v[mh])))
        ro, no = rmssd(ours_iv[mo], chained[mo])
        ri, ni = rmssd(ibi_iv[mi], chained_ibi[mi])
        if no >= 20 and ni >= 20:
            drm.append(abs(ro - ri) * 1000)
    row["hr_windows"] = len(dhr)
    row["hr_error_bpm"] = float(np.median(dhr)) if dhr else np.nan
    row["rmssd_windows"] = len(drm)
    row["rmssd_error_ms"] = float(np.median(drm)) if drm else np.nan
    row["_dhr"], row["_drm"] = dhr, drm
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("workspace")
    ap.add_argument("--out", help="also write the tables to this Markdown file")
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
        rows.append(subject_row(s, group, rr[rr.subject == s], hr[hr.subject == s], (start, end)))
        rows[-1]["_drm_grid"] = subject_row(s, on_grid(group, start, sg.rate_hz.iloc[0]), rr[rr.subject == s],
                                            hr[hr.subject == s], (start, end))["_drm"]
    cols = ["matched", "ppv", "coverage", "coverage_ibi", "hr_windows", "hr_error_bpm", "rmssd_windows", "rmssd_error_ms"]
    lines = ["| subject | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    fmt = lambda v: "" if isinstance(v, float) and np.isnan(v) else (f"{v:.3f}" if isinstance(v, float) else str(v))
    for r in rows:
        lines.append(f"| {r['subject']} | " + " | ".join(fmt(r[c]) for c in cols) + " |")
    for name, fn in (("median", np.nanmedian), ("minimum", np.nanmin), ("maximum", np.nanmax)):
        lines.append(f"| {name} | " + " | ".join(fmt(float(fn([r[c] for r in rows]))) for c in cols) + " |")
    pooled_hr = [v for r in rows for v in r["_dhr"]]
    pooled_rm = [v for r in rows for v in r["_drm"]]
    pooled_grid = [v for r in rows for v in r["_drm_grid"]]
    lines.append("")
    lines.append(f"Pooled over subjects: |HR − HR.csv| median {np.median(pooled_hr):.2f} bpm on {len(pooled_hr)} pulse-only "
                 f"windows; |RMSSD − IBI.csv's| median {np.median(pooled_rm):.2f} ms on {len(pooled_rm)} windows, "
                 f"{np.median(pooled_grid):.2f} ms on {len(pooled_grid)} with the onsets on IBI.csv's sample grid.")
    print_and_write("\n".join(lines) + "\n", a.out)


if __name__ == "__main__":
    main()
