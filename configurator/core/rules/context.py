"""What every rule reads: the resolved build and the estimates computed once per check."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from configurator.core.build import Resolved, Workload
from configurator.core.cloud import CloudPrice
from configurator.core.estimate.memory import RamEstimate, VramBreakdown
from configurator.core.estimate.power import MeasuredPower, PowerEstimate
from configurator.core.findings import Finding, Severity
from configurator.core.i18n import Message
from configurator.core.parts import AnyPart, Gpu
from configurator.core.pcie import Placement


@dataclass
class Ctx:
    r: Resolved
    power: PowerEstimate
    placement: Placement | None
    vram: VramBreakdown | None  # per GPU, for the workload
    ram: RamEstimate | None
    findings: list[Finding] = field(default_factory=list)
    counted: list[Gpu] = field(default_factory=list)  # GPUs in a slot or on a baseboard (engine.counted_gpus)
    cloud: tuple[CloudPrice, ...] = ()  # BUD-3's rental prices
    measured: MeasuredPower | None = None  # PWR-4, BUD-3: the draw measured on this machine, if any
    # The parts a fix may name (PCI-2/PCI-3: the boards that take every card); empty where only the verdict is
    # wanted (Suggest's thousands of checks).
    catalogue: Mapping[str, AnyPart] = field(default_factory=dict)

    @property
    def workload(self) -> Workload | None:
        return self.r.build.workload

    def add(self, rule: str, severity: Severity, source: str, template: str,
            numbers: dict[str, Any] | None = None, guide: str | None = None, **params: Any) -> None:
        self.findings.append(Finding(rule, severity, source, Message("rules", template, params),
                                     dict(numbers or {}), guide))
