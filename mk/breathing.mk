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
