"""The sampler thread: the only caller of NVML. Each tick it reads the backends
into an immutable :class:`Snapshot`, appends it to the history ring, and hands
it to the listeners (alerts, recorder, the tab's bridge). A listener that
raises is logged and the sampling goes on."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

from configurator.monitor.host import HostBackend
from configurator.monitor.ring import History, snapshot_values
from configurator.monitor.snapshot import GpuSample, HostSample, NvmlStatus, Snapshot

log = logging.getLogger(__name__)

Listener = Callable[[Snapshot], None]

MIN_INTERVAL_S = 0.01
MAX_INTERVAL_S = 3600.0


class GpuBackend(Protocol):
    def start(self) -> NvmlStatus: ...
    def sample(self, slow: bool = True) -> tuple[NvmlStatus, tuple[GpuSample, ...]]: ...
    def close(self) -> None: ...


class Sampler:
    def __init__(self, gpu: GpuBackend, host: HostBackend, *, interval_s: float = 1.0, slow_every_s: float = 5.0,
                 history: History | None = None, clock: Callable[[], float] = time.time):
        self.gpu = gpu
        self.host = host
        self.interval_s = self._check(interval_s)
        self.slow_every_s = slow_every_s
        self.history = history if history is not None else History(interval_s)
        self.clock = clock
        self.latest: Snapshot | None = None
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._seq = 0
        self._last_slow = -float("inf")
        self.listener_errors = 0

    @staticmethod
    def _check(interval_s: float) -> float:
        if not MIN_INTERVAL_S <= interval_s <= MAX_INTERVAL_S:
            raise ValueError(f"interval must be between {MIN_INTERVAL_S} and {MAX_INTERVAL_S} s, not {interval_s}")
        return float(interval_s)

    # -- listeners ----------------------------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    # -- one sample ---------------------------------------------------------------------------------------------------
    def sample_once(self) -> Snapshot:
        """Take one snapshot now (the thread calls this; so do `--once` and tests)."""
        start = time.perf_counter()
        mono = time.monotonic()
        slow = mono - self._last_slow >= self.slow_every_s
        if slow:
            self._last_slow = mono
        try:
            status, gpus = self.gpu.sample(slow=slow)
        except Exception as exc:  # never let the GPU side stop the host side
            log.exception("GPU sampling failed")
            status, gpus = NvmlStatus(False, str(exc), "other"), ()
        pids = [p.pid for g in gpus for p in g.processes]
        try:
            host = self.host.sample(pids, slow=slow)
        except Exception:
            log.exception("host sampling failed")
            host = HostSample(hostname=self.host.hostname)
        self._seq += 1
        snap = Snapshot(time=self.clock(), seq=self._seq, host=host, nvml=status, gpus=gpus,
                        interval_s=self.interval_s, sample_cost_s=time.perf_counter() - start)
        self.history.append(snap.time, snapshot_values(snap))
        self.latest = snap
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(snap)
            except Exception:
                self.listener_errors += 1
                log.exception("monitor listener %r failed", listener)
        return snap

    # -- the thread ---------------------------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.running:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="monitor-sampler", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        next_at = time.monotonic()
        while not self._stop.is_set():
            try:
                self.sample_once()
            except Exception:  # pragma: no cover - sample_once guards itself; belt and braces
                log.exception("sampling failed")
            next_at += self.interval_s
            now = time.monotonic()
            if next_at < now:  # fell behind (suspend, slow driver): do not try to catch up
                next_at = now + self.interval_s
            self._wake.wait(max(0.0, next_at - now))
            if self._wake.is_set():
                self._wake.clear()
                next_at = time.monotonic()

    def set_interval(self, interval_s: float) -> None:
        self.interval_s = self._check(interval_s)
        self.history.set_interval(self.interval_s)
        self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
