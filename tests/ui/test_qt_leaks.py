"""The check every UI test ends with (conftest.no_running_qt_work) sees what it should."""

from __future__ import annotations

import threading

from conftest import running_qt_work
from PySide6.QtCore import QThread, QTimer
from PySide6.QtWidgets import QWidget

from configurator.ui.tasks import TaskRunner


def test_an_active_timer_of_a_widget_is_found(qtbot) -> None:  # type: ignore[no-untyped-def]
    widget = QWidget()
    widget.setObjectName("leaky")
    qtbot.addWidget(widget)
    timer = QTimer(widget)
    timer.start(60_000)
    assert any("QTimer" in item and "'leaky'" in item for item in running_qt_work())
    timer.stop()
    assert running_qt_work() == []


class Waiting(QThread):
    def __init__(self, release: threading.Event, parent: QWidget):
        super().__init__(parent)
        self.release = release

    def run(self) -> None:
        self.release.wait(10)


def test_a_running_qthread_and_a_busy_pool_are_found(qtbot) -> None:  # type: ignore[no-untyped-def]
    widget = QWidget()
    qtbot.addWidget(widget)
    release = threading.Event()
    thread = Waiting(release, widget)
    thread.start()
    tasks = TaskRunner(widget)
    tasks.submit(lambda: release.wait(10))
    qtbot.waitUntil(lambda: tasks.pool.activeThreadCount() == 1, timeout=5000)
    left = running_qt_work()
    assert any(item.startswith("running Waiting") for item in left)
    assert any("QThreadPool" in item for item in left)
    release.set()
    assert thread.wait(5000) and tasks.wait(5000)
    assert running_qt_work() == []
