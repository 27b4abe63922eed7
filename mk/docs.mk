# ---- docs --------------------------------------------------------------------
# Generated blocks in README.md and docs/**/*.md (scripts/lib/docs_blocks.py, standard
# library only): the text between `<!-- BEGIN generated KIND:NAME -->` and its END
# marker is made by the generator of KIND, e.g. each engine's constants table from
# `resonance constants show` (docs/development.md, Generated blocks in the docs).
# `make docs-blocks` rewrites every block; `make docs-check` (part of `make test`)
# changes nothing and prints one `Test Case` line per block.
TEST_EXTRA_TARGETS += docs-check

.PHONY: docs-blocks docs-check
docs-blocks: build
	python3 scripts/lib/docs_blocks.py --write --bin $(BIN)

docs-check: build
	python3 scripts/lib/docs_blocks.py --check --bin $(BIN)
