#!/usr/bin/env python3
"""The import's peers on a generic heart-rate CSV (`subject,timestamp,bpm`, ISO-8601 UTC
times with milliseconds): DuckDB and polars doing what `resonance import` does to it, so
that the ingest benchmark times the same work and compares the bytes.

The rules, as docs/import.md states them for the generic reader:
- bpm within 20–250 (both ends in), other rows rejected;
- exact duplicate rows (same subject, time and bpm) kept once;
- rows sorted by subject, then time;
- written as `subject,timestamp,bpm,source` with ISO-8601 millisecond UTC times
  (`2024-03-01T08:00:00.250Z`), bpm with one decimal, source `csv`.

Usage: ingest_peers.py duckdb|polars SRC DST [THREADS]
"""
import sys

# The DuckDB peer's SQL, written out: read, range filter, duplicates once, sort, write.
DUCKDB_SQL = """
COPY (
    SELECT subject,
           strftime(ts, '%Y-%m-%dT%H:%M:%S.%g') || 'Z' AS timestamp,
           printf('%.1f', bpm) AS bpm,
           'csv' AS source
    FROM (
        SELECT DISTINCT subject, strptime("timestamp", '%Y-%m-%dT%H:%M:%S.%gZ') AS ts, bpm
        FROM read_csv(?, header = true,
                      columns = {'subject': 'VARCHAR', 'timestamp': 'VARCHAR', 'bpm': 'DOUBLE'})
        WHERE bpm BETWEEN 20 AND 250
    )
    ORDER BY subject, ts
) TO '{dst}' (HEADER, DELIMITER ',', QUOTE '')
"""


def duckdb_peer(src, dst, threads):
    import duckdb
    con = duckdb.connect()
    con.execute(f"SET threads = {threads}")
    con.execute(DUCKDB_SQL.replace("{dst}", dst.replace("'", "''")), [src])


def polars_peer(src, dst, threads):
    import os
    os.environ["POLARS_MAX_THREADS"] = str(threads)
    import polars as pl
    (pl.scan_csv(src, schema={"subject": pl.String, "timestamp": pl.String, "bpm": pl.Float64})
       .filter(pl.col("bpm").is_between(20, 250))
       .with_columns(pl.col("timestamp").str.to_datetime("%Y-%m-%dT%H:%M:%S%.3fZ", time_unit="ms").alias("ts"))
       .unique(subset=["subject", "ts", "bpm"], maintain_order=True)
       .sort(["subject", "ts"], maintain_order=True)
       .select("subject",
               (pl.col("ts").dt.strftime("%Y-%m-%dT%H:%M:%S%.3f") + "Z").alias("timestamp"),
               pl.col("bpm"),
               pl.lit("csv").alias("source"))
       .sink_csv(dst, float_precision=1))


if __name__ == "__main__":
    peer, src, dst = sys.argv[1:4]
    threads = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    {"duckdb": duckdb_peer, "polars": polars_peer}[peer](src, dst, threads)
