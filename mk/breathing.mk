# ---- breathing -----------------------------------------------------------------
# `make bench-breathing`: the product's coherence (a 30 s window every 0.25 s) over the
# 69 PhysioNet records, and `resonance breathing simulate` for 1,000 sessions, in the
# standard world and with every difficulty of real breathing on (`--world all`).
BENCH_TARGETS += bench-breathing

.PHONY: bench-breathing
bench-breathing: build
	python3 scripts/bench/bench_breathing.py $(BIN) build/bench/breathing

# `make pacer-worlds`: every pacer strategy in every simulated world (docs/methods.md,
# Breathing, "Simulated breathers") on the pacer verdict's training seeds (development) of
# mk/heldout.json, written as evidence/measured/pacer_worlds.md (the docs' measured
# block) and build/pacer-worlds/pacer_worlds.json; `make evaluate VERDICT=pacer` runs it
# on the evaluation seeds into reports/heldout/pacer/. About 1 min on 2 cores.
PACER_SEEDS ?= $(call HELDOUT_SEEDS,pacer,training,--csv)
PACER_WORK ?= build/pacer-worlds
PACER_MD ?= $(MEASURED)/pacer_worlds.md
PACER_JSON ?= $(PACER_WORK)/pacer_worlds.json

.PHONY: pacer-worlds evidence-pacer-worlds
pacer-worlds: build
	python3 scripts/evidence/pacer_worlds.py $(BIN) --work $(PACER_WORK) --seeds $(PACER_SEEDS) --markdown $(PACER_MD) --json $(PACER_JSON)

evidence-pacer-worlds: pacer-worlds

# `make evidence-pacer-tune` (docs/methods/coherence-breathing.md, "Tuning on development
# worlds, reported on others"): `breathing simulate --world all --strategies robust` on
# PACER_TUNE_SEEDS, `tune --engine pacer --cv $(PACER_TUNE_CV) --budget $(PACER_TUNE_BUDGET)`
# on its sessions, then scripts/evidence/pacer_worlds.py in every world on
# PACER_TUNE_REPLAY_SEEDS with the default and with the tuned constants; both halves of the
# pacer verdict's training seeds (development, mk/heldout.json), which
# scripts/evidence/pacer_tune.py checks. Writes evidence/measured/pacer_tune.md; about 40 s
# on 2 cores.
PACER_TUNE_TRAINING = $(call HELDOUT_SEEDS,pacer,training)
PACER_TUNE_SEEDS ?= $(wordlist 1,10,$(PACER_TUNE_TRAINING))
PACER_TUNE_REPLAY_SEEDS ?= $(wordlist 11,20,$(PACER_TUNE_TRAINING))
PACER_TUNE_CV ?= kfold:2
PACER_TUNE_BUDGET ?= 20
PACER_TUNE_WORK ?= build/pacer-tune

.PHONY: evidence-pacer-tune
evidence-pacer-tune: build
	python3 scripts/evidence/pacer_tune.py $(BIN) --work $(PACER_TUNE_WORK) --tune-seeds '$(PACER_TUNE_SEEDS)' \
	  --replay-seeds '$(PACER_TUNE_REPLAY_SEEDS)' --cv $(PACER_TUNE_CV) --budget $(PACER_TUNE_BUDGET) \
	  --markdown $(MEASURED)/pacer_tune.md \
	  --caption 'Measured by `make evidence-pacer-tune`: `breathing simulate --world all --strategies robust` on development seeds {tune_seeds}, `tune --engine pacer --cv $(PACER_TUNE_CV) --budget $(PACER_TUNE_BUDGET) --force` on its sessions, then scripts/evidence/pacer_worlds.py in every world on development seeds {replay_seeds} with the default and with the tuned constants (10 personas per seed).'
