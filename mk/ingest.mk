# Ingest benchmark: `resonance import` vs pandas on a generated ≥ 200 MB HR CSV.
# `make bench-ingest PREVIOUS_BIN=path/to/resonance` also times a previous release on the
# same file, alternately, and prints the ratio (a regression shows in the same run).
BENCH_TARGETS += bench-ingest
PREVIOUS_BIN ?=

.PHONY: bench-ingest
bench-ingest: build venv
	$(PY) scripts/bench/bench_ingest.py $(BIN) $(abspath $(PY)) $(PREVIOUS_BIN)

# Health Auto Export benchmark: `resonance import` of a generated 100 MB HAE JSON
# (BENCH_HAE_MB to change) against a json.load peer: MB/s and peak RSS of each (Python
# standard library only).
BENCH_TARGETS += bench-hae

.PHONY: bench-hae
bench-hae: build
	python3 scripts/bench/bench_hae.py $(BIN) python3
