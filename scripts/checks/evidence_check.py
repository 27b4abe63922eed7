#!/usr/bin/env python3
"""Checks the generators of the docs' measured tables (`make evidence-check`, in `make test`).

    evidence_check.py --make MAKE --table mk/evidence.tsv --test-targets TARGET...

Each line of the table names a measuring target and how it is checked:
- compare: the targets run in one make, with MEASURED and EVIDENCE_WORK in a temporary
  folder; each writes the fragment named after it (`evidence-a-b` → a_b.md), which must
  equal evidence/measured/a_b.md byte for byte: one `Test Case 'evidence.a_b' passed` (or
  failed, with a unified diff) line per fragment;
- small: the target runs alone into a temporary folder with the table's make variables,
  which make it small; it passes when make succeeds and its fragment is written:
  `Test Case 'evidence.a_b.small' passed|failed`;
- elsewhere: the named test target (one of --test-targets, those `make test` runs) runs
  the generator small: `Test Case 'evidence.a_b.elsewhere' failed` if it is not one.
A malformed line fails as `evidence.table`. Exits 1 on any failure. Standard library only.
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


def read_table(path):
    """(target, check, arguments) per line of the table; a malformed line raises SystemExit."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            target, check, *rest = line.split("\t") + [""]
            arguments = rest[0]
            fragment_name(target)
            needs_arguments = {"compare": False, "small": None, "elsewhere": True}.get(check, "unknown")
            if needs_arguments == "unknown" or needs_arguments is not None and needs_arguments != bool(arguments.strip()):
                raise SystemExit(f"{path}:{number}: expected TARGET<tab>compare|small|elsewhere[<tab>...], got {line!r}")
            rows.append((target, check, arguments))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--make", default="make", help="the make command (default: %(default)s)")
    parser.add_argument("--table", default="mk/evidence.tsv", help="the measuring targets (default: %(default)s)")
    parser.add_argument("--test-targets", nargs="*", default=[], metavar="TARGET",
                        help="the targets `make test` runs (TEST_EXTRA_TARGETS)")
    args = parser.parse_args()
    rows = read_table(args.table)
    compare = [t for t, check, _ in rows if check == "compare"]
    smokes = [[t, *shlex.split(a)] for t, check, a in rows if check == "small"]
    failed = 0

    for target, check, elsewhere in rows:
        if check == "elsewhere":
            ok = elsewhere in args.test_targets
            failed += not ok
            report(f"{fragment_name(target)}.elsewhere", ok,
                   f"{target}: checked by {elsewhere}, which `make test` does not run")

    with tempfile.TemporaryDirectory(prefix="evidence-check.") as tmp:
        if compare:
            ok, output = run_make(args.make, compare, os.path.join(tmp, "compare"))
            for target in compare:
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
