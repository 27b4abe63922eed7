# %% [markdown]
# # Tuning figures
#
# What `make tune` found for one dataset, from its report folder
# (`reports/tuning/<dataset>/`): the tuned constants file (`stress.json`, whose `tuning`
# object lists each cross-validation fold's objective with the default and the tuned
# constants, on the held-out and on the training subjects), and the validation of the
# same workspace with the default and with the tuned constants (`default/` and `tuned/`
# `validation.json`, whose stress section holds the engine's AUC and, when listed, its
# ROC curve). With no tuning report in the folder the notebook draws nothing.

# %% tags=["parameters"]
WORKSPACE = "build/work/stress-predict"
REPORT_DIR = "reports/tuning/stress-predict"
TUNING_REPORT = None  # the tuned constants JSON; None = the first *.json in REPORT_DIR with a `tuning` object

# %%
candidates = [Path(TUNING_REPORT)] if TUNING_REPORT else sorted(Path(REPORT_DIR).glob("*.json"))
receipts = []
for path in candidates:
    doc = json.loads(path.read_text()) if path.exists() else {}
    if isinstance(doc.get("tuning"), dict) and doc["tuning"].get("folds"):
        receipts.append((path, doc["tuning"]))
print(f"{len(receipts)} tuning report(s):", ", ".join(p.name for p, _ in receipts))

# %% [markdown]
# ## Objective per fold
#
# Each fold's constants are chosen on its training subjects only; the bars show the
# objective on the fold's held-out subjects with the default and the tuned constants,
# the dots the same on the training subjects (the gap between them is the overfitting).

# %%
for path, tuning in receipts:
    folds = tuning["folds"]
    x = np.arange(len(folds))
    fig, ax = plt.subplots(figsize=(max(7.0, 0.42 * len(folds) + 3), 5), layout="constrained")
    ax.bar(x - 0.2, [f["default_held_out"] for f in folds], width=0.4, color="#9ecae1", label="default, held out")
    ax.bar(x + 0.2, [f["tuned_held_out"] for f in folds], width=0.4, color="#1f4e79", label="tuned, held out")
    ax.plot(x - 0.2, [f.get("default_train", np.nan) for f in folds], "o", ms=3, color="#636363", label="default, training")
    ax.plot(x + 0.2, [f.get("tuned_train", np.nan) for f in folds], "o", ms=3, color="#d95f0e", label="tuned, training")
    held = tuning.get("held_out", {})
    for key, colour in [("default", "#9ecae1"), ("tuned", "#1f4e79")]:
        if f"{key}_ci" in held and None not in held[f"{key}_ci"]:
            lo, hi = held[f"{key}_ci"]
            ax.axhspan(lo, hi, color=colour, alpha=0.2, lw=0)
            ax.axhline(held[f"{key}_mean"], color=colour, lw=1.2, ls="--",
                       label=f"{key} mean over folds {held[f'{key}_mean']:.3f} (95 % CI {lo:.3f}–{hi:.3f})")
    names = [" ".join(f.get("held_out", [])) or str(f["fold"]) for f in folds]
    ax.set_xticks(x, names, rotation=90 if len(folds) > 8 else 0, fontsize=7)
    ax.set_xlabel(f"fold (held-out subjects; {tuning.get('cv', '')})")
    ax.set_ylabel(f"objective: {tuning.get('objective', '')}")
    verdict = "tuned constants beat the defaults" if tuning.get("beats_defaults") else "defaults kept"
    ax.set_title(f"{tuning.get('engine', '')} engine, {path.name}: objective per fold, default vs tuned ({verdict})")
    ax.legend(fontsize=7, loc="lower right")
    save(fig, f"tuning_folds_{path.stem}", f"Tuning of the {tuning.get('engine', '')} engine: objective per fold, default vs tuned",
         report="tuning.md")

# %% [markdown]
# ## The engine with default and tuned constants
#
# The stress engine's AUC on the labelled windows (pooled over windows and median over
# subjects, 95 % CIs) under each set of constants, and its ROC curves when the
# validation reports list them.

# %%
runs = {}
for name in ("default", "tuned"):
    path = Path(REPORT_DIR) / name / "validation.json"
    if path.exists():
        stress = json.loads(path.read_text()).get("stress")
        if stress:
            runs[name] = stress
if receipts and runs:
    engine = {name: s.get("auc", {}).get("engine", {}) for name, s in runs.items()}
    fig, ax = plt.subplots(figsize=(8, 3.2), layout="constrained")
    for k, (name, a) in enumerate(engine.items()):
        for offset, kind, colour, label in [(-0.12, "pooled", "#1f4e79", "pooled windows"),
                                            (0.12, "subject", "#d95f0e", "median over subjects")]:
            value = a.get("pooled") if kind == "pooled" else a.get("subject_median")
            lo, hi = a.get(f"{kind}_ci_low"), a.get(f"{kind}_ci_high")
            if value is None:
                continue
            err = [[value - lo], [hi - value]] if lo is not None and hi is not None else None
            ax.errorbar(value, k + offset, xerr=err, fmt="o", color=colour, capsize=3, label=label if k == 0 else None)
    ax.axvline(0.5, color="grey", ls="--", lw=0.8)
    ax.set_yticks(range(len(engine)), [f"{name} constants" for name in engine])
    ax.set_xlim(0, 1)
    ax.set_xlabel("AUC of the stress engine, stress vs baseline windows (95 % CI)")
    ax.set_title("Stress engine with default and tuned constants")
    ax.legend(fontsize=8, loc="lower right")
    save(fig, "tuning_stress_auc", "Stress engine AUC, default vs tuned constants", report="tuning.md")
    curves = [(f"{name}: AUC {a['pooled']:.3f}", a["roc"]) for name, a in engine.items() if a.get("roc")]
    if curves:
        roc_figure(curves, "tuning_stress_roc", "Stress engine ROC, default vs tuned constants",
                   "baseline window called stress", "stress window called stress",
                   "Stress engine ROC, default vs tuned constants")

# %%
write_figure_list()
