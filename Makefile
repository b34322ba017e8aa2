# Every target sets up what it needs: a fresh clone only needs python3.11 on PATH.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
FAST := $(VENV)/.fastgeo

.PHONY: setup fast docs serve play test test-fast lint typecheck audit bench bench-mcts fuzz golden clean chromium load

$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP) $(FAST)  # the install built the kernels too (setup.py)

## The compiled kernels (Cython + gcc) are built by the package build (setup.py) in the
## install above; this rebuilds them in place after a .pyx edit and says which engine runs.
## Without a C compiler the pure-Python kernels run (same results, a quarter to a sixth the speed).
$(FAST): $(STAMP) src/monsterball/core/_fastgeo.pyx src/monsterball/core/_bitwords.h \
		src/monsterball/core/_bitwords.pxd src/monsterball/games/midway/_fastmw.pyx \
		scripts/build_fast.py setup.py
	$(BIN)/python scripts/build_fast.py || echo "note: compiled kernels not built; pure Python is used"
	touch $(FAST)

fast: $(FAST)

## The documentation site (Sphinx: guides, the API reference from the docstrings, the rules)
## into build/site/index.html, offline, warnings as errors. tests/docs/test_site.py builds it
## too and runs its examples.
docs: $(STAMP)
	$(BIN)/sphinx-build -W --keep-going -q -b html docs build/site
	@echo "the site: build/site/index.html"

setup: $(STAMP) $(FAST) chromium

## The main job: the web app on http://127.0.0.1:8000/ (games kept in ./monsterball.db).
serve: $(STAMP) $(FAST)
	$(BIN)/monsterball serve $(SERVE_ARGS)

## A game of Paper Ultimate against the random bot in the terminal.
play: $(STAMP)
	$(BIN)/monsterball play paper-ultimate --bot random

## Debian packages the tests use: Chromium for the browser tests (never `playwright install`:
## it downloads), PostgreSQL for the store test (each test starts its own server) and tmux
## for the terminal tests (a real terminal: tests/helpers/tty.py).
chromium:
	@missing=""; test -x /usr/bin/chromium || missing="chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v tmux >/dev/null || missing="$$missing tmux"; \
	if [ -n "$$missing" ]; then \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

## The browser client's checks (web/static: build-less ES modules): TypeScript's checker over
## its JSDoc types, eslint, prettier and the unit tests of its pure parts (tests/js, Node's
## own runner). Node and npm come from Debian when missing; the tools from the npm registry
## at the versions package-lock.json pins (`npm ci`).
JS := src/monsterball/web/static/*.js tests/js/*.js eslint.config.js
NODE_STAMP := node_modules/.installed

node:
	@command -v npm >/dev/null || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq nodejs npm >/dev/null; }

$(NODE_STAMP): package.json package-lock.json
	@$(MAKE) --no-print-directory node
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

js: $(NODE_STAMP)
	npx --no-install tsc -p tsconfig.json
	npx --no-install tsc -p tsconfig.strict.json
	npx --no-install eslint $(JS)
	npx --no-install prettier --check --log-level warn $(JS)
	node --test --test-reporter=dot tests/js/*.test.js

## All tests, lint and type checks, and the dependency audit (what CI runs).
test: $(STAMP) $(FAST) chromium js
	$(BIN)/ruff check src tests scripts setup.py docs/conf.py
	$(BIN)/ruff format --check src tests scripts setup.py docs/conf.py
	$(BIN)/mypy
	$(BIN)/python scripts/audit_deps.py
	$(BIN)/pytest -n 2 -q

## Known vulnerabilities in the installed packages (pip-audit against PyPI's advisory data):
## fails on one with a fixed version; says SKIPPED, and passes, when the data is unreachable.
audit: $(STAMP)
	$(BIN)/python scripts/audit_deps.py

## The quick edit-test loop (about a minute on 2 quiet cores): all but the tests marked slow,
## browser, postgres (a PostgreSQL server of their own) or tty (a real terminal); markers in
## pyproject.toml, the fixture-implied ones set by tests/conftest.py.
## It keeps Python's bytecode caches even where PYTHONDONTWRITEBYTECODE is set: without them
## every run compiles every module and rewrites every test's asserts again (collection takes
## about twice the CPU).
FAST_TESTS := not slow and not browser and not postgres and not tty
test-fast: $(STAMP) $(FAST)
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n 2 -q -m "$(FAST_TESTS)"

lint: $(STAMP)
	$(BIN)/ruff check src tests scripts setup.py docs/conf.py
	$(BIN)/ruff format --check src tests scripts setup.py docs/conf.py

typecheck: $(STAMP)
	$(BIN)/mypy

## Decisions/s per game vs python-chess random playouts, interleaved in one process
## (e.g. make bench BENCH_ARGS='--slice 2 --rounds 5 --json bench.json'); exact odds: scripts/bench_odds.py.
bench: $(STAMP) $(FAST)
	$(BIN)/python scripts/bench.py $(BENCH_ARGS)

## Many bot-vs-bot games over WebSockets against a local server (LOAD_ARGS='--games 40').
load: $(STAMP)
	$(BIN)/python scripts/web_load.py $(LOAD_ARGS)

## MCTS iterations/s per game and simulation games/s on 1 and 2 processes.
bench-mcts: $(STAMP) $(FAST)
	$(BIN)/python scripts/bench_mcts.py $(BENCH_ARGS)

## Random play with invariant checks and mutation fuzzers, every game x preset
## (e.g. make fuzz FUZZ_ARGS='--actions 1000000 --jobs 2 --json fuzz.json').
fuzz: $(STAMP)
	$(BIN)/python scripts/fuzz.py $(FUZZ_ARGS)

## Regenerate the golden replays after an intended behaviour change (review the diff!).
golden: $(STAMP)
	$(BIN)/python -m tests.helpers.golden

clean:
	rm -rf $(VENV) build src/monsterball/core/_fastgeo.c src/monsterball/core/_fastgeo.*.so src/monsterball/games/midway/_fastmw.c src/monsterball/games/midway/_fastmw.*.so .pytest_cache .mypy_cache .ruff_cache .hypothesis
