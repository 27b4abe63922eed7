# Ingest benchmark: `resonance import` vs pandas on a generated ≥ 200 MB HR CSV.
BENCH_TARGETS += bench-ingest

.PHONY: bench-ingest ingest-time-tool
ingest-time-tool: deps
	@command -v /usr/bin/time >/dev/null || { \
	  sudo=""; [ "$$(id -u)" -ne 0 ] && sudo=sudo; \
	  $$sudo apt-get update -qq && $$sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null; }

bench-ingest: build venv ingest-time-tool
	$(PY) scripts/bench_ingest.py $(BIN) $(abspath $(PY))
