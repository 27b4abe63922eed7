# %% [markdown]
# # Validation figures
#
# The figures of one workspace's validation report: HRV per subject (tachogram, Welch
# PSD, Poincaré plot), NSR vs CHF when the PhysioNet groups are present, heart rate across
# a labelled stress protocol (and the stress engine's ROC once `validation.json` holds
# it), coherence over time, the song effects, breathing, and the AI DJ. Every number drawn is read from the
# workspace's tables (`hrv.csv`, `hrv_nn.csv`, `hrv_psd.csv`, `coherence.csv`,
# `song_effects.csv`, `persona_effects.csv`, `truth.csv`, `hr.csv`, `labels.csv`, the
# breathing and `dj_*` tables) or from
# the report's `validation.json`; the notebook computes no index of its own.
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
# `labels.csv` shaded. When `validation.json` carries the stress engine's scoring, the
# ROC curves of its pooled windows (engine and naive heart-rate scores), the AUCs with
# 95 % CIs and the engine score's distribution by label follow.

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
def roc_curves(node, path=()):
    """(name, points, auc) for every `roc` list of [fpr, tpr] pairs under node."""
    if isinstance(node, dict):
        if isinstance(node.get("roc"), list) and node["roc"]:
            auc = next((node[k] for k in ("auc", "pooled") if isinstance(node.get(k), (int, float))), None)
            yield " / ".join(path) or "engine", np.array(node["roc"], dtype=float), auc
        for key, value in sorted(node.items()):
            if key != "roc":
                yield from roc_curves(value, path + (key,))


stress = V.get("stress") or V.get("Stress scoring")
if stress:
    curves = list(roc_curves(stress))
    if curves:
        names = {"auc / engine": "stress engine", "auc / naive_hr": "naive: window HR",
                 "auc / naive_hr_centred": "naive: HR centred on the subject mean"}
        roc_figure([(names.get(name, name) + (f": AUC {auc:.3f}" if auc is not None else ""), points)
                    for name, points, auc in curves],
                   "stress_roc", "Stress engine: ROC on the labelled windows", "baseline window called stress",
                   "stress window called stress", "ROC of the stress engine on labelled windows")
    aucs = {name: a for name, a in stress.get("auc", {}).items() if isinstance(a, dict) and "pooled" in a}
    if aucs:
        fig, ax = plt.subplots(figsize=(8, 1.2 + 0.7 * len(aucs)), layout="constrained")
        for k, (name, a) in enumerate(sorted(aucs.items())):
            for offset, kind, colour in [(-0.12, "pooled", "#1f4e79"), (0.12, "subject", "#d95f0e")]:
                value = a.get(kind) if kind == "pooled" else a.get("subject_median")
                lo, hi = a.get(f"{kind}_ci_low"), a.get(f"{kind}_ci_high")
                if value is None:
                    continue
                err = [[value - lo], [hi - value]] if lo is not None and hi is not None else None
                ax.errorbar(value, k + offset, xerr=err, fmt="o", color=colour, capsize=3,
                            label=("pooled windows" if kind == "pooled" else "median over subjects") if k == 0 else None)
        ax.axvline(0.5, color="grey", ls="--", lw=0.8)
        ax.set_yticks(range(len(aucs)), sorted(aucs))
        ax.set_xlim(0, 1)
        ax.set_xlabel("AUC, stress vs baseline windows (95 % CI)")
        ax.set_title("Stress scoring: AUC of the engine and of the naive heart-rate rules")
        ax.legend(loc="lower right", fontsize=8)
        save(fig, "stress_auc", "Stress scoring AUCs with 95 % CIs")

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
# A forest plot of the songs with the largest and smallest estimated effects on heart
# rate and RMSSD (mixed model, 95 % intervals, songs aggregated over contexts). For
# synthetic personas with `truth.csv`: each model's estimate against the planted effect,
# with the identity line, and each listener's estimated sensitivity against the planted one.

# %%
effects = read_table("song_effects.csv")
if effects is not None:
    songs = effects[(effects["context"] == "any") & effects["ci_low"].notna() & effects["ci_high"].notna()]
    metrics = [m for m in ["delta_hr_bpm", "delta_rmssd_ms"] if m in set(songs["metric"])]
    plays = read_table("plays.csv")
    titles_by_song = {} if plays is None else {
        song: f"{title} – {artist}" for song, title, artist in
        plays.drop_duplicates("song_id")[["song_id", "title", "artist"]].itertuples(index=False)}
    if metrics:
        fig, axes = plt.subplots(1, len(metrics), figsize=(6 * len(metrics), 7.5), layout="constrained", squeeze=False)
        titles = {"delta_hr_bpm": "Δ heart rate (bpm)", "delta_rmssd_ms": "Δ RMSSD (ms)"}
        for ax, metric in zip(axes[0], metrics):
            m = songs[(songs["metric"] == metric) & (songs["model"] == "mixed")]
            if m.empty:
                m = songs[songs["metric"] == metric]
            m = m.sort_values(["estimate", "song_id"])
            shown = pd.concat([m.head(10), m.tail(10)]).drop_duplicates("song_id") if len(m) > 20 else m
            y = np.arange(len(shown))
            ax.errorbar(shown["estimate"], y, xerr=[shown["estimate"] - shown["ci_low"], shown["ci_high"] - shown["estimate"]],
                        fmt="o", ms=4, color="#1f4e79", ecolor="#7fa7d1", capsize=2)
            ax.axvline(0, color="grey", lw=0.8)
            if len(m) > 20:
                ax.axhline(9.5, color="grey", ls=":", lw=0.8)
            names = [f"{titles_by_song.get(song, song)[:32]}  (n={int(n)})" for song, n in zip(shown["song_id"], shown["plays"])]
            ax.set_yticks(y, names, fontsize=7)
            ax.set_xlabel(f"{titles[metric]}, estimate with 95 % CI")
            ax.set_title(f"{titles[metric]}: {'bottom and top 10 of ' if len(m) > 20 else ''}{len(m)} songs "
                         f"({m['model'].iloc[0]} model)")
        fig.suptitle("Song effects per song (all contexts)")
        save(fig, "song_effects_forest", "Forest plot of the top and bottom song effects with 95 % CIs")

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
