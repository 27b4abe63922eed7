# Listening sessions and song effects: pipeline stages and the effects benchmark
# (1,000,000 plays, 50,000 songs, 1,000 listeners; generated once into build/bench).
BENCH_TARGETS += bench-effects

EFFECTS_BENCH_WS := build/bench/effects

.PHONY: bench-effects effects-workload
# The workload is generated once, and again whenever its generator changes.
$(EFFECTS_BENCH_WS)/hr.csv: scripts/data/effects_workload.py | venv
	$(PY) scripts/data/effects_workload.py --out $(EFFECTS_BENCH_WS)

# The workload alone, for the other benchmarks that read it (`bench-dj-replay`).
effects-workload: $(EFFECTS_BENCH_WS)/hr.csv

bench-effects: build venv $(EFFECTS_BENCH_WS)/hr.csv
	@$(PY) scripts/bench/bench_effects.py $(BIN) $(EFFECTS_BENCH_WS)
