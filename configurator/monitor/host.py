"""The host through psutil: per-core CPU, iowait, load, RAM and swap, disk and network
rates, this app's own CPU use, and the training process with its DataLoader workers."""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable, Iterable
from typing import Any

import psutil

from configurator.host.rapl import Rapl
from configurator.monitor.snapshot import HostSample, TrainingProcess

log = logging.getLogger(__name__)


def _counter(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except (OSError, RuntimeError, AttributeError):  # no disks in a container, /proc not readable …
        return None


def _disk() -> Any:
    # nowrap=False: psutil's guard against counters wrapping (a lock and a cache per call) is not
    # needed for a rate between two samples, and a wrapped counter's negative rate is clamped to 0.
    return psutil.disk_io_counters(nowrap=False)


def _net() -> Any:
    return psutil.net_io_counters(nowrap=False)


def _split(t: Any) -> tuple[float, float, float]:
    """(total, idle, iowait) seconds of one CPU's times, as psutil's ``cpu_percent`` counts them:
    guest time is already in user time, and iowait is idle time."""
    total = sum(t) - getattr(t, "guest", 0.0) - getattr(t, "guest_nice", 0.0)
    iowait = getattr(t, "iowait", 0.0)
    return total, t.idle + iowait, iowait


class HostBackend:
    """One ``sample()`` a tick. It reads what changes each tick (CPU, memory, disk, network) every
    time and swap only on slow ticks; /proc/stat once for both the per-core load and iowait."""

    RETRY_INVISIBLE_S = 30.0  # a GPU process we cannot see (another PID namespace): look again after
    OWN_CPU_WINDOW_S = 0.1  # this app's CPU share over no less time (see _own_share)

    def __init__(self, hostname: str | None = None, clock: Callable[[], float] = time.monotonic):
        self.hostname = hostname or socket.gethostname()
        self.clock = clock
        self._last_t: float | None = None
        self._last_cpu: list[tuple[float, float, float]] | None = None
        self._last_disk: Any = None
        self._last_net: Any = None
        self._last_own: float | None = None
        self._last_own_t: float | None = None
        self._swap: Any = None
        self._procs: dict[int, psutil.Process] = {}
        self._invisible: dict[int, float] = {}  # pid -> when it was last looked for
        self.rapl = Rapl()
        self.start()

    def start(self) -> None:
        """Prime the counters: rates and percentages are "since the last sample"."""
        self._last_t = self._last_own_t = self.clock()
        self._last_own = self._own_cpu_seconds()
        self._last_cpu = self._cpu_times()
        self._last_disk = _counter(_disk)
        self._last_net = _counter(_net)
        self.rapl.read()

    def _own_share(self, now: float, own: float) -> float | None:
        """This app's CPU since the last share, in % of one core; None over less than
        ``OWN_CPU_WINDOW_S``: the kernel adds another thread's time in scheduler ticks (a few ms), so
        over the millisecond between the start and the sampler's first sample a tick read as 1,156 %
        of a core on a 2-core machine. The share then waits for the next sample, from the same start."""
        if self._last_own is None or self._last_own_t is None or now - self._last_own_t < self.OWN_CPU_WINDOW_S:
            return None
        share = max(0.0, 100.0 * (own - self._last_own) / (now - self._last_own_t))
        self._last_own, self._last_own_t = own, now
        return share

    @staticmethod
    def _cpu_times() -> list[tuple[float, float, float]] | None:
        times = _counter(lambda: psutil.cpu_times(percpu=True))
        return None if not times else [_split(t) for t in times]

    @staticmethod
    def _own_cpu_seconds() -> float:
        # This process, all threads, to the nanosecond (psutil and os.times count 10 ms ticks,
        # too coarse for an app that uses a few milliseconds a second); a system call, no file.
        return time.process_time()

    def _proc(self, pid: int) -> psutil.Process | None:
        proc = self._procs.get(pid)
        if proc is None:
            seen = self._invisible.get(pid)
            if seen is not None and self.clock() - seen < self.RETRY_INVISIBLE_S:
                return None
            try:
                proc = psutil.Process(pid)
                proc.cpu_percent()  # prime
            except psutil.Error:
                self._invisible[pid] = self.clock()
                return None
            self._invisible.pop(pid, None)
            self._procs[pid] = proc
        return proc

    def _training(self, gpu_pids: Iterable[int]) -> TrainingProcess | None:
        """The GPU process with the most CPU, and its children (DataLoader workers)."""
        best: TrainingProcess | None = None
        alive: set[int] = set()
        wanted = dict.fromkeys(gpu_pids)
        for pid in wanted:
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
        for pid in [p for p in self._invisible if p not in wanted]:
            del self._invisible[pid]
        return best

    def sample(self, gpu_pids: Iterable[int] = (), slow: bool = True) -> HostSample:
        """``slow``: also read swap (otherwise the last value is repeated)."""
        now = self.clock()
        own = self._own_cpu_seconds()  # at the same instant as the clock (not after the sample's own work)
        dt = max(1e-6, now - (self._last_t or now))
        cpu = self._cpu_times()
        per_cpu: tuple[float, ...] = ()
        iowait: float | None = None
        if cpu is not None and self._last_cpu is not None and len(cpu) == len(self._last_cpu):
            busy, spent, waited = [], 0.0, 0.0
            for (total, idle, wait), (total0, idle0, wait0) in zip(cpu, self._last_cpu, strict=True):
                d = total - total0
                busy.append(min(100.0, max(0.0, 100.0 * (d - (idle - idle0)) / d)) if d > 0 else 0.0)
                spent += max(0.0, d)
                waited += max(0.0, wait - wait0)
            per_cpu = tuple(busy)
            iowait = 100.0 * waited / spent if spent > 0 else 0.0
        load = _counter(psutil.getloadavg)
        vm = psutil.virtual_memory()
        if slow or self._swap is None:
            self._swap = _counter(psutil.swap_memory)
        sw = self._swap
        disk = _counter(_disk)
        net = _counter(_net)

        def rate(new: Any, old: Any, attr: str) -> float | None:
            if new is None or old is None:
                return None
            return max(0.0, (float(getattr(new, attr)) - float(getattr(old, attr))) / dt)

        sample = HostSample(
            hostname=self.hostname,
            cpu_percent=sum(per_cpu) / len(per_cpu) if per_cpu else None,
            per_cpu_percent=per_cpu,
            iowait_percent=iowait,
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
            own_cpu_percent=self._own_share(now, own),
            training=self._training(gpu_pids),
            cpu_energy_j=self.rapl.read(),
        )
        self._last_t, self._last_disk, self._last_net = now, disk, net
        if cpu is not None:
            self._last_cpu = cpu
        return sample
