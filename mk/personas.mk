# ---- personas --------------------------------------------------------------
# `make personas`: the ten synthetic personas × 30 days (docs/personas.md) into a workspace,
# then one report per persona. PERSONAS_SEED picks another deterministic population.
PERSONAS_WS ?= build/work/personas
PERSONAS_REPORTS ?= reports/personas
PERSONAS_DAYS ?= 30
PERSONAS_SEED ?= 0

.PHONY: personas validate-personas bench-personas
personas: build
	$(BIN) personas generate --out $(PERSONAS_WS) --days $(PERSONAS_DAYS) --seed $(PERSONAS_SEED)
	$(BIN) personas report $(PERSONAS_WS) --out $(PERSONAS_REPORTS)

# The persona workspace through every stage, then its validation report (with the
# recovery of the planted effects from truth.csv) beside the persona reports.
validate-personas: personas
	@set -e; for stage in $(VALIDATE_STAGES); do $(BIN) $$stage $(PERSONAS_WS) $(call STAGE_FLAGS,$$stage,$(PERSONAS_WS)); done
	$(BIN) validate $(PERSONAS_WS) --out $(PERSONAS_REPORTS)

# Wall time of the `make personas` work (generate + report) against its 60 s budget.
BENCH_TARGETS += bench-personas
bench-personas: build
	@start=$$(date +%s%N); \
	$(BIN) personas generate --quiet --out build/bench/personas --days 30 && \
	$(BIN) personas report --quiet build/bench/personas --out build/bench/personas-reports && \
	end=$$(date +%s%N); \
	awk -v ns=$$((end - start)) 'BEGIN { s = ns / 1e9; \
	  printf "bench-personas: 10 personas x 30 days, generate + report %.2f s (budget 60 s, ratio %.2f)\n", s, s / 60 }'
