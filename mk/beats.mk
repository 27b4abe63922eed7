# Beats from the raw waveforms: `resonance beats` (R peaks of the ECG, pulse onsets of the
# pulse wave) against NeuroKit2 on MIT-BIH record 100, clean and with seeded noise at 12,
# 6 and 0 dB, and the time of each (part of `make bench`; skips without the datasets).
BENCH_TARGETS += bench-beats

.PHONY: bench-beats
bench-beats: venv build
	$(PY) scripts/beats_bench.py --bin $(BIN) --work build/bench-beats --out build/bench-beats/table.md
