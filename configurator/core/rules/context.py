"""What every rule reads: the resolved build and the estimates computed once per check."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from configurator.core.build import Resolved, Workload
from configurator.core.cloud import CloudPrice
from configurator.core.estimate.memory import RamEstimate, VramBreakdown
from configurator.core.estimate.power import MeasuredPower, PowerEstimate
from configurator.core.findings import Finding, Severity
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import FIELD_LABELS, AnyPart, Gpu, Part
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
            numbers: dict[str, Any] | None = None, guide: str | None = None,
            rests_on: Iterable[tuple[Part | None, str]] = (), **params: Any) -> None:
        """Add a finding. ``rests_on``: the parts' figures it was judged on, as (part, field name); where one
        is in its part's ``unverified`` list, the message ends "check the vendor's figure" and the numbers
        name it (``"unverified": ["part-id.field", ...]``)."""
        message = Message("rules", template, params)
        numbers = dict(numbers or {})
        doubtful = unverified_figures(rests_on)
        if doubtful:
            message = check_vendor(message, doubtful)
            numbers["unverified"] = [f"{p.id}.{name}" for p, name in doubtful]
        self.findings.append(Finding(rule, severity, source, message, numbers, guide))


def unverified_figures(rests_on: Iterable[tuple[Part | None, str]]) -> list[tuple[Part, str]]:
    """The (part, field) pairs of ``rests_on`` that their part lists as unverified, each once, in order."""
    out: list[tuple[Part, str]] = []
    for part, name in rests_on:
        if part is not None and name in part.unverified and all(
                (p.id, n) != (part.id, name) for p, n in out):
            out.append((part, name))
    return out


def check_vendor(message: Message, doubtful: list[tuple[Part, str]]) -> Message:
    """``message`` followed by the sentence that names the unverified figures it rests on."""
    figures: Message | str = ""
    for part, name in doubtful:
        label = FIELD_LABELS.get(name, (name, ""))[0]
        one = Message("rules", QT_TRANSLATE_NOOP("rules", "{part}'s {field}"),
                      {"part": part.name, "field": Message("parts", label)})
        figures = one if figures == "" else Message("rules", QT_TRANSLATE_NOOP("rules", "{a}; {b}"),
                                                      {"a": figures, "b": one})
    return Message("rules", QT_TRANSLATE_NOOP(
        "rules", "{finding} This rests on a figure not verified against a vendor source ({figures}): check the "
        "vendor's figure."), {"finding": message, "figures": figures})
