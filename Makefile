# Every target creates .venv if it is missing (Python 3.11 or 3.12; system packages: see README).
PYTHON ?= $(shell command -v python3.11 || command -v python3.12 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export QT_QPA_PLATFORM ?= offscreen
# Python writes its bytecode here and reuses it (where PYTHONDONTWRITEBYTECODE is set, every test
# process and every command-line child compiled the project anew: a third of the suite's collection).
unexport PYTHONDONTWRITEBYTECODE

HEADLESS := .venv-headless

.PHONY: run test test-main test-headless lint bench docs translations package clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[bench,dev]'
	touch $(STAMP)

run: $(STAMP)
	QT_QPA_PLATFORM= $(BIN)/configurator

lint: $(STAMP)
	$(BIN)/ruff check configurator tests benchmarks db packaging
	$(BIN)/mypy configurator
	$(BIN)/lint-imports

# Each test runs once (tests/needs.py): the main suite here (tests/ui, the top-level tests, and the
# Qt-free layers' tests marked full_env), every other core/store/monitor/bench/cli test in the headless
# step. Two workers each (pytest-xdist); the 20 slowest tests are listed, so the next one shows.
PYTEST_MAIN := -q -n 2 -m "not headless" --durations=20

# The lint, the main suite and the headless step side by side (each one's output shown whole when it
# ends): on two cores the suites' waits (child processes, servers, timeouts) overlap the others' work.
test: $(STAMP)
	$(MAKE) --no-print-directory -j3 --output-sync=target lint test-main test-headless

test-main: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_MAIN)

# The core, store, monitor, bench and command-line (tests/cli) tests in a second environment without
# PySide6, pyqtgraph or torch: those layers need no Qt (a test that needs either, Chinese output and PDFs
# among them, is marked full_env and runs in the main suite).
test-headless: $(STAMP)
	test -x $(HEADLESS)/bin/python || $(PYTHON) -m venv $(HEADLESS)
	$(BIN)/python tests/headless_requirements.py > $(HEADLESS)/requirements.txt
	$(HEADLESS)/bin/python -m pip install -q -r $(HEADLESS)/requirements.txt
	CONFIGURATOR_HEADLESS=1 PYTHONPATH=$(CURDIR) $(HEADLESS)/bin/python -m pytest -q -n 2 -p no:cacheprovider \
		-m headless --durations=10 tests/core tests/store tests/monitor tests/bench tests/cli

bench: $(STAMP)
	$(BIN)/python -m benchmarks

# docs/rules.md from the rules catalogue (configurator/core/rules/catalogue/); a test fails when it is stale.
docs: $(STAMP)
	$(BIN)/python -m configurator.core.rules.catalogue --markdown > docs/rules.md.tmp && mv docs/rules.md.tmp docs/rules.md

# Re-extract the strings into the .ts (keeping translations) and recompile the .qm.
translations: $(STAMP)
	$(BIN)/python -m configurator.cli.help_texts
	$(BIN)/pyside6-lupdate -no-obsolete -locations none -target-language zh_CN $$(find configurator -name '*.py' | sort) \
		-ts resources/translations/configurator_zh_CN.ts
	$(BIN)/pyside6-lrelease resources/translations/configurator_zh_CN.ts \
		-qm resources/translations/configurator_zh_CN.qm

# The one-folder app in dist/configurator (PyInstaller; torch is not inside: benchmarks run under the
# Python the user picks), its desktop files checked when the validators are installed, then smoke-tested.
package: $(STAMP)
	$(BIN)/python -c 'import PyInstaller' 2>/dev/null || $(BIN)/python -m pip install -q -e '.[package]'
	@start=$$(date +%s); \
	$(BIN)/pyinstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build/pyinstaller \
		packaging/configurator.spec && \
	echo "package: dist/configurator built in $$(($$(date +%s) - start)) s, $$(du -sh dist/configurator | cut -f1)"
	@if command -v desktop-file-validate >/dev/null; then desktop-file-validate packaging/linux/*.desktop; \
	else echo "package: desktop-file-validate not installed (desktop-file-utils), not checked"; fi
	@if command -v appstreamcli >/dev/null; then appstreamcli validate --no-net packaging/linux/*.metainfo.xml; \
	else echo "package: appstreamcli not installed (appstream), not checked"; fi
	$(BIN)/python packaging/smoke.py

clean:
	rm -rf $(VENV) $(HEADLESS) build dist .pytest_cache .mypy_cache .ruff_cache
