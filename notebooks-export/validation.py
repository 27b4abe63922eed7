# %% [markdown]
# # Validation figures
#
# The figures of one workspace's validation report: HRV per subject (tachogram, Welch
# PSD, Poincaré plot), NSR vs CHF when the PhysioNet groups are present, heart rate across
# a labelled stress protocol (and the stress engine's ROC once `validation.json` holds
# it), daily resting heart rate and HRV, coherence over time, the song effects with the
# heart rate around song starts and the listening sessions, breathing, and the AI DJ.
# Every number drawn is read from the workspace's tables (`hrv.csv`, `hrv_nn.csv`,
# `hrv_psd.csv`, `coherence.csv`, `song_effects.csv`, `persona_effects.csv`, `truth.csv`,
# `hr.csv`, `labels.csv`, `daily.csv`, `plays.csv`, `sessions.csv`, `session_plays.csv`,
# the breathing and `dj_*` tables) or from the report's `validation.json`; the notebook
# computes no index of its own.
#
# `hrv_nn.csv` and `hrv_psd.csv` come from `resonance hrv WS --nn-out WS/hrv_nn.csv
# --psd-out WS/hrv_psd.csv` (as `make validate` runs it); without them the tachogram,
# PSD and Poincaré figures are skipped.

# %% tags=["parameters"]
WORKSPACE = "build/work/sample"
REPORT_DIR = "reports/sample"
SUBJECT = None  # the subject of the single-subject figures; None = most reliable HRV windows

# %%
V = read_validation()
hrv = read_table("hrv.csv", times=("window_start", "window_end"))
nn = read_table("hrv_nn.csv")
psd = read_table("hrv_psd.csv")
coherence = read_table("coherence.csv")
windows = hrv[hrv["window_start"].notna()] if hrv is not None else None
whole = hrv[hrv["window_start"].isna()].set_index("subject") if hrv is not None else None
if SUBJECT is None and windows is not None and not windows.empty:
    counts = windows[windows["reliable"]].groupby("subject").size()
    SUBJECT = counts.idxmax() if not counts.empty else windows["subject"].iloc[0]
print("subject:", SUBJECT)

# %% [markdown]
# ## Lineage
#
# How each table drawn below was made: the stage and version that wrote it, the version
# of each engine's constants it used, and whether it is still current with its inputs
# (the report's Lineage section, from `manifest.json`). A figure of a stale table, or of
# tables made with different constants, says less than it seems to.

# %%
LINEAGE = (V or {}).get("lineage") or {}
for name, entry in sorted((LINEAGE.get("tables") or {}).items()):
    made = entry.get("lineage") or {}
    engines = " ".join(f"{e['name']}@{e['version']}" for e in made.get("engines", []))
    print(f"{name}: {made.get('command', 'no lineage')} {made.get('stageVersion', '')} {engines}".rstrip())
AUDIT = LINEAGE.get("audit") or {}
for finding in [f"{s['table']} is stale: {s['reason']}" for s in AUDIT.get("stale", [])] + \
        [f"engine {m['engine']} differs between tables" for m in AUDIT.get("mixed_constants", [])] + \
        LINEAGE.get("differs_from_report", []):
    print("NOTE:", finding)

# %% [markdown]
# ## Beats on the raw waveforms
#
# What the beat detectors saw (`beats.csv` on the signals of `waveforms.csv`, read back
# with `resonance waveforms`): for each subject and channel that beats were detected on
# (an ECG lead, a pulse wave), two 15-s strips of the raw signal with each detected beat
# marked at its fiducial point (R peak, pulse foot), coloured by its quality (correlation
# with the template of the recent beats) and filled where the interval it closes is
# reliable, hollow where not; under each strip, where the subject wore an accelerometer,
# the magnitude of its acceleration. Right, the worst stretch: centred on the beat whose
# surrounding 15 s have the lowest mean quality. Left, a typical one: centred on the beat
# of median quality among those at least 15 s from the worst one's centre. Beats without
# a template (quality 0, fewer than 5 beats in the 10 s before them, as at a recording's
# start) take no part in either choice; a strip that would overhang the recording's end
# is moved inside it. At most six subject × channel rows: with more, the six spread
# evenly over their share of reliable beats, from the lowest to the highest.

# %%
from matplotlib.lines import Line2D

STRIP_S = 15
MAX_QC_ROWS = 6
QUALITY_CMAP = matplotlib.colors.LinearSegmentedColormap.from_list(
    "quality", [(0, "#c0392b"), (0.4, "#e67e22"), (0.7, "#2ca25f"), (1, "#1f4e79")])
QUALITY_NORM = matplotlib.colors.Normalize(vmin=0.5, vmax=1.0)


def strip_centres(t, q):
    """The centres (unix s) of the typical and the worst strip of one channel's beats at
    times t with qualities q, in that order: the median-quality beat of those at least
    STRIP_S from the worst (of all, when none is), and the beat whose ±STRIP_S/2 holds the
    lowest mean quality (ties: the earliest); beats of quality 0 left out."""
    judged = q != 0
    t, q = (t[judged], q[judged]) if judged.any() else (t, q)
    lo = np.searchsorted(t, t - STRIP_S / 2, side="left")
    hi = np.searchsorted(t, t + STRIP_S / 2, side="right")
    sums = np.concatenate([[0.0], np.cumsum(q)])
    worst = t[int(np.argmin((sums[hi] - sums[lo]) / (hi - lo)))]
    apart = np.abs(t - worst) >= STRIP_S
    t, q = (t[apart], q[apart]) if apart.any() else (t, q)
    order = np.lexsort((t, q))
    return t[order[len(order) // 2]], worst


def qc_rows(beats, waveforms):
    """The (subject, channel) pairs to draw — those with beats and samples, ECG before
    pulse wave per subject; at most MAX_QC_ROWS, spread over their share of reliable
    beats — and how many pairs there are."""
    held = set(zip(waveforms["subject"], waveforms["channel"]))
    ecg = set(beats.loc[beats["fiducial"] == "r_peak", "channel"])
    shares = beats.groupby(["subject", "channel"])["reliable"].mean()
    pairs = sorted(((s, c, share) for (s, c), share in shares.items() if (s, c) in held),
                   key=lambda p: (p[0], p[1] not in ecg, p[1]))
    total = len(pairs)
    if total > MAX_QC_ROWS:
        ranked = sorted(pairs, key=lambda p: (p[2], p[0], p[1]))
        keep = {ranked[i][:2] for i in np.linspace(0, total - 1, MAX_QC_ROWS).round().astype(int)}
        pairs = [p for p in pairs if p[:2] in keep]
    return [(s, c) for s, c, _ in pairs], total


def strip_span(wave, centre):
    """The STRIP_S seconds around `centre`, moved inside the recording where it would
    overhang an end."""
    first, last = wave["time_unix_s"].iloc[0], wave["time_unix_s"].iloc[-1]
    lo = max(first, min(centre - STRIP_S / 2, last - STRIP_S))
    return lo, lo + STRIP_S


def draw_strip(ax, wave, beats_, span, t0, label):
    """The raw signal over `span` (unix s) and its beats, time since t0."""
    lo, hi = span
    w = wave[(wave["time_unix_s"] >= lo) & (wave["time_unix_s"] <= hi)]
    t, x = w["time_unix_s"].to_numpy(), w["value"].to_numpy()
    step = np.median(np.diff(t)) if len(t) > 1 else 1.0
    ax.plot(*broken(t - t0, x, np.concatenate([[False], np.diff(t) > 1.5 * step])), lw=0.7, color="#4d4d4d")
    b = beats_[(beats_["t"] >= lo) & (beats_["t"] <= hi)]
    y = np.interp(b["t"], t, x) if len(t) else np.zeros(len(b))
    colours = QUALITY_CMAP(QUALITY_NORM(b["quality"].clip(lower=0)))
    reliable = b["reliable"].to_numpy(dtype=bool)
    ax.scatter(b["t"][reliable] - t0, y[reliable], s=28, c=colours[reliable], edgecolors=colours[reliable],
               linewidths=1.2, zorder=3)
    ax.scatter(b["t"][~reliable] - t0, y[~reliable], s=28, facecolors="white", edgecolors=colours[~reliable],
               linewidths=1.4, zorder=3)
    ax.set_xlim(lo - t0, hi - t0)
    ax.set_title(f"{label}: {len(b)} beats, {int(reliable.sum())} reliable, median quality "
                 f"{b['quality'].median():.2f}", fontsize=8)
    ax.tick_params(labelsize=7)


beats = read_table("beats.csv", times=("timestamp",))
waveforms = read_table("waveforms.csv")
rows = []
if waveforms is not None and beats is not None:
    beats["t"] = beats["timestamp"].astype("int64") / 1e9
    rows, pairs_with_beats = qc_rows(beats, waveforms)
if waveforms is None:
    note("beats_qc", "No beats QC figure: this workspace holds no raw waveforms (`waveforms.csv`), "
                     "so no beats were detected in one.")
elif not rows:
    note("beats_qc", "No beats QC figure: no beat was detected in this workspace's raw waveforms "
                     "(`beats.csv`, which `resonance beats` writes, is missing or lists none).")
else:
    held = set(zip(waveforms["subject"], waveforms["channel"]))
    units = waveforms.drop_duplicates(["subject", "channel"]).set_index(["subject", "channel"])["unit"]
    worn = {s for s, _ in rows if all((s, c) in held for c in ("acc_x", "acc_y", "acc_z"))}
    ratios = [r for s, _ in rows for r in ([3, 1] if s in worn else [3])]
    fig = plt.figure(figsize=(14, 0.75 * sum(ratios) + 1.6), layout="constrained")
    grid_ = fig.add_gridspec(len(ratios), 2, height_ratios=ratios)
    k = 0
    for subject, channel in rows:
        wave = read_waveform(subject, channel)
        t0 = wave["time_unix_s"].iloc[0]
        b = beats[(beats["subject"] == subject) & (beats["channel"] == channel)].sort_values("t")
        motion = None
        if subject in worn:
            acc = [read_waveform(subject, c) for c in ("acc_x", "acc_y", "acc_z")]
            scale = 1 / 64 if units[(subject, "acc_x")] == "1/64 g" else 1
            motion = pd.DataFrame({"time_unix_s": acc[0]["time_unix_s"],
                                   "value": scale * np.sqrt(sum(a["value"] ** 2 for a in acc))})
        motion_axes = []
        for column, (centre, what) in enumerate(zip(strip_centres(b["t"].to_numpy(), b["quality"].to_numpy()),
                                                    ["typical (median-quality beat)", "worst (lowest mean quality)"])):
            span = strip_span(wave, centre)
            ax = fig.add_subplot(grid_[k, column])
            draw_strip(ax, wave, b, span, t0, f"{subject} {channel}, {what}")
            ax.set_ylabel(f"{channel} ({units[(subject, channel)]})", fontsize=8)
            if motion is not None:
                ax.tick_params(labelbottom=False)
                ax = fig.add_subplot(grid_[k + 1, column], sharex=ax, sharey=motion_axes[0] if motion_axes else None)
                motion_axes.append(ax)
                m = motion[(motion["time_unix_s"] >= span[0]) & (motion["time_unix_s"] <= span[1])]
                ax.plot(m["time_unix_s"] - t0, m["value"], lw=0.6, color="#7b3294")
                ax.set_ylabel("|acc| (g)", fontsize=7)
                ax.tick_params(labelsize=6)
            ax.set_xlabel("time since the recording's start (s)", fontsize=7)
        k += 2 if motion is not None else 1
    handles = [Line2D([], [], color="#4d4d4d", lw=0.7, label="raw signal"),
               Line2D([], [], ls="", marker="o", ms=6, color="#1f4e79", label="beat, reliable interval (filled)"),
               Line2D([], [], ls="", marker="o", ms=6, mfc="white", mec="#1f4e79", mew=1.4,
                      label="beat, unreliable interval (hollow)")]
    if worn:
        handles.append(Line2D([], [], color="#7b3294", lw=0.6, label="accelerometer magnitude (g)"))
    fig.legend(handles=handles, loc="outside lower center", ncol=len(handles), fontsize=8, frameon=False)
    fig.colorbar(matplotlib.cm.ScalarMappable(norm=QUALITY_NORM, cmap=QUALITY_CMAP), ax=fig.axes, extend="min",
                 shrink=min(1, 6 / len(ratios)), label="beat quality (template correlation r)")
    shown = f"{len(rows)} of {pairs_with_beats} subject × channel pairs" if len(rows) < pairs_with_beats else \
        f"{len(rows)} subject × channel pair{'s' if len(rows) > 1 else ''}"
    fig.suptitle(f"Detected beats on the raw waveforms, {STRIP_S}-s strips: typical and worst stretch ({shown})")
    save(fig, "beats_qc", f"Detected beats on the raw waveforms, typical and worst {STRIP_S}-s stretch per subject and "
                          "channel, coloured by quality")

# %% [markdown]
# ## HRV per subject
#
# Tachogram: the cleaned NN series against time since the subject's first beat, beats the
# artifact correction replaced marked in red, windows the toolkit marked unreliable
# (`reliable = false` in `hrv.csv`) shaded — as overlapping windows would cover each
# other, each window is shaded over the step-wide slice at its centre. PSD: the whole recording's Welch spectrum with
# the VLF, LF and HF bands the toolkit integrates. Poincaré: each NN interval against the
# next within a run of beats, with the ellipse whose semi-axes are the recording's SD1
# (across the identity line) and SD2 (along it), centred on its MeanNN.

# %%
BAND_COLOURS = {"vlf": "#c6dbef", "lf": "#fdd0a2", "hf": "#c7e9c0"}


BY_SUBJECT = {}


def rows_of(table, name, subject):
    """The rows of one subject, grouped once per table (tables can hold millions of beats)."""
    if name not in BY_SUBJECT:
        BY_SUBJECT[name] = {k: g for k, g in table.groupby("subject", sort=False)}
    return BY_SUBJECT[name].get(subject, table.iloc[:0])


def subject_nn(subject):
    s = rows_of(nn, "nn", subject)
    t0 = s["time_ms"].iloc[0]
    return s, (s["time_ms"] - t0) / 3.6e6, t0


def draw_tachogram(ax, subject, detail=True):
    s, hours, t0 = subject_nn(subject)
    ax.plot(*broken(hours, s["nn_ms"], s["run_start"].astype(bool)), lw=0.4 if detail else 0.3, color="#1f4e79",
            rasterized=True, label="NN interval")
    w = rows_of(windows, "windows", subject)
    # Windows overlap (window > step): each is drawn as the step-wide slice at its centre,
    # so the slices tile the time axis and every one shows its own window's reliability.
    start_h = (w["window_start"].astype("int64") // 10**6 - t0).to_numpy() / 3.6e6
    end_h = (w["window_end"].astype("int64") // 10**6 - t0).to_numpy() / 3.6e6
    step_h = np.median(np.diff(start_h)) if len(start_h) > 1 else (end_h - start_h).max(initial=0)
    step_h = min(step_h, (end_h - start_h).min(initial=step_h))
    centre = (start_h + end_h) / 2
    shaded = spans(centre - step_h / 2, centre + step_h / 2, ~w["reliable"].astype(bool).to_numpy())
    for i, (a, b) in enumerate(shaded):
        ax.axvspan(a, b, color="#f4a6a6", alpha=0.45, lw=0,
                   label="unreliable window (step-wide slice at its centre)" if i == 0 else None)
    corrected = s["artifact"].notna()
    if detail:
        ax.plot(hours[corrected], s["nn_ms"][corrected], "x", ms=3 if corrected.sum() < 500 else 2, color="#c0392b",
                label=f"corrected beat ({int(corrected.sum())})")
    ax.set_xlabel("time since first beat (h)")
    ax.set_ylabel("NN (ms)")
    return int(corrected.sum()), len(shaded)


def draw_psd(ax, subject, detail=True):
    p = rows_of(psd, "psd", subject)
    p = p[p["frequency_hz"] > 0]
    for band, colour in BAND_COLOURS.items():
        b = p[p["band"] == band]
        if not b.empty:
            ax.fill_between(b["frequency_hz"], b["power_ms2_hz"], color=colour, lw=0, label=band.upper())
    ax.plot(p["frequency_hz"], p["power_ms2_hz"], color="black", lw=0.6)
    ax.set_yscale("log")
    ax.set_xlim(0, 0.5)
    ax.set_xlabel("frequency (Hz)")
    ax.set_ylabel("PSD (ms²/Hz)")
    if detail and subject in whole.index:
        row = whole.loc[subject]
        ax.text(0.98, 0.97, f"LF {row['LF']:.0f} ms², HF {row['HF']:.0f} ms²\nLF/HF {row['LF_HF']:.2f}",
                transform=ax.transAxes, ha="right", va="top", fontsize=8,
                bbox=dict(facecolor="white", alpha=0.8, lw=0))


def draw_poincare(ax, subject, detail=True):
    from matplotlib.patches import Ellipse
    s = rows_of(nn, "nn", subject)
    x, y = s["nn_ms"].to_numpy()[:-1], s["nn_ms"].to_numpy()[1:]
    same_run = ~s["run_start"].to_numpy()[1:].astype(bool)
    ax.plot(x[same_run], y[same_run], ".", ms=1.5 if detail else 0.8, alpha=0.3 if len(x) < 20000 else 0.1,
            color="#6b8fb5", rasterized=True)
    lo, hi = np.nanpercentile(s["nn_ms"], [0.5, 99.5])
    pad = 0.1 * (hi - lo) + 1
    ax.plot([lo - pad, hi + pad], [lo - pad, hi + pad], color="grey", lw=0.6, ls="--", label="identity")
    if subject in whole.index:
        row = whole.loc[subject]
        ax.add_patch(Ellipse((row["MeanNN"], row["MeanNN"]), width=2 * row["SD2"], height=2 * row["SD1"], angle=45,
                             fill=False, color="#c0392b", lw=1.6, zorder=5,
                             label=f"SD1 {row['SD1']:.1f} ms, SD2 {row['SD2']:.1f} ms"))
    ax.set_xlim(lo - pad, hi + pad)
    ax.set_ylim(lo - pad, hi + pad)
    ax.set_aspect("equal")
    ax.set_xlabel("NNₙ (ms)")
    ax.set_ylabel("NNₙ₊₁ (ms)")


HAVE_BEATS = nn is not None and psd is not None and windows is not None
if HAVE_BEATS and SUBJECT in set(nn["subject"]):
    fig = plt.figure(figsize=(12, 8), layout="constrained")
    top, bottom = fig.subfigures(2, 1, height_ratios=[1, 1.2])
    ax = top.subplots()
    corrected, unreliable = draw_tachogram(ax, SUBJECT)
    ax.set_title(f"{SUBJECT}: tachogram ({corrected} corrected beats, {unreliable} unreliable stretch(es) shaded)")
    ax.legend(loc="upper right", fontsize=8)
    a1, a2 = bottom.subplots(1, 2)
    draw_psd(a1, SUBJECT)
    a1.set_title(f"{SUBJECT}: Welch PSD of the whole recording")
    a1.legend(loc="lower left", fontsize=8)
    draw_poincare(a2, SUBJECT)
    a2.set_title(f"{SUBJECT}: Poincaré plot")
    a2.legend(loc="upper left", fontsize=8)
    fig.suptitle(f"HRV of {SUBJECT}")
    save(fig, "hrv_subject", f"HRV of {SUBJECT}: tachogram, Welch PSD, Poincaré plot")
else:
    print("no hrv_nn.csv / hrv_psd.csv: per-subject HRV figures skipped")

# %% [markdown]
# ### Small multiples: every subject

# %%
if HAVE_BEATS:
    subjects = sorted(set(nn["subject"]) & set(psd["subject"]))
    for name, draw, title in [("hrv_tachograms", draw_tachogram, "Tachograms (unreliable windows shaded)"),
                              ("hrv_psd", draw_psd, "Welch PSD of each whole recording (VLF, LF, HF shaded)"),
                              ("hrv_poincare", draw_poincare, "Poincaré plots with the SD1/SD2 ellipse")]:
        columns = 6 if len(subjects) > 24 else 4
        fig, axes = grid(len(subjects), columns=columns, width=14 if columns == 6 else 12, row_height=2.0)
        for ax, subject in zip(axes, subjects):
            draw(ax, subject, detail=False)
            ax.set_title(subject, fontsize=8)
            ax.tick_params(labelsize=6)
            ax.xaxis.label.set_size(7)
            ax.yaxis.label.set_size(7)
        fig.suptitle(f"{title}: {len(subjects)} subjects")
        save(fig, name, f"{title}, all subjects")

# %% [markdown]
# ## Daily resting heart rate and HRV
#
# Each subject's resting heart rate and HRV (SDNN) per local day, as `resonance daily`
# writes them in `daily.csv`, on a date axis over that subject's own days: a subject
# recorded for a week in 2017 and one recorded for a month in 2021 each get an axis of
# their own. The line breaks where days are missing. A trend needs two days: subjects
# with a single day of values (a recording shorter than a day) are left out and counted,
# and when no subject has two, a sentence says so in the figure's place. At most twelve
# subjects, those with the most days; a measure no subject has is not drawn.

# %%
import matplotlib.dates as mdates

MAX_TREND_SUBJECTS = 12
TRENDS = [("resting_hr", "resting HR (bpm)", "#c0392b"), ("hrv_sdnn", "HRV SDNN (ms)", "#1f4e79")]


def date_axis(ax, days):
    """A date axis over `days` (datetimes), padded by half a day or 3 % of the span: a
    tick per day over short spans, else concise automatic ticks."""
    lo, hi = days.min(), days.max()
    pad = max(pd.Timedelta(hours=12), (hi - lo) * 0.03)
    ax.set_xlim(lo - pad, hi + pad)
    span = (hi - lo).days
    locator = mdates.DayLocator(interval=max(1, span // 7 + 1)) if span <= 14 else \
        mdates.AutoDateLocator(minticks=3, maxticks=7)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))


def draw_days(ax, d, column, colour):
    """One subject's daily `column` against the date, broken over missing days."""
    v = d.dropna(subset=[column])
    gap = np.concatenate([[False], np.diff(v["day"].to_numpy()) > np.timedelta64(1, "D")])
    ax.plot(*broken(mdates.date2num(v["day"]), v[column], gap), "-o", ms=3, lw=1.1, color=colour)


daily = read_table("daily.csv")
trends = [t for t in TRENDS if daily is not None and t[0] in daily.columns and daily[t[0]].notna().any()]
with_values = daily.dropna(subset=[c for c, _, _ in trends], how="all") if trends else None
if with_values is None or with_values.empty:
    note("daily_trends", "No daily trend figure: `daily.csv` holds no day with a resting heart rate or an HRV "
                         "(SDNN) value; `resonance daily` writes them from a day's heart rate, R-R intervals or "
                         "the export's own daily values.")
else:
    with_values = with_values.assign(day=pd.to_datetime(with_values["date"], format="%Y-%m-%d")).sort_values("day")
    days_per_subject = with_values.groupby("subject")["day"].nunique().sort_values(ascending=False, kind="stable")
    several = days_per_subject[days_per_subject >= 2]
    if several.empty:
        note("daily_trends", f"No daily trend figure: each of the {len(days_per_subject)} subjects with a resting "
                             "heart rate or HRV day in `daily.csv` has one such day only (recordings shorter than a "
                             "day), and a trend needs two.")
    else:
        shown = sorted(several.index[:MAX_TREND_SUBJECTS])
        fig, axes = plt.subplots(len(shown), len(trends), figsize=(5.5 * len(trends) + 1, 0.6 + 2.1 * len(shown)),
                                 squeeze=False, layout="constrained")
        for row, subject in zip(axes, shown):
            d = with_values[with_values["subject"] == subject]
            for ax, (column, label, colour) in zip(row, trends):
                days = int(d[column].notna().sum())
                if days:
                    draw_days(ax, d, column, colour)
                else:
                    ax.text(0.5, 0.5, f"no {label.split(' (')[0]} day", transform=ax.transAxes, ha="center",
                            va="center", fontsize=8, color="grey")
                date_axis(ax, d["day"])
                ax.set_ylabel(label, fontsize=8)
                ax.tick_params(labelsize=7)
                ax.set_title(f"{subject}: {days} day{'s' if days != 1 else ''}, "
                             f"{d['day'].min():%Y-%m-%d} – {d['day'].max():%Y-%m-%d}", fontsize=8)
        left_out = [f"{len(several) - len(shown)} more with fewer days"] if len(several) > len(shown) else []
        left_out += [f"{len(days_per_subject) - len(several)} with a single day"] if len(days_per_subject) > len(several) else []
        fig.suptitle(f"Resting heart rate and HRV (SDNN) per local day: {len(shown)} subject{'s' if len(shown) != 1 else ''}"
                     + (f" ({'; '.join(left_out)} left out)" if left_out else ""))
        save(fig, "daily_trends", "Resting heart rate and HRV (SDNN) per subject and local day")

# %% [markdown]
# ## NSR vs CHF
#
# The whole-recording (≈ 24 h) SDNN and SDANN of each subject, one dot per subject over a
# box plot per group; beside each group, our mean with its bootstrap 95 % CI (from
# `validation.json`) and the published 95 % CI of the group mean (RHRV book, ch. 8).
# Then the ROC curve of each index for telling CHF from NSR, as `validation.json` lists it.

# %%
comparison = V.get("HRV", {}).get("nsr_vs_chf")
if comparison:
    subjects = pd.DataFrame(V["HRV"]["subjects"])
    fig, axes = plt.subplots(1, 2, figsize=(11, 5), layout="constrained")
    rng = np.random.default_rng(0)
    for ax, index in zip(axes, ["SDNN", "SDANN"]):
        c = comparison[index]
        for k, (group, label, colour) in enumerate([("nsr2db", "NSR", "#2c7fb8"), ("chf2db", "CHF", "#d95f0e")]):
            values = subjects.loc[subjects["group"] == group, f"whole_{index}"].dropna()
            ax.boxplot([values], positions=[k], widths=0.45, showfliers=False, medianprops=dict(color="black"))
            ax.plot(k + rng.uniform(-0.15, 0.15, len(values)), values, "o", ms=3.5, alpha=0.6, color=colour)
            key = label.lower()
            mean, (lo, hi) = c[f"{key}_mean"], c[f"{key}_ci"]
            ax.errorbar(k + 0.38, mean, yerr=[[mean - lo], [hi - mean]], fmt="o", color="black", capsize=4,
                        label="our mean, 95 % CI" if k == 0 else None)
            published = c.get(f"published_{key}_ci")
            if published:
                plo, phi = (float(v) for v in published.replace("–", "-").split("-"))
                ax.fill_between([k + 0.5, k + 0.62], plo, phi, color="#7b3294", alpha=0.5, lw=0,
                                label="published 95 % CI (RHRV book)" if k == 0 else None)
        ax.set_xticks([0, 1], [f"NSR (n={c['nsr_n']})", f"CHF (n={c['chf_n']})"])
        ax.set_xlim(-0.6, 1.8)
        ax.set_ylabel(f"{index} (ms)")
        ax.set_title(f"{index}: AUC {c['auc']:.3f} ({c['direction']}), p = {c['p_bonferroni']:.2g} (Bonferroni)")
        ax.legend(loc="upper right", fontsize=8)
    fig.suptitle("NSR vs CHF, whole recordings: ours beside the published 95 % CIs")
    save(fig, "nsr_vs_chf", "NSR vs CHF: SDNN and SDANN per group with published 95 % CIs")

    with_roc = [(index, c) for index, c in comparison.items() if c.get("roc")]
    if with_roc:
        roc_figure([(f"{index}: AUC {c['auc']:.3f}", c["roc"]) for index, c in sorted(with_roc, key=lambda ic: -ic[1]["auc"])],
                   "nsr_vs_chf_roc", "ROC of each index for telling CHF from NSR", "NSR called CHF", "CHF called CHF",
                   "ROC curve of each HRV index, CHF vs NSR")
else:
    print("no NSR/CHF groups in this workspace")

# %% [markdown]
# ## Stress protocol
#
# Heart rate of each labelled subject across the protocol, stress intervals of
# `labels.csv` shaded. When `validation.json` carries the stress engine's scoring: the
# ROC curves of its pooled windows — the engine and the naive heart-rate scores, and
# beside them every score of the held-out protocol's primary analysis, named by its own
# label — then the AUCs with the 95 % intervals `validation.json` gives (bootstraps over
# subjects: none with a single subject, which the figure says), and the engine score's
# distribution by label.

# %%
hr = read_table("hr.csv", times=("timestamp",))
labels = read_table("labels.csv", times=("start", "end"))
if hr is not None and labels is not None:
    tasks = labels[(labels["end"] > labels["start"]) & (labels["label"] != "baseline")]
    labelled = sorted(set(tasks["subject"]) & set(hr["subject"]))
    if labelled:
        fig, axes = grid(len(labelled), columns=3 if len(labelled) > 1 else 1, width=13 if len(labelled) > 1 else 9,
                         row_height=2.3 if len(labelled) > 1 else 4)
        for ax, subject in zip(axes, labelled):
            h = hr[hr["subject"] == subject]
            t0 = h["timestamp"].min()
            minutes = lambda ts: (ts - t0).dt.total_seconds() / 60
            t = minutes(h["timestamp"]).to_numpy()
            step = np.diff(t)
            gap = np.concatenate([[False], step > 5 * np.median(step)]) if len(t) > 1 else np.zeros(len(t), bool)
            ax.plot(*broken(t, h["bpm"], gap), lw=0.6, color="#1f4e79")
            s = tasks[tasks["subject"] == subject]
            for i, (a, b, name) in enumerate(zip(minutes(s["start"]), minutes(s["end"]), s["label"])):
                ax.axvspan(a, b, color="#f4a6a6", alpha=0.45, lw=0, label=name if i == 0 else None)
            ax.set_title(subject, fontsize=8)
            ax.set_xlabel("time since first sample (min)", fontsize=7)
            ax.set_ylabel("HR (bpm)", fontsize=7)
            ax.tick_params(labelsize=6)
        axes[0].legend(loc="upper right", fontsize=7)
        fig.suptitle(f"Heart rate across the protocol, labelled intervals shaded ({len(labelled)} "
                     f"subject{'s' if len(labelled) > 1 else ''}; lines break at gaps longer than 5 samples)")
        save(fig, "stress_protocol_hr", "Heart rate per subject across the protocol, stress intervals shaded")

# %%
SCORE_NAMES = {"engine": "stress engine", "naive_hr": "naive: window HR",
               "naive_hr_centred": "naive: window HR centred on the subject's mean"}


def score_name(key, node):
    """A score's readable name: its own `label` in validation.json, else the known names."""
    return node.get("label") or SCORE_NAMES.get(key, key.replace("_", " "))


def roc_panel(ax, legend_ax, entries, title):
    """ROC curves of `entries` — (name, node with `roc` and `pooled`) — best AUC first,
    their legend in `legend_ax` under the panel: ten colours, then the same dashed."""
    colours = plt.get_cmap("tab10")
    for k, (name, node) in enumerate(sorted(entries, key=lambda e: -e[1].get("pooled", 0))):
        points = np.asarray(node["roc"], dtype=float)
        ax.plot(points[:, 0], points[:, 1], lw=1.5 if k < 3 else 1.0, color=colours(k % 10), ls="-" if k < 10 else "--",
                label=f"{name}: AUC {node['pooled']:.3f}")
    ax.plot([0, 1], [0, 1], color="grey", ls=":", lw=0.8, label="chance")
    # A little room past 0 and 1, so that a perfect curve shows beside the spines.
    ax.set_xlim(-0.015, 1.015)
    ax.set_ylim(-0.015, 1.015)
    ax.set_aspect("equal")
    ax.set_xlabel("false-positive rate (baseline window called stress)")
    ax.set_ylabel("true-positive rate (stress window called stress)")
    ax.set_title(title, fontsize=9)
    legend_ax.axis("off")
    legend_ax.legend(*ax.get_legend_handles_labels(), loc="upper center", fontsize=7, frameon=False)


stress = V.get("stress") or V.get("Stress scoring")
if stress:
    headline = [(score_name(k, a), a) for k, a in sorted((stress.get("auc") or {}).items())
                if isinstance(a, dict) and a.get("roc") and "pooled" in a]
    protocol = ((stress.get("protocol") or {}).get("primary") or {}).get("scores") or {}
    compared = [(score_name(k, a), a) for k, a in sorted(protocol.items())
                if isinstance(a, dict) and a.get("roc") and "pooled" in a]
    panels = [p for p in [(headline, "the engine and the naive heart-rate rules, pooled windows"),
                          (compared, "every score of the held-out protocol (primary analysis)")] if p[0]]
    if panels:
        entries_ = max(len(entries) for entries, _ in panels) + 1
        legend_in = 0.16 * entries_ + 0.2
        fig = plt.figure(figsize=(6.2 * len(panels), 6.2 + legend_in), layout="constrained")
        grid_ = fig.add_gridspec(2, len(panels), height_ratios=[6.2, legend_in])
        for k, (entries, title) in enumerate(panels):
            roc_panel(fig.add_subplot(grid_[0, k]), fig.add_subplot(grid_[1, k]), entries, title)
        fig.suptitle("Stress scoring: ROC on the labelled windows")
        save(fig, "stress_roc", "ROC of the stress engine and the compared scores on labelled windows")

    aucs = [(score_name(k, a), a) for k, a in sorted((stress.get("auc") or {}).items())
            if isinstance(a, dict) and "pooled" in a]
    if aucs:
        fig, ax = plt.subplots(figsize=(9, 1.9 + 0.75 * len(aucs)), layout="constrained")
        without = []
        for k, (name, a) in enumerate(aucs):
            for offset, kind, colour, what in [(-0.14, "pooled", "#1f4e79", "pooled windows"),
                                               (0.14, "subject", "#d95f0e", "median over subjects")]:
                value = a.get("pooled" if kind == "pooled" else "subject_median")
                if value is None:
                    continue
                lo, hi = a.get(f"{kind}_ci_low"), a.get(f"{kind}_ci_high")
                has_ci = lo is not None and hi is not None
                if not has_ci:
                    without.append(f"{name} ({what})")
                ax.errorbar(value, k + offset, xerr=[[value - lo], [hi - value]] if has_ci else None, fmt="o",
                            color=colour, mfc=colour if has_ci else "white", capsize=3, clip_on=False,
                            label=what if k == 0 else None)
                ax.annotate(f"{value:.2f}", (value, k + offset), xytext=(0, 5), textcoords="offset points",
                            ha="center", fontsize=7, color=colour)
        ax.axvline(0.5, color="grey", ls="--", lw=0.8)
        ax.set_yticks(range(len(aucs)), [name for name, _ in aucs])
        ax.set_ylim(-0.6, len(aucs) - 0.4)
        ax.set_xlim(0, 1.03)
        ax.set_xticks(np.linspace(0, 1, 6))
        ax.set_xlabel("AUC, stress vs baseline windows (bars: 95 % CI; hollow: no interval)")
        subjects_ = max((a.get("subjects") or 0 for _, a in aucs), default=0)
        why = ("\nno 95 % intervals: validation.json's resample subjects, and there is one" if without and subjects_ < 2
               else "")
        ax.set_title(f"Stress scoring: AUC of the engine and of the naive heart-rate rules ({subjects_} "
                     f"subject{'s' if subjects_ != 1 else ''}){why}")
        fig.legend(loc="outside lower center", ncol=2, fontsize=8, frameon=False)
        if without:
            print("no 95 % interval in validation.json for:", "; ".join(without))
        save(fig, "stress_auc", "Stress scoring AUCs with 95 % CIs where validation.json gives them")

    # The engine score of the pooled windows by label, as validation.json bins it: each
    # label's share of its windows per bin (the labels have different window counts),
    # its median dashed, and the engine's relaxed / elevated thresholds.
    dist = stress.get("score_distribution")
    if dist and any(sum(c) for c in dist["counts"].values()):
        lows, width = np.asarray(dist["bin_low"], dtype=float), dist["bin_width"]
        fig, ax = plt.subplots(figsize=(9, 4.8), layout="constrained")
        top = 0.0
        for label, colour in [("baseline", "#2c7fb8"), ("stress", "#d95f0e")]:
            counts = np.asarray(dist["counts"][label], dtype=float)
            q = dist["quantiles"][label]
            if counts.sum() == 0:
                continue
            share = 100 * counts / counts.sum()
            top = max(top, share.max())
            ax.stairs(share, np.append(lows, lows[-1] + width), color=colour, lw=1.6, fill=False,
                      label=f"{label} windows (n={q['n']}, median {q['p50']:.1f})")
            ax.stairs(share, np.append(lows, lows[-1] + width), color=colour, alpha=0.15, fill=True)
            ax.axvline(q["p50"], color=colour, ls="--", lw=1)
        for x, name in [(dist["relaxed_below"], "relaxed below"), (dist["elevated_from"], "elevated from")]:
            ax.axvline(x, color="black", lw=1.1, ls=":")
            ax.text(x, top * 1.08, f" {name} {x:g}", fontsize=8, va="top")
        ax.set_xlim(0, 100)
        ax.set_ylim(0, top * 1.12)
        ax.set_xlabel(f"stress engine score (0–100, {width:g}-point bins)")
        ax.set_ylabel("share of the label's windows (%)")
        ax.set_title("Stress engine score by label (pooled windows; medians dashed, level thresholds dotted)")
        ax.legend(loc="upper left", bbox_to_anchor=(0, -0.12), ncol=2, fontsize=8, frameon=False)
        save(fig, "stress_scores", "Distribution of the stress engine score on baseline and stress windows")

# %% [markdown]
# ## Coherence
#
# Coherence over time for one subject: the breathing coach's ratio (power around the
# paced breathing rate over 0.04–0.15 Hz) and the HeartMath ratio, with the peak
# frequency of each window against the paced breathing rate and the subject's
# resonance-frequency estimate (the `resonance` row of `coherence.csv`).

# %%
if coherence is not None:
    timed = coherence[coherence["window_start"].notna()]
    resonance = coherence[coherence["method"] == "resonance"].set_index("subject")
    counts = timed.groupby("subject").size()
    subject = SUBJECT if SUBJECT in counts.index else (counts.idxmax() if not counts.empty else None)
    if subject is not None:
        c = timed[timed["subject"] == subject].copy()
        for column in ("window_start", "window_end"):
            c[column] = pd.to_datetime(c[column], utc=True, format="ISO8601")
        t0 = c["window_start"].min()
        span_h = (c["window_start"].max() - t0).total_seconds() / 3600
        unit, per = ("d", 86400) if span_h > 48 else (("h", 3600) if span_h > 2 else ("min", 60))
        since = lambda ts: (ts - t0).dt.total_seconds() / per
        window_s = int((c["window_end"] - c["window_start"]).dt.total_seconds().median())
        fig, axes = plt.subplots(3, 1, figsize=(12, 8), sharex=True, layout="constrained")
        for ax, (method, colour, what) in zip(axes, [
                ("coach", "#1f4e79", "breathing coach: power around the paced rate / 0.04–0.15 Hz"),
                ("heartmath", "#d95f0e", "HeartMath: peak power / (total − peak)")]):
            m = c[c["method"] == method]
            ax.plot(since(m["window_start"]), m["coherence"], ".", ms=2, color=colour, rasterized=True)
            ax.set_ylabel(f"{method} coherence (ratio)")
            ax.set_title(f"{what}, per {window_s} s window", fontsize=9)
        a2 = axes[2]
        m = c[c["method"] == "coach"]
        a2.plot(since(m["window_start"]), m["peak_hz"] * 60, ".", ms=2, color="#1f4e79",
                label="peak frequency of the window", rasterized=True)
        a2.plot(since(m["window_start"]), m["breathing_hz"] * 60, ".", ms=1, color="#2ca25f",
                label="paced breathing rate")
        if subject in resonance.index:
            f = resonance.loc[subject, "peak_hz"]
            a2.axhline(f * 60, color="#c0392b", ls="--", lw=1.2,
                       label=f"resonance-frequency estimate {f:.3f} Hz ({f * 60:.1f} /min)")
        a2.set_ylabel("breaths or cycles per minute (1/min)")
        a2.set_xlabel(f"time since first window ({unit})")
        a2.legend(loc="upper right", fontsize=8, markerscale=4)
        fig.suptitle(f"Coherence of {subject} over time ({len(m)} windows)")
        save(fig, "coherence", f"Coherence of {subject} over time with the breathing rate and resonance frequency")

# %% [markdown]
# ## Song effects
#
# A forest plot of the songs the mixed model estimated away from its prior, named by
# title and artist: each song's effect on heart rate and RMSSD over all contexts, with its
# 95 % interval. A song whose plays carried too little heart rate is shrunk to the prior
# mean (`shrinkage` near 1 in `song_effects.csv`): its estimate and interval are the
# prior's, the same for every such song, so it says nothing of the song and is left
# out, as the figure's title counts. At most the 10 lowest and the 10 highest estimates.
# Then the heart rate around the starts of the two songs with the lowest and the highest
# estimated effect on heart rate, every play of each as the change from the median of
# the 5 minutes before its start; and each subject's listening sessions, each from its
# start to its end at its UTC hour of the day, coloured by the context the sessions
# stage gave it (from the listener's local hours: sessions at night in UTC labelled by
# another zone's hours show a missing `--tz`). For synthetic personas with `truth.csv`: each model's
# estimate against the planted effect, with the identity line, and each listener's
# estimated sensitivity against the planted one.

# %%
SHRUNK = 0.99  # shrinkage from which a song's estimate is the prior's
METRIC_TITLES = {"delta_hr_bpm": "Δ heart rate (bpm)", "delta_rmssd_ms": "Δ RMSSD (ms)"}
effects = read_table("song_effects.csv")
plays = read_table("plays.csv")


def song_names(effects, plays):
    """{song_id: 'title – artist'}: song_effects.csv's own columns, else the first play's."""
    source = effects if effects is not None and {"title", "artist"} <= set(effects.columns) else plays
    if source is None:
        return {}
    named = source.drop_duplicates("song_id")[["song_id", "title", "artist"]].fillna("")
    return {song: f"{title} – {artist}" if artist else title or song for song, title, artist in named.itertuples(index=False)}


def shorten(text, n=34):
    return text if len(text) <= n else text[:n - 1] + "…"


NAMES = song_names(effects, plays)
NO_PLAYS = "this workspace holds no plays (`plays.csv`: import a listening history)."
mixed = None if effects is None else effects[(effects["context"] == "any") & (effects["model"] == "mixed")
                                             & effects["ci_low"].notna() & effects["ci_high"].notna()]
if plays is None:
    note("song_effects_forest", f"No song-effect forest: {NO_PLAYS}")
elif mixed is None or mixed.empty:
    note("song_effects_forest", "No song-effect forest: `song_effects.csv` holds no mixed-model estimate with an "
                                "interval (run `resonance effects` on a workspace with plays and heart rate).")
else:
    metrics = [m for m in METRIC_TITLES if m in set(mixed["metric"])]
    estimated = mixed[mixed["metric"].isin(metrics) & (mixed["shrinkage"] < SHRUNK)]
    if estimated.empty:
        songs_ = mixed[mixed["metric"].isin(metrics)]["song_id"].nunique()
        note("song_effects_forest", f"No song-effect forest: the mixed model shrank all {songs_} songs' effects on "
                                    f"heart rate and RMSSD to the prior (shrinkage ≥ {SHRUNK}): their plays do not tell "
                                    "them apart (too few plays with heart rate per song for the differences between "
                                    "songs), so each estimate and interval is the prior's.")
    else:
        metrics = [m for m in metrics if m in set(estimated["metric"])]
        fig, axes = plt.subplots(1, len(metrics), figsize=(6.5 * len(metrics), 7.5), layout="constrained", squeeze=False)
        for ax, metric in zip(axes[0], metrics):
            every = mixed[mixed["metric"] == metric]
            m = estimated[estimated["metric"] == metric].sort_values(["estimate", "song_id"])
            shown = pd.concat([m.head(10), m.tail(10)]).drop_duplicates("song_id") if len(m) > 20 else m
            y = np.arange(len(shown))
            ax.errorbar(shown["estimate"], y, xerr=[shown["estimate"] - shown["ci_low"], shown["ci_high"] - shown["estimate"]],
                        fmt="o", ms=4, color="#1f4e79", ecolor="#7fa7d1", capsize=2)
            ax.axvline(0, color="grey", lw=0.8)
            if len(m) > 20:
                ax.axhline(9.5, color="grey", ls=":", lw=0.8)
            ax.set_yticks(y, [f"{shorten(NAMES.get(s, s))}  (n={int(n)})" for s, n in zip(shown["song_id"], shown["plays"])],
                          fontsize=7)
            ax.set_xlabel(f"{METRIC_TITLES[metric]}, estimate with 95 % CI")
            left_out = len(every) - len(m)
            ax.set_title(f"{METRIC_TITLES[metric]}: {'lowest and highest 10 of ' if len(m) > 20 else ''}{len(m)} songs "
                         "estimated\n" + (f"({left_out} of {len(every)} shrunk to the prior left out)" if left_out else
                                          "(none shrunk to the prior)"), fontsize=9)
        fig.suptitle("Song effects of the mixed model, over all contexts")
        save(fig, "song_effects_forest", "Forest plot of the song effects estimated away from the prior, 95 % CIs")

# %%
BEFORE_MIN, AFTER_MIN = 5, 10
session_plays = read_table("session_plays.csv", times=("started_at",))
hr_by_subject = {} if hr is None else {
    s: (g["timestamp"].astype("int64").to_numpy() / 1e9, g["bpm"].to_numpy())
    for s, g in hr.dropna(subset=["timestamp"]).sort_values("timestamp").groupby("subject", sort=False)}


def hr_around(play):
    """(minutes since the play's start, HR − the median HR of the minutes before it) of
    one play, or None without heart rate on both sides of the start."""
    if play.subject not in hr_by_subject:
        return None
    t, bpm = hr_by_subject[play.subject]
    start = play.started_at.value / 1e9
    lo, hi = np.searchsorted(t, [start - 60 * BEFORE_MIN, start + 60 * AFTER_MIN], side="left")
    minutes, values = (t[lo:hi] - start) / 60, bpm[lo:hi]
    if not (minutes < 0).any() or not (minutes >= 0).any():
        return None
    return minutes, values - np.median(values[minutes < 0])


hr_metric = None if mixed is None else mixed[mixed["metric"] == "delta_hr_bpm"]
ranked = None if hr_metric is None else hr_metric[hr_metric["shrinkage"] < SHRUNK].sort_values(["estimate", "song_id"])
if plays is None:
    note("song_hr_around_start", f"No heart rate around song starts: {NO_PLAYS}")
elif not hr_by_subject:
    note("song_hr_around_start", "No heart rate around song starts: this workspace holds no heart rate (`hr.csv`).")
elif ranked is None or ranked.empty or session_plays is None:
    note("song_hr_around_start", "No heart rate around song starts: no song's effect on heart rate was estimated "
                                 "away from the prior (see the song-effect forest's note).")
else:
    chosen = [("lowest", ranked.iloc[0])] + ([("highest", ranked.iloc[-1])] if len(ranked) > 1 else [])
    fig, axes = plt.subplots(1, len(chosen), figsize=(6 * len(chosen), 4.6), sharey=True, layout="constrained",
                             squeeze=False)
    grid_min = np.arange(-BEFORE_MIN, AFTER_MIN + 0.25, 0.5)
    for ax, (which, song) in zip(axes[0], chosen):
        its_plays = session_plays[session_plays["song_id"] == song["song_id"]]
        traces = [tr for tr in (hr_around(p) for p in its_plays.itertuples(index=False)) if tr is not None]
        on_grid = []
        for t, delta in traces:
            ax.plot(t, delta, lw=0.5, alpha=0.35, color="#7f7f7f")
            on_grid.append(np.interp(grid_min, t, delta, left=np.nan, right=np.nan))
        if on_grid:
            ax.plot(grid_min, np.nanmedian(np.vstack(on_grid), axis=0), lw=2, color="#c0392b",
                    label=f"median of {len(traces)} plays")
            ax.legend(loc="upper left", fontsize=8)
        ax.axvline(0, color="black", lw=0.8)
        ax.axhline(0, color="grey", lw=0.6, ls="--")
        ax.set_xlim(-BEFORE_MIN, AFTER_MIN)
        ax.set_xlabel("minutes since the song's start")
        ax.set_title(f"{which} estimated ΔHR: {shorten(NAMES.get(song['song_id'], song['song_id']), 46)}\n"
                     f"estimate {song['estimate']:+.2f} bpm [{song['ci_low']:+.2f}, {song['ci_high']:+.2f}] from "
                     f"{int(song['plays'])} plays\ndrawn: the {len(traces)} of its {len(its_plays)} plays with heart rate "
                     "around the start", fontsize=8)
    axes[0][0].set_ylabel("HR − median HR of the 5 min before (bpm)")
    fig.suptitle("Heart rate around the starts of the songs with the lowest and highest estimated effect on heart rate")
    save(fig, "song_hr_around_start", "Heart rate around the starts of the songs with the lowest and highest estimated "
                                      "effect on heart rate")

# %%
CONTEXT_COLOURS = {"morning": "#fdae61", "commute": "#abd9e9", "work": "#2c7bb6", "relaxation": "#1a9641",
                   "preSleep": "#5e3c99", "workout": "#d7191c"}
MAX_SESSION_SUBJECTS = 8
listening = read_table("sessions.csv", times=("start", "end"))
if plays is None:
    note("sessions_over_time", f"No sessions figure: {NO_PLAYS}")
elif listening is None:
    note("sessions_over_time", "No sessions figure: `sessions.csv` lists no listening session (run `resonance "
                               "sessions` on a workspace with plays).")
else:
    per_subject = listening.groupby("subject").size().sort_values(ascending=False, kind="stable")
    shown = sorted(per_subject.index[:MAX_SESSION_SUBJECTS])
    fig, axes = plt.subplots(len(shown), 1, figsize=(11, 0.9 + 2.3 * len(shown)), squeeze=False, layout="constrained")
    for ax, subject in zip(axes[:, 0], shown):
        s_ = listening[listening["subject"] == subject]
        start = s_["start"].dt.tz_localize(None)
        day = start.dt.floor("D")
        hour = (start - day).dt.total_seconds() / 3600
        length = ((s_["end"] - s_["start"]).dt.total_seconds() / 3600).fillna(0).clip(lower=0.1)
        for context in [c for c in CONTEXT_COLOURS if c in set(s_["context"])] + \
                       sorted(set(s_["context"]) - set(CONTEXT_COLOURS)):
            k = (s_["context"] == context).to_numpy()
            ax.bar(day[k] + pd.Timedelta(hours=2), np.minimum(length[k], 24 - hour[k]), bottom=hour[k], width=20 / 24,
                   align="edge", color=CONTEXT_COLOURS.get(context, "#999999"), label=context)
        date_axis(ax, pd.concat([day, day + pd.Timedelta(days=1)]))
        ax.set_ylim(24, 0)
        ax.set_yticks([0, 6, 12, 18, 24])
        ax.set_ylabel("hour of the day (UTC)", fontsize=8)
        ax.set_title(f"{subject}: {len(s_)} session{'s' if len(s_) != 1 else ''} over {day.nunique()} "
                     f"day{'s' if day.nunique() != 1 else ''}", fontsize=8)
        ax.tick_params(labelsize=7)
    handles = {}
    for ax in axes[:, 0]:
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
    fig.legend(handles.values(), handles.keys(), loc="outside lower center", ncol=len(handles), fontsize=8,
               frameon=False, title="session context, from the listener's local hours (a play's offset, else --tz, "
                                    "else UTC)", title_fontsize=8)
    extra = f" ({len(shown)} of {len(per_subject)} subjects, those with the most)" if len(per_subject) > len(shown) else ""
    fig.suptitle(f"Listening sessions over time: each session from its start to its end, by context{extra}")
    save(fig, "sessions_over_time", "Listening sessions per subject over the days and hours, by context")

# %%
truth = read_table("truth.csv")
if truth is not None and effects is not None:
    planted = truth[truth["kind"] == "song_effect"].rename(columns={"entity": "song_id"})[["song_id", "metric", "value"]]
    any_context = effects[effects["context"] == "any"]
    models = sorted(set(any_context["model"]))
    metrics = ["delta_hr_bpm", "delta_rmssd_ms"]
    fig, axes = plt.subplots(len(models), len(metrics), figsize=(10, 4.6 * len(models)), layout="constrained", squeeze=False)
    labels_ = {"delta_hr_bpm": "Δ HR (bpm)", "delta_rmssd_ms": "Δ RMSSD (ms)"}
    for i, model in enumerate(models):
        for j, metric in enumerate(metrics):
            ax = axes[i][j]
            joined = any_context[(any_context["model"] == model) & (any_context["metric"] == metric)].merge(
                planted[planted["metric"] == metric], on="song_id").dropna(subset=["estimate", "value"])
            ax.scatter(joined["value"], joined["estimate"], s=8 + 2 * np.sqrt(joined["plays"]), alpha=0.5, color="#1f4e79",
                       label=f"{len(joined)} songs (size ∝ √plays)")
            if not joined.empty:
                lo = min(joined["value"].min(), joined["estimate"].min())
                hi = max(joined["value"].max(), joined["estimate"].max())
                ax.plot([lo, hi], [lo, hi], color="#c0392b", lw=1, label="identity")
            ax.set_xlabel(f"planted {labels_[metric]}")
            ax.set_ylabel(f"estimated {labels_[metric]}")
            ax.set_title(f"{model} model: {labels_[metric]}")
            ax.legend(loc="upper left", fontsize=8)
    fig.suptitle("Song effects: estimate vs planted truth")
    save(fig, "effects_vs_truth", "Song effects, estimate vs planted truth, both models")

    persona = read_table("persona_effects.csv")
    true_sens = truth[truth["kind"] == "persona_sensitivity"]
    if persona is not None and not true_sens.empty:
        est = persona[persona.get("kind", pd.Series("sensitivity", index=persona.index)) == "sensitivity"]
        fig, axes = plt.subplots(1, len(metrics), figsize=(11, 5), layout="constrained")
        for ax, metric in zip(axes, metrics):
            t = true_sens[true_sens["metric"] == metric] if metric in set(true_sens["metric"]) else true_sens
            t = t.drop_duplicates("subject").set_index("subject")["value"]
            for model, marker, colour in [("ema", "s", "#d95f0e"), ("mixed", "o", "#1f4e79")]:
                e = est[(est["model"] == model) & (est["metric"] == metric)].set_index("subject")
                common_ = sorted(set(e.index) & set(t.index))
                if not common_:
                    continue
                e = e.loc[common_]
                err = None
                if e["ci_low"].notna().all():
                    err = [e["estimate"] - e["ci_low"], e["ci_high"] - e["estimate"]]
                ax.errorbar(t.loc[common_], e["estimate"], yerr=err, fmt=marker, color=colour, ms=5, capsize=2,
                            label=f"{model}" + (" (95 % CI)" if err is not None else ""))
                for subject in common_:
                    if model == "mixed":
                        ax.annotate(subject, (t.loc[subject], e.loc[subject, "estimate"]), fontsize=6,
                                    xytext=(3, 3), textcoords="offset points")
            lo, hi = ax.get_xlim()
            ax.plot([lo, hi], [lo, hi], color="grey", ls="--", lw=0.8, label="identity")
            ax.set_xlabel("planted sensitivity (× population effect)")
            ax.set_ylabel("estimated sensitivity (× population effect)")
            ax.set_title(f"Per-listener sensitivity, {labels_[metric]}")
            ax.legend(loc="upper left", fontsize=8)
        fig.suptitle("Listener sensitivity: estimate vs planted truth")
        save(fig, "listener_sensitivity", "Per-listener sensitivity, estimate vs planted truth")

# %% [markdown]
# ## Breathing
#
# Resonance-frequency assessment (`breathing_assessment.csv`): for each subject with paced
# trials, each criterion against the paced rate — HR peak-to-trough, LF power, LF peak
# density, each as a share of its best trial, and both coherence scores — the rate each
# criterion picks marked. The adaptive pacer's simulation (`breathing_sim_trace.csv`,
# `breathing_sim_sessions.csv`): the paced rate against time for a few simulated sessions
# per strategy with each person's planted resonance rate, and each strategy's locked rate
# against the planted one.

# %%
assessment = read_table("breathing_assessment.csv")
if assessment is not None:
    subjects = sorted(assessment["subject"].unique())
    fig, axes = grid(len(subjects), columns=min(3, len(subjects)), width=12.0, row_height=3.2)
    for ax, subject in zip(axes, subjects):
        a = assessment[assessment["subject"] == subject].sort_values("rate_bpm")
        for column, label, colour in [("peak_to_trough_bpm", "HR peak-to-trough", "#c0392b"),
                                      ("lf_power_ms2", "LF power", "#1f4e79"),
                                      ("lf_peak_ms2_per_hz", "LF peak density", "#2ca25f")]:
            share = a[column] / a[column].max()
            ax.plot(a["rate_bpm"], share, "o-", color=colour, label=f"{label} (share of best)")
        ax.plot(a["rate_bpm"], a["product_coherence"], "s--", color="#7f7f7f", label="product coherence")
        ax.plot(a["rate_bpm"], a["windowed_coherence"], "^:", color="#bcbd22", label="windowed coherence")
        best = a.loc[a["peak_to_trough_bpm"].idxmax(), "rate_bpm"] if a["peak_to_trough_bpm"].notna().any() else None
        if best is not None:
            ax.axvline(best, color="#c0392b", lw=0.8, ls=":")
        ax.set_xlabel("paced rate (breaths/min)")
        ax.set_ylabel("share of best / coherence")
        ax.set_title(subject, fontsize=9)
        ax.set_ylim(0, 1.05)
    axes[0].legend(loc="lower center", fontsize=7)
    fig.suptitle("Resonance-frequency assessment: each criterion against the paced rate")
    save(fig, "breathing_assessment", "Resonance-frequency assessment: each criterion against the paced rate")

# %%
trace = read_table("breathing_sim_trace.csv", times=())
sessions = read_table("breathing_sim_sessions.csv")
if trace is not None and sessions is not None:
    strategies = list(dict.fromkeys(sessions["strategy"]))
    first = sessions[sessions["seed"] == sessions["seed"].min()]
    personas = list(dict.fromkeys(first["persona"]))[:4]
    fig, axes = plt.subplots(1, len(strategies), figsize=(12, 4), sharey=True, layout="constrained", squeeze=False)
    colours = ["#1f4e79", "#c0392b", "#2ca25f", "#d95f0e"]
    for ax, strategy in zip(axes[0], strategies):
        for persona, colour in zip(personas, colours):
            t = trace[(trace["strategy"] == strategy) & (trace["persona"] == persona)]
            ax.plot(t["t_s"] / 60, t["rate_bpm"], color=colour, lw=1, label=persona)
            planted = first[(first["persona"] == persona) & (first["strategy"] == strategy)]["planted_rate_bpm"]
            if not planted.empty:
                ax.axhline(planted.iloc[0], color=colour, ls=":", lw=0.8)
        ax.set_title(strategy)
        ax.set_xlabel("time (min)")
    axes[0][0].set_ylabel("paced rate (breaths/min); dotted: planted resonance")
    axes[0][0].legend(fontsize=7, loc="upper left")
    fig.suptitle("Adaptive pacer: paced rate against time, first seed")
    save(fig, "pacer_rate_vs_time", "Adaptive pacer: paced rate against time for a few simulated sessions")

    fig, axes = plt.subplots(1, len(strategies), figsize=(12, 4), sharey=True, layout="constrained", squeeze=False)
    for ax, strategy in zip(axes[0], strategies):
        s = sessions[sessions["strategy"] == strategy]
        ax.plot(s["planted_rate_bpm"], s["locked_rate_bpm"], ".", ms=4, color="#1f4e79")
        ax.plot([4.5, 7], [4.5, 7], color="grey", ls="--", lw=0.8)
        ax.set_title(f"{strategy}: mean |error| {s['error_bpm'].abs().mean():.2f} /min")
        ax.set_xlabel("planted resonance rate (breaths/min)")
    axes[0][0].set_ylabel("locked rate (breaths/min)")
    fig.suptitle("Adaptive pacer: locked against planted resonance rate, every simulated session")
    save(fig, "pacer_locked_vs_planted", "Adaptive pacer: locked against planted resonance rate")

# %% [markdown]
# ## AI DJ
#
# The closed-loop simulation (`dj_learning_curve.csv`): each policy's regret against the
# oracle (planted need fulfilment, bpm) per simulated day, the mean over seeds with its
# range — a learning DJ's regret falls over the days. The replay on logged listening
# (`dj_decisions.csv`): where the song the listener actually played stood in the DJ's
# ranking — its rank, and its place as a share of the candidates (0 = the DJ's top pick,
# 1 = its last).

# %%
curve = read_table("dj_learning_curve.csv", times=())
if curve is not None and not curve.empty:
    fig, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
    colours = {"dj": "#1f4e79", "random": "#7f7f7f", "most_played": "#d95f0e", "oracle": "#2ca25f"}
    for policy, g in curve.groupby("policy", sort=False):
        by_day = g.groupby("day")["mean_regret_bpm"]
        mean, low, high = by_day.mean(), by_day.min(), by_day.max()
        colour = colours.get(policy, None)
        ax.plot(mean.index + 1, mean.values, "o-", ms=3, color=colour, label=policy)
        ax.fill_between(mean.index + 1, low.values, high.values, color=colour, alpha=0.15, lw=0)
    ax.set_xlabel("simulated day")
    ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))
    ax.set_ylabel("mean regret against the oracle (bpm)")
    ax.legend(fontsize=8)
    seeds = curve["seed"].nunique()
    fig.suptitle(f"AI DJ: regret per day by policy (mean over {seeds} seed(s), band: range over seeds)")
    save(fig, "dj_regret_vs_days", "AI DJ: regret against the oracle per simulated day, by policy")

# %%
decisions = read_table("dj_decisions.csv")
if decisions is not None and not decisions.empty:
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
    ranks = decisions["played_rank"].clip(upper=21)
    a1.hist(ranks, bins=np.arange(0.5, 22.5, 1), color="#1f4e79")
    a1.set_xticks([1, 5, 10, 15, 21], ["1", "5", "10", "15", "> 20"])
    a1.set_xlabel("rank of the played song in the DJ's ranking")
    a1.set_ylabel("plays")
    several = decisions[decisions["candidates"] >= 2]
    if not several.empty:
        place = (several["played_rank"] - 1) / (several["candidates"] - 1)
        a2.hist(place, bins=np.linspace(0, 1, 21), color="#c0392b")
    a2.set_xlabel("place among the candidates (0 = top pick, 1 = last)")
    a2.set_ylabel("plays with ≥ 2 candidates")
    top1 = (decisions["played_rank"] == 1).mean()
    fig.suptitle(f"AI DJ replay: rank of the played song ({len(decisions)} plays; top-1 {top1:.2f})")
    save(fig, "dj_rank_of_played", "AI DJ replay: rank of the played song in the DJ's ranking")

# %%
write_figure_list()
