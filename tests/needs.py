"""Which environment the tests run in.

`make test` runs each test once: the main suite (.venv: Qt, torch) runs tests/ui, the top-level tests
and the Qt-free layers' tests marked ``full_env`` (they need torch or PySide6); the headless step (`make
test-headless`, CONFIGURATOR_HEADLESS=1: an environment without PySide6, pyqtgraph or torch) runs every
other test of core, store, monitor, bench and the command line (tests/cli; marked ``headless`` by
tests/conftest.py), proving those layers need no Qt (the command line's Chinese output and its PDFs do: those
tests are marked ``full_env``). A headless test that imports torch or Qt fails there with an ImportError: nothing
is skipped for a missing dependency.
"""

from __future__ import annotations

import os

HEADLESS = os.environ.get("CONFIGURATOR_HEADLESS") == "1"
