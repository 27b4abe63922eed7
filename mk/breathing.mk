# ---- breathing -----------------------------------------------------------------
# `make bench-breathing`: the product's coherence (a 30 s window every 0.25 s) over the
# 69 PhysioNet records, and `resonance breathing simulate` for 1,000 sessions.
BENCH_TARGETS += bench-breathing

.PHONY: bench-breathing
bench-breathing: build
	python3 scripts/bench_breathing.py $(BIN) build/bench/breathing
