#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each and prints, per target, the executions
# of this run, the executions of all runs so far, and the crashes kept.
# Usage: scripts/fuzz.sh BIN OUTDIR SECONDS TARGET...
set -euo pipefail
bin=$1; out=$2; seconds=$3; shift 3
root=$(cd "$(dirname "$0")/.." && pwd)
sample=$root/datasets/sample

# Seed inputs per target: the sample dataset's files and small valid values.
seed() {
  local target=$1 dir=$out/$1/seeds
  rm -rf "$dir"; mkdir -p "$dir"
  local n=0
  add() { n=$((n + 1)); printf '%s' "$1" > "$dir/seed$n"; }
  addfile() { n=$((n + 1)); head -c 4096 "$1" > "$dir/seed$n"; }
  case $target in
    number) for v in 60 -0.5 1e3 72.25 .5 1. +7 0x3C nan 1e400 '  8 '; do add "$v"; done ;;
    timestamp)
      for v in 2022-02-07T09:29:00.000Z '2022-02-07 09:29:00' 2022-02-07T09:29:00+05:30 2022-02-07T09:29Z \
               2022-02-07 9999-12-31T23:59:59.999Z 0000-01-01T00:00:00-0800 2024-02-29T12:00:00,5; do add "$v"; done ;;
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
      add $'subject,timestamp,bpm,source\nA,2024-03-01T08:00:00.000Z,60,csv\n' ;;
  esac
  # The detect target reads its first byte as the choice of file name.
  if [ "$target" = detect ]; then
    for f in "$dir"/*; do for k in 0 1 2 3 4 5 6 7 8 9 10 11; do
      { printf "\\$(printf %03o $k)"; cat "$f"; } > "$f.$k"; done; rm "$f"; done
  fi
}

printf '%-30s %14s %16s %8s %8s\n' target executions total exec/s crashes
failed=0
for t in "$@"; do
  mkdir -p "$out/$t/corpus"
  seed "$t"
  log=$out/$t/last.log
  status=0
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/resonance-fuzz.XXXXXX")
  [ -d /dev/shm ] && { rmdir "$scratch"; scratch=$(mktemp -d /dev/shm/resonance-fuzz.XXXXXX); }
  FUZZ_SCRATCH=$scratch FUZZ_TARGET=$t "$bin" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$out/$t/" "$out/$t/corpus" "$out/$t/seeds" > "$log" 2>&1 || status=$?
  rm -rf "$scratch"
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  total=$(( $(cat "$out/$t/executions" 2>/dev/null || echo 0) + ${runs:-0} ))
  echo "$total" > "$out/$t/executions"
  crashes=$(find "$out/$t" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  printf '%-30s %14s %16s %8s %8s\n' "$t" "${runs:-0}" "$total" "${speed:-0}" "$crashes"
  if [ "$status" -ne 0 ]; then
    failed=1
    grep -m3 -E 'ERROR|Fatal error|precondition' "$log" >&2 || tail -5 "$log" >&2
  fi
done
exit $failed
