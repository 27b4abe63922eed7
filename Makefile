# Resonance Lab — every target installs what it needs first (`deps`), so each of
# `make test`, `make validate`, `make bench` works alone on a fresh Debian machine.
SHELL := /bin/bash
SWIFT ?= swift
VENV := .venv
PY := $(VENV)/bin/python
BIN := .build/release/resonance
SWIFT_SOURCES := $(shell find Sources -name '*.swift' -o -name '*.modulemap' -o -name '*.h') Package.swift

# The public datasets: $RESONANCE_DATASETS, else ../shared/datasets when it exists.
RESONANCE_DATASETS ?= $(abspath $(wildcard ../shared/datasets))
export RESONANCE_DATASETS

# The scripts' shared modules (docs/development.md, Scripts), importable by every script
# a recipe runs, whichever folder it is in.
export PYTHONPATH := $(CURDIR)/scripts/lib$(if $(PYTHONPATH),:$(PYTHONPATH))

# Stage-specific targets add themselves to these lists from mk/*.mk.
BENCH_TARGETS :=
TEST_EXTRA_TARGETS :=

.PHONY: all deps build build-tests test swift-test venv bench validate clean
all: build

# Stage targets, included before the rules below read the lists they extend.
include $(wildcard mk/*.mk)

# Debian packages the targets need: the C libraries the Swift targets link (libcsv,
# FFTW, OpenSSL's libcrypto, libxml2, zlib), the Python venv module for the peers, and
# GNU time for the benchmarks' peak memory.
DEBIAN_PACKAGES := libcsv-dev libfftw3-dev libssl-dev libxml2-dev zlib1g-dev python3-venv time

# Installs whichever of them is missing (with sudo when not root), quietly; does
# nothing when all are installed. `env` carries DEBIAN_FRONTEND through sudo.
define install_debian_packages
@missing=""; \
for p in $(DEBIAN_PACKAGES); do \
  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q ' installed$$' || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
  sudo=""; \
  if [ "$$(id -u)" -ne 0 ]; then \
    command -v sudo >/dev/null || { echo "make deps: need root or sudo to install:$$missing" >&2; exit 1; }; \
    sudo=sudo; \
  fi; \
  echo "make deps: installing$$missing" >&2; \
  $$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
  $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
fi
endef

# `make deps` always checks; every other target needs only the stamp, which is
# remade when this Makefile changes, so a current build is never redone for it.
DEPS_STAMP := build/.deps-ok
deps:
	$(install_debian_packages)

$(DEPS_STAMP): Makefile
	$(install_debian_packages)
	@mkdir -p $(@D) && touch $@

build: $(BIN)

# One release build serves the tool, the fuzz targets' replay and the tests: built with
# testing enabled (`@testable import` in the test targets), so `make test` builds the
# sources once. SWIFT_BUILD_FLAGS is the one set of flags every release build here uses:
# another set would rebuild everything. SWIFT_SPEED_FLAGS leave out the run-time checks
# of exclusive access (the compiler's static checks stay), which cost the per-subject
# stages 5–10 % of their CPU time (docs/development.md, Building); they are this
# repository's own choice, so they live here and not in Package.swift, and a package that
# depends on this one builds it with its own flags. The debug build that `make fuzz-ci`
# fuzzes the parsers with keeps the checks.
SWIFT_SPEED_FLAGS := -Xswiftc -enforce-exclusivity=unchecked
SWIFT_BUILD_FLAGS := -c release -Xswiftc -enable-testing $(SWIFT_SPEED_FLAGS)

# Touched after the build: SwiftPM leaves a current binary alone, and make must
# then still see it as newer than the sources.
$(BIN): $(SWIFT_SOURCES) | $(DEPS_STAMP)
	$(SWIFT) build $(SWIFT_BUILD_FLAGS) --product resonance
	@touch $@

# Python peers (pandas, NeuroKit2) for benchmarks and cross-checks, pinned.
venv: $(VENV)/.installed
$(VENV)/.installed: requirements.txt | $(DEPS_STAMP)
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r requirements.txt
	touch $@

# The unit and command-line tests; the simulations run in `test-simulations`
# (mk/tests.mk). Both run the test build of `build-tests`, which shares the release
# build of the sources.
swift-test: build-tests
	RESONANCE_CLI=$(abspath $(BIN)) $(SWIFT) test $(SWIFT_BUILD_FLAGS) --skip-build --disable-swift-testing --skip $(SIMULATION_TESTS)

# `make test` runs every stage through mk/tests.mk's timed, parallel stage runner,
# started in this order as job slots free up: the builds first (the fuzz targets'
# sanitised build takes the core that the release build's single-threaded optimiser
# leaves idle), then the longest stages, so that the short ones fill the end. Every
# stage but the builds and the recipe test waits for the test build; those that run the
# Python peers (VENV_STAGES) wait for the venv too.
BUILD_STAGES := build-tests venv fuzz-ci-build
LONG_STAGES := fuzz-ci swift-test notebooks-test test-effect-robustness test-simulations
TEST_STAGES = $(BUILD_STAGES) $(LONG_STAGES) $(filter-out $(BUILD_STAGES) $(LONG_STAGES),$(TEST_EXTRA_TARGETS))
VENV_STAGES := crosscheck crosscheck-daily notebooks-test test-effect-robustness evidence-check
$(addprefix stage-,$(filter-out $(BUILD_STAGES) test-deps,$(TEST_STAGES))): stage-build-tests
$(addprefix stage-,$(filter $(VENV_STAGES),$(TEST_STAGES))): stage-venv

test: test-stages

bench: build venv $(BENCH_TARGETS)

clean:
	rm -rf .build build


# ---- validate --------------------------------------------------------------
# `make validate` runs the whole pipeline (`resonance run`: import, then every stage in
# the order the library defines) on each dataset: DATASET=PATH for one folder, else
# every dataset under $RESONANCE_DATASETS, else the synthetic sample. Each stage succeeds
# (with header-only outputs) on a workspace that lacks its inputs. Without DATASET, the
# synthetic personas are validated too, so that the report shows how well the planted
# song effects are recovered.
DATASET ?=
validate: build
	@set -e; for ds in $$(scripts/lib/datasets.sh "$(DATASET)"); do \
	  name=$$(basename "$$ds"); \
	  echo "== $$name ($$ds)" >&2; \
	  $(BIN) run "$$ds" --out "build/work/$$name" --report-dir "reports/$$name" --figure-tables; \
	done
	@if [ -z "$(DATASET)" ]; then $(MAKE) --no-print-directory validate-personas; fi
	@$(MAKE) --no-print-directory notebooks-run DATASET="$(DATASET)"
