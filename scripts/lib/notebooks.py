"""Exports, executes and renders the notebooks of one report folder.

    notebooks.py --bin BIN --workspace WS --report-dir DIR [--kind validation ...]

For each kind: `resonance export-notebook` writes DIR/notebooks/<kind>.ipynb, nbclient
executes it unchanged (the project's virtualenv kernel, no timing metadata, RESONANCE_BIN
set to BIN for the figures that read raw signals), the executed notebook replaces it and
nbconvert writes DIR/notebooks/<kind>.html. The notebooks save DIR/figures/*.png (150 dpi)
and *.svg and list them in DIR/figures/figures.json, with a one-sentence note in place of
a figure they cannot draw; this script then embeds them (`![title](figures/NAME.png)`, or
the note) in the Markdown report each names, between marker comments so a rerun replaces
them. SOURCE_DATE_EPOCH defaults to 0.
Prints the wall time of each notebook.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

BEGIN, END = "<!-- figures: begin -->", "<!-- figures: end -->"


def run(bin_, workspace, report_dir, kind, timeout):
    import nbformat
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    out = report_dir / "notebooks"
    subprocess.run([bin_, "export-notebook", str(workspace), "--out", str(out), "--report-dir", str(report_dir),
                    "--kind", kind, "--quiet"], check=True)
    path = out / f"{kind}.ipynb"
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    start = time.monotonic()
    NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                   resources={"metadata": {"path": str(out)}}).execute()
    seconds = time.monotonic() - start
    nbformat.write(nb, path)
    html, _ = HTMLExporter().from_notebook_node(nb)
    (out / f"{kind}.html").write_text(html)
    print(f"notebook {report_dir.name}/{kind}: {seconds:.1f} s", flush=True)
    return seconds


def embed(report_dir):
    """Writes the figure list of figures.json into each Markdown report it names; index.md
    (persona reports) lists every figure not meant for validation.md."""
    listing = report_dir / "figures" / "figures.json"
    if not listing.exists():
        return
    figures = json.loads(listing.read_text())
    targets = {}
    for f in figures:
        targets.setdefault(f["report"], []).append(f)
        if f["report"] != "validation.md":
            targets.setdefault("index.md", []).append(f)
    for report, items in sorted(targets.items()):
        md = report_dir / report
        if not md.exists():
            continue
        text = md.read_text()
        if BEGIN in text and END in text:
            text = text[:text.index(BEGIN)].rstrip("\n") + "\n" + text[text.index(END) + len(END):].lstrip("\n")
        block = "\n".join(f"{f['note']}\n" if "note" in f else f"![{f['title']}](figures/{f['name']}.png)\n"
                          for f in items)
        text = text.rstrip("\n") + f"\n\n{BEGIN}\n## Figures\n\n{block}{END}\n"
        tmp = md.with_suffix(".md.tmp")
        tmp.write_text(text)
        tmp.replace(md)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--workspace", required=True, type=Path)
    ap.add_argument("--report-dir", required=True, type=Path)
    ap.add_argument("--kind", action="append", choices=["validation", "persona", "tuning"])
    ap.add_argument("--timeout", type=int, default=1800, help="per cell, seconds")
    args = ap.parse_args()
    os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
    os.environ["RESONANCE_BIN"] = os.path.abspath(shutil.which(args.bin) or args.bin)
    args.report_dir.mkdir(parents=True, exist_ok=True)
    total = sum(run(args.bin, args.workspace, args.report_dir, kind, args.timeout)
                for kind in args.kind or ["validation"])
    embed(args.report_dir)
    print(f"notebooks {args.report_dir.name}: {total:.1f} s", flush=True)


if __name__ == "__main__":
    sys.exit(main())
