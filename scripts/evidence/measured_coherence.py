#!/usr/bin/env python3
"""The coherence scores measured as docs/methods.md (Coherence) shows them.

    measured_coherence.py white-noise --bin BIN --work DIR --seeds 0,1 --seconds 1200 --caption TEXT --out FILE
        the windowed coach score (at 5.5 breaths/min, the product's default rate) of
        white-noise heart rate: per seed, N(70, 1) bpm every 0.25 s from Python's
        random.Random(seed), imported as a generic CSV (one subject per seed)
        (measured:coherence_white_noise)
    measured_coherence.py sampling --bin BIN --work DIR --caption TEXT --out FILE SOURCE...
        the product's score (`--method product`) with heart rate sampled by cubic spline
        and by repeating the latest beat (`--hr-sampling repeat`), per clock minute and
        every 0.25 s (`--every-step`), on the R-R files SOURCE (imported together); the
        table names each file with its SHA-256 (measured:coherence_sampling_physionet)
    measured_coherence.py simulated --bin BIN --work DIR --seeds 0,1,... --caption TEXT --out FILE
        `resonance breathing simulate` on the consecutive seeds: per session the mean
        |watch − R-R-derived| score (breathing_sim_records.csv `coherence_mean_abs_diff`)
        (measured:coherence_sampling_simulated)

Standard library only.
"""
import argparse
import csv
import itertools
import math
import os
import random
import shutil
import statistics
import sys

import measured
from heldout import sha256  # one digest of a file for the ledger and the captions

WHITE_NOISE_BPM = (70.0, 1.0)  # mean and SD
WHITE_NOISE_RATE = 5.5  # breaths/min: the product's default rate
START_MS = 1767225600000  # 2026-01-01T00:00:00Z


def seeds_of(text):
    return [int(s) for s in text.split(",")]


def white_noise(args):
    seeds = seeds_of(args.seeds)
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    source = os.path.join(args.work, "white_noise.csv")
    with open(source, "w", encoding="utf-8") as f:
        f.write("subject,timestamp,bpm\n")
        for seed in seeds:
            rng = random.Random(seed)
            for i in range(args.seconds * 4):
                f.write(f"seed-{seed},{START_MS + 250 * i},{rng.gauss(*WHITE_NOISE_BPM):.6f}\n")
    ws = os.path.join(args.work, "ws")
    measured.run(args.bin, "import", source, "--out", ws)
    measured.run(args.bin, "coherence", ws, "--breathing-rate", str(WHITE_NOISE_RATE))
    scores = {}
    for r in measured.read_csv(os.path.join(ws, "coherence.csv")):
        if r["method"] == "coach":
            scores.setdefault(r["subject"], []).append(float(r["coherence"]))
    rows = [[f"seed-{s}", len(scores[f"seed-{s}"]), measured.fixed(statistics.fmean(scores[f"seed-{s}"]), 3)]
            for s in seeds]
    every = [x for s in seeds for x in scores[f"seed-{s}"]]
    rows.append(["all", len(every), measured.fixed(statistics.fmean(every), 3)])
    return [measured.caption(args.caption, seeds), ""] + measured.table(["record", "windows", "mean windowed coach score"], rows)


def files_of(sources):
    """Every file of the sources (folders walked), by path."""
    found = []
    for source in sources:
        if os.path.isdir(source):
            for folder, dirs, names in os.walk(source):
                dirs.sort()
                found += [os.path.join(folder, n) for n in sorted(names)]
        else:
            found.append(source)
    return found


def scores(path):
    """(subject, window end, score) of each coherence.csv row, in file order."""
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            yield r["subject"], r["window_end"], float(r["coherence"])


def compare(spline_path, repeat_path):
    """The differences repeat − spline row by row (rows must pair up) and both means."""
    diffs, spline_sum, repeat_sum = [], 0.0, 0.0
    for a, b in itertools.zip_longest(scores(spline_path), scores(repeat_path)):
        if a is None or b is None:
            raise RuntimeError(f"{spline_path} and {repeat_path}: different numbers of rows")
        if a[:2] != b[:2]:
            raise RuntimeError(f"{spline_path} and {repeat_path}: rows do not pair up at {a[:2]} / {b[:2]}")
        diffs.append(b[2] - a[2])
        spline_sum += a[2]
        repeat_sum += b[2]
    return diffs, spline_sum / len(diffs), repeat_sum / len(diffs)


def sampling(args):
    files = files_of(args.sources)
    shutil.rmtree(args.work, ignore_errors=True)
    ws = os.path.join(args.work, "ws")
    measured.run(args.bin, "import", *args.sources, "--out", ws)
    rows = []
    for label, extra in (("per clock minute (mean score)", []), ("every 0.25 s (`--every-step`)", ["--every-step"])):
        kept = {}
        for method in ("spline", "repeat"):
            measured.run(args.bin, "coherence", ws, "--method", "product", "--hr-sampling", method, *extra)
            kept[method] = os.path.join(args.work, f"{method}.csv")
            os.replace(os.path.join(ws, "coherence.csv"), kept[method])
        diffs, spline_mean, repeat_mean = compare(kept["spline"], kept["repeat"])
        for path in kept.values():
            os.unlink(path)
        absolute = sorted(abs(d) for d in diffs)
        n = len(diffs)
        rows.append([label, n, measured.fixed(statistics.fmean(diffs), 4), measured.fixed(statistics.fmean(absolute), 3),
                     measured.fixed(statistics.pstdev(diffs), 3), measured.fixed(statistics.median(absolute), 3),
                     measured.fixed(absolute[math.ceil(0.95 * n) - 1], 3),
                     measured.share(sum(1 for d in absolute if d > 0.1), n),
                     measured.fixed(spline_mean, 3), measured.fixed(repeat_mean, 3)])
    names = ", ".join(f"`{os.path.basename(p)}` (SHA-256 `{sha256(p)[:12]}…`)" for p in files)
    lines = [args.caption, "", f"Files: {names}. d = repeat − spline, row by row:", ""]
    lines += measured.table(["scores compared", "rows", "mean d", "mean \\|d\\|", "SD of d", "median \\|d\\|",
                             "95th percentile \\|d\\|", "\\|d\\| > 0.1", "mean score, spline",
                             "mean score, repeat"], rows)
    return lines


def simulated(args):
    seeds = seeds_of(args.seeds)
    if seeds != list(range(seeds[0], seeds[0] + len(seeds))):
        raise ValueError(f"--seeds {args.seeds}: `breathing simulate` runs consecutive seeds only")
    shutil.rmtree(args.work, ignore_errors=True)
    measured.run(args.bin, "breathing", "simulate", "--out", args.work, "--first-seed", str(seeds[0]),
                 "--seeds", str(len(seeds)))
    records = measured.read_csv(os.path.join(args.work, "breathing_sim_records.csv"))
    diffs = [float(r["coherence_mean_abs_diff"]) for r in records if r["coherence_mean_abs_diff"] != ""]
    return [measured.caption(args.caption, seeds), ""] + measured.table(
        ["sessions", "with scores", "mean over sessions", "median", "largest"],
        [[len(records), len(diffs), measured.fixed(statistics.fmean(diffs), 4),
          measured.fixed(statistics.median(diffs), 4), measured.fixed(max(diffs), 4)]])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    for name in ("white-noise", "sampling", "simulated"):
        p = sub.add_parser(name)
        p.add_argument("--bin", required=True, help="the resonance binary")
        p.add_argument("--work", required=True, help="a folder for the workspace (replaced)")
        p.add_argument("--caption", required=True, help="the fragment's first line ({seeds} in it: the seeds, as ranges)")
        p.add_argument("--out", required=True, help="the fragment to write")
    sub.choices["white-noise"].add_argument("--seeds", required=True, help="comma-separated seeds, one record each")
    sub.choices["white-noise"].add_argument("--seconds", type=int, default=1200, help="record length, s (default 1200)")
    sub.choices["sampling"].add_argument("sources", nargs="+", help="R-R files or folders to import")
    sub.choices["simulated"].add_argument("--seeds", required=True, help="comma-separated consecutive seeds")
    args = parser.parse_args()
    produce = {"white-noise": white_noise, "sampling": sampling, "simulated": simulated}[args.what]
    return measured.emit(f"measured_coherence {args.what}", args.out, lambda: produce(args))


if __name__ == "__main__":
    sys.exit(main())
