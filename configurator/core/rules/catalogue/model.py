"""What one entry of the rules catalogue is: a rule's ID, where it comes from, how severe its
findings can be and why it exists. Pure data, no Qt."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

# checked: the app evaluates it (a planner finding, a monitor alert, a doctor check, a benchmark
#          comparison, a preset or an estimate's input); the code cites the ID.
# advice:  the guide's advice or figure, documented here; the app shows no finding for it.
# planned: the app is meant to check it and does not yet; no code may cite it until it does.
Status = Literal["checked", "advice", "planned"]

# Where a rule shows up.
Where = Literal["planner", "monitor", "doctor", "benchmark", "estimates", "presets", "advisor"]

# Severities of planner findings and monitor alerts (RULES.md's policy), and the doctor's
# verdicts ("fail", "warn"), which are not findings.
SEVERITY_KEYS = ("error", "warning", "info", "fail", "warn")


@dataclass(frozen=True)
class Rule:
    id: str
    source: str  # the guide section ("G 六.3", "M 1.1, 1.3") or the basis ("vendor specs")
    title: str  # one line, translatable (context "rule catalogue")
    checks: str  # what the app checks and why, for docs/rules.md (English)
    severity: Mapping[str, str] = field(default_factory=dict)  # severity -> when it is given
    where: tuple[Where, ...] = ("planner",)
    status: Status = "checked"
    errata: tuple[int, ...] = ()  # numbers of the errata this rule must not repeat

    @property
    def topic(self) -> str:
        return self.id.split("-", 1)[0]


@dataclass(frozen=True)
class Erratum:
    number: int
    source: str
    claim: str  # what the guide says
    correction: str  # what the app says instead, and why
    rules: tuple[str, ...] = ()
