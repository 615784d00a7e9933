"""How busy the machine was around a benchmark: other processes' CPU and GPU use, before and
during each workload, and whether a result is steady enough to be read as a fact.

CPU: the machine's busy CPU time (all cores, from ``psutil.cpu_times``) minus what this
process and its reaped children used (``os.times``: a finished job's child, with what it
waited for, is in its parent's children time), over the settle pause before a workload
("before": nothing of ours runs then) and over the workload itself ("during"). The share is
of all cores' time: 25 % on a 4-core machine is one core kept busy by someone else.

GPU: from samples of the GPUs (the monitor's NVML snapshots, or the CLI's own reading):
utilisation while nothing of ours runs, and compute processes that are not ours during it.

No Qt here; psutil is optional (a GPU server with only torch): without it there is no CPU figure.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from configurator.bench.i18n import QT_TRANSLATE_NOOP
from configurator.core.i18n import Message

# A result is "measured on a busy machine" above these (stated in the UI beside the result).
BUSY_CPU_PERCENT = 10.0  # other processes' share of all cores' time
BUSY_GPU_PERCENT = 10.0  # GPU utilisation while none of our processes ran
# A result whose spread is wider than this is unstable: IQR / median.
UNSTABLE_SPREAD = 0.10
# Beyond this a scaling efficiency above ideal is not rounding: a measurement problem.
EFFICIENCY_TOLERANCE = 1.02
SETTLE_S = 1.0  # the pause before each workload, over which "before" is measured


class GpuSampleLike(Protocol):
    """What is read of a GPU sample (configurator.monitor.snapshot.GpuSample has it)."""

    @property
    def id(self) -> str: ...
    @property
    def utilization_gpu_percent(self) -> float | None: ...
    @property
    def processes(self) -> Sequence[Any]: ...  # each with .pid and .name


GpuReader = Callable[[], Sequence[GpuSampleLike]]


def _msg(text: str, **params: Any) -> Message:
    return Message("bench", text, params)


def _psutil() -> Any:
    try:
        import psutil
    except ImportError:
        return None
    return psutil


def cpu_counters() -> tuple[float, float, float, int] | None:
    """(monotonic time, machine's busy CPU seconds, ours: this process and its reaped children, cores)."""
    ps = _psutil()
    if ps is None:
        return None
    t = ps.cpu_times()
    busy = sum(t) - t.idle - getattr(t, "iowait", 0.0)
    own = os.times()
    ours = own.user + own.system + own.children_user + own.children_system
    return time.monotonic(), busy, ours, ps.cpu_count() or 1


@dataclass
class Window:
    """One interval: others' CPU share, the highest GPU utilisation, other processes on the GPUs."""

    cpu_percent: float | None = None
    gpu_percent: float | None = None
    gpu_processes: list[dict[str, Any]] = field(default_factory=list)  # [{"gpu", "pid", "name"}]
    seconds: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"cpu_percent": _round(self.cpu_percent), "gpu_percent": _round(self.gpu_percent),
                "gpu_processes": self.gpu_processes, "seconds": _round(self.seconds)}

    @classmethod
    def from_json(cls, d: Any) -> Window:
        d = d if isinstance(d, dict) else {}
        procs = d.get("gpu_processes")
        return cls(_num(d.get("cpu_percent")), _num(d.get("gpu_percent")),
                   [p for p in procs if isinstance(p, dict)] if isinstance(procs, list) else [],
                   _num(d.get("seconds")))


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 1)


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


class LoadMeter:
    """Measures one window at a time: ``open()`` at its start, ``sample_gpus(ours)`` while it runs,
    ``close()`` at its end. ``counters`` and ``gpus`` are injectable (tests)."""

    def __init__(self, gpus: GpuReader | None = None,
                 counters: Callable[[], tuple[float, float, float, int] | None] = cpu_counters):
        self.gpus = gpus
        self.counters = counters
        self._start: tuple[float, float, float, int] | None = None
        self._window = Window()
        self._seen: set[tuple[str, int]] = set()

    def open(self, ours: Iterable[int] = ()) -> None:
        self._start = self.counters()
        self._window = Window()
        self._seen = set()
        self.sample_gpus(ours)

    def sample_gpus(self, ours: Iterable[int] = ()) -> None:
        """Note the GPUs' utilisation and the compute processes on them that are not ``ours``."""
        if self.gpus is None:
            return
        try:
            samples = list(self.gpus())
        except Exception:  # a GPU reading must never stop a benchmark
            return
        mine = set(ours) | {os.getpid()}
        w = self._window
        for g in samples:
            util = g.utilization_gpu_percent
            if util is not None:
                w.gpu_percent = max(w.gpu_percent or 0.0, float(util))
            for p in g.processes:
                key = (str(g.id), int(p.pid))
                if p.pid not in mine and key not in self._seen:
                    self._seen.add(key)
                    w.gpu_processes.append({"gpu": str(g.id), "pid": int(p.pid), "name": p.name or ""})

    def close(self, ours: Iterable[int] = (), *, gpu_utilisation: bool = True) -> Window:
        """The window since ``open``. ``gpu_utilisation``: False while our own job used the GPUs
        (their utilisation is then ours too, not a sign of others)."""
        self.sample_gpus(ours)
        w = self._window
        end = self.counters()
        if self._start is not None and end is not None:
            t0, busy0, ours0, _ = self._start
            t1, busy1, ours1, cores = end
            wall = t1 - t0
            w.seconds = wall
            if wall > 0.05:
                others = max(0.0, (busy1 - busy0) - (ours1 - ours0))
                w.cpu_percent = min(100.0, 100.0 * others / (wall * cores))
        if not gpu_utilisation:
            w.gpu_percent = None
        self._start = None
        return w


def busy_reasons(load: dict[str, Any] | None, gpus: bool = True) -> list[Message]:
    """Why a result was measured on a busy machine (empty: it was not, or nothing is known). ``gpus``:
    whether the result ran on a GPU; a CPU result is not slowed by other work on the GPUs, so their
    utilisation and processes are not reasons then."""
    if not load:
        return []
    out: list[Message] = []
    for when, label in (("before", QT_TRANSLATE_NOOP("bench", "before")),
                        ("during", QT_TRANSLATE_NOOP("bench", "during"))):
        w = Window.from_json(load.get(when))
        if w.cpu_percent is not None and w.cpu_percent > BUSY_CPU_PERCENT:
            out.append(_msg(QT_TRANSLATE_NOOP("bench", "{when}: other processes used {cpu} % of the CPU"),
                            when=Message("bench", label), cpu=f"{w.cpu_percent:.0f}"))
        if not gpus:
            continue
        if w.gpu_percent is not None and w.gpu_percent > BUSY_GPU_PERCENT:
            out.append(_msg(QT_TRANSLATE_NOOP("bench", "{when}: the GPU was {gpu} % busy with other work"),
                            when=Message("bench", label), gpu=f"{w.gpu_percent:.0f}"))
        if w.gpu_processes:
            names = ", ".join(f"{p.get('name') or '?'} ({p.get('pid')})" for p in w.gpu_processes[:3])
            out.append(_msg(QT_TRANSLATE_NOOP("bench", "{when}: other processes on the GPU: {processes}"),
                            when=Message("bench", label), processes=names))
    return out


def spread(median: float | None, iqr: float | None) -> float | None:
    """IQR / median (None when it cannot be said)."""
    if median is None or iqr is None or median <= 0:
        return None
    return iqr / median


_CLEAN_RUN = QT_TRANSLATE_NOOP("bench", "For a clean run, close other programs and GPU jobs and run it again: "
                                       "configurator bench --only {name}")


def impossible_reason(name: str, median: float | None, iqr: float | None,
                      details: dict[str, Any]) -> Message | None:
    """Why a result cannot be true, so it is not a measurement at all: more than ideal scaling, or a spread
    (IQR) wider than the median itself (the timed runs disagree by more than the value they would give).
    Such a result is shown as "not measured", with this reason and how to get a clean run."""
    if name == "ddp-scaling":
        over = [r for r in details.get("runs", []) if isinstance(r, dict)
                and isinstance(r.get("efficiency"), int | float) and r["efficiency"] > EFFICIENCY_TOLERANCE]
        if over:
            worst = max(over, key=lambda r: float(r["efficiency"]))
            return _msg(QT_TRANSLATE_NOOP(
                "bench", "a measurement problem: {n} processes scaled to {eff} % of ideal, more than is "
                         "possible (the one-process baseline was slowed, or the machine was busy). {fix}"),
                n=worst.get("processes", "?"), eff=f"{100 * float(worst['efficiency']):.0f}",
                fix=_msg(_CLEAN_RUN, name=name))
        if median is not None and median > 100 * EFFICIENCY_TOLERANCE:
            return _msg(QT_TRANSLATE_NOOP(
                "bench", "a measurement problem: {eff} % of ideal scaling is more than is possible. {fix}"),
                eff=f"{median:.0f}", fix=_msg(_CLEAN_RUN, name=name))
    if median is not None and iqr is not None and median > 0 and iqr > median:
        return _msg(QT_TRANSLATE_NOOP(
            "bench", "a measurement problem: the timed runs spread over {iqr} (IQR), more than their median "
                     "{median}; the machine was too busy or changed speed while it ran. {fix}"),
            iqr=f"{iqr:.3g}", median=f"{median:.3g}", fix=_msg(_CLEAN_RUN, name=name))
    return None


def unstable_reason(name: str, median: float | None, iqr: float | None,
                    details: dict[str, Any]) -> Message | None:
    """Why a result must not be read as a fact: it cannot be true (:func:`impossible_reason`), or its spread
    is too wide to compare it with anything."""
    impossible = impossible_reason(name, median, iqr, details)
    if impossible is not None:
        return impossible
    s = spread(median, iqr)
    if s is not None and s > UNSTABLE_SPREAD:
        return _msg(QT_TRANSLATE_NOOP("bench", "unstable: the spread (IQR) is {spread} % of the median, "
                                               "more than {limit} %"),
                    spread=f"{100 * s:.0f}", limit=f"{100 * UNSTABLE_SPREAD:.0f}")
    return None
