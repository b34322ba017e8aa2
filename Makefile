# Every target sets up what it needs: a fresh clone only needs python3.11 on PATH.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup play test test-fast lint typecheck bench bench-mcts golden clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

## The main job: a game of Paper Ultimate against the random bot in the terminal.
play: $(STAMP)
	$(BIN)/monsterball play paper-ultimate --bot random

## All tests, lint and type checks (what CI runs).
test: $(STAMP)
	$(BIN)/ruff check src tests scripts
	$(BIN)/ruff format --check src tests scripts
	$(BIN)/mypy
	$(BIN)/pytest -n 2 -q

## The quick edit-test loop: everything but tests marked slow.
test-fast: $(STAMP)
	$(BIN)/pytest -n 2 -q -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check src tests scripts
	$(BIN)/ruff format --check src tests scripts

typecheck: $(STAMP)
	$(BIN)/mypy

## Random-playout throughput per game, with python-chess as a yardstick
## (e.g. make bench BENCH_ARGS='--seconds 10 --json bench.json').
bench: $(STAMP)
	$(BIN)/python scripts/bench.py $(BENCH_ARGS)

## MCTS iterations/s per game and simulation games/s on 1 and 2 processes.
bench-mcts: $(STAMP)
	$(BIN)/python scripts/bench_mcts.py $(BENCH_ARGS)

## Regenerate the golden replays after an intended behaviour change (review the diff!).
golden: $(STAMP)
	$(BIN)/python scripts/make_golden.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
