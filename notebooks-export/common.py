# %% [markdown]
# ## Helpers
#
# Reading the workspace's tidy tables, its raw signals (through `resonance waveforms`) and
# the report's `validation.json`, and saving figures reproducibly: PNG at 150 dpi and
# SVG, with no dates or random ids in the files (`svg.hashsalt` fixed, `Date`/`Creator`
# metadata off), so a rerun gives the same bytes. Each figure is listed in
# `figures/figures.json` with its title and the report that embeds it; a figure that
# cannot be drawn is listed with a one-sentence note instead, which the report shows in
# its place. Nothing here computes an index: the figures draw the toolkit's outputs.

# %%
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Image, display

plt.rcParams.update({
    "svg.hashsalt": "resonance-lab",
    "figure.dpi": 150,
    "savefig.dpi": 150,
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
})
np.random.seed(0)
WS = Path(WORKSPACE)
FIG_DIR = Path(REPORT_DIR) / "figures"
FIG_DIR.mkdir(parents=True, exist_ok=True)
FIGURES = []


def read_table(name, times=()):
    """A workspace table as a DataFrame, or None when it is absent or has no rows."""
    path = WS / name
    if not path.exists():
        return None
    df = pd.read_csv(path, dtype={"subject": str, "song_id": str}, keep_default_na=True)
    if df.empty:
        return None
    for column in times:
        df[column] = pd.to_datetime(df[column], utc=True, format="ISO8601", errors="coerce")
    return df


def read_waveform(subject, channel):
    """One channel of a subject's raw signal as `resonance waveforms` writes it: a
    DataFrame of `time_unix_s` and `value` (in the channel's unit), its segments in order.
    The executable is $RESONANCE_BIN (scripts/lib/notebooks.py sets it from `--bin`), else
    `resonance` on the PATH."""
    binary = os.environ.get("RESONANCE_BIN") or shutil.which("resonance")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "waveform.csv"
        subprocess.run([binary, "waveforms", str(WS), "--subject", subject, "--channel", channel, "--out", str(out),
                        "--quiet"], check=True)
        return pd.read_csv(out, usecols=["time_unix_s", "value"], dtype=float)


def read_validation():
    """validation.json of the report folder as {section key: data}, or {} when absent.
    A section is keyed by its `key` when it has one, else by its title."""
    path = Path(REPORT_DIR) / "validation.json"
    if not path.exists():
        return {}
    doc = json.loads(path.read_text())
    out = {s.get("key", s["title"]): s["data"] for s in doc.get("sections", [])}
    for key, value in doc.items():
        if key not in ("sections",) and isinstance(value, dict):
            out.setdefault(key, value)
    return out


def save(fig, name, title, report="validation.md"):
    """Save `fig` as figures/NAME.png (150 dpi) and .svg, and list it for `report`."""
    fig.savefig(FIG_DIR / f"{name}.png", dpi=150, metadata={"Software": None})
    fig.savefig(FIG_DIR / f"{name}.svg", metadata={"Date": None, "Creator": None})
    width, height = fig.get_size_inches() * 150
    display(Image(filename=str(FIG_DIR / f"{name}.png")))
    FIGURES.append({"name": name, "title": title, "report": report,
                    "width_px": int(round(width)), "height_px": int(round(height))})
    plt.close(fig)


def note(name, sentence, report="validation.md"):
    """In place of figure NAME, which cannot be drawn here: print the one-sentence reason
    and list it for `report`, which shows it where the figure would be."""
    for suffix in (".png", ".svg"):
        (FIG_DIR / f"{name}{suffix}").unlink(missing_ok=True)
    print(sentence)
    FIGURES.append({"name": name, "note": sentence, "report": report})


def write_figure_list():
    """figures/figures.json: the figures this notebook drew (or the notes in their place),
    in order."""
    path = FIG_DIR / "figures.json"
    previous = json.loads(path.read_text()) if path.exists() else []
    names = {f["name"] for f in FIGURES}
    merged = [f for f in previous if f["name"] not in names] + FIGURES
    path.write_text(json.dumps(merged, indent=1, sort_keys=True) + "\n")
    for f in FIGURES:
        print(f"{f['name']}: {f['note']}" if "note" in f else
              f"{f['name']}.png  {f['width_px']}×{f['height_px']} px  {f['title']}")


def grid(n, columns=4, width=12.0, row_height=2.2):
    """A small-multiples grid of n axes, unused cells hidden."""
    rows = max(1, -(-n // columns))
    fig, axes = plt.subplots(rows, columns, figsize=(width, row_height * rows + 0.8), squeeze=False,
                             layout="constrained")
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, axes.flat


def roc_figure(curves, name, title, false_positive, true_positive, caption):
    """One ROC plot of `curves` — (label, [[fpr, tpr], …]) pairs as validation.json lists
    them — with the chance diagonal, saved as NAME."""
    fig, ax = plt.subplots(figsize=(6.5, 6), layout="constrained")
    for label, points in curves:
        points = np.asarray(points, dtype=float)
        ax.plot(points[:, 0], points[:, 1], lw=1.3, label=label)
    ax.plot([0, 1], [0, 1], color="grey", ls="--", lw=0.8, label="chance")
    ax.set_xlabel(f"false-positive rate ({false_positive})")
    ax.set_ylabel(f"true-positive rate ({true_positive})")
    ax.set_aspect("equal")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    save(fig, name, caption)


def broken(x, y, breaks):
    """x and y with a NaN before every point where `breaks` is true, so a line plot does
    not draw across recording gaps."""
    x, y, breaks = np.asarray(x, dtype=float), np.asarray(y, dtype=float), np.asarray(breaks, dtype=bool)
    at = np.flatnonzero(breaks[1:]) + 1
    return np.insert(x, at, np.nan), np.insert(y, at, np.nan)


def spans(starts, ends, flags):
    """Merge consecutive flagged [start, end) intervals into (start, end) spans for shading."""
    out = []
    for s, e, f in zip(starts, ends, flags):
        if not f:
            continue
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out
