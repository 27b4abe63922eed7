# ---- tests -----------------------------------------------------------------
# `make test` runs its stages TEST_JOBS at a time (default: one per core), each timed by
# scripts/lib/stage.py: one line per stage with its wall and CPU time and the machine's load
# before and after, and a table of every stage, slowest first, at the end (also in
# build/stages.tsv), so that a stage that grows shows in the next run. The stages: the
# test build (the release build with testing enabled, shared with the tool), the Python
# venv, the unit and command-line tests (swift-test, which runs the CLI tests against
# the release build), the simulations (test-simulations), and TEST_EXTRA_TARGETS from
# the other mk files: the recipe test of `make deps`, the fuzz targets' corpus replay and
# short runs, the cross-checks against the Python peers, the notebooks and the docs'
# generated blocks. Every runner prints one `Test Case '…' passed|failed` line per test,
# which .ci/run counts. Output is grouped per target (--output-sync), so parallel stages
# do not interleave their lines.
SIMULATION_TESTS := ResonanceLabSimulationTests
TEST_EXTRA_TARGETS += test-simulations test-deps
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
STAGES_LEDGER := build/stages.tsv

.PHONY: test-stages build-tests test-simulations test-deps check
test-stages:
	@mkdir -p build && rm -f $(STAGES_LEDGER)
	@$(MAKE) --no-print-directory $(DEPS_STAMP)
	@status=0; $(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target $(addprefix stage-,$(TEST_STAGES)) || status=$$?; \
	python3 scripts/lib/stage.py $(STAGES_LEDGER) --summary; exit $$status

# One timed stage: the target of the same name, in a make of its own (sharing the job
# slots). Not phony: make looks up pattern rules only for targets that are not. Which
# stage waits for which is set in the Makefile, once every mk file has added its own.
stage-%:
	+@python3 scripts/lib/stage.py $(STAGES_LEDGER) $* -- $(MAKE) --no-print-directory $*

# The tool and the tests in one release build (the flags of `build`, so the sources
# compile once); the stamp is newer than every source and test file.
TEST_SOURCES := $(shell find Tests -name '*.swift')
TESTS_STAMP := build/.tests-built
build-tests: $(TESTS_STAMP)
$(TESTS_STAMP): $(SWIFT_SOURCES) $(TEST_SOURCES) | $(DEPS_STAMP)
	$(SWIFT) build $(SWIFT_BUILD_FLAGS) --build-tests
	@touch $(BIN) $@

# The ten personas over 30 days, planted-effect and mixed-model recovery, and imports of
# the whole public datasets (skipped, with the reason printed, without RESONANCE_DATASETS).
test-simulations: build-tests
	$(SWIFT) test $(SWIFT_BUILD_FLAGS) --skip-build --disable-swift-testing --filter $(SIMULATION_TESTS)

# The `deps` recipe against stub dpkg-query, apt-get, sudo and id (scripts/checks/deps_test.sh).
test-deps:
	@scripts/checks/deps_test.sh

# The fast loop for one change: the incremental test build, then only the tests whose
# names match FILTER (XCTest's --filter: a class, Class/testMethod, or a regular
# expression), e.g. `make check FILTER=ReplayTests`.
FILTER ?=
check: build-tests
	@[ -n "$(FILTER)" ] || { echo "make check: name the tests, e.g. make check FILTER=ReplayTests" >&2; exit 2; }
	RESONANCE_CLI=$(abspath $(BIN)) $(SWIFT) test $(SWIFT_BUILD_FLAGS) --skip-build --disable-swift-testing --filter '$(FILTER)'
