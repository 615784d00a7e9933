from __future__ import annotations

import argparse
import gc
from pathlib import Path

import pytest
import shiboken6
from dialogs import forget_unsaved
from PySide6.QtCore import QCoreApplication, QObject, QSettings, QThread, QThreadPool, QTimer

from configurator.app import Services, build_services, build_window
from configurator.ui.gui_thread_gc import GuiThreadCollector


def _qt_work_objects() -> list[QObject]:
    """Every QTimer, QThread and QThreadPool made from Python (by us or by pyqtgraph) that still
    exists, found in Python's own list of objects: a Qt object made from Python keeps its wrapper
    while it lives, owned by Python or by its Qt parent. Qt is not asked to list its widgets:
    two CI runs crashed with SIGSEGV inside QApplication.topLevelWidgets in this check."""
    kinds = (QTimer, QThread, QThreadPool)
    found = [o for o in gc.get_objects() if isinstance(o, kinds)]
    return [o for o in found if shiboken6.isValid(o) and not isinstance(o.parent(), GuiThreadCollector)]


def _where(obj: QObject) -> str:
    """``QTimer 'name' under MainWindow 'main'``: the object and the top of its Qt parents."""
    root = obj
    while (parent := root.parent()) is not None:
        root = parent
    return f"{type(obj).__name__} {obj.objectName()!r} under {type(root).__name__} {root.objectName()!r}"


def running_qt_work(objects: list[QObject] | None = None) -> list[str]:
    """What Qt work is still going: active timers, running QThreads, busy thread pools."""
    objects = _qt_work_objects() if objects is None else objects
    left = [f"active {_where(t)} ({t.interval()} ms)" for t in objects if isinstance(t, QTimer) and t.isActive()]
    left += [f"running {_where(t)}" for t in objects if isinstance(t, QThread) and t.isRunning()]
    pools = [QThreadPool.globalInstance()] + [p for p in objects if isinstance(p, QThreadPool)]
    left += [f"{p.activeThreadCount()} job(s) running in a QThreadPool" for p in pools if p.activeThreadCount()]
    return left


@pytest.fixture(scope="session", autouse=True)
def gui_thread_gc(qapp):  # type: ignore[no-untyped-def]
    """Reference cycles are collected in the GUI thread, as in the app (configurator.app.run_gui)."""
    collector = GuiThreadCollector(qapp)
    collector.start()
    # What exists before the first UI test (the modules: torch's alone are 400,000 objects) is left
    # out of every collection and of every scan of the objects after a test.
    gc.collect()
    gc.freeze()
    yield collector
    gc.unfreeze()
    collector.stop()


@pytest.fixture(autouse=True)
def no_running_qt_work(qapp, gui_thread_gc):  # type: ignore[no-untyped-def]
    """A test that leaves a QTimer, QThread or QThreadPool job running fails. Set up before the
    test's own fixtures, so it checks after they (the window, the services) have closed."""
    yield
    QCoreApplication.processEvents()  # queued stops run first
    gc.collect()  # what the test left in reference cycles is destroyed, here in the GUI thread
    objects = _qt_work_objects()
    left = running_qt_work(objects)
    for pool in [QThreadPool.globalInstance()] + [p for p in objects if isinstance(p, QThreadPool)]:
        pool.waitForDone(5000)  # so that the next test starts clean
    for timer in objects:
        if isinstance(timer, QTimer):
            timer.stop()
    assert not left, "Qt work left running: " + "; ".join(left)


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def services(qapp, db_path: Path, settings: QSettings):  # type: ignore[no-untyped-def]
    s = build_services(argparse.Namespace(db=str(db_path), lang="en"), settings)
    yield s
    s.languages.install("en")
    s.close()


@pytest.fixture
def window(qtbot, services: Services):  # type: ignore[no-untyped-def]
    w = build_window(services)
    w.show()
    qtbot.waitExposed(w)
    yield w
    # Closed here rather than by qtbot.addWidget (pytest-qt closes those before fixtures end): a
    # build the test left modified would ask Save / Discard / Cancel.
    forget_unsaved(w)
    w.close()
