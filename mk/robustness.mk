# ---- effect robustness -----------------------------------------------------
# How well the song-effect models recover the planted effects when listeners follow
# another response law (docs/personas.md, Response laws; docs/methods.md, Robustness):
# every law × strength × seed, five models (mixed, ema, naive mean, OLS fixed effects,
# statsmodels MixedLM), r, slope and 95 % coverage with intervals over seeds.
# `make effect-robustness` runs the full table (also part of `make bench`);
# `make test` runs one severe seed per law (`test-effect-robustness`).
ROBUSTNESS_WORK ?= build/robustness
ROBUSTNESS_SEEDS ?= 401,402,403,404,405
BENCH_TARGETS += effect-robustness
TEST_EXTRA_TARGETS += test-effect-robustness

.PHONY: effect-robustness test-effect-robustness
effect-robustness: build venv
	@mkdir -p reports/robustness
	$(PY) scripts/effect_robustness.py $(BIN) --work $(ROBUSTNESS_WORK)/full --seeds $(ROBUSTNESS_SEEDS) --onset-variants \
	  --markdown reports/robustness/effect_robustness.md --json reports/robustness/effect_robustness.json

test-effect-robustness: build venv
	@$(PY) scripts/effect_robustness.py --self-test
	$(PY) scripts/effect_robustness.py $(BIN) --work $(ROBUSTNESS_WORK)/ci --strengths severe --seeds 301 --check
