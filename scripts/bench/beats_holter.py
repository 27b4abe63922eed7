#!/usr/bin/env python3
"""A day of Holter ECG through `resonance import` and `resonance beats`: wall time and peak memory.

The recording is MIT-BIH record 100's lead MLII resampled from 360 to 512 Hz
(`scipy.signal.resample_poly`, 64/45) and repeated end to end for 24 hours (44,236,800
samples; the joins are 48 jumps of at most a few hundred µV), written as a WFDB record in
format 212 (12-bit samples packed two to three bytes, as Holter recorders ship them).
Its reference beats are record 100's annotated beats at their resampled times in each
copy, so the run is scored as EC57 scores a detector (150 ms, each beat matched once).
Each command runs once under /usr/bin/time -v; prints a Markdown table and, with --out,
writes it to that file. Skips (and passes) without RESONANCE_DATASETS.
"""
import argparse
import os
import shutil
import sys

import numpy as np
import pandas as pd
from scipy.signal import resample_poly

sys.path.insert(0, os.path.dirname(__file__))
from beats_bench import match, pct  # noqa: E402
from beats_stress_predict import print_and_write  # noqa: E402
from timed_run import measure  # noqa: E402

RATE_HZ = 512
HOURS = 24
GAIN, ORIGINAL_BASELINE = 200, 1024


def read_record_100(mitdb):
    """Lead MLII of record 100 in ADC units less its baseline, and its beat samples (360 Hz)."""
    raw = np.fromfile(os.path.join(mitdb, "100.dat"), dtype=np.uint8).reshape(-1, 3).astype(np.int32)
    first = raw[:, 0] | ((raw[:, 1] & 0x0F) << 8)
    first = np.where(first >= 2048, first - 4096, first)
    return first - ORIGINAL_BASELINE, beat_samples(os.path.join(mitdb, "100.atr"))


def beat_samples(path):
    """Sample numbers of the beat-labelled annotations of an MIT-format .atr (SKIP, AUX,
    NUM, SUB and CHN pseudo-annotations handled)."""
    data = np.fromfile(path, dtype="<u2")
    beats = set(range(1, 14)) | {25, 30, 34, 35, 38, 41}  # WFDB's isqrs, as the import marks beats
    out, t, i = [], 0, 0
    while i < len(data):
        code, interval = int(data[i]) >> 10, int(data[i]) & 0x3FF
        i += 1
        if code == 0 and interval == 0:
            break
        if code == 59:  # SKIP: a 32-bit interval follows, high word first
            t += int(np.int32((int(data[i]) << 16) | int(data[i + 1])))
            i += 2
        elif code == 63:  # AUX: skip its bytes, padded to a word
            i += (interval + 1) // 2
        elif code in (60, 61, 62):  # NUM, SUB, CHN
            pass
        else:
            t += interval
            if code in beats:
                out.append(t)
    return np.asarray(out)


def write_212(folder, name, adc):
    """A one-signal WFDB record in format 212."""
    if len(adc) % 2:
        adc = np.append(adc, adc[-1])
    a = adc[0::2].astype(np.int32) & 0xFFF
    b = adc[1::2].astype(np.int32) & 0xFFF
    packed = np.empty((len(a), 3), dtype=np.uint8)
    packed[:, 0] = a & 0xFF
    packed[:, 1] = ((b >> 8) << 4) | (a >> 8)
    packed[:, 2] = b & 0xFF
    packed.tofile(os.path.join(folder, f"{name}.dat"))
    with open(os.path.join(folder, f"{name}.hea"), "w") as f:
        f.write(f"{name} 1 {RATE_HZ} {len(adc)}\n{name}.dat 212 {GAIN}(0)/mV 12 0 0 0 0 ECG\n")


def holter(mitdb, folder):
    """Writes the 24-h record (once) and returns its reference beat times, s."""
    x, beats = read_record_100(mitdb)
    day = np.rint(resample_poly(x.astype(float), 64, 45)).astype(np.int32)
    copy_s = len(day) / RATE_HZ
    copies = int(np.ceil(HOURS * 3600 / copy_s))
    n = HOURS * 3600 * RATE_HZ
    reference = np.concatenate([beats / 360.0 + k * copy_s for k in range(copies)])
    reference = reference[reference < n / RATE_HZ]
    if not os.path.exists(os.path.join(folder, "holter.hea")):
        os.makedirs(folder, exist_ok=True)
        write_212(folder, "holter", np.clip(np.tile(day, copies)[:n], -2048, 2047))
    return reference, n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=".build/release/resonance")
    ap.add_argument("--work", default="build/bench-beats/holter")
    ap.add_argument("--out", help="also write the table to this Markdown file")
    a = ap.parse_args()
    root = os.environ.get("RESONANCE_DATASETS", "")
    if not root or not os.path.isdir(os.path.join(root, "mitdb")):
        print("bench-beats: RESONANCE_DATASETS/mitdb is missing: skipped")
        return
    record = os.path.join(a.work, "record")
    reference, n = holter(os.path.join(root, "mitdb"), record)
    ws = os.path.join(a.work, "ws")
    shutil.rmtree(ws, ignore_errors=True)
    imported = measure([a.bin, "import", record, "--out", ws, "--quiet"])
    beats = measure([a.bin, "beats", ws, "--quiet"])
    stamps = pd.to_datetime(pd.read_csv(os.path.join(ws, "beats.csv"), usecols=["timestamp"]).timestamp, utc=True)
    times = np.sort((stamps - pd.Timestamp(0, unit="s", tz="UTC")).dt.total_seconds().to_numpy())
    tp, fn, fp = match(times, reference)
    dat_mb = os.path.getsize(os.path.join(record, "holter.dat")) / 1e6
    bin_mb = os.path.getsize(os.path.join(ws, "waveforms.bin")) / 1e6
    text = ("| step | wall s | CPU s | peak RSS MB |\n|---|---|---|---|\n"
            + "".join(f"| {name} | {r.wall:.1f} | {r.cpu:.1f} | {r.rss_mb:.0f} |\n"
                      for name, r in (("import", imported), ("beats", beats)))
            + f"\n{n:,} samples at {RATE_HZ} Hz ({HOURS} h; holter.dat {dat_mb:.1f} MB, waveforms.bin {bin_mb:.1f} MB); "
            f"{len(times):,} beats, Se {pct(tp, fn)} %, +P {pct(tp, fp)} % against {len(reference):,} reference beats; "
            f"import + beats {imported.wall + beats.wall:.1f} s wall, peak {max(imported.rss_mb, beats.rss_mb):.0f} MB.\n")
    print_and_write(text, a.out)


if __name__ == "__main__":
    main()
