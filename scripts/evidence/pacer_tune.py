#!/usr/bin/env python3
"""The pacer tuned on some development seeds and judged on others
(docs/methods/coherence-breathing.md, "Tuning on development worlds, reported on
others"; measured:pacer_tune):

1. `resonance breathing simulate --world all --strategies robust` on --tune-seeds;
2. `resonance tune --engine pacer --cv kfold:K --budget N --force` on those sessions
   (the constants are written even when they do not beat the defaults, so that step 3
   can judge them);
3. scripts/evidence/pacer_worlds.py in every world on --replay-seeds, once with the
   default constants and once with the tuned ones;

then one fragment: the caption, the tuning's verdict on held-out personas, a table of the
searched constants (default, tuned) and a table per world of `robust`'s mean |error| to
the nearest rate of peak amplitude and its amplitude share, default → tuned.

    pacer_tune.py BIN --work DIR --tune-seeds 0,...,9 --replay-seeds 10,...,19
                  [--cv kfold:2] [--budget 20] --caption TEXT --markdown OUT.md

Both seed lists are contiguous, disjoint and development seeds of the pacer verdict
(mk/heldout.json); `{tune_seeds}` and `{replay_seeds}` in the caption become them as
ranges. Deterministic: the same binary and arguments give the same bytes. Standard
library only.
"""
import argparse
import json
import os
import subprocess
import sys

import heldout
import measured
import pacer_worlds

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
STRATEGY = "robust"


def seeds_of(text, name):
    seeds = [int(s) for s in text.replace(" ", ",").split(",") if s.strip()]
    if not seeds or seeds != list(range(seeds[0], seeds[0] + len(seeds))):
        raise ValueError(f"{name} must be contiguous, got {text!r}")
    return seeds


def check_development(tune_seeds, replay_seeds):
    development = set(heldout.verdict(heldout.load(ROOT), "pacer")["development"])
    outside = sorted(set(tune_seeds + replay_seeds) - development)
    if outside:
        raise ValueError(f"seeds {outside} are not development seeds of the pacer verdict (mk/heldout.json)")
    if set(tune_seeds) & set(replay_seeds):
        raise ValueError("the tuning and replay seeds overlap")


def replay(binary, work, seeds, constants=None):
    """pacer_worlds.py on the seeds, every world; its JSON."""
    name = "tuned" if constants else "default"
    out = os.path.join(work, name)
    cmd = [sys.executable, os.path.join(HERE, "pacer_worlds.py"), binary, "--work", out,
           "--seeds", ",".join(map(str, seeds)), "--markdown", os.path.join(out, "pacer_worlds.md"),
           "--json", os.path.join(out, "pacer_worlds.json")]
    if constants:
        cmd += ["--constants", constants]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"pacer_worlds.py ({name}): exit {done.returncode}: {done.stderr.strip()}")
    with open(os.path.join(out, "pacer_worlds.json"), encoding="utf-8") as f:
        return json.load(f)


def value(number):
    """A constant's value: as an integer when it is one, else to two decimals."""
    return str(int(number)) if float(number).is_integer() else measured.fixed(number, 2)


def fragment(a):
    tune_seeds, replay_seeds = seeds_of(a.tune_seeds, "--tune-seeds"), seeds_of(a.replay_seeds, "--replay-seeds")
    check_development(tune_seeds, replay_seeds)
    binary = os.path.abspath(a.binary)
    sessions = os.path.join(a.work, "tune-all")
    measured.run(binary, "breathing", "simulate", "--out", sessions, "--world", "all", "--strategies", STRATEGY,
                 "--first-seed", str(tune_seeds[0]), "--seeds", str(len(tune_seeds)), "--jobs", "2")
    tuned_path = os.path.join(a.work, "pacer.json")
    measured.run(binary, "tune", sessions, "--engine", "pacer", "--cv", a.cv, "--budget", str(a.budget), "--force",
                 "--out", tuned_path, "--report-dir", os.path.join(a.work, "report"), "--jobs", "2")
    with open(tuned_path, encoding="utf-8") as f:
        tuned = json.load(f)
    defaults = json.loads(measured.run(binary, "constants", "show").stdout)["engines"]["pacer"]["constants"]
    before, after = replay(binary, a.work, replay_seeds), replay(binary, a.work, replay_seeds, tuned_path)

    tuning = tuned["tuning"]
    held = tuning["held_out"]
    folds = len(tuning["folds"])
    caption = a.caption.replace("{tune_seeds}", measured.seed_list(tune_seeds)) \
                       .replace("{replay_seeds}", measured.seed_list(replay_seeds))
    verdict = ("beat the defaults" if tuning["beats_defaults"] else "do not beat the defaults")
    lines = [caption, "",
             f"Tuning ({tuning['objective']}, breaths/min, lower is better), on held-out personas over {folds} folds: "
             f"defaults {measured.fixed(held['default_mean'], 3)}, tuned {measured.fixed(held['tuned_mean'], 3)}; "
             f"the tuned constants {verdict} ({held['folds_improved']} of {folds} folds improved)"
             + ("; over-fitting suspected (they lose more from training to held-out personas than the defaults)."
                if tuning["overfitting_suspected"] else "."), ""]
    values = tuned["engines"]["pacer"]["constants"]
    lines += measured.table(["constant", "default", "tuned"],
                            [[f"`{c}`", value(defaults[c]["value"]), value(values[c]["value"])]
                             for c in tuning["tuned_constants"]])
    lines += ["", f"`{STRATEGY}` on seeds {measured.seed_list(replay_seeds)}, default → tuned constants:", ""]
    rows = []
    for world in [w for w in pacer_worlds.WORLDS if w in before["worlds"]]:
        b, t = before["worlds"][world]["summary"][STRATEGY], after["worlds"][world]["summary"][STRATEGY]
        rows.append([world,
                     f"{measured.fixed(b['abs_error_bpm']['mean'], 2)} → {measured.fixed(t['abs_error_bpm']['mean'], 2)}",
                     f"{measured.fixed(b['amplitude_share']['mean'], 3)} → {measured.fixed(t['amplitude_share']['mean'], 3)}"])
    lines += measured.table(["world", "mean \\|error\\| (/min)", "amplitude share"], rows)
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--work", required=True)
    ap.add_argument("--tune-seeds", required=True)
    ap.add_argument("--replay-seeds", required=True)
    ap.add_argument("--cv", default="kfold:2")
    ap.add_argument("--budget", type=int, default=20)
    ap.add_argument("--caption", required=True)
    ap.add_argument("--markdown", required=True)
    a = ap.parse_args()
    return measured.emit("pacer_tune", a.markdown, lambda: fragment(a))


if __name__ == "__main__":
    sys.exit(main())
