from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from dialogs import forget_unsaved
from PySide6.QtCore import QCoreApplication, QObject, QSettings, QThread, QThreadPool, QTimer
from PySide6.QtWidgets import QApplication

from configurator.app import Services, build_services, build_window


def _roots() -> list[QObject]:
    app = QCoreApplication.instance()
    roots: list[QObject] = [app] if app is not None else []
    return roots + list(QApplication.topLevelWidgets())


def running_qt_work(roots: list[QObject] | None = None) -> list[str]:
    """What Qt work is still going: active timers, running QThreads, busy thread pools, found
    from the application object and every top-level widget down (Qt's own object tree)."""
    left: list[str] = []
    pools = [QThreadPool.globalInstance()]
    for root in roots if roots is not None else _roots():
        def where(obj: QObject, root: QObject = root) -> str:
            return f"{type(obj).__name__} {obj.objectName()!r} under {type(root).__name__} {root.objectName()!r}"
        left += [f"active {where(t)} ({t.interval()} ms)" for t in root.findChildren(QTimer) if t.isActive()]
        left += [f"running {where(t)}" for t in root.findChildren(QThread) if t.isRunning()]
        pools += root.findChildren(QThreadPool)
    left += [f"{p.activeThreadCount()} job(s) running in a QThreadPool" for p in pools if p.activeThreadCount()]
    return left


@pytest.fixture(autouse=True)
def no_running_qt_work(qapp):  # type: ignore[no-untyped-def]
    """A test that leaves a QTimer, QThread or QThreadPool job running fails. Set up before the
    test's own fixtures, so it checks after they (the window, the services) have closed."""
    yield
    QCoreApplication.processEvents()  # deferred deletes and queued stops run first
    # The top-level widgets are asked for once: a CI run crashed (SIGSEGV inside
    # QApplication.topLevelWidgets) when they were listed again after the first walk.
    roots = _roots()
    left = running_qt_work(roots)
    for pool in [QThreadPool.globalInstance()] + [p for r in roots for p in r.findChildren(QThreadPool)]:
        pool.waitForDone(5000)  # so that the next test starts clean
    for root in roots:
        for timer in root.findChildren(QTimer):
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
