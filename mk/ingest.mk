# Ingest benchmark: `resonance import` vs pandas on a generated ≥ 200 MB HR CSV.
BENCH_TARGETS += bench-ingest

.PHONY: bench-ingest
bench-ingest: build venv
	$(PY) scripts/bench_ingest.py $(BIN) $(abspath $(PY))
