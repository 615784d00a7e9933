"""Python's cycle collector, run in the GUI thread only.

Python collects reference cycles in whichever thread happens to allocate when a generation is full:
the monitor's sampler, a benchmark's reader, a worker of the thread pool. A widget in a cycle (a
closed dialog whose slots refer to it, a panel and its closures) is then destroyed in that thread,
and Qt destroys widgets in the GUI thread only: its list of all widgets is changed without a lock,
and a later ``QApplication.topLevelWidgets()`` read a freed widget (a SIGSEGV in CI, twice; the
test is ``tests/ui/test_gui_thread_gc.py``). So :class:`GuiThreadCollector` turns the automatic
collection off and collects from a timer in the GUI thread, each generation once it is as full as
Python's own thresholds say: what pyqtgraph's ``GarbageCollector`` does for the same reason.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer


class GuiThreadCollector(QObject):
    """Collects reference cycles in the thread it lives in (make it in the GUI thread); ``start``
    turns Python's automatic collection off, ``stop`` turns it on again."""

    INTERVAL_MS = 1000  # at most a second of cyclic garbage waits for its collection

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS):
        super().__init__(parent)
        self.timer = QTimer(self)
        self.timer.setObjectName("guiThreadCollector")
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.collect_due)

    def start(self) -> None:
        gc.disable()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        gc.enable()

    def collect_due(self) -> int:
        """Collect the generations that are due, as Python's own collector would; returns how many
        unreachable objects were found."""
        thresholds = gc.get_threshold()
        counts = gc.get_count()  # allocations since the last collection; collections of the younger generation
        if counts[0] <= thresholds[0]:
            return 0
        for generation in (2, 1):  # the oldest generation that is due takes the younger ones with it
            if counts[generation] > thresholds[generation]:
                return gc.collect(generation)
        return gc.collect(0)
