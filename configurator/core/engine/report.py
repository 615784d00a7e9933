"""What ``check()`` returns, the :class:`Report`, and how its figures are read and shown: the build's
main throughput, a throughput's significant digits, the break-even finding; and :func:`message`, the
estimates' translatable sentence every estimate module builds its wording with."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from configurator.core.build import Build
from configurator.core.findings import Estimate, Finding
from configurator.core.i18n import Message, Translate
from configurator.core.parts import FieldError
from configurator.core.pcie import Placement


@dataclass(frozen=True)
class Report:
    build: Build
    total_cny: int
    findings: tuple[Finding, ...]
    estimates: tuple[Estimate, ...]
    placement: Placement | None = None  # slots, M.2 connectors (None: no board)
    gpus_counted: int = 0  # GPUs the estimates count: cards in a slot, modules on a baseboard
    # The workload's own problems (a form can hold what a build file may not, e.g. int8 training): the
    # build is then judged without its workload, and is not ok.
    workload_errors: tuple[FieldError, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.workload_errors and not any(f.severity == "error" for f in self.findings)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    def estimate(self, key: str) -> Estimate | None:
        return next((e for e in self.estimates if e.key == key), None)

    def to_json(self, translate: Translate | None = None) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "name": self.build.name,
            "total_cny": self.total_cny,
            "budget_cny": self.build.budget_cny,
            "gpus_counted": self.gpus_counted,
            "findings": [f.to_json(translate) for f in self.findings],
            "estimates": [e.to_json(translate) for e in self.estimates],
            **({"workload_errors": [{"path": e.path, "message": e.message.render(translate)}
                                    for e in self.workload_errors]} if self.workload_errors else {}),
        }


# The estimates that are the build's throughput, the first found (PWR-4's per watt, the sheet's chart): the
# machine's total, a serving workload's output tokens/s at its load, the CPU alone.
MAIN_THROUGHPUT = ("throughput_total", "serving_output_tokens_per_s", "throughput_cpu")


def throughput_figure(value: float) -> float:
    """A throughput as the report gives it: at least 3 significant digits and at least one decimal (5,433.7 and
    50.9 tokens/s, 4.59 img/s, 0.0312 img/s: FLUX.1-dev's 0.03 img/s is not rounded to 0.0)."""
    if value == 0 or not math.isfinite(value):
        return value
    return round(value, max(1, 2 - math.floor(math.log10(abs(value)))))


def main_throughput(report: Report) -> Estimate | None:
    """The build's throughput estimate (:data:`MAIN_THROUGHPUT`), None where it has none."""
    return next((e for k in MAIN_THROUGHPUT if (e := report.estimate(k)) is not None), None)


def message(template: str, **params: Any) -> Message:
    """A sentence of the estimates (translation context ``estimates``) with its parameters."""
    return Message("estimates", template, params)


def break_even(report: Report) -> Finding | None:
    """The finding that says in how many months the build pays for itself against renting (its
    ``numbers["months"]``), if the build has one."""
    return next((f for f in report.findings if f.rule == "BUD-3" and f.numbers.get("months") is not None), None)
