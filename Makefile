# battlelog: the two set-up commands are `make run` and `make test`.
# Needs only python3 (>= 3.11) on the machine; everything else goes into .venv.
# `make run` installs what serving needs; `make test` adds the test and lint tools.
# Choose where it serves and its store: make run PORT=8001 HOST=0.0.0.0 DB=./club.db

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
# npm ci's own record of what it installed for the browser tests (tests/e2e/package.json)
E2E_TOOLS := tests/e2e/node_modules/.package-lock.json
DB ?= ./battlelog.db
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: help venv dev run test bench lint docs clean
.DEFAULT_GOAL := help

help:
	@echo "make run     serve http://$(HOST):$(PORT) with $(DB) (installs what serving needs)"
	@echo "             choose: make run PORT=8001 HOST=0.0.0.0 DB=./club.db; Ctrl-C stops it"
	@echo "make test    the whole suite (installs the test tools too)"
	@echo "make bench   the benchmarks; make lint: ruff, mypy and the import contracts; make clean"
	@echo "make docs    write the generated docs again (docs/rulesets/reference.md)"
	@echo "the battlelog command (export, import, verify), after make run:"
	@echo "             $(BIN)/battlelog --help"

venv: $(RUN_STAMP)
dev: $(DEV_STAMP) $(E2E_TOOLS)

# Each re-installs only when pyproject.toml changes (or the venv is new).
$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -e .
	touch $@

# The test extras hold everything running needs too: installing them stands for both.
$(DEV_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -e '.[dev]'
	touch $@ $(RUN_STAMP)

# The browser tests' JavaScript tools (axe-core, pinned by tests/e2e/package-lock.json),
# installed as locked by npm ci, again only when the lock file changes. Without npm the
# accessibility checks are skipped locally, like the browser tests without Chromium (never in CI).
$(E2E_TOOLS): tests/e2e/package-lock.json
	@if command -v npm >/dev/null 2>&1; then cd tests/e2e && npm ci --no-audit --no-fund; \
	else echo "no npm: the browser tests' accessibility checks will be skipped (apt-get install -y npm)"; fi

# `battlelog serve` says where it serves once it holds the port (a taken one is refused).
run: venv
	exec $(BIN)/battlelog serve --db $(DB) --host $(HOST) --port $(PORT)

# The suite on two workers (pytest-xdist): TEST_WORKERS=0 runs it in this one process.
TEST_WORKERS ?= 2
test: dev
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal

bench: dev
	$(BIN)/python bench/run.py

# The pages generated from the code: the ruleset file format's reference, from its models.
docs: venv
	$(BIN)/battlelog ruleset-reference --out docs/rulesets/reference.md

lint: dev
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

clean:
	rm -rf build *.egg-info .pytest_cache .mypy_cache .ruff_cache
	find . -path ./$(VENV) -prune -o -type d -name __pycache__ -exec rm -rf {} +
