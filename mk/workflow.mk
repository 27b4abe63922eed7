# ---- workflow ------------------------------------------------------------------
# `make validate-workflow [DATASET=PATH] [SHARDS=N]`: the Snakemake workflow
# (workflow/Snakefile) on this machine with `--cores 2`, on the datasets `make validate`
# takes (DATASET, else each under $RESONANCE_DATASETS, else the synthetic sample): import,
# split into SHARDS shards, the per-subject stages on each shard, merge, effects,
# validate and notebooks, into $(WORKFLOW_WORK). Then one single-machine `resonance run`
# per dataset, and every file of the workflow's workspace and validation report is
# compared with it byte for byte (scripts/checks/workflow_check.sh).
SHARDS ?= 4
WORKFLOW_WORK ?= build/workflow
WORKFLOW_CORES ?= 2
SNAKEMAKE := $(VENV)/bin/snakemake

# The datasets as the workflow's `datasets` list: --config 'datasets=["A","B"]'.
workflow_datasets = datasets=[$$(scripts/lib/datasets.sh "$(DATASET)" | sed 's/.*/"&"/' | paste -sd, -)]

.PHONY: validate-workflow
validate-workflow: build venv
	$(SNAKEMAKE) --cores $(WORKFLOW_CORES) --config shards=$(SHARDS) work=$(WORKFLOW_WORK) \
	  resonance=$(BIN) python=$(PY) "$(workflow_datasets)"
	scripts/checks/workflow_check.sh $(BIN) $(WORKFLOW_WORK) "validate-workflow ($(SHARDS) shards)" \
	  $$(scripts/lib/datasets.sh "$(DATASET)")

# `make bench-shards` (part of `make bench`): the scaling table of sharded runs on this
# machine (scripts/bench/bench_shards.py) — wall time for 1, 2 and 4 shards (BENCH_SHARDS)
# against one `resonance run`, CPU time, peak memory per shard, and the byte-identity of
# every sharded result — on a generated cohort of COHORT_SUBJECTS subjects × 24 h
# (scripts/data/cohort_workload.py, made once into build/bench and again when its generator
# changes).
BENCH_TARGETS += bench-shards
BENCH_SHARDS ?= 1,2,4
COHORT_SUBJECTS ?= 1000
COHORT_WS := build/bench/cohort-$(COHORT_SUBJECTS)

.PHONY: bench-shards
$(COHORT_WS)/workspace/manifest.json: scripts/data/cohort_workload.py | build venv
	$(PY) scripts/data/cohort_workload.py --bin $(BIN) --subjects $(COHORT_SUBJECTS) --out $(COHORT_WS)

bench-shards: build venv $(COHORT_WS)/workspace/manifest.json
	@$(PY) scripts/bench/bench_shards.py $(BIN) $(COHORT_WS)/workspace build/bench/shards --shards $(BENCH_SHARDS) \
	  --cores $(WORKFLOW_CORES)
