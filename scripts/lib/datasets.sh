#!/usr/bin/env bash
# Lists the dataset folders `make validate` runs on, one per line.
#   $1 set                  → that folder alone
#   $RESONANCE_DATASETS set → each dataset folder under it
#   otherwise               → the synthetic sample shipped in datasets/sample
set -euo pipefail
if [ -n "${1:-}" ]; then
  [ -d "$1" ] || { echo "datasets.sh: $1: no such folder" >&2; exit 2; }
  echo "$1"
elif [ -n "${RESONANCE_DATASETS:-}" ] && [ -d "$RESONANCE_DATASETS" ]; then
  for d in "$RESONANCE_DATASETS"/*/; do echo "${d%/}"; done
else
  echo "datasets/sample"
fi
