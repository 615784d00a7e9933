"""The GPU memory estimates (FIT-1): memory per GPU with its range and what it counts, the memory options the
workload uses, and the largest per-GPU batch that fits."""

from __future__ import annotations

from configurator.core.build import Workload
from configurator.core.engine.report import message as _m
from configurator.core.estimate.memory import (
    ACTIVATION_ERROR,
    CUDA_CONTEXT_GIB,
    DISPLAY_GIB,
    FRAGMENTATION,
    PUBLISHED_RATIO,
    VramBreakdown,
    largest_batch,
    verdict,
)
from configurator.core.findings import Estimate
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.numbers import word_message
from configurator.core.parts import Gpu
from configurator.core.rules.shared import Ctx
from configurator.core.units import GIB

_CKPT = Message("estimates", QT_TRANSLATE_NOOP("estimates", ", checkpointing"))
_VERDICT = {"fits": Message("estimates", QT_TRANSLATE_NOOP("estimates", "fits")),
            "tight": Message("estimates", QT_TRANSLATE_NOOP("estimates", "tight")),
            "does_not_fit": Message("estimates", QT_TRANSLATE_NOOP("estimates", "does not fit"))}
_DISPLAY = QT_TRANSLATE_NOOP("estimates", ", {lo:g}–{hi:g} GiB for the display")


_PUBLISHED = QT_TRANSLATE_NOOP(
    "estimates", ", and at least ×{lo:g}–×{hi:g} of the estimate (published fine-tuning peak memory against this "
                 "estimate: 10th–90th percentile)")
_OPT_IN_BACKWARD = QT_TRANSLATE_NOOP(
    "estimates", " Optimizer in backward: one parameter's gradient at a time ({g:.2f} GiB), none stored.")
_CHUNKED_CE = QT_TRANSLATE_NOOP(
    "estimates", " Chunked cross-entropy: one chunk's logits and gradients ({lg:.2f} GiB), no full log-softmax saved.")
_PAGED = QT_TRANSLATE_NOOP(
    "estimates", " Paged optimizer: its {o:.1f} GiB of states can page out to host RAM under pressure (the low end "
                 "assumes they do; the host needs the same room).")
_OFFLOADED_ACTS = QT_TRANSLATE_NOOP(
    "estimates", " Activation offload: {host:.1f} GiB of saved tensors in pinned host memory, one layer's on the "
                 "GPU.")
_OFFLOADED_OPT = QT_TRANSLATE_NOOP(
    "estimates", " Optimizer offload: {off:.1f} GiB of states (and master weights) in host RAM.")

_FP8_KV = QT_TRANSLATE_NOOP(
    "estimates", " FP8 KV cache: {kv:.2f} GiB at 1 B per cached K or V element (a 16-bit cache takes twice that).")


def _memory_options(w: Workload, vram: VramBreakdown) -> Message | str:
    """The sentence on the memory options the workload uses (empty where none)."""
    parts: list[Message] = []
    if w.task == "train":
        if w.optimizer_in_backward:
            parts.append(_m(_OPT_IN_BACKWARD, g=vram.gradients / GIB))
        if w.chunked_ce and w.spec().decoder:
            parts.append(_m(_CHUNKED_CE, lg=vram.logits / GIB))
        if vram.pageable:
            parts.append(_m(_PAGED, o=vram.pageable / GIB))
        if vram.host_activations:
            parts.append(_m(_OFFLOADED_ACTS, host=vram.host_activations / GIB))
        if vram.offloaded:
            parts.append(_m(_OFFLOADED_OPT, off=vram.offloaded / GIB))
    elif w.kv_cache_dtype and w.spec().decoder:
        parts.append(_m(_FP8_KV, kv=vram.kv_cache / GIB))
    if not parts:
        return ""
    return _m("".join(f"{{p{k}}}" for k in range(len(parts))), **{f"p{k}": p for k, p in enumerate(parts)})


# Inference and serving keep no gradients, optimizer states or autograd's saved tensors: what is counted then
_INFER_COUNTED = QT_TRANSLATE_NOOP(
    "estimates",
    "{low:.1f}–{high:.1f} GiB ({verdict} in {vram} GiB). Counted: weights, the activations alive in a forward "
    "pass at batch {batch} ({precision}, {attention} attention), KV cache, {ctx:g} GiB CUDA context, {frag:.0%} "
    "allocator margin{display}.{options} Range: activations ±{err:.0%} (the validation against PyTorch), "
    "allocator 0–25 %, context {ctx_low:g}–{ctx_high:g} GiB. Not counted: cuDNN benchmark workspaces, NCCL "
    "buffers, other processes.")


def vram_estimates(ctx: Ctx, gpus: list[Gpu], w: Workload, vram: VramBreakdown) -> list[Estimate]:
    """GPU memory (FIT-1): the central figure per GPU, its range and what is and is not counted; and the largest
    per-GPU batch that fits the smallest card."""
    smallest = min(g.vram_gb for g in gpus)
    display = ctx.r.build.options.display_gpu
    return [Estimate(
        "vram_per_gpu_gib", round(vram.total / GIB, 2), "GiB",
        _m(_INFER_COUNTED if w.task != "train" else QT_TRANSLATE_NOOP(
            "estimates",
            "{low:.1f}–{high:.1f} GiB ({verdict} in {vram} GiB). Counted: weights, gradients, optimizer "
            "states ({optimizer}; sharded by {sharding}, fine-tuning {finetune}, offload {offload}), the tensors "
            "autograd saves at batch {batch} ({precision}{ckpt}, {attention} attention), autocast's weight "
            "copies, logits and the loss's gradients, KV cache, {ctx:g} GiB CUDA context, {frag:.0%} allocator "
            "margin{display}.{options} Range: saved tensors ±{err:.0%} (the validation against PyTorch), "
            "allocator 0–25 %, context {ctx_low:g}–{ctx_high:g} GiB{published}. Not counted: cuDNN benchmark "
            "workspaces, NCCL buffers, other processes."),
           low=vram.low / GIB, high=vram.high / GIB, verdict=_VERDICT[verdict(vram, smallest)],
           vram=smallest, optimizer=w.effective_optimizer, sharding=word_message(w.sharding),
           finetune=word_message(w.finetune), offload=word_message(w.offload),
           batch=w.effective_batch, precision=w.precision, ckpt=_CKPT if w.grad_checkpointing else "",
           attention=w.attention, ctx=CUDA_CONTEXT_GIB[1], frag=FRAGMENTATION[1],
           display=_m(_DISPLAY, lo=DISPLAY_GIB[0], hi=DISPLAY_GIB[2]) if display else "",
           options=_memory_options(w, vram),
           err=ACTIVATION_ERROR, ctx_low=CUDA_CONTEXT_GIB[0], ctx_high=CUDA_CONTEXT_GIB[2],
           published=_m(_PUBLISHED, lo=PUBLISHED_RATIO[0], hi=PUBLISHED_RATIO[1]) if w.task == "train" else ""),
        {**vram.gib(), "verdict": verdict(vram, smallest), "parallel": w.parallel,
         "optimizer": w.effective_optimizer, "optimizer_in_backward": w.optimizer_in_backward,
         "chunked_ce": w.chunked_ce, **({"kv_cache_dtype": w.kv_cache} if w.kv_cache_dtype else {})},
        "medium", round(vram.low / GIB, 2), round(vram.high / GIB, 2),
        {"family": "memory", "first_principles": True, "activation_error": ACTIVATION_ERROR,
         "fragmentation": [FRAGMENTATION[0], FRAGMENTATION[2]], "context_gib": [CUDA_CONTEXT_GIB[0],
                                                                                CUDA_CONTEXT_GIB[2]],
         "matched": []}),
        Estimate(
        "largest_batch", largest_batch(w, len(gpus), smallest, display), "samples",
        _m(QT_TRANSLATE_NOOP(
            "estimates",
            "Largest per-GPU batch whose estimate fits {vram} GiB even at the high end of its range.",
        ), vram=smallest),
        {"vram_gib": smallest}, "medium")]
