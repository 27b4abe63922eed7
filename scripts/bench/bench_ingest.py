#!/usr/bin/env python3
"""Ingest benchmark: `resonance import` against DuckDB, polars and pandas on the same file.

Generates (deterministically) a generic heart-rate CSV of ~7 million ISO-timestamped
rows (4 subjects, 1 Hz) in build/bench/, then times, each under /usr/bin/time -v:
  - resonance import FILE --out WS (release build), on the file and on its rows reversed;
  - DuckDB and polars on 2 threads doing the same work (scripts/bench/ingest_peers.py: the
    20–250 bpm filter, duplicates once, the sort, ISO-millisecond output), alternating with
    resonance, ROUNDS times each, medians reported; both must write hr.csv's bytes;
  - pandas: read_csv with timestamp parsing + to_csv of the canonical columns, once.
It prints wall and CPU time, throughput (input MB / wall s) and peak RSS of each, and each
peer's wall time over resonance's. With a fourth argument, another build of resonance (the
build before), both import the file alternately PREVIOUS_ROUNDS times and the medians give
the ratio new / previous, so a change is measured against the build before in the same run.

Usage: bench_ingest.py RESONANCE PYTHON PEER_PYTHON [PREVIOUS_RESONANCE]
  PYTHON runs the pandas peer (the project's venv), PEER_PYTHON the DuckDB and polars
  peers (the benchmark's own venv, requirements-bench.txt).
"""
import os
import random
import statistics
import subprocess
import sys
import time

from timed_run import measure

ROWS = 7_000_000
SUBJECTS = ["P01", "P02", "P03", "P04"]
BENCH = "build/bench"
DATA = os.path.join(BENCH, "hr_7m.csv")
REVERSED = os.path.join(BENCH, "hr_7m_reversed.csv")
START = 1_709_280_000  # 2024-03-01T08:00:00Z

PANDAS_PEER = r'''
import sys, pandas as pd
src, dst = sys.argv[1], sys.argv[2]
df = pd.read_csv(src, parse_dates=["timestamp"])
df["source"] = "csv"
df["timestamp"] = df["timestamp"].dt.strftime("%Y-%m-%dT%H:%M:%S.%f").str[:-3] + "Z"
df[["subject", "timestamp", "bpm", "source"]].to_csv(dst, index=False)
'''


def generate():
    if os.path.exists(DATA) and os.path.getsize(DATA) >= 200_000_000:
        return
    os.makedirs(BENCH, exist_ok=True)
    rng = random.Random(20240301)
    per = ROWS // len(SUBJECTS)
    tmp = DATA + ".part"
    with open(tmp, "w") as f:
        f.write("subject,timestamp,bpm\n")
        for s in SUBJECTS:
            bpm = 70.0
            lines = []
            for i in range(per):
                t = START + i
                ms = rng.randrange(0, 1000, 250)
                bpm = min(180.0, max(40.0, bpm + rng.uniform(-1, 1)))
                lines.append("%s,%s.%03dZ,%.1f\n" % (s, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)), ms, bpm))
                if len(lines) == 100_000:
                    f.writelines(lines)
                    lines = []
            f.writelines(lines)
    os.replace(tmp, DATA)


def generate_reversed():
    """The same rows in descending order: every row arrives out of order, which
    exercises the sorted-run spill and k-way merge instead of streaming."""
    if os.path.exists(REVERSED) and os.path.getsize(REVERSED) == os.path.getsize(DATA):
        return
    with open(DATA) as src, open(REVERSED + ".part", "w") as dst:
        dst.write(src.readline())
        dst.flush()
        subprocess.run(["bash", "-c", 'tail -n +2 "$0" | tac', DATA], stdout=dst, check=True)
    os.replace(REVERSED + ".part", REVERSED)


def same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(1 << 20), fb.read(1 << 20)
            if x != y:
                return False
            if not x:
                return True




ROUNDS = 3
PREVIOUS_ROUNDS = 5
PEERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ingest_peers.py")
ROW = "  %-22s %6.2f s wall  %7.1f MB/s  (CPU %6.2f s)  peak RSS %7.1f MB"


def median_runs(commands, rounds):
    """Runs each command of `commands` (name → argv) in turn, `rounds` times over, and
    gives per name the median wall and CPU seconds and the highest peak RSS."""
    runs = {name: [] for name in commands}
    for _ in range(rounds):
        for name, cmd in commands.items():
            runs[name].append(measure(cmd))
    return {name: (statistics.median(r.wall for r in v), statistics.median(r.cpu for r in v), max(r.rss_mb for r in v))
            for name, v in runs.items()}


def main():
    resonance, python, peer_python = sys.argv[1:4]
    generate()
    generate_reversed()
    mb = os.path.getsize(DATA) / 1e6
    ws = os.path.join(BENCH, "ws")
    hr = os.path.join(ws, "hr.csv")
    out = {p: os.path.join(BENCH, p + "_hr.csv") for p in ("duckdb", "polars", "pandas")}
    timed = median_runs({
        "resonance import": [resonance, "import", DATA, "--out", ws, "--quiet"],
        "DuckDB, 2 threads": [peer_python, PEERS, "duckdb", DATA, out["duckdb"], "2"],
        "polars, 2 threads": [peer_python, PEERS, "polars", DATA, out["polars"], "2"],
    }, ROUNDS)
    v_wall, v_cpu, v_rss, _ = measure([resonance, "import", REVERSED, "--out", ws + "_reversed", "--quiet"])
    p_wall, p_cpu, p_rss, _ = measure([python, "-c", PANDAS_PEER, DATA, out["pandas"]])
    timed["pandas"] = (p_wall, p_cpu, p_rss)
    with open(hr, "rb") as a:
        rows = sum(1 for _ in a) - 1
    r_wall = timed["resonance import"][0]
    print("ingest bench: %s, %.1f MB, %d rows; medians of %d alternating runs (pandas: one run)" % (DATA, mb, rows, ROUNDS))
    for name, (wall, cpu, rss) in timed.items():
        line = ROW % (name + ":", wall, mb / wall, cpu, rss)
        if name != "resonance import":
            peer = name.split(",")[0].lower()
            line += "  %.2fx resonance's wall; %s hr.csv" % (wall / r_wall, "same bytes as" if same_bytes(hr, out[peer]) else "DIFFERS from")
        print(line)
        if name == "resonance import":
            print(ROW % ("  rows reversed:", v_wall, mb / v_wall, v_cpu, v_rss)
                  + ("  same hr.csv" if same_bytes(hr, os.path.join(ws + "_reversed", "hr.csv")) else "  DIFFERENT hr.csv"))
    print("  (wall time includes waiting for the CPU on a shared machine; CPU time does not)")
    if len(sys.argv) > 4:
        previous = sys.argv[4]
        best = median_runs({"new": [resonance, "import", DATA, "--out", ws + "_cmp", "--quiet"],
                            "previous": [previous, "import", DATA, "--out", ws + "_cmp", "--quiet"]}, PREVIOUS_ROUNDS)
        (nw, nc, nr), (pw, pc, pr) = best["new"], best["previous"]
        print("  against the build before (%s), medians of %d alternating runs: %.2f s wall / %.2f s CPU vs %.2f / %.2f; "
              "ratio new/previous %.2f wall, %.2f CPU; peak RSS %.0f vs %.0f MB"
              % (previous, PREVIOUS_ROUNDS, nw, nc, pw, pc, nw / pw, nc / pc, nr, pr))


if __name__ == "__main__":
    main()
