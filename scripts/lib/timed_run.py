"""One timed run of a command under /usr/bin/time -v, shared by the benchmarks."""
import collections
import os
import re
import shutil
import subprocess
import sys
import time

Run = collections.namedtuple("Run", "wall cpu rss_mb stdout")


def measure(cmd):
    """Wall seconds, CPU seconds (user + system), peak RSS in MB and stdout of `cmd`;
    exits with the command's stderr when it fails."""
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit("bench: %s failed:\n%s" % (" ".join(cmd), p.stderr[-2000:]))
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1))
    cpu = sum(float(re.search(r"%s time \(seconds\): ([0-9.]+)" % k, p.stderr).group(1)) for k in ("User", "System"))
    return Run(wall, cpu, rss_kb / 1024, p.stdout)


Comparison = collections.namedtuple("Comparison", "mb load ours peer rows peer_rows")


def import_against_peer(resonance, python, data, work, peer):
    """`resonance import DATA` into a fresh workspace WORK/ws, then the Python `peer`
    script on DATA (it prints the heart-rate rows it found): the input's size in MB,
    the load average before the runs, both runs, hr.csv's rows and the peer's count."""
    mb = os.path.getsize(data) / 1e6
    ws = os.path.join(work, "ws")
    shutil.rmtree(ws, ignore_errors=True)  # each run imports into a new workspace
    load = os.getloadavg()[0]
    ours = measure([resonance, "import", data, "--out", ws, "--quiet"])
    peer_run = measure([python, "-c", peer, data])
    with open(os.path.join(ws, "hr.csv"), "rb") as a:
        rows = sum(1 for _ in a) - 1
    return Comparison(mb, load, ours, peer_run, rows, int(peer_run.stdout.strip()))


def print_comparison(c, title, data, peer_label):
    """The header line and one line per run of `import_against_peer`'s comparison `c`:
    wall and CPU seconds, MB/s and peak RSS. CPU seconds (user + system, all threads)
    show the work done when the machine is shared."""
    print("%s: %s, %.1f MB (load average %.1f on %d cores before the runs)" % (title, data, c.mb, c.load, os.cpu_count() or 1))
    row = "  %-22s %7.2f s wall  %6.1f MB/s  %7.2f s CPU  peak RSS %7.1f MB"
    print(row % ("resonance import:", c.ours.wall, c.mb / c.ours.wall, c.ours.cpu, c.ours.rss_mb))
    print(row % (peer_label + ":", c.peer.wall, c.mb / c.peer.wall, c.peer.cpu, c.peer.rss_mb))
