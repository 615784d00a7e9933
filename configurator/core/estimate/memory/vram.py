"""The GPU memory estimate the rules and the planner ask for (:func:`vram_per_gpu`, cached), its three-way
verdict against a card, and the largest batch that fits.
"""

from __future__ import annotations

import dataclasses
import functools

from configurator.core.build import Workload
from configurator.core.estimate.memory.breakdown import VramBreakdown
from configurator.core.estimate.memory.inference import inference_vram
from configurator.core.estimate.memory.training import training_vram
from configurator.core.units import GIB


@functools.lru_cache(maxsize=4096)
def vram_per_gpu(w: Workload, n_gpus: int, batch: int | None = None, display_gpu: bool = False) -> VramBreakdown:
    """The estimate for the GPU that needs the most (the display GPU when ``display_gpu``). A pure function
    of frozen inputs with a frozen result, cached: every check, the largest-batch search and Suggest's
    thousands of checks ask it the same few questions."""
    spec = w.spec()
    b = batch if batch is not None else w.effective_batch
    n = max(n_gpus, 1)
    if w.task == "train":
        # fp8 training (Transformer Engine, torchao float8) keeps bf16 weights, fp32 master weights and bf16
        # activations; its FP8 casts of each GEMM's inputs are transient
        trained = dataclasses.replace(w, precision="bf16") if w.precision == "fp8" else w
        return training_vram(trained, spec, n, b, display_gpu)
    return inference_vram(w, spec, n, b, display_gpu)


def verdict(v: VramBreakdown, capacity_gib: float) -> str:
    """"fits" when even the high end fits, "tight" when only the low end does, else "does_not_fit"."""
    cap = capacity_gib * GIB
    if v.high <= cap:
        return "fits"
    if v.low <= cap:
        return "tight"
    return "does_not_fit"


def largest_batch(w: Workload, n_gpus: int, vram_gib: float, display_gpu: bool = False) -> int:
    """Largest per-GPU batch whose estimate fits (the high end within the card; 0 if even one sample does not)."""
    def fits(b: int) -> bool:
        return verdict(vram_per_gpu(w, n_gpus, batch=b, display_gpu=display_gpu), vram_gib) == "fits"

    if not fits(1):
        return 0
    lo, hi = 1, 2
    while fits(hi):
        lo, hi = hi, hi * 2
        if hi > 1 << 24:
            return lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo
