# HRV and coherence stages: hrv.csv and coherence.csv in every validated workspace,
# the NeuroKit2 cross-check (part of `make test`) and the HRV benchmark (part of `make bench`).
TEST_EXTRA_TARGETS += crosscheck
BENCH_TARGETS += bench-hrv

.PHONY: crosscheck bench-hrv

# Skips (and passes) when RESONANCE_DATASETS is unset.
crosscheck: venv build
	$(PY) scripts/hrv_crosscheck.py --bin $(BIN) --work build/crosscheck

bench-hrv: venv build
	$(PY) scripts/hrv_bench.py --bin $(BIN) --work build/bench
