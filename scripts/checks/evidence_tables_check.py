#!/usr/bin/env python3
"""Checks the table writers of the measured evidence on small inputs worked by hand
(`make evidence-tables-test`, in `make test`).

    evidence_tables_check.py

Runs scripts/evidence/alarm_table.py, dj_worlds.py, pacer_worlds.py and dj_ope.py as `make` runs
them, each on a few rows written into a temporary folder (validation.json files, `dj
simulate` workspaces, and a stand-in for `resonance breathing simulate` that writes its
two CSV files), and compares what they print or write with the lines expected: one
`Test Case 'evidence_tables.NAME' passed|failed` line per case, with a unified diff for a
failed one. Exits 1 on any failure. Standard library only (alarm_table.py itself needs
numpy, as `make alarms` runs it).
"""
import csv
import difflib
import json
import os
import stat
import subprocess
import sys
import tempfile

EVIDENCE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "evidence")
results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"Test Case 'evidence_tables.{name}' {'passed' if ok else 'failed'}")
    if detail and not ok:
        print(detail.rstrip("\n"))


def expect(name, have, want, context=""):
    """One case: the text `have` against the lines `want`."""
    want = "\n".join(want) + "\n"
    diff = "".join(difflib.unified_diff(want.splitlines(True), have.splitlines(True), "expected", "written"))
    report(name, have == want, diff + context)


def run(script, *args):
    return subprocess.run([sys.executable, os.path.join(EVIDENCE, script), *map(str, args)],
                          capture_output=True, text=True)


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f)


def write_csv(path, header, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


# ---- alarm_table.py ---------------------------------------------------------------------

def person(illness, illness_found, overreaching, delays, false, true, quiet, load_blocks=0, flagged=0):
    """One person's counts in validation.json's alarms section."""
    return {"events": {"illness": illness, "overreaching": overreaching},
            "detected": {"illness": illness_found, "overreaching": overreaching},
            "delays": {"illness": delays}, "false_episodes": false, "true_episodes": true, "quiet_days": quiet,
            "load_block_episodes": 0, "load_blocks": load_blocks, "load_blocks_flagged": flagged}


def validation(folder, a, b):
    """A report of one seed, persons A and B, the same counts on every line."""
    lines = lambda names: [{"signal": n, "per_subject": [a, b]} for n in names]
    write_json(os.path.join(folder, "validation.json"), {"alarms": {
        "subjects": ["A", "B"], "signals": lines(["shown flags"]),
        "regression_methods": lines(["shown flags: EWMA chart", "regression: EWMA chart"])}})


ALARM_HEADER = [
    "| constants | signal | illness found | illness sensitivity (95 % CI) | all-event sensitivity (95 % CI) "
    "| illness delay (days) | false alarms / person-month (95 % CI) | precision (95 % CI) | load blocks flagged |",
    "|---|---|---|---|---|---|---|---|---|"]


def alarm_cases(tmp):
    # One seed, two persons; a month is 30.4375 quiet days. A: 1 of 2 illnesses found
    # (delay 2 days), its one overreaching found, 1 false and 3 true episodes in 2 months,
    # 1 load block flagged; B: 2 of 2 (delays 1 and 3), 0 false and 2 true in 1 month.
    # Pooled: illnesses 3/4 = 0.75, events 4/5 = 0.80, delay 6/3 = 2.0, false alarms
    # 1/3 months = 0.33, precision 5/6 = 0.83. With one seed the crossed bootstrap draws
    # A twice, B twice or one of each: the intervals run from the lower to the higher of
    # A's and B's own rates (A 0.50, 2/3, 0.50, 0.75; B 1.00, 1.00, 0.00, 1.00).
    a = person(2, 1, 1, [2], 1, 3, 60.875, load_blocks=1, flagged=1)
    b = person(2, 2, 0, [1, 3], 0, 2, 30.4375)
    validation(os.path.join(tmp, "seed-1"), a, b)
    row = "| 3/4 | 0.75 (0.50–1.00) | 0.80 (0.67–1.00) | 2.0 | 0.33 (0.00–0.50) | 0.83 (0.75–1.00) | 1/1 |"
    p = run("alarm_table.py", f"tuned-3={tmp}/seed-1")
    expect("alarm_table.pooled_rows_and_crossed_intervals", p.stdout, [
        "1 seeds × 2 persona profiles: 4 illnesses, 5 deterioration events (1 overreachings with their load blocks). "
        "95 % intervals: crossed bootstrap over profiles and seeds. A flag counts from an event's first symptom; "
        "episodes only in a load block are neither true nor false.", "", *ALARM_HEADER,
        "| tuned-3 | shown flags: EWMA chart " + row, "| tuned-3 | regression: EWMA chart " + row, "",
        "Target (at most 1 false alarm per person-month, at least 0.80 of illnesses found) met by no regression "
        "method's shown flags on these seeds."], p.stderr)

    # Two seeds of the same persons, every illness found: 4/4 per seed, 8/8 pooled (delays
    # 2, 2, 1, 3: 2.0 days), 0.33 false alarms a month and precision 5/6 on both, so the
    # target is met and the method recommended.
    a = person(2, 2, 1, [2, 2], 1, 3, 60.875)
    for seed in (1, 2):
        validation(os.path.join(tmp, f"all-{seed}"), a, b)
    row = "| 8/8 | 1.00 (1.00–1.00) | 1.00 (1.00–1.00) | 2.0 | 0.33 (0.00–0.50) | 0.83 (0.75–1.00) | 0/0 |"
    p = run("alarm_table.py", f"tuned-3={tmp}/all-1,{tmp}/all-2")
    expect("alarm_table.target_met_and_recommended", p.stdout, [
        "2 seeds × 2 persona profiles: 8 illnesses, 10 deterioration events (0 overreachings with their load blocks). "
        "95 % intervals: crossed bootstrap over profiles and seeds. A flag counts from an event's first symptom; "
        "episodes only in a load block are neither true nor false.", "", *ALARM_HEADER,
        "| tuned-3 | shown flags: EWMA chart " + row, "| tuned-3 | regression: EWMA chart " + row, "",
        "Target (at most 1 false alarm per person-month, at least 0.80 of illnesses found) met by the shown flags of: "
        "EWMA chart (tuned-3: all-event sensitivity 1.00, 0.33 false alarms / person-month). Recommended on these "
        "seeds (most deterioration events found, then fewest false alarms): EWMA chart (tuned-3)."], p.stderr)

    # A report whose persons differ from the first report's is refused.
    write_json(os.path.join(tmp, "other", "validation.json"), {"alarms": {
        "subjects": ["A", "C"], "signals": [{"signal": "shown flags", "per_subject": [a, b]}]}})
    p = run("alarm_table.py", f"default={tmp}/seed-1,{tmp}/other")
    report("alarm_table.refuses_other_persons", p.returncode != 0 and "its persons differ" in p.stderr,
           f"exit {p.returncode}: {p.stderr}")


# ---- dj_worlds.py -----------------------------------------------------------------------

def dj_workspace(folder, world, regret, calm, loop=None):
    """A `dj simulate` output of one world: per policy, its per-seed shared-scoring values
    (and closed-loop regrets, `loop`)."""
    write_json(os.path.join(folder, "manifest.json"), {"lineage": {"dj": {"settings": {"world": world}}}})
    rows = [["shared", "all", p, seed, v, ""] for p, values in regret.items() for seed, v in enumerate(values)]
    rows += [["closed_loop", "all", p, seed, v, ""] for p, values in (loop or {}).items() for seed, v in enumerate(values)]
    rows += [["shared", "calm", p, seed, "", v] for p, values in calm.items() for seed, v in enumerate(values)]
    rows += [["own", "all", "dj", 0, 99, ""]]  # another scoring, never read
    write_csv(os.path.join(folder, "dj_simulation.csv"),
              ["scoring", "need", "policy", "seed", "mean_regret_bpm", "mean_planted_delta_hr_bpm"], rows)


def dj_cases(tmp):
    # Three seeds, t(2) = 4.303. DJ − random: −2, −2.5, −3 → mean −2.5, SD 0.5, half width
    # 4.303 · 0.5 / √3 = 1.242: [−3.74, −1.26], below 0: helps. Most-played: +1, +2, +3 →
    # mean 2, SD 1, half 2.484: [−0.48, +4.48], does nothing. Oracle −5 each: helps. Calm
    # ΔHR, DJ − random −1 each. Tuned DJ − default DJ: −0.5 each, better; learned effect
    # has no rows: –.
    regret = {"random": [10, 10, 10], "dj": [8, 7.5, 7], "most_played": [11, 12, 13], "oracle": [5, 5, 5]}
    calm = {"random": [0, 0, 0], "dj": [-1, -1, -1]}
    dj_workspace(os.path.join(tmp, "planted"), "planted", regret, calm)
    dj_workspace(os.path.join(tmp, "tuned-planted"), "planted", {"random": [10, 10, 10], "dj": [7.5, 7, 6.5]}, {})
    out, result = os.path.join(tmp, "dj.md"), os.path.join(tmp, "dj.json")
    p = run("dj_worlds.py", "--out", out, "--json", result, "--command", "make dj-worlds", "--tuned-worlds", "planted",
            "--tuned", f"planted={tmp}/tuned-planted", f"{tmp}/planted")
    text = open(out, encoding="utf-8").read() if os.path.exists(out) else ""
    expect("dj_worlds.intervals_and_verdicts", text, [
        "Regret against the best song (bpm of planted need fulfilment, all needs; lower is better), policy − random "
        "at the shared decision points, mean [95 % interval over 3 seeds]; regenerate with `make dj-worlds`:", "",
        "| policy | planted |", "|---|---|",
        "| DJ (product formula) | -2.50 [-3.74, -1.26] helps |",
        "| most-played | +2.00 [-0.48, +4.48] does nothing |",
        "| learned effect only | – |", "| bayes (population prior) | – |", "| thompson (posterior draws) | – |",
        "| hybrid (content as prior mean) | – |",
        "| oracle | -5.00 [-5.00, -5.00] helps |", "",
        "Calm need: planted ΔHR of the song picked (bpm; lower is calmer), policy − random:", "",
        "| policy | planted |", "|---|---|",
        "| DJ (product formula) | -1.00 [-1.00, -1.00] helps |",
        "| most-played | – |", "| learned effect only | – |", "| bayes (population prior) | – |",
        "| thompson (posterior draws) | – |", "| hybrid (content as prior mean) | – |", "| oracle | – |", "",
        "Closed loops (each policy's own decisions and its own learning): regret against the best song, all needs, "
        "policy − random (bpm per decision; every policy makes the same number of decisions):", "",
        "| policy | planted |", "|---|---|", "| DJ (product formula) | – |", "| most-played | – |",
        "| learned effect only | – |", "| bayes (population prior) | – |", "| thompson (posterior draws) | – |",
        "| hybrid (content as prior mean) | – |", "| oracle | – |", "",
        "Share of the gap between learned effect only and the oracle closed by hybrid (content as prior mean) "
        "((learned effect − it) / (learned effect − oracle), mean regret over all needs; the ratio of the seed means, "
        "the 95 % interval of the per-seed shares), and it − learned effect only (bpm, paired per seed):", "",
        "| | planted |", "|---|---|", "| shared decisions | – |", "| closed loops | – |", "",
        "Tuned ranking (`tune --engine ranking` on the worlds planted only): the tuned DJ's regret − the default DJ's "
        "at the same shared decisions (bpm; negative: the tuned weights are better):", "",
        "| | planted |", "|---|---|", "| tuning saw the world | yes |",
        "| tuned − default DJ | -0.50 [-0.50, -0.50] better |"], p.stderr)
    written = json.load(open(result, encoding="utf-8")) if os.path.exists(result) else {}
    dj = written.get("worlds", {}).get("planted", {}).get("dj", {}).get("regret_minus_random_bpm") or {}
    tuned = written.get("tuned_minus_default_dj_regret_bpm", {}).get("planted") or {}
    report("dj_worlds.json", written.get("seeds") == 3 and dj.get("verdict") == "helps"
           and abs(dj.get("mean", 0) + 2.5) < 1e-12 and abs(dj.get("ci_low", 0) + 2.5 + 4.303 * 0.5 / 3 ** 0.5) < 1e-12
           and tuned.get("mean") == -0.5, json.dumps(written)[:2000])
    # The gap learned effect − oracle closed by hybrid. Shared: learned 9, hybrid 7, oracle 5
    # in each seed → (27 − 21) / (27 − 15) = 0.50, hybrid − learned −2. Closed loops: 9, 8,
    # 5 → (27 − 24) / (27 − 15) = 0.25, −1. Without the oracle's closed loops: –.
    loop = {"random": [10, 10, 10], "learned_effect": [9, 9, 9], "hybrid": [8, 8, 8], "oracle": [5, 5, 5]}
    dj_workspace(os.path.join(tmp, "genre"), "genre",
                 {"random": [10, 10, 10], "learned_effect": [9, 9, 9], "hybrid": [7, 7, 7], "oracle": [5, 5, 5]}, {}, loop)
    dj_workspace(os.path.join(tmp, "none"), "none",
                 {"random": [10, 10, 10], "learned_effect": [9, 9, 9], "hybrid": [7, 7, 7], "oracle": [5, 5, 5]}, {},
                 {k: v for k, v in loop.items() if k != "oracle"})
    out = os.path.join(tmp, "gap.md")
    p = run("dj_worlds.py", "--out", out, "--command", "make dj-worlds", f"{tmp}/genre", f"{tmp}/none")
    text = open(out, encoding="utf-8").read() if os.path.exists(out) else ""
    rows = [line for line in text.splitlines() if line.startswith(("| shared decisions", "| closed loops"))]
    expect("dj_worlds.gap_share", "\n".join(rows) + "\n", [
        "| shared decisions | 0.50 (seeds 0.50–0.50); -2.00 [-2.00, -2.00] better "
        "| 0.50 (seeds 0.50–0.50); -2.00 [-2.00, -2.00] better |",
        "| closed loops | 0.25 (seeds 0.25–0.25); -1.00 [-1.00, -1.00] better | – |"], p.stderr)


# ---- pacer_worlds.py --------------------------------------------------------------------

FAKE_SIMULATE = '''#!{python}
import csv, os, sys
args = sys.argv[1:]
out, world = args[args.index("--out") + 1], args[args.index("--world") + 1]
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "..", "calls.txt"), "a") as f:
    f.write(" ".join(args) + "\\n")
def write(name, header, rows):
    with open(os.path.join(out, name), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\\n"); w.writerow(header); w.writerows(rows)
rows = []
for s, base in (("hill", 0.6), ("robust", 0.12)):
    rows += [[s, "abs_error_bpm", base, base - 0.011, base + 0.034], [s, "within_0_5", 1 - base, 1 - base, 1 - base],
             [s, "lock_s", 300, 300, 300], [s, "coherence_reached", 0.9, 0.8996, 0.9004],
             [s, "amplitude_share", 1 - base / 2, 1 - base / 2 - 0.01, 1 - base / 2 + 0.01]]
write("breathing_sim_summary.csv", ["strategy", "metric", "mean", "ci_low", "ci_high"], rows)
write("breathing_sim_wins.csv", ["metric", "best", "runner_up", "difference", "ci_low", "ci_high", "wins"],
      [["abs_error_bpm", "robust", "hill", -0.48, -0.5, -0.46, "true"],
       ["lock_s", "hill", "robust", 0, 0, 0, "false"],
       ["amplitude_share", "robust", "hill", 0.24, 0.23, 0.25, "true"]])
'''


def pacer_cases(tmp):
    # A stand-in for the binary: two strategies per world. Means with an interval print
    # as "mean [low, high]" at the metric's digits (0.6 − 0.011 = 0.589 → 0.59); equal
    # mean and bounds print alone; the winner of a metric whose wins row is true is bold.
    fake = os.path.join(tmp, "resonance")
    with open(fake, "w") as f:
        f.write(FAKE_SIMULATE.format(python=sys.executable))
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
    md, result = os.path.join(tmp, "pacer", "pacer.md"), os.path.join(tmp, "pacer", "pacer.json")
    work = os.path.join(tmp, "pacer", "work")
    p = run("pacer_worlds.py", fake, "--work", work, "--seeds", "3,4", "--worlds", "standard,all",
            "--markdown", md, "--json", result)
    text = open(md, encoding="utf-8").read() if os.path.exists(md) else ""
    # Amplitude share 1 − error/2 ± 0.01: hill 0.700 [0.690, 0.710], robust 0.940 [0.930, 0.950], bold.
    rows = lambda w: [f"| {w} | `hill` | 0.60 [0.59, 0.63] | 0.40 | 300 | 0.900 [0.900, 0.900] | 0.700 [0.690, 0.710] |",
                      f"| {w} | `robust` | **0.12 [0.11, 0.15]** | 0.88 | 300 | 0.900 [0.900, 0.900] | **0.940 [0.930, 0.950]** |"]
    expect("pacer_worlds.table", text, [
        "| world | strategy | abs error (bpm) | within ±0.5/min | lock (s) | coherence reached | amplitude share |",
        "|---|---|---|---|---|---|---|", *rows("standard"), *rows("all"), "",
        "Bold: the strategy wins that world on that metric (the 95 % interval over seeds of its per-seed difference "
        "from the runner-up excludes 0). Seeds 3–4, 10 personas each.",
        "Error: the locked rate's distance to the nearest rate of peak amplitude (the planted rate; in a flat curve "
        "its plateau, 0 on it). Amplitude share: the HR amplitude at the locked rate over that at the peak.",
        "Made by `make pacer-worlds` (scripts/evidence/pacer_worlds.py)."], p.stderr)
    calls = open(os.path.join(work, "calls.txt")).read() if os.path.exists(os.path.join(work, "calls.txt")) else ""
    expect("pacer_worlds.one_run_per_world", calls, [
        f"breathing simulate --out {work}/standard --world standard --first-seed 3 --seeds 2 --jobs 2 --quiet",
        f"breathing simulate --out {work}/all --world all --first-seed 3 --seeds 2 --jobs 2 --quiet"])
    written = json.load(open(result, encoding="utf-8")) if os.path.exists(result) else {}
    wins = written.get("worlds", {}).get("all", {}).get("wins", [])
    report("pacer_worlds.json", written.get("seeds") == [3, 4] and [w["wins"] for w in wins] == [True, False, True]
           and written["worlds"]["all"]["summary"]["robust"]["abs_error_bpm"]["ci_high"] == 0.154,
           json.dumps(written)[:2000])
    p = run("pacer_worlds.py", fake, "--work", work, "--seeds", "3,5", "--markdown", md)
    report("pacer_worlds.refuses_gaps_in_seeds", p.returncode != 0 and "must be contiguous" in p.stderr,
           f"exit {p.returncode}: {p.stderr}")


def dj_ope_cases(tmp):
    """dj_ope.py: the Wilson interval against Newcombe's (1998) published examples, and
    the table of two runs worked by hand: biases +0.2 and −0.4 (mean −0.1, SE 0.6/√2/√2 =
    0.3), widths 1.5 and 1.2, both intervals holding their truth (Wilson 2/2: 2/(2 +
    1.96²) = 0.342 to 1)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("dj_ope", os.path.join(EVIDENCE, "dj_ope.py"))
    dj_ope = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dj_ope)
    have = "".join(f"{k}/{n} {lo:.4f} {hi:.4f}\n" for k, n in [(81, 263), (15, 148), (0, 20), (1, 29)]
                   for lo, hi in [dj_ope.wilson(k, n)])
    expect("dj_ope_wilson", have, ["81/263 0.2553 0.3662", "15/148 0.0624 0.1605", "0/20 0.0000 0.1611", "1/29 0.0061 0.1718"])
    runs = []
    for name, truth, est, lo, hi, ess in [("a", 1.0, 1.2, 0.5, 2.0, 10), ("b", 2.0, 1.6, 1.8, 3.0, 20)]:
        ws = os.path.join(tmp, name)
        write_csv(os.path.join(ws, "dj_ope_truth.csv"), ["policy", "decisions", "value_bpm"], [["dj", 10, truth]])
        write_csv(os.path.join(ws, "dj_ope.csv"), ["policy", "estimator", "decisions", "listeners", "matched", "clipped",
                                                   "effective_sample_size", "value_bpm", "ci_low", "ci_high"],
                  [["dj", "ips", 10, 2, 5, 0, ess, est, lo, hi]])
        runs.append(ws)
    out = os.path.join(tmp, "dj_ope.md")
    done = run("dj_ope.py", "--out", out, "--command", "make x", "--workspaces", *runs)
    have = open(out, encoding="utf-8").read() if done.returncode == 0 else done.stderr
    expect("dj_ope_table", have, [
        "Off-policy estimates against the one-step truth over 2 runs (bpm of need fulfilment per decision); generated by `make x`:",
        "",
        "| target policy | estimator | runs | mean truth | mean bias (± SE) | mean interval width | coverage of the 95 % interval "
        "[Wilson 95 %] | mean ESS |",
        "|---|---|---|---|---|---|---|---|",
        "| DJ (product formula) | IPS | 2 | +1.500 | -0.100 (± 0.300) | 1.350 | 1.000 [0.342, 1.000] | 15.0 |"])


def main():
    with tempfile.TemporaryDirectory(prefix="evidence-tables.") as tmp:
        alarm_cases(os.path.join(tmp, "alarms"))
        dj_cases(os.path.join(tmp, "dj"))
        pacer_cases(tmp)
        dj_ope_cases(os.path.join(tmp, "dj-ope"))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
