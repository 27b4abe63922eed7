# ---- scale -------------------------------------------------------------------
# `make bench-scale` (part of `make bench`): every stage and `personas generate` on
# workspaces from the sample to 100 person-years and 10,000 subjects (scripts/bench/bench_scale.py),
# each a process under GNU time (wall, CPU, peak memory), with --jobs 2 and again with
# --jobs 1, their outputs compared byte for byte with the SHA-256 pinned in
# evidence/scale_digests.json (docs/scaling.md). SCALE_WORKSPACES chooses the workspaces;
# the table goes to build/bench/scale.md.
# `make test-scale` (part of `make test`): the same check, small (the sample and the
# ten personas × 30 days), in about 20 s of CPU.
# `make scale-record` pins the digests of SCALE_WORKSPACES again, after a change of what
# a stage computes (say so in the commit).
BENCH_TARGETS += bench-scale
TEST_EXTRA_TARGETS += test-scale
SCALE_WORKSPACES ?= sample,personas-30,physionet,personas-90,personas-360,replicas-10x365,replicas-1000x1
SCALE_DIGESTS := evidence/scale_digests.json

.PHONY: bench-scale test-scale scale-record
bench-scale: build
	python3 scripts/bench/bench_scale.py --bin $(BIN) --work build/bench/scale --workspaces $(SCALE_WORKSPACES) \
	  --digests $(SCALE_DIGESTS) --check --jobs-check --table build/bench/scale.md

test-scale: build
	python3 scripts/bench/bench_scale.py --bin $(BIN) --work build/test-scale --workspaces sample,personas-30 \
	  --digests $(SCALE_DIGESTS) --check --jobs-check

scale-record: build
	python3 scripts/bench/bench_scale.py --bin $(BIN) --work build/bench/scale --workspaces $(SCALE_WORKSPACES) \
	  --digests $(SCALE_DIGESTS) --record --jobs-check
