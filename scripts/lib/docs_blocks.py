#!/usr/bin/env python3
"""Generated blocks in the project's Markdown: README.md and docs/**/*.md.

A block is the text between two marker lines,

    <!-- BEGIN generated KIND:NAME -->
    ...
    <!-- END generated KIND:NAME -->

and its content is whatever the generator of KIND makes for NAME; nothing between the
markers is written by hand. Markers inside a fenced code block are examples and are left
alone. Kinds:

    constants:ENGINE   the engine's constants table, from `resonance constants show`
                       (`--bin`): a `Version X.` line and one row per constant, by name
    evidence:VERDICT   the verdict's development and evaluation seeds from the held-out
                       registry (mk/heldout.json) and its latest evaluation in the
                       ledger (evidence/ledger.csv): seeds, commit, date, result file
                       and digest, or that none is recorded yet
    heldout:VERDICT    the table of the verdict's latest evaluation run: the ledger row's
                       result file when it is Markdown, else the .md beside it, after
                       checking that the result file still has the SHA-256 the ledger
                       recorded (so the docs show exactly what that run wrote)
    measured:NAME      a table of measured numbers: the Markdown fragment
                       evidence/measured/NAME.md, which the make target that measures it
                       writes (`make evidence` runs every such target; mk/evidence.mk); a
                       fragment no block includes is an error, so none goes stale unseen

A new kind is one function taking (name, Context) and returning the block's lines,
entered in GENERATORS.

    docs_blocks.py --write   rewrites every block in place (atomically; a file whose
                             blocks are current is not touched, so reruns change nothing)
    docs_blocks.py --check   changes nothing; prints one line per block,
                             `Test Case 'docs_blocks.FILE:KIND:NAME' passed` (or failed,
                             with a unified diff), and exits 1 on any failure, unknown
                             kind or unbalanced marker

Standard library only.
"""
import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile

import heldout  # scripts/lib/heldout.py: the held-out registry and ledger, read one way

MARKER = re.compile(r"^<!-- (BEGIN|END) generated ([a-z_]+):([A-Za-z0-9_.-]+) -->$")
# A line that looks like a marker but does not parse is an error, never plain text.
MARKER_LIKE = re.compile(r"^\s*<!--\s*(BEGIN|END) generated\b")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


class Context:
    """What generators read: the repository root and, fetched once when first asked
    for, the registry JSON that `resonance constants show` prints."""

    def __init__(self, root, binary):
        self.root = root
        self.binary = binary
        self._constants = None

    def constants(self):
        if self._constants is None:
            out = subprocess.run([self.binary, "constants", "show"], check=True,
                                 stdout=subprocess.PIPE, cwd=self.root).stdout
            self._constants = json.loads(out)
        return self._constants


class BlockError(Exception):
    pass


def cell(value):
    """A number as the tables write it: integers without a fraction, other values in
    Python's shortest round-trip form (Swift's too)."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


def constants_block(engine, ctx):
    """The engine's `Version X.` line and its constants table (constant, default, unit,
    allowed range, source), in the order `constants show` lists them."""
    engines = ctx.constants()["engines"]
    if engine not in engines:
        raise BlockError(f"no engine '{engine}' in `resonance constants show` "
                         f"(known: {', '.join(sorted(engines))})")
    spec = engines[engine]
    lines = [f"Version {spec['version']}.", "",
             "| constant | default | unit | allowed | source |",
             "|---|---|---|---|---|"]
    for name, c in spec["constants"].items():
        source = c["source"].replace("|", "\\|")
        lines.append(f"| `{name}` | {cell(c['value'])} | {c['unit']} | "
                     f"{cell(c['min'])} – {cell(c['max'])} | {source} |")
    return lines


def evidence_block(name, ctx):
    """The verdict's seeds from the held-out registry and its latest ledger row (both
    read as scripts/lib/heldout.py reads them)."""
    try:
        spec = heldout.verdict(heldout.load(ctx.root), name)
    except heldout.Refused as e:
        raise BlockError(str(e))

    def seeds(values):
        return " ".join(map(str, values)) or "none"

    lines = [f"- development {spec.get('unit', 'seed')}s: {seeds(spec.get('development', []))}",
             f"- evaluation {spec.get('unit', 'seed')}s: {seeds(spec.get('evaluation', []))}"]
    rows = [r for r in heldout.read_ledger(os.path.join(ctx.root, heldout.LEDGER)) if r["verdict"] == name]
    if not rows:
        lines.append("- latest evaluation: none recorded yet" + ("" if spec.get("evaluate") else
                                                                  " (no evaluation wired)"))
    else:
        r = rows[-1]
        lines.append(f"- latest evaluation: {r['date']}, seeds {r['seeds']}, commit `{r['commit'][:12]}`, "
                     f"`{r['result']}` (SHA-256 `{r['sha256'][:12]}…`); {len(rows)} recorded")
    return lines


def heldout_block(name, ctx):
    """The latest evaluation's table of the verdict, as its run wrote it."""
    rows = [r for r in heldout.read_ledger(os.path.join(ctx.root, heldout.LEDGER)) if r["verdict"] == name]
    if not rows:
        raise BlockError(f"no evaluation of '{name}' in {heldout.LEDGER}")
    row = rows[-1]
    result = os.path.join(ctx.root, row["result"])
    if not os.path.exists(result) or heldout.sha256(result) != row["sha256"]:
        raise BlockError(f"{row['result']}: missing, or not the file the ledger row of {row['date']} recorded")
    table = result if result.endswith(".md") else os.path.splitext(result)[0] + ".md"
    try:
        with open(table, encoding="utf-8", newline="") as f:
            return f.read().rstrip("\n").split("\n")
    except FileNotFoundError:
        raise BlockError(f"no {os.path.relpath(table, ctx.root)} beside the ledger's result")


MEASURED = os.path.join("evidence", "measured")


def measured_block(name, ctx):
    """The fragment evidence/measured/NAME.md as its measuring target wrote it."""
    path = os.path.join(ctx.root, MEASURED, name + ".md")
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except FileNotFoundError:
        raise BlockError(f"no {MEASURED}/{name}.md (written by its target under `make evidence`)")
    return text.rstrip("\n").split("\n")


def measured_orphans(root, included):
    """The fragments in evidence/measured/ that no measured block includes."""
    folder = os.path.join(root, MEASURED)
    names = sorted(n[:-3] for n in os.listdir(folder) if n.endswith(".md")) if os.path.isdir(folder) else []
    return [n for n in names if n not in included]


# kind → generator(name, Context) → the block's lines (without the blank lines that
# separate them from the markers).
GENERATORS = {
    "constants": constants_block,
    "evidence": evidence_block,
    "heldout": heldout_block,
    "measured": measured_block,
}


def markdown_files(root):
    """README.md and every .md under docs/, in byte order of their paths."""
    files = ["README.md"] if os.path.isfile(os.path.join(root, "README.md")) else []
    for folder, dirs, names in os.walk(os.path.join(root, "docs")):
        dirs.sort()
        for name in names:
            if name.endswith(".md"):
                files.append(os.path.relpath(os.path.join(folder, name), root))
    return sorted(files)


def parse(text, path):
    """The file's blocks as (kind, name, first content line, end marker line), lines
    counted from 0, and the errors of unbalanced or malformed markers."""
    blocks, errors, open_block, fence = [], [], None, None
    for i, line in enumerate(text.split("\n")):
        # Markers inside a fenced code block are an example, not a block.
        opening = FENCE.match(line)
        if opening and (fence is None or (opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence))):
            fence = opening.group(1) if fence is None else None
            continue
        if fence is not None:
            continue
        m = MARKER.match(line)
        if not m:
            if MARKER_LIKE.match(line):
                errors.append((f"line {i + 1}", f"{path}:{i + 1}: malformed marker: {line}"))
            continue
        which, kind, name = m.groups()
        key = f"{kind}:{name}"
        if which == "BEGIN":
            if open_block:
                errors.append((open_block[0], f"{path}:{i + 1}: BEGIN {key} inside "
                                              f"{open_block[0]} (opened on line {open_block[1] + 1})"))
            open_block = (key, i)
        elif not open_block or open_block[0] != key:
            errors.append((key, f"{path}:{i + 1}: END {key} without its BEGIN"))
            open_block = None
        else:
            blocks.append((kind, name, open_block[1] + 1, i))
            open_block = None
    if open_block:
        errors.append((open_block[0], f"{path}:{open_block[1] + 1}: BEGIN {open_block[0]} without its END"))
    return blocks, errors


def render(kind, name, ctx):
    """The content lines of a block: its generated lines between two blank lines."""
    generator = GENERATORS.get(kind)
    if generator is None:
        raise BlockError(f"unknown kind '{kind}' (known: {', '.join(sorted(GENERATORS))})")
    return [""] + generator(name, ctx) + [""]


def write_atomically(path, text):
    folder = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".docs_blocks.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.chmod(tmp, os.stat(path).st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def report(name, ok, detail=""):
    print(f"Test Case 'docs_blocks.{name}' {'passed' if ok else 'failed'}")
    if detail:
        print(detail.rstrip("\n"))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite every block in place")
    mode.add_argument("--check", action="store_true", help="change nothing; one Test Case line per block")
    parser.add_argument("--bin", default=".build/release/resonance",
                        help="the resonance binary (default: %(default)s, from the repository root)")
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(here)), help="repository root")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    binary = args.bin if os.path.isabs(args.bin) else os.path.join(root, args.bin)
    ctx = Context(root, binary)

    failed, blocks_seen, included = 0, 0, set()
    for rel in markdown_files(root):
        path = os.path.join(root, rel)
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
        blocks, errors = parse(text, rel)
        for key, message in errors:
            failed += 1
            report(f"{rel}:{key}", False, message)
        if errors and args.write:
            continue  # never rewrite a file whose markers do not pair up
        lines = text.split("\n")
        out, last = [], 0
        for kind, name, start, end in blocks:
            blocks_seen += 1
            if kind == "measured":
                included.add(name)
            key = f"{rel}:{kind}:{name}"
            have = lines[start:end]
            try:
                want = render(kind, name, ctx)
            except (BlockError, subprocess.CalledProcessError, OSError) as e:
                failed += 1
                report(key, False, f"{rel}:{start}: {e}")
                out += lines[last:end]
                last = end
                continue
            out += lines[last:start] + want
            last = end
            if args.check and want != have:
                failed += 1
                diff = difflib.unified_diff([l + "\n" for l in have], [l + "\n" for l in want],
                                            f"{rel} (block {kind}:{name}, as written)",
                                            f"{rel} (block {kind}:{name}, as generated)", lineterm="\n")
                report(key, False, "".join(diff))
            elif args.check:
                report(key, True)
        out += lines[last:]
        new = "\n".join(out)
        if args.write and new != text:
            write_atomically(path, new)
            print(f"docs_blocks: rewrote {rel}", file=sys.stderr)
    for name in measured_orphans(root, included):
        failed += 1
        report(f"{MEASURED}/{name}.md", False,
               f"{MEASURED}/{name}.md: no `measured:{name}` block includes it")
    if args.write:
        print(f"docs_blocks: {blocks_seen} blocks, {failed} failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
