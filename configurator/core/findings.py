"""Findings and estimates: the engine's output, as data (DESIGN.md convention 7)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from configurator.core.i18n import Message, Translate

Severity = Literal["error", "warning", "info"]
SEVERITY_ORDER: dict[str, int] = {"error": 0, "warning": 1, "info": 2}


@dataclass(frozen=True)
class Finding:
    """One rule's verdict: ``rule`` is a RULES.md ID, ``source`` its section (``G 六.3``)."""

    rule: str
    severity: Severity
    source: str
    message: Message
    numbers: dict[str, Any] = field(default_factory=dict)
    guide: str | None = None  # the guide's own words, where the rule quotes it

    def to_json(self, translate: Translate | None = None) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "severity": self.severity,
            "source": self.source,
            "message": self.message.render(translate),
            "numbers": self.numbers,
            **({"guide": self.guide} if self.guide else {}),
        }


Confidence = Literal["high", "medium", "low"]


@dataclass(frozen=True)
class Estimate:
    """A number the engine derived, with how it was made and how sure it is."""

    key: str
    value: float | None
    unit: str
    how: Message
    inputs: dict[str, Any] = field(default_factory=dict)
    confidence: Confidence = "medium"

    def to_json(self, translate: Translate | None = None) -> dict[str, Any]:
        return {
            "key": self.key,
            "value": self.value,
            "unit": self.unit,
            "how": self.how.render(translate),
            "inputs": self.inputs,
            "confidence": self.confidence,
        }
