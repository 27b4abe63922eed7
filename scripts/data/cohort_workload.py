#!/usr/bin/env python3
"""A deterministic cohort of N subjects × 24 h for the sharding benchmark (make
bench-shards), imported into a workspace.

The ten synthetic personas (docs/personas.md) are simulated for one day with N/10 seeds
(`resonance personas generate --days 1 --seed S`); each copy is renamed
`<Persona>-<S>` (its play ids too), so every subject is distinct. Per subject that is a
day of wearable data: heart rate all day, R-R beats whenever the simulated wearable
records them, the day's plays, sleep and workouts. The copies' canonical tables
(docs/tables.md) are concatenated into OUT/raw and imported with `resonance import` into
OUT/workspace; OUT/raw is removed afterwards.

    cohort_workload.py --bin BIN --subjects 1000 --out DIR
"""
import argparse
import csv
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TABLES = ["hr.csv", "rr.csv", "plays.csv", "sleep.csv", "workouts.csv"]
PERSONAS = 10


def rename(row, header, suffix):
    """The row with its subject (and play id, which starts with the subject) renamed."""
    subject = row[0]
    row[0] = subject + suffix
    if header[1] == "play_id":
        assert row[1].startswith(subject), row
        row[1] = subject + suffix + row[1][len(subject):]
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="the resonance binary")
    ap.add_argument("--subjects", type=int, default=1000, help="subjects, a multiple of 10 (default 1000)")
    ap.add_argument("--out", required=True, type=Path)
    args = ap.parse_args()
    if args.subjects < PERSONAS or args.subjects % PERSONAS:
        sys.exit(f"cohort_workload.py: --subjects {args.subjects}: must be a positive multiple of {PERSONAS}")
    seeds = args.subjects // PERSONAS
    digits = len(str(seeds - 1))
    raw, workspace = args.out / "raw", args.out / "workspace"
    shutil.rmtree(args.out, ignore_errors=True)
    raw.mkdir(parents=True)
    writers, files = {}, []
    for name in TABLES:
        f = open(raw / name, "w", newline="")
        files.append(f)
        writers[name] = csv.writer(f, lineterminator="\n")
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(seeds):
            day = Path(tmp) / str(seed)
            subprocess.run([args.bin, "personas", "generate", "--out", str(day), "--days", "1",
                            "--seed", str(seed), "--jobs", "1", "--quiet"], check=True)
            suffix = "-" + str(seed).zfill(digits)
            for name in TABLES:
                with open(day / name, newline="") as f:
                    rows = csv.reader(f)
                    header = next(rows)
                    if seed == 0:
                        writers[name].writerow(header)
                    writers[name].writerows(rename(row, header, suffix) for row in rows)
            shutil.rmtree(day)
    for f in files:
        f.close()
    subprocess.run([args.bin, "import", *[str(raw / name) for name in TABLES], "--out", str(workspace),
                    "--format", "canonical", "--quiet"], check=True)
    shutil.rmtree(raw)
    print(f"cohort: {args.subjects} subjects x 24 h imported into {workspace}")


if __name__ == "__main__":
    main()
