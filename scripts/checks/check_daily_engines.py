"""Independent re-implementation of the daily engines (docs/engines/heart-coach.md),
written from the specification with numpy/pandas, checked against the stress,
readiness, anomaly and flags columns that `resonance` wrote into daily.csv.

Usage: python scripts/checks/check_daily_engines.py WS/daily.csv
Prints one `Test Case '...' passed|failed` line per output column; exit 1 on failure.
Default constants only (the registry defaults the product specification gives).
"""
import math
import sys

import numpy as np
import pandas as pd

TOL = 1e-9


def window(hist, col, lo, hi):
    """Non-missing values of `col` on days lo..hi (inclusive) of the earlier days."""
    sel = hist[(hist["day"] >= lo) & (hist["day"] <= hi)][col].dropna()
    return sel.to_numpy(dtype=float)


def combine(parts):
    """Weighted mean with weights re-normalised over the available parts."""
    total = sum(w for _, w in parts)
    return sum(s * w for s, w in parts) / total if total > 0 else None


def stress(today, hist):
    d = today["day"]
    parts = {}
    base = window(hist, "resting_hr", d - 28, d - 1)
    if not math.isnan(today["resting_hr"]) and len(base) >= 3 and base.mean() > 0:
        pct = 100 * (today["resting_hr"] - base.mean()) / base.mean()
        parts["rhr"] = (min(100, max(0, 40 + 4 * pct)), 0.5)
    ln = np.log(window(hist, "hrv_sdnn", d - 28, d - 1))
    if not math.isnan(today["hrv_sdnn"]) and today["hrv_sdnn"] > 0 and len(ln) >= 3 and ln.std(ddof=1) > 0:
        z = (math.log(today["hrv_sdnn"]) - ln.mean()) / ln.std(ddof=1)
        parts["hrv"] = (min(100, max(0, 40 - 20 * z)), 0.3)
    recent = window(hist, "hrv_sdnn", d - 6, d - 1)
    if not math.isnan(today["hrv_sdnn"]):
        recent = np.append(recent, today["hrv_sdnn"])
    if len(recent) >= 3 and recent.mean() > 0:
        cv = recent.std(ddof=1) / recent.mean()
        parts["cv"] = (float(np.interp(cv, [0.15, 0.30], [40, 100])), 0.2)
    if sorted(parts) == ["hrv", "rhr"]:  # the specification's explicit two-signal weights
        parts = {"rhr": (parts["rhr"][0], 0.6), "hrv": (parts["hrv"][0], 0.4)}
    raw = combine(parts.values())
    if raw is None:
        return None, ""
    score = 100 / (1 + math.exp(-0.08 * (raw - 50)))
    return score, "relaxed" if score < 35 else "balanced" if score < 65 else "elevated"


def robust_z(x, base):
    if math.isnan(x) or len(base) < 7:
        return None
    med = np.median(base)
    mad = np.median(np.abs(base - med))
    return None if mad == 0 else (x - med) / (1.4826 * mad)


def elevated(row, hist):
    base = window(hist, "resting_hr", row["day"] - 34, row["day"] - 7)
    return (not math.isnan(row["resting_hr"]) and len(base) >= 7
            and row["resting_hr"] > base.mean() + 2 * base.std(ddof=1))


def trend(today, hist):
    d = today["day"]
    z = {}
    parts = []
    for col, w, sign in [("resting_hr", .25, 1), ("hrv_sdnn", .25, -1), ("recovery_1m", .20, -1),
                         ("recovery_2m", .10, -1), ("vo2max", .20, -1)]:
        zi = robust_z(today[col], window(hist, col, d - 28, d - 1))
        if zi is not None:
            z[col] = zi
            parts.append((sign * zi, w))
    anomaly = combine(parts) if parts else None

    def slope(col):
        pts = hist[(hist["day"] >= d - 6)][["day", col]].dropna()
        xs, ys = list(pts["day"]), list(pts[col])
        if not math.isnan(today[col]):
            xs.append(d); ys.append(today[col])
        return np.polyfit(xs, ys, 1)[0] if len(xs) >= 4 else None

    rs, hs = slope("resting_hr"), slope("hrv_sdnn")
    flags = []
    if anomaly is not None and anomaly >= 1.5:
        flags.append("anomaly")
    if (rs is not None and rs > 0.3) or (hs is not None and hs < -0.3):
        flags.append("regression")
    if all(k in z for k in ("resting_hr", "hrv_sdnn", "recovery_1m")) and z["resting_hr"] >= 1.5 \
            and z["hrv_sdnn"] <= -1.5 and z["recovery_1m"] <= -1.5:
        flags.append("stress_pattern")
    week = np.append(window(hist, "resting_hr", d - 6, d - 1), [] if math.isnan(today["resting_hr"]) else [today["resting_hr"]])
    wbase = window(hist, "resting_hr", d - 34, d - 7)
    if len(week) and len(wbase) >= 14 and wbase.std(ddof=1) > 0:
        wz = (week.mean() - wbase.mean()) / wbase.std(ddof=1)
        if wz >= 1.5:
            flags.append("rhr_week_up")
        if wz <= -1.5:
            flags.append("rhr_week_down")
    streak = 0
    if elevated(today, hist):
        streak, last = 1, d
        measured = hist[hist["resting_hr"].notna()]
        for k in range(len(measured) - 1, -1, -1):
            row = measured.iloc[k]
            if last - row["day"] > 1.5 or not elevated(row, hist[hist["day"] < row["day"]]):
                break
            streak, last = streak + 1, row["day"]
    if streak >= 3:
        flags.append("consecutive_elevation")
    return anomaly, flags, streak >= 3


def readiness(today, hist, stress_score, alert):
    d = today["day"]
    parts = []
    if not math.isnan(today["sleep_hours"]):
        parts.append((100 * math.exp(-(today["sleep_hours"] - 8) ** 2 / (2 * 1.5 ** 2)), .25))
    if not math.isnan(today["recovery_1m"]):
        parts.append((float(np.interp(today["recovery_1m"], [10, 40], [0, 100])), .25))
    if stress_score is not None:
        parts.append((100 - stress_score, .20))
    if not math.isnan(today["zone_minutes"]):
        # The product's 7-day activity patterns over the days with zone minutes, first
        # match wins: 3 inactive days (< 20 min) → 30; active yesterday, rest today → 85;
        # else the mean: 30 at 0 → 100 at 20, 100 through 45, → 50 at 120 and beyond.
        earlier = hist[(hist["day"] >= d - 6) & (hist["day"] <= d - 1) & hist["zone_minutes"].notna()]
        minutes = dict(zip(earlier["day"], earlier["zone_minutes"]))
        minutes[d] = today["zone_minutes"]
        mean = float(np.mean(list(minutes.values())))

        def inactive(k):
            return k in minutes and minutes[k] < 20

        if all(inactive(d - k) for k in range(3)):
            activity = 30.0
        elif d - 1 in minutes and minutes[d - 1] >= 20 and inactive(d):
            activity = 85.0
        elif mean <= 45:
            activity = float(np.interp(mean, [0, 20], [30, 100]))
        else:
            activity = float(np.interp(mean, [45, 120], [100, 50]))
        parts.append((activity, .15))
    if not math.isnan(today["hrv_sdnn"]):
        prev = window(hist, "hrv_sdnn", d - 7, d - 1)
        if len(prev) >= 3 and prev.mean() > 0:
            below = max(0, 100 * (prev.mean() - today["hrv_sdnn"]) / prev.mean())
            parts.append((max(0, 100 - 20 * below / 10), .15))
    value = combine(parts) if parts else None
    if value is None:
        return None, "", False
    capped = alert and value > 50
    score = 50 if capped else value
    level = "primed" if score >= 80 else "ready" if score >= 60 else "moderate" if score >= 40 else "recovering"
    return score, level, capped


def close(a, b):
    if a is None or (isinstance(a, float) and math.isnan(a)):
        return b is None or (isinstance(b, float) and math.isnan(b))
    return b is not None and not math.isnan(b) and abs(a - b) <= TOL * max(1, abs(a))


def main(path):
    df = pd.read_csv(path, keep_default_na=False, na_values=[""])
    df["day"] = (pd.to_datetime(df["date"]) - pd.Timestamp("1970-01-01")).dt.days
    for col in ("stress_level", "readiness_level", "flags"):
        df[col] = df[col].fillna("").astype(str)
    bad = {k: [] for k in ("stress", "stress_level", "readiness", "readiness_level", "anomaly", "flags")}
    for subject, g in df.groupby("subject", sort=False):
        g = g.sort_values("day").reset_index(drop=True)
        for i in range(len(g)):
            today, hist = g.iloc[i], g.iloc[:i]
            s, sl = stress(today, hist)
            a, flags, alert = trend(today, hist)
            r, rl, capped = readiness(today, hist, s, alert)
            if capped:
                flags.append("readiness_capped")
            where = f"{subject} {today['date']}"
            for name, mine, theirs, ok in [
                ("stress", s, today["stress"], close(s, today["stress"])),
                ("stress_level", sl, today["stress_level"], sl == today["stress_level"]),
                ("readiness", r, today["readiness"], close(r, today["readiness"])),
                ("readiness_level", rl, today["readiness_level"], rl == today["readiness_level"]),
                ("anomaly", a, today["anomaly"], close(a, today["anomaly"])),
                ("flags", ";".join(flags), today["flags"], ";".join(flags) == today["flags"]),
            ]:
                if not ok:
                    bad[name].append(f"{where}: python {mine} vs resonance {theirs}")
    failed = False
    for name, problems in bad.items():
        status = "failed" if problems else "passed"
        failed |= bool(problems)
        print(f"Test Case 'daily-engines.{name} ({len(df)} person-days)' {status}")
        for p in problems[:3]:
            print("    " + p)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
