"""Optional heavy dependencies of some tests, and the headless step.

`make test` runs the whole suite in the full environment (.venv: Qt, torch), then the core, store,
monitor and bench tests again in a second one without PySide6, pyqtgraph or torch (`make
test-headless`, CONFIGURATOR_HEADLESS=1), proving those layers need no Qt. Only there may a test skip
for a missing PySide6 or torch; in the full environment a missing one is a failure, never a skip.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

HEADLESS = os.environ.get("CONFIGURATOR_HEADLESS") == "1"


def optional(name: str) -> ModuleType:
    """Import ``name``; in the headless step a missing module skips the caller instead."""
    if HEADLESS:
        return pytest.importorskip(name, reason=f"headless step: {name} is not installed there")
    return importlib.import_module(name)


def skip_if_headless(what: str) -> None:
    if HEADLESS:
        pytest.skip(f"headless step: {what}")
