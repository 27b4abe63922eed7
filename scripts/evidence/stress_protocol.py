"""Table and figure of the stress section's scoring protocol from a validation.json.

    stress_protocol.py VALIDATION_JSON --table OUT_MD [--design-table OUT_MD] [--figure OUT_PNG] [--command CMD]

--design-table writes the design's time-only controls per candidate design (no
physiological score): per-subject medians of elapsed time, closeness to the session's
middle and the clock fitted on the other subjects' labels. --table writes the Markdown fragment (atomically): the AUC tables of the primary transition design, of every Stroop + interview window
and of all tasks (each score raw and after the label-blind detrend, the time-only
controls beside them),
the methods and penalties the nested folds chose, and the paired differences, with the
command that regenerates it. --figure: left, the pooled ROC curve of every score on the
primary windows (one plot); right, each score's per-subject AUCs as dots, the median as
a bar with its interval. Deterministic PNG (no timestamps in the metadata).
"""
import argparse
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


ORDER = ["engine", "adaptive_range", "onset", "beat_hrv", "respiration", "naive_hr", "naive_hr_centred",
             "dj_stress", "dj_arousal", "dj_personal_stress", "dj_personal_arousal", "raw_hr",
             "pulse_hr", "pulse_hrv", "scl", "scr", "skin_temp", "pulse_scl",
             "nested_choice", "learned_reference", "ppg_choice", "ppg_learned", "ppg_eda_choice", "ppg_eda_learned",
             "control_elapsed", "control_middle", "control_clock"]
NESTED = ("nested_choice", "learned_reference", "ppg_choice", "ppg_learned", "ppg_eda_choice", "ppg_eda_learned")
PARTS = (("primary", "Transition design, Stroop + interview (primary)"),
         ("every_window", "Stroop + interview vs baseline, every window (confounded with the clock)"),
         ("secondary", "all tasks vs baseline, every window (secondary)"))


def fmt(x):
    return "–" if x is None else f"{x:.3f}"


def interval(lo, hi):
    return "–" if lo is None or hi is None else f"{lo:.3f}–{hi:.3f}"


def counts(values):
    n = {}
    for v in values:
        n[v] = n.get(v, 0) + 1
    return n


def profile_line(p):
    """One device profile: the methods and λ chosen in the outer folds, and its channels' counts."""
    chosen = counts(p["chosen_methods"])
    lambdas = counts(p["learned_lambdas"])
    line = (f"{p['label']}: chosen in the outer folds " + ", ".join(f"`{m}` {n}" for m, n in sorted(chosen.items(), key=lambda t: (-t[1], t[0])))
            + f"; learned reference ({p['features']} features) λ: " + ", ".join(f"{x:g} ({n})" for x, n in sorted(lambdas.items())) + ".")
    if "ppg" in p["label"].lower():
        line += (f" Subjects with pulse-wave beats {p['subjects_pulse']}, with skin conductance {p['subjects_eda']} "
                 f"({p['eda_non_responders']} without a phasic response in any window); windows the motion gate scores 50: "
                 f"{p['moving_windows']}.")
    return line


def paired_row(p):
    """One paired difference: per subject, pooled and after the detrend, each with its interval."""
    return (f"| {p['score']} − {p['minus']} | {fmt(p['mean_difference'])} | {interval(p['ci_low'], p['ci_high'])} "
            f"| {p['subjects_above']} / {p['subjects']} "
            f"| {fmt(p['pooled_difference'])} | {interval(p['pooled_ci_low'], p['pooled_ci_high'])} "
            f"| {fmt(p['detrended_mean_difference'])} "
            f"| {interval(p['detrended_ci_low'], p['detrended_ci_high'])} |")


def table(protocol, command):
    lines = []
    for name, title in [p for p in PARTS if p[0] in protocol]:
        part = protocol[name]
        scores = part["scores"]
        lines += [f"{title}: {len(part['subjects'])} subjects, {part['windows']} windows.", "",
                  "| score | pooled AUC | 95 % CI | median per-subject AUC | 95 % CI | detrended median per-subject AUC | 95 % CI |",
                  "|---|---|---|---|---|---|---|"]
        for k in [k for k in ORDER if k in scores]:
            s = scores[k]
            label = f"**{s['label']}**" if k in NESTED else s["label"]
            label = f"*{label}*" if k.startswith("control_") else label
            lines.append(f"| {label} | {fmt(s['pooled'])} | {interval(s['pooled_ci_low'], s['pooled_ci_high'])} "
                         f"| {fmt(s['subject_median'])} | {interval(s['subject_ci_low'], s['subject_ci_high'])} "
                         f"| {fmt(s['detrended_subject_median'])} "
                         f"| {interval(s['detrended_subject_ci_low'], s['detrended_subject_ci_high'])} |")
        lines += [""] + [x for p in part.get("profiles", {}).values() for x in (profile_line(p), "")] + [
                  "| paired difference | mean Δ per-subject AUC | 95 % CI | subjects with Δ > 0 | Δ pooled AUC | 95 % CI "
                  "| mean Δ detrended | 95 % CI |",
                  "|---|---|---|---|---|---|---|---|"]
        lines += [paired_row(p) for p in part["paired"]]
        lines.append("")
    lines.append(f"Regenerate: `{command}`.")
    return "\n".join(lines) + "\n"


BEAT_INPUTS = ["raw_hr", "engine", "engine_beats", "dj_stress", "dj_beats_stress", "dj_personal_stress",
               "dj_beats_personal_stress", "beats_raw_hr", "control_elapsed", "control_middle"]


def beat_inputs_table(part, command):
    """The product engines on the pulse wave's beats against raw HR and against themselves on
    the device's inputs, on the primary design's windows where all of them are defined."""
    scores = part["scores"]
    lines = [f"Transition design (primary), the engines on the pulse wave's beats: {len(part['subjects'])} subjects, "
             f"{part['windows']} of the design's {part['design_windows']} windows.", "",
             "| score | pooled AUC | 95 % CI | median per-subject AUC | 95 % CI | detrended median per-subject AUC | 95 % CI |",
             "|---|---|---|---|---|---|---|"]
    for k in [k for k in BEAT_INPUTS if k in scores]:
        s = scores[k]
        label = f"*{s['label']}*" if k.startswith("control_") else s["label"]
        lines.append(f"| {label} | {fmt(s['pooled'])} | {interval(s['pooled_ci_low'], s['pooled_ci_high'])} "
                     f"| {fmt(s['subject_median'])} | {interval(s['subject_ci_low'], s['subject_ci_high'])} "
                     f"| {fmt(s['detrended_subject_median'])} "
                     f"| {interval(s['detrended_subject_ci_low'], s['detrended_subject_ci_high'])} |")
    lines += ["", "| paired difference | mean Δ per-subject AUC | 95 % CI | subjects with Δ > 0 | Δ pooled AUC | 95 % CI "
              "| mean Δ detrended | 95 % CI |", "|---|---|---|---|---|---|---|---|"]
    lines += [paired_row(p) for p in part["paired"]]
    lines += ["", f"Regenerate: `{command}`."]
    return "\n".join(lines) + "\n"


def design_table(design, command):
    spans = ", ".join(f"{t} {s:g} s" for t, s in zip(design["tasks"], design["span_s"]))
    lines = [f"Primary design: buffer {design['buffer_s']:g} s; {spans} on each side of each start and end. "
             f"Label-blind controls at most {design['max_control_auc']:g}; fitted clock bins of {design['clock_bin_s']:g} s.", "",
             "| design | subjects | windows | windows per subject (median) | elapsed | closeness to the middle "
             "| fitted clock | label-blind pass |",
             "|---|---|---|---|---|---|---|---|"]
    for c in design["candidates"]:
        name = f"**{c['design']}** (primary)" if c["primary"] else c["design"]
        lines.append(f"| {name} | {c['subjects']} | {c['windows']} | {c['windows_per_subject']:g} | {fmt(c['elapsed_auc'])} "
                     f"| {fmt(c['middle_auc'])} | {fmt(c['fitted_clock_auc'])} | {'yes' if c['controls_pass'] else 'no'} |")
    lines += ["", f"Regenerate: `{command}`."]
    return "\n".join(lines) + "\n"


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def figure(protocol, out_png):
    part = protocol["primary"]
    scores = part["scores"]
    keys = [k for k in ORDER if k in scores]
    cmap = plt.get_cmap("tab20")
    fig, (roc_ax, dot_ax) = plt.subplots(1, 2, figsize=(15, 6.5), gridspec_kw={"width_ratios": [1, 1.25]})
    for i, k in enumerate(keys):
        curve = scores[k]["roc"]
        style = "-" if k in NESTED else ("--" if k.startswith("dj") else ":")
        width = 2.2 if k in ("nested_choice", "learned_reference", "raw_hr") else 1.2
        roc_ax.plot([p[0] for p in curve], [p[1] for p in curve], style, color=cmap(i), lw=width,
                    label=f"{k} ({scores[k]['pooled']:.3f})")
    roc_ax.plot([0, 1], [0, 1], color="0.6", lw=0.8)
    roc_ax.set_xlabel("false-positive rate (baseline windows)")
    roc_ax.set_ylabel("true-positive rate (stress windows)")
    roc_ax.set_title(f"Pooled ROC, transition design (Stroop + interview): "
                     f"{part['windows']} windows, {len(part['subjects'])} subjects")
    roc_ax.legend(fontsize=7.5, loc="lower right", title="score (pooled AUC)", title_fontsize=8)
    roc_ax.set_aspect("equal")
    for i, k in enumerate(keys):
        per = [v for v in scores[k]["per_subject"] if v is not None]
        n = len(per)
        xs = [i + (j - (n - 1) / 2) * 0.55 / max(n, 1) for j in range(n)]
        dot_ax.scatter(xs, sorted(per), s=11, color=cmap(i), zorder=3)
        m = scores[k]["subject_median"]
        lo, hi = scores[k]["subject_ci_low"], scores[k]["subject_ci_high"]
        dot_ax.plot([i - 0.35, i + 0.35], [m, m], color="black", lw=2, zorder=4)
        if lo is not None and hi is not None:
            dot_ax.plot([i, i], [lo, hi], color="black", lw=1, zorder=4)
    dot_ax.axhline(0.5, color="0.5", ls="--", lw=0.8)
    dot_ax.axhline(0.75, color="tab:red", ls=":", lw=0.8)
    dot_ax.set_xticks(range(len(keys)))
    dot_ax.set_xticklabels(keys, rotation=50, ha="right", fontsize=8)
    dot_ax.set_ylim(0, 1)
    dot_ax.set_ylabel("per-subject AUC (bar: median, line: 95 % CI)")
    dot_ax.set_title("Per-subject AUC by score (dotted red: 0.75)")
    fig.tight_layout()
    fig.savefig(out_png, dpi=110, metadata={"Software": None})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("validation_json")
    ap.add_argument("--table", required=True)
    ap.add_argument("--design-table")
    ap.add_argument("--beat-inputs-table")
    ap.add_argument("--figure")
    ap.add_argument("--command", default="make evidence-stress-protocol")
    a = ap.parse_args()
    with open(a.validation_json) as f:
        stress = json.load(f)["stress"]
    protocol = stress["protocol"]
    write(a.table, table(protocol, a.command))
    if a.design_table:
        write(a.design_table, design_table(stress["design"], a.command))
    if a.beat_inputs_table and "beat_inputs" in protocol:
        write(a.beat_inputs_table, beat_inputs_table(protocol["beat_inputs"], a.command))
    if a.figure:
        figure(protocol, a.figure)


if __name__ == "__main__":
    main()
