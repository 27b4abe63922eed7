# ---- measured evidence in the docs ---------------------------------------------
# Every table of measured numbers that README.md and docs/ cite is a generated block
# `<!-- BEGIN generated measured:NAME -->`, whose content is the Markdown fragment
# evidence/measured/NAME.md (scripts/docs_blocks.py). A target that measures writes its
# fragment there and enters itself in EVIDENCE_TARGETS; `make evidence` runs them all,
# on development seeds (evaluation results come from the ledger, evidence/ledger.csv),
# then rewrites the blocks. `make docs-check` (in `make test`) fails when a block differs
# from its fragment, or a fragment is included nowhere. Timings, and numbers from files
# outside the repository, say so beside their table.
# (The list is read when the recipe runs, after every mk/*.mk has extended it.)
MEASURED := evidence/measured

.PHONY: evidence
evidence: build
	$(if $(strip $(EVIDENCE_TARGETS)),$(MAKE) $(EVIDENCE_TARGETS))
	$(MAKE) docs-blocks
