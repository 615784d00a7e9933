"""core, store, monitor and bench need no Qt: importing all of them loads neither PySide6 nor pyqtgraph.

Runs in both environments of `make test`; in the headless one (no PySide6, no pyqtgraph installed)
it also checks that the environment really is without them.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from needs import HEADLESS

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("core", "store", "monitor", "bench")


def test_the_layers_below_ui_import_without_qt() -> None:
    modules = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for layer in LAYERS for p in (ROOT / "configurator" / layer).rglob("*.py") if p.name != "__main__.py")
    assert len(modules) > 40
    code = ("import importlib, sys\n"
            f"for m in {modules!r}: importlib.import_module(m)\n"
            "print(sorted(n for n in sys.modules if n.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_headless_environment_has_no_qt() -> None:
    found = {name: importlib.util.find_spec(name) is not None for name in ("PySide6", "pyqtgraph")}
    if HEADLESS:
        assert not any(found.values()), f"the headless step must run without Qt: {found}"
    else:
        assert all(found.values()), f"the full environment lacks {found}"
