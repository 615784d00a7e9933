"""Carries snapshots and alert events from the sampler thread to the GUI thread."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal

from configurator.monitor.alerts import AlertEvent
from configurator.monitor.snapshot import Snapshot


class SnapshotBridge(QObject):
    """``push`` runs in the sampler thread; the signals arrive queued in the GUI thread.

    Snapshots are coalesced: while one is waiting to be handled no other is
    queued (the GUI reads the newest from the service), so a busy GUI never
    builds up a backlog.
    """

    snapshot = Signal(object)
    alerts = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self._pending = threading.Event()

    def push(self, snap: Snapshot) -> None:
        if not self._pending.is_set():
            self._pending.set()
            self.snapshot.emit(snap)

    def handled(self) -> None:
        self._pending.clear()

    def push_alerts(self, events: list[AlertEvent]) -> None:
        self.alerts.emit(events)
