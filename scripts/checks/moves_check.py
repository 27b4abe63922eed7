#!/usr/bin/env python3
"""Shows that a commit only moves files: renames, and the path substitutions they need.

For every file the commit renames or edits, each changed line must read the same as the
line it replaces once the paths in both are resolved to the files they name, before the
move: a repository path (`scripts/x.py`), a Markdown link relative to its page
(`../methods.md#hrv`), and, in a file moved one folder deeper, its way up to the
repository root (`parents[1]` → `parents[2]`, `/..` → `/../..`, one `dirname` more). A page
split into pages under a folder of its name (`docs/methods.md` → `docs/methods/*.md`) must
be the concatenation of its parts, which its new index lists in order; the index itself
must keep every heading of the old page. Anything else is printed and the exit status is 1.

    python3 scripts/checks/moves_check.py [COMMIT]      (default HEAD)
"""
import argparse
import difflib
import os
import re
import subprocess
import sys

LINK = re.compile(r"\]\(([^)\s]+)\)")
REPO_PATH = re.compile(r"(?<![\w.-])(?:scripts|Sources|Tests|docs)(?:/[\w.-]*\w)+")
# A root-relative way up in a file moved one folder deeper, written deeper → as before.
DEEPER = [("parents[2]", "parents[1]"), (".parent.parent.parent", ".parent.parent"),
          ('"$0")/../..', '"$0")/..'), ("dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))",
           "dirname(os.path.dirname(os.path.abspath(__file__)))"),
          ("os.path.dirname(os.path.dirname(here))", "os.path.dirname(here)"),
          ('"scripts", "lib"', '"scripts"')]


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def blob(commit, path):
    return git("show", f"{commit}:{path}").split("\n")


def headings(lines):
    out = []
    for line in lines:
        m = re.match(r"^(#{1,6}) (.*)$", line)
        if m:
            out.append(m.group(0))
    return out


class Moves:
    def __init__(self, commit):
        self.commit = commit
        self.renamed = {}   # new path → old path
        self.edited = []
        self.added = []
        for line in git("diff", "--name-status", "-M50%", f"{commit}^", commit).splitlines():
            status, *paths = line.split("\t")
            if status.startswith("R"):
                self.renamed[paths[1]] = paths[0]
            elif status == "M":
                self.edited.append(paths[0])
            else:
                self.added.append((status, paths[0]))
        # Folders: a new folder whose files all came from one old folder names that folder.
        self.folders = {}
        for new, old in self.renamed.items():
            self.folders.setdefault(os.path.dirname(new), set()).add(os.path.dirname(old))
        self.folders = {n: o.pop() for n, o in self.folders.items() if len(o) == 1}
        self.split = {}     # new page → the old page it is part of

    def old_path(self, path):
        if path in self.renamed:
            return self.renamed[path]
        if path in self.split:
            return self.split[path]
        if path in self.folders:
            return self.folders[path]
        return path

    def canon(self, line, path, page=None):
        """The line with every path it holds resolved to the file it names before the move."""
        base = os.path.dirname(page or path)

        def link(m):
            target = m.group(1)
            if re.match(r"^[a-z]+:", target):
                return m.group(0)
            p, _, anchor = target.partition("#")
            resolved = (page or path) if p == "" else os.path.normpath(os.path.join(base, p))
            return "](@" + self.old_path(resolved) + ("#" + anchor if anchor else "") + ")"
        if path.endswith(".md"):
            line = LINK.sub(link, line)
        line = REPO_PATH.sub(lambda m: self.old_path(m.group(0)), line)
        short = re.compile(r"(?<![\w/])(Daily|Registry)/(\w+\.swift)")
        line = short.sub(lambda m: os.path.basename(os.path.dirname(self.old_path(
            f"Sources/ResonanceLab/{m.group(1)}/{m.group(2)}"))) + "/" + m.group(2), line)
        return line


def compare(moves, old_lines, old_path, new_lines, new_path, problems, pages=None):
    deeper = new_path.count("/") - old_path.count("/") == 1
    old_c = [moves.canon(l, old_path) for l in old_lines]
    new_c = []
    for i, l in enumerate(new_lines):
        c = moves.canon(l, new_path, page=pages[i] if pages else None)
        if deeper:
            for after, before in DEEPER:
                c = c.replace(after, before)
        new_c.append(c)
    substituted = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old_c, new_c, autojunk=False).get_opcodes():
        if tag == "equal":
            substituted += sum(old_lines[i1 + k] != new_lines[j1 + k] for k in range(i2 - i1))
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            o = old_lines[i1 + k] if i1 + k < i2 else "(none)"
            n = new_lines[j1 + k] if j1 + k < j2 else "(none)"
            problems.append(f"{new_path}: - {o}\n{' ' * len(new_path)}  + {n}")
    return substituted


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("commit", nargs="?", default="HEAD")
    commit = ap.parse_args().commit
    moves = Moves(commit)
    problems, substituted = [], 0
    split_index = [p for s, p in moves.added if s == "A" and p.endswith(".md")]
    for page in split_index:
        folder = os.path.dirname(page)
        if folder + ".md" in moves.edited:
            moves.split[page] = folder + ".md"
    for old_page in sorted({v for v in moves.split.values()}):
        index = blob(commit, old_page)
        parts = []
        for line in index:
            m = re.match(r"^- \[[^]]*\]\(([^)#]+)\)$", line)
            if m:
                parts.append(os.path.normpath(os.path.join(os.path.dirname(old_page), m.group(1))))
        if sorted(parts) != sorted(p for p, o in moves.split.items() if o == old_page):
            problems.append(f"{old_page}: the index lists {parts}, the commit adds "
                            f"{sorted(p for p, o in moves.split.items() if o == old_page)}")
            continue
        new_lines, pages = [], []
        for part in parts:
            lines = blob(commit, part)[:-1]
            new_lines += lines
            pages += [part] * len(lines)
        old_lines = blob(commit + "^", old_page)[:-1]
        substituted += compare(moves, old_lines, old_page, new_lines, old_page, problems, pages)
        lost = [h for h in headings(old_lines) if h not in headings(index)]
        problems += [f"{old_page}: the index lost the heading {h!r}" for h in lost]
        print(f"{old_page}: {len(old_lines)} lines = {' + '.join(os.path.basename(p) for p in parts)}; "
              f"index keeps {len(headings(old_lines))} headings")
    for status, path in moves.added:
        if path not in moves.split:
            problems.append(f"{path}: {status}, neither a rename nor a part of a split page")
    for new, old in sorted(moves.renamed.items()):
        substituted += compare(moves, blob(commit + "^", old), old, blob(commit, new), new, problems)
    for path in moves.edited:
        if path in moves.split.values():
            continue
        substituted += compare(moves, blob(commit + "^", path), path, blob(commit, path), path, problems)
    print(f"{len(moves.renamed)} files renamed, {len(moves.edited)} edited in place, "
          f"{substituted} lines with path substitutions")
    for p in problems:
        print(p)
    print("no other change" if not problems else f"{len(problems)} other changes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
