"""The guides' reference figures (RULES.md REF-1..3, PCI-5) that measurements are compared with.

A reference applies to a result row when its workload matches, it was measured on the same
kind of device (every figure of the guides is a GPU's: a CPU result is never compared with
one) and, where it says so, the precision matches (REF-1 has FP32 and AMP figures). Each
names its source and the hardware it was measured on, so a comparison never suggests more
than it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from configurator.bench.i18n import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class Reference:
    rule: str
    section: str
    row: str
    value: float
    unit: str
    label: str  # translatable, context "bench"
    amp: bool | None = None  # None: any precision
    processes: int | None = None  # for scaling references
    device: str = "cuda"  # the kind of device it was measured on


REFERENCES: tuple[Reference, ...] = (
    Reference("REF-1", "G 五", "resnet50-train", 230.0, "img/s",
              QT_TRANSLATE_NOOP("bench", "RTX 3090, FP32, ImageNet (G 五)"), amp=False),
    Reference("REF-1", "G 五", "resnet50-train", 460.0, "img/s",
              QT_TRANSLATE_NOOP("bench", "RTX 3090, AMP, ImageNet (G 五)"), amp=True),
    # REF-2: a GTX 1660 Super reaches 37 % of an RTX 3090 on ResNet-18; the guide gives no absolute figure.
    Reference("REF-3", "M 2.1", "gpt2-decode", 512 / 8.0, "tokens/s",
              QT_TRANSLATE_NOOP("bench", "RTX 3060, GPT-2 Small, 512 tokens in ~8 s (M 2.1)")),
)

# PCI-5 (G 二.3): 4× RTX 3090 with NVLink, data-parallel speed-up: theoretical 3.7×, measured 3.5×.
SCALING_REFERENCE = {"rule": "PCI-5", "section": "G 二.3", "processes": 4, "theoretical": 3.7, "measured": 3.5}


def references_for(row: str, settings: dict[str, Any] | None = None, device: str | None = None) -> list[Reference]:
    """The references for a result row measured on ``device`` (its settings' "device" if not given)."""
    amp = bool((settings or {}).get("amp"))
    device = device or str((settings or {}).get("device") or "cuda")
    return [r for r in REFERENCES if r.row == row and r.device == device and (r.amp is None or r.amp == amp)]


def other_device_references(row: str, device: str) -> list[Reference]:
    """References for this row measured on another kind of device (named, never compared with)."""
    return [r for r in REFERENCES if r.row == row and r.device != device]


def percent_diff(measured: float, reference: float) -> float | None:
    """(measured − reference) / reference in percent; None for a zero reference."""
    if not reference:
        return None
    return (measured - reference) / reference * 100.0
