# ---- pipeline ----------------------------------------------------------------
# `make check-run` (part of `make test`): `resonance run` on the synthetic sample writes
# the same bytes as import followed by each stage's command, in separate processes.
# RUN_CHECK_DATASETS=PATH... checks other dataset folders too (e.g. the shared ones).
TEST_EXTRA_TARGETS += check-run
RUN_CHECK_DATASETS ?= datasets/sample

.PHONY: check-run
check-run: build
	scripts/checks/run_vs_stages.sh $(BIN) build/check-run $(RUN_CHECK_DATASETS)
