# Fuzzing: libFuzzer targets for the input parsers (Sources/resonance-fuzz): the CSV
# reader, numbers, timestamps, the constants loader, format detection and one target
# per import format (`FUZZ_TARGET=list .build-fuzz/release/resonance-fuzz` names them).
# `make fuzz` builds them with `-sanitize=fuzzer` in their own build folder and runs
# each for FUZZ_SECONDS, from a seed corpus of the sample dataset and the import
# tests' fixtures; inputs are parsed in memory (no workspace per input). The corpus
# grows in build/fuzz/TARGET/corpus across runs, and the executions and seconds of
# every run are added up in build/fuzz/TARGET/{executions,seconds}; the run ends with
# a summary table. A crash is kept as build/fuzz/TARGET/crash-* and fails the run:
# replay it with `FUZZ_TARGET=TARGET .build-fuzz/release/resonance-fuzz FILE` (or
# `swift run resonance-fuzz TARGET FILE` without the sanitizer), fix it, and turn it
# into a unit test. `make fuzz-ci`, part of `make test`, is the short run for CI:
# FUZZ_CI_SECONDS (20) per target, every target: 13 minutes 40 s for the 41 targets
# plus the instrumented build. FUZZ_TARGETS picks targets (default: all).
FUZZ_SECONDS ?= 120
FUZZ_SANITIZERS ?= fuzzer
FUZZ_TARGETS ?=
FUZZ_CI_SECONDS ?= 20
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
