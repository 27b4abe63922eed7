# ---- tests -----------------------------------------------------------------
# `make test` runs the unit and command-line tests first (swift-test, which runs the
# CLI tests against the release build), then the slow simulations, the recipe test of
# `make deps` and the cross-checks against the Python peers. Every runner prints one
# `Test Case '…' passed|failed` line per test, which .ci/run counts.
SIMULATION_TESTS := ResonanceLabSimulationTests
TEST_EXTRA_TARGETS += test-simulations test-deps

.PHONY: test-simulations test-deps
# The ten personas over 30 days, planted-effect and mixed-model recovery, and imports of
# the whole public datasets (skipped, with the reason printed, without RESONANCE_DATASETS).
test-simulations: | $(DEPS_STAMP)
	$(SWIFT) test --disable-swift-testing --filter $(SIMULATION_TESTS)

# The `deps` recipe against stub dpkg-query, apt-get, sudo and id (scripts/deps_test.sh).
test-deps:
	@scripts/deps_test.sh
