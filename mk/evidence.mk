# ---- measured evidence in the docs ---------------------------------------------
# Every table of measured numbers that README.md and docs/ cite is a generated block
# `<!-- BEGIN generated measured:NAME -->`, whose content is the Markdown fragment
# evidence/measured/NAME.md (scripts/lib/docs_blocks.py). The targets that write them are
# declared once, in mk/evidence.tsv, with how `make evidence-check` checks each; their
# rules live with their stage. `make evidence` runs them all, on development seeds
# (evaluation results come from the ledger, evidence/ledger.csv), then rewrites the
# blocks. `make docs-check` (in `make test`) fails when a block differs from its
# fragment, or a fragment is included nowhere. Timings, and numbers from files outside
# the repository, say so beside their table.
MEASURED := evidence/measured
EVIDENCE_TABLE := mk/evidence.tsv
# Read when a recipe uses it, not when make starts (the install test runs make without awk).
EVIDENCE_TARGETS = $(shell awk -F'\t' '!/^\#/ && NF { print $$1 }' $(EVIDENCE_TABLE))

.PHONY: evidence
evidence: build
	$(MAKE) $(EVIDENCE_TARGETS)
	$(MAKE) docs-blocks

# `make evidence-check` (in `make test`) checks the generators themselves, as the table
# says (scripts/checks/evidence_check.py, one `Test Case 'evidence.NAME'` line each): a
# compare target's fragment against evidence/measured/NAME.md, a small run's against
# evidence/measured/small/NAME.md. `make evidence-small` rewrites the small fragments;
# commit them with the change that moved them.
TEST_EXTRA_TARGETS += evidence-check

.PHONY: evidence-check evidence-small
evidence-check: build
	@python3 scripts/checks/evidence_check.py --make '$(MAKE)' --table $(EVIDENCE_TABLE) \
	  --test-targets $(TEST_EXTRA_TARGETS)

evidence-small: build
	@python3 scripts/checks/evidence_check.py --make '$(MAKE)' --table $(EVIDENCE_TABLE) --update-small

# `make evidence-tables-test` (in `make test`, about a second): the table writers
# alarm_table.py, dj_worlds.py, pacer_worlds.py and dj_ope.py on small inputs with outputs worked by
# hand (scripts/checks/evidence_tables_check.py).
TEST_EXTRA_TARGETS += evidence-tables-test

.PHONY: evidence-tables-test
evidence-tables-test:
	@python3 scripts/checks/evidence_tables_check.py
