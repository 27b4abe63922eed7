#!/usr/bin/env bash
# Usage: workflow_check.sh BIN WORK LABEL DATASET...
# After the workflow (workflow/Snakefile) ran with work folder WORK: for each dataset
# folder, one `BIN run DATASET --out WORK/single/NAME --report-dir …` on this machine,
# then every file of the workflow's finished workspace (WORK/workspaces/NAME) and of its
# validation report (WORK/validation/NAME) is compared byte for byte with that run's.
# (Snakemake's .snakemake_timestamp markers in its output folders are not outputs.)
# Prints one line per dataset, prefixed with LABEL; exits 1 when any file differs or
# exists on one side only.
set -euo pipefail
bin=$1; work=$2; label=$3; shift 3
status=0
for ds in "$@"; do
  name=$(basename "$ds")
  single=$work/single/$name report=$work/single-report/$name
  rm -rf "$single" "$report"
  start=$(date +%s.%N)
  "$bin" run "$ds" --out "$single" --report-dir "$report" --figure-tables --quiet
  end=$(date +%s.%N)
  files=0 differ=0
  for pair in "$work/workspaces/$name:$single" "$work/validation/$name:$report"; do
    a=${pair%%:*} b=${pair#*:}
    [ -d "$a" ] || { echo "$label $name: $a: no such folder (did the workflow run?)" >&2; status=1; continue 2; }
    # Same file names on both sides, then the same bytes in each.
    if ! diff <(cd "$a" && find . -type f ! -name .snakemake_timestamp | sort) <(cd "$b" && find . -type f ! -name .snakemake_timestamp | sort) >&2; then
      echo "$label $name: $a and $b hold different files (< workflow, > resonance run)" >&2
      differ=$((differ + 1))
    fi
    while IFS= read -r f; do
      files=$((files + 1))
      [ -f "$b/$f" ] || continue
      cmp -s "$a/$f" "$b/$f" || { echo "$label $name: $a/$f differs from $b/$f" >&2; differ=$((differ + 1)); }
    done < <(cd "$a" && find . -type f ! -name .snakemake_timestamp | sed 's|^\./||' | sort)
  done
  if [ "$differ" -eq 0 ]; then
    awk -v l="$label" -v n="$name" -v f="$files" -v a="$start" -v b="$end" \
      'BEGIN { printf "%s %s: %d files byte-identical to a single resonance run (%.1f s)\n", l, n, f, b - a }'
  else
    status=1
  fi
done
exit $status
