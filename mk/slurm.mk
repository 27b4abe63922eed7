# ---- Slurm -------------------------------------------------------------------------
# `make test-slurm [DATASET=PATH] [SHARDS=N]`: the workflow of `make validate-workflow`
# on a real, single-node Slurm cluster started on this machine (scripts/checks/slurm_test.sh):
# munged, slurmctld and slurmd from Debian's slurm-wlm and munge, with a generated key
# and slurm.conf, no cgroups; every rule's job goes through sbatch
# (snakemake-executor-plugin-slurm). Prints the Slurm job ids, then compares the finished
# workspaces and reports byte for byte with a single-machine `resonance run`, and stops
# the daemons. Not part of `make test`: it needs root and the ports 6817–6818
# (SLURM_TEST_PORT) and starts daemons, so it runs on its own.
SLURM_DEBIAN_PACKAGES := slurm-wlm munge
SLURM_WORK ?= build/slurm

.PHONY: deps-slurm test-slurm
# The Debian packages of the test cluster, installed as `make deps` installs its own.
deps-slurm:
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES="$(SLURM_DEBIAN_PACKAGES)"

test-slurm: build venv deps-slurm
	scripts/checks/slurm_test.sh $(BIN) $(SNAKEMAKE) $(SLURM_WORK) $(SHARDS) $$(scripts/lib/datasets.sh "$(DATASET)")
