# ---- notebooks ---------------------------------------------------------------
# `make notebooks [DATASET=PATH]`: executes the notebooks of notebooks-export/ on each
# validated workspace (build/work/<dataset>, from `make validate`, which runs this step
# last) into reports/<dataset>/notebooks/ (*.ipynb executed, *.html) and
# reports/<dataset>/figures/ (*.png at 150 dpi, *.svg), and embeds the figures in
# validation.md and the persona reports; where `make tune` left a report
# (reports/tuning/<dataset>/tuning.md), the tuning notebook draws it there. Without
# DATASET the persona workspace gets the validation and persona notebooks too. A
# missing workspace is validated first.
# `make notebooks-test` (part of `make test`) runs every notebook on the synthetic
# sample and a 7-day persona workspace and checks the figures (Tests/Notebooks).
NOTEBOOKS_RUN = $(PY) scripts/lib/notebooks.py --bin $(BIN)
# `make tune` reports, one folder per dataset: the tuning notebook runs where one exists.
NOTEBOOKS_TUNING = $(or $(TUNE_REPORTS),reports/tuning)
TEST_EXTRA_TARGETS += notebooks-test

.PHONY: notebooks notebooks-run notebooks-test
notebooks: build venv
	@missing=""; for ds in $$(scripts/lib/datasets.sh "$(DATASET)"); do \
	  [ -f "reports/$$(basename "$$ds")/validation.json" ] || missing=1; done; \
	[ -z "$(DATASET)" ] && [ ! -f $(PERSONAS_REPORTS)/validation.json ] && missing=1; \
	if [ -n "$$missing" ]; then $(MAKE) --no-print-directory validate DATASET="$(DATASET)"; \
	else $(MAKE) --no-print-directory notebooks-run DATASET="$(DATASET)"; fi

notebooks-run: build venv
	@set -e; export SOURCE_DATE_EPOCH=$${SOURCE_DATE_EPOCH:-0}; \
	for ds in $$(scripts/lib/datasets.sh "$(DATASET)"); do name=$$(basename "$$ds"); \
	  $(NOTEBOOKS_RUN) --workspace build/work/$$name --report-dir reports/$$name --kind validation; \
	  tuned=$(NOTEBOOKS_TUNING)/$$name; \
	  if [ -f $$tuned/tuning.md ]; then $(NOTEBOOKS_RUN) --workspace build/work/$$name --report-dir $$tuned --kind tuning; fi; \
	done; \
	if [ -z "$(DATASET)" ]; then \
	  $(NOTEBOOKS_RUN) --workspace $(PERSONAS_WS) --report-dir $(PERSONAS_REPORTS) --kind validation --kind persona; \
	fi

notebooks-test: build venv
	RESONANCE_BIN=$(abspath $(BIN)) $(PY) -m pytest -q -p no:cacheprovider Tests/Notebooks
