# Everyday commands: `make run` (dev server on http://127.0.0.1:8000) and `make test`.
# Every target installs what it needs first; stamp files make repeated runs instant.

SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# Hashed lock files, made from pyproject.toml by `make lock` (uv pip compile).
LOCK_BASE := requirements/base.txt
LOCK_DEV := requirements/dev.txt
LOCK_OPTS := --universal --python-version 3.12 --generate-hashes --quiet
NODE_STAMP := node_modules/.package-lock.json
# The YAML editor's bundle (CodeMirror 6 + static/src/*.js, by esbuild): built, not committed.
EDITOR_BUNDLE := static/js/yaml-editor.js
EDITOR_SOURCES := $(filter-out static/src/bootstrap-parts.js,$(wildcard static/src/*.js))
# The site's Bootstrap, built, not committed: the stylesheet from static/src/scss/ (dart-sass)
# and the one plugin the pages use (Collapse) from static/src/bootstrap-parts.js (esbuild).
BOOTSTRAP_CSS := static/css/bootstrap.css
BOOTSTRAP_JS := static/js/bootstrap-parts.js
PO_FILES := $(wildcard locale/*/LC_MESSAGES/*.po)
MO_FILES := $(PO_FILES:.po=.mo)
MAKEMESSAGES_OPTS := --all --add-location=file --no-obsolete \
	--ignore='.venv/*' --ignore='node_modules/*' --ignore='tests/*' --ignore='staticfiles/*'

# The first interpreter >= 3.12 among these wins (pyenv shims that fail are skipped).
PYTHON_CANDIDATES = python3.13 python3.12 python3 \
	$(wildcard /root/.pyenv/versions/3.1[3-9]*/bin/python3) \
	$(wildcard /root/.pyenv/versions/3.12*/bin/python3) \
	$(wildcard /usr/bin/python3.1[2-9])
find_python = $(shell for py in $(PYTHON_CANDIDATES); do \
	if command -v "$$py" >/dev/null 2>&1 && \
	   "$$py" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then \
		command -v "$$py"; break; \
	fi; done)

.PHONY: help venv install lock node_modules assets translations migrate load run test lint bench \
	multiserver \
	makemessages clean

help:
	@echo "make run           install, compile translations, migrate, load scenarios, serve on 127.0.0.1:8000"
	@echo "make test          install, compile translations, lint, run the test suite (honours DATABASE_URL)"
	@echo "make lint          ruff check, mypy (strict: engine, quiz, scenarios, config), import-linter's contracts"
	@echo "make bench         run the benchmarks in tests/bench (if any)"
	@echo "make multiserver   two gunicorn servers on one PostgreSQL and Redis, checked together"
	@echo "                   (needs DATABASE_URL=postgres://... and REDIS_URL; .ci/run starts both)"
	@echo "make lock          re-pin requirements/*.txt from pyproject.toml (UPGRADE=1: newest)"
	@echo "make assets        build the front-end files: the YAML editor's script, Bootstrap's CSS (sass) and JS"
	@echo "make makemessages  refresh locale/*/LC_MESSAGES/django.po from the sources (needs GNU gettext)"
	@echo "make clean         remove the virtualenv, node_modules, compiled translations and caches"

$(PY):
	@base="$(find_python)"; \
	if [ -z "$$base" ]; then \
		echo "No Python >= 3.12 found. Install one, for example:" >&2; \
		echo "  apt-get install python3.12 python3.12-venv   (Debian/Ubuntu)" >&2; \
		echo "  pyenv install 3.12                           (pyenv)" >&2; \
		exit 1; \
	fi; \
	echo "Creating $(VENV) with $$base"; \
	"$$base" -m venv $(VENV) || { echo "Creating the virtualenv failed: install the venv module (e.g. apt-get install python3.12-venv)." >&2; rm -rf $(VENV); exit 1; }

venv: $(PY)

# Every package comes from the hashed lock; the project itself is installed on top, editable.
$(STAMP): $(LOCK_DEV) pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK_DEV)
	$(PY) -m pip install --quiet --no-deps -e .
	@touch $@

# Run after changing dependencies in pyproject.toml; keeps existing pins unless UPGRADE=1.
# One lock for every Python >= 3.12 and platform (markers), with hashes of every file.
lock: $(STAMP)
	$(VENV)/bin/uv pip compile pyproject.toml $(LOCK_OPTS) $(if $(UPGRADE),--upgrade) \
		-o $(LOCK_BASE)
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev -c $(LOCK_BASE) $(LOCK_OPTS) \
		$(if $(UPGRADE),--upgrade) -o $(LOCK_DEV)

install: $(STAMP) $(NODE_STAMP) $(EDITOR_BUNDLE) $(BOOTSTRAP_CSS) $(BOOTSTRAP_JS)

$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm not found: install Node.js and npm (apt-get install npm)." >&2; exit 1; }
	npm ci --no-audit --no-fund
	@touch $@

node_modules: $(NODE_STAMP)

# Rebuilt when a source or the pinned packages change (npm ci touches the stamp).
$(EDITOR_BUNDLE): $(EDITOR_SOURCES) package.json package-lock.json $(NODE_STAMP)
	npm run --silent build

$(BOOTSTRAP_CSS): $(wildcard static/src/scss/*.scss) package.json package-lock.json $(NODE_STAMP)
	npm run --silent build:css

$(BOOTSTRAP_JS): static/src/bootstrap-parts.js package.json package-lock.json $(NODE_STAMP)
	npm run --silent build:js

assets: $(EDITOR_BUNDLE) $(BOOTSTRAP_CSS) $(BOOTSTRAP_JS)

%.mo: %.po | $(STAMP)
	$(PY) manage.py compiletranslations

translations: $(MO_FILES)

migrate: install
	$(PY) manage.py migrate --no-input

load: migrate
	@if $(PY) manage.py help load_scenarios >/dev/null 2>&1; then \
		$(PY) manage.py load_scenarios; \
	else \
		echo "scenario library loader not installed yet"; \
	fi

run: install translations migrate load
	$(PY) manage.py runserver 127.0.0.1:8000

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict engine
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

test: install translations lint
	$(PY) -m pytest -n auto

bench: install translations
	@if [ -f tests/bench/__main__.py ]; then \
		$(PY) -m tests.bench; \
	else \
		echo "no benchmarks yet"; \
	fi

# Two app servers sharing DATABASE_URL (PostgreSQL) and REDIS_URL: sessions, exam clocks,
# throttles, publishing and a load run checked across them (tests/multiserver.py).
multiserver: install translations
	$(PY) -m tests.multiserver

makemessages: $(STAMP)
	$(PY) manage.py makemessages $(MAKEMESSAGES_OPTS)

clean:
	rm -rf $(VENV) node_modules staticfiles $(EDITOR_BUNDLE) $(BOOTSTRAP_CSS) $(BOOTSTRAP_JS) \
		.pytest_cache .ruff_cache .mypy_cache .import_linter_cache *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find locale -name '*.mo' -delete
