"""The host through psutil: per-core CPU, iowait, load, RAM and swap, disk and network
rates, this app's own CPU use, and the training process with its DataLoader workers."""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Iterable
from typing import Any

import psutil

from configurator.monitor.snapshot import HostSample, TrainingProcess

log = logging.getLogger(__name__)


def _counter(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except (OSError, RuntimeError, AttributeError):  # no disks in a container, /proc not readable …
        return None


class HostBackend:
    def __init__(self, hostname: str | None = None, clock: Callable[[], float] = time.monotonic):
        self.hostname = hostname or socket.gethostname()
        self.clock = clock
        self._own = psutil.Process(os.getpid())
        self._last_t: float | None = None
        self._last_disk: Any = None
        self._last_net: Any = None
        self._last_own: float | None = None
        self._procs: dict[int, psutil.Process] = {}
        self.start()

    def start(self) -> None:
        """Prime the counters: psutil's percentages are "since the last call"."""
        psutil.cpu_percent(percpu=True)
        _counter(lambda: psutil.cpu_times_percent())
        self._last_t = self.clock()
        self._last_disk = _counter(psutil.disk_io_counters)
        self._last_net = _counter(psutil.net_io_counters)
        self._last_own = self._own_cpu_seconds()

    def _own_cpu_seconds(self) -> float | None:
        try:
            t = self._own.cpu_times()
        except psutil.Error:
            return None
        return float(t.user) + float(t.system)

    def _proc(self, pid: int) -> psutil.Process | None:
        proc = self._procs.get(pid)
        if proc is None:
            try:
                proc = psutil.Process(pid)
                proc.cpu_percent()  # prime
            except psutil.Error:
                return None
            self._procs[pid] = proc
        return proc

    def _training(self, gpu_pids: Iterable[int]) -> TrainingProcess | None:
        """The GPU process with the most CPU, and its children (DataLoader workers)."""
        best: TrainingProcess | None = None
        alive: set[int] = set()
        for pid in dict.fromkeys(gpu_pids):
            proc = self._proc(pid)
            if proc is None:
                continue
            try:
                cpu = proc.cpu_percent()
                name = proc.name()
                children = proc.children(recursive=False)
            except psutil.Error:
                continue
            alive.add(pid)
            workers = []
            for child in children:
                c = self._proc(child.pid)
                if c is None:
                    continue
                alive.add(child.pid)
                try:
                    workers.append(c.cpu_percent())
                except psutil.Error:
                    continue
            candidate = TrainingProcess(pid, name, cpu, len(workers), tuple(workers))
            if best is None or candidate.cpu_percent + sum(workers) > best.cpu_percent + sum(best.workers_cpu_percent):
                best = candidate
        for pid in [p for p in self._procs if p not in alive]:
            del self._procs[pid]
        return best

    def sample(self, gpu_pids: Iterable[int] = ()) -> HostSample:
        now = self.clock()
        dt = max(1e-6, now - (self._last_t or now))
        per_cpu = tuple(float(v) for v in psutil.cpu_percent(percpu=True))
        times = _counter(lambda: psutil.cpu_times_percent())
        iowait = getattr(times, "iowait", None) if times is not None else None
        load = _counter(psutil.getloadavg)
        vm = psutil.virtual_memory()
        sw = _counter(psutil.swap_memory)
        disk = _counter(psutil.disk_io_counters)
        net = _counter(psutil.net_io_counters)
        own = self._own_cpu_seconds()

        def rate(new: Any, old: Any, attr: str) -> float | None:
            if new is None or old is None:
                return None
            return max(0.0, (float(getattr(new, attr)) - float(getattr(old, attr))) / dt)

        sample = HostSample(
            hostname=self.hostname,
            cpu_percent=sum(per_cpu) / len(per_cpu) if per_cpu else None,
            per_cpu_percent=per_cpu,
            iowait_percent=None if iowait is None else float(iowait),
            load_1m=None if load is None else float(load[0]),
            load_5m=None if load is None else float(load[1]),
            load_15m=None if load is None else float(load[2]),
            memory_used_bytes=int(vm.total - vm.available),
            memory_total_bytes=int(vm.total),
            swap_used_bytes=None if sw is None else int(sw.used),
            swap_total_bytes=None if sw is None else int(sw.total),
            disk_read_bytes_per_s=rate(disk, self._last_disk, "read_bytes"),
            disk_write_bytes_per_s=rate(disk, self._last_disk, "write_bytes"),
            net_rx_bytes_per_s=rate(net, self._last_net, "bytes_recv"),
            net_tx_bytes_per_s=rate(net, self._last_net, "bytes_sent"),
            own_cpu_percent=None if own is None or self._last_own is None
            else max(0.0, 100.0 * (own - self._last_own) / dt),
            training=self._training(gpu_pids),
        )
        self._last_t, self._last_disk, self._last_net, self._last_own = now, disk, net, own
        return sample
