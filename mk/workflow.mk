# ---- workflow ------------------------------------------------------------------
# `make validate-workflow [DATASET=PATH] [SHARDS=N]`: the Snakemake workflow
# (workflow/Snakefile) on this machine with `--cores 2`, on the datasets `make validate`
# takes (DATASET, else each under $RESONANCE_DATASETS, else the synthetic sample): import,
# split into SHARDS shards, the per-subject stages on each shard, merge, effects,
# validate and notebooks, into $(WORKFLOW_WORK). Then one single-machine `resonance run`
# per dataset, and every file of the workflow's workspace and validation report is
# compared with it byte for byte (scripts/workflow_check.sh).
SHARDS ?= 4
WORKFLOW_WORK ?= build/workflow
WORKFLOW_CORES ?= 2
SNAKEMAKE := $(VENV)/bin/snakemake

# The datasets as the workflow's `datasets` list: --config 'datasets=["A","B"]'.
workflow_datasets = datasets=[$$(scripts/datasets.sh "$(DATASET)" | sed 's/.*/"&"/' | paste -sd, -)]

.PHONY: validate-workflow
validate-workflow: build venv
	$(SNAKEMAKE) --cores $(WORKFLOW_CORES) --config shards=$(SHARDS) work=$(WORKFLOW_WORK) \
	  resonance=$(BIN) python=$(PY) "$(workflow_datasets)"
	scripts/workflow_check.sh $(BIN) $(WORKFLOW_WORK) "validate-workflow ($(SHARDS) shards)" \
	  $$(scripts/datasets.sh "$(DATASET)")
