"""Huge pages for the monitor's process: which mappings a pass touches, what it asks the kernel,
what it does when the kernel says no, and (on Linux with THP) that a real process that moved its
memory and code goes on computing the same results."""

from __future__ import annotations

import errno
import json
import logging
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from configurator.monitor import hugepages as hp
from configurator.monitor.hugepages import (
    MADV_COLLAPSE,
    MADV_HUGEPAGE,
    HugePageKeeper,
    Mapping,
    advise,
    code_chunks,
    memory_regions,
    parse_maps,
)

M = 1 << 20
H = 2 * M
LIB = "/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0"

MAPS = f"""\
55d000000000-55d003000000 rw-p 00000000 00:00 0                          [heap]
7f0000000000-7f0000500000 rw-p 00000000 00:00 0
7f0000500000-7f0000600000 rw-p 00000000 00:00 0
7f0000600000-7f0000a00000 rw-s 00000000 00:05 12                         /SYSV00000000 (deleted)
7f0000a00000-7f0000e00000 r--p 00000000 00:00 0
7f0001000000-7f0001100000 r--p 00000000 08:01 100                        {LIB}
7f0001100000-7f0001500000 r-xp 00100000 08:01 100                        {LIB}
7f0001500000-7f0001580000 r--p 00500000 08:01 100                        {LIB}
7f0001580000-7f0001600000 r--p 00580000 08:01 100                        {LIB}
7f0001600000-7f0001a00000 rw-p 00600000 08:01 100                        {LIB}
7f0002000000-7f0002800000 r-xp 00000000 08:01 101                        /usr/lib/libcold.so
7f0003000000-7f0003100000 r--p 00000000 08:01 102                        /opt/Qt/lib/libQt6Gui.so.6
7f0003200000-7f0003700000 r-xp 00200000 08:01 102                        /opt/Qt/lib/libQt6Gui.so.6
7ffc00000000-7ffc00400000 rw-p 00000000 00:00 0                          [stack]
7ffc00500000-7ffc00502000 r-xp 00000000 00:00 0                          [vdso]
"""


class FakeKernel:
    """Records each call; ``refuse`` names the calls that fail."""

    def __init__(self, refuse: set[str] | frozenset[str] = frozenset(), error: int = errno.EAGAIN):
        self.refuse = set(refuse)
        self.error = error  # what a refused madvise says
        self.calls: list[tuple[object, ...]] = []
        self.next_map = 0x7E0000100000  # 1 MiB past a huge page boundary, as mmap may give

    def _ok(self, name: str) -> int:
        return -1 if name in self.refuse else 0

    def madvise(self, addr: int, length: int, advice: int) -> int:
        name = {MADV_HUGEPAGE: "hugepage", MADV_COLLAPSE: "collapse"}[advice]
        self.calls.append((name, addr, length))
        return -self.error if name in self.refuse else 0

    def mmap_anonymous(self, length: int) -> int:
        self.calls.append(("mmap", length))
        if "mmap" in self.refuse:
            return -1
        addr, self.next_map = self.next_map, self.next_map + 4 * H
        return addr

    def munmap(self, addr: int, length: int) -> int:
        self.calls.append(("munmap", addr, length))
        return 0

    def mprotect(self, addr: int, length: int, prot: int) -> int:
        self.calls.append(("mprotect", addr, length, prot))
        return self._ok("mprotect")

    def mremap_fixed(self, old: int, length: int, new: int) -> int:
        self.calls.append(("mremap", old, length, new))
        return -1 if "mremap" in self.refuse else new

    def copy(self, dst: int, src: int, length: int) -> None:
        self.calls.append(("copy", dst, src, length))

    def named(self, name: str) -> list[tuple[object, ...]]:
        return [c for c in self.calls if c[0] == name]


def test_parse_maps_keeps_paths_with_spaces_and_skips_junk() -> None:
    maps = parse_maps(MAPS + "garbage line\n\nzz-yy rw-p 0 0 0\n")
    assert len(maps) == 15
    assert maps[0] == Mapping(0x55D000000000, 0x55D003000000, "rw-p", "[heap]")
    assert maps[1].path == ""
    assert maps[3].path == "/SYSV00000000 (deleted)"


def test_memory_regions_are_private_anonymous_writable_with_a_whole_huge_page() -> None:
    regions = memory_regions(parse_maps(MAPS), H)
    assert [(m.lo, part) for m, part in regions] == [
        (0x55D000000000, (0x55D000000000, 0x55D003000000)),  # [heap]: 48 MiB, aligned
        (0x7F0000000000, (0x7F0000000000, 0x7F0000400000)),  # 5 MiB: its first 4 MiB
    ]
    # Not: a 1 MiB mapping (no whole huge page), shared memory (the X server's backing store),
    # read-only anonymous memory, a library's data, the main stack, the vdso.


def test_code_chunks_stay_inside_a_hot_librarys_read_only_mappings() -> None:
    chunks = code_chunks(parse_maps(MAPS), H)
    # libpython: r--p, r-xp, r--p, r--p from 0x...1000000 to 0x...1600000 are one run: three
    # huge pages, all executable (code is in each). Its rw-p data is never part of it. The first
    # stays: its code begins there (0x...1100000), and py-spy looks for that mapping.
    # libQt6Gui: a gap between its two mappings splits them; the code mapping holds one
    # aligned page (0x...3200000-0x...3400000; 0x...3400000-0x...3600000 too).
    # libcold is not a hot library.
    assert chunks == [(0x7F0001200000, True), (0x7F0001400000, True),
                      (0x7F0003200000, True), (0x7F0003400000, True)]
    read_only = code_chunks(parse_maps(f"7f0001000000-7f0001400000 r--p 0 08:01 100 {LIB}\n"), H)
    assert read_only == [(0x7F0001000000, False), (0x7F0001200000, False)]
    # A python3.11 with the interpreter built in is hot too, and keeps its code's start as well.
    exe = code_chunks(parse_maps("400000-c00000 r-xp 0 08:01 7 /usr/bin/python3.11\n"
                                 "c00000-e00000 r--p 0 08:01 7 /usr/bin/python3.11\n"), H)
    assert exe == [(0x600000, True), (0x800000, True), (0xA00000, True), (0xC00000, True)]


def test_a_pass_advises_memory_once_and_moves_code() -> None:
    kernel, done = FakeKernel(), set()
    report = advise(kernel, parse_maps(MAPS), H, code=True, done=done)
    assert kernel.named("hugepage")[:2] == [("hugepage", 0x55D000000000, 48 * M), ("hugepage", 0x7F0000000000, 5 * M)]
    collapsed = [c[1] for c in kernel.named("collapse") if c[1] < 0x7E0000000000 or c[1] >= 0x7F0000000000]
    assert collapsed[:3] == [0x55D000000000, 0x55D000200000, 0x55D000400000]
    assert report.advised_mib == 48 + 4 and report.memory_mib == 48 + 4
    assert report.code_mib == 4 * 2 and report.failures == []
    # Each chunk: a fresh mapping, trimmed to an aligned huge page, filled with the same bytes,
    # made huge, given the protection, then moved over the original.
    first = kernel.calls.index(("mmap", 2 * H))
    tmp = 0x7E0000200000
    assert kernel.calls[first:first + 8] == [
        ("mmap", 2 * H), ("munmap", 0x7E0000100000, M), ("munmap", tmp + H, M),
        ("hugepage", tmp, H), ("copy", tmp, 0x7F0001200000, H), ("collapse", tmp, H),
        ("mprotect", tmp, H, hp.PROT_READ | hp.PROT_EXEC), ("mremap", tmp, H, 0x7F0001200000)]

    again = FakeKernel()
    report = advise(again, parse_maps(MAPS), H, code=False, done=done)
    assert again.calls == [] and report.memory_mib == 0

    grown = MAPS.replace("55d000000000-55d003000000", "55d000000000-55d004000000")
    advise(again, parse_maps(grown), H, code=False, done=done)
    assert again.named("hugepage") == [("hugepage", 0x55D000000000, 64 * M)]


def test_what_the_kernel_refuses_is_counted_and_nothing_is_moved_half_way() -> None:
    kernel = FakeKernel(refuse={"collapse"})
    report = advise(kernel, parse_maps(MAPS), H, code=True, done=set())
    # Memory is still advised (khugepaged makes it huge later); code is not moved without a
    # huge page to move it into, and each copy is unmapped again.
    assert report.advised_mib == 52 and report.memory_mib == 0
    assert report.code_mib == 0 and len(report.failures) == 4
    assert kernel.named("mremap") == []
    tmps = [c[1] for c in kernel.named("copy")]
    assert all(("munmap", t, H) in kernel.calls for t in tmps)

    kernel = FakeKernel(refuse={"mremap"})
    report = advise(kernel, parse_maps(MAPS), H, code=True, done=set())
    assert report.code_mib == 0 and len(report.failures) == 4

    kernel = FakeKernel(refuse={"hugepage", "mmap"})
    report = advise(kernel, parse_maps(MAPS), H, code=True, done=set())
    assert report.advised_mib == 0 and kernel.named("collapse") == [] and kernel.named("copy") == []
    assert len(report.failures) == 2 + 4


def test_a_kernel_without_madv_collapse_gets_advice_only(caplog: pytest.LogCaptureFixture) -> None:
    # Before Linux 6.1 MADV_COLLAPSE is EINVAL. (So it is for memory with no page present, so
    # only a copy, all present, tells.) Memory is still marked for khugepaged; one chunk of code
    # is copied, found not to become huge for sure, unmapped, and no other is tried.
    kernel = FakeKernel(refuse={"collapse"}, error=errno.EINVAL)
    report = advise(kernel, parse_maps(MAPS), H, code=True, done=set())
    assert [c[1] for c in kernel.named("hugepage")][:2] == [0x55D000000000, 0x7F0000000000]
    assert report.advised_mib == 52 and report.memory_mib == 0
    assert report.no_collapse and report.code_mib == 0 and report.failures == []
    assert len(kernel.named("copy")) == 1 and kernel.named("mremap") == []
    assert kernel.named("munmap")[-1] == ("munmap", kernel.named("copy")[0][1], H)

    keeper = HugePageKeeper(kernel_factory=lambda: FakeKernel(refuse={"collapse"}, error=errno.EINVAL),
                            read_maps=lambda: MAPS)
    if keeper.unavailable is None:
        with caplog.at_level(logging.INFO, logger="configurator.monitor.hugepages"):
            keeper.run_once()
        assert "no MADV_COLLAPSE (Linux 6.1): 52 MiB of memory advised" in caplog.text


def _sysfs(tmp_path: Path, enabled: str = "always [madvise] never\n", size: str = "2097152\n") -> Path:
    (tmp_path / "enabled").write_text(enabled)
    (tmp_path / "hpage_pmd_size").write_text(size)
    return tmp_path


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="transparent huge pages are Linux's")
def test_support_says_why_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(hp.ENV, "on")
    assert hp.support(_sysfs(tmp_path)) == (H, None)
    assert hp.support(tmp_path / "missing") == (0, "the kernel has no transparent huge pages")
    assert hp.support(_sysfs(tmp_path, "always madvise [never]\n"))[1] == \
        "transparent huge pages are turned off (enabled = never)"
    assert hp.support(_sysfs(tmp_path, size="4096\n"))[0] == 0
    monkeypatch.setenv(hp.ENV, "off")
    assert hp.support(_sysfs(tmp_path)) == (0, "CONFIGURATOR_HUGEPAGES=off")


def test_an_unknown_setting_is_said_and_taken_as_on(monkeypatch: pytest.MonkeyPatch,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv(hp.ENV, "Memory ")
    assert hp.setting() == "memory"
    monkeypatch.setenv(hp.ENV, "banana")
    with caplog.at_level(logging.WARNING, logger="configurator.monitor.hugepages"):
        assert hp.setting() == "on"
    assert "CONFIGURATOR_HUGEPAGES=banana is not on, memory or off: using on" in caplog.text


def test_keeper_runs_in_its_thread_moves_code_once_and_stops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(hp.ENV, "on")
    monkeypatch.setattr(hp.platform, "machine", lambda: "x86_64")
    kernels: list[FakeKernel] = []
    third_done = threading.Event()

    def factory() -> FakeKernel:  # called as each pass begins
        if len(kernels) == 3:
            third_done.set()
        kernels.append(FakeKernel())
        return kernels[-1]

    keeper = HugePageKeeper(first_s=0.01, every_s=0.05, kernel_factory=factory, read_maps=lambda: MAPS,
                            sysfs=_sysfs(tmp_path))
    keeper.start()
    assert keeper.passed.wait(5) and third_done.wait(5)
    keeper.stop()
    assert keeper.passes >= 3 and keeper._thread is None
    assert keeper.code_mib == 8 and keeper.memory_mib == 52  # later passes: nothing new
    assert kernels[0].named("mremap") and not any(k.named("mremap") for k in kernels[1:])

    monkeypatch.setenv(hp.ENV, "memory")
    keeper = HugePageKeeper(kernel_factory=FakeKernel, read_maps=lambda: MAPS, sysfs=_sysfs(tmp_path))
    report = keeper.run_once()
    assert report is not None and report.code_mib == 0 and report.memory_mib == 52


def test_keeper_without_huge_pages_or_proc_does_nothing_and_says_why(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(hp.ENV, "on")
    keeper = HugePageKeeper(first_s=0.01, kernel_factory=FakeKernel, sysfs=tmp_path / "missing")
    keeper.start()
    assert keeper._thread is None and keeper.run_once() is None
    assert keeper.unavailable == "the kernel has no transparent huge pages"

    def no_proc() -> str:
        raise FileNotFoundError(2, "No such file or directory", "/proc/self/maps")

    keeper = HugePageKeeper(first_s=0.01, kernel_factory=FakeKernel, read_maps=no_proc, sysfs=_sysfs(tmp_path))
    keeper.start()
    assert keeper._thread is not None
    keeper._thread.join(5)
    assert not keeper._thread.is_alive() and keeper.passes == 0
    assert "No such file or directory" in (keeper.unavailable or "")


CHILD = textwrap.dedent("""
    import json, sys, numpy
    from configurator.monitor.hugepages import HugePageKeeper

    def state():
        a = numpy.arange(1_000_000, dtype=numpy.float64)
        return [float((a * a).sum()), sum(i * i for i in range(100_000)), sorted({"b": 1, "a": 2}.items())]

    def interpreter_code():  # what py-spy looks for: executable mappings of the interpreter's files
        return sorted({l.rsplit("/", 1)[-1].strip() for l in open("/proc/self/maps")
                       if len(l.split()) > 5 and l.split()[1] == "r-xp" and "python3" in l.rsplit("/", 1)[-1]})

    found = interpreter_code()
    before = state()
    keep = numpy.ones(4_000_000)  # 32 MB, alive across the pass
    keeper = HugePageKeeper()
    report = keeper.run_once()
    after = state() + [float(keep.sum())]
    before.append(4_000_000.0)
    rollup = dict(l.split(":", 1) for l in open("/proc/self/smaps_rollup").read().splitlines()[1:])
    print(json.dumps({"same": before == after, "py_spy": interpreter_code() == found, "unavailable": keeper.unavailable,
                      "memory_mib": report.memory_mib if report else 0, "code_mib": report.code_mib if report else 0,
                      "anon_huge_kib": int(rollup["AnonHugePages"].split()[0])}))
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="transparent huge pages are Linux's")
def test_a_real_process_moves_its_memory_and_code_and_computes_the_same() -> None:
    env = {**os.environ, hp.ENV: "on"}
    proc = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got["same"] and got["py_spy"]
    if got["unavailable"] is not None:
        pytest.skip(f"huge pages not available here: {got['unavailable']}")
    # The 32 MB array is in huge pages now (but for its unaligned ends).
    assert got["memory_mib"] >= 28 and got["anon_huge_kib"] >= 28 * 1024
    if os.uname().machine == "x86_64":
        assert got["code_mib"] >= 2  # libpython's or numpy's code


def test_the_service_starts_and_stops_its_keeper(monkeypatch: pytest.MonkeyPatch) -> None:
    from configurator.monitor.fake_nvml import FakeNvml, several
    from configurator.monitor.nvml import NvmlBackend
    from configurator.monitor.service import MonitorService

    assert MonitorService(NvmlBackend(FakeNvml(several(1)))).hugepages is None  # tests, embedders: off
    monkeypatch.setenv(hp.ENV, "on")
    service = MonitorService(NvmlBackend(FakeNvml(several(1))), interval_s=0.05, hugepages=True)
    keeper = service.hugepages
    assert keeper is not None
    if keeper.unavailable is not None:
        pytest.skip(keeper.unavailable)
    service.start()
    try:
        assert keeper._thread is not None and keeper._thread.is_alive() and keeper.passes == 0  # 5 s later
    finally:
        service.stop()
    assert keeper._thread is None and keeper.passes == 0
