# ---- workspace integrity -----------------------------------------------------
# `make bench-verify`: CPU cost of checking rr.csv against manifest.json on the 69
# PhysioNet records (hrv with and without --no-verify), beside coreutils' sha256sum.
# The kill and concurrency tests are Swift tests (Tests/resonanceTests/Workspace*Tests.swift)
# and run in `make test`.
BENCH_TARGETS += bench-verify

.PHONY: bench-verify
bench-verify: build
	python3 scripts/bench/bench_verify.py $(BIN) build/bench/verify
