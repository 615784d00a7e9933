"""A report of a training run, from a monitor recording (the CSV that CsvRecorder writes).

Per GPU: median and 95th-percentile utilisation, the memory peak against the card's capacity, power,
energy (from NVML's energy counter where the recording has it, else the power integrated over time:
each says which), the time throttled and why, and the time in each alert; the host's CPU, iowait and
DataLoader signals; GPU-6's verdict over the whole run; the electricity cost at the user's tariff.
The alerts are replayed through the same AlertEngine the live monitor uses, on the recorded values,
so the report says what the monitor would have said.
"""

from __future__ import annotations

import csv
import itertools
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from configurator.core.advise import Evidence
from configurator.core.estimate.fit import quantile
from configurator.core.estimate.power import MeasuredPower
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.units import GIB
from configurator.monitor.alerts import AlertEngine, Thresholds, bottleneck
from configurator.monitor.snapshot import GpuProcess, GpuSample, HostSample, NvmlStatus, Snapshot, TrainingProcess

CTX = "report"
MAX_BYTES = 1 << 30  # a recording larger than 1 GiB is refused with a message, not read into memory
# NVML clock-event reasons that slow a working GPU (idle and application-clock settings are not throttling).
REASONS = {0x4: QT_TRANSLATE_NOOP("report", "power cap"),
           0x8: QT_TRANSLATE_NOOP("report", "hardware slowdown"),
           0x20: QT_TRANSLATE_NOOP("report", "thermal (software)"),
           0x40: QT_TRANSLATE_NOOP("report", "thermal (hardware)"),
           0x80: QT_TRANSLATE_NOOP("report", "power brake")}
THROTTLING = sum(REASONS)


class RecordingError(ValueError):
    def __init__(self, message: Message):
        self.message = message
        super().__init__(message.render())


def _m(template: str, **params: Any) -> Message:
    return Message(CTX, template, params)


@dataclass(frozen=True)
class Recording:
    times: list[float]
    columns: dict[str, list[float | None]]
    markers: list[tuple[float, str]]
    names: dict[str, str] = field(default_factory=dict)  # GPU id -> its name (older recordings have none)

    def gpu_ids(self) -> list[str]:
        ids = {k[3:].rsplit(".", 1)[0] for k in self.columns if k.startswith("gpu")}
        return sorted(ids, key=lambda s: [int(p) if p.isdigit() else p for p in s.replace("mig", ".").split(".")])

    def col(self, key: str) -> list[float | None]:
        return self.columns.get(key, [None] * len(self.times))


def _float(text: str) -> float | None:
    if not text:
        return None
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def read_recording(path: str | Path) -> Recording:
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise RecordingError(_m(QT_TRANSLATE_NOOP("report", "{path} is {size} MiB: larger than a recording this "
                                                      "report reads (1 GiB)"), path=str(p), size=size >> 20))
        with p.open(newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
    except RecordingError:
        raise
    except UnicodeDecodeError:
        raise RecordingError(_m(QT_TRANSLATE_NOOP("report", "{path} is not a UTF-8 text file: not a monitor recording"),
                                path=str(p))) from None
    except (OSError, csv.Error) as exc:
        raise RecordingError(_m(QT_TRANSLATE_NOOP("report", "cannot read {path}: {error}"), path=str(p),
                                error=getattr(exc, "strerror", None) or str(exc))) from None
    if not rows or rows[0][:3] != ["time", "epoch_s", "marker"]:
        raise RecordingError(_m(QT_TRANSLATE_NOOP("report", "{path} is not a monitor recording (its first row must be "
                                                  "time, epoch_s, marker, …)"), path=str(p)))
    keys = [h.split(" (", 1)[0] for h in rows[0][3:]]
    times: list[float] = []
    cols: dict[str, list[float | None]] = {k: [] for k in keys if _named_gpu(k) is None}
    names: dict[str, str] = {}
    markers = []
    width = len(rows[0])
    for row in rows[1:]:
        t = _float(row[1]) if len(row) == width else None
        if t is None or (times and t <= times[-1]):
            continue  # a torn row (the app was killed while writing it), or one out of order
        times.append(t)
        if len(row) > 2 and row[2]:
            markers.append((t, row[2]))
        for i, k in enumerate(keys):
            cell = row[3 + i] if 3 + i < len(row) else ""
            gid = _named_gpu(k)
            if gid is None:
                cols[k].append(_float(cell))
            elif cell:
                names.setdefault(gid, cell)
    if len(times) < 2:
        raise RecordingError(_m(QT_TRANSLATE_NOOP("report", "{path} has {n} samples: a report needs at least two"),
                                path=str(p), n=len(times)))
    return Recording(times, cols, markers, names)


def _named_gpu(key: str) -> str | None:
    """The GPU whose name column ``key`` is (``gpu0.name`` -> ``"0"``: text, in the first row only),
    or None for a column of figures."""
    if key.startswith("gpu") and key.endswith(".name"):
        return key[len("gpu"):-len(".name")]
    return None


def _q(values: Sequence[float], q: float) -> float | None:
    return quantile(values, q) if values else None


def _present(values: Sequence[float | None]) -> list[float]:
    return [v for v in values if v is not None]


def _dt(times: Sequence[float]) -> list[float]:
    """Seconds each sample stands for: the interval to the next one (the last sample, at the recording's
    end, stands for none), so the times add up to the recording's duration less its pauses, and no GPU
    is busy for longer than the recording lasted."""
    gaps = [b - a for a, b in itertools.pairwise(times)]
    typical = statistics.median(gaps) if gaps else 1.0
    # a gap of more than 5 intervals is a pause in recording, not a long sample
    return [g if g <= 5 * typical else typical for g in gaps] + [0.0]


@dataclass(frozen=True)
class GpuReport:
    id: str
    util_median: float | None
    util_p95: float | None
    memory_peak_gib: float | None
    memory_capacity_gib: float | None
    power_median_w: float | None
    power_max_w: float | None
    energy_j: float | None
    energy_method: str | None  # "nvml-counter" | "integrated-power"
    throttled_s: float
    throttle_reasons: tuple[str, ...]
    busy_s: float  # time a process ran on it
    pcie_degraded_s: float = 0.0  # time its link ran below its maximum generation or width
    name: str = ""  # as the driver named it; "" in a recording made before names were recorded

    @property
    def label(self) -> str:
        """``GPU 0 · NVIDIA GeForce RTX 3090``, or ``GPU 0`` where the recording has no name."""
        return f"GPU {self.id} · {self.name}" if self.name else f"GPU {self.id}"


@dataclass(frozen=True)
class AlertSpan:
    rule: str
    key: str
    since: float
    until: float
    message: Message

    @property
    def seconds(self) -> float:
        return self.until - self.since


@dataclass(frozen=True)
class RunReport:
    path: str
    start: float
    end: float
    samples: int
    gpus: tuple[GpuReport, ...]
    host: dict[str, float | None]
    alerts: tuple[AlertSpan, ...]
    verdict: Message
    rule: str | None  # the rule behind the verdict (GPU-6), or None
    energy_kwh: float | None
    cpu_energy_j: float | None
    tariff_cny_per_kwh: float
    markers: tuple[tuple[float, str], ...] = field(default_factory=tuple)

    @property
    def duration_s(self) -> float:
        return self.end - self.start

    @property
    def cost_cny(self) -> float | None:
        return None if self.energy_kwh is None else self.energy_kwh * self.tariff_cny_per_kwh

    def alert_seconds(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for a in self.alerts:
            out[a.rule] = out.get(a.rule, 0.0) + a.seconds
        return out


def _energy(rec: Recording, gid: str, dts: Sequence[float]) -> tuple[float | None, str | None]:
    counter = [(t, v) for t, v in zip(rec.times, rec.col(f"gpu{gid}.energy"), strict=True) if v is not None]
    if len(counter) >= 2:
        total = 0.0
        for (_t0, a), (_t1, b) in itertools.pairwise(counter):
            total += b - a if b >= a else 0.0  # a driver reload resets the counter
        return total, "nvml-counter"
    power = rec.col(f"gpu{gid}.power")
    if not _present(power):
        return None, None
    return sum(p * d for p, d in zip(power, dts, strict=True) if p is not None), "integrated-power"


def _gpu(rec: Recording, gid: str, dts: Sequence[float]) -> GpuReport:
    util = _present(rec.col(f"gpu{gid}.util"))
    used = rec.col(f"gpu{gid}.mem_used_gib")
    pct = rec.col(f"gpu{gid}.mem")
    caps = [u / p * 100 for u, p in zip(used, pct, strict=True) if u is not None and p]
    power = _present(rec.col(f"gpu{gid}.power"))
    throttled = 0.0
    seen = 0
    for r, d in zip(rec.col(f"gpu{gid}.throttle"), dts, strict=True):
        if r is not None and int(r) & THROTTLING:
            throttled += d
            seen |= int(r) & THROTTLING
    energy, method = _energy(rec, gid, dts)
    procs = rec.col(f"gpu{gid}.procs")
    degraded = 0.0
    for gen, gmax, w, wmax, d in zip(rec.col(f"gpu{gid}.pcie_gen"), rec.col(f"gpu{gid}.pcie_gen_max"),
                                     rec.col(f"gpu{gid}.pcie_width"), rec.col(f"gpu{gid}.pcie_width_max"), dts,
                                     strict=True):
        if gen is not None and gmax is not None and w is not None and wmax is not None and (gen < gmax or w < wmax):
            degraded += d
    return GpuReport(
        gid, _q(util, 0.5), _q(util, 0.95), max(_present(used), default=None),
        statistics.median(caps) if caps else None, _q(power, 0.5), max(power, default=None), energy, method,
        throttled, tuple(name for bit, name in REASONS.items() if seen & bit),
        sum(d for n, d in zip(procs, dts, strict=True) if n), degraded, rec.names.get(gid, "")
    )


def _int(x: float | None) -> int | None:
    return None if x is None else int(x)


def _snapshots(rec: Recording) -> list[Snapshot]:
    """The recorded values as the snapshots the alert engine reads (what was not recorded is unknown)."""
    out = []
    ids = rec.gpu_ids()
    for i, t in enumerate(rec.times):
        def v(key: str, i: int = i) -> float | None:
            return rec.col(key)[i]

        workers = v("host.workers")
        main = v("host.main_cpu")
        training = None if main is None else TrainingProcess(
            0, "", main, int(workers or 0), (v("host.workers_min_cpu") or 0.0,) * int(workers or 0))
        host = HostSample("", cpu_percent=v("host.cpu"), iowait_percent=v("host.iowait"), training=training)
        gpus = []
        for gid in ids:
            def g(name: str, gid: str = gid) -> float | None:
                return v(f"gpu{gid}.{name}")

            used = g("mem_used_gib")
            pct = g("mem")
            total = used / pct * 100 if used is not None and pct else None

            # one job per machine: the recorded GPUs with a process share a parent
            procs = tuple(GpuProcess(0, None, "", None, parent_pid=2) for _ in range(int(g("procs") or 0)))
            gpus.append(GpuSample(
                int(gid.split(".")[0]) if gid.split(".")[0].isdigit() else 0, gid, rec.names.get(gid, f"GPU {gid}"),
                f"gpu{gid}",
                utilization_gpu_percent=g("util"),
                memory_used_bytes=None if used is None else int(used * GIB),
                memory_total_bytes=None if total is None else int(total * GIB),
                temperature_c=g("temp"), power_w=g("power"), throttle_reasons=_int(g("throttle")),
                pcie_gen=_int(g("pcie_gen")), pcie_width=_int(g("pcie_width")),
                pcie_gen_max=_int(g("pcie_gen_max")), pcie_width_max=_int(g("pcie_width_max")), processes=procs))
        out.append(Snapshot(t, i, host, NvmlStatus(True), tuple(gpus)))
    return out


def _replay(snaps: Sequence[Snapshot], end: float, th: Thresholds) -> list[AlertSpan]:
    engine = AlertEngine(th, keep=100_000)
    for s in snaps:
        engine.evaluate(s)
    spans = [AlertSpan(a.rule, a.key, a.since, a.cleared if a.cleared is not None else end, a.message)
             for a in engine.all_alerts()]
    return sorted(spans, key=lambda a: (a.since, a.key))


def _verdict(gpus: Sequence[GpuReport], snaps: Sequence[Snapshot], th: Thresholds) -> tuple[Message, str | None]:
    busy = [(g, s) for s in snaps for g in s.gpus if g.processes and g.utilization_gpu_percent is not None]
    if not busy:
        return _m(QT_TRANSLATE_NOOP("report", "no training process was seen on a GPU: GPU-6 cannot be judged")), None
    median = statistics.median(g.utilization_gpu_percent or 0.0 for g, _s in busy)
    if median >= th.util_low:
        return _m(QT_TRANSLATE_NOOP("report", "the GPUs were kept busy: median {util} % while training (GPU-6 asks "
                                    "for ≥ {low} %)"), util=round(median), low=round(th.util_low)), "GPU-6"
    # the most frequent bottleneck among the samples under the threshold
    reasons: dict[str, tuple[int, Message]] = {}
    for g, s in busy:
        if (g.utilization_gpu_percent or 0.0) < th.util_low:
            m = bottleneck(s.host, g, th)
            n, _ = reasons.get(m.template, (0, m))
            reasons[m.template] = (n + 1, m)
    why = max(reasons.values(), key=lambda x: x[0])[1]
    return _m(QT_TRANSLATE_NOOP("report", "the GPUs waited: median {util} % while training, under GPU-6's {low} %; "
                                "most often because {why}"), util=round(median), low=round(th.util_low),
              why=why), "GPU-6"


def duration_text(seconds: float, translate: Callable[[str, str], str] | None = None) -> str:
    """A length of time as people read it: seconds under two minutes, minutes under two hours, then hours
    (a 32 s recording is "32 s", not "0.5 min")."""
    if seconds < 120:
        template, value = QT_TRANSLATE_NOOP("report", "{n} s"), f"{seconds:.0f}"
    elif seconds < 7200:
        template, value = QT_TRANSLATE_NOOP("report", "{n} min"), f"{seconds / 60:.1f}"
    else:
        template, value = QT_TRANSLATE_NOOP("report", "{n} h"), f"{seconds / 3600:.1f}"
    return Message("report", template, {"n": value}).render(translate)


def report(path: str | Path, tariff_cny_per_kwh: float = 0.6, thresholds: Thresholds | None = None) -> RunReport:
    if not (math.isfinite(tariff_cny_per_kwh) and 0 <= tariff_cny_per_kwh <= 100):
        raise RecordingError(_m(QT_TRANSLATE_NOOP("report", "the tariff must be a number from 0 to 100 ¥/kWh")))
    th = thresholds or Thresholds()
    rec = read_recording(path)
    dts = _dt(rec.times)
    gpus = tuple(_gpu(rec, gid, dts) for gid in rec.gpu_ids())
    snaps = _snapshots(rec)
    end = rec.times[-1]
    cpu = _present(rec.col("host.cpu"))
    iowait = _present(rec.col("host.iowait"))
    train = _present(rec.col("host.train_cpu"))
    cpu_energy = [v for v in rec.col("host.cpu_energy") if v is not None]
    cpu_j = cpu_energy[-1] - cpu_energy[0] if len(cpu_energy) >= 2 else None
    gpu_j = [g.energy_j for g in gpus if g.energy_j is not None]
    joules = sum(gpu_j) + (cpu_j or 0.0) if gpu_j or cpu_j is not None else None
    # DataLoader saturation as GPU-6's bottleneck judges it: every worker (or the process itself, without
    # workers) at a full core
    sat_th = th.worker_saturated
    saturated = [(bool(wk) and (mn or 0.0) >= sat_th) or (not wk and (main or 0.0) >= sat_th)
                 for wk, mn, main in zip(rec.col("host.workers"), rec.col("host.workers_min_cpu"),
                                         rec.col("host.main_cpu"), strict=True) if main is not None]
    host = {"cpu_median": _q(cpu, 0.5), "cpu_p95": _q(cpu, 0.95), "iowait_median": _q(iowait, 0.5),
            "iowait_p95": _q(iowait, 0.95), "train_cpu_median": _q(train, 0.5),
            "workers_max": max(_present(rec.col("host.workers")), default=None),
            "workers_saturated_share": sum(saturated) / len(saturated) if saturated else None}
    verdict, rule = _verdict(gpus, snaps, th)
    return RunReport(str(path), rec.times[0], end, len(rec.times), gpus, host, tuple(_replay(snaps, end, th)),
                     verdict, rule, None if joules is None else joules / 3.6e6, cpu_j, tariff_cny_per_kwh,
                     tuple(rec.markers))


def _r(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


def report_to_dict(r: RunReport, render: Callable[[Message], str] | None = None,
                   translate: Callable[[str, str], str] | None = None) -> dict[str, Any]:
    show = render or (lambda m: m.render())
    tr = translate or (lambda _c, t: t)
    return {
        "recording": r.path, "start": r.start, "end": r.end, "duration_s": _r(r.duration_s, 1), "samples": r.samples,
        "verdict": {"rule": r.rule, "text": show(r.verdict)},
        "gpus": [{"id": g.id, "name": g.name or None,
                  "util_median_percent": _r(g.util_median, 1), "util_p95_percent": _r(g.util_p95, 1),
                  "memory_peak_gib": _r(g.memory_peak_gib, 2), "memory_capacity_gib": _r(g.memory_capacity_gib, 2),
                  "power_median_w": _r(g.power_median_w, 1), "power_max_w": _r(g.power_max_w, 1),
                  "energy_j": _r(g.energy_j, 0), "energy_method": g.energy_method,
                  "throttled_s": _r(g.throttled_s, 1), "throttle_reasons": [tr(CTX, x) for x in g.throttle_reasons],
                  "training_s": _r(g.busy_s, 1)} for g in r.gpus],
        "host": {k: _r(v, 1) for k, v in r.host.items()},
        "alerts": [{"rule": a.rule, "subject": a.key.split(":", 1)[-1], "since": a.since, "until": a.until,
                    "seconds": _r(a.seconds, 1), "message": show(a.message)} for a in r.alerts],
        "alert_seconds": {k: _r(v, 1) for k, v in sorted(r.alert_seconds().items())},
        "energy": {"kwh": _r(r.energy_kwh, 4), "cpu_j": _r(r.cpu_energy_j, 0),
                   "tariff_cny_per_kwh": r.tariff_cny_per_kwh, "cost_cny": _r(r.cost_cny, 4)},
        "markers": [{"time": t, "label": label} for t, label in r.markers],
    }


def evidence(r: RunReport) -> Evidence:
    """What the upgrade advisor reads from a run (core/advise.py)."""
    busy = [g for g in r.gpus if g.busy_s > 0] or list(r.gpus)
    utils = [g.util_median for g in busy if g.util_median is not None]
    peaks = [g.memory_peak_gib / g.memory_capacity_gib for g in r.gpus
             if g.memory_peak_gib is not None and g.memory_capacity_gib]
    share = r.host.get("workers_saturated_share")
    cpu = r.host.get("cpu_median")
    return Evidence(
        gpu_util_median=statistics.median(utils) if utils else None,
        vram_peak_fraction=max(peaks) if peaks else None,
        workers_saturated=share is not None and share >= 0.5,
        cpu_busy=cpu is not None and cpu >= Thresholds().cpu_busy,
        iowait_median=r.host.get("iowait_median"),
        pcie_degraded=any(g.pcie_degraded_s >= 0.5 * max(g.busy_s, 1.0) for g in r.gpus),
        throttled_fraction=max((g.throttled_s for g in r.gpus), default=0.0) / max(r.duration_s, 1.0),
        source=Path(r.path).name)


def measured_power(r: RunReport) -> MeasuredPower | None:
    """The machine's mean draw over the run (the GPUs' energy, and the CPU packages' where RAPL was read)
    and its peak (the GPUs' highest readings with the CPU's mean), for the planner's PWR-4 and BUD-3."""
    gpu_j = [g.energy_j for g in r.gpus if g.energy_j is not None]
    if not gpu_j or r.duration_s <= 0:
        return None
    cpu_w = r.cpu_energy_j / r.duration_s if r.cpu_energy_j is not None else 0.0
    peaks = [g.power_max_w for g in r.gpus if g.power_max_w is not None]
    return MeasuredPower(sum(gpu_j) / r.duration_s + cpu_w, sum(peaks) + cpu_w if peaks else None,
                         cpu=r.cpu_energy_j is not None,
                         source=_m(QT_TRANSLATE_NOOP("report", "the recording {name}"), name=Path(r.path).name))
