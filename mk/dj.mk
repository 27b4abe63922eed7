# ---- AI DJ --------------------------------------------------------------------
# `make dj-simulate`: the closed-loop simulation (docs/dj.md) at the default size, and at
# no and strong relation between planted features and effects.
DJ_WS ?= build/work/dj

.PHONY: dj-simulate dj-worlds dj-tune evidence-dj-tune evidence-dj-worlds dj-evaluate bench-dj bench-dj-replay
dj-simulate: build
	$(BIN) dj simulate --out $(DJ_WS)/feature-relation-0.5
	$(BIN) dj simulate --out $(DJ_WS)/feature-relation-0 --feature-relation 0
	$(BIN) dj simulate --out $(DJ_WS)/feature-relation-0.9 --feature-relation 0.9

# Every policy on every world (docs/dj.md, Worlds): `dj simulate --world W` on the seeds
# DJ_SEEDS (consecutive; default the development seeds of mk/heldout.json), then
# scripts/evidence/dj_worlds.py tables each policy − random at the shared decision points. With
# DJ_TUNED (a tuned ranking constants file, `make dj-tune`), every world again under it:
# the tuned DJ − the default DJ at the same decisions.
DJ_WORLDS := planted genre nonlinear taste none
DJ_TUNE_WORLDS = $(shell python3 -c 'import json; print(" ".join(json.load(open("mk/heldout.json"))["verdicts"]["dj"]["worlds"]["development"]))')
DJ_SEEDS ?= $(shell $(HELDOUT) seeds dj development)
DJ_WORLDS_WORK ?= build/work/dj-worlds
DJ_WORLDS_OUT ?= build/work/dj-worlds/dj-worlds.md
DJ_WORLDS_JSON ?= build/work/dj-worlds/dj-worlds.json
DJ_TUNED ?=
# DJ_SIZE: extra `dj simulate` options, empty for the published tables; `make
# evidence-check` runs the evidence target small with it.
DJ_SIZE ?=
dj-worlds: build
	@for w in $(DJ_WORLDS); do \
	  $(BIN) dj simulate --quiet --seed $(firstword $(DJ_SEEDS)) --seeds $(words $(DJ_SEEDS)) --world $$w $(DJ_SIZE) \
	    --out $(DJ_WORLDS_WORK)/$$w || exit 1; \
	  if [ -n "$(DJ_TUNED)" ]; then \
	    $(BIN) dj simulate --quiet --constants $(DJ_TUNED) --seed $(firstword $(DJ_SEEDS)) --seeds $(words $(DJ_SEEDS)) \
	      --world $$w $(DJ_SIZE) --out $(DJ_WORLDS_WORK)/tuned-$$w || exit 1; \
	  fi; \
	done
	python3 scripts/evidence/dj_worlds.py --out $(DJ_WORLDS_OUT) --json $(DJ_WORLDS_JSON) \
	  --command "make dj-worlds DJ_SEEDS='$(DJ_SEEDS)'$(if $(DJ_TUNED), DJ_TUNED=$(DJ_TUNED))" \
	  $(if $(DJ_TUNED),--tuned-worlds "$(DJ_TUNE_WORLDS)" $(foreach w,$(DJ_WORLDS),--tuned $(w)=$(DJ_WORLDS_WORK)/tuned-$(w))) \
	  $(addprefix $(DJ_WORLDS_WORK)/,$(DJ_WORLDS))

# `tune --engine ranking` on the development worlds and seeds only (mk/heldout.json, dj):
# 10 listeners × 7 days per seed and world, 5 folds over personas, 30 evaluations;
# the constants are written even when they do not beat the defaults (--force), so that
# dj-worlds can judge them on the worlds and seeds the tuning never saw.
DJ_TUNE_WORK ?= build/work/dj-tune
DJ_TUNE_SEEDS = $(shell $(HELDOUT) seeds dj development)
dj-tune: build
	@for w in $(DJ_TUNE_WORLDS); do \
	  $(BIN) dj simulate --quiet --seed $(firstword $(DJ_TUNE_SEEDS)) --seeds $(words $(DJ_TUNE_SEEDS)) --replicas 1 \
	    --days 7 --world $$w --out $(DJ_TUNE_WORK)/$$w || exit 1; \
	done
	$(BIN) tune $(addprefix $(DJ_TUNE_WORK)/,$(DJ_TUNE_WORLDS)) --engine ranking --cv kfold:5 --budget 30 --force \
	  --out $(DJ_TUNE_WORK)/ranking.json --report-dir $(DJ_TUNE_WORK)/report

# docs/dj.md, Worlds: what `make dj-tune` changed and how it did on held-out personas,
# from its tuning receipt (the objective, the verdict and the table of changed constants).
evidence-dj-tune: dj-tune
	@mkdir -p $(MEASURED); \
	{ echo "Measured by \`make evidence-dj-tune\` (\`make dj-tune\`: \`tune --engine ranking\` on the worlds" \
	    "$(DJ_TUNE_WORLDS), development seeds $(DJ_TUNE_SEEDS)); from its tuning receipt:"; echo; \
	  awk '/^## Evidence/ { exit } /^Objective:/ || (f && !/^## /) { print } /^## Verdict/ { f = 1 }' \
	    $(DJ_TUNE_WORK)/report/tuning.md; } | cat -s > $(MEASURED)/dj_tune.md.tmp && mv $(MEASURED)/dj_tune.md.tmp $(MEASURED)/dj_tune.md

evidence-dj-worlds: dj-tune
	$(MAKE) dj-worlds DJ_TUNED=$(DJ_TUNE_WORK)/ranking.json DJ_WORLDS_OUT=$(MEASURED)/dj_worlds.md

# Wall time of `dj simulate` for 1,000 listeners (100 replicas of the ten personas) × 30
# days, one seed, all five policies on the default world, against its 60 s budget on 2
# cores; CPU seconds (user + system of the command) beside it.
BENCH_TARGETS += bench-dj
bench-dj: build
	@start=$$(date +%s%N); \
	cpu=$$( { /usr/bin/time -f "%U %S" $(BIN) dj simulate --quiet --out build/bench/dj --seeds 1 --replicas 100 --days 30 \
	  --jobs 2 2>&1 >/dev/null | tail -1; } ) && \
	end=$$(date +%s%N); \
	awk -v ns=$$((end - start)) -v cpu="$$cpu" 'BEGIN { s = ns / 1e9; split(cpu, c, " "); \
	  printf "bench-dj: dj simulate, 1000 listeners x 30 days %.2f s wall, %.2f s CPU (budget 60 s, ratio %.2f)\n", s, c[1] + c[2], s / 60 }'

# Wall time of `dj replay` on the effects workload (1,000,000 logged plays; generated
# once by mk/effects.mk), against its 60 s budget on 2 cores.
BENCH_TARGETS += bench-dj-replay
bench-dj-replay: build venv effects-workload
	@$(PY) scripts/bench/bench_dj_replay.py $(BIN) $(EFFECTS_BENCH_WS)

# The held-out evaluation (`make evaluate VERDICT=dj`, mk/heldout.json): the ranking tuned
# on the development worlds and seeds, then every world on the evaluation seeds.
dj-evaluate: dj-tune
	$(MAKE) dj-worlds DJ_TUNED=$(DJ_TUNE_WORK)/ranking.json DJ_SEEDS="$(DJ_SEEDS)" DJ_WORLDS_WORK=$(DJ_WORLDS_WORK) \
	  DJ_WORLDS_OUT=$(DJ_WORLDS_OUT) DJ_WORLDS_JSON=$(DJ_WORLDS_JSON)

# docs/dj.md, Off-policy evaluation: the estimators of `dj ope` against the one-step truth
# over DJ_OPE_RUNS small runs (`dj simulate --seeds 1 --log-propensities $(DJ_OPE_SIZE)`
# on development seeds DJ_OPE_FIRST_SEED onwards, seeds of this study only; no held-out
# verdict rests on them), then scripts/evidence/dj_ope.py tables bias, interval width and
# coverage with its Wilson interval. About 3 minutes on 2 cores.
DJ_OPE_RUNS ?= 200
DJ_OPE_FIRST_SEED ?= 5000
DJ_OPE_SIZE ?= --replicas 3 --days 3 --songs 60 --library-cap 30 --songs-per-session 4
DJ_OPE_WORK ?= build/work/dj-ope
.PHONY: evidence-dj-ope
evidence-dj-ope: build
	@rm -rf $(DJ_OPE_WORK); mkdir -p $(DJ_OPE_WORK) $(MEASURED)
	python3 scripts/evidence/dj_ope.py --binary $(BIN) --work $(DJ_OPE_WORK) --first-seed $(DJ_OPE_FIRST_SEED) \
	  --runs $(DJ_OPE_RUNS) --size "$(DJ_OPE_SIZE)" --out $(MEASURED)/dj_ope.md \
	  --command "make evidence-dj-ope DJ_OPE_RUNS=$(DJ_OPE_RUNS) DJ_OPE_FIRST_SEED=$(DJ_OPE_FIRST_SEED)"
