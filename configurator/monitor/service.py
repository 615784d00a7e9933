"""The monitor's services wired together (Qt-free): backends → sampler → history,
alerts, exporter and recorder. The GUI (app.py) and the CLI build one each."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from configurator.monitor.alerts import AlertEngine, AlertEvent, Thresholds
from configurator.monitor.exporter import Exporter
from configurator.monitor.host import HostBackend
from configurator.monitor.nvml import NvmlBackend
from configurator.monitor.recorder import CsvRecorder
from configurator.monitor.sampler import Sampler
from configurator.monitor.snapshot import Snapshot

log = logging.getLogger(__name__)

AlertListener = Callable[[list[AlertEvent]], None]


def make_gpu_backend(fake_gpus: int | None = None, *, lib: Any = None, retry_s: float = 10.0) -> NvmlBackend:
    """The real NVML, or ``fake_gpus`` simulated GPUs (demos, screenshots) on the fake NVML."""
    if lib is None and fake_gpus is not None:
        from configurator.monitor.fake_nvml import FakeNvml, several

        lib = FakeNvml(several(fake_gpus))
    return NvmlBackend(lib, retry_s=retry_s)


class MonitorService:
    def __init__(self, gpu: NvmlBackend, host: HostBackend | None = None, *, interval_s: float = 1.0,
                 slow_every_s: float = 5.0, thresholds: Thresholds | None = None, node_name: str | None = None):
        self.gpu = gpu
        self.host = host or HostBackend()
        self.sampler = Sampler(gpu, self.host, interval_s=interval_s, slow_every_s=slow_every_s)
        self.alerts = AlertEngine(thresholds)
        self.exporter = Exporter(lambda: self.sampler.latest, node_name=node_name)  # the hostname label
        self.recorder: CsvRecorder | None = None
        self._alert_listeners: list[AlertListener] = []
        self._lock = threading.Lock()
        self.sampler.subscribe(self._on_snapshot)

    @classmethod
    def create(cls, fake_gpus: int | None = None, **kwargs: Any) -> MonitorService:
        return cls(make_gpu_backend(fake_gpus), **kwargs)

    @property
    def history(self) -> Any:
        return self.sampler.history

    @property
    def latest(self) -> Snapshot | None:
        return self.sampler.latest

    def on_alerts(self, listener: AlertListener) -> None:
        with self._lock:
            self._alert_listeners.append(listener)

    def off_alerts(self, listener: AlertListener) -> None:
        """``listener`` is called no more (a listener that was never added is no error)."""
        with self._lock:
            if listener in self._alert_listeners:
                self._alert_listeners.remove(listener)

    def _on_snapshot(self, snap: Snapshot) -> None:
        events = self.alerts.evaluate(snap)
        if events:
            with self._lock:
                listeners = list(self._alert_listeners)
            for listener in listeners:
                listener(events)

    # -- life cycle -------------------------------------------------------------------------------------------
    def start(self) -> None:
        self.gpu.start()
        self.sampler.start()

    def stop(self) -> None:
        """Stop everything this service started; safe to call twice."""
        self.sampler.stop()
        self.exporter.stop()
        self.stop_recording()
        self.gpu.close()

    # -- recording --------------------------------------------------------------------------------------------
    def start_recording(self, path: str | Path, overwrite: bool = True) -> CsvRecorder:
        """Raises OSError if the file cannot be written, is a symbolic link, or (``overwrite=False``) exists."""
        self.stop_recording()
        rec = CsvRecorder(path, self.sampler.interval_s, overwrite=overwrite)
        self.recorder = rec
        self.sampler.subscribe(rec)
        return rec

    def stop_recording(self) -> CsvRecorder | None:
        rec, self.recorder = self.recorder, None
        if rec is not None:
            self.sampler.unsubscribe(rec)
            rec.close()
        return rec
