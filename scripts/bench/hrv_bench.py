#!/usr/bin/env python3
"""HRV benchmark: every shared PhysioNet RR record (nsr2db, chf2db, healthy) through
`resonance hrv` (300 s windows, 60 s step, every index family, plus whole-recording rows)
and `resonance coherence` (64 s windows, 5 s step), on 2 jobs: wall and CPU time, beats
per second and peak RSS; the two commands back to back and `resonance run --workspace
--stages hrv,coherence` (both in one process, each stage reading and cleaning its
subjects' R-R as it goes), each against the target of 10 s wall on 2 cores, with the
load average at the time. Then the per-window time of each index family against
NeuroKit2 0.2.13 (`hrv_time`, `hrv_frequency`, `hrv_nonlinear`) on the same NN windows,
as a ratio, and the least time the frequency family can take with hrv.csv's bits
(scripts/bench/frequency_floor.c: its chains of dependent steps and its FFT, built with
`cc`). With --ounchecked-bin, the same sources built with -Ounchecked (no bounds or
overflow checks) are timed on the same workspace, with the ratio of each stage's wall and
CPU time, and their outputs are checked to be byte-identical. With --previous-bin (`make
bench-hrv PREVIOUS_BIN=path/to/resonance`), the build before is run alternately with this
one, 5 runs each: the medians of each family's time per window and of the one run's wall
and CPU time, with their ratio, and the two builds' hrv.csv and coherence.csv compared
byte for byte. Skips (and passes) without RESONANCE_DATASETS.
"""
import argparse
import datetime as dt
import filecmp
import shutil
import os
import re
from statistics import median
import subprocess
import sys
import time
import warnings

import pandas as pd

warnings.filterwarnings("ignore")
import neurokit2 as nk  # noqa: E402

TARGET_WALL_S = 10.0
TARGET_RATIO = 100.0
# The frequency family is wanted at a thousand times NeuroKit2, per window.
TARGET_RATIO_FREQUENCY = 1000.0


def timed(cmd):
    """Runs cmd; returns (wall s, CPU s, peak RSS MiB, stderr)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench-hrv: {' '.join(cmd)} failed:\n{err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, err


def best_of(cmd, repeat):
    """The fastest of `repeat` runs of cmd (least disturbed by other load)."""
    return min((timed(cmd) for _ in range(repeat)), key=lambda r: r[0])


def compare_ounchecked(a, ws, jobs):
    """Times hrv and coherence with the release build and the -Ounchecked build, runs
    interleaved so that both see the same load; prints a table and checks the outputs match."""
    rows = []
    for stage, extra in [("hrv", []), ("coherence", [])]:
        results = {}
        for label, binary in [("safe", a.bin), ("ounchecked", a.ounchecked_bin)]:
            results[label] = best_of([binary, stage, ws, *jobs, *extra], a.repeat)
            shutil.copyfile(os.path.join(ws, f"{stage}.csv"), os.path.join(a.work, f"{stage}.{label}.csv"))
        same = filecmp.cmp(os.path.join(a.work, f"{stage}.safe.csv"),
                           os.path.join(a.work, f"{stage}.ounchecked.csv"), shallow=False)
        rows.append((stage, results["ounchecked"], results["safe"], same))
    print(f"  bounds checks (best of {a.repeat}; -Ounchecked: the same sources built with "
          f"`-Xswiftc -Ounchecked` into {os.path.dirname(os.path.dirname(a.ounchecked_bin))}):")
    print(f"    {'stage':9s}  {'-Ounchecked wall':>16s}  {'safe wall':>9s}  {'ratio':>5s}  "
          f"{'-Ounchecked CPU':>15s}  {'safe CPU':>8s}  {'ratio':>5s}  outputs")
    total = [0.0, 0.0, 0.0, 0.0]
    for stage, unchecked, safe, same in rows + [("total", None, None, None)]:
        if stage == "total":
            uw, sw, uc, sc = total
        else:
            uw, sw, uc, sc = unchecked[0], safe[0], unchecked[1], safe[1]
            total = [total[0] + uw, total[1] + sw, total[2] + uc, total[3] + sc]
        verdict = "" if same is None else ("identical" if same else "DIFFER")
        print(f"    {stage:9s}  {uw:14.2f} s  {sw:7.2f} s  {sw / uw:5.2f}  {uc:13.2f} s  {sc:6.2f} s  "
              f"{sc / uc:5.2f}  {verdict}")
    if not all(r[3] for r in rows):
        sys.exit("bench-hrv: the -Ounchecked build's outputs differ from the release build's")


def family_times(stderr):
    """µs per window of each index family from `resonance hrv --timing`'s stderr."""
    m = re.search(r"time ([\d.]+), frequency ([\d.]+), nonlinear ([\d.]+)", stderr)
    return dict(zip(["time", "frequency", "nonlinear"], map(float, m.groups())))


def compare_previous(a, ws, jobs):
    """Times this build and the build before (--previous-bin) alternately, `--alternate`
    runs each: the per-window time of each family (`hrv --timing`) and the wall and CPU
    time of `run --workspace --stages hrv,coherence`, medians with their ratio; checks
    that both write the same hrv.csv and coherence.csv. Returns this build's family medians."""
    builds = [("this", a.bin), ("before", a.previous_bin)]
    families = {label: [] for label, _ in builds}
    runs = {label: [] for label, _ in builds}
    for _ in range(a.alternate):
        for label, binary in builds:
            families[label].append(family_times(timed([binary, "hrv", ws, "--timing", *jobs])[3]))
            shutil.copyfile(os.path.join(ws, "hrv.csv"), os.path.join(a.work, f"hrv.{label}.csv"))
            runs[label].append(timed([binary, "run", "--workspace", ws, "--stages", "hrv,coherence", *jobs]))
            shutil.copyfile(os.path.join(ws, "coherence.csv"), os.path.join(a.work, f"coherence.{label}.csv"))
    same = all(filecmp.cmp(os.path.join(a.work, f"{t}.this.csv"), os.path.join(a.work, f"{t}.before.csv"), shallow=False)
               for t in ["hrv", "coherence"])
    print(f"  against the build before ({a.previous_bin}), median of {a.alternate} alternating runs:")
    print(f"    {'':29s}  {'this':>8s}  {'before':>8s}  {'before/this':>11s}")
    mine = {}
    for family in ["time", "frequency", "nonlinear"]:
        now, then = (median([f[family] for f in families[label]]) for label, _ in builds)
        mine[family] = now
        print(f"    {family + ' µs per window':29s}  {now:8.1f}  {then:8.1f}  {then / now:10.2f}x")
    for name, k in [("run hrv,coherence wall s", 0), ("run hrv,coherence CPU s", 1)]:
        now, then = (median([r[k] for r in runs[label]]) for label, _ in builds)
        print(f"    {name:29s}  {now:8.2f}  {then:8.2f}  {then / now:10.2f}x")
    print(f"    hrv.csv and coherence.csv: {'identical' if same else 'DIFFER'}")
    if not same:
        sys.exit("bench-hrv: this build's outputs differ from the build before's")
    return mine


def ms(iso):
    return int(round(dt.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000))


def neurokit_per_window(ws, nn_path, windows, nonlinear_windows):
    hrv = pd.read_csv(os.path.join(ws, "hrv.csv"), dtype={"subject": str})
    usable = hrv[hrv.window_start.notna() & hrv.reliable & (hrv.n_beats >= 100)]
    first = usable.subject.iloc[0]
    rows = usable[usable.subject == first].head(windows)
    nn = pd.read_csv(nn_path, dtype={"subject": str})
    nn = nn[nn.subject == first]
    inputs = []
    for _, w in rows.iterrows():
        sel = nn[(nn.time_ms >= ms(w.window_start)) & (nn.time_ms < ms(w.window_end))]
        inputs.append({"RRI": sel.nn_ms.to_numpy(float), "RRI_Time": sel.time_ms.to_numpy(float) / 1000})
    out = {}
    for family, fn, count in [("time", nk.hrv_time, windows), ("frequency", nk.hrv_frequency, windows),
                              ("nonlinear", nk.hrv_nonlinear, nonlinear_windows)]:
        start = time.perf_counter()
        for peaks in inputs[:count]:
            fn(peaks)
        out[family] = (time.perf_counter() - start) / count * 1e6
    return first, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=".build/release/resonance")
    ap.add_argument("--work", default="build/bench")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--reuse", action="store_true", help="keep a workspace already imported under --work")
    ap.add_argument("--windows", type=int, default=30, help="NeuroKit2 windows for time and frequency")
    ap.add_argument("--nonlinear-windows", type=int, default=5, help="NeuroKit2 windows for nonlinear")
    ap.add_argument("--ounchecked-bin", help="the same sources built with -Ounchecked, timed beside --bin")
    ap.add_argument("--repeat", type=int, default=1, help="runs per timing; the fastest is reported")
    ap.add_argument("--previous-bin", help="the build before, timed alternately beside --bin")
    ap.add_argument("--alternate", type=int, default=5, help="alternating runs of each build with --previous-bin")
    a = ap.parse_args()
    root = os.environ.get("RESONANCE_DATASETS", "")
    if not root:
        print("bench-hrv: RESONANCE_DATASETS is not set: skipping the HRV benchmark")
        return 0
    ws = os.path.join(a.work, "physionet-rr")
    if not (a.reuse and os.path.exists(os.path.join(ws, "rr.csv"))):
        subprocess.run([a.bin, "import", os.path.join(root, "physionet-rr"), "--out", ws, "--quiet"], check=True)
    with open(os.path.join(ws, "rr.csv")) as f:
        beats = sum(1 for _ in f) - 1
    jobs = ["--jobs", str(a.jobs), "--quiet"]
    load = os.getloadavg()[0]
    hrv = best_of([a.bin, "hrv", ws, "--timing", *jobs], a.repeat)
    coh = best_of([a.bin, "coherence", ws, *jobs], a.repeat)
    shared = best_of([a.bin, "run", "--workspace", ws, "--stages", "hrv,coherence", *jobs], a.repeat)
    hrv_rows = pd.read_csv(os.path.join(ws, "hrv.csv"), usecols=["subject", "window_start"], dtype={"subject": str})
    records = hrv_rows.subject.nunique()
    windows = int(hrv_rows.window_start.notna().sum())
    with open(os.path.join(ws, "coherence.csv")) as f:
        coherence_rows = sum(1 for _ in f) - 1
    print(f"bench-hrv: {records} records, {beats} beats; hrv: {windows} windows of 300 s every 60 s + "
          f"{records} whole recordings; coherence: {coherence_rows} rows (64 s windows every 5 s); --jobs {a.jobs}")
    for name, (wall, cpu, rss, _) in [("hrv", hrv), ("coherence", coh)]:
        print(f"  {name:9s}: wall {wall:6.2f} s, CPU {cpu:6.2f} s, {beats / wall:,.0f} beats/s, peak RSS {rss:,.0f} MiB")
    total = hrv[0] + coh[0]
    print(f"  hrv + coherence, back to back: wall {total:6.2f} s (target <= {TARGET_WALL_S:g} s on 2 cores: "
          f"{'met' if total <= TARGET_WALL_S else 'NOT met'}), CPU {hrv[1] + coh[1]:.2f} s, "
          f"{beats / total:,.0f} beats/s")
    print(f"  run --workspace --stages hrv,coherence (one process): wall {shared[0]:6.2f} s (target <= {TARGET_WALL_S:g} s on 2 cores: "
          f"{'met' if shared[0] <= TARGET_WALL_S else 'NOT met'}), CPU {shared[1]:.2f} s, "
          f"peak RSS {shared[2]:,.0f} MiB")
    print(f"  load average (1 min) when the timings began: {load:.2f} on {os.cpu_count()} cores "
          f"(other work on the machine slows every wall time above)")
    if a.ounchecked_bin:
        compare_ounchecked(a, ws, jobs)
    ours = family_times(hrv[3])
    if a.previous_bin:
        ours = compare_previous(a, ws, jobs)
    nn_path = os.path.join(a.work, "bench_nn.csv")
    subprocess.run([a.bin, "hrv", ws, "--nn-out", nn_path, "--quiet"], check=True)
    subject, peer = neurokit_per_window(ws, nn_path, a.windows, a.nonlinear_windows)
    runs = f"the median of {a.alternate} runs above" if a.previous_bin else "the run above"
    print(f"  per window (µs; NeuroKit2 on {a.windows} windows of {subject}, {a.nonlinear_windows} for nonlinear; "
          f"ours averaged over all {windows} windows, {runs}; each window computed alone, "
          f"from its own beats, as NeuroKit2 computes it):")
    for family in ["time", "frequency", "nonlinear"]:
        ratio = peer[family] / ours[family]
        target = TARGET_RATIO_FREQUENCY if family == "frequency" else TARGET_RATIO
        print(f"    {family:9s}: resonance {ours[family]:8.1f}  NeuroKit2 {peer[family]:11.1f}  ratio {ratio:8.0f}x "
              f"(target >= {target:,.0f}x: {'met' if ratio >= target else 'NOT met'})")
    frequency_floor(a.work, peer["frequency"])
    return 0


def frequency_floor(work, peer_us):
    """Builds and runs scripts/bench/frequency_floor.c: the least time a window's frequency
    family can take here with hrv.csv's bits (its dependent chains and its FFT), and the
    ratio to NeuroKit2 that would give even if nothing else took any time."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "frequency_floor.c")
    binary = os.path.join(work, "frequency_floor")
    built = subprocess.run(["cc", "-O2", "-o", binary, source, "-lfftw3"], capture_output=True, text=True)
    if built.returncode != 0:
        print(f"  frequency family floor: not built ({built.stderr.strip().splitlines()[-1:]})")
        return
    ran = subprocess.run([binary], capture_output=True, text=True)
    if ran.returncode != 0:
        print(f"  frequency family floor: {binary} exited {ran.returncode} ({ran.stderr.strip()})")
        return
    lines = ran.stdout.splitlines()
    floor_us = float(lines[-1].split()[-2])
    print("  frequency family floor with hrv.csv's bits (scripts/bench/frequency_floor.c, medians of 15 batches):")
    for line in lines:
        print(f"    {line}")
    print(f"    at most {peer_us * 1000 / floor_us:,.0f}x NeuroKit2's {peer_us:.1f} ms if nothing else took any time; "
          f"{TARGET_RATIO_FREQUENCY:,.0f}x leaves {peer_us * 1000 / TARGET_RATIO_FREQUENCY - floor_us:.2f} µs for the rest "
          f"(the 1,200 spline samples, the taper, the band sums)")


if __name__ == "__main__":
    sys.exit(main())
