# HRV and coherence stages: hrv.csv and coherence.csv in every validated workspace,
# the NeuroKit2 cross-check (part of `make test`) and the HRV benchmark (part of `make bench`).
TEST_EXTRA_TARGETS += crosscheck
BENCH_TARGETS += bench-hrv bench-speed-flag

.PHONY: crosscheck bench-hrv bench-speed-flag

# The cost of bounds and overflow checks: the same sources built with -Ounchecked (passed
# on the command line, into their own scratch folder) are timed beside the release build
# by bench-hrv, which prints the ratio per stage and checks that the outputs match.
OUNCHECKED_BIN := .build-ounchecked/release/resonance
$(OUNCHECKED_BIN): $(SWIFT_SOURCES) | $(DEPS_STAMP)
	$(SWIFT) build -c release --product resonance --scratch-path .build-ounchecked $(SWIFT_SPEED_FLAGS) -Xswiftc -Ounchecked
	@touch $@

# Skips (and passes) when RESONANCE_DATASETS is unset.
crosscheck: venv build
	$(PY) scripts/checks/hrv_crosscheck.py --bin $(BIN) --work build/crosscheck

# `make bench-hrv PREVIOUS_BIN=path/to/resonance` also times the build before, alternately
# (PREVIOUS_BIN is defined with the ingest benchmark, which takes it too). It ends with the
# least time the frequency family can take with hrv.csv's bits (scripts/bench/frequency_floor.c,
# built with `cc` against libfftw3 into build/bench).
bench-hrv: venv build $(OUNCHECKED_BIN)
	$(PY) scripts/bench/hrv_bench.py --bin $(BIN) --ounchecked-bin $(OUNCHECKED_BIN) --work build/bench \
	  $(if $(PREVIOUS_BIN),--previous-bin $(PREVIOUS_BIN))

# What SWIFT_SPEED_FLAGS buy (docs/development.md, Building): the same sources built
# without them, into their own scratch folder, timed beside the release build on the
# personas over 90 days; the outputs must match.
CHECKED_BIN := .build-checked/release/resonance
$(CHECKED_BIN): $(SWIFT_SOURCES) | $(DEPS_STAMP)
	$(SWIFT) build -c release --product resonance --scratch-path .build-checked
	@touch $@

bench-speed-flag: build $(CHECKED_BIN)
	python3 scripts/bench/bench_speed_flag.py --bin $(BIN) --checked-bin $(CHECKED_BIN) --work build/bench/speed-flag
