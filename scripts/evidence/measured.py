"""What the scripts that measure the docs' numbers share (evidence/measured/NAME.md).

A fragment is a caption line saying what was run and which make target writes it, then
Markdown tables; scripts/lib/docs_blocks.py includes it in the `measured:NAME` block.
Fragments are byte-identical between runs: numbers are formatted with fixed decimals,
rows come in a fixed order, and nothing depends on the time, the machine or a path.
Standard library only.
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile


def run(binary, *args):
    """Runs `resonance ARGS...` quietly; a failure raises with its stderr."""
    done = subprocess.run([binary, *args, "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"resonance {' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}")
    return done


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def number(text):
    """A CSV cell as a float, None when empty."""
    return float(text) if text != "" else None


def fresh_copy(source, target):
    """A copy of the workspace `source` at `target` (replacing what was there), so that a
    measurement that rewrites tables leaves the source as it was."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)
    return target


def write_constants(path, engine, values):
    """A constants file that overrides some of one engine's constants (the shape
    `resonance constants show` prints; the others keep their defaults)."""
    body = ",".join(f'"{name}":{{"value":{value}}}' for name, value in values.items())
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'{{"engines":{{"{engine}":{{"constants":{{{body}}}}}}}}}\n')
    return path


def fixed(value, digits=3):
    """A number to `digits` decimals; "–" for a missing value."""
    return "–" if value is None else f"{value:.{digits}f}"


def share(count, total, digits=1):
    """count / total as a percentage, e.g. "8.1 %"."""
    return "–" if not total else f"{100 * count / total:.{digits}f} %"


def seed_list(seeds):
    """Seeds as ranges, e.g. [0, 1, 2, 5] → "0–2, 5"."""
    parts, start = [], None
    for i, seed in enumerate(seeds):
        if start is None:
            start = seed
        if i + 1 == len(seeds) or seeds[i + 1] != seed + 1:
            parts.append(str(start) if start == seed else f"{start}–{seed}")
            start = None
    return ", ".join(parts)


def caption(text, seeds=None):
    """The caption given by the make target, `{seeds}` in it replaced by seed_list(seeds)."""
    return text if seeds is None else text.replace("{seeds}", seed_list(seeds))


def table(header, rows):
    """A Markdown table: the header's cells, then one line per row of cells."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def write_fragment(path, lines):
    """Writes the fragment atomically (a temporary file in the same folder, renamed)."""
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".measured.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write("\n".join(lines).rstrip("\n") + "\n")
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def emit(name, out, produce):
    """Writes the fragment that `produce()` returns to `out`; a failure of the measurement
    prints one line naming the script and returns 1, the exit status (0 when written)."""
    try:
        lines = produce()
    except (OSError, RuntimeError, KeyError, ValueError, StopIteration) as e:
        print(f"{name}: {e}", file=sys.stderr)
        return 1
    write_fragment(out, lines)
    return 0
