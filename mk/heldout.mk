# ---- held-out protocol -----------------------------------------------------
# mk/heldout.json is the one registry of verdicts (docs/methods.md, Held-out protocol):
# per verdict its development seeds, which the tuning and selection targets (alarms,
# effect-robustness, their smoke tests in `make test`) read through HELDOUT_SEEDS, and
# its evaluation seeds, which only `make evaluate VERDICT=name` runs: from a tree whose
# code (Sources scripts mk Makefile Package.swift) is committed, else a one-line refusal
# and exit 2; it appends verdict, seeds, commit, date and the result file's SHA-256 to
# evidence/ledger.csv. DRY_RUN=1 checks the tree and prints what would run.
# `heldout-test` (part of `make test`) checks the registry, the refusal and the ledger
# row in a temporary git repository with a fake verdict, in about a second.
HELDOUT := python3 scripts/lib/heldout.py
# $(call HELDOUT_SEEDS,verdict,development|evaluation|ci|training[,--csv])
HELDOUT_SEEDS = $(shell $(HELDOUT) seeds $(1) $(2) $(3))
VERDICT ?=
DRY_RUN ?=
TEST_EXTRA_TARGETS += heldout-test

.PHONY: evaluate heldout-test
evaluate:
	@[ -n "$(VERDICT)" ] || { echo "evaluate: VERDICT=name is required ($$(python3 -c 'import json; print(" ".join(json.load(open("mk/heldout.json"))["verdicts"]))'))" >&2; exit 2; }
	@$(HELDOUT) evaluate $(VERDICT) $(if $(DRY_RUN),--dry-run)

heldout-test:
	@$(HELDOUT) --self-test
