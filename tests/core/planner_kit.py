from __future__ import annotations

import dataclasses
from typing import Any

from configurator.core.build import Build, BuildPart, Options, Workload
from configurator.core.engine import Report, check
from configurator.core.parts import AnyPart
from configurator.store.catalogue import load_catalogue

CATALOGUE = {p.id: p for p in load_catalogue()}


BASE = {
    "gpu": "nvidia-rtx-3090",
    "cpu": "amd-ryzen-9-5950x",
    "board": "asus-proart-b550-creator",
    "memory": "corsair-vengeance-lpx-64gb-2x32gb-ddr4-3200",
    "storage": "samsung-990-pro-2tb",
    "psu": "seasonic-prime-px-1600",
    "case": "fractal-design-define-7-xl",
}


class Kit:
    """Build a build from part ids, tweaking parts' specs where a test needs a threshold."""

    def __init__(self, catalogue: dict[str, AnyPart]):
        self.catalogue = catalogue

    def tweak(self, part_id: str, **changes: Any) -> str:
        self.catalogue[part_id] = dataclasses.replace(self.catalogue[part_id], **changes)
        return part_id

    def build(self, *parts: str | tuple[str, int] | BuildPart, workload: Workload | None = None,
              budget: float | None = None, **options: Any) -> Build:
        items = []
        for p in parts:
            if isinstance(p, BuildPart):
                items.append(p)
            elif isinstance(p, tuple):
                items.append(BuildPart(p[0], p[1]))
            else:
                items.append(BuildPart(p))
        return Build(tuple(items), budget_cny=budget, options=Options(**options), workload=workload)

    def check(self, *parts: str | tuple[str, int] | BuildPart, **kw: Any) -> Report:
        return check(self.build(*parts, **kw), self.catalogue)

    def standard(self, **replace: str | tuple[str, int] | None) -> list[str | tuple[str, int]]:
        chosen = {**BASE, **replace}
        return [v for v in chosen.values() if v is not None]


def rules(report: Report, severity: str | None = None) -> list[str]:
    return [f.rule for f in report.findings if severity is None or f.severity == severity]


def finding(report: Report, rule: str, severity: str | None = None):  # type: ignore[no-untyped-def]
    found = [f for f in report.findings if f.rule == rule and (severity is None or f.severity == severity)]
    return found[0] if found else None

