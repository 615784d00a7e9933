"""This machine's benchmark results as measurements, and the correction they give the planner.

A benchmark run stores its ResNet, GPT-2 and matmul results as :class:`LocalMeasurement` rows of
this machine's hardware (its fingerprint, the date, the software). For a build whose GPUs are all
the benchmarked GPU (or whose CPU is the benchmarked CPU) the planner then shows an estimate
corrected by them: the model's estimate times the ratio of the local measurement to the model's
estimate of that same benchmark (same workload, settings and hardware, :mod:`configurator.core.measured`).
The fit itself is not changed: the correction is a separate factor with its reason.

Matmul results are kept as measurements (the Benchmark tab compares them with the spec-sheet peak)
but do not calibrate: the throughput model does not predict a bare matmul.

Pure Python: no Qt, no database.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from configurator.core import measurements as ms
from configurator.core.findings import Calibrated, Estimate
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.measured import estimate_measurement, match_cpu, match_gpu
from configurator.core.numbers import unit_message
from configurator.core.parts import AnyPart

# The benchmark rows that are measurements of this machine, and the workload family of each.
FAMILIES: dict[str, str] = {
    "resnet18-train": ms.CNN_TRAIN, "resnet50-train": ms.CNN_TRAIN,
    "gpt2-prefill": ms.LLM_PREFILL, "gpt2-decode": ms.LLM_DECODE,
    "matmul-fp32": "matmul", "matmul-tf32": "matmul", "matmul-fp16": "matmul", "matmul-bf16": "matmul",
}
CALIBRATING = ("resnet18-train", "resnet50-train", "gpt2-prefill", "gpt2-decode")
DEVICES = ("cuda", "cpu")
# The estimates a GPU calibration corrects, and the one a CPU calibration corrects.
GPU_KEYS = ("throughput_one_gpu", "throughput_total", "throughput_per_kcny")
CPU_KEYS = ("throughput_cpu",)


@dataclass(frozen=True)
class LocalMeasurement:
    """One benchmark result of this machine, kept as a measurement of its hardware."""

    id: str                      # "local-<run>-<workload>"
    run_id: int | None
    workload: str                # the benchmark row: resnet50-train, gpt2-decode, matmul-bf16, ...
    device: str                  # cuda | cpu
    value: float
    unit: str
    date: str                    # ISO date of the run
    machine: str                 # hash of the hardware fingerprint
    software: str                # "torch 2.5.1, CUDA 12.4"
    hardware_name: str           # the GPU's or CPU's name as fingerprinted
    settings: Mapping[str, Any] = field(default_factory=dict)
    fingerprint: Mapping[str, Any] = field(default_factory=dict)
    peak_memory_gib: float | None = None

    @property
    def family(self) -> str:
        return FAMILIES.get(self.workload, ms.OTHER)

    def to_json(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["settings"], d["fingerprint"] = dict(self.settings), dict(self.fingerprint)
        d["family"] = self.family
        return d


def software_of(settings: Mapping[str, Any], fingerprint: Mapping[str, Any]) -> str:
    torch = settings.get("torch") or fingerprint.get("torch")
    cuda = fingerprint.get("cuda") if settings.get("device") == "cuda" else None
    return ", ".join(x for x in (f"torch {torch}" if torch else "", f"CUDA {cuda}" if cuda else "") if x) or "—"


def hardware_name(device: str, fingerprint: Mapping[str, Any]) -> str:
    if device == "cuda":
        gpus = fingerprint.get("gpus") or []
        return str(gpus[0].get("name") or "") if gpus else ""
    return str(fingerprint.get("cpu") or "")


def from_result(run_id: int | None, workload: str, status: str, value: float | None, unit: str | None,
                settings: Mapping[str, Any], details: Mapping[str, Any], fingerprint: Mapping[str, Any],
                machine: str, started_at: datetime) -> LocalMeasurement | None:
    """The measurement a benchmark result row is, or None (a failed row, or a workload that is not one)."""
    device = str(settings.get("device") or "")
    if status != "ok" or value is None or not unit or workload not in FAMILIES or device not in DEVICES:
        return None
    if not math.isfinite(value) or value <= 0:
        return None
    peak = details.get("peak_memory_gib")
    return LocalMeasurement(
        id=f"local-{run_id}-{workload}" if run_id is not None else f"local-{started_at:%Y%m%dT%H%M%S}-{workload}",
        run_id=run_id, workload=workload, device=device, value=float(value), unit=unit,
        date=started_at.date().isoformat(), machine=machine, software=software_of(settings, fingerprint),
        hardware_name=hardware_name(device, fingerprint), settings=dict(settings), fingerprint=dict(fingerprint),
        peak_memory_gib=float(peak) if isinstance(peak, int | float) else None)


def hardware_id(m: LocalMeasurement, catalogue: Mapping[str, AnyPart]) -> str | None:
    """The catalogue part the measurement was made on (GPU for CUDA, CPU for the CPU), or None."""
    if m.device == "cuda":
        gpus = m.fingerprint.get("gpus") or []
        if not gpus:
            return None
        gpu = match_gpu(str(gpus[0].get("name") or ""), gpus[0].get("memory_gib"), catalogue)
        return gpu.id if gpu is not None else None
    cpu = match_cpu(m.hardware_name, catalogue)
    return cpu.id if cpu is not None else None


@dataclass(frozen=True)
class Point:
    """One local measurement against the model's estimate of it."""

    measurement: LocalMeasurement
    estimated: float

    @property
    def ratio(self) -> float:
        return self.measurement.value / self.estimated


@dataclass(frozen=True)
class Calibration:
    part_id: str
    device: str
    factor: float
    points: tuple[Point, ...]
    same_family: bool     # the factor comes from benchmarks of the build's own workload family

    @property
    def date(self) -> str:
        return max(p.measurement.date for p in self.points)

    def detail(self) -> dict[str, Any]:
        return {"date": self.date, "hardware": self.part_id, "device": self.device,
                "same_family": self.same_family,
                "measurements": [{"id": p.measurement.id, "run": p.measurement.run_id,
                                  "workload": p.measurement.workload, "measured": round(p.measurement.value, 3),
                                  "estimated": round(p.estimated, 3), "unit": p.measurement.unit,
                                  "ratio": round(p.ratio, 3), "software": p.measurement.software,
                                  "machine": p.measurement.machine, "date": p.measurement.date}
                                 for p in self.points]}


def latest(local: Iterable[LocalMeasurement]) -> list[LocalMeasurement]:
    """The newest measurement of each (workload, device, hardware name)."""
    best: dict[tuple[str, str, str], LocalMeasurement] = {}
    for m in local:
        key = (m.workload, m.device, m.hardware_name)
        old = best.get(key)
        if old is None or (m.date, m.run_id or 0) > (old.date, old.run_id or 0):
            best[key] = m
    return list(best.values())


def calibration_for(part_id: str, device: str, family: str, local: Sequence[LocalMeasurement],
                    catalogue: Mapping[str, AnyPart]) -> Calibration | None:
    """The correction for estimates of ``family`` on the catalogue part ``part_id``: the geometric
    mean of measured / estimated over this machine's newest benchmarks of that part in the same
    family, or over all its calibrating benchmarks where none is of that family."""
    points: list[Point] = []
    for m in latest(x for x in local if x.device == device and x.workload in CALIBRATING):
        if hardware_id(m, catalogue) != part_id:
            continue
        est = estimate_measurement(catalogue, m.fingerprint, m.workload, m.settings)
        if est is None or est[0] <= 0 or not _same_unit(est[1], m.unit):
            continue
        points.append(Point(m, est[0]))
    if not points:
        return None
    same = [p for p in points if p.measurement.family == family]
    use = same or points
    factor = math.exp(sum(math.log(p.ratio) for p in use) / len(use))
    return Calibration(part_id, device, factor, tuple(sorted(use, key=lambda p: p.measurement.workload)),
                       bool(same))


def _same_unit(a: str, b: str) -> bool:
    norm = {"images/s": "img/s"}
    return norm.get(a, a) == norm.get(b, b)


def _how(c: Calibration, value: float, unit: str, low: float | None, high: float | None) -> Message:
    points: Message | str = ""
    for p in c.points:
        one = Message("estimates", QT_TRANSLATE_NOOP(
            "estimates", "{workload} measured {measured:,.4g} {unit} where the model estimates {estimated:,.4g} "
                         "(×{ratio:.2f}; {software})"),
            {"workload": p.measurement.workload, "measured": p.measurement.value,
             "unit": unit_message(p.measurement.unit), "estimated": p.estimated, "ratio": p.ratio,
             "software": p.measurement.software})
        points = one if points == "" else Message("estimates", "{a}; {b}", {"a": points, "b": one})
    scope = Message("estimates", QT_TRANSLATE_NOOP(
        "estimates", "benchmarks of this workload family") if c.same_family else QT_TRANSLATE_NOOP(
        "estimates", "no benchmark of this workload family here, so all of this hardware's benchmarks"))
    rng = "" if low is None or high is None else Message("estimates", QT_TRANSLATE_NOOP(
        "estimates", ", likely {low:,.4g}–{high:,.4g}"), {"low": low, "high": high})
    return Message("estimates", QT_TRANSLATE_NOOP(
        "estimates", "Calibrated on this machine's benchmark of {date}: ×{factor:.2f} → ≈ {value:,.4g} {unit}{range}. "
                     "The factor is measured ÷ the model's estimate of the same benchmark on {hardware} ({scope}): "
                     "{points}. The fit itself is unchanged."),
        {"date": c.date, "factor": c.factor, "value": value, "unit": unit_message(unit), "range": rng,
         "hardware": c.points[0].measurement.hardware_name, "scope": scope, "points": points})


def _scaled(x: float | None, factor: float) -> float | None:
    return None if x is None else round(x * factor, 2)


def apply(estimates: Sequence[Estimate], gpu_ids: Sequence[str], cpu_id: str | None, family: str,
          local: Sequence[LocalMeasurement], catalogue: Mapping[str, AnyPart]) -> list[Estimate]:
    """``estimates`` with the throughput ones carrying their calibration, where this machine has one:
    the GPU estimates when every counted GPU is the benchmarked GPU, the CPU estimate when the build's
    CPU is the benchmarked CPU."""
    if not local:
        return list(estimates)
    gpu = (calibration_for(gpu_ids[0], "cuda", family, local, catalogue)
           if gpu_ids and len(set(gpu_ids)) == 1 else None)
    cpu = calibration_for(cpu_id, "cpu", family, local, catalogue) if cpu_id else None
    out = []
    for e in estimates:
        c = gpu if e.key in GPU_KEYS else cpu if e.key in CPU_KEYS else None
        if c is None or e.value is None:
            out.append(e)
            continue
        value = round(e.value * c.factor, 2)
        low, high = _scaled(e.low, c.factor), _scaled(e.high, c.factor)
        cal = Calibrated(value, low, high, round(c.factor, 3), _how(c, value, e.unit, low, high), c.detail())
        out.append(dataclasses.replace(e, calibration=cal))
    return out
