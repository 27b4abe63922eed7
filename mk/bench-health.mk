# Apple Health benchmark: `resonance import` of a generated 1 GB export.xml against a
# Python xml.etree.iterparse peer on the same file (MB/s and peak RSS of each).
BENCH_TARGETS += bench-health

.PHONY: bench-health
bench-health: build venv
	$(PY) scripts/bench/bench_health.py $(BIN) $(abspath $(PY))
