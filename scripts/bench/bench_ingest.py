#!/usr/bin/env python3
"""Ingest benchmark: `resonance import` against a pandas peer on the same file.

Generates (deterministically) a generic heart-rate CSV of ~7 million ISO-timestamped
rows (4 subjects, 1 Hz) in build/bench/, then runs
  - resonance import FILE --out WS (release build), and
  - pandas: read_csv with timestamp parsing + to_csv of the canonical hr.csv columns,
each under /usr/bin/time -v, and prints throughput (input MB / wall s), the ratio
and the peak RSS of each. With a third argument, another build of resonance (the
previous release), both imports of the forward file run alternately three times each
and the best CPU and wall times give the ratio new / previous, so a regression shows
in the same run on the same machine.

Usage: bench_ingest.py RESONANCE PYTHON [PREVIOUS_RESONANCE]
"""
import os
import random
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




def main():
    resonance, python = sys.argv[1], sys.argv[2]
    generate()
    generate_reversed()
    mb = os.path.getsize(DATA) / 1e6
    ws = os.path.join(BENCH, "ws")
    r_wall, r_cpu, r_rss, _ = measure([resonance, "import", DATA, "--out", ws, "--quiet"])
    v_wall, v_cpu, v_rss, _ = measure([resonance, "import", REVERSED, "--out", ws + "_reversed", "--quiet"])
    same = same_bytes(os.path.join(ws, "hr.csv"), os.path.join(ws + "_reversed", "hr.csv"))
    peer_out = os.path.join(BENCH, "pandas_hr.csv")
    p_wall, p_cpu, p_rss, _ = measure([python, "-c", PANDAS_PEER, DATA, peer_out])
    with open(os.path.join(ws, "hr.csv"), "rb") as a:
        rows_r = sum(1 for _ in a) - 1
    agree = same_bytes(os.path.join(ws, "hr.csv"), peer_out)
    print("ingest bench: %s, %.1f MB, %d rows" % (DATA, mb, rows_r))
    row = "  %-17s %6.2f s wall  %7.1f MB/s  (CPU %6.2f s)  peak RSS %7.1f MB"
    print(row % ("resonance import:", r_wall, mb / r_wall, r_cpu, r_rss))
    print(row % ("  rows reversed:", v_wall, mb / v_wall, v_cpu, v_rss)
          + ("  same hr.csv" if same else "  DIFFERENT hr.csv"))
    print(row % ("pandas peer:", p_wall, mb / p_wall, p_cpu, p_rss))
    print("  speed-up: %.1fx wall, %.1fx CPU; hr.csv %s the pandas output"
          % (p_wall / r_wall, p_cpu / r_cpu, "byte-identical to" if agree else "DIFFERS from"))
    print("  (wall time includes waiting for the CPU on a shared machine; CPU time does not)")
    if len(sys.argv) > 3:
        previous = sys.argv[3]
        runs = {resonance: [], previous: []}
        for _ in range(3):
            for binary in (resonance, previous):
                wall, cpu, rss, _ = measure([binary, "import", DATA, "--out", ws + "_cmp", "--quiet"])
                runs[binary].append((wall, cpu, rss))
        best = {b: (min(r[0] for r in v), min(r[1] for r in v), max(r[2] for r in v)) for b, v in runs.items()}
        (nw, nc, nr), (pw, pc, pr) = best[resonance], best[previous]
        print("  against the previous release (%s), best of 3 alternating: %.2f s wall / %.2f s CPU vs %.2f / %.2f; "
              "ratio new/previous %.2f wall, %.2f CPU; peak RSS %.0f vs %.0f MB" % (previous, nw, nc, pw, pc, nw / pw, nc / pc, nr, pr))


if __name__ == "__main__":
    main()
