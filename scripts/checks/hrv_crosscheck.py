#!/usr/bin/env python3
"""Cross-check of `resonance hrv` against NeuroKit2 0.2.13 on the shared PhysioNet and
Stress-Predict RR data.

Both sides get the same NN intervals: `resonance hrv --nn-out` writes the cleaned NN
series it analysed, and NeuroKit2 is fed, window by window, exactly the beats that
`hrv.csv` counted in that window (RRI + RRI_Time). Spectral settings are matched to
NeuroKit2's `hrv_frequency` (4 Hz resampling, no detrending beyond the mean, Welch with
segments of half the window, 50 % overlap, FFT twice the segment); the default Kubios
settings (smoothness priors λ = 500, 256 s segments) are printed alongside for reference.

Prints one `Test Case 'crosscheck.<name>' passed|failed` line per check and exits
non-zero if any fails. Without RESONANCE_DATASETS it explains the skip and passes.
"""
import argparse
import datetime as dt
import os
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd

warnings.filterwarnings("ignore")
import neurokit2 as nk  # noqa: E402
from neurokit2.hrv.hrv_nonlinear import _hrv_nonlinear_poincare  # noqa: E402
from neurokit2.hrv.intervals_utils import _intervals_successive  # noqa: E402

MATCHED = ["--interpolation", "quadratic", "--detrend", "none", "--resample-hz", "4", "--welch-segment", "0",
           "--welch-overlap", "50", "--welch-pad", "2"]
TIME_COLUMNS = ["MeanNN", "SDNN", "RMSSD", "SDSD", "pNN50", "pNN20", "CVNN", "HTI"]
POINCARE_COLUMNS = ["SD1", "SD2"]


def ms(iso):
    return int(round(dt.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000))


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def workspace(bin_, ws, source, reuse):
    """Imports a dataset folder into `ws` (kept as is with --reuse)."""
    if not (reuse and os.path.exists(os.path.join(ws, "rr.csv"))):
        run([bin_, "import", source, "--out", ws, "--quiet"])
    return ws


def physionet_subset(root, work, records):
    """A folder with the first `records` records of each PhysioNet database (symbolic
    links, same layout), so the import stays small."""
    subset = os.path.join(work, "physionet-subset")
    for db in ["nsr2db", "chf2db"]:
        os.makedirs(os.path.join(subset, db), exist_ok=True)
        names = sorted(f for f in os.listdir(os.path.join(root, db)) if f.endswith(".txt"))
        for f in names[:records]:
            link = os.path.join(subset, db, f)
            if not os.path.lexists(link):
                os.symlink(os.path.abspath(os.path.join(root, db, f)), link)
    return subset


def windows_of(bin_, ws, extra, per_subject, step):
    nn_path = os.path.join(ws, "crosscheck_nn.csv")
    run([bin_, "hrv", ws, "--step", str(step), "--nn-out", nn_path, "--quiet", *extra])
    hrv = pd.read_csv(os.path.join(ws, "hrv.csv"), dtype={"subject": str})
    hrv = hrv[hrv.window_start.notna() & (hrv.n_beats >= 100)]
    hrv = hrv.groupby("subject").head(per_subject)
    nn = pd.read_csv(nn_path, keep_default_na=False, dtype={"subject": str})
    return hrv, {s: g for s, g in nn.groupby("subject")}


def neurokit_rows(hrv, nn):
    rows = []
    for _, w in hrv.iterrows():
        g = nn[w.subject]
        sel = g[(g.time_ms >= ms(w.window_start)) & (g.time_ms < ms(w.window_end))]
        rri = sel.nn_ms.to_numpy(float)
        t = sel.time_ms.to_numpy(float) / 1000
        peaks = {"RRI": rri, "RRI_Time": t}
        time = nk.hrv_time(peaks)
        freq = nk.hrv_frequency(peaks, interpolation_rate=4, normalize=False, psd_method="welch")
        missing = not bool(np.all(_intervals_successive(rri, t)))
        poincare = _hrv_nonlinear_poincare(rri, t, missing, out={})
        alpha1, _ = nk.fractal_dfa(rri, scale=np.arange(4, 17))
        row = {c: float(time["HRV_" + c].iloc[0]) for c in TIME_COLUMNS}
        row.update({c: float(poincare[c]) for c in POINCARE_COLUMNS})
        row.update(LF=float(freq.HRV_LF.iloc[0]), HF=float(freq.HRV_HF.iloc[0]),
                   LF_HF=float(freq.HRV_LFHF.iloc[0]), DFA_alpha1=float(alpha1), n=len(rri))
        rows.append(row)
    return pd.DataFrame(rows, index=hrv.index)


def relative(ours, theirs):
    return np.abs(ours - theirs) / np.maximum(np.abs(theirs), 1e-300)


def report(name, ok, detail):
    print(f"Test Case 'crosscheck.{name}' {'passed' if ok else 'failed'} ({detail})")
    return ok


def same_missing(ours, theirs):
    """Both sides undefined in exactly the same windows (NaN would hide in nanmax)."""
    return bool((np.isnan(ours) == np.isnan(theirs)).all())


def spectral_agreement(ours, peer, c):
    rel = relative(ours[c].values, peer[c].values)
    rho = float(pd.Series(ours[c].values).corr(pd.Series(peer[c].values), method="spearman"))
    return float(np.nanmedian(rel)), float(np.nanpercentile(rel, 95)), rho


def check_dataset(label, bin_, ws, per_subject, step):
    hrv, nn = windows_of(bin_, ws, MATCHED, per_subject, step)
    peer = neurokit_rows(hrv, nn)
    assert (peer.n.values == hrv.n_beats.values).all(), "window beat counts differ"
    ok = True
    print(f"{label}: {len(hrv)} windows of 300 s every {step} s ({hrv.subject.nunique()} subjects, "
          f"first {per_subject} per subject), {int(hrv.n_beats.sum())} beats")
    for c in TIME_COLUMNS + POINCARE_COLUMNS:
        same = same_missing(hrv[c].values, peer[c].values)
        worst = float(np.nanmax(relative(hrv[c].values, peer[c].values)))
        ok &= report(f"{label}.{c}", same and worst <= 1e-9,
                     f"max relative difference {worst:.2e} <= 1e-9, same undefined windows: {same}")
    for c in ["LF", "HF", "LF_HF"]:
        same = same_missing(hrv[c].values, peer[c].values)
        med, p95, rho = spectral_agreement(hrv, peer, c)
        ok &= report(f"{label}.{c}", same and med <= 0.05 and p95 <= 0.05 and rho >= 0.99,
                     f"median |relative difference| {med:.2e}, 95th percentile {p95:.2e} <= 0.05, "
                     f"Spearman rho {rho:.6f} >= 0.99, same undefined windows: {same}")
    same = same_missing(hrv.DFA_alpha1.values, peer.DFA_alpha1.values)
    worst = float(np.nanmax(relative(hrv.DFA_alpha1.values, peer.DFA_alpha1.values)))
    ok &= report(f"{label}.DFA_alpha1", same and worst <= 0.02,
                 f"max relative difference {worst:.2e} <= 0.02, same undefined windows: {same}")
    # Deliberate difference: the defaults follow Kubios (natural cubic spline, smoothness
    # priors λ = 500 removing trends below ≈ 0.04 Hz, 256 s Welch segments).
    default, _ = windows_of(bin_, ws, [], per_subject, step)
    for c in ["LF", "HF", "LF_HF"]:
        med = float(np.nanmedian(relative(default[c].values, peer[c].values)))
        print(f"  {c} with the default (Kubios) settings vs NeuroKit2's: "
              f"median |relative difference| {med:.3f}; medians {np.nanmedian(default[c]):.1f} vs "
              f"{np.nanmedian(peer[c]):.1f}")
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=".build/release/resonance")
    ap.add_argument("--work", default="build/crosscheck")
    ap.add_argument("--records", type=int, default=3, help="PhysioNet records per group")
    ap.add_argument("--windows", type=int, default=24, help="windows per subject")
    ap.add_argument("--reuse", action="store_true", help="keep workspaces already imported under --work")
    a = ap.parse_args()
    root = os.environ.get("RESONANCE_DATASETS", "")
    if not root:
        print("crosscheck: RESONANCE_DATASETS is not set: skipping the NeuroKit2 cross-check")
        return 0
    os.makedirs(a.work, exist_ok=True)
    physio = physionet_subset(os.path.join(root, "physionet-rr"), a.work, a.records)
    ok = check_dataset("physionet", a.bin, workspace(a.bin, os.path.join(a.work, "physionet"), physio, a.reuse),
                       a.windows, step=300)
    stress = os.path.join(root, "stress-predict")
    ok &= check_dataset("stress_predict", a.bin, workspace(a.bin, os.path.join(a.work, "stress"), stress, a.reuse),
                        a.windows, step=300)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
