# ---- AI DJ --------------------------------------------------------------------
# `make dj-simulate`: the closed-loop simulation (docs/dj.md) at the default size, and at
# no and strong relation between planted features and effects.
DJ_WS ?= build/work/dj

.PHONY: dj-simulate bench-dj bench-dj-replay
dj-simulate: build
	$(BIN) dj simulate --out $(DJ_WS)/feature-relation-0.5
	$(BIN) dj simulate --out $(DJ_WS)/feature-relation-0 --feature-relation 0
	$(BIN) dj simulate --out $(DJ_WS)/feature-relation-0.9 --feature-relation 0.9

# Wall time of `dj simulate` for 1,000 listeners (100 replicas of the ten personas) × 30
# days, one seed, against its 60 s budget on 2 cores.
BENCH_TARGETS += bench-dj
bench-dj: build
	@start=$$(date +%s%N); \
	$(BIN) dj simulate --quiet --out build/bench/dj --seeds 1 --replicas 100 --days 30 --jobs 2 && \
	end=$$(date +%s%N); \
	awk -v ns=$$((end - start)) 'BEGIN { s = ns / 1e9; \
	  printf "bench-dj: dj simulate, 1000 listeners x 30 days %.2f s (budget 60 s, ratio %.2f)\n", s, s / 60 }'

# Wall time of `dj replay` on the effects workload (1,000,000 logged plays; generated
# once by mk/effects.mk), against its 60 s budget on 2 cores.
BENCH_TARGETS += bench-dj-replay
bench-dj-replay: build venv effects-workload
	@$(PY) scripts/bench_dj_replay.py $(BIN) $(EFFECTS_BENCH_WS)
