#!/usr/bin/env python3
"""Memory and time of every stage as the data grows, and the bytes they write
(make bench-scale; docs/scaling.md).

For each workspace named, the workspace is made (generated, imported, or run), then each
stage runs as its own process under GNU time (`/usr/bin/time`: wall, user + system CPU,
maximum resident set size) with `--jobs JOBS`, and the SHA-256 of every file the stages
wrote is compared with the digests pinned in DIGESTS (`--check`) or written there
(`--record`). `--jobs-check` reruns the per-subject stages with `--jobs 1` and compares
their bytes with the `--jobs JOBS` run (on the workspaces with pinned digests).

Workspaces:
Before `breathing assess`, every subject is paced at 6 breaths a minute for 10 minutes a day
(`breathing paced`).

  personas-30     the ten personas × 30 days (`personas generate`, the defaults)
  sample          datasets/sample (`resonance import`)
  physionet       RESONANCE_DATASETS/physionet-rr (`resonance import`)
  personas-90     10 personas × 90 days
  personas-360    10 personas × 360 days (10 person-years)
  replicas-10x365 the ten personas over 10 seeds × 365 days (100 person-years)
  replicas-1000x1 the ten personas over 1,000 seeds × 1 day (10,000 subjects × 24 h)

    bench_scale.py --bin BIN --work DIR --workspaces personas-30,sample [--digests F --check|--record]
                   [--jobs 2] [--jobs-check] [--table OUT_MD]
"""
import argparse
import datetime
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

STAGES = ["hrv", "coherence", "sessions", "effects", "daily", "dj replay", "breathing assess"]
# Stages whose outputs must not depend on --jobs (every per-subject one).
PER_SUBJECT = ["hrv", "coherence", "sessions", "daily", "dj replay", "breathing assess"]


def spec(name, datasets):
    """(how to make the workspace, person-years) of a named workspace."""
    gen = ["personas", "generate"]
    table = {
        "personas-30": (gen + ["--days", "30"], 10 * 30 / 365),
        "personas-90": (gen + ["--days", "90"], 10 * 90 / 365),
        "personas-360": (gen + ["--days", "360"], 10 * 360 / 365),
        "replicas-10x365": (gen + ["--days", "365", "--replicas", "10"], 100.0),
        "replicas-1000x1": (gen + ["--days", "1", "--replicas", "1000"], 10000 / 365),
        "sample": (["import", "datasets/sample"], None),
        "physionet": (["import", str(Path(datasets) / "physionet-rr")], None),
    }
    if name not in table:
        sys.exit(f"bench_scale.py: unknown workspace '{name}' (one of {', '.join(table)})")
    return table[name]


def timed(cmd, label):
    """Runs cmd under GNU time; returns (wall s, CPU s, peak MB)."""
    fmt = "%e %U %S %M"
    out = subprocess.run(["/usr/bin/time", "-f", fmt] + cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"bench_scale.py: {label}: exit {out.returncode}\n{out.stderr[-2000:]}")
    wall, user, system, kb = out.stderr.strip().splitlines()[-1].split()
    return float(wall), float(user) + float(system), int(kb) / 1024


def paced(binary, ws):
    """breathing.csv for `breathing assess`: every subject of the manifest paced at 6 breaths a
    minute for the first 10 minutes of its recording, then 07:00-07:10 UTC on each later day."""
    with open(ws / "paced.tmp", "w") as f:
        f.write("subject,started_at,ended_at,rate_bpm,source\n")
        for s in json.loads((ws / "manifest.json").read_text())["subjects"]:
            start = datetime.datetime.fromisoformat(s["start"].replace("Z", "+00:00"))
            end = (start + datetime.timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M:%SZ")
            f.write(f"{s['subject']},{s['start']},{end},6,bench\n")
            day = start.date() + datetime.timedelta(days=1)
            last = datetime.date.fromisoformat(s["end"][:10])
            while day <= last:
                f.write(f"{s['subject']},{day}T07:00:00Z,{day}T07:10:00Z,6,bench\n")
                day += datetime.timedelta(days=1)
    subprocess.run([binary, "breathing", "paced", str(ws), "--from", str(ws / "paced.tmp"), "--quiet"], check=True)
    os.remove(ws / "paced.tmp")


def manifest_digest(path):
    """SHA-256 of manifest.json with the paced file's path made relative (it names the
    work folder, which differs between runs compared)."""
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items()}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return "paced.tmp" if isinstance(x, str) and x.endswith("/paced.tmp") else x
    text = json.dumps(strip(json.loads(path.read_text())), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def digests(ws):
    out = {"manifest.json": manifest_digest(ws / "manifest.json")}
    for p in sorted(ws.iterdir()):
        if p.is_file() and p.suffix == ".csv":
            h = hashlib.sha256()
            with open(p, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            out[p.name] = h.hexdigest()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("--workspaces", required=True, help="comma-separated names (see above)")
    ap.add_argument("--datasets", default=os.environ.get("RESONANCE_DATASETS", "../shared/datasets"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--digests", type=Path, help="pinned SHA-256 of every output, per workspace (JSON)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="fail when an output differs from --digests")
    mode.add_argument("--record", action="store_true", help="write the outputs' digests into --digests")
    ap.add_argument("--jobs-check", action="store_true", help="rerun per-subject stages with --jobs 1 and compare")
    ap.add_argument("--stages", default=",".join(STAGES))
    ap.add_argument("--table", type=Path, help="write the Markdown table here")
    a = ap.parse_args()
    binary = str(Path(a.bin).resolve())
    stages = [s for s in a.stages.split(",") if s]
    pinned = json.loads(a.digests.read_text()) if a.digests and a.digests.exists() else {}
    rows, failures = [], 0
    for name in a.workspaces.split(","):
        make, person_years = spec(name, a.datasets)
        if make[0] == "import" and not Path(make[1]).is_dir():
            print(f"bench-scale: {name}: no {make[1]} (set RESONANCE_DATASETS), skipped", file=sys.stderr)
            continue
        ws = a.work / name
        subprocess.run(["rm", "-rf", str(ws)], check=True)
        ws.parent.mkdir(parents=True, exist_ok=True)
        print(f"bench-scale: {name}: making the workspace", file=sys.stderr, flush=True)
        wall, cpu, peak = timed([binary] + make + ["--out", str(ws), "--quiet", "--jobs", str(a.jobs)], name)
        rows.append((name, " ".join(make[:2]), wall, cpu, peak, person_years))
        for stage in stages:
            if stage == "breathing assess":
                paced(binary, ws)
            print(f"bench-scale: {name}: {stage}", file=sys.stderr, flush=True)
            wall, cpu, peak = timed([binary] + stage.split() + [str(ws), "--quiet", "--jobs", str(a.jobs)], f"{name} {stage}")
            rows.append((name, stage, wall, cpu, peak, person_years))
        got = digests(ws)
        if a.jobs_check and (a.record or name in pinned):
            for stage in [s for s in stages if s in PER_SUBJECT]:
                timed([binary] + stage.split() + [str(ws), "--quiet", "--jobs", "1"], f"{name} {stage} --jobs 1")
            again = digests(ws)
            for f in sorted(set(got) | set(again)):
                if f != "manifest.json" and got.get(f) != again.get(f):
                    print(f"Test Case 'bench_scale.{name}.jobs.{f}' failed: --jobs 1 and --jobs {a.jobs} differ", flush=True)
                    failures += 1
        if a.record:
            pinned[name] = got
        elif a.check:
            want = pinned.get(name)
            if want is None:
                print(f"bench-scale: {name}: no digests pinned in {a.digests}: not compared", file=sys.stderr)
            else:
                for f in sorted(set(want) | set(got)):
                    ok = want.get(f) == got.get(f)
                    print(f"Test Case 'bench_scale.{name}.{f}' {'passed' if ok else 'failed'}", flush=True)
                    failures += 0 if ok else 1
    if a.record and a.digests:
        tmp = a.digests.with_suffix(".tmp")
        tmp.write_text(json.dumps(pinned, indent=1, sort_keys=True) + "\n")
        os.replace(tmp, a.digests)
    lines = ["| workspace | step | wall s | CPU s | peak MB | wall s per person-year |", "|---|---|---|---|---|---|"]
    for name, step, wall, cpu, peak, py in rows:
        per = f"{wall / py:.2f}" if py else ""
        lines.append(f"| {name} | {step} | {wall:.1f} | {cpu:.1f} | {peak:.0f} | {per} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if a.table:
        a.table.parent.mkdir(parents=True, exist_ok=True)
        a.table.write_text(text)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
