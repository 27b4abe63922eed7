# Beats from the raw waveforms (`resonance beats`), part of `make bench` (each step skips
# without the shared datasets):
# - R peaks on MIT-BIH record 100 against NeuroKit2, clean and with seeded noise at 12, 6
#   and 0 dB, and the time of each (scripts/bench/beats_bench.py);
# - a 24-hour 512-Hz Holter ECG (record 100 resampled and repeated, WFDB format 212)
#   through import and beats: wall time and peak memory (scripts/bench/beats_holter.py);
# - pulse onsets on Stress-Predict's BVP against the E4's own IBI.csv and HR.csv, and
#   against the pulse wave's spectral heart rate (scripts/bench/beats_stress_predict.py).
BENCH_TARGETS += bench-beats
BEATS_BENCH_WORK := build/bench-beats

# `make beats-bench-test` (in `make test`, about a second): the Stress-Predict comparison's
# definitions (HR.csv's alignment, the successive differences both give, the window kinds,
# the spectral heart rate, the choice of beats' effect on RMSSD) on inputs worked by hand
# (scripts/checks/beats_bench_check.py).
TEST_EXTRA_TARGETS += beats-bench-test

.PHONY: bench-beats beats-bench-test
beats-bench-test: venv
	$(PY) scripts/checks/beats_bench_check.py

bench-beats: venv build
	$(PY) scripts/bench/beats_bench.py --bin $(BIN) --work $(BEATS_BENCH_WORK) --out $(BEATS_BENCH_WORK)/mitdb.md
	$(PY) scripts/bench/beats_holter.py --bin $(BIN) --work $(BEATS_BENCH_WORK)/holter --out $(BEATS_BENCH_WORK)/holter.md
	@sp="$(RESONANCE_DATASETS)/stress-predict"; \
	if [ ! -d "$$sp" ]; then echo "bench-beats: no $$sp (set RESONANCE_DATASETS), skipped" >&2; exit 0; fi; \
	rm -rf $(BEATS_BENCH_WORK)/stress-predict && \
	$(BIN) import "$$sp" --out $(BEATS_BENCH_WORK)/stress-predict --quiet && \
	$(BIN) beats $(BEATS_BENCH_WORK)/stress-predict --quiet && \
	$(PY) scripts/bench/beats_stress_predict.py $(BEATS_BENCH_WORK)/stress-predict --bvp-root "$$sp" \
	    --out $(BEATS_BENCH_WORK)/stress-predict.md
