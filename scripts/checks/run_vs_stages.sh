#!/usr/bin/env bash
# Usage: run_vs_stages.sh BIN WORKDIR DATASET...
# For each dataset folder: `BIN run DATASET --out A --report-dir RA` against `BIN import`
# then `beats`, `hrv`, `coherence`, `sessions`, `effects`, `daily`, `validate` one by one (each
# its own process, with another --jobs), and compares every output byte for byte.
set -euo pipefail
bin=$1; work=$2; shift 2
status=0
for ds in "$@"; do
  name=$(basename "$ds")
  # Both workspaces are named after the dataset, as the reports title themselves.
  together=$work/$name/run/$name apart=$work/$name/stages/$name
  rm -rf "$work/$name"
  start=$(date +%s.%N)
  "$bin" run "$ds" --out "$together" --report-dir "$together-report" --quiet
  mid=$(date +%s.%N)
  "$bin" import "$ds" --out "$apart" --quiet --jobs 1
  for stage in beats hrv coherence sessions effects daily; do "$bin" $stage "$apart" --quiet --jobs 1; done
  "$bin" validate "$apart" --report-dir "$apart-report" --quiet --jobs 1
  end=$(date +%s.%N)
  if diff -r "$together" "$apart" >/dev/null && diff -r "$together-report" "$apart-report" >/dev/null; then
    awk -v n="$name" -v f="$(($(ls "$together" | wc -l) + $(ls "$together-report" | wc -l)))" -v a="$start" -v b="$mid" -v c="$end" \
      'BEGIN { printf "check-run %s: %d files byte-identical (run %.1f s, stage by stage %.1f s)\n", n, f, b - a, c - b }'
  else
    echo "check-run $name: resonance run differs from the stage-by-stage commands:" >&2
    diff -rq "$together" "$apart" >&2 || true
    diff -rq "$together-report" "$apart-report" >&2 || true
    status=1
  fi
done
exit $status
