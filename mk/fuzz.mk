# Fuzzing: libFuzzer targets for the input parsers (Sources/resonance-fuzz).
# `make fuzz` builds them with `-sanitize=fuzzer` in their own build folder and runs
# each for FUZZ_SECONDS, from a seed corpus of the sample dataset and small valid
# inputs; the corpus grows in build/fuzz/TARGET/corpus across runs, and the
# executions of every run are added up in build/fuzz/TARGET/executions. A crash is
# kept as build/fuzz/TARGET/crash-* and fails the run: replay it with
# `FUZZ_TARGET=TARGET .build-fuzz/release/resonance-fuzz FILE`, fix it, and turn it
# into a unit test. `make fuzz-ci`, part of `make test`, is the short run for CI:
# FUZZ_CI_SECONDS (30) per target, about 7 minutes plus the instrumented build.
FUZZ_SECONDS ?= 120
FUZZ_SANITIZERS ?= fuzzer
FUZZ_TARGETS ?= csv number timestamp constants detect format-csv format-e4-hr format-e4-ibi format-e4-tags \
  format-physionet-rr format-apple-music format-apple-health format-stress-predict-labels format-canonical
FUZZ_CI_SECONDS ?= 30
FUZZ_BIN := .build-fuzz/release/resonance-fuzz
TEST_EXTRA_TARGETS += fuzz-ci

.PHONY: fuzz fuzz-build fuzz-ci
# The Debian packages first on a fresh machine (the stamp, as every build target), then
# SwiftPM's own incremental build: nothing current is rebuilt.
fuzz-build: | $(DEPS_STAMP)
	$(SWIFT) build -c release --scratch-path .build-fuzz --product resonance-fuzz \
	  -Xswiftc -sanitize=$(FUZZ_SANITIZERS) -Xswiftc -DFUZZING -Xswiftc -use-ld=lld

fuzz: fuzz-build
	scripts/fuzz.sh $(FUZZ_BIN) build/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-ci:
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_CI_SECONDS)
