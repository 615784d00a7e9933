"""The checks every UI test ends with (conftest.no_running_qt_work, conftest.no_widgets_left) see what
they should."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
import weakref

import shiboken6
from conftest import destroy_deferred, destroy_widgets_left, running_qt_work, top_level_widgets
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


def test_a_top_level_widget_left_alive_is_named_and_destroyed(qtbot) -> None:  # type: ignore[no-untyped-def]
    before = top_level_widgets()
    kept = QWidget()  # held here: alive after any collection
    kept.setObjectName("orphan")
    kept.setWindowTitle("Left open")
    child = QWidget(kept)
    assert destroy_widgets_left(before) == ["QWidget 'orphan' 'Left open'"]
    assert not shiboken6.isValid(kept) and not shiboken6.isValid(child)
    assert destroy_widgets_left(before) == []


def test_a_finished_tasks_callbacks_are_let_go(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Qt holds a connected callback; the callback held the task: neither went, nor what the callback
    closed over (in the app: the window, an import's rows), for the rest of the run."""

    class Rows:
        pass

    widget = QWidget()
    qtbot.addWidget(widget)
    tasks = TaskRunner(widget)
    rows = Rows()
    gone = weakref.ref(rows)
    got: list[object] = []
    tasks.submit(lambda: 42, lambda result, rows=rows: got.append((result, rows)))
    del rows
    qtbot.waitUntil(lambda: bool(got), timeout=5000)
    got.clear()
    assert tasks.wait(5000)
    qtbot.waitUntil(lambda: (destroy_deferred(), gc.collect(), gone() is None)[-1], timeout=5000)


_WINDOW_LIFE = """
import argparse, gc, sys
from pathlib import Path
from PySide6.QtCore import QCoreApplication, QEvent, QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
from configurator.app import build_services, build_window
from configurator.ui.bench import BenchmarkTab, QtSuiteRunner
from configurator.ui.main_window import MainWindow
from configurator.ui.monitor.bridge import SnapshotBridge
from configurator.ui.monitor.tab import MonitorTab
folder = Path(sys.argv[1])
services = build_services(argparse.Namespace(db=str(folder / "configurator.db"), lang="en"),
                          QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat))
window = build_window(services)
window.show()
for i in range(len(window.extra_tabs)):
    window.build_tab(i)
print("built", len(QApplication.topLevelWidgets()))
window.close()
window.deleteLater()
services.close()
del window, services
QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
gc.collect()
kinds = (MainWindow, MonitorTab, BenchmarkTab, QtSuiteRunner, SnapshotBridge)
print("kept", sorted(type(o).__name__ for o in gc.get_objects() if isinstance(o, kinds)))
print("windows", len(QApplication.topLevelWidgets()))
"""


def test_a_destroyed_window_lets_go_of_every_tab_and_plot(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The whole window goes when it is destroyed: its tabs' Python objects and pyqtgraph's context menus
    with them. The benchmark runner and the monitor's snapshot bridge, parentless QObjects whose Qt
    connections held them in a cycle Python's collector cannot see, were kept for good. In a process of
    its own: the app's window, with nothing an earlier test left in this one."""
    out = subprocess.run([sys.executable, "-c", _WINDOW_LIFE, str(tmp_path)], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.returncode == 0, out.stderr
    built, kept, windows = out.stdout.splitlines()
    assert int(built.split()[1]) > 20  # the window and the plots' context menus
    assert kept == "kept []" and windows == "windows 0"
