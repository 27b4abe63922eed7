#!/usr/bin/env python3
"""What the impact variant `zero_is_measured` changes (measured:zero_delta_impact, docs/engines/toolkit.md, Impact).

For each workspace (after `resonance sessions`): how many plays have a ΔHR / ΔHRV of
exactly 0, how many plays with a measured change the product's rule reads as having no
biometric data (every measured change exactly 0), then the `ema` model's song scores
with the defaults (`impact.zero_delta_is_missing` = 1) and with the variant (0): how many
songs' rows of the all-contexts view (`context` = any) change, and the largest and mean
absolute change of each score. The workspaces are copied first, so they are left as
they were.

    measured_zero_delta.py --bin BIN --work DIR --workspace LABEL=WS ... --caption TEXT --out FILE

Standard library only.
"""
import argparse
import os
import sys

import measured

SCORES = ["calm", "energy", "focus", "mood_lift", "confidence"]


def play_counts(ws):
    plays = measured.read_csv(os.path.join(ws, "session_plays.csv"))
    hr = [measured.number(p["hr_delta"]) for p in plays]
    hrv = [measured.number(p["hrv_delta"]) for p in plays]
    with_hr = [d for d in hr if d is not None]
    with_hrv = [d for d in hrv if d is not None]
    # Measured, yet every measured change is exactly 0: no signal under the product's rule.
    no_signal = sum(1 for a, b in zip(hr, hrv) if (a is not None or b is not None) and not a and not b)
    return len(plays), len(with_hr), with_hr.count(0.0), len(with_hrv), with_hrv.count(0.0), no_signal


def ema_scores(binary, ws, constants=None):
    """(song, metric) → row of the `ema` model's all-contexts song effects."""
    measured.run(binary, "effects", ws, "--model", "ema", *(["--constants", constants] if constants else []))
    return {(r["song_id"], r["metric"]): r for r in measured.read_csv(os.path.join(ws, "song_effects.csv"))
            if r["model"] == "ema" and r["context"] == "any"}


def fragment(binary, work, workspaces, caption):
    variant = measured.write_constants(os.path.join(work, "zero_is_measured.json"), "impact",
                                       {"zero_delta_is_missing": 0})
    play_rows, score_rows = [], []
    for label, source in workspaces:
        ws = measured.fresh_copy(source, os.path.join(work, label.replace(" ", "_")))
        n, hr, hr0, hrv, hrv0, none = play_counts(ws)
        play_rows.append([label, n, hr, f"{hr0} ({measured.share(hr0, hr)})", hrv,
                          f"{hrv0} ({measured.share(hrv0, hrv)})", none])
        default, zero = ema_scores(binary, ws), ema_scores(binary, ws, variant)
        if default.keys() != zero.keys():
            raise RuntimeError(f"{label}: the variant's song effects have other rows than the defaults'")
        songs = {song for song, _ in default}
        changed = {key[0] for key in default if any(default[key][s] != zero[key][s] for s in SCORES)}
        cells = []
        for s in SCORES:
            diffs = [abs(float(zero[k][s]) - float(default[k][s])) for k in default
                     if default[k][s] != "" and zero[k][s] != ""]
            cells.append("0" if not any(diffs) else
                         f"{measured.fixed(max(diffs), 3)} ({measured.fixed(sum(diffs) / len(diffs), 4)})")
        score_rows.append([label, f"{len(changed)} of {len(songs)}", *cells])
    lines = [caption, ""]
    lines += measured.table(["workspace", "plays", "with ΔHR", "ΔHR exactly 0", "with ΔHRV", "ΔHRV exactly 0",
                             "measured, read as no signal"], play_rows)
    lines += ["", "The `ema` song scores (all contexts), defaults against the variant: songs whose scores "
              "change, and per score the largest absolute change (the mean over the rows):", ""]
    lines += measured.table(["workspace", "songs changed", "calm", "energy", "focus", "mood lift", "confidence"],
                            score_rows)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the resonance binary")
    parser.add_argument("--work", required=True, help="a folder for the copies")
    parser.add_argument("--workspace", action="append", required=True, metavar="LABEL=WS",
                        help="a workspace after `resonance sessions`, with its label in the table; repeatable")
    parser.add_argument("--caption", required=True, help="the fragment's first line")
    parser.add_argument("--out", required=True, help="the fragment to write")
    args = parser.parse_args()
    workspaces = []
    for spec in args.workspace:
        label, sep, path = spec.partition("=")
        if not sep or not label or not path:
            parser.error(f"--workspace {spec}: expected LABEL=WS")
        workspaces.append((label, path))
    os.makedirs(args.work, exist_ok=True)
    return measured.emit("measured_zero_delta", args.out, lambda: fragment(args.bin, args.work, workspaces, args.caption))


if __name__ == "__main__":
    sys.exit(main())
