# Fuzzing: libFuzzer targets for the input parsers (Sources/resonance-fuzz): the CSV
# reader, numbers, timestamps, the constants loader, format detection and one target
# per import format (`.build/release/resonance-fuzz list` names them). Each target has a
# committed corpus, Tests/Fuzz/corpus/TARGET: the smallest set of inputs that keeps all
# the coverage its runs have reached, and Tests/Fuzz/crashes/TARGET holds every input
# that once crashed or hung it. Inputs are parsed in memory (no workspace per input).
#
# `make fuzz` builds the targets with `-sanitize=fuzzer` (release, their own build
# folder) and runs each for FUZZ_SECONDS from the committed corpus and seeds made of
# the sample dataset and the import tests' fixtures; new inputs grow in
# build/fuzz/TARGET/corpus across runs, and the executions and seconds of every run add
# up in build/fuzz/TARGET/{executions,seconds}; the run ends with a summary table. A
# crash is kept as build/fuzz/TARGET/crash-* and fails the run: replay it with
# `.build/release/resonance-fuzz TARGET FILE`, fix it, add the input to
# Tests/Fuzz/crashes/TARGET and turn it into a unit test. `make fuzz-corpus` then
# merges what the runs found into the committed corpus (libFuzzer's -merge=1) and prints
# the coverage and size of each. FUZZ_TARGETS picks targets (default: all).
#
# `make fuzz-ci`, part of `make test`: first the regression run (`fuzz-replay`: every
# committed corpus and crash input through the release build's resonance-fuzz, without
# the sanitizer), then each target for FUZZ_CI_SECONDS from its committed corpus with
# the sanitizer, built in debug (FUZZ_CI_CONFIG) because that build takes a third of the
# release one's time and a few seconds per target need no optimiser.
FUZZ_SECONDS ?= 120
FUZZ_SANITIZERS ?= fuzzer
FUZZ_TARGETS ?=
FUZZ_CI_SECONDS ?= 3
FUZZ_CI_CONFIG ?= debug
FUZZ_BIN := .build-fuzz/release/resonance-fuzz
FUZZ_CI_BIN := .build-fuzz-ci/$(FUZZ_CI_CONFIG)/resonance-fuzz
REPLAY_BIN := .build/release/resonance-fuzz
TEST_EXTRA_TARGETS += fuzz-ci
# In `make test` the sanitised build is a stage of its own, so that it runs beside the
# release build.
stage-fuzz-ci: stage-fuzz-ci-build

.PHONY: fuzz fuzz-build fuzz-corpus fuzz-replay fuzz-ci fuzz-ci-build
# The sanitised build of one configuration into its own folder: $(1) scratch path, $(2) configuration.
fuzz_build = $(SWIFT) build -c $(2) --scratch-path $(1) --product resonance-fuzz \
  -Xswiftc -sanitize=$(FUZZ_SANITIZERS) -Xswiftc -DFUZZING -Xswiftc -use-ld=lld

# The Debian packages first on a fresh machine (the stamp, as every build target), then
# SwiftPM's own incremental build: nothing current is rebuilt.
fuzz-build: | $(DEPS_STAMP)
	$(call fuzz_build,.build-fuzz,release)

fuzz: fuzz-build
	scripts/checks/fuzz.sh run $(FUZZ_BIN) build/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-corpus: fuzz-build
	scripts/checks/fuzz.sh merge $(FUZZ_BIN) build/fuzz $(FUZZ_TARGETS)

fuzz-replay: build-tests
	scripts/checks/fuzz.sh replay $(REPLAY_BIN) $(FUZZ_TARGETS)

fuzz-ci-build: | $(DEPS_STAMP)
	$(call fuzz_build,.build-fuzz-ci,$(FUZZ_CI_CONFIG))

fuzz-ci: fuzz-replay fuzz-ci-build
	FUZZ_SEEDS=0 scripts/checks/fuzz.sh run $(FUZZ_CI_BIN) build/fuzz-ci $(FUZZ_CI_SECONDS) $(FUZZ_TARGETS)
