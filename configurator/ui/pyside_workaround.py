"""Work around reference-count bugs of PySide6 6.12.0 on Python 3.11.

On Python 3.11 this PySide6 returns ``None`` from void methods (``setText``,
``setVisible``, ``QTimer.start`` …) and ``True`` from ``SignalInstance.emit()``
without taking a reference (Python 3.12 made these objects immortal, so there
the omission is harmless). Each call takes one reference away; once a count
reaches zero the interpreter aborts with "none_dealloc: deallocating None" or
"bool_dealloc: deallocating True or False". A live monitor makes thousands of
such calls a minute (labels, pyqtgraph's setData/setRange emits), so without
this the app aborts within minutes, or at exit.

:func:`protect_singletons` measures the leak with a probe and, only if there is
one, gives ``None``, ``True`` and ``False`` a reference count so large that no
session can exhaust it: what Python 3.12 does for them officially.
"""

from __future__ import annotations

import ctypes
import sys

_checked = False
protected = False


def leaks() -> tuple[int, int]:
    """References lost per call: (None from a void method, True from Signal.emit)."""
    from PySide6.QtCore import QObject, Signal

    class _Probe(QObject):
        probe = Signal()

    p = _Probe()
    none, true = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(8):
        p.setObjectName("probe")
    none_lost = (none - sys.getrefcount(None)) // 8
    true = sys.getrefcount(True)
    for _ in range(8):
        p.probe.emit()
    return none_lost, (true - sys.getrefcount(True)) // 8


def protect_singletons() -> bool:
    """True if the bug was found and compensated (checked once per process)."""
    global _checked, protected
    if _checked or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return protected
    _checked = True
    none_lost, true_lost = leaks()
    if none_lost <= 0 and true_lost <= 0:
        return False
    for obj in (None, True, False):
        # ob_refcnt is the first field of every CPython object.
        ctypes.c_ssize_t.from_address(id(obj)).value += 1 << 40
    protected = True
    return True
