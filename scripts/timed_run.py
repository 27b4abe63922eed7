"""One timed run of a command under /usr/bin/time -v, shared by the benchmarks."""
import collections
import re
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
