"""Alerts with hysteresis, each citing its rule ID from RULES.md.

A condition must hold for a while before an alert is raised, and the opposite
(with a margin in level as well) for a while before it clears, so a value
hovering around a threshold does not flap.

* GPU-6 (M 1.1): GPU utilisation under 70 % for a sustained period while a
  process trains on it; the message names the likely bottleneck from the host's
  signals (DataLoader workers saturating the CPU, a busy CPU, disk iowait, a
  PCIe link below its maximum).
* DIST-1 (G 六.2): the GPUs of one job far apart in utilisation.
* OOM-1 (G 六.1, M 五): VRAM close to full.
* MON-1 (G 七, M 3.2): thermal throttling, the power cap, a lost GPU.
* PWR-2 (G 六.3): the hardware power brake (the supply cannot keep up).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.units import GIB
from configurator.monitor.snapshot import POWER_REASONS, THERMAL_REASONS, GpuSample, HostSample, Snapshot

CTX = "monitor"

SOURCES = {"GPU-6": "M 1.1", "DIST-1": "G 六.2", "OOM-1": "G 六.1, M 五", "MON-1": "G 七, M 3.2",
           "PWR-2": "G 六.3"}


Content = tuple[str, str, Message, Message]  # rule, severity, title, message


@dataclass(frozen=True)
class Alert:
    key: str  # unique per condition and subject, e.g. "GPU-6:gpu0"
    rule: str
    severity: str  # error | warning | info
    title: Message
    message: Message
    since: float
    cleared: float | None = None

    @property
    def source(self) -> str:
        return SOURCES.get(self.rule, "")

    @property
    def active(self) -> bool:
        return self.cleared is None


@dataclass(frozen=True)
class AlertEvent:
    kind: str  # raised | cleared
    alert: Alert


@dataclass(frozen=True)
class Thresholds:
    util_low: float = 70.0  # GPU-6
    util_clear: float = 75.0
    util_sustain_s: float = 30.0
    spread: float = 30.0  # DIST-1, percentage points
    spread_clear: float = 20.0
    spread_sustain_s: float = 30.0
    vram_full: float = 95.0  # OOM-1, percent
    vram_clear: float = 90.0
    vram_sustain_s: float = 5.0
    throttle_sustain_s: float = 10.0
    power_cap_sustain_s: float = 60.0
    clear_s: float = 10.0
    worker_saturated: float = 85.0
    cpu_busy: float = 90.0
    iowait_high: float = 10.0


class _Gate:
    def __init__(self) -> None:
        self.active = False
        self.pending: float | None = None

    def update(self, now: float, raise_cond: bool, clear_cond: bool, on_s: float, off_s: float) -> str | None:
        cond = clear_cond if self.active else raise_cond
        if not cond:
            self.pending = None
            return None
        if self.pending is None:
            self.pending = now
        if now - self.pending >= (off_s if self.active else on_s):
            self.active = not self.active
            self.pending = None
            return "raised" if self.active else "cleared"
        return None


def _gpu_label(g: GpuSample) -> str:
    return g.id


def _fmt(x: float | None, digits: int = 0) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def bottleneck(host: HostSample, gpu: GpuSample, th: Thresholds = Thresholds()) -> Message:
    """The likely reason a GPU waits, from the host's signals, most specific first."""
    t = host.training
    if t is not None and t.workers and t.workers_cpu_percent and min(t.workers_cpu_percent) >= th.worker_saturated:
        return Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "the {n} DataLoader workers are saturating the CPU (each at {cpu} % of a core): add workers "
                 "(num_workers) or move preprocessing to the GPU (STO-5)"),
            {"n": t.workers, "cpu": _fmt(min(t.workers_cpu_percent))})
    if t is not None and not t.workers and t.cpu_percent >= th.worker_saturated:
        return Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "the training process loads data itself at {cpu} % of a core: use DataLoader workers "
                 "(num_workers ≥ 4, STO-5)"), {"cpu": _fmt(t.cpu_percent)})
    if host.cpu_percent is not None and host.cpu_percent >= th.cpu_busy:
        return Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "the host CPU is busy ({cpu} % over all cores): data loading cannot keep up"),
            {"cpu": _fmt(host.cpu_percent)})
    if host.iowait_percent is not None and host.iowait_percent >= th.iowait_high:
        return Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "the CPU waits for the disk ({iowait} % iowait): keep the data set on NVMe or in RAM "
                       "(STO-1, STO-4)"),
            {"iowait": _fmt(host.iowait_percent)})
    if gpu.pcie_below_max:
        return Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "its PCIe link runs at Gen{gen} x{width}, below its maximum Gen{gen_max} x{width_max}: "
                       "check the "
                 "slot and the BIOS setting (PCI-3)"),
            {"gen": gpu.pcie_gen, "width": gpu.pcie_width, "gen_max": gpu.pcie_gen_max,
             "width_max": gpu.pcie_width_max})
    return Message("monitor", QT_TRANSLATE_NOOP(
        "monitor", "the host shows no bottleneck: try a larger batch size, mixed precision, or profile the "
                   "input pipeline"))


def _job_key(g: GpuSample) -> str | None:
    """GPUs whose processes share a parent (torchrun, mp.spawn) or a command line belong to one job."""
    for p in g.processes:
        if p.parent_pid is not None and p.parent_pid > 1:
            return f"ppid{p.parent_pid}"
    for p in g.processes:
        if p.name:
            # "python train.py --local-rank 3" → "python train.py"
            words = [w for w in p.name.split() if not w.startswith("-") and not w.isdigit()]
            return "cmd:" + " ".join(words[:3])
    return None


# What an alert says, made only when it is raised or its numbers are refreshed (not for every
# check of every snapshot: the checks run once a second for every GPU).

def _lost(g: GpuSample) -> Content:
    return (
        "MON-1", "error",
        Message("monitor", QT_TRANSLATE_NOOP("monitor", "GPU {gpu} lost"), {"gpu": g.id}),
        Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "GPU {gpu} ({name}) stopped answering. The other GPUs are still monitored; "
                 "the monitor tries to reach it again. Check `dmesg` for Xid errors, the power "
                 "cables and the card's temperature."), {"gpu": g.id, "name": g.name}))


def _under_used(g: GpuSample, host: HostSample, th: Thresholds) -> Content:
    return (
        "GPU-6", "warning",
        Message("monitor", QT_TRANSLATE_NOOP("monitor", "GPU {gpu} under-used"), {"gpu": g.id}),
        Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "GPU {gpu} has been under {threshold} % busy ({util} % now) while training; "
                 "likely bottleneck: {cause}."),
            {"gpu": g.id, "threshold": _fmt(th.util_low), "util": _fmt(g.utilization_gpu_percent),
             "cause": bottleneck(host, g, th)}))


def _vram_full(g: GpuSample) -> Content:
    return (
        "OOM-1", "warning",
        Message("monitor", QT_TRANSLATE_NOOP("monitor", "GPU {gpu} VRAM nearly full"), {"gpu": g.id}),
        Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "VRAM of GPU {gpu} is {percent} % full ({used} of {total} GiB). Before CUDA "
                 "runs "
                 "out of memory: a smaller batch with gradient accumulation, gradient "
                 "checkpointing, mixed precision; torch.cuda.memory_summary() shows what holds it."),
            {"gpu": g.id, "percent": _fmt(g.memory_percent),
             "used": _fmt((g.memory_used_bytes or 0) / GIB, 1),
             "total": _fmt((g.memory_total_bytes or 0) / GIB, 1)}))


def _thermal(g: GpuSample) -> Content:
    return (
        "MON-1", "warning",
        Message("monitor", QT_TRANSLATE_NOOP("monitor", "GPU {gpu} thermal throttling"), {"gpu": g.id}),
        Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "GPU {gpu} lowers its clocks because it is too hot ({temp} °C): check the case "
                 "airflow, the fans and the space between cards."),
            {"gpu": g.id, "temp": _fmt(g.temperature_c)}))


def _power_brake(g: GpuSample) -> Content:
    return (
        "PWR-2", "warning",
        Message("monitor", QT_TRANSLATE_NOOP("monitor", "GPU {gpu} power brake"), {"gpu": g.id}),
        Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "GPU {gpu} is slowed by the hardware power brake: the power supply or its "
                 "cables may not deliver the peak draw. Check the PSU rating and use separate "
                 "PCIe cables per connector."), {"gpu": g.id}))


def _power_cap(g: GpuSample) -> Content:
    return (
        "MON-1", "info",
        Message("monitor", QT_TRANSLATE_NOOP("monitor", "GPU {gpu} at its power limit"), {"gpu": g.id}),
        Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "GPU {gpu} is held at its power limit ({power} of {limit} W). That is normal "
                 "under full load; a higher limit buys little speed for much heat."),
            {"gpu": g.id, "power": _fmt(g.power_w), "limit": _fmt(g.power_limit_w)}))


def _out_of_step(gpus: list[GpuSample], spread: float, low: GpuSample) -> Content:
    return (
        "DIST-1", "warning",
        Message("monitor", QT_TRANSLATE_NOOP("monitor", "GPUs of one job out of step")),
        Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "GPUs {gpus} run one job but differ by {spread} points of utilisation (GPU {low} at "
                 "{low_util} %): an uneven data split or a slow rank. Run with NCCL_DEBUG=INFO and "
                 "check that every rank gets the same batch size."),
            {"gpus": ", ".join(g.id for g in gpus), "spread": _fmt(spread), "low": low.id,
             "low_util": _fmt(low.utilization_gpu_percent)}))


def _gone() -> Content:
    return ("", "", Message("monitor", ""), Message("monitor", ""))


class AlertEngine:
    """Feed it snapshots (``evaluate``); it returns what was raised or cleared."""

    def __init__(self, thresholds: Thresholds | None = None, keep: int = 200):
        self.th = thresholds or Thresholds()
        self.active: dict[str, Alert] = {}
        self.history: deque[Alert] = deque(maxlen=keep)  # cleared alerts, newest last
        self._gates: dict[str, _Gate] = {}
        self._lock = threading.Lock()

    def evaluate(self, s: Snapshot) -> list[AlertEvent]:
        with self._lock:
            return self._evaluate(s)

    def _evaluate(self, s: Snapshot) -> list[AlertEvent]:
        th = self.th
        gates = self._gates
        # key -> (raise_cond, clear_cond, on_s, off_s, what the alert says (made when needed))
        checks: dict[str, tuple[bool, bool, float, float, Callable[[], Content]]] = {}

        def check(key: str, up: bool, down: bool, on_s: float, off_s: float,
                  content: Callable[..., Content], *args: Any) -> None:
            # A check whose condition is false and that is neither pending nor raised changes
            # nothing: most checks, every second. They are left out (no gate, no content made).
            if up or key in gates:
                checks[key] = (up, down, on_s, off_s, partial(content, *args))

        for g in s.gpus:
            subject = g.uuid or _gpu_label(g)
            if g.lost:
                check(f"lost:{subject}", True, False, 0.0, 0.0, _lost, g)
                continue
            util = g.utilization_gpu_percent
            training = bool(g.processes)
            if util is not None:
                check(f"GPU-6:{subject}", training and util < th.util_low, (not training) or util >= th.util_clear,
                      th.util_sustain_s, th.clear_s, _under_used, g, s.host, th)
            mem = g.memory_percent
            if mem is not None:
                check(f"OOM-1:{subject}", mem >= th.vram_full, mem < th.vram_clear, th.vram_sustain_s, th.clear_s,
                      _vram_full, g)
            reasons = g.throttle_reasons
            if reasons is not None:
                thermal = bool(reasons & THERMAL_REASONS)
                check(f"thermal:{subject}", thermal, not thermal, th.throttle_sustain_s, th.clear_s, _thermal, g)
                brake = bool(reasons & 0x80)
                check(f"brake:{subject}", brake, not brake, th.throttle_sustain_s, th.clear_s, _power_brake, g)
                cap = bool(reasons & POWER_REASONS & 0x4)
                check(f"powercap:{subject}", cap, not cap, th.power_cap_sustain_s, th.clear_s, _power_cap, g)

        jobs: dict[str, list[GpuSample]] = {}
        for g in s.gpus:
            key = _job_key(g) if not g.lost and g.utilization_gpu_percent is not None else None
            if key is not None:
                jobs.setdefault(key, []).append(g)
        for job, gpus in jobs.items():
            if len(gpus) < 2:
                continue
            utils = [g.utilization_gpu_percent or 0.0 for g in gpus]
            spread = max(utils) - min(utils)
            low = gpus[utils.index(min(utils))]
            check(f"DIST-1:{job}", spread >= th.spread, spread < th.spread_clear, th.spread_sustain_s, th.clear_s,
                  _out_of_step, gpus, spread, low)

        events: list[AlertEvent] = []
        for key in set(gates) - set(checks):  # the subject went away: let it clear
            checks[key] = (False, True, 0.0, 0.0, _gone)
        for key, (up, down, on_s, off_s, content) in checks.items():
            gate = gates.get(key)
            if gate is None:
                gate = gates[key] = _Gate()
            change = gate.update(s.time, up, down, on_s, off_s)
            if change == "raised":
                rule, severity, title, message = content()
                alert = Alert(key, rule, severity, title, message, s.time)
                self.active[key] = alert
                events.append(AlertEvent("raised", alert))
            elif change == "cleared":
                old = self.active.pop(key, None)
                if old is not None:
                    done = replace(old, cleared=s.time)
                    self.history.append(done)
                    events.append(AlertEvent("cleared", done))
            elif gate.active and key in self.active and up:
                self.active[key] = replace(self.active[key], message=content()[3])  # keep the numbers current
            if not gate.active and gate.pending is None and key not in self.active:
                self._gates.pop(key, None)
        return events

    def all_alerts(self) -> list[Alert]:
        """Active alerts (newest first), then cleared ones (newest first)."""
        with self._lock:
            active = sorted(self.active.values(), key=lambda a: a.since, reverse=True)
            return active + list(reversed(self.history))


def alert_to_dict(a: Alert, render: Callable[[Message], str] | None = None) -> dict[str, Any]:
    r = render or (lambda m: m.render())
    return {"rule": a.rule, "source": a.source, "severity": a.severity, "title": r(a.title),
            "message": r(a.message), "since": a.since, "cleared": a.cleared}
