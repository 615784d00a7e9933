"""Findings and estimates: the engine's output, as data (DESIGN.md convention 7)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message, Translate

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


# What a rule rests on where it is not a guide's section ("G 六.3", "M 1.1": references, shown as written).
SOURCE_WORDS: dict[str, str] = {
    "vendor specs": QT_TRANSLATE_NOOP("sources", "vendor specs"),
    "first principles": QT_TRANSLATE_NOOP("sources", "first principles"),
    "board manual": QT_TRANSLATE_NOOP("sources", "board manual"),
    "board manuals": QT_TRANSLATE_NOOP("sources", "board manuals"),
    "common practice": QT_TRANSLATE_NOOP("sources", "common practice"),
    "common practice (d2l, Dettmers)": QT_TRANSLATE_NOOP("sources", "common practice (d2l, Dettmers)"),
    "published measurements": QT_TRANSLATE_NOOP("sources", "published measurements"),
}


def source_text(source: str, translate: Translate | None = None) -> str:
    """A finding's or rule's source in the reader's language: each comma-separated basis word translated,
    guide sections and standards ("G 六.3", "ATX 3.x") as written."""
    if translate is None:
        return source
    if source in SOURCE_WORDS:
        return translate("sources", SOURCE_WORDS[source])
    return ", ".join(translate("sources", SOURCE_WORDS[p]) if p in SOURCE_WORDS else p
                     for p in source.split(", "))


Confidence = Literal["high", "medium", "low"]

CONFIDENCE_LABELS = {
    "high": QT_TRANSLATE_NOOP("estimates", "high confidence"),
    "medium": QT_TRANSLATE_NOOP("estimates", "medium confidence"),
    "low": QT_TRANSLATE_NOOP("estimates", "low confidence"),
}

# What each estimate is, for people (the key stays in JSON).
ESTIMATE_LABELS = {
    "peak_power_w": QT_TRANSLATE_NOOP("estimates", "Peak power"),
    "training_draw_w": QT_TRANSLATE_NOOP("estimates", "Draw while training"),
    "serving_draw_w": QT_TRANSLATE_NOOP("estimates", "Draw while serving"),
    "vram_per_gpu_gib": QT_TRANSLATE_NOOP("estimates", "VRAM per GPU"),
    "largest_batch": QT_TRANSLATE_NOOP("estimates", "Largest batch that fits"),
    "ram_first_principles_gib": QT_TRANSLATE_NOOP("estimates", "RAM (first principles)"),
    "ram_guide_formula_gib": QT_TRANSLATE_NOOP("estimates", "RAM (guide's formula)"),
    "throughput_one_gpu": QT_TRANSLATE_NOOP("estimates", "Throughput, one GPU"),
    "throughput_batch": QT_TRANSLATE_NOOP("estimates", "Throughput, all streams of the batch"),
    "prefill_tokens_per_s": QT_TRANSLATE_NOOP("estimates", "Prefill"),
    "scaling_efficiency": QT_TRANSLATE_NOOP("estimates", "Multi-GPU scaling efficiency"),
    "throughput_total": QT_TRANSLATE_NOOP("estimates", "Throughput, whole build"),
    "throughput_per_kcny": QT_TRANSLATE_NOOP("estimates", "Throughput per ¥1000"),
    "throughput_cpu": QT_TRANSLATE_NOOP("estimates", "CPU alone"),
    "cluster_throughput": QT_TRANSLATE_NOOP("estimates", "Throughput, all nodes"),
    "cluster_scaling_efficiency": QT_TRANSLATE_NOOP("estimates", "Scaling across nodes"),
    "cluster_price_cny": QT_TRANSLATE_NOOP("estimates", "Price, all nodes"),
    "cluster_power_w": QT_TRANSLATE_NOOP("estimates", "Draw while training, all nodes"),
    "throughput_not_estimated": QT_TRANSLATE_NOOP("estimates", "Throughput"),
    # a serving workload (task serve, core/estimate/serving.py), in the order the engine gives them
    "serving_max_concurrency": QT_TRANSLATE_NOOP("estimates", "Most requests in flight"),
    "serving_output_tokens_per_s": QT_TRANSLATE_NOOP("estimates", "Output tokens/s"),
    "serving_requests_per_s": QT_TRANSLATE_NOOP("estimates", "Requests/s"),
    "serving_ttft_ms": QT_TRANSLATE_NOOP("estimates", "Time to first token (TTFT)"),
    "serving_tpot_ms": QT_TRANSLATE_NOOP("estimates", "Time per output token (TPOT)"),
    "serving_not_estimated": QT_TRANSLATE_NOOP("estimates", "Serving"),
}
# The serving estimates, in the order the engine gives them and the planner and the PDF show them.
SERVING_KEYS = ("serving_max_concurrency", "serving_output_tokens_per_s", "serving_requests_per_s",
                "serving_ttft_ms", "serving_tpot_ms")


def estimate_label(key: str, translate: Translate | None = None) -> str:
    """An estimate's name in the reader's language (its key where none is known: a new estimate is never
    hidden)."""
    text = ESTIMATE_LABELS.get(key)
    if text is None:
        return key
    return translate("estimates", text) if translate is not None else text



@dataclass(frozen=True)
class Calibrated:
    """An estimate corrected by this machine's own benchmark (configurator.core.calibration): the
    model's value times ``factor`` (measured / the model's estimate of the same benchmark on the same
    hardware), said in ``how``; ``detail`` is the JSON of what it rests on."""

    value: float
    low: float | None
    high: float | None
    factor: float
    how: Message
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self, translate: Translate | None = None) -> dict[str, Any]:
        return {"value": self.value, "low": self.low, "high": self.high, "factor": self.factor,
                "how": self.how.render(translate), **self.detail}


@dataclass(frozen=True)
class Estimate:
    """A number the engine derived, with how it was made and how sure it is."""

    key: str
    value: float | None
    unit: str
    how: Message
    inputs: dict[str, Any] = field(default_factory=dict)
    confidence: Confidence = "medium"
    # The likely range (throughput: from the model's leave-one-GPU-out error) and what it rests on:
    # {"family", "measurements", "cv_median_error", "cv_p90_error", "matched": [{"id", "value", "unit",
    # "source_url", "software"}]}; None where the estimate has no measured basis.
    low: float | None = None
    high: float | None = None
    basis: dict[str, Any] | None = None
    # Corrected by this machine's benchmark of the same hardware; None where there is none.
    calibration: Calibrated | None = None

    def to_json(self, translate: Translate | None = None) -> dict[str, Any]:
        return {
            "key": self.key,
            "value": self.value,
            "unit": self.unit,
            "how": self.how.render(translate),
            "inputs": self.inputs,
            "confidence": self.confidence,
            "low": self.low,
            "high": self.high,
            "basis": self.basis,
            "calibration": self.calibration.to_json(translate) if self.calibration is not None else None,
        }
