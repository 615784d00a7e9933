"""One GPU's memory estimate by term (:class:`VramBreakdown`) and how its terms add up to a central figure and a
range (:func:`finish_breakdown`: the activation error, the allocator margin, the CUDA context, a display, the
published ratio).
"""

from __future__ import annotations

from dataclasses import dataclass

from configurator.core.estimate.memory.constants import (
    ACTIVATION_ERROR,
    CUDA_CONTEXT_GIB,
    DISPLAY_GIB,
    FRAGMENTATION,
    Saved,
)
from configurator.core.units import GIB


@dataclass(frozen=True)
class VramBreakdown:
    weights: float
    gradients: float
    optimizer: float
    activations: float
    kv_cache: float
    context: float
    per_sample: float  # bytes that grow with the batch (before the allocator margin)
    autocast_copies: float = 0.0
    logits: float = 0.0
    recompute: float = 0.0
    display: float = 0.0
    margin: float = 0.0  # caching allocator (central)
    low: float = 0.0
    high: float = 0.0
    low_unwidened: float = 0.0  # the range from the terms' own errors, before PUBLISHED_RATIO widens it
    high_unwidened: float = 0.0
    offloaded: float = 0.0  # optimizer states in host RAM (ZeRO-Offload)
    pageable: float = 0.0  # of ``optimizer``: paged states (unified memory) that page out to host RAM under pressure
    host_activations: float = 0.0  # saved tensors offloaded to pinned host memory

    @property
    def total(self) -> float:
        return (self.weights + self.gradients + self.optimizer + self.activations + self.autocast_copies
                + self.logits + self.recompute + self.kv_cache + self.margin + self.context + self.display)

    def gib(self) -> dict[str, float]:
        keys = ("weights", "gradients", "optimizer", "activations", "autocast_copies", "logits", "recompute",
                "kv_cache", "margin", "context", "display", "total", "low", "high", "offloaded", "pageable",
                "host_activations")
        return {k: round(getattr(self, k) / GIB, 2) for k in keys}


def finish_breakdown(weights: float, grads: float, optimizer: float, saved: Saved, kv: float,
            per_sample: float, display_gpu: bool, offloaded: float, *, pageable: float = 0.0,
            host_activations: float = 0.0, widen: tuple[float, float] = (1.0, 1.0)) -> VramBreakdown:
    """The sum and its range. Low: the saved tensors ACTIVATION_ERROR under, no allocator margin, the
    smallest context, and paged optimizer states paged out to the host; high: ACTIVATION_ERROR over, the
    largest margin and context; both widened to ``widen`` × the estimate where that is wider (training:
    PUBLISHED_RATIO, the published peaks being training recipes')."""
    dynamic = saved.activations + saved.autocast_copies + saved.logits + saved.recompute + kv
    exact = weights + grads + optimizer
    ctx_low, ctx, ctx_high = (x * GIB for x in CUDA_CONTEXT_GIB)
    disp_low, disp, disp_high = ((x * GIB for x in DISPLAY_GIB) if display_gpu else (0.0, 0.0, 0.0))
    low = exact - pageable + dynamic * (1 - ACTIVATION_ERROR) * (1 + FRAGMENTATION[0]) + ctx_low + disp_low
    high = exact + dynamic * (1 + ACTIVATION_ERROR) * (1 + FRAGMENTATION[2]) + ctx_high + disp_high
    total = exact + dynamic * (1 + FRAGMENTATION[1]) + ctx + disp
    return VramBreakdown(weights, grads, optimizer, saved.activations, kv, ctx, per_sample,
                         autocast_copies=saved.autocast_copies, logits=saved.logits, recompute=saved.recompute,
                         display=disp, margin=dynamic * FRAGMENTATION[1],
                         low=min(low, total * widen[0]), high=max(high, total * widen[1]),
                         low_unwidened=low, high_unwidened=high, offloaded=offloaded,
                         pageable=pageable, host_activations=host_activations)
