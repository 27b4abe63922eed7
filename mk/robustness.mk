# ---- effect robustness -----------------------------------------------------
# How well the song-effect models recover the planted effects when listeners follow
# another response law (docs/personas.md, Response laws; docs/methods.md, Robustness):
# every law × strength × seed, five models (mixed, ema, naive mean, OLS fixed effects,
# statsmodels MixedLM), r, slope and 95 % coverage with intervals over seeds.
# `make effect-robustness` runs the full table (also part of `make bench`);
# `make test` runs one severe seed per law over 15 days (`test-effect-robustness`): the
# smallest size at which the standard law's gate still fails when the intervals break
# (`--constants` with the mixed model's `ci_z` at 1 instead of 1.96: ΔHR coverage 0.71,
# ΔRMSSD 0.84 at 15 days, exit 1), at a quarter of the 30 days' time.
# Seeds: the development seeds of mk/heldout.json (the smoke test its `ci` seed);
# `make evaluate VERDICT=effect_robustness` runs the evaluation seeds.
ROBUSTNESS_WORK ?= build/robustness
ROBUSTNESS_SEEDS ?= $(call HELDOUT_SEEDS,effect_robustness,development,--csv)
ROBUSTNESS_CI_SEEDS ?= $(call HELDOUT_SEEDS,effect_robustness,ci,--csv)
ROBUSTNESS_REPORTS ?= reports/robustness
ROBUSTNESS_MARKDOWN ?= $(ROBUSTNESS_REPORTS)/effect_robustness.md
ROBUSTNESS_CAPTION ?= Seeds $(ROBUSTNESS_SEEDS), the ten personas × 30 days per law × strength × seed.
BENCH_TARGETS += effect-robustness
TEST_EXTRA_TARGETS += test-effect-robustness

.PHONY: effect-robustness test-effect-robustness evidence-effect-robustness
effect-robustness: build venv
	@mkdir -p $(ROBUSTNESS_REPORTS)
	$(PY) scripts/evidence/effect_robustness.py $(BIN) --work $(ROBUSTNESS_WORK)/full --seeds $(ROBUSTNESS_SEEDS) --onset-variants \
	  --caption '$(ROBUSTNESS_CAPTION)' \
	  --markdown $(ROBUSTNESS_MARKDOWN) --json $(ROBUSTNESS_REPORTS)/effect_robustness.json

evidence-effect-robustness:
	$(MAKE) effect-robustness ROBUSTNESS_MARKDOWN=$(MEASURED)/effect_robustness_development.md \
	  ROBUSTNESS_CAPTION='Development seeds $(ROBUSTNESS_SEEDS) (the held-out registry), the ten personas × 30 days per law × strength × seed; `make evidence-effect-robustness` writes this table.'

test-effect-robustness: build venv
	@$(PY) scripts/evidence/effect_robustness.py --self-test
	$(PY) scripts/evidence/effect_robustness.py $(BIN) --work $(ROBUSTNESS_WORK)/ci --strengths severe --seeds $(ROBUSTNESS_CI_SEEDS) --days 15 --check
