# Ingest benchmark: `resonance import` vs DuckDB, polars and pandas on a generated ≥ 200 MB
# HR CSV, each peer doing the same work (scripts/bench/ingest_peers.py) and writing the same
# bytes. `make bench-ingest PREVIOUS_BIN=path/to/resonance` also times the build before on
# the same file, alternately, and prints the ratio (a regression shows in the same run).
BENCH_TARGETS += bench-ingest
PREVIOUS_BIN ?=

# DuckDB and polars, pinned in requirements-bench.txt, live in a venv of their own that
# only the benchmark builds, so CI's environment (requirements.txt) does not carry them.
BENCH_VENV := .venv-bench
$(BENCH_VENV)/.installed: requirements-bench.txt | $(DEPS_STAMP)
	python3 -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install -q --disable-pip-version-check -r requirements-bench.txt
	@touch $@

.PHONY: bench-ingest
bench-ingest: build venv $(BENCH_VENV)/.installed
	$(PY) scripts/bench/bench_ingest.py $(BIN) $(abspath $(PY)) $(abspath $(BENCH_VENV)/bin/python) $(PREVIOUS_BIN)

# Health Auto Export benchmark: `resonance import` of a generated 100 MB HAE JSON
# (BENCH_HAE_MB to change) against a json.load peer: MB/s and peak RSS of each (Python
# standard library only).
BENCH_TARGETS += bench-hae

.PHONY: bench-hae
bench-hae: build
	python3 scripts/bench/bench_hae.py $(BIN) python3
