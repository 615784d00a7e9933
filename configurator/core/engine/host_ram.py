"""The host RAM estimates: from first principles (with its range from its own terms) and by the guide's
RAM-1 formula."""

from __future__ import annotations

from collections.abc import Mapping

from configurator.core.build import Workload
from configurator.core.engine.report import message as _m
from configurator.core.estimate.memory import RamEstimate, host_weight_copies, load_bytes_per_param
from configurator.core.findings import Estimate
from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.parts import Gpu


def ram_estimates(gpus: list[Gpu], w: Workload, ram: RamEstimate) -> list[Estimate]:
    """Host RAM two ways: from first principles, and by the guide's RAM-1 formula."""
    copies = host_weight_copies(w, len(gpus))
    return [
        Estimate("ram_first_principles_gib", ram.first_principles_gib, "GiB",
                 _m(QT_TRANSLATE_NOOP(
                     "estimates",
                     "First principles: OS and libraries + the host copies of the weights while loading "
                     "({copies} × {bytes:g} B per parameter: one per process, one in all for FSDP / ZeRO-3 "
                     "rank-0 loading and memory-mapped inference runtimes) + DataLoader prefetch (4 "
                     "workers × 2 batches per GPU) + what offloading keeps in host RAM."),
                    copies=copies, bytes=load_bytes_per_param(w)),
                 ram.parts, "medium", *_ram_range(ram.first_principles_gib, ram.parts, copies),
                 {"family": None, "measurements": 0, "prior": True, "matched": []}),
        Estimate("ram_guide_formula_gib", ram.guide_gib, "GiB",
                 _m(QT_TRANSLATE_NOOP(
                     "estimates",
                     "The guide's RAM-1 formula: params × batch × 4 B × 1.2, halved for mixed precision "
                     "(G 三.2).")),
                 {"params": w.spec().params, "batch": w.effective_batch}, "low",
                 round(ram.guide_gib / GUIDE_RAM_MARGIN, 2), ram.guide_gib,
                 {"family": None, "measurements": 0, "prior": True, "matched": []}),
    ]


# The guide's RAM-1 formula multiplies by 1.2 (its margin): its range runs from the product without that margin
# to the formula's figure.
GUIDE_RAM_MARGIN = 1.2


def _ram_range(total: float, parts: Mapping[str, float], copies: int) -> tuple[float, float]:
    """The first-principles host RAM's range (no measured RAM figures: from its own terms): the OS-and-libraries
    figure (memory.HOST_BASE_GIB, a stated prior) half to one and a half times; the weights' host copies from one
    (ranks that load in turn) to all of them at once (as counted)."""
    base = parts.get("base", 0.0)
    weights = parts.get("weights", 0.0)
    low = total - base / 2 - (weights * (copies - 1) / copies if copies > 1 else 0.0)
    return round(max(low, 0.0), 2), round(total + base / 2, 2)
