"""What a build sheet contains (data, not layout): the PDF writer and the planner tab's
summary both render this."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from configurator.core.build import MAX_NAME_CHARS, Build, resolve
from configurator.core.engine import Report, check
from configurator.core.parts import FIELD_LABELS, SUMMARY_FIELDS, AnyPart, field_unit, part_to_dict
from configurator.core.pcie import Seat
from configurator.core.presets import Preset, presets


@dataclass(frozen=True)
class SheetRow:
    qty: int
    part: AnyPart
    used: bool
    specs: tuple[tuple[str, str, str, object], ...]  # (field, label, unit, value)

    @property
    def subtotal(self) -> int:
        return self.part.price_cny * self.qty


@dataclass(frozen=True)
class Bar:
    key: str  # "price", "power", "vram", "ram"
    value: float
    limit: float | None
    unit: str

    @property
    def ratio(self) -> float | None:
        return self.value / self.limit if self.limit else None


@dataclass(frozen=True)
class ChartPoint:
    label: str
    value: float
    this_build: bool


@dataclass
class Sheet:
    title: str
    day: date
    build: Build
    report: Report
    rows: list[SheetRow]
    bars: list[Bar]
    seats: list[Seat]
    chart: list[ChartPoint] = field(default_factory=list)
    chart_unit: str = ""
    benchmark: list[tuple[str, float, str]] = field(default_factory=list)  # linked run: workload, value, unit


def sheet_title(name: str) -> str:
    """The build's name as a sheet shows it: at most MAX_NAME_CHARS characters (a build file cannot name a
    longer one; a build made in code is clipped, with an ellipsis)."""
    return name if len(name) <= MAX_NAME_CHARS else name[:MAX_NAME_CHARS - 1] + "…"


def _specs(part: AnyPart) -> tuple[tuple[str, str, str, object], ...]:
    d = part_to_dict(part)
    return tuple((f, FIELD_LABELS[f][0], field_unit(part.category, f), d[f]) for f in SUMMARY_FIELDS[part.category][:4])


def build_sheet(build: Build, catalogue: Mapping[str, AnyPart], report: Report | None = None,
                with_chart: bool = True, today: date | None = None) -> Sheet:
    report = report or check(build, catalogue)
    r = resolve(build, catalogue)
    rows = [SheetRow(bp.qty, part, bp.used, _specs(part)) for part, bp in r.items]
    bars = [Bar("price", report.total_cny, build.budget_cny, "¥")]
    peak = report.estimate("peak_power_w")
    if peak is not None and peak.value is not None and r.items:
        bars.append(Bar("power", peak.value, float(r.psu_watts) if r.psus else None, "W"))  # PWR-5: all supplies
    vram = report.estimate("vram_per_gpu_gib")
    if vram is not None and vram.value is not None and r.gpu_list:
        bars.append(Bar("vram", vram.value, float(min(g.vram_gb for g in r.gpu_list)), "GiB"))
    ram = report.estimate("ram_first_principles_gib")
    if ram is not None and ram.value is not None:
        bars.append(Bar("ram", ram.value, float(r.ram_gb) if r.memory else None, "GiB"))
    # the engine's layout: slots per CPU socket, lanes after M.2 sharing (PCI-9, PCI-10)
    seats: list[Seat] = list(report.placement.seats) if report.placement is not None else []
    sheet = Sheet(sheet_title(build.name or ""), today or date.today(), build, report, rows, bars, seats)
    if with_chart and build.workload is not None:
        sheet.chart, sheet.chart_unit = throughput_chart(build, catalogue, report)
    return sheet


def main_throughput(report: Report) -> tuple[float | None, str]:
    est = report.estimate("throughput_total") or report.estimate("throughput_cpu")
    if est is None:
        return None, ""
    return (float(est.value) if est.value is not None else None), est.unit


def throughput_chart(build: Build, catalogue: Mapping[str, AnyPart], report: Report,
                     tiers: list[Preset] | None = None) -> tuple[list[ChartPoint], str]:
    """This build's estimate beside the guides' tiers, each estimated for the same workload."""
    value, unit = main_throughput(report)
    points = [ChartPoint(sheet_title(build.name) or "this build", value or 0.0, True)]
    for preset in tiers if tiers is not None else presets(catalogue):
        tier_build = Build(preset.build.parts, name=preset.tier.id, options=preset.build.options,
                           workload=build.workload)
        v, tier_unit = main_throughput(check(tier_build, catalogue))
        unit = unit or tier_unit  # an empty build has no estimate of its own: the axis still gets its unit
        points.append(ChartPoint(preset.tier.id, v or 0.0, False))
    return points, unit



def round_ticks(top: float, count: int = 4) -> list[float]:
    """Axis ticks from 0 to at least ``top`` on a round step (1, 2, 2.5 or 5 × 10^k), about ``count`` of them."""
    if top <= 0:
        return [0.0, 1.0]
    raw = top / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    n = math.ceil(top / step - 1e-9)
    return [round(i * step, 10) for i in range(n + 1)]


def tick_text(value: float, ticks: list[float]) -> str:
    """A tick's label: whole numbers with thousands separators, fractions only where the step has them."""
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    return f"{value:,.0f}" if float(step).is_integer() else f"{value:,.2f}".rstrip("0").rstrip(".")
