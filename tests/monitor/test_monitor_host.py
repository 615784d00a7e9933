"""The host backend: CPU from one read of /proc/stat, swap on slow ticks, GPU processes we cannot see."""

from __future__ import annotations

import os
from collections import namedtuple
from typing import Any

import psutil
import pytest

from configurator.monitor import host as host_module
from configurator.monitor.host import HostBackend

Times = namedtuple("Times", "user nice system idle iowait irq softirq steal guest guest_nice")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def cpu(monkeypatch: pytest.MonkeyPatch) -> list[list[Times]]:
    """The per-core times psutil reports; a test sets the next reading."""
    readings = [[Times(100, 0, 50, 800, 10, 0, 0, 0, 0, 0), Times(100, 0, 50, 800, 10, 0, 0, 0, 0, 0)]]
    monkeypatch.setattr(host_module.psutil, "cpu_times", lambda percpu=False: readings[-1])
    return readings


def test_per_core_load_and_iowait_come_from_the_same_reading(cpu: list[list[Times]]) -> None:
    clock = Clock()
    host = HostBackend("h", clock=clock)
    # Core 0: 60 of 100 ticks busy (50 user, 10 system); core 1: idle but 40 ticks waiting for the disk.
    # Guest time is already counted in user time and must not be counted twice.
    cpu.append([Times(150, 0, 60, 840, 10, 0, 0, 0, 20, 0), Times(100, 0, 50, 860, 50, 0, 0, 0, 0, 0)])
    clock.now += 1.0
    s = host.sample()
    assert s.per_cpu_percent == pytest.approx((60.0, 0.0))
    assert s.cpu_percent == pytest.approx(30.0)
    assert s.iowait_percent == pytest.approx(20.0)  # 40 of the 200 ticks of both cores


def test_matches_psutil_on_this_machine() -> None:
    host = HostBackend("h")
    psutil.cpu_percent(percpu=True)
    sum(i * i for i in range(300_000))  # some load to measure
    s = host.sample()
    theirs = psutil.cpu_percent(percpu=True)
    assert len(s.per_cpu_percent) == len(theirs) == psutil.cpu_count()
    assert all(0.0 <= v <= 100.0 for v in s.per_cpu_percent)
    assert s.iowait_percent is not None and 0.0 <= s.iowait_percent <= 100.0


def test_swap_is_read_on_slow_ticks_only(cpu: list[list[Times]], monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[int] = []
    Swap = namedtuple("Swap", "total used free percent sin sout")

    def swap_memory() -> Any:
        reads.append(1)
        return Swap(8 << 30, len(reads) << 20, 0, 0.0, 0, 0)

    monkeypatch.setattr(host_module.psutil, "swap_memory", swap_memory)
    host = HostBackend("h")
    first = host.sample(slow=True)
    fast = [host.sample(slow=False) for _ in range(3)]
    assert len(reads) == 1 and {s.swap_used_bytes for s in fast} == {first.swap_used_bytes}
    assert host.sample(slow=True).swap_used_bytes == 2 << 20


def test_a_gpu_process_we_cannot_see_is_looked_for_again_only_later(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a container NVML reports the host's PIDs, which do not exist here: each lookup failing
    once a second would cost more than the rest of the sample."""
    clock = Clock()
    looked: list[int] = []
    real = psutil.Process

    def process(pid: int) -> psutil.Process:
        looked.append(pid)
        return real(pid)

    monkeypatch.setattr(host_module.psutil, "Process", process)
    host = HostBackend("h", clock=clock)
    missing = 2**22 + 12345  # above pid_max: never a process
    for _ in range(5):
        clock.now += 1.0
        assert host.sample([missing]).training is None
    assert looked.count(missing) == 1
    clock.now += HostBackend.RETRY_INVISIBLE_S
    host.sample([missing])
    assert looked.count(missing) == 2
    host.sample([])  # it left the GPU: forgotten
    host.sample([missing])
    assert looked.count(missing) == 3


def test_the_training_process_is_found_and_followed() -> None:

    clock = Clock()
    host = HostBackend("h", clock=clock)
    clock.now += 1.0
    s = host.sample([os.getpid()])
    assert s.training is not None and s.training.pid == os.getpid()
    assert s.own_cpu_percent is not None and s.own_cpu_percent >= 0.0


def test_this_apps_cpu_share_right_after_the_start_is_one_a_process_can_have() -> None:
    """The sampler's first sample comes a millisecond after the start: over that millisecond another
    thread's scheduler tick read as 1,156 % of a core on a 2-core machine. It has no share (n/a);
    a sample once the spinning thread has used 0.2 s of CPU since the start has the share of the whole time."""
    import hashlib
    import threading
    import time

    stop = threading.Event()
    burned = threading.Event()  # 0.2 s of this process's CPU since ``since`` (at least 0.2 s of wall time)
    since = [time.process_time()]
    block = b"x" * 1_000_000

    def spin() -> None:  # a second core busy (hashlib lets go of the GIL), the sampling not slowed
        while not stop.is_set():
            hashlib.sha256(block).digest()
            if time.process_time() - since[0] >= 0.2:
                burned.set()

    busy = threading.Thread(target=spin)
    busy.start()
    try:
        shares = []
        for _ in range(10):
            host = HostBackend("h")
            shares.append(host.sample([os.getpid()]).own_cpu_percent)
        t0, since[0] = time.monotonic(), time.process_time()
        host = HostBackend("h")
        burned.clear()
        assert burned.wait(timeout=30), "the spinning thread got no CPU"
        settled = host.sample().own_cpu_percent
        t1, p1 = time.monotonic(), time.process_time()
    finally:
        stop.set()
        busy.join()
    cores = psutil.cpu_count()
    assert shares == [None] * len(shares)
    # the share this process had over a window just around the sample's: at least the 0.2 s the spinning
    # thread burned, however busy the machine was (it decides how long that took)
    around = 100.0 * (p1 - since[0]) / (t1 - t0)
    assert settled is not None and settled <= 100.0 * cores * 1.05
    assert settled == pytest.approx(around, rel=0.2)
