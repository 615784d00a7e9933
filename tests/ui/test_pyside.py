"""The installed PySide6 keeps Python's reference counts.

PySide6 6.12.0 on CPython 3.11 returned ``None`` from void methods (``setObjectName``,
``setText`` …) and ``True`` from ``SignalInstance.emit()`` without taking a reference; each call
took one away, and a live monitor (thousands of such calls a minute) aborted the interpreter with
"none_dealloc: deallocating None" within minutes. pyproject.toml excludes that release; this test
fails on any installed PySide6 with the same bug, so it is excluded too instead of worked around.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Probe(QObject):
    probe = Signal()


def test_void_methods_and_emit_do_not_lose_references_to_none_and_true(qapp) -> None:  # type: ignore[no-untyped-def]
    p = _Probe()
    for _ in range(8):  # warm up: first calls may create caches that hold references
        p.setObjectName("probe")
        p.probe.emit()
    none = sys.getrefcount(None)
    for _ in range(1000):
        p.setObjectName("probe")
    none_lost = none - sys.getrefcount(None)
    true = sys.getrefcount(True)
    for _ in range(1000):
        p.probe.emit()
    true_lost = true - sys.getrefcount(True)
    if sys.version_info >= (3, 12):  # immortal objects: counts do not move either way
        return
    assert none_lost < 100 and true_lost < 100, (none_lost, true_lost)
