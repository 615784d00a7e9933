# Every target creates .venv if it is missing (Python 3.11 or 3.12; system packages: see README).
PYTHON ?= $(shell command -v python3.11 || command -v python3.12 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export QT_QPA_PLATFORM ?= offscreen

.PHONY: run test lint bench translations clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[bench,dev]'
	touch $(STAMP)

run: $(STAMP)
	QT_QPA_PLATFORM= $(BIN)/configurator

lint: $(STAMP)
	$(BIN)/ruff check configurator tests benchmarks db
	$(BIN)/mypy configurator
	$(BIN)/lint-imports

test: lint
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m benchmarks

# Re-extract the strings into the .ts (keeping translations) and recompile the .qm.
translations: $(STAMP)
	$(BIN)/pyside6-lupdate -no-obsolete -locations none -target-language zh_CN $$(find configurator -name '*.py' | sort) \
		-ts resources/translations/configurator_zh_CN.ts
	$(BIN)/pyside6-lrelease resources/translations/configurator_zh_CN.ts \
		-qm resources/translations/configurator_zh_CN.qm

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
