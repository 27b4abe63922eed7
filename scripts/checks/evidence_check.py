#!/usr/bin/env python3
"""Checks the generators of the docs' measured tables (`make evidence-check`, in `make test`).

    evidence_check.py --make MAKE --table mk/evidence.tsv --test-targets TARGET...
    evidence_check.py --make MAKE --table mk/evidence.tsv --update-small
    evidence_check.py --fragment NAME FILE [--update-small]

Each line of the table names a measuring target and how it is checked:
- compare: the targets run in one make, with MEASURED and EVIDENCE_WORK in a folder of
  --work; each writes the fragment named after it (`evidence-a-b` → a_b.md), which must
  equal evidence/measured/a_b.md byte for byte: one `Test Case 'evidence.a_b' passed` (or
  failed, with a unified diff) line per fragment;
- small: the target runs alone, into the folder --work/small/a_b (the same path on every
  run, so that a path the fragment names is the same too), with the table's make
  variables, which make it small; its fragment must equal the committed small fragment
  evidence/measured/small/a_b.md byte for byte: `Test Case 'evidence.a_b.small'
  passed|failed` (with a unified diff). --update-small runs only these and writes their
  fragments there instead (`make evidence-small`);
- elsewhere: the named test target (one of --test-targets, those `make test` runs) runs
  the generator small: `Test Case 'evidence.a_b.elsewhere' failed` if it is not one.
  That target compares what it wrote with its small fragment through --fragment: FILE
  against evidence/measured/small/NAME.md, `Test Case 'evidence.NAME.small'`, or with
  --update-small FILE copied there (--update-small runs the target with
  EVIDENCE_SMALL=--update-small, which its recipe passes on).
A malformed line fails as `evidence.table`. Exits 1 on any failure. Standard library only.
"""
import argparse
import difflib
import os
import shlex
import subprocess
import shutil
import sys

MEASURED = os.path.join("evidence", "measured")
# The fragments of the small runs, which only this check reads (no doc block includes them).
SMALL = os.path.join(MEASURED, "small")


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


def compare_fragment(name, committed, written, target, output, remedy):
    """One Test Case line: the fragment `written` against the committed one; True if equal."""
    if not os.path.exists(written):
        report(name, False, f"{target} wrote no {os.path.basename(written)}:\n{output}")
        return False
    have = read(committed) if os.path.exists(committed) else ""
    want = read(written)
    if have != want:
        diff = difflib.unified_diff(have.splitlines(True), want.splitlines(True),
                                    f"{committed} (committed)", f"{committed} (as {target} writes it)")
        report(name, False, "".join(diff) + f"({remedy})")
        return False
    report(name, True)
    return True


def check_compare(make, targets, folder):
    """The compare targets in one make; the number of failures."""
    ok, output = run_make(make, targets, folder)
    failed = 0
    for target in targets:
        name = fragment_name(target)
        failed += not compare_fragment(name, os.path.join(MEASURED, name + ".md"),
                                       os.path.join(folder, "measured", name + ".md"), target, output,
                                       f"run `make {target}` and commit the fragment, then `make docs-blocks`")
    if not ok:
        failed += 1
        report("make", False, output)
    return failed


def run_small(make, target, variables, work):
    """The target run small into its own folder, emptied first; (its fragment, make's output)."""
    name = fragment_name(target)
    folder = os.path.join(work, "small", name)
    shutil.rmtree(folder, ignore_errors=True)
    ok, output = run_make(make, [target], folder, variables)
    written = os.path.join(folder, "measured", name + ".md")
    if not ok and os.path.exists(written):
        os.remove(written)
    return written, output


def check_small(make, target, variables, work):
    """One small run against its committed small fragment; True if equal."""
    name = fragment_name(target)
    written, output = run_small(make, target, variables, work)
    return compare_fragment(f"{name}.small", os.path.join(SMALL, name + ".md"), written, target, output,
                            "run `make evidence-small` and commit the small fragment")


def update_small(make, target, variables, work):
    """The small run's fragment copied over the committed one; True if it was written."""
    name = fragment_name(target)
    written, output = run_small(make, target, variables, work)
    if not os.path.exists(written):
        print(f"evidence_check: {target} wrote no {name}.md:\n{output}", file=sys.stderr)
        return False
    return keep_small(name, written)


def update_elsewhere(make, target, work):
    """The test target run so that it writes its small fragment; True if it succeeded."""
    ok, output = run_make(make, [target], os.path.join(work, "elsewhere"), ["EVIDENCE_SMALL=--update-small"])
    print("\n".join(line for line in output.splitlines() if line.startswith("evidence_check: wrote"))
          if ok else f"evidence_check: {target} failed:\n{output}")
    return ok


def keep_small(name, written):
    """`written` copied over the committed small fragment NAME.md."""
    os.makedirs(SMALL, exist_ok=True)
    shutil.copyfile(written, os.path.join(SMALL, name + ".md"))
    print(f"evidence_check: wrote {os.path.join(SMALL, name + '.md')}")
    return True


def fragment(name, written, update):
    """--fragment: a test target's small output against (or, updating, into) its small fragment."""
    if update:
        if not os.path.exists(written):
            print(f"evidence_check: no {written} to keep as {name}.md", file=sys.stderr)
            return False
        return keep_small(name, written)
    return compare_fragment(f"{name}.small", os.path.join(SMALL, name + ".md"), written, "its test target", "",
                            "run `make evidence-small` and commit the small fragment")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--make", default="make", help="the make command (default: %(default)s)")
    parser.add_argument("--table", default="mk/evidence.tsv", help="the measuring targets (default: %(default)s)")
    parser.add_argument("--test-targets", nargs="*", default=[], metavar="TARGET",
                        help="the targets `make test` runs (TEST_EXTRA_TARGETS)")
    parser.add_argument("--work", default=os.path.join("build", "evidence-check"),
                        help="where the runs write, emptied per run (default: %(default)s)")
    parser.add_argument("--update-small", action="store_true",
                        help=f"write the small runs' fragments into {SMALL} instead of checking anything")
    parser.add_argument("--fragment", nargs=2, metavar=("NAME", "FILE"),
                        help=f"only compare FILE with {SMALL}/NAME.md (or, with --update-small, write it there)")
    args = parser.parse_args()
    if args.fragment:
        return 0 if fragment(*args.fragment, args.update_small) else 1
    rows = read_table(args.table)
    compare = [t for t, check, _ in rows if check == "compare"]
    smalls = [(t, shlex.split(a)) for t, check, a in rows if check == "small"]
    if args.update_small:
        elsewhere = [a.strip() for _, check, a in rows if check == "elsewhere"]
        ok = [update_small(args.make, t, v, args.work) for t, v in smalls]
        ok += [update_elsewhere(args.make, t, args.work) for t in elsewhere]
        return 0 if all(ok) else 1

    failed = 0
    for target, check, elsewhere in rows:
        if check == "elsewhere":
            ok = elsewhere in args.test_targets
            failed += not ok
            report(f"{fragment_name(target)}.elsewhere", ok,
                   f"{target}: checked by {elsewhere}, which `make test` does not run")
    if compare:
        folder = os.path.join(args.work, "compare")
        shutil.rmtree(folder, ignore_errors=True)
        failed += check_compare(args.make, compare, folder)
    for target, variables in smalls:
        failed += not check_small(args.make, target, variables, args.work)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
