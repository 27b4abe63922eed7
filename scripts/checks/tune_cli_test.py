#!/usr/bin/env python3
"""`resonance tune` as a user runs it, each call a separate process.

On a synthetic labelled workspace (stress windows with a planted heart-rate rise):
the same seed gives a byte-identical constants file, the file loads through
--constants (`constants show`, `validate`) with the stress engine's minor version
raised and every other engine unchanged; a workspace without stress labels and a bad
--cv are one-line errors with a non-zero exit code and no file written.
On a four-day persona workspace (`personas generate`, `sessions`), the same for
`tune --engine song_effect`: byte-identical files for one seed, listeners as the
folds, the file loading through --constants with only song_effect changed, and a
workspace without truth.csv a one-line error.
Standard library only.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
from datetime import datetime, timedelta, timezone

from workspace_manifest import write_manifest

T0 = datetime(2022, 2, 7, 8, 0, tzinfo=timezone.utc)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def write_workspace(path, subjects=6, delta=3.0, sd=3.0, seed=7):
    """Per subject: a 10-min baseline, then three 10-min stress intervals alternating with
    baseline ones; HR at 1 Hz, constant within each minute, N(70 + delta*stress, sd)."""
    rng = random.Random(seed)
    os.makedirs(path, exist_ok=True)
    hr = ["subject,timestamp,bpm,source"]
    labels = ["subject,start,end,label"]
    for s in range(subjects):
        subject = f"P{s + 1:02d}"
        start = T0 + timedelta(days=s)
        names = ["baseline"] + ["stress" if b % 2 == 0 else "baseline" for b in range(6)]
        for i, label in enumerate(names):
            a = start + timedelta(minutes=10 * i)
            labels.append(f"{subject},{iso(a)},{iso(a + timedelta(minutes=10))},{label}")
            for m in range(10):
                bpm = rng.gauss(70 + (delta if label == "stress" else 0), sd)
                for k in range(60):
                    hr.append(f"{subject},{iso(a + timedelta(minutes=m, seconds=k))},{bpm:.3f},synthetic")
    with open(os.path.join(path, "hr.csv"), "w", encoding="utf-8") as f:
        f.write("\n".join(hr) + "\n")
    with open(os.path.join(path, "labels.csv"), "w", encoding="utf-8") as f:
        f.write("\n".join(labels) + "\n")
    write_manifest(path, "generator: scripts/checks/tune_cli_test.py")


def run(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True)


def check(condition, message):
    if not condition:
        sys.exit(f"tune_cli_test: FAILED: {message}")


def check_missing_table(args, ws, kept, missing, engine):
    """A workspace with only table `kept` of `ws`: tuning `engine` is a one-line error naming `missing`, exit 1, no file."""
    folder = os.path.join(args.work, f"{engine}-without-{missing}")
    os.makedirs(folder)
    shutil.copy(os.path.join(ws, kept), folder)
    write_manifest(folder, f"generator: scripts/checks/tune_cli_test.py, {missing} left out")
    out = os.path.join(args.work, f"{engine}-none.json")
    e = run(args.bin, "tune", folder, "--engine", engine, "--out", out)
    lines = e.stderr.strip().splitlines()
    check(e.returncode == 1, f"{engine} tune without {missing} exited {e.returncode}")
    check(len(lines) == 1 and lines[0].startswith("error:") and missing in lines[0], f"not a one-line error: {e.stderr!r}")
    check(not os.path.exists(out), "file written despite the error")


def raised_version(version):
    """The version a tuned file gives an engine: its minor version raised (1.0.0 → 1.1.0)."""
    major, minor, _ = (int(p) for p in version.split("."))
    return f"{major}.{minor + 1}.0"


def check_loads(binary, path, engine):
    """`constants show --constants PATH` loads it, `engine` at its minor version raised, every other engine as shipped."""
    defaults = json.loads(run(binary, "constants", "show").stdout)["engines"]
    shown = run(binary, "constants", "show", "--constants", path)
    check(shown.returncode == 0, f"constants show --constants {path} failed: {shown.stderr}")
    engines = json.loads(shown.stdout)["engines"]
    for name, values in defaults.items():
        if name != engine:
            check(values == engines[name], f"engine {name} changed by {engine} tuning")
    raised = raised_version(defaults[engine]["version"])
    check(engines[engine]["version"] == raised, f"{engine} does not load as {raised}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    ws = os.path.join(args.work, "labelled")
    write_workspace(ws)
    out = lambda name: os.path.join(args.work, name)

    common = [ws, "--engine", "stress", "--budget", "60", "--force", "--quiet"]
    a = run(args.bin, "tune", *common, "--seed", "1", "--out", out("a.json"), "--report-dir", out("receipt"))
    check(a.returncode == 0, f"tune exited {a.returncode}: {a.stderr}")
    b = run(args.bin, "tune", *common, "--seed", "1", "--out", out("b.json"), "--jobs", "1")
    check(b.returncode == 0, f"second tune exited {b.returncode}: {b.stderr}")
    with open(out("a.json"), "rb") as fa, open(out("b.json"), "rb") as fb:
        check(fa.read() == fb.read(), "same seed (and --jobs 1 vs default) gave different files")
    c = run(args.bin, "tune", *common, "--seed", "2", "--out", out("c.json"))
    check(c.returncode == 0, f"tune --seed 2 exited {c.returncode}")
    with open(out("c.json"), encoding="utf-8") as f:
        check(json.load(f)["tuning"]["seed"] == 2, "seed not recorded")

    with open(out("a.json"), encoding="utf-8") as f:
        tuned = json.load(f)
    t = tuned["tuning"]
    shipped = json.loads(run(args.bin, "constants", "show").stdout)["engines"]["stress"]["version"]
    raised = raised_version(shipped)
    check(tuned["engines"]["stress"]["version"] == raised, f"stress version not raised from {shipped} to {raised}")
    check(len(t["folds"]) == 6 and all(len(f["held_out"]) == 1 for f in t["folds"]), "LOSO folds not one subject each")
    for f in t["folds"]:
        check(f["held_out"][0] not in f["train_subjects"], f"held-out {f['held_out']} among training subjects")
    check(len(t["inputs"][0]["sha256"]["labels.csv"]) == 64, "labels.csv digest missing")
    check(os.path.exists(out("receipt/tuning.md")), "no decision receipt")

    check_loads(args.bin, out("a.json"), "stress")
    v = run(args.bin, "validate", ws, "--constants", out("a.json"), "--report-dir", out("report"), "--quiet")
    check(v.returncode == 0, f"validate --constants failed: {v.stderr}")
    with open(out("report/validation.json"), encoding="utf-8") as f:
        report = json.load(f)
    check(f"stress@{raised}" in report["constants_version"], f"validation report does not name stress@{raised}")
    check(report["stress"]["subjects"] == 6, "stress section missing or wrong subject count")

    check_missing_table(args, ws, "hr.csv", "labels.csv", "stress")
    bad = run(args.bin, "tune", ws, "--engine", "stress", "--cv", "holdout", "--out", out("bad.json"))
    check(bad.returncode != 0 and "--cv" in bad.stderr, f"bad --cv accepted: {bad.stderr!r}")
    song_effect(args)
    print("tune_cli_test: ok")


def song_effect(args):
    ws = os.path.join(args.work, "personas")
    out = lambda name: os.path.join(args.work, name)
    g = run(args.bin, "personas", "generate", "--out", ws, "--days", "4", "--seed", "0", "--quiet")
    check(g.returncode == 0, f"personas generate failed: {g.stderr}")
    s = run(args.bin, "sessions", ws, "--quiet")
    check(s.returncode == 0, f"sessions failed: {s.stderr}")
    common = [ws, "--engine", "song_effect", "--budget", "40", "--force", "--quiet"]
    a = run(args.bin, "tune", *common, "--out", out("song-a.json"), "--report-dir", out("song-receipt"))
    check(a.returncode == 0, f"tune --engine song_effect exited {a.returncode}: {a.stderr}")
    b = run(args.bin, "tune", *common, "--out", out("song-b.json"), "--jobs", "1")
    check(b.returncode == 0, f"second song_effect tune exited {b.returncode}: {b.stderr}")
    with open(out("song-a.json"), "rb") as fa, open(out("song-b.json"), "rb") as fb:
        check(fa.read() == fb.read(), "song_effect: same seed (and --jobs 1 vs default) gave different files")
    with open(out("song-a.json"), encoding="utf-8") as f:
        tuned = json.load(f)
    t = tuned["tuning"]
    shipped = json.loads(run(args.bin, "constants", "show", "--engine", "song_effect").stdout)["engines"]["song_effect"]["version"]
    check(tuned["engines"]["song_effect"]["version"] == raised_version(shipped), "song_effect minor version not raised")
    check(t["objective"] == "correlation" and t["cv"] == "loso", "song_effect objective or cv not recorded")
    check(len(t["folds"]) == t["listeners"] >= 2, "song_effect LOSO folds are not one per listener")
    for f in t["folds"]:
        check(len(f["held_out"]) == 1 and f["held_out"][0] not in f["train_listeners"],
              f"held-out {f['held_out']} among training listeners")
    check(len(t["inputs"][0]["sha256"]["truth.csv"]) == 64, "truth.csv digest missing")
    check(os.path.exists(out("song-receipt/tuning.md")), "no song_effect decision receipt")
    check_loads(args.bin, out("song-a.json"), "song_effect")

    check_missing_table(args, ws, "session_plays.csv", "truth.csv", "song_effect")


if __name__ == "__main__":
    main()
