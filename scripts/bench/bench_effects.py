#!/usr/bin/env python3
"""Times `resonance sessions` and `resonance effects --model both` on a workspace:
wall time, CPU time and peak resident memory of each command (os.wait4 rusage), against the
targets of 30 s and 2 GB for both together."""
import os
import subprocess
import sys
import time

TARGET_S, TARGET_MB = 30.0, 2048.0


def run(cmd):
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench-effects: {' '.join(cmd)} failed")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0  # Linux: ru_maxrss in KiB


def main():
    binary, ws = sys.argv[1], sys.argv[2]
    total, cpu_total, peak = 0.0, 0.0, 0.0
    for name, cmd in [("sessions", [binary, "sessions", ws, "--quiet"]),
                      ("effects --model both", [binary, "effects", ws, "--model", "both", "--quiet"])]:
        wall, cpu, rss = run(cmd)
        total += wall
        cpu_total += cpu
        peak = max(peak, rss)
        print(f"bench-effects: {name:22s} {wall:7.2f} s wall  {cpu:7.2f} s CPU  peak RSS {rss:7.0f} MB")
    # CPU time is printed too: on a shared machine wall time includes waiting for a core.
    print(f"bench-effects: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; CPU {cpu_total:.2f} s")
    print(f"bench-effects: total {total:.2f} s (target {TARGET_S:.0f} s, ratio {total / TARGET_S:.2f}); "
          f"peak RSS {peak:.0f} MB (target {TARGET_MB:.0f} MB, ratio {peak / TARGET_MB:.2f})")


if __name__ == "__main__":
    main()
