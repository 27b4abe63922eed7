#!/usr/bin/env bash
# The fuzz targets of Sources/resonance-fuzz, in three modes:
#
#   scripts/checks/fuzz.sh run BIN OUTDIR SECONDS [TARGET...]
#     libFuzzer (BIN built with -sanitize=fuzzer) on each target for SECONDS. Each
#     target starts from the committed corpus (Tests/Fuzz/corpus/TARGET, read only: new
#     inputs go to OUTDIR/TARGET/corpus) and, unless FUZZ_SEEDS=0, from seeds made of
#     the sample dataset and the import tests' fixtures. Prints per target the
#     executions of this run and, summed over all runs so far (OUTDIR/TARGET/executions
#     and seconds), the executions, seconds and crashes kept, one `Test Case
#     'fuzz.TARGET'` line, and a summary table of every target at the end.
#   scripts/checks/fuzz.sh merge BIN OUTDIR [TARGET...]
#     rewrites Tests/Fuzz/corpus/TARGET as a small set of inputs that keeps the code
#     coverage of the committed corpus, OUTDIR/TARGET/corpus and the seeds: libFuzzer's
#     greedy set cover (-set_cover_merge=1) over edges alone (-use_counters=0: an edge
#     counts once, not per hit count), which keeps the corpus small enough to review.
#     Prints per target the edges covered by the last run (OUTDIR/TARGET/last.log), by
#     all inputs, and by the inputs kept, with the count and size kept.
#   scripts/checks/fuzz.sh replay BIN [TARGET...]
#     the regression run: every committed corpus input and every past crash input
#     (Tests/Fuzz/crashes/TARGET) through BIN built WITHOUT the sanitizer (the release
#     build's resonance-fuzz), one `Test Case 'fuzz-replay.TARGET'` line per target; a
#     target without a committed corpus fails.
#
# With no TARGET, every target the binary lists.
set -euo pipefail
mode=${1:-}; bin=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
sample=$root/datasets/sample
committed=$root/Tests/Fuzz/corpus
crash_inputs=$root/Tests/Fuzz/crashes
case $mode in
  run) [ $# -ge 4 ] || { echo "usage: scripts/checks/fuzz.sh run BIN OUTDIR SECONDS [TARGET...]" >&2; exit 2; }
       out=$3; seconds=$4; shift 4 ;;
  merge) [ $# -ge 3 ] || { echo "usage: scripts/checks/fuzz.sh merge BIN OUTDIR [TARGET...]" >&2; exit 2; }
       out=$3; shift 3 ;;
  replay) [ $# -ge 2 ] || { echo "usage: scripts/checks/fuzz.sh replay BIN [TARGET...]" >&2; exit 2; }
       shift 2 ;;
  *) echo "usage: scripts/checks/fuzz.sh run|merge|replay BIN ... (see the comment at its top)" >&2; exit 2 ;;
esac
if [ $# -gt 0 ]; then
  targets=("$@")
elif [ "$mode" = replay ]; then
  mapfile -t targets < <("$bin" list)
else
  mapfile -t targets < <(FUZZ_TARGET=list "$bin")
fi

# Longest input per target, in bytes: a number or a timestamp is one short field; a
# constants file a few engines; row formats a header, metadata lines and some 30 rows
# (every row rule, and the unit and clock checks on the first rows); JSON exports a
# few objects; an Apple Health export its DTD and a few records. Longer inputs only
# repeat rows, and cost executions.
max_len() {
  case $1 in
    number|timestamp) echo 64 ;;
    constants) echo 1024 ;;
    format-apple-health-xml|format-apple-health-zip) echo 4096 ;;
    format-spotify-*|format-fitbit-hr) echo 2048 ;;
    *) echo 1024 ;;
  esac
}

# Every multi-line string literal of the import tests, one file each, without the
# indentation of its closing quotes: the formats' test fixtures.
fixtures() {
  local dir=$1
  awk -v dir="$dir" '
    !inside && /"""[[:space:]]*$/ && !/^[[:space:]]*"""/ { inside = 1; n = 0; next }
    inside && /^[[:space:]]*"""/ {
      indent = match($0, /"""/) - 1; k += 1; file = dir "/fixture" k
      printf "" > file
      for (i = 1; i <= n; i++) {
        line = lines[i]
        if (substr(line, 1, indent) ~ /^[[:space:]]*$/) line = substr(line, indent + 1)
        print line >> file
      }
      close(file); inside = 0; next
    }
    inside { lines[++n] = $0 }
  ' "$root"/Tests/ResonanceLabTests/Ingest/*.swift "$root"/Tests/resonanceTests/ImportCommandTests.swift
}

# Seed inputs per target: small valid values, or the sample dataset, the PhysioNet
# files and the import tests' fixtures (each cut to the target's longest input).
seed() {
  local target=$1 dir=$out/$1/seeds limit
  limit=$(max_len "$target")
  rm -rf "$dir"; mkdir -p "$dir"
  local n=0
  add() { n=$((n + 1)); printf '%s' "$1" > "$dir/seed$n"; }
  addfile() { n=$((n + 1)); head -c "$limit" "$1" > "$dir/seed$n"; }
  case $target in
    number) for v in 60 -0.5 1e3 72.25 .5 1. +7 0x3C nan 1e400 '  8 '; do add "$v"; done ;;
    timestamp)
      for v in 2022-02-07T09:29:00.000Z '2022-02-07 09:29:00' 2022-02-07T09:29:00+05:30 2022-02-07T09:29Z \
               2022-02-07 9999-12-31T23:59:59.999Z 0000-01-01T00:00:00-0800 2024-02-29T12:00:00,5 \
               '2024-03-01 06:00:00 -0800'; do add "$v"; done ;;
    constants)
      add '{"engines":{"readiness":{"version":"1.1.0","constants":{"ready_from":50}}}}'
      add '{"engines":{"coherence":{"constants":{"coach_band_low_hz":{"value":0.05,"unit":"Hz"}}}}}'
      add '{"engines":{}}' ;;
    *)
      for f in "$sample"/*.csv "$sample"/*/*; do addfile "$f"; done
      for f in "${RESONANCE_DATASETS:-/nonexistent}"/physionet-rr/nsr2db/nsr001_rr_secs.txt \
               "${RESONANCE_DATASETS:-/nonexistent}"/physionet-rr/healthy/000.txt; do
        [ -f "$f" ] && addfile "$f"
      done
      add $'time,bpm,rr\n2024-03-01T08:00:00Z,60,1000\n1709280001,61,0.98\n'
      add $'subject,timestamp,bpm,source\nA,2024-03-01T08:00:00.000Z,60,csv\n'
      # The same rows with a UTF-8 byte-order mark, and as UTF-16 LE and BE with theirs
      # (docs/import.md, Text encodings).
      add $'\xef\xbb\xbftime,bpm,rr\n2024-03-01T08:00:00Z,60,1000\n'
      if command -v iconv > /dev/null; then
        for e in LE BE; do
          n=$((n + 1))
          { if [ $e = LE ]; then printf '\xff\xfe'; else printf '\xfe\xff'; fi
            printf 'time,bpm,rr\n2024-03-01T08:00:00Z,60,1000\n' | iconv -f UTF-8 -t UTF-16$e; } > "$dir/seed$n"
        done
      fi
      local tmp; tmp=$(mktemp -d)
      fixtures "$tmp"
      for f in "$tmp"/*; do [ -f "$f" ] && addfile "$f"; done
      # Apple Health archives: each XML fixture as the export.xml entry of a zip.
      if command -v zip > /dev/null; then
        mkdir "$tmp/apple_health_export"
        for f in $(grep -l '<HealthData' "$tmp"/fixture*); do
          cp "$f" "$tmp/apple_health_export/export.xml"
          (cd "$tmp" && rm -f export.zip && zip -q -X export.zip apple_health_export/export.xml)
          addfile "$tmp/export.zip"
        done
      fi
      rm -rf "$tmp" ;;
  esac
  # The detect target reads its first byte as the choice of file name.
  if [ "$target" = detect ]; then
    local names; names=$(FUZZ_TARGET=list "$bin" | grep -c '^format-'); names=$((names + 1))
    for f in "$dir"/*; do for ((k = 0; k < names; k++)); do
      { printf "\\$(printf %03o $k)"; cat "$f"; } > "$f.$k"; done; rm "$f"; done
  fi
}

row() { printf '%-30s %12s %12s %14s %10s %8s\n' "$@"; }

# A scratch folder on tmpfs when there is one: the readers read paths.
scratch_dir() {
  if [ -d /dev/shm ]; then mktemp -d /dev/shm/resonance-fuzz.XXXXXX; else mktemp -d "${TMPDIR:-/tmp}/resonance-fuzz.XXXXXX"; fi
}

# The files of a folder, if it exists, one per line.
files_of() { [ -d "$1" ] && find "$1" -maxdepth 1 -type f | sort || true; }

replay() {
  local failed=0 t n scratch status
  for t in "${targets[@]}"; do
    mapfile -t inputs < <(files_of "$committed/$t"; files_of "$crash_inputs/$t")
    n=$(files_of "$committed/$t" | wc -l)
    if [ "$n" -eq 0 ]; then
      echo "Test Case 'fuzz-replay.$t' failed (no committed corpus in Tests/Fuzz/corpus/$t)"; failed=1; continue
    fi
    scratch=$(scratch_dir); status=0
    SWIFT_BACKTRACE=enable=no FUZZ_SCRATCH=$scratch TMPDIR=$scratch "$bin" "$t" "${inputs[@]}" > "$scratch.log" 2>&1 || status=$?
    if [ "$status" -eq 0 ]; then
      echo "Test Case 'fuzz-replay.$t' passed (${#inputs[@]} inputs)"
    else
      grep -m3 -E 'error|Fatal|precondition' "$scratch.log" >&2 || tail -5 "$scratch.log" >&2
      echo "Test Case 'fuzz-replay.$t' failed (${#inputs[@]} inputs)"; failed=1
    fi
    rm -rf "$scratch" "$scratch.log"
  done
  return $failed
}

# The coverage (libFuzzer's `cov:` at INITED) of the inputs in the given folders.
coverage() {
  local t=$1; shift
  local scratch; scratch=$(scratch_dir)
  SWIFT_BACKTRACE=enable=no FUZZ_SCRATCH=$scratch TMPDIR=$scratch FUZZ_TARGET=$t "$bin" -runs=0 \
    -max_len="$(max_len "$t")" "$@" 2>&1 | sed -n 's/.*INITED cov: \([0-9]*\).*/\1/p' | tail -1
  rm -rf "$scratch"
}

merge() {
  local t last all kept scratch tmp
  printf '%-30s %9s %9s %9s %8s %9s\n' target "cov run" "cov all" "cov kept" inputs bytes
  for t in "${targets[@]}"; do
    mkdir -p "$out/$t/corpus" "$out/$t/seeds" "$committed/$t"
    seed "$t"
    last=$(sed -n 's/.*DONE *cov: \([0-9]*\).*/\1/p' "$out/$t/last.log" 2>/dev/null | tail -1)
    all=$(coverage "$t" "$committed/$t" "$out/$t/corpus" "$out/$t/seeds")
    tmp=$(mktemp -d); scratch=$(scratch_dir)
    SWIFT_BACKTRACE=enable=no FUZZ_SCRATCH=$scratch TMPDIR=$scratch FUZZ_TARGET=$t "$bin" -set_cover_merge=1 -use_counters=0 \
      -max_len="$(max_len "$t")" "$tmp" "$committed/$t" "$out/$t/corpus" "$out/$t/seeds" > "$out/$t/merge.log" 2>&1
    rm -rf "$scratch" "${committed:?}/$t"; mv "$tmp" "$committed/$t"; chmod 755 "$committed/$t"
    kept=$(coverage "$t" "$committed/$t")
    printf '%-30s %9s %9s %9s %8s %9s\n' "$t" "${last:--}" "$all" "$kept" "$(files_of "$committed/$t" | wc -l)" \
      "$(cat "$committed/$t"/* | wc -c)"
  done
}

run() {
  row target runs exec/s executions seconds crashes
  summary=()
  failed=0
  for t in "${targets[@]}"; do
    mkdir -p "$out/$t/corpus" "$out/$t/seeds"
    if [ "${FUZZ_SEEDS:-1}" != 0 ]; then seed "$t"; fi
    dirs=("$out/$t/corpus" "$out/$t/seeds")
    [ -d "$committed/$t" ] && dirs+=("$committed/$t")
    log=$out/$t/last.log
    status=0
    scratch=$(scratch_dir)
    started=$(date +%s)
    # The Swift runtime's backtracer would take a crash before libFuzzer keeps its input.
    SWIFT_BACKTRACE=enable=no FUZZ_SCRATCH=$scratch TMPDIR=$scratch FUZZ_TARGET=$t "$bin" -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/$t/" "${dirs[@]}" \
      > "$log" 2>&1 || status=$?
    elapsed=$(( $(date +%s) - started ))
    rm -rf "$scratch"
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    total=$(( $(cat "$out/$t/executions" 2>/dev/null || echo 0) + ${runs:-0} ))
    time_total=$(( $(cat "$out/$t/seconds" 2>/dev/null || echo 0) + elapsed ))
    echo "$total" > "$out/$t/executions"
    echo "$time_total" > "$out/$t/seconds"
    crashes=$(find "$out/$t" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
    line=$(row "$t" "${runs:-0}" "${speed:-0}" "$total" "$time_total" "$crashes")
    echo "$line"
    summary+=("$line")
    if [ "$status" -ne 0 ]; then
      failed=1
      grep -m3 -E 'ERROR|Fatal error|precondition' "$log" >&2 || tail -5 "$log" >&2
      echo "Test Case 'fuzz.$t' failed (${runs:-0} executions; input kept in $out/$t/)"
    else
      echo "Test Case 'fuzz.$t' passed (${runs:-0} executions)"
    fi
  done
  echo
  echo "Summary (runs and exec/s: this run; executions, seconds and crashes: all runs in $out):"
  row target runs exec/s executions seconds crashes
  printf '%s\n' "${summary[@]}"
  return $failed
}

case $mode in
  run) run ;;
  merge) merge ;;
  replay) replay ;;
esac
