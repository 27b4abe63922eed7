# ---- tune ------------------------------------------------------------------
# `make tune`: for every labelled dataset (DATASET=PATH for one folder, else each under
# $RESONANCE_DATASETS), tune the stress engine by leave-one-subject-out cross-validation,
# write reports/tuning/NAME/{tuning.md,stress.json}, then validate with the defaults and
# with the tuned constants and put the two side by side in comparison.md. When the tuned
# constants do not beat the defaults on held-out subjects, `resonance tune` writes
# nothing (exit code 3) and the defaults are kept.
TUNE_OBJECTIVE ?= balanced-accuracy
TUNE_BUDGET ?= 500
TUNE_SEED ?= 1
TUNE_REPORTS ?= reports/tuning

TEST_EXTRA_TARGETS += tune-cli-test
BENCH_TARGETS += bench-tune

.PHONY: tune tune-cli-test bench-tune
tune: build
	@set -e; for ds in $$(scripts/datasets.sh "$(DATASET)"); do \
	  name=$$(basename "$$ds"); ws=build/work/$$name; out=$(TUNE_REPORTS)/$$name; \
	  $(BIN) import "$$ds" --out "$$ws" --quiet; \
	  if ! grep -q ',stress$$' "$$ws/labels.csv" 2>/dev/null; then echo "tune: $$name has no stress labels, skipped" >&2; continue; fi; \
	  echo "== tune $$name" >&2; mkdir -p "$$out"; rm -f "$$out/stress.json"; \
	  $(BIN) validate "$$ws" --quiet --report-dir "$$out/default"; \
	  rc=0; $(BIN) tune "$$ws" --engine stress --objective $(TUNE_OBJECTIVE) --budget $(TUNE_BUDGET) --seed $(TUNE_SEED) \
	    --out "$$out/stress.json" --report-dir "$$out" || rc=$$?; \
	  if [ $$rc -eq 0 ]; then \
	    $(BIN) validate "$$ws" --quiet --constants "$$out/stress.json" --report-dir "$$out/tuned"; \
	    python3 scripts/tune_compare.py "$$out/default/validation.json" "$$out/tuned/validation.json" > "$$out/comparison.md"; \
	    echo "tune: $$out/comparison.md" >&2; \
	  elif [ $$rc -eq 3 ]; then echo "tune: $$name: defaults kept (see $$out/tuning.md)" >&2; \
	  else exit $$rc; fi; \
	done

# The tune command as a user runs it: reproducible files, loading through --constants,
# one-line errors and exit codes (separate processes on a synthetic labelled workspace).
tune-cli-test: build
	python3 scripts/tune_cli_test.py --bin $(BIN) --work build/tune-cli-test

# `tune --engine stress --budget 500` on Stress-Predict against its 60 s budget, with the
# time per candidate evaluation. Skips (and passes) without the shared datasets.
bench-tune: build
	@sp="$(RESONANCE_DATASETS)/stress-predict"; \
	if [ ! -d "$$sp" ]; then echo "bench-tune: skipped ($$sp not found)"; exit 0; fi; \
	$(BIN) import "$$sp" --quiet --out build/bench/stress-predict && \
	start=$$(date +%s%N); \
	$(BIN) tune build/bench/stress-predict --engine stress --budget 500 --force --out build/bench/stress-tuned.json \
	  2> build/bench/tune.log; \
	end=$$(date +%s%N); \
	grep 'candidate evaluations' build/bench/tune.log | sed 's/^tune:/bench-tune:/'; \
	awk -v ns=$$((end - start)) 'BEGIN { s = ns / 1e9; \
	  printf "bench-tune: stress-predict (26 subjects, 25 labelled), tune --budget 500 LOSO %.2f s wall (budget 60 s, ratio %.2f)\n", s, s / 60 }'
