# %% [markdown]
# # Persona figures
#
# The 30-day traces of each synthetic persona from `daily.csv`: the stress score and the
# readiness score with their level bands, resting heart rate and HRV (SDNN), with the
# days the engines flagged (the `flags` column) marked on every panel. The traces are the
# engines' outputs; the notebook only draws them. Health events planted with
# `--events planned` (`health_event` rows of `truth.csv`) are shaded on every panel, so
# a flag can be seen to find an event, or not. Each figure is embedded in that
# persona's report (`<persona>.md`), and all of them in `index.md`.

# %% tags=["parameters"]
WORKSPACE = "build/work/personas"
REPORT_DIR = "reports/personas"

# %%
daily = read_table("daily.csv", times=("date",))
assert daily is not None, f"{WORKSPACE}/daily.csv: no daily rows (run `resonance personas generate`)"
daily["flags"] = daily["flags"].fillna("")
personas = sorted(daily["subject"].unique())
print(len(personas), "personas,", daily["date"].nunique(), "days")
truth = read_table("truth.csv", times=("start", "end"))
events = truth[truth["kind"] == "health_event"].drop_duplicates(["subject", "entity"]) if truth is not None else None
EVENT_COLOURS = {"illness": "#e31a1c", "overreaching": "#ff7f00", "regression": "#6a3d9a", "improvement": "#33a02c"}
print(0 if events is None else len(events), "planted health events")

# %%
PANELS = [
    ("stress", "stress score (0–100)", [(0, 35, "relaxed", "#c7e9c0"), (35, 65, "balanced", "#ffffcc"), (65, 100, "elevated", "#fcbba1")]),
    ("readiness", "readiness score (0–100)", [(0, 40, "recovering", "#fcbba1"), (40, 60, "moderate", "#ffffcc"),
                                              (60, 80, "ready", "#c7e9c0"), (80, 100, "primed", "#a1d99b")]),
    ("resting_hr", "resting HR (bpm)", []),
    ("hrv_sdnn", "HRV SDNN (ms)", []),
]

for persona in personas:
    d = daily[daily["subject"] == persona].sort_values("date")
    flagged = d[d["flags"] != ""]
    fig, axes = plt.subplots(len(PANELS), 1, figsize=(10, 9), sharex=True, layout="constrained")
    for ax, (column, label, bands) in zip(axes, PANELS):
        for lo, hi, name, colour in bands:
            ax.axhspan(lo, hi, color=colour, alpha=0.5, lw=0, label=name)
        ax.plot(d["date"], d[column], "-o", ms=3, lw=1.2, color="#1f4e79")
        f = flagged.dropna(subset=[column])
        ax.plot(f["date"], f[column], "D", ms=7, mfc="none", mec="#c0392b", mew=1.5,
                label="flagged day" if column == "stress" else None)
        if bands:
            ax.set_ylim(0, 100)
        ax.set_ylabel(label)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=7)
    for _, row in flagged.iterrows():
        axes[0].annotate(row["flags"].replace(";", "\n"), (row["date"], 100), xytext=(0, -3), textcoords="offset points",
                         ha="center", va="top", fontsize=6, color="#c0392b", rotation=90)
    if events is not None:
        for _, e in events[events["subject"] == persona].iterrows():
            kind = e["entity"].rsplit("-", 1)[0]
            for ax in axes:
                ax.axvspan(e["start"] - pd.Timedelta(hours=12), e["end"] + pd.Timedelta(hours=12),
                           color=EVENT_COLOURS.get(kind, "#999999"), alpha=0.15, lw=0)
            axes[-1].annotate(e["entity"], (e["start"], 0), xycoords=("data", "axes fraction"), xytext=(2, 2),
                              textcoords="offset points", fontsize=7, color=EVENT_COLOURS.get(kind, "#999999"))
    axes[-1].set_xlabel("date")
    fig.autofmt_xdate()
    fig.suptitle(f"{persona}: {len(d)} days of stress, readiness, resting HR and HRV "
                 f"({len(flagged)} flagged day{'s' if len(flagged) != 1 else ''})")
    save(fig, f"persona_{persona}", f"{persona}: daily stress, readiness, resting HR and HRV with flags",
         report=f"{persona}.md")

# %%
write_figure_list()
