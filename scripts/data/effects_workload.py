#!/usr/bin/env python3
"""Deterministic listening workload with planted song effects, for the effects
benchmark and for end-to-end recovery checks of `resonance sessions` + `effects`.

Each listener j has a sensitivity lambda_j (mean exactly 1) and each song i a
planted ΔHR effect s_i (bpm): the expected measured change of a full play of the
song (its duration D_i). During a play the listener's HR moves towards a plateau
lambda_j * s_i / f(D_i) as 1 - exp(-t/45 s) from the play start and relaxes back as
exp(-t/6 s) after it ends, so the previous play carries over; f(d) is the share of
the plateau the change between the 30 s windows' midpoints captures. HR is
written in the first and last 30 s of every play (`--hr-step` seconds apart) with
N(0, noise) measurement noise. Writes plays.csv, hr.csv and truth.csv in the
canonical formats (docs/tables.md); with --rr also rr.csv with a planted RMSSD
effect per song.
"""
import argparse
import os
import sys

import numpy as np

from workspace_manifest import write_manifest

TAU_ON, TAU_OFF = 45.0, 6.0


def captured(d, window):
    """Share of the plateau seen by the change between window midpoints, d played."""
    half = np.minimum(window, d) / 2
    return np.maximum(0.0, np.exp(-half / TAU_ON) - np.exp(-(d - half) / TAU_ON))


def iso(ms):
    return np.char.add(np.datetime_as_string(ms.astype("datetime64[ms]"), unit="ms"), "Z")


def write_csv(path, header, columns, chunk=500_000):
    """Writes equal-length column arrays as CSV rows, a chunk at a time."""
    with open(path, "w") as f:
        f.write(header + "\n")
        for lo in range(0, len(columns[0]), chunk):
            rows = np.asarray(columns[0][lo:lo + chunk]).astype(str)
            for col in columns[1:]:
                rows = np.char.add(np.char.add(rows, ","), np.asarray(col[lo:lo + chunk]).astype(str))
            f.write("\n".join(rows.tolist()))
            f.write("\n")


def write_rr(path, rng, subj, listener, lam, base, plateau, song, prev_song, start, played, prev_played, prev_end):
    """Beats in the first and last 60 s of every play: RR = 60000/base HR plus
    independent N(0, (RMSSD(t)/sqrt 2)^2) deviations, so that the RMSSD of a window
    is RMSSD(t) = 40 ms + the planted response (same onset, release and carry-over
    as HR)."""
    rows_s, rows_t, rows_rr = [], [], []
    mean_rr = 60000.0 / base
    for p in range(len(start)):
        j = listener[p]
        for lo, hi in ((0.0, min(60.0, played[p])), (max(0.0, played[p] - 60.0), played[p])):
            n = int((hi - lo) * 1000 / mean_rr[j])
            if n < 2:
                continue
            rel = lo + np.arange(1, n + 1) * mean_rr[j] / 1000
            t = start[p] + rel
            level = lam[j] * plateau[song[p]] * (1 - np.exp(-rel / TAU_ON))
            if prev_end[p] > -1e11:
                level += (lam[j] * plateau[prev_song[p]] * (1 - np.exp(-prev_played[p] / TAU_ON))
                          * np.exp(-np.maximum(t - prev_end[p], 0) / TAU_OFF))
            rmssd = np.maximum(5.0, 40.0 + level)
            rr = mean_rr[j] + rng.normal(0, 1, n) * rmssd / np.sqrt(2)
            rows_s.append(np.full(n, subj[p]))
            rows_t.append(t)
            rows_rr.append(rr)
    if not rows_t:
        return
    t = np.concatenate(rows_t)
    write_csv(path, "subject,timestamp,rr_ms,source",
              [np.concatenate(rows_s), iso((t * 1000).astype(np.int64)), np.round(np.concatenate(rows_rr), 2),
               np.full(len(t), "sim")])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    ap.add_argument("--plays", type=int, default=1_000_000)
    ap.add_argument("--songs", type=int, default=50_000)
    ap.add_argument("--listeners", type=int, default=1_000)
    ap.add_argument("--seed", type=int, default=20260)
    ap.add_argument("--hr-step", type=float, default=15.0, help="seconds between HR samples in a window")
    ap.add_argument("--noise", type=float, default=1.0, help="HR measurement noise sd (bpm)")
    ap.add_argument("--rr", action="store_true",
                    help="also write rr.csv: beats in the first and last 60 s of each play, with a planted RMSSD effect")
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    os.makedirs(a.out, exist_ok=True)

    song_effect = rng.normal(-1.5, 3.0, a.songs)
    lam = rng.uniform(0.4, 1.6, a.listeners)
    lam /= lam.mean()
    base = rng.uniform(55, 80, a.listeners)

    per = a.plays // a.listeners
    n = per * a.listeners
    listener = np.repeat(np.arange(a.listeners), per)
    # Zipf-like popularity so song play counts are skewed.
    u = rng.uniform(size=n)
    song = np.minimum(a.songs - 1, (u * u * a.songs).astype(np.int64))
    duration = rng.uniform(150, 300, a.songs)
    media = duration[song]
    skipped = rng.uniform(size=n) < 0.25
    played = np.where(skipped, rng.uniform(5, 60, n), media)
    # Sessions of 12 plays, 0–10 s apart; sessions 2–6 h apart, from 2022-02-07.
    gap = rng.uniform(0, 10, n)
    new_session = (np.arange(n) % 12) == 0
    gap = np.where(new_session, rng.uniform(7200, 21600, n), gap)
    start = np.empty(n)
    t0 = 1644192000.0  # 2022-02-07T00:00:00Z
    for j in range(a.listeners):
        sl = slice(j * per, (j + 1) * per)
        start[sl] = t0 + np.cumsum(gap[sl]) + np.cumsum(played[sl]) - played[sl]
    end = start + played
    first = np.r_[True, listener[1:] != listener[:-1]]
    prev_song = np.where(first, 0, np.r_[0, song[:-1]])
    prev_played = np.where(first, 0.0, np.r_[0.0, played[:-1]])
    prev_end = np.where(first, -1e12, np.r_[0.0, end[:-1]])

    ids = np.char.add("p", np.arange(n).astype(str))
    subj = np.char.add("u", listener.astype(str))
    songs = np.char.add("s", song.astype(str))
    playlist = np.char.add("pl", (song % 200).astype(str))
    write_csv(os.path.join(a.out, "plays.csv"),
              "subject,play_id,song_id,title,artist,album,playlist,started_at,ended_at,media_duration_s,played_s,end_reason,skipped,utc_offset_min",
              [subj, ids, songs, songs, np.full(n, "artist"), np.full(n, "album"), playlist,
               iso((start * 1000).astype(np.int64)), iso((end * 1000).astype(np.int64)),
               np.round(media, 3), np.round(played, 3), np.where(skipped, "skip", "end"),
               np.where(skipped, "true", "false"), np.full(n, "")])

    offsets = np.arange(0, 30.0 + 1e-9, a.hr_step)
    k = len(offsets)
    # Sample times: first window offsets from start, last window offsets back from end.
    rel = np.concatenate([np.minimum(offsets[None, :], played[:, None]),
                          np.maximum(played[:, None] - offsets[None, ::-1], 0)], axis=1)
    t = start[:, None] + rel
    plateau = song_effect / captured(duration, 30.0)
    level_now = lam[listener, None] * plateau[song, None] * (1 - np.exp(-rel / TAU_ON))
    since_prev = t - prev_end[:, None]
    prev_level = lam[listener] * plateau[prev_song] * (1 - np.exp(-prev_played / TAU_ON))
    carry = prev_level[:, None] * np.exp(-np.maximum(since_prev, 0) / TAU_OFF)
    hr = base[listener, None] + level_now + carry + rng.normal(0, a.noise, (n, 2 * k))
    write_csv(os.path.join(a.out, "hr.csv"), "subject,timestamp,bpm,source",
              [np.repeat(subj, 2 * k), iso((t.ravel() * 1000).astype(np.int64)), np.round(hr.ravel(), 2),
               np.full(n * 2 * k, "sim")])

    rmssd_effect = rng.normal(3.0, 4.0, a.songs)
    if a.rr:
        write_rr(os.path.join(a.out, "rr.csv"), rng, subj, listener, lam, base, rmssd_effect / captured(duration, 60.0),
                 song, prev_song, start, played, prev_played, prev_end)

    truth_songs = np.char.add("s", np.arange(a.songs).astype(str))
    kinds = np.r_[np.full(a.songs, "song_effect"), np.full(a.listeners, "persona_sensitivity")]
    subjects = np.r_[np.full(a.songs, ""), np.char.add("u", np.arange(a.listeners).astype(str))]
    song_ids = np.r_[truth_songs, np.full(a.listeners, "")]
    metrics = np.r_[np.full(a.songs, "delta_hr_bpm"), np.full(a.listeners, "delta_hr_bpm")]
    values = np.r_[np.round(song_effect, 6), np.round(lam, 6)]
    if a.rr:
        kinds = np.r_[kinds, np.full(a.songs, "song_effect")]
        subjects = np.r_[subjects, np.full(a.songs, "")]
        song_ids = np.r_[song_ids, truth_songs]
        metrics = np.r_[metrics, np.full(a.songs, "delta_rmssd_ms")]
        values = np.r_[values, np.round(rmssd_effect, 6)]
    empty = np.full(len(kinds), "")
    write_csv(os.path.join(a.out, "truth.csv"), "kind,subject,entity,metric,value,start,end",
              [kinds, subjects, song_ids, metrics, values, empty, empty])
    write_manifest(a.out, "generator: scripts/data/effects_workload.py " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
