# The newcomer path: `make run` serves the app, `make test` runs the whole suite.
# Both create .venv on first use and are safe to run again.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint bench install lock system-packages messages services-test clean axe

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# requirements*.txt are lock files (every transitive version, with hashes) compiled by pip-tools
# from requirements*.in: pip checks every download against its hash.
$(STAMP): requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet --disable-pip-version-check --require-hashes -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

# After editing requirements.in or requirements-dev.in: recompile both locks (existing pins are
# kept unless a .in line asks for another version; add --upgrade-package NAME to move one).
PIP_COMPILE := $(BIN)/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras \
	--no-emit-index-url --no-emit-find-links
lock: install
	$(PIP_COMPILE) --output-file requirements.txt requirements.in
	$(PIP_COMPILE) --output-file requirements-dev.txt requirements-dev.in

system-packages:
	@sh scripts/system-packages.sh

# After changing user-facing strings: extract them into locale/*/LC_MESSAGES/*.po, translate the
# new entries (no empty or fuzzy msgstr: tests/test_translations.py), then compile the .mo files,
# which are committed so that `make run`, the tests and the Docker image need no gettext.
LOCALES := es pt_BR ja
messages: install system-packages
	$(BIN)/python manage.py makemessages --no-obsolete --no-location $(addprefix -l ,$(LOCALES)) \
		--ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'tests/*' --ignore 'bench/*'
	$(BIN)/python manage.py makemessages -d djangojs --no-obsolete --no-location $(addprefix -l ,$(LOCALES)) \
		--ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'static/vendor/*'
	$(BIN)/python manage.py compilemessages --ignore '.venv/*'

# HOST=0.0.0.0 serves the hall's network: it prints the address phones use (PUBLIC_URL). DEBUG
# (error pages with code and settings) is on only while the laptop alone can reach the site.
LOOPBACK_HOST := $(filter 127.% localhost ::1,$(HOST))
run: install
	DEBUG=$${DEBUG:-$(if $(LOOPBACK_HOST),true,false)} $(BIN)/python manage.py runembedded --demo $(HOST):$(PORT)

# One test process per core (pytest-xdist); `$(BIN)/python -m pytest tests/...` runs a part in one.
test: install system-packages axe
	$(BIN)/python -m pytest -n auto

# axe-core for the accessibility audit (tests/browser/test_accessibility.py), pinned with its hash
# in tests/browser/axe/package-lock.json; npm comes with scripts/system-packages.sh.
AXE := tests/browser/axe/node_modules/axe-core/axe.min.js
axe: $(AXE)
$(AXE): tests/browser/axe/package-lock.json
	npm ci --prefix tests/browser/axe --no-audit --no-fund
	touch $(AXE)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/hadolint Dockerfile

bench: install
	@for script in bench/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis staticfiles var tests/browser/axe/node_modules
