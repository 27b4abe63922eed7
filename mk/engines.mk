# ---- daily engines -----------------------------------------------------------
# `make crosscheck-daily`: an independent numpy/pandas implementation of the stress,
# readiness and heart-trend engines (scripts/checks/check_daily_engines.py) recomputes every
# engine column of a generated persona workspace (45 days, so the week-over-week and
# elevation baselines fill) and prints one `Test Case` line per column.
ENGINES_CHECK_WS ?= build/work/engines-check

.PHONY: crosscheck-daily
TEST_EXTRA_TARGETS += crosscheck-daily
crosscheck-daily: build venv
	$(BIN) personas generate --quiet --out $(ENGINES_CHECK_WS) --days 45 --seed 7
	$(PY) scripts/checks/check_daily_engines.py $(ENGINES_CHECK_WS)/daily.csv
