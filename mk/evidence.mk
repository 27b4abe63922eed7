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
EVIDENCE_TARGETS := $(shell awk -F'\t' '!/^\#/ && NF { print $$1 }' $(EVIDENCE_TABLE))

.PHONY: evidence
evidence: build
	$(MAKE) $(EVIDENCE_TARGETS)
	$(MAKE) docs-blocks

# `make evidence-check` (in `make test`) checks the generators themselves, as the table
# says (scripts/checks/evidence_check.py, one `Test Case 'evidence.NAME'` line each).
TEST_EXTRA_TARGETS += evidence-check

.PHONY: evidence-check
evidence-check: build
	@python3 scripts/checks/evidence_check.py --make '$(MAKE)' --table $(EVIDENCE_TABLE) \
	  --test-targets $(TEST_EXTRA_TARGETS)
