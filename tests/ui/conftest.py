from __future__ import annotations

import argparse
import gc
from pathlib import Path

import pytest
import shiboken6
from dialogs import forget_unsaved
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSettings, QThread, QThreadPool, QTimer
from PySide6.QtWidgets import QApplication, QMenu, QWidget

from configurator.app import Services, build_services, build_window
from configurator.ui.gui_thread_gc import GuiThreadCollector


def _qt_work_objects() -> list[QObject]:
    """Every QTimer, QThread and QThreadPool made from Python (by us or by pyqtgraph) that still
    exists, found in Python's own list of objects: a Qt object made from Python keeps its wrapper
    while it lives, owned by Python or by its Qt parent. Qt is not asked to list its widgets:
    two CI runs crashed with SIGSEGV inside QApplication.topLevelWidgets in this check."""
    kinds = (QTimer, QThread, QThreadPool)
    # type(o), not isinstance: isinstance reads o.__class__, which some objects warn on (torch's deprecated
    # distributed.reduce_op, where torch was imported in the same worker)
    found = [o for o in gc.get_objects() if issubclass(type(o), kinds)]
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


def _address(w: QWidget) -> int:
    return int(shiboken6.getCppPointer(w)[0])


def destroy_deferred() -> None:
    """Run the deleteLater()s posted so far, now (outside an event loop Qt runs them only when a loop
    at this level is entered again, so a test's closed widgets would pile up for the rest of the run)."""
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def destroy(w: QWidget) -> None:
    """Close ``w`` and destroy it (and its children) now, in the GUI thread."""
    if shiboken6.isValid(w):
        w.close()
        w.deleteLater()
    destroy_deferred()


def top_level_widgets() -> set[int]:
    """The top-level widgets now, by address (a wrapper can be made anew for the same widget)."""
    return {_address(w) for w in QApplication.topLevelWidgets()}


def _parentless_menu(w: QWidget) -> bool:
    """A QMenu (or a submenu of one) that no widget owns: pyqtgraph makes each plot's context menus so,
    owned by the plot's Python object alone."""
    while isinstance(w, QMenu):
        parent = w.parentWidget()
        if parent is None:
            return True
        w = parent
    return False


def destroy_widgets_left(before: set[int]) -> list[str]:
    """Destroy the top-level widgets made since ``before`` that outlived their deferred deletes and a
    collection in the GUI thread (so no widget in Qt's list was freed in another thread); the names of
    those that are a leak. pyqtgraph's parentless context menus are destroyed but not named: they go with
    their plot's Python object, which a test's pytest-qt machinery can keep past the test through a
    reference Python's collector cannot see (test_qt_leaks shows the app's own window frees them)."""
    QCoreApplication.processEvents()
    destroy_deferred()
    gc.collect()
    destroy_deferred()
    left = [w for w in QApplication.topLevelWidgets() if _address(w) not in before]
    names = [f"{type(w).__name__} {w.objectName()!r} {w.windowTitle()!r}" for w in left if not _parentless_menu(w)]
    for w in left:
        destroy(w)
    return names


@pytest.fixture(autouse=True)
def no_widgets_left(request, qapp, gui_thread_gc):  # type: ignore[no-untyped-def]
    """A test that leaves a top-level widget alive fails, naming it; the widget is destroyed, so the next
    test starts with no more widgets than this one did (10,798 widgets left by earlier tests slowed every
    palette switch and every scan after them). Set up before the test's own fixtures, so it checks after
    they (the window, qtbot's widgets) were closed and deleted."""
    before = top_level_widgets()
    yield
    if getattr(request.node, "failed_call", False):
        destroy_widgets_left(before)  # the failure's traceback holds the test's locals: no leak of its own
        return
    # The fixtures' values, which pytest drops right after this teardown: a Python object they hold (the
    # Monitor tab's plots, whose C++ side went with the window) would keep pyqtgraph's context menus,
    # top-level QMenus without a parent, alive until then.
    request.node.funcargs.clear()
    left = destroy_widgets_left(before)
    assert not left, "top-level widgets left alive: " + "; ".join(left)


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def services(qapp, seeded_db: Path, settings: QSettings):  # type: ignore[no-untyped-def]
    s = build_services(argparse.Namespace(db=str(seeded_db), lang="en"), settings)
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
    w.deleteLater()  # destroyed by no_widgets_left, after the services (the Monitor tab's shutdown) closed
