"""Carries snapshots and alert events from the sampler thread to the GUI thread."""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Signal

from configurator.monitor.alerts import AlertEvent
from configurator.monitor.snapshot import Snapshot

_SNAPSHOT = QEvent.Type(QEvent.registerEventType())


class SnapshotBridge(QObject):
    """``push`` runs in the sampler thread; ``on_snapshot`` and the ``alerts`` signal run in
    the GUI thread.

    A snapshot wakes the GUI thread with a posted event, not a queued signal: the
    signal's machinery (its arguments boxed and unboxed, the slot looked up) made
    the once-a-second wake-up cost half as much again. Snapshots are coalesced:
    while one is waiting to be handled no other is posted (the GUI takes the newest),
    so a busy GUI never builds up a backlog. While nobody watches (``watching`` is
    off: the tab hidden, the window minimised) nothing is posted at all; the watcher
    takes ``latest`` when it looks again.
    """

    alerts = Signal(object)

    def __init__(self, on_snapshot: Callable[[Snapshot], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.on_snapshot = on_snapshot
        self.latest: Snapshot | None = None
        self.watching = False  # the watcher turns it on when it is shown
        self._pending = threading.Event()

    def push(self, snap: Snapshot) -> None:
        self.latest = snap
        if self.watching and not self._pending.is_set():
            self._pending.set()
            QCoreApplication.postEvent(self, QEvent(_SNAPSHOT))

    def customEvent(self, _event: QEvent) -> None:
        """Qt's handler for event types from QEvent.User on: only ``push`` posts one here
        (overriding ``event`` would also bring every other event into Python, and each event's
        type through the enum machinery)."""
        self._pending.clear()
        snap = self.latest
        if snap is not None:
            self.on_snapshot(snap)

    def push_alerts(self, events: list[AlertEvent]) -> None:
        self.alerts.emit(events)
