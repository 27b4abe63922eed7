#!/usr/bin/env python3
"""Checks the generators of the docs' measured tables (`make evidence-check`, in `make test`).

    evidence_check.py --make MAKE --compare TARGET... [--smoke "'TARGET VAR=VALUE...' ..."]
                      [--all TARGET...] [--elsewhere TARGET...]

--compare: the targets run in one make, with MEASURED and EVIDENCE_WORK in a temporary
folder; each writes the fragment named after it (`evidence-a-b` → a_b.md), which must
equal evidence/measured/a_b.md byte for byte: one `Test Case 'evidence.a_b' passed` (or
failed, with a unified diff) line per fragment.
--smoke: slow targets, each quoted with the variables that make it small, each run alone
into a temporary folder; one passes when make succeeds and its fragment is written:
`Test Case 'evidence.a_b.small' passed|failed`.
--all / --elsewhere: every target of EVIDENCE_TARGETS must be compared, smoke-tested or
named as checked by another stage; `Test Case 'evidence.unchecked.TARGET' failed` if not.
Exits 1 on any failure. Standard library only.
"""
import argparse
import difflib
import os
import shlex
import subprocess
import sys
import tempfile

MEASURED = os.path.join("evidence", "measured")


def fragment_name(target):
    if not target.startswith("evidence-"):
        raise SystemExit(f"evidence_check: {target}: a measuring target is named evidence-NAME")
    return target[len("evidence-"):].replace("-", "_")


def report(name, ok, detail=""):
    print(f"Test Case 'evidence.{name}' {'passed' if ok else 'failed'}")
    if detail and not ok:
        print(detail.rstrip("\n"))


def run_make(make, targets, folder, variables=()):
    """make TARGETS with the fragments and work files in `folder`; (ok, its output)."""
    args = shlex.split(make) + ["--no-print-directory", "-k", *targets, f"MEASURED={folder}/measured",
                                f"EVIDENCE_WORK={folder}/work", *variables]
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return done.returncode == 0, done.stdout


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--make", default="make", help="the make command (default: %(default)s)")
    parser.add_argument("--compare", nargs="*", default=[], metavar="TARGET")
    parser.add_argument("--smoke", default="", metavar="\"'TARGET VAR=VALUE...' ...\"",
                        help="slow targets at a small size, each quoted with its variables")
    parser.add_argument("--all", nargs="*", default=[], metavar="TARGET", help="EVIDENCE_TARGETS")
    parser.add_argument("--elsewhere", nargs="*", default=[], metavar="TARGET",
                        help="targets whose generator another stage runs at a small size")
    args = parser.parse_args()
    smokes = [shlex.split(s) for s in shlex.split(args.smoke)]
    failed = 0

    checked = set(args.compare) | {s[0] for s in smokes} | set(args.elsewhere)
    for target in args.all:
        if target not in checked:
            failed += 1
            report(f"unchecked.{target}", False, f"{target}: in EVIDENCE_TARGETS, but neither compared "
                                                 "(EVIDENCE_CHECK) nor run small (EVIDENCE_SMOKE)")

    with tempfile.TemporaryDirectory(prefix="evidence-check.") as tmp:
        if args.compare:
            ok, output = run_make(args.make, args.compare, os.path.join(tmp, "compare"))
            for target in args.compare:
                name = fragment_name(target)
                written = os.path.join(tmp, "compare", "measured", name + ".md")
                committed = os.path.join(MEASURED, name + ".md")
                if not os.path.exists(written):
                    failed += 1
                    report(name, False, f"{target} wrote no {name}.md:\n{output}")
                    continue
                have = read(committed) if os.path.exists(committed) else ""
                want = read(written)
                if have != want:
                    failed += 1
                    diff = difflib.unified_diff(have.splitlines(True), want.splitlines(True),
                                                f"{committed} (committed)", f"{committed} (as {target} writes it)")
                    report(name, False, "".join(diff) + f"(run `make {target}` and commit the fragment, "
                                                        "then `make docs-blocks`)")
                else:
                    report(name, True)
            if not ok:
                failed += 1
                report("make", False, output)
        for i, (target, *variables) in enumerate(smokes):
            name = fragment_name(target)
            folder = os.path.join(tmp, f"smoke-{i}")
            ok, output = run_make(args.make, [target], folder, variables)
            written = os.path.exists(os.path.join(folder, "measured", name + ".md"))
            if not (ok and written):
                failed += 1
            report(f"{name}.small", ok and written, output + ("" if written else f"\n{target} wrote no {name}.md"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
