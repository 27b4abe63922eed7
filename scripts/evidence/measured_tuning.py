#!/usr/bin/env python3
"""The song-effect tuning on the personas as docs/tuning.md shows it (measured:tune_song_effect).

Reads what `make tune-song-effect` leaves in its report folder — song_effect.json (the
leave-one-listener-out search; absent when the tuned constants did not beat the
defaults) and default/ and tuned/validation.json (the `ema` model's recovery of the
planted effects, read as scripts/evidence/tune_compare.py reads it) — and the receipt of the same
search with `--cv kfold:K`, and writes the fragment:

    measured_tuning.py --bin BIN --reports DIR --kfold FILE --caption TEXT --out FILE

Standard library only.
"""
import argparse
import json
import os
import sys

import measured
import tune_compare

LEARNING = ["alpha_early", "alpha_late", "early_plays", "confidence_full_plays", "no_biometrics_confidence_cap"]


def held_out_row(name, tuning):
    h = tuning["held_out"]

    def interval(mean, ci, digits=3):
        return f"{measured.fixed(mean, digits)} ({measured.fixed(ci[0], digits)}–{measured.fixed(ci[1], digits)})"

    return [name, len(tuning["folds"]), interval(h["default_mean"], h["default_ci"]),
            interval(h["tuned_mean"], h["tuned_ci"]), interval(h["improvement_mean"], h["improvement_ci"], 4),
            f"{h['folds_improved']} of {len(tuning['folds'])}"]


def fragment(binary, reports, kfold_path, caption):
    defaults = json.loads(measured.run(binary, "constants", "show").stdout)["engines"]["song_effect"]["constants"]
    with open(kfold_path, encoding="utf-8") as f:
        kfold = json.load(f)["tuning"]
    lines = [caption, ""]
    if not os.path.exists(os.path.join(reports, "tuning.md")):
        raise RuntimeError(f"{reports}: no tuning.md (the report folder of `make tune-song-effect`)")
    loso_path = os.path.join(reports, "song_effect.json")
    if not os.path.exists(loso_path):
        lines.append("Leave-one-listener-out, the tuned constants do not beat the defaults on held-out "
                     "listeners: `make tune` keeps the defaults.")
        return lines
    with open(loso_path, encoding="utf-8") as f:
        tuned = json.load(f)
    loso = tuned["tuning"]
    pairs = loso["pairs"]
    lines += [f"{loso['plays']} plays; (listener, song) pairs with a planted effect and ≥ {loso['min_plays']} "
              f"measured plays: {pairs['delta_hr_bpm']} for ΔHR, {pairs['delta_rmssd_ms']} for ΔRMSSD; "
              f"{loso['budget']} evaluations per search, seed {loso['seed']}.", ""]
    lines += ["Objective (mean of the ΔHR and ΔRMSSD correlations) on held-out listeners, means over folds "
              "with 95 % bootstrap intervals:", ""]
    lines += measured.table(["cross-validation", "folds", "defaults", "tuned", "gain", "folds improved"],
                            [held_out_row("leave one listener out", loso),
                             held_out_row(f"{kfold['cv'].split(':')[1]}-fold over listeners", kfold)])
    lines += ["", "The learning constants, tuned on every listener (`song_effect.json`):", ""]
    values = tuned["engines"]["song_effect"]["constants"]
    lines += measured.table(["constant", "default", "tuned"],
                            [[f"`{c}`", measured.fixed(defaults[c]["value"], 3), measured.fixed(values[c]["value"], 3)]
                             for c in LEARNING])
    lines += ["", "The `ema` model's recovery of the planted song effects with each set (`comparison.md`):", ""]
    rows = []
    paths = [os.path.join(reports, which, "validation.json") for which in ("default", "tuned")]
    reports_json = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            reports_json.append(tune_compare.song_effect_metrics(path, json.load(f)))
    default, tuned_metrics = reports_json
    for key in default:
        if key == "constants":
            continue
        a, b = default[key], tuned_metrics.get(key)
        cell = (lambda v: str(v)) if isinstance(a, int) else (lambda v: measured.fixed(v, 3))
        rows.append([key.replace("delta_hr_bpm", "ΔHR").replace("delta_rmssd_ms", "ΔRMSSD"), cell(a), cell(b)])
    lines += measured.table(["metric", "defaults", "tuned"], rows)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the resonance binary")
    parser.add_argument("--reports", required=True,
                        help="the report folder of `make tune-song-effect` ($(TUNE_REPORTS)/personas)")
    parser.add_argument("--kfold", required=True, help="song_effect.json of the same search with --cv kfold:K")
    parser.add_argument("--caption", required=True, help="the fragment's first line: what ran, which target writes it")
    parser.add_argument("--out", required=True, help="the fragment to write")
    args = parser.parse_args()
    return measured.emit("measured_tuning", args.out, lambda: fragment(args.bin, args.reports, args.kfold, args.caption))


if __name__ == "__main__":
    sys.exit(main())
