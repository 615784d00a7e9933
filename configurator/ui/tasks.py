"""The one way to run work off the GUI thread: a QRunnable on QThreadPool that
reports by signal. Workers never touch widgets."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal


class _Signals(QObject):
    succeeded = Signal(object)
    failed = Signal(object, str)  # exception, formatted traceback
    done = Signal()


class Task(QRunnable):
    def __init__(self, fn: Callable[[], Any]):
        super().__init__()
        self.fn = fn
        self.signals = _Signals()
        self.setAutoDelete(False)

    def run(self) -> None:
        try:
            result = self.fn()
        except Exception as exc:  # reported to the GUI, never swallowed
            self.signals.failed.emit(exc, traceback.format_exc())
        else:
            self.signals.succeeded.emit(result)
        finally:
            self.signals.done.emit()


class TaskRunner(QObject):
    """Keeps running tasks alive until they finish; ``wait`` for tests and shutdown."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(2)
        self._running: set[Task] = set()

    def submit(
        self,
        fn: Callable[[], Any],
        on_success: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException, str], None] | None = None,
    ) -> Task:
        task = Task(fn)
        if on_success:
            task.signals.succeeded.connect(on_success)
        if on_error:
            task.signals.failed.connect(on_error)
        task.signals.done.connect(lambda: self._finished(task))
        self._running.add(task)
        self.pool.start(task)
        return task

    def _finished(self, task: Task) -> None:
        self._running.discard(task)
        # Qt holds each connected callback, and the callbacks hold the task (and whatever they close
        # over: a window, an import's rows), a cycle Python's collector cannot see: deleting the signals'
        # QObject drops the connections, so the task and what its callbacks hold can go.
        task.signals.deleteLater()

    def wait(self, msecs: int = 30000) -> bool:
        return self.pool.waitForDone(msecs)
