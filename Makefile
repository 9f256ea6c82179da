# battlelog: the two set-up commands are `make run` and `make test`.
# Needs only python3 (>= 3.11) on the machine; everything else goes into .venv.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DB ?= ./battlelog.db
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: venv run test bench lint clean

venv: $(STAMP)

# Re-installs only when pyproject.toml changes (or the venv is new).
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -e '.[dev]'
	touch $@

run: venv
	@echo "battlelog is running at http://$(HOST):$(PORT) (store: $(DB))"
	exec $(BIN)/battlelog serve --db $(DB) --host $(HOST) --port $(PORT)

test: venv
	$(BIN)/python -m pytest

bench: venv
	$(BIN)/python bench/run.py

lint: venv
	$(BIN)/ruff check .
	$(BIN)/mypy

clean:
	rm -rf build *.egg-info .pytest_cache .mypy_cache .ruff_cache
	find . -path ./$(VENV) -prune -o -type d -name __pycache__ -exec rm -rf {} +
