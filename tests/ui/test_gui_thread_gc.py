"""Reference cycles, and the widgets in them, are collected in the GUI thread only."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QPushButton

from configurator.ui.gui_thread_gc import GuiThreadCollector


class CycleDialog(QDialog):
    """A dialog that refers to itself, as a closed dialog whose slots hold it does."""

    def __init__(self) -> None:
        super().__init__()
        self.me = self
        self.button = QPushButton("Close", self)
        self.button.clicked.connect(self.close)


def dialog_in_a_cycle(destroyed_in: list[str]) -> None:
    dialog = CycleDialog()
    dialog.destroyed.connect(lambda *_: destroyed_in.append(threading.current_thread().name),
                             Qt.ConnectionType.DirectConnection)
    dialog.show()
    dialog.close()


def allocate_cycles(n: int) -> None:
    for _ in range(n):
        a: list[object] = []
        a.append(a)  # enough to fill generation 0 many times over


def test_a_worker_thread_that_allocates_never_destroys_a_widget(qtbot, gui_thread_gc: GuiThreadCollector) -> None:  # type: ignore[no-untyped-def]
    assert not gc.isenabled()  # the session's collector (as configurator.app.run_gui starts one)
    destroyed_in: list[str] = []
    dialog_in_a_cycle(destroyed_in)
    worker = threading.Thread(target=allocate_cycles, args=(200_000,), name="sampler")
    worker.start()
    worker.join()
    # Python's own collector would have run in the worker and destroyed the dialog there (seen:
    # destroyed_in == ["sampler"]; Qt's list of widgets was then changed from two threads)
    assert destroyed_in == []
    qtbot.waitUntil(lambda: destroyed_in != [], timeout=5000)  # the collector's timer, in this thread
    assert destroyed_in == ["MainThread"]


def test_it_collects_each_generation_when_python_would(qapp) -> None:  # type: ignore[no-untyped-def]
    collector = GuiThreadCollector(qapp)
    gc.collect()
    assert collector.collect_due() == 0  # nothing due right after a collection
    threshold = gc.get_threshold()[0]
    garbage = [[] for _ in range(threshold + 10)]
    for item in garbage:
        item.append(item)
    del garbage, item
    assert gc.get_count()[0] > threshold
    assert collector.collect_due() >= threshold
    assert gc.get_count()[0] < threshold
