# ---- tune ------------------------------------------------------------------
# `make tune`: tune-stress, then tune-song-effect.
#
# tune-stress: for every labelled dataset (DATASET=PATH for one folder, else each under
# $RESONANCE_DATASETS), tune the stress engine by leave-one-subject-out cross-validation,
# write reports/tuning/NAME/{tuning.md,stress.json}, then validate with the defaults and
# with the tuned constants and put the two side by side in comparison.md. When the tuned
# constants do not beat the defaults on held-out subjects, `resonance tune` writes
# nothing (exit code 3) and the defaults are kept.
#
# tune-song-effect: on the persona workspace (generated when it has no truth.csv; the
# persona days and seed of mk/personas.mk), reconstruct sessions, tune the song-effect
# engine's learning constants by leave-one-listener-out cross-validation against the
# planted effects, write reports/tuning/personas/{tuning.md,song_effect.json}, and
# validate the `ema` model's effects with the tuned and the default constants side by
# side (comparison.md). The workspace is left with the defaults' `ema` effects.
TUNE_OBJECTIVE ?= balanced-accuracy
TUNE_BUDGET ?= 500
TUNE_SEED ?= 1
TUNE_REPORTS ?= reports/tuning
TUNE_PERSONAS_WS ?= build/work/personas

TEST_EXTRA_TARGETS += tune-cli-test
BENCH_TARGETS += bench-tune

.PHONY: tune tune-stress tune-song-effect tune-cli-test bench-tune bench-tune-stress bench-tune-song-effect
tune: tune-stress tune-song-effect

# Every Stress-Predict subject is development data for the stress tuning (mk/heldout.json,
# verdict stress_tuning): leave-one-subject-out selects the constants over all of them.
# Once the registry declares evaluation subjects, tune-stress refuses to run until it
# leaves them out.
STRESS_EVALUATION_SUBJECTS = $(call HELDOUT_SEEDS,stress_tuning,evaluation)
tune-stress: build
	@if [ -n "$(strip $(STRESS_EVALUATION_SUBJECTS))" ]; then \
	  echo "tune-stress: mk/heldout.json declares evaluation subjects ($(STRESS_EVALUATION_SUBJECTS)); tuning would see them" >&2; exit 2; fi
	@set -e; for ds in $$(scripts/lib/datasets.sh "$(DATASET)"); do \
	  name=$$(basename "$$ds"); ws=build/work/$$name; out=$(TUNE_REPORTS)/$$name; \
	  $(BIN) import "$$ds" --out "$$ws" --quiet; \
	  if ! grep -q ',stress$$' "$$ws/labels.csv" 2>/dev/null; then echo "tune: $$name has no stress labels, skipped" >&2; continue; fi; \
	  echo "== tune $$name" >&2; mkdir -p "$$out"; rm -f "$$out/stress.json"; \
	  $(BIN) validate "$$ws" --quiet --report-dir "$$out/default"; \
	  rc=0; $(BIN) tune "$$ws" --engine stress --objective $(TUNE_OBJECTIVE) --budget $(TUNE_BUDGET) --seed $(TUNE_SEED) \
	    --out "$$out/stress.json" --report-dir "$$out" || rc=$$?; \
	  if [ $$rc -eq 0 ]; then \
	    $(BIN) validate "$$ws" --quiet --constants "$$out/stress.json" --report-dir "$$out/tuned"; \
	    python3 scripts/evidence/tune_compare.py "$$out/default/validation.json" "$$out/tuned/validation.json" > "$$out/comparison.md"; \
	    echo "tune: $$out/comparison.md" >&2; \
	  elif [ $$rc -eq 3 ]; then echo "tune: $$name: defaults kept (see $$out/tuning.md)" >&2; \
	  else exit $$rc; fi; \
	done

tune-song-effect: build
	@set -e; ws=$(TUNE_PERSONAS_WS); out=$(TUNE_REPORTS)/personas; \
	if [ ! -f "$$ws/truth.csv" ]; then \
	  $(BIN) personas generate --quiet --out "$$ws" --days $(PERSONAS_DAYS) --seed $(PERSONAS_SEED); fi; \
	$(BIN) sessions --quiet "$$ws"; \
	echo "== tune song_effect on $$ws" >&2; mkdir -p "$$out"; rm -f "$$out/song_effect.json"; \
	rc=0; $(BIN) tune "$$ws" --engine song_effect --budget $(TUNE_BUDGET) --seed $(TUNE_SEED) \
	  --out "$$out/song_effect.json" --report-dir "$$out" || rc=$$?; \
	if [ $$rc -eq 0 ]; then \
	  $(BIN) effects --quiet "$$ws" --model ema --constants "$$out/song_effect.json"; \
	  $(BIN) validate "$$ws" --quiet --constants "$$out/song_effect.json" --report-dir "$$out/tuned"; \
	fi; \
	$(BIN) effects --quiet "$$ws" --model ema; \
	$(BIN) validate "$$ws" --quiet --report-dir "$$out/default"; \
	if [ $$rc -eq 0 ]; then \
	  python3 scripts/evidence/tune_compare.py --engine song_effect "$$out/default/validation.json" "$$out/tuned/validation.json" \
	    > "$$out/comparison.md"; \
	  echo "tune: $$out/comparison.md" >&2; \
	elif [ $$rc -eq 3 ]; then echo "tune: personas: song_effect defaults kept (see $$out/tuning.md)" >&2; \
	else exit $$rc; fi

# The tune command as a user runs it: reproducible files, loading through --constants,
# one-line errors and exit codes (separate processes on a synthetic labelled workspace and
# on a four-day persona workspace for --engine song_effect).
tune-cli-test: build
	python3 scripts/checks/tune_cli_test.py --bin $(BIN) --work build/tune-cli-test

# `tune --engine stress --budget 500` on Stress-Predict against its 60 s budget, with the
# time per candidate evaluation (skipped without the shared datasets); then
# `tune --engine song_effect --budget 500` on the ten personas x 30 days (generated and
# sessions reconstructed afresh into build/bench/personas-tune), with its time per candidate.
bench-tune: build bench-tune-stress bench-tune-song-effect

bench-tune-stress: build
	@sp="$(RESONANCE_DATASETS)/stress-predict"; \
	if [ ! -d "$$sp" ]; then echo "bench-tune: skipped ($$sp not found)"; exit 0; fi; \
	$(BIN) import "$$sp" --quiet --out build/bench/stress-predict || exit 1; \
	start=$$(date +%s%N); \
	$(BIN) tune build/bench/stress-predict --engine stress --budget 500 --force --progress --out build/bench/stress-tuned.json \
	  2> build/bench/tune.log || { cat build/bench/tune.log; exit 1; }; \
	end=$$(date +%s%N); \
	grep 'candidate evaluations' build/bench/tune.log | sed 's/^tune:/bench-tune:/'; \
	awk -v ns=$$((end - start)) 'BEGIN { s = ns / 1e9; \
	  printf "bench-tune: stress-predict (26 subjects, 25 labelled), tune --budget 500 LOSO %.2f s wall (budget 60 s, ratio %.2f)\n", s, s / 60 }'

bench-tune-song-effect: build
	@ws=build/bench/personas-tune; rm -rf "$$ws"; \
	$(BIN) personas generate --quiet --out "$$ws" --days 30 --seed 0 && $(BIN) sessions --quiet "$$ws" || exit 1; \
	start=$$(date +%s%N); \
	$(BIN) tune "$$ws" --engine song_effect --budget 500 --force --progress --out build/bench/song-effect-tuned.json \
	  2> build/bench/tune-song-effect.log || { cat build/bench/tune-song-effect.log; exit 1; }; \
	end=$$(date +%s%N); \
	grep 'candidate evaluations' build/bench/tune-song-effect.log | sed 's/^tune:/bench-tune: song_effect:/'; \
	awk -v ns=$$((end - start)) 'BEGIN { printf "bench-tune: personas (10 listeners x 30 days), tune --engine song_effect --budget 500 LOSO %.2f s wall\n", ns / 1e9 }'
