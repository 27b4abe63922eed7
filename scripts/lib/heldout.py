#!/usr/bin/env python3
"""The held-out protocol: which seeds development may use, and the evaluation runs.

mk/heldout.json is the one registry of verdicts: per verdict its development seeds (or
subjects), its evaluation seeds, the command that evaluates it and the result file that
command writes (docs/methods.md, Held-out protocol).

    heldout.py seeds VERDICT development|evaluation|ci|training [--csv]
        the seeds, space-separated (comma-separated with --csv), for make; `ci` and
        `training` name subsets of the development seeds (a smoke test's, a tuning's)
    heldout.py evaluate VERDICT [--dry-run]
        refuses (one line, exit 2) unless `git status --porcelain` is empty for the code
        (CODE_PATHS); runs the verdict's command on its evaluation seeds only; appends one
        row to evidence/ledger.csv: verdict, seeds, commit, date (UTC), result file and its
        SHA-256. --dry-run checks the tree and prints the command and the row without
        running or appending anything.
    heldout.py --self-test
        in a temporary git repository, with a fake verdict: the refusal on a dirty tree
        (of the script and of `make evaluate`), the ledger rows, the evidence and heldout doc blocks, and that development and evaluation seeds never overlap in the
        registry; one `Test Case` line per check

--registry and --ledger (relative to --root) point elsewhere, for tests. Standard
library only.
"""
import argparse
import csv
import datetime
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

REGISTRY = "mk/heldout.json"
LEDGER = "evidence/ledger.csv"
LEDGER_HEADER = ["verdict", "seeds", "commit", "date", "result", "sha256"]
# What makes a result: the code and the build. A change anywhere here must be committed
# before an evaluation runs, so that the commit in the ledger is the code that ran.
CODE_PATHS = ["Sources", "scripts", "mk", "Makefile", "Package.swift"]


class Refused(Exception):
    pass


def load(root, registry=REGISTRY):
    with open(os.path.join(root, registry), encoding="utf-8") as f:
        return json.load(f)["verdicts"]


def verdict(verdicts, name):
    if name not in verdicts:
        raise Refused(f"unknown verdict '{name}' (known: {', '.join(sorted(verdicts))})")
    return verdicts[name]


def git(root, *args):
    return subprocess.run(["git", *args], cwd=root, check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True).stdout


def dirty(root):
    """The porcelain lines of uncommitted changes to the code, empty when clean."""
    return git(root, "status", "--porcelain", "--", *CODE_PATHS).strip()


def command(spec, seeds):
    words = {"seeds": " ".join(map(str, seeds)), "seeds_csv": ",".join(map(str, seeds))}
    return [arg.format(**words) for arg in spec["evaluate"]]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def ledger_row(name, seeds, commit, date, result, digest):
    return {"verdict": name, "seeds": " ".join(map(str, seeds)), "commit": commit,
            "date": date, "result": result, "sha256": digest}


def append(path, row):
    new = not os.path.exists(path) or os.path.getsize(path) == 0
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "a", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=LEDGER_HEADER, lineterminator="\n")
        if new:
            w.writeheader()
        w.writerow(row)


def read_ledger(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def evaluate(root, name, registry=REGISTRY, ledger=LEDGER, dry_run=False, out=sys.stdout):
    spec = verdict(load(root, registry), name)
    if not spec.get("evaluate") or not spec.get("evaluation"):
        raise Refused(f"verdict '{name}' has no evaluation wired ({spec.get('note', '')})")
    changes = dirty(root)
    if changes:
        raise Refused(f"uncommitted changes to {' '.join(CODE_PATHS)} ({len(changes.splitlines())} "
                      f"paths, e.g. {changes.splitlines()[0].strip()}): commit them first")
    commit = git(root, "rev-parse", "HEAD").strip()
    seeds = spec["evaluation"]
    argv = command(spec, seeds)
    if dry_run:
        print("evaluate: would run: " + " ".join(argv), file=out)
        print("evaluate: would append: " + ",".join(ledger_row(name, seeds, commit, "DATE", spec["result"], "SHA256").values()),
              file=out)
        return None
    subprocess.run(argv, cwd=root, check=True)
    if dirty(root) != changes:
        raise Refused(f"the evaluation of '{name}' changed the code; nothing recorded")
    result = os.path.join(root, spec["result"])
    if not os.path.isfile(result):
        raise Refused(f"the evaluation of '{name}' wrote no {spec['result']}; nothing recorded")
    row = ledger_row(name, seeds, commit, datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                     spec["result"], sha256(result))
    append(os.path.join(root, ledger), row)
    print(f"evaluate: {name} on {row['seeds']} at {commit[:12]}: {spec['result']} recorded in {ledger}", file=out)
    return row


# ---- self-test ------------------------------------------------------------------------

def self_test(here_root):
    results = []

    def check(name, ok, detail=""):
        results.append(ok)
        print(f"Test Case 'heldout.{name}' {'passed' if ok else 'failed'}")
        if not ok and detail:
            print(detail)

    # The real registry: every verdict declares both lists, and they never overlap.
    verdicts = load(here_root)
    for name in ["alarms", "effect_robustness", "pacer", "dj", "stress_tuning"]:
        spec = verdicts.get(name, {})
        dev, ev = set(map(str, spec.get("development", []))), set(map(str, spec.get("evaluation", [])))
        ci = set(map(str, spec.get("ci", [])))
        training = set(map(str, spec.get("training", [])))
        check(f"registry.{name}", "development" in spec and "evaluation" in spec and not dev & ev and ci <= dev
              and training <= dev,
              f"{name}: development {sorted(dev)}, evaluation {sorted(ev)}, ci {sorted(ci)}, training {sorted(training)}")

    with tempfile.TemporaryDirectory(prefix="heldout-test.") as tmp:
        os.makedirs(os.path.join(tmp, "scripts", "lib"))
        os.makedirs(os.path.join(tmp, "mk"))
        shutil.copy(os.path.abspath(__file__), os.path.join(tmp, "scripts", "lib", "heldout.py"))
        with open(os.path.join(tmp, "mk", "heldout.json"), "w") as f:
            json.dump({"verdicts": {"fake": {
                "unit": "seed", "development": [1], "evaluation": [7, 8],
                "evaluate": [sys.executable, "-c",
                             "import sys; open('out/result.txt', 'w').write('seeds ' + sys.argv[1] + '\\n')", "{seeds_csv}"],
                "result": "out/result.txt"}}}, f)
        os.makedirs(os.path.join(tmp, "out"))
        # `make evaluate` as the project has it: mk/heldout.mk under a Makefile that includes it.
        shutil.copy(os.path.join(here_root, "mk", "heldout.mk"), os.path.join(tmp, "mk", "heldout.mk"))
        with open(os.path.join(tmp, "Makefile"), "w") as f:
            f.write("include mk/heldout.mk\n")
        env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
                   GIT_COMMITTER_EMAIL="t@t")
        for args in (["init", "-q"], ["add", "scripts", "mk", "Makefile"], ["commit", "-q", "-m", "fixture"]):
            subprocess.run(["git", *args], cwd=tmp, check=True, env=env, stdout=subprocess.DEVNULL)
        script = [sys.executable, os.path.join(tmp, "scripts", "lib", "heldout.py"), "--root", tmp]

        # Dirty code: a one-line refusal, exit 2, nothing run, no ledger.
        with open(os.path.join(tmp, "scripts", "lib", "heldout.py"), "a") as f:
            f.write("# changed\n")
        p = subprocess.run(script + ["evaluate", "fake"], capture_output=True, text=True)
        check("evaluate_refuses_dirty_tree",
              p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "commit them first" in p.stderr
              and not os.path.exists(os.path.join(tmp, "out", "result.txt")) and not os.path.exists(os.path.join(tmp, LEDGER)),
              f"exit {p.returncode}, stderr {p.stderr!r}")
        p = subprocess.run(["make", "--no-print-directory", "evaluate", "VERDICT=fake"], cwd=tmp, capture_output=True, text=True)
        refusal = [l for l in p.stderr.splitlines() if l.startswith("evaluate:")]
        check("make_evaluate_refuses_dirty_tree",
              p.returncode != 0 and len(refusal) == 1 and "commit them first" in refusal[0]
              and not os.path.exists(os.path.join(tmp, "out", "result.txt")), f"exit {p.returncode}, stderr {p.stderr!r}")
        subprocess.run(["git", "checkout", "-q", "--", "scripts"], cwd=tmp, check=True)

        # An untracked file under mk/ counts as a change too.
        open(os.path.join(tmp, "mk", "new.mk"), "w").close()
        p = subprocess.run(script + ["evaluate", "fake", "--dry-run"], capture_output=True, text=True)
        check("evaluate_refuses_untracked_code", p.returncode == 2, f"exit {p.returncode}, stderr {p.stderr!r}")
        os.remove(os.path.join(tmp, "mk", "new.mk"))

        # Dry run on a clean tree: prints, runs nothing.
        p = subprocess.run(script + ["evaluate", "fake", "--dry-run"], capture_output=True, text=True)
        check("evaluate_dry_run", p.returncode == 0 and "would run" in p.stdout
              and not os.path.exists(os.path.join(tmp, "out", "result.txt")), f"exit {p.returncode}: {p.stderr}")

        # Clean tree: runs on the evaluation seeds only and appends one row per run; the
        # second run after a commit that changes the evaluation seeds to 9.
        heads, digests = [], []
        for seeds in ([7, 8], [9]):
            if seeds == [9]:
                path = os.path.join(tmp, "mk", "heldout.json")
                with open(path) as f:
                    registry = json.load(f)
                registry["verdicts"]["fake"]["evaluation"] = seeds
                with open(path, "w") as f:
                    json.dump(registry, f)
                subprocess.run(["git", "commit", "-q", "-am", "seeds"], cwd=tmp, check=True, env=env)
            heads.append(git(tmp, "rev-parse", "HEAD").strip())
            digests.append(hashlib.sha256(("seeds " + ",".join(map(str, seeds)) + "\n").encode()).hexdigest())
            p = subprocess.run(script + ["evaluate", "fake"], capture_output=True, text=True)
        rows = read_ledger(os.path.join(tmp, LEDGER))
        header = ""
        if os.path.exists(os.path.join(tmp, LEDGER)):
            with open(os.path.join(tmp, LEDGER)) as f:
                header = f.readline().strip()
        ok = (p.returncode == 0 and header == ",".join(LEDGER_HEADER) and len(rows) == 2
              and [r["seeds"] for r in rows] == ["7 8", "9"] and [r["commit"] for r in rows] == heads
              and [r["sha256"] for r in rows] == digests
              and all(r["verdict"] == "fake" and r["result"] == "out/result.txt"
                      and len(r["date"]) == 20 and r["date"].endswith("Z") for r in rows))
        check("evaluate_appends_ledger_row", ok, f"exit {p.returncode} {p.stderr}; header {header!r}; rows {rows}")

        # The docs' blocks, rendered by docs_blocks.py as `make docs-blocks` runs it: the
        # evidence block shows the latest row, the heldout block the latest result's table,
        # and only while the result is the file the ledger recorded.
        with open(os.path.join(tmp, "out", "result.md"), "w", encoding="utf-8") as f:
            f.write("| seed | value |\n|---|---|\n| 9 | 1 |\n")
        page = os.path.join(tmp, "README.md")
        with open(page, "w", encoding="utf-8") as f:
            f.write("".join(f"<!-- BEGIN generated {k}:fake -->\n<!-- END generated {k}:fake -->\n"
                            for k in ("evidence", "heldout")))
        docs_blocks = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "docs_blocks.py"),
                       "--root", tmp, "--bin", "none"]
        p = subprocess.run(docs_blocks + ["--write"], capture_output=True, text=True)
        with open(page, encoding="utf-8") as f:
            lines = f.read().split("\n")
        check("evidence_block_latest_row",
              p.returncode == 0
              and any(heads[1][:12] in l and "seeds 9," in l and digests[1][:12] in l and "2 recorded" in l for l in lines)
              and "- evaluation seeds: 9" in lines and "- development seeds: 1" in lines, p.stderr + "\n".join(lines))
        check("heldout_block_table", "| seed | value |\n|---|---|\n| 9 | 1 |" in "\n".join(lines), "\n".join(lines))
        with open(os.path.join(tmp, "out", "result.txt"), "a", encoding="utf-8") as f:
            f.write("changed after the run\n")
        p = subprocess.run(docs_blocks + ["--check"], capture_output=True, text=True)
        check("heldout_block_refuses_a_changed_result",
              p.returncode == 1 and "not the file the ledger row" in p.stdout, p.stdout + p.stderr)
    return 0 if all(results) else 1


def main():
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=here)
    ap.add_argument("--registry", default=REGISTRY)
    ap.add_argument("--ledger", default=LEDGER)
    ap.add_argument("--self-test", action="store_true")
    sub = ap.add_subparsers(dest="cmd")
    s = sub.add_parser("seeds")
    s.add_argument("verdict")
    s.add_argument("which", choices=["development", "evaluation", "ci", "training"])
    s.add_argument("--csv", action="store_true")
    e = sub.add_parser("evaluate")
    e.add_argument("verdict")
    e.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    try:
        if args.self_test:
            return self_test(root)
        if args.cmd == "seeds":
            seeds = verdict(load(root, args.registry), args.verdict).get(args.which, [])
            print(("," if args.csv else " ").join(map(str, seeds)))
            return 0
        if args.cmd == "evaluate":
            evaluate(root, args.verdict, args.registry, args.ledger, args.dry_run)
            return 0
        ap.error("a command: seeds, evaluate or --self-test")
    except Refused as e:
        print(f"evaluate: {e}", file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as e:
        print(f"evaluate: {' '.join(map(str, e.cmd))} failed with exit {e.returncode}; nothing recorded", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
