"""Huge pages for a process that wakes once a second (Linux; elsewhere nothing happens).

Why: the monitor does a few milliseconds of work a second, and comes back to it from idle. By
then the CPU's caches and TLB have been given to other work, so every page the tick touches costs
a page-table walk; on a virtual machine that walk goes through two sets of tables. Measured on
the shared VM this was written on, after a second asleep: reading one byte in each of 4096
pages took 10 to 25 ms in 4 KiB pages, 0.5 to 1 ms in 2 MiB pages (``make bench`` prints what
waking costs on the machine at hand). A tick of the app touches some four thousand 4 KiB pages:
the Python heap, Qt's, and the code of the interpreter, Qt and numpy. In 2 MiB pages most of
that is some 75 pages.

What :func:`advise` does, with the kernel's transparent huge pages (THP):

- **memory**: every private anonymous writable mapping (the malloc heap, Python's arenas, numpy
  arrays, thread stacks) is marked ``MADV_HUGEPAGE``, so that the kernel backs it with 2 MiB
  pages from now on, and ``MADV_COLLAPSE`` makes the 2 MiB-aligned parts huge at once (Linux 6.1;
  before that the kernel's khugepaged does it in the background). The cost is the holes that a
  huge page fills: a few MiB.
- **code** (x86-64, first pass only): the interpreter, Qt, its Python bindings and numpy are
  mapped from their files in 4 KiB pages. Each 2 MiB-aligned stretch of a library's read-only
  mappings is copied into a huge page and moved over the original (``mremap``), at the same
  address, with the same bytes: nothing that points into it changes. It costs the copies (44 MiB
  in the app, 20 of its 22 huge pages touched by every tick; memory no longer shared with other
  processes), and read-only data that shares a 2 MiB page with code becomes executable too (it
  stays read-only). Tools that read ``/proc/PID/maps`` to find a library's file (perf) no
  longer see the file for the moved stretches; the one where the interpreter's code begins
  stays, for py-spy.

``CONFIGURATOR_HUGEPAGES=off`` turns all of it off, ``=memory`` leaves code alone. Failures are
counted and logged, never raised: this is a saving, not a feature anything depends on.
"""

from __future__ import annotations

import ctypes
import errno
import logging
import os
import platform
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

log = logging.getLogger(__name__)

ENV = "CONFIGURATOR_HUGEPAGES"
THP_SYSFS = Path("/sys/kernel/mm/transparent_hugepage")

# The code a monitor tick runs: the interpreter (libpython3.x, or a python3.x that has it built in),
# Qt and PySide, numpy. Matched against the files' names.
HOT_LIBRARIES = ("python3", "libQt6Core.", "libQt6Gui.", "libQt6Widgets.", "QtCore.abi3", "QtGui.abi3",
                 "QtWidgets.abi3", "libshiboken6", "libpyside6", "_multiarray_umath")

MADV_HUGEPAGE = 14
MADV_COLLAPSE = 25
PROT_READ, PROT_WRITE, PROT_EXEC = 1, 2, 4
MAP_PRIVATE, MAP_ANONYMOUS = 0x02, 0x20
MREMAP_MAYMOVE, MREMAP_FIXED = 1, 2


@dataclass(frozen=True)
class Mapping:
    """One line of /proc/PID/maps."""

    lo: int
    hi: int
    perms: str
    path: str

    @property
    def private_anonymous_rw(self) -> bool:
        return self.perms.startswith("rw") and self.perms[3] == "p" and self.path in ("", "[heap]")

    @property
    def private_read_only_file(self) -> bool:
        return self.perms[0] == "r" and self.perms[1] == "-" and self.perms[3] == "p" and self.path.startswith("/")


def parse_maps(text: str) -> list[Mapping]:
    out = []
    for line in text.splitlines():
        parts = line.split(maxsplit=5)
        if len(parts) < 5 or "-" not in parts[0] or len(parts[1]) != 4:
            continue
        lo, _, hi = parts[0].partition("-")
        try:
            out.append(Mapping(int(lo, 16), int(hi, 16), parts[1], parts[5].strip() if len(parts) > 5 else ""))
        except ValueError:
            continue
    return out


def aligned(lo: int, hi: int, huge: int) -> tuple[int, int] | None:
    """The 2 MiB-aligned part of [lo, hi), or None if it holds no whole huge page."""
    a, b = (lo + huge - 1) & ~(huge - 1), hi & ~(huge - 1)
    return (a, b) if b > a else None


def memory_regions(maps: Iterable[Mapping], huge: int) -> list[tuple[Mapping, tuple[int, int]]]:
    """Private anonymous writable mappings that hold at least one whole huge page."""
    out = []
    for m in maps:
        if m.private_anonymous_rw:
            part = aligned(m.lo, m.hi, huge)
            if part is not None:
                out.append((m, part))
    return out


# Profilers (py-spy) find the interpreter by the executable mapping of its file: the huge page
# where that mapping begins stays where it is, so that the mapping does too. (Moving it as well
# would save another 150 page walks a tick.)
KEEP_CODE_START = ("python3",)


@dataclass
class _Run:
    lo: int
    hi: int
    path: str
    code_start: int | None = None  # where its first executable mapping begins

    @property
    def executable(self) -> bool:
        return self.code_start is not None


def code_chunks(maps: Iterable[Mapping], huge: int, hot: Iterable[str] = HOT_LIBRARIES) -> list[tuple[int, bool]]:
    """(address, executable) of each aligned huge page inside one hot library's run of adjacent
    read-only private mappings (its headers, code and read-only data; never its writable data)."""
    hot = tuple(hot)
    runs: list[_Run] = []
    for m in maps:
        if not (m.private_read_only_file and any(h in os.path.basename(m.path) for h in hot)):
            continue
        if not (runs and runs[-1].path == m.path and runs[-1].hi == m.lo):
            runs.append(_Run(m.lo, m.hi, m.path))
        run = runs[-1]
        run.hi = m.hi
        if m.perms[2] == "x" and run.code_start is None:
            run.code_start = m.lo
    chunks: list[tuple[int, bool]] = []
    for run in runs:
        part = aligned(run.lo, run.hi, huge)
        keep = run.code_start if any(k in os.path.basename(run.path) for k in KEEP_CODE_START) else None
        if part is not None:
            chunks.extend((a, run.executable) for a in range(part[0], part[1], huge)
                          if keep is None or not a <= keep < a + huge)
    return chunks


class Kernel(Protocol):
    """The system calls used (libc through ctypes; a fake in tests). Each returns 0 or the new
    address on success, -1 on failure, like libc; ``madvise`` returns minus the errno."""

    def madvise(self, addr: int, length: int, advice: int) -> int: ...
    def mmap_anonymous(self, length: int) -> int: ...
    def munmap(self, addr: int, length: int) -> int: ...
    def mprotect(self, addr: int, length: int, prot: int) -> int: ...
    def mremap_fixed(self, old: int, length: int, new: int) -> int: ...
    def copy(self, dst: int, src: int, length: int) -> None: ...


class Libc:
    def __init__(self) -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        vp, size = ctypes.c_void_p, ctypes.c_size_t
        self._madvise = libc.madvise
        self._madvise.argtypes, self._madvise.restype = [vp, size, ctypes.c_int], ctypes.c_int
        self._mmap = libc.mmap
        self._mmap.argtypes = [vp, size, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
        self._mmap.restype = vp
        self._munmap = libc.munmap
        self._munmap.argtypes, self._munmap.restype = [vp, size], ctypes.c_int
        self._mprotect = libc.mprotect
        self._mprotect.argtypes, self._mprotect.restype = [vp, size, ctypes.c_int], ctypes.c_int
        self._mremap = libc.mremap
        self._mremap.argtypes = [vp, size, size, ctypes.c_int, vp]
        self._mremap.restype = vp
        self._failed = ctypes.c_void_p(-1).value

    def madvise(self, addr: int, length: int, advice: int) -> int:
        return 0 if self._madvise(addr, length, advice) == 0 else -(ctypes.get_errno() or errno.EINVAL)

    def mmap_anonymous(self, length: int) -> int:
        addr = self._mmap(None, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        return -1 if addr in (None, self._failed) else int(addr)

    def munmap(self, addr: int, length: int) -> int:
        return int(self._munmap(addr, length))

    def mprotect(self, addr: int, length: int, prot: int) -> int:
        return int(self._mprotect(addr, length, prot))

    def mremap_fixed(self, old: int, length: int, new: int) -> int:
        addr = self._mremap(old, length, length, MREMAP_MAYMOVE | MREMAP_FIXED, new)
        return -1 if addr in (None, self._failed) else int(addr)

    def copy(self, dst: int, src: int, length: int) -> None:
        ctypes.memmove(dst, src, length)


@dataclass
class Report:
    """What one pass did, in MiB."""

    memory_mib: int = 0  # made huge now (MADV_COLLAPSE succeeded)
    advised_mib: int = 0  # marked MADV_HUGEPAGE (huge from now on, or by khugepaged)
    code_mib: int = 0  # code and read-only data moved into huge pages
    failures: list[str] = field(default_factory=list)
    no_collapse: bool = False  # the kernel has no MADV_COLLAPSE (before Linux 6.1)


def setting() -> str:
    """``CONFIGURATOR_HUGEPAGES``: "on" (the default), "memory" or "off"."""
    value = os.environ.get(ENV, "on").strip().lower()
    if value in ("0", "off", "no", "false"):
        return "off"
    if value not in ("on", "1", "yes", "true", "", "memory"):
        log.warning("%s=%s is not on, memory or off: using on", ENV, value)
    return "memory" if value == "memory" else "on"


def support(sysfs: Path = THP_SYSFS) -> tuple[int, str | None]:
    """(huge page size, None) where transparent huge pages can be used, else (0, why not)."""
    if not sys.platform.startswith("linux"):
        return 0, "not Linux"
    if setting() == "off":
        return 0, f"{ENV}={os.environ.get(ENV, '').strip().lower()}"
    try:
        enabled = (sysfs / "enabled").read_text()
        huge = int((sysfs / "hpage_pmd_size").read_text())
    except (OSError, ValueError):
        return 0, "the kernel has no transparent huge pages"
    if "[never]" in enabled:
        return 0, "transparent huge pages are turned off (enabled = never)"
    if huge <= 4096 or huge & (huge - 1):
        return 0, f"unexpected huge page size {huge}"
    return huge, None


def advise(kernel: Kernel, maps: list[Mapping], huge: int, *, code: bool, done: set[tuple[int, int]]) -> Report:
    """One pass over the process's mappings. ``done`` holds the memory regions already advised
    (it is updated), so that later passes only touch what is new."""
    report = Report()
    regions = memory_regions(maps, huge)
    done.intersection_update((m.lo, m.hi) for m, _ in regions)  # forget what is gone
    for m, (a, b) in regions:
        if (m.lo, m.hi) in done:
            continue
        done.add((m.lo, m.hi))
        if kernel.madvise(m.lo, m.hi - m.lo, MADV_HUGEPAGE) != 0:
            report.failures.append(f"MADV_HUGEPAGE {m.lo:#x}")
            continue
        report.advised_mib += (b - a) >> 20
        # Page by page: a page that the kernel cannot collapse (a hole it will not fill, memory
        # being freed meanwhile, none of it present: EINVAL) does not stop the others. Before
        # Linux 6.1 every one is EINVAL, and khugepaged makes the advised memory huge in time.
        for addr in range(a, b, huge):
            if kernel.madvise(addr, huge, MADV_COLLAPSE) == 0:
                report.memory_mib += huge >> 20
    if code:
        for addr, executable in code_chunks(maps, huge):
            moved = _move(kernel, addr, huge, executable)
            if moved is None:  # no MADV_COLLAPSE (before Linux 6.1): no way to be sure of a huge page
                report.no_collapse = True
                break
            if moved:
                report.code_mib += huge >> 20
            else:
                report.failures.append(f"code {addr:#x}")
    return report


def _move(kernel: Kernel, addr: int, huge: int, executable: bool) -> bool | None:
    """Copy [addr, addr + huge) into a fresh huge page and move it over the original. None where
    the kernel has no MADV_COLLAPSE."""
    raw = kernel.mmap_anonymous(2 * huge)
    if raw == -1:
        return False
    tmp = (raw + huge - 1) & ~(huge - 1)
    if tmp > raw:
        kernel.munmap(raw, tmp - raw)
    if raw + 2 * huge > tmp + huge:
        kernel.munmap(tmp + huge, raw + 2 * huge - tmp - huge)
    kernel.madvise(tmp, huge, MADV_HUGEPAGE)
    kernel.copy(tmp, addr, huge)
    # Only a huge page is worth the move: without one the copy would save nothing and cost 2 MiB.
    collapsed = kernel.madvise(tmp, huge, MADV_COLLAPSE)
    ok = (collapsed == 0
          and kernel.mprotect(tmp, huge, PROT_READ | (PROT_EXEC if executable else 0)) == 0
          and kernel.mremap_fixed(tmp, huge, addr) == addr)
    if not ok:
        kernel.munmap(tmp, huge)
    # EINVAL for memory that is all there, anonymous and private: the kernel has no MADV_COLLAPSE.
    return None if collapsed == -errno.EINVAL else ok


class HugePageKeeper:
    """Runs :func:`advise` in its own thread: ``first_s`` after :meth:`start` (the window is built
    by then), then every ``every_s`` for memory mapped since. Code is moved once."""

    def __init__(self, *, first_s: float = 5.0, every_s: float = 300.0,
                 kernel_factory: Callable[[], Kernel] = Libc,
                 read_maps: Callable[[], str] = lambda: Path("/proc/self/maps").read_text(),
                 sysfs: Path = THP_SYSFS):
        self.first_s = first_s
        self.every_s = every_s
        self._kernel_factory = kernel_factory
        self._read_maps = read_maps
        self.huge, self.unavailable = support(sysfs)
        self.code = (self.unavailable is None and platform.machine() in ("x86_64", "AMD64")
                     and setting() != "memory")
        self.passes = 0
        self.memory_mib = 0
        self.code_mib = 0
        self.last: Report | None = None
        self._done: set[tuple[int, int]] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.passed = threading.Event()  # set after the first pass (tests, the benchmark)

    def start(self) -> None:
        if self.unavailable is not None:
            log.info("huge pages not used: %s", self.unavailable)
            return
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="monitor-hugepages", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def run_once(self) -> Report | None:
        """One pass now, in the calling thread. None where huge pages cannot be used."""
        if self.unavailable is not None:
            return None
        try:
            kernel = self._kernel_factory()
            maps = parse_maps(self._read_maps())
        except (OSError, AttributeError) as exc:  # no /proc, or a libc without mremap
            self.unavailable = str(exc)
            log.info("huge pages not used: %s", exc)
            return None
        report = advise(kernel, maps, self.huge, code=self.code and self.passes == 0, done=self._done)
        self.passes += 1
        self.memory_mib += report.memory_mib
        self.code_mib += report.code_mib
        self.last = report
        if report.no_collapse and self.passes == 1:
            log.info("huge pages: this kernel has no MADV_COLLAPSE (Linux 6.1): %d MiB of memory advised for "
                     "khugepaged, code left where it is", report.advised_mib)
        elif report.memory_mib or report.code_mib or report.failures:
            refused = f"; refused: {', '.join(report.failures[:5])}" if report.failures else ""
            log.info("huge pages: %d MiB of memory, %d MiB of code%s", report.memory_mib, report.code_mib, refused)
        self.passed.set()
        return report

    def _run(self) -> None:
        wait = self.first_s
        while not self._stop.wait(wait):
            try:
                self.run_once()
            except Exception:  # a saving, never a reason to stop: log and go on
                log.exception("huge pages pass failed")
            if self.unavailable is not None:
                return
            wait = self.every_s
