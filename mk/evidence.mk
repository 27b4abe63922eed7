# ---- measured evidence in the docs ---------------------------------------------
# Every table of measured numbers that README.md and docs/ cite is a generated block
# `<!-- BEGIN generated measured:NAME -->`, whose content is the Markdown fragment
# evidence/measured/NAME.md (scripts/lib/docs_blocks.py). A target that measures writes its
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

# `make evidence-check` (in `make test`) checks the generators themselves: the targets in
# EVIDENCE_CHECK (each well under 10 s) are run into a temporary folder and their
# fragments compared byte for byte with the committed ones; those in EVIDENCE_SMOKE (slow,
# each with the variables that make it small) only have to run and write their fragment
# (scripts/checks/evidence_check.py, one `Test Case 'evidence.NAME'` line each). Every target of
# EVIDENCE_TARGETS is in one of them, or in EVIDENCE_CHECKED_ELSEWHERE: the robustness
# table's script runs small in `test-effect-robustness`.
EVIDENCE_CHECKED_ELSEWHERE += evidence-effect-robustness
TEST_EXTRA_TARGETS += evidence-check

.PHONY: evidence-check
evidence-check: build
	@python3 scripts/checks/evidence_check.py --make '$(MAKE)' --compare $(EVIDENCE_CHECK) --smoke "$(EVIDENCE_SMOKE)" \
	  --all $(EVIDENCE_TARGETS) --elsewhere $(EVIDENCE_CHECKED_ELSEWHERE)
