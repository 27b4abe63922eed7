#!/usr/bin/env python3
"""Times one stage of `make test` and prints the table of all stages.

    stage.py LEDGER NAME -- COMMAND...   print `stage NAME: started`, run COMMAND, then
        print `stage NAME: wall W s, CPU C s, load L1 -> L2 (N cores), exit E` and append
        the same numbers to the tab-separated LEDGER; exits with COMMAND's exit code
    stage.py LEDGER --summary            print every stage of LEDGER, slowest first,
        with the totals

Wall time is the stage's own; CPU time is user + system of the command and everything
it started (getrusage of the children), so CPU > wall means the stage used both cores.
The load is the machine's 1-minute load average before and after, so a stage slowed by
another process shows it. Standard library only: it runs before the venv exists.
"""
import os
import resource
import subprocess
import sys
import time

FIELDS = ["stage", "wall_s", "cpu_s", "load_before", "load_after", "exit"]


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(ledger, name, command):
    load_before = os.getloadavg()[0]
    print("stage %s: started" % name, flush=True)  # the stage's own lines come when it ends (make --output-sync)
    cpu0, t0 = children_cpu(), time.monotonic()
    # close_fds=False: a make run as the command keeps the job server's pipe of the make
    # that started this stage, so parallel stages share its job slots.
    status = subprocess.call(command, close_fds=False)
    wall, cpu = time.monotonic() - t0, children_cpu() - cpu0
    load_after = os.getloadavg()[0]
    print("stage %s: wall %.1f s, CPU %.1f s, load %.2f -> %.2f (%d cores), exit %d"
          % (name, wall, cpu, load_before, load_after, os.cpu_count() or 0, status), flush=True)
    os.makedirs(os.path.dirname(ledger) or ".", exist_ok=True)
    new = not os.path.exists(ledger)
    with open(ledger, "a") as f:  # one short line per write: appends from parallel stages do not interleave
        if new:
            f.write("\t".join(FIELDS) + "\n")
        f.write("%s\t%.1f\t%.1f\t%.2f\t%.2f\t%d\n" % (name, wall, cpu, load_before, load_after, status))
    return status


def summary(ledger):
    if not os.path.exists(ledger):
        print("stages: %s not found (no stage ran)" % ledger)
        return 0
    with open(ledger) as f:
        rows = [dict(zip(FIELDS, line.rstrip("\n").split("\t"))) for line in f.readlines()[1:] if line.strip()]
    rows.sort(key=lambda r: -float(r["wall_s"]))
    print("\n%-28s %9s %9s %13s %5s" % ("stage", "wall s", "CPU s", "load", "exit"))
    for r in rows:
        print("%-28s %9s %9s %6s->%-6s %5s" % (r["stage"], r["wall_s"], r["cpu_s"], r["load_before"], r["load_after"], r["exit"]))
    cpu = sum(float(r["cpu_s"]) for r in rows)
    print("%-28s %9s %9.1f   (stages overlap: the wall time of make test is printed by its caller)" % ("all stages", "", cpu))
    return 0


def main(argv):
    if len(argv) == 3 and argv[2] == "--summary":
        return summary(argv[1])
    if len(argv) >= 5 and argv[3] == "--":
        return run(argv[1], argv[2], argv[4:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
