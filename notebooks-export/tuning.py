# %% [markdown]
# # Tuning figures
#
# The objective of each cross-validation fold with the default and with the tuned
# constants, read from a tuning report (`resonance tune`'s decision receipt, JSON) in the
# report folder. The notebook looks for a list named `folds` whose entries hold numeric
# fields naming `default` and `tuned`; with no tuning report it draws nothing.

# %% tags=["parameters"]
WORKSPACE = "build/work/sample"
REPORT_DIR = "reports/sample"
TUNING_REPORT = None  # a tuning report JSON; None = the first *tun*.json in REPORT_DIR

# %%
candidates = [Path(TUNING_REPORT)] if TUNING_REPORT else sorted(Path(REPORT_DIR).glob("*tun*.json"))
receipts = [(p, json.loads(p.read_text())) for p in candidates if p.exists()]


def fold_lists(node, path=()):
    """(path, folds) for every list named `folds` under node."""
    if isinstance(node, dict):
        for key, value in sorted(node.items()):
            if key == "folds" and isinstance(value, list) and value and all(isinstance(f, dict) for f in value):
                yield " / ".join(path), value
            else:
                yield from fold_lists(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from fold_lists(value, path + (str(i),))


found = [(p, name, folds) for p, doc in receipts for name, folds in fold_lists(doc)]
print(f"{len(receipts)} tuning report(s), {len(found)} fold list(s)")

# %%
for k, (path, name, folds) in enumerate(found):
    numeric = lambda f, word: next((key for key, v in sorted(f.items()) if word in key and isinstance(v, (int, float))), None)
    default_key, tuned_key = numeric(folds[0], "default"), numeric(folds[0], "tuned")
    if default_key is None or tuned_key is None:
        print(f"{path}: {name or 'folds'} has no numeric default/tuned fields")
        continue
    x = np.arange(len(folds))
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(folds) + 3), 4.5), layout="constrained")
    ax.bar(x - 0.2, [f[default_key] for f in folds], width=0.4, color="#9ecae1", label=f"default ({default_key})")
    ax.bar(x + 0.2, [f[tuned_key] for f in folds], width=0.4, color="#1f4e79", label=f"tuned ({tuned_key})")
    ax.set_xticks(x, [str(f.get("fold", f.get("name", i + 1))) for i, f in enumerate(folds)])
    ax.set_xlabel("fold (held out)")
    ax.set_ylabel(f"objective on the held-out fold ({default_key.replace('default', '').strip('_') or 'score'})")
    ax.set_title(f"{path.name}{': ' + name if name else ''}: objective per fold, default vs tuned")
    ax.legend(fontsize=8)
    save(fig, f"tuning_{k}", f"Tuning objective per fold, default vs tuned ({path.name})")

# %%
write_figure_list()
