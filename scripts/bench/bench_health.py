#!/usr/bin/env python3
"""Apple Health benchmark: `resonance import` of a generated export.xml (1 GB by
default, BENCH_HEALTH_MB to change) against a Python peer streaming the same file
with xml.etree.ElementTree.iterparse (elements cleared as they end, dates parsed).

Prints MB/s, CPU seconds and peak RSS (from /usr/bin/time -v) of each, the ratios, and checks
both read the same number of heart-rate records. Targets: >= 50 MB/s and < 200 MB
peak RSS for resonance.
"""
import os
import random
import sys
import time

from timed_run import import_against_peer, print_comparison

BENCH = "build/bench/health"
TARGET_MB = int(os.environ.get("BENCH_HEALTH_MB", "1000"))
DATA = os.path.join(BENCH, "export.xml")
START = 1_709_280_000  # 2024-03-01T08:00:00Z

HEADER = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
]>
<HealthData locale="en_US">
 <ExportDate value="2024-12-31 23:59:59 -0800"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
"""

HR = (' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Apple Watch" sourceVersion="10.3" '
      'device="&lt;&lt;HKDevice: 0x0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch&gt;" '
      'unit="count/min" creationDate="{d}" startDate="{d}" endDate="{d}" value="{v}">\n'
      '  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>\n </Record>\n')
STEPS = (' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" sourceVersion="17.2" unit="count" '
         'creationDate="{d}" startDate="{d}" endDate="{d}" value="{v}"/>\n')
HRV_OPEN = (' <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Apple Watch" unit="ms" '
            'creationDate="{d}" startDate="{d}" endDate="{d}" value="{v}">\n  <HeartRateVariabilityMetadataList>\n')
BEAT = '   <InstantaneousBeatsPerMinute bpm="{b}" time="{t}"/>\n'
HRV_CLOSE = '  </HeartRateVariabilityMetadataList>\n </Record>\n'
SLEEP = (' <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Apple Watch" '
         'creationDate="{d}" startDate="{d}" endDate="{e}" value="HKCategoryValueSleepAnalysisAsleepCore"/>\n')

PEER = r'''
import sys, datetime, collections
import xml.etree.ElementTree as ET
used = {"HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierRestingHeartRate",
        "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "HKCategoryTypeIdentifierSleepAnalysis"}
counts = collections.Counter()
hr = 0
context = ET.iterparse(sys.argv[1], events=("start", "end"))
_, root = next(context)
for event, elem in context:
    if event != "end":
        continue
    if elem.tag == "Record":
        t = elem.get("type")
        if t in used:
            datetime.datetime.strptime(elem.get("startDate"), "%Y-%m-%d %H:%M:%S %z")
            if t == "HKQuantityTypeIdentifierHeartRate":
                float(elem.get("value")); hr += 1
        else:
            counts[t] += 1
        root.clear()
print(hr)
'''


def date(t):
    return time.strftime("%Y-%m-%d %H:%M:%S -0800", time.gmtime(t - 8 * 3600))


def generate():
    if os.path.exists(DATA) and os.path.getsize(DATA) >= TARGET_MB * 1_000_000:
        return
    os.makedirs(BENCH, exist_ok=True)
    rng = random.Random(20240301)
    tmp = DATA + ".part"
    with open(tmp, "w") as f:
        f.write(HEADER)
        size, i, t = len(HEADER), 0, START
        while size < TARGET_MB * 1_000_000:
            parts = []
            for _ in range(10_000):
                d = date(t)
                parts.append(HR.format(d=d, v=rng.randint(55, 120)))
                if i % 5 == 0:
                    parts.append(STEPS.format(d=d, v=rng.randint(10, 900)))
                if i % 200 == 0:
                    parts.append(HRV_OPEN.format(d=d, v=round(rng.uniform(20, 90), 1)))
                    ms = (t - 8 * 3600) % 86400 * 1000
                    for _ in range(60):
                        bpm = rng.randint(55, 75)
                        ms += round(60000 / bpm, -1)
                        h, rest = divmod(int(ms) // 10 % 8_640_000, 360_000)
                        m, rest = divmod(rest, 6_000)
                        hh = h % 12 or 12
                        parts.append(BEAT.format(b=bpm, t="%d:%02d:%05.2f %s" % (hh, m, rest / 100, "AM" if h < 12 else "PM")))
                    parts.append(HRV_CLOSE)
                if i % 1440 == 0:
                    parts.append(SLEEP.format(d=d, e=date(t + 3600)))
                i += 1
                t += 60
            text = "".join(parts)
            f.write(text)
            size += len(text)
        f.write("</HealthData>\n")
    os.replace(tmp, DATA)




def main():
    resonance, python = sys.argv[1], sys.argv[2]
    generate()
    c = import_against_peer(resonance, python, DATA, BENCH, PEER)
    # resonance hashes the input (SHA-256) on a second thread.
    print_comparison(c, "apple health bench", DATA, "python iterparse peer")
    mb, rows, peer_rows = c.mb, c.rows, c.peer_rows
    r_wall, r_cpu, r_rss = c.ours.wall, c.ours.cpu, c.ours.rss_mb
    p_wall, p_cpu, p_rss = c.peer.wall, c.peer.cpu, c.peer.rss_mb
    print("  speed ratio %.2fx, RSS ratio %.2fx; heart-rate records: resonance %d, peer %d (%s)"
          % (p_wall / r_wall, r_rss / p_rss, rows, peer_rows, "same" if rows == peer_rows else "DIFFERENT"))
    print("  per CPU second: resonance %.1f MB, peer %.1f MB (ratio %.2fx)"
          % (mb / r_cpu, mb / p_cpu, p_cpu / r_cpu))
    print("  targets: >= 50 MB/s (%s), < 200 MB RSS (%s)"
          % ("met" if mb / r_wall >= 50 else "NOT met", "met" if r_rss < 200 else "NOT met"))


if __name__ == "__main__":
    main()
