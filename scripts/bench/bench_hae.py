#!/usr/bin/env python3
"""Health Auto Export benchmark: `resonance import` of a generated Health Auto Export
JSON (100 MB by default, BENCH_HAE_MB to change): heart_rate points once a minute
(Min/Avg/Max/source) with their local dates in America/Los_Angeles, so the file crosses
DST changes, plus daily resting heart rate and sleep, hourly HRV, and a workout a day.
Prints MB/s, CPU seconds and peak RSS (from /usr/bin/time -v) of resonance and of a
Python peer that loads the whole document with json.load, and checks both count the
same heart-rate points. Targets: >= 50 MB/s and < 200 MB peak RSS for resonance.
"""
import datetime
import os
import random
import sys
import zoneinfo

from timed_run import import_against_peer, print_comparison

BENCH = "build/bench/hae"
TARGET_MB = int(os.environ.get("BENCH_HAE_MB", "100"))
DATA = os.path.join(BENCH, "HealthAutoExport-20240301-20260101.json")
START = datetime.datetime(2024, 3, 1, 8, 0, tzinfo=datetime.timezone.utc)
ZONE = zoneinfo.ZoneInfo("America/Los_Angeles")

PEER = r'''
import sys, json
doc = json.load(open(sys.argv[1]))
print(sum(len(m["data"]) for m in doc["data"]["metrics"] if m["name"] == "heart_rate"))
'''


def local(t):
    """`yyyy-MM-dd HH:mm:ss ±hhmm` of a UTC datetime in the benchmark's zone."""
    return t.astimezone(ZONE).strftime("%Y-%m-%d %H:%M:%S %z")


def generate():
    if os.path.exists(DATA) and os.path.getsize(DATA) >= TARGET_MB * 1_000_000:
        return
    os.makedirs(BENCH, exist_ok=True)
    rng = random.Random(20240301)
    minutes = TARGET_MB * 1_000_000 // 100  # a point is about 101 bytes
    days = minutes // 1440 + 1
    tmp = DATA + ".part"
    with open(tmp, "w") as f:
        f.write('{"data": {"metrics": [\n{"name": "heart_rate", "units": "count/min", "data": [\n')
        for start in range(0, minutes, 10_000):
            parts = []
            for i in range(start, min(minutes, start + 10_000)):
                avg = rng.randint(550, 1200) / 10
                parts.append('{"date": "%s", "Min": %d, "Avg": %.1f, "Max": %d, "source": "Apple Watch"}%s\n'
                             % (local(START + datetime.timedelta(minutes=i)), avg - 3, avg, avg + 4,
                                "," if i < minutes - 1 else ""))
            f.write("".join(parts))
        f.write(']},\n{"name": "heart_rate_variability", "units": "ms", "data": [\n')
        f.write(",\n".join('{"date": "%s", "qty": %.2f, "source": "Apple Watch"}'
                           % (local(START + datetime.timedelta(hours=h)), rng.uniform(20, 90))
                           for h in range(days * 24)))
        f.write('\n]},\n{"name": "resting_heart_rate", "units": "count/min", "data": [\n')
        f.write(",\n".join('{"date": "%s", "qty": %d, "source": "Apple Watch"}'
                           % (local(START + datetime.timedelta(days=d)), rng.randint(48, 65)) for d in range(days)))
        f.write('\n]},\n{"name": "sleep_analysis", "units": "hr", "data": [\n')
        f.write(",\n".join(
            '{"date": "%s", "inBedStart": "%s", "inBedEnd": "%s", "sleepStart": "%s", "sleepEnd": "%s", '
            '"asleep": 7, "core": 4, "deep": 1.2, "rem": 1.8, "awake": 0.4, "inBed": 7.5, "source": "Apple Watch"}'
            % tuple(local(START + datetime.timedelta(days=d, hours=h)) for h in (0, -1, 6.5, -0.75, 6.25))
            for d in range(days)))
        f.write('\n]}\n],\n"workouts": [\n')
        f.write(",\n".join(
            '{"id": "w%d", "name": "Running", "start": "%s", "end": "%s", "duration": 1800, '
            '"activeEnergyBurned": {"qty": 350, "units": "kcal"}, "heartRateData": [{"date": "%s", "Avg": 140}]}'
            % (d, local(START + datetime.timedelta(days=d, hours=4)), local(START + datetime.timedelta(days=d, hours=4.5)),
               local(START + datetime.timedelta(days=d, hours=4))) for d in range(days)))
        f.write("\n]}}\n")
    os.replace(tmp, DATA)


def main():
    resonance, python = sys.argv[1], sys.argv[2]
    generate()
    c = import_against_peer(resonance, python, DATA, BENCH, PEER)
    print_comparison(c, "health auto export bench", DATA, "python json.load peer")
    rows, peer_rows, mb, r_wall, r_rss = c.rows, c.peer_rows, c.mb, c.ours.wall, c.ours.rss_mb
    print("  heart-rate points: resonance %d, peer %d (%s)" % (rows, peer_rows, "same" if rows == peer_rows else "DIFFERENT"))
    print("  targets: >= 50 MB/s (%s), < 200 MB RSS (%s)"
          % ("met" if mb / r_wall >= 50 else "NOT met", "met" if r_rss < 200 else "NOT met"))


if __name__ == "__main__":
    main()
