# Everything runs from a local virtual environment; only python3 and make are needed.
VENV = .venv
PY = $(VENV)/bin/python
STAMP = $(VENV)/.installed

.PHONY: install compile run serve test lint docs clean

install: $(STAMP)

# Re-installs whenever pyproject.toml changes.
$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -e '.[dev]'
	touch $(STAMP)

# The rules engine compiled with mypyc (compile_engine.py; again only when a module of it
# changed). Optional: without a C compiler it says so and the pure-Python modules run.
compile: install
	$(PY) compile_engine.py

# A development server: DEBUG is on only because this target asks for it.
run: export DJANGO_DEBUG = true
run: compile
	$(PY) manage.py migrate --noinput
	$(PY) manage.py compile_translations
	$(PY) manage.py setup_demo
	$(PY) manage.py runserver 127.0.0.1:8000

# The production stack on this machine (docs/operating/serve.md): the variables checked,
# the migrations and collectstatic, then the Procfile under honcho: WEBS uvicorn processes
# on the ports after PORT, HAProxy on HOST:PORT in front (HTTPS with CERTIFICATE, a PEM
# file, if given), the Celery worker (niced) and beat. Ctrl-C stops them all. HAProxy's
# configuration and beat's schedule are written to SERVE_STATE.
# deploy/serve.py says what is missing (a variable, HAProxy) before anything starts.
WEBS ?= 2
PORT ?= 8000
HOST ?= 0.0.0.0
CERTIFICATE ?=
SERVE_STATE ?= build/serve
serve: export DJANGO_DEBUG = false
serve: compile
	$(PY) -m deploy.serve --webs $(WEBS) --host $(HOST) --port $(PORT) --state $(SERVE_STATE) \
		$(if $(CERTIFICATE),--certificate $(CERTIFICATE))

# Uses local PostgreSQL and Redis when they answer (tests/local_services.py says which).
# pytest compiles the translations itself (tests/conftest.py).
# The whole suite on the engine as built (compiled where a C compiler is), then the tests
# of the engine, the bots and the conformance records again on the pure-Python modules
# (PUSH_ENGINE_PURE), so both builds are tested; PUSH_ENGINE_EXPECT=compiled (CI sets it)
# makes tests/games/test_build.py fail if the compiled build is not the one loaded. The
# command-line tests (subprocesses, the slowest) run on the compiled build only: they call
# the engine as the others do.
# WORKERS: pytest-xdist's processes. Many tests wait on servers, workers, browsers and
# clocks, so two workers leave two cores half idle; four keep them busy (on a bigger
# machine, make test WORKERS=8). worksteal hands a finished worker the others' queued tests,
# so the run does not wait on one worker's long tail.
ENGINE_TESTS = tests/games --ignore=tests/games/test_commands.py
WORKERS ?= 4
PYTEST = $(VENV)/bin/pytest --dist worksteal
# The engine's pass waits on nothing (no server, worker or browser): a worker a core is
# enough, and two more would only start and collect (5 s of its 30 on 2 cores).
ENGINE_WORKERS ?= 2
# Bytecode is written (an empty PYTHONDONTWRITEBYTECODE is off) even where the shell
# turns it off: the four workers and the hundreds of servers, workers and commands the
# tests start would otherwise each compile the project's modules again, and pytest rewrite
# every test module's asserts again (half the 15 s of CPU a worker spends collecting).
test: export DJANGO_DEBUG = true
test: export PYTHONDONTWRITEBYTECODE =
test: compile
	eval "$$($(PY) tests/local_services.py)" && $(PYTEST) -n $(WORKERS)
	eval "$$($(PY) tests/local_services.py)" && PUSH_ENGINE_PURE=1 \
		$(PYTEST) -n $(ENGINE_WORKERS) $(ENGINE_TESTS)

# A round of live tables across hosts made of network namespaces, web1 killed mid-round
# (tests/hosts, docs/operating/several-hosts.md): minutes, and root, so not in `make test`;
# CI runs it after. tests/conftest.py leaves the tests marked hosts out of any run whose -m
# does not name them; -s prints the round's figures.
.PHONY: hosts
hosts: export DJANGO_DEBUG = true
hosts: compile
	$(VENV)/bin/pytest -m hosts -s tests/hosts

# The browser code's tools (package.json): eslint, exactly as package-lock.json has it;
# again only when the lock file changes. Needs node and npm.
NODE_STAMP = node_modules/.installed
$(NODE_STAMP): package-lock.json
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

# mypy checks all of bench, config, games, tournaments and robot_duplicate strictly, with the
# django-stubs plugin
# ([tool.mypy], pyproject.toml); the cores' own run (pure and database-free) keeps them
# strict by themselves. lint-imports checks the one-way calls of docs/developing/layers.md
# ([tool.importlinter], pyproject.toml). eslint (eslint.config.mjs) checks the static
# scripts and the browser code's tests (tests/js). mkdocs builds the manual (mkdocs.yml) and
# fails on a broken link or page.
lint: install $(NODE_STAMP)
	$(VENV)/bin/ruff check .
	node_modules/.bin/eslint games/static/games games/live/static/live tournaments/static tests/js eslint.config.mjs
	$(VENV)/bin/mypy --strict games/engine games/bots tournaments/formats tournaments/leagues tournaments/duplicate tournaments/exports tournaments/console_steps.py tournaments/schedule.py tournaments/standings tournaments/ratings.py tournaments/bot_share.py tournaments/notice_words.py tournaments/webhook_signing.py tournaments/webhook_words.py games/replay.py tournaments/csv_cells.py tournaments/params.py games/live/state.py games/live/ids.py games/live/errors.py games/live/frames.py games/live/seating.py games/live/hands.py games/live/pacing.py games/live/allowance.py
	$(VENV)/bin/mypy bench config deploy games robot_duplicate tournaments
	$(VENV)/bin/lint-imports
	DJANGO_DEBUG=true $(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/mkdocs build --strict

# The manual (mkdocs.yml, docs/), served at http://127.0.0.1:8001/ and rebuilt as its pages
# change; beside `make run`, which has port 8000.
docs: install
	$(VENV)/bin/mkdocs serve -a 127.0.0.1:8001

# Mutation testing of the pure cores with mutmut ([tool.mutmut] in pyproject.toml,
# docs/developing/mutation.md), then the score of each module (tests/mutation_score.py).
# Not part of `make test` nor of CI: it takes hours on two cores. One child process, so
# that it leaves the machine's other core free. Results are kept in mutants/: a plain run
# resumes where the last stopped; MUTANTS (mutant names or patterns) runs those again,
# for example make mutation MUTANTS='tournaments.formats.*'. PY_IGNORE_IMPORTMISMATCH:
# mutmut's own process has imported tests/conftest.py from the checkout, and pytest would
# refuse the copy in mutants/ that a resumed run collects.
.PHONY: mutation
MUTANTS ?=
mutation: export DJANGO_DEBUG = true
mutation: export PUSH_ENGINE_PURE = 1
mutation: export PY_IGNORE_IMPORTMISMATCH = 1
mutation: install
	$(VENV)/bin/mutmut run --max-children 1 $(MUTANTS)
	$(PY) tests/mutation_score.py

clean:
	find games -name '*.so' -delete
	rm -f games/engine/compiled-sources.sha256
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .import_linter_cache .grimp_cache *.egg-info build dist
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
