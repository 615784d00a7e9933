"""VRAM and host RAM needed by a workload (FIT-1, FIT-2, RAM-1), from first principles.

VRAM per GPU = weights + gradients + optimizer states (each divided over the
data-parallel GPUs where the sharding stage shards it) + activations × batch
(+ KV cache for generation) + CUDA context; the guide's RAM-1 formula is kept
beside the first-principles host estimate, each labelled.
"""

from __future__ import annotations

from dataclasses import dataclass

from configurator.core.build import Workload

GIB = 1024**3
CUDA_CONTEXT_GIB = 0.5  # CUDA context + cuBLAS/cuDNN workspaces: typically 0.3–0.6 GiB per process
FRAGMENTATION = 0.10  # caching-allocator slack on top of activations
HOST_BASE_GIB = 4.0  # OS, desktop, Python with torch and the CUDA libraries mapped
LOADER_WORKERS_PER_GPU = 4  # STO-5: num_workers ≥ 4
PREFETCH = 2  # DataLoader's default prefetch_factor

WEIGHT_BYTES = {"fp32": 4.0, "amp": 4.0, "bf16": 2.0, "fp16": 2.0, "int8": 1.0, "int4": 0.5}
ACT_BYTES = {"fp32": 4.0, "amp": 2.0, "bf16": 2.0, "fp16": 2.0, "int8": 2.0, "int4": 2.0}


@dataclass(frozen=True)
class VramBreakdown:
    weights: float
    gradients: float
    optimizer: float
    activations: float
    kv_cache: float
    context: float
    per_sample: float  # bytes that grow with the batch (activations + KV)

    @property
    def total(self) -> float:
        return self.weights + self.gradients + self.optimizer + self.activations + self.kv_cache + self.context

    def gib(self) -> dict[str, float]:
        return {k: round(getattr(self, k) / GIB, 2) for k in
                ("weights", "gradients", "optimizer", "activations", "kv_cache", "context", "total")}


def _shard(stage: str, n: int) -> tuple[float, float, float]:
    """Divisors for (weights, gradients, optimizer) under a ZeRO stage / FSDP over n GPUs."""
    n = max(n, 1)
    return {
        "none": (1, 1, 1),
        "zero1": (1, 1, n),
        "zero2": (1, n, n),
        "zero3": (n, n, n),
        "fsdp": (n, n, n),
    }[stage]


def vram_per_gpu(w: Workload, n_gpus: int, batch: int | None = None) -> VramBreakdown:
    spec = w.spec()
    p = spec.params
    b = batch if batch is not None else w.effective_batch
    s = w.effective_seq_len
    wb = WEIGHT_BYTES[w.precision]
    ab = ACT_BYTES[w.precision]
    dw, dg, do = _shard(w.sharding, n_gpus)
    context = CUDA_CONTEXT_GIB * GIB
    if w.task == "train":
        weights = p * wb / dw
        if w.precision == "amp":
            weights += p * 2 / dw  # autocast keeps FP16 copies of the weights during the forward pass
        grads = p * (4.0 if w.precision in ("fp32", "amp") else 2.0) / dg
        opt_per_param = {"adamw": 8.0, "adam": 8.0, "sgd": 4.0}[w.effective_optimizer]
        if w.precision in ("bf16", "fp16"):
            opt_per_param += 4.0  # FP32 master weights
        optimizer = p * opt_per_param / do
        per_sample = spec.activation_elements_per_sample(s, w.grad_checkpointing) * ab * (1 + FRAGMENTATION)
        return VramBreakdown(weights, grads, optimizer, per_sample * b, 0.0, context, per_sample)
    # inference: weights, one layer's working set, and the KV cache of a generating model
    weights = p * wb / dw
    layers = max(spec.layers, 1) if spec.is_transformer else max(sum(spec.blocks) or 16, 1)
    live = spec.activation_elements_per_sample(s, False) / layers * 2 * ab
    kv = 2 * spec.layers * s * spec.hidden * 2.0 if spec.decoder else 0.0  # FP16 K and V
    return VramBreakdown(weights, 0.0, 0.0, live * b, kv * b, context, live + kv)


def largest_batch(w: Workload, n_gpus: int, vram_gib: float) -> int:
    """Largest batch whose estimate fits in 95 % of the card (0 if even one sample does not)."""
    one = vram_per_gpu(w, n_gpus, batch=1)
    fixed = one.total - one.per_sample
    room = vram_gib * GIB * 0.95 - fixed
    if room < one.per_sample or one.per_sample <= 0:
        return 0
    return int(room // one.per_sample)


@dataclass(frozen=True)
class RamEstimate:
    first_principles_gib: float
    guide_gib: float
    parts: dict[str, float]


def sample_bytes(w: Workload) -> float:
    spec = w.spec()
    if spec.family == "cnn":
        return 3 * spec.image_size**2 * 4.0  # a decoded image as float32
    return w.effective_seq_len * 8.0 * 2  # input ids and labels as int64


def host_ram(w: Workload, n_gpus: int) -> RamEstimate:
    """First principles: OS and libraries + a host copy of the weights per process while loading +
    the DataLoader's prefetched batches (4 workers × prefetch 2 per GPU); with no GPU, what the GPU
    would hold lives in RAM. The guide's RAM-1: params × batch × 4 B × 1.2, halved for mixed precision."""
    spec = w.spec()
    procs = max(n_gpus, 1)
    weights_host = spec.params * 4.0 * procs
    loader = LOADER_WORKERS_PER_GPU * PREFETCH * w.effective_batch * sample_bytes(w) * procs
    parts = {"base": HOST_BASE_GIB, "weights": weights_host / GIB, "dataloader": loader / GIB}
    if n_gpus == 0:
        parts["model_in_ram"] = vram_per_gpu(w, 1).total / GIB - CUDA_CONTEXT_GIB
    guide = spec.params * w.effective_batch * 4 * 1.2 / GIB
    if w.precision in ("amp", "bf16", "fp16"):
        guide /= 2
    return RamEstimate(round(sum(parts.values()), 2), round(guide, 2), {k: round(v, 2) for k, v in parts.items()})
