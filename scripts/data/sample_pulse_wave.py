"""Writes the synthetic sample's pulse wave and accelerometer, datasets/sample/S01/BVP.csv
and ACC.csv, in the Empatica E4 layout, from S01's IBI.csv.

    .venv/bin/python scripts/data/sample_pulse_wave.py [--sample datasets/sample]

What it plants, over the first 300 s of the session (both files start at IBI.csv's
start, as an E4 session's do; HR.csv starts 10 s later):

- BVP.csv, 64 Hz, a.u. printed with 2 decimals: one pulse per beat, its foot at the beat
  time. The beats are IBI.csv's wherever it has them; where it skipped beats (an
  interval longer than its own IBI) the missing ones are spread evenly over the gap, and
  before its first beat they go back at its first interval. Each pulse is 0 before its
  foot, then the sum of a systolic Gaussian (peak 0.22 s after the foot, σ 100 ms, less
  its value at the foot fading over 30 ms, so the pulse starts at 0 and rises at once), a
  dicrotic one (0.35 of the height, 0.45 s after the foot or 0.55 of the interval when
  shorter, σ 120 ms) and a diastolic run-off (0.4 of the height × (e^(−t/0.5 s) −
  e^(−t/50 ms))); the pulses add up, so the wave is continuous and falls into every foot.
  The height is 30 a.u. ± 10 % (0.25 Hz, breathing). On top: baseline wander (sines of
  0.05 and 0.13 Hz, 2 and 1 a.u.) and white noise (σ 0.15 a.u.).
- ACC.csv, 32 Hz, x,y,z in 1/64 g: the wrist still at (−38, −7, 51) with noise
  (σ 0.6, rounded).
- A motion burst from 180 s to 190 s (1-s cosine ramps at each end): on the pulse wave,
  three sines between 0.8 and 3 Hz of 40–80 a.u. and noise of σ 5 a.u.; on each axis of
  the accelerometer, sines of 15–40 units (0.2–0.6 g) at 1.5–3.5 Hz.

Seeded (numpy's PCG64, seed 20240501): the same IBI.csv gives the same bytes.
"""
import argparse
from pathlib import Path

import numpy as np

SEED = 20240501
SECONDS = 300
BVP_HZ, ACC_HZ = 64, 32
BURST = (180.0, 190.0)
STILL = np.array([-38.0, -7.0, 51.0])


def read_ibi(path):
    """IBI.csv: its start (unix s) and its beats as (time since the start, IBI) in s."""
    lines = path.read_text().splitlines()
    start = float(lines[0].split(",")[0])
    beats = np.array([[float(v) for v in line.split(",")] for line in lines[1:] if line.strip()])
    return start, beats


def planted_feet(beats, seconds):
    """The pulse feet (s since the start) from just before 0 to the first at or after
    `seconds`: IBI.csv's beats, each gap it skipped filled evenly at its local rate, the
    stretch before its first beat at its first interval."""
    times, intervals = beats[:, 0], beats[:, 1]
    feet = list(np.arange(times[0] - intervals[0], -intervals[0], -intervals[0])[::-1])
    for k, t in enumerate(times):
        if k > 0:
            gap = t - times[k - 1]
            missing = int(round(gap / intervals[k])) - 1
            feet += list(times[k - 1] + gap * np.arange(1, missing + 1) / (missing + 1))
        feet.append(t)
        if t >= seconds:
            break
    return np.array(feet)


def burst_envelope(t):
    """1 inside the burst, cosine ramps of 1 s inside its ends, 0 outside."""
    a, b = BURST
    ramp = np.clip(np.minimum(t - a, b - t), 0, 1)
    return (1 - np.cos(np.pi * ramp)) / 2


def sines(t, rng, count, freq, amplitude):
    """A sum of `count` sines with frequencies and amplitudes drawn from the ranges given."""
    f = rng.uniform(*freq, count)
    a = rng.uniform(*amplitude, count)
    phase = rng.uniform(0, 2 * np.pi, count)
    return (a[:, None] * np.sin(2 * np.pi * f[:, None] * t[None, :] + phase[:, None])).sum(axis=0)


def pulse_wave(feet, t, rng):
    """The pulses at `feet` added up (each 0 before its foot, then its systolic wave, its
    dicrotic wave and its run-off), then the wander, the noise and the burst."""
    x = np.zeros_like(t)
    for foot, following in zip(feet[:-1], feet[1:]):
        after = (t >= foot) & (t < foot + 4)
        u = t[after] - foot
        height = 30 * (1 + 0.1 * np.sin(2 * np.pi * 0.25 * foot))
        dicrotic = min(0.45, 0.55 * (following - foot))
        systolic = np.exp(-0.5 * ((u - 0.22) / 0.1) ** 2) - np.exp(-0.5 * (0.22 / 0.1) ** 2 - u / 0.03)
        run_off = 0.4 * (np.exp(-u / 0.5) - np.exp(-u / 0.05))
        x[after] += height * (systolic + 0.35 * np.exp(-0.5 * ((u - dicrotic) / 0.12) ** 2) + run_off)
    x += 2 * np.sin(2 * np.pi * 0.05 * t + 0.7) + np.sin(2 * np.pi * 0.13 * t + 2.1)
    x += rng.normal(0, 0.15, t.size)
    x += burst_envelope(t) * (sines(t, rng, 3, (0.8, 3.0), (40, 80)) + rng.normal(0, 5, t.size))
    return x


def accelerometer(t, rng):
    """x, y, z (rows) in 1/64 g: the still wrist with noise, then the burst."""
    axes = STILL[:, None] + rng.normal(0, 0.6, (3, t.size))
    axes += burst_envelope(t)[None, :] * np.array([sines(t, rng, 2, (1.5, 3.5), (15, 40)) for _ in range(3)])
    return np.rint(axes).astype(int)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=Path, default=Path(__file__).resolve().parents[2] / "datasets/sample")
    args = ap.parse_args()
    folder = args.sample / "S01"
    start, beats = read_ibi(folder / "IBI.csv")
    rng = np.random.default_rng(SEED)
    feet = planted_feet(beats, SECONDS)
    t = np.arange(SECONDS * BVP_HZ) / BVP_HZ
    bvp = np.round(pulse_wave(feet, t, rng), 2) + 0.0
    (folder / "BVP.csv").write_text(f"{start:.6f}\n{BVP_HZ:.6f}\n" + "".join(f"{v:.2f}\n" for v in bvp))
    acc = accelerometer(np.arange(SECONDS * ACC_HZ) / ACC_HZ, rng)
    header = ", ".join([f"{start:.6f}"] * 3) + "\n" + ", ".join([f"{ACC_HZ:.6f}"] * 3) + "\n"
    (folder / "ACC.csv").write_text(header + "".join(f"{x},{y},{z}\n" for x, y, z in acc.T))


if __name__ == "__main__":
    main()
