"""GPU memory of a training step (:func:`training_vram`): weights, gradients and optimizer states by precision,
optimizer and fine-tuning method (full, LoRA, QLoRA; a diffusion model's LoRA), sharded by ZeRO / FSDP, the saved
tensors of the model's family (:func:`saved_bytes`), and what offload moves to host memory.
"""

from __future__ import annotations

import dataclasses

from configurator.core.build import Workload
from configurator.core.estimate.memory.breakdown import VramBreakdown, finish_breakdown
from configurator.core.estimate.memory.constants import (
    ADAPTER_BYTES,
    NF4_BYTES,
    NO_MASTER_OPTIMIZERS,
    OPTIMIZER_BYTES,
    PAGED_OPTIMIZERS,
    PUBLISHED_RATIO,
    WEIGHT_BYTES,
    Saved,
    activation_dtypes,
)
from configurator.core.estimate.memory.detectors import detection_saved, frozen_backbone_params
from configurator.core.estimate.memory.params import largest_param, lora_params, split_params
from configurator.core.estimate.memory.resnet import resnet_saved
from configurator.core.estimate.memory.transformer import transformer_saved
from configurator.core.model_specs import DETECTORS, ModelSpec, UNetLayout


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


def saved_bytes(w: Workload, batch: int, device: str = "cuda") -> Saved:
    spec = w.spec()
    if spec.arch in DETECTORS:
        return detection_saved(spec, batch, w.precision)
    if spec.unet is not None:
        return unet_training_saved(w, spec, batch)
    if spec.family == "cnn":
        return resnet_saved(spec, batch, w.precision, checkpointing=w.grad_checkpointing)
    frozen = w.finetune in ("lora", "qlora")
    # LoRA's base is 16-bit in a mixed-precision run (the weights term counts it so), and QLoRA computes in 16
    # bit on a 4-bit base (bnb_4bit_compute_dtype): the activations of a bf16 run, under autocast for amp
    precision = w.precision
    if w.finetune == "qlora" and w.precision in ("fp32", "int8", "int4"):
        precision = "bf16"
    return transformer_saved(spec, batch, w.effective_seq_len, precision, checkpointing=w.grad_checkpointing,
                             attention=w.attention, device=device, frozen=frozen,
                             adapter_bytes=ADAPTER_BYTES if frozen else 0.0, lora_rank=w.lora_rank if frozen else 0,
                             chunked_ce=w.chunked_ce and spec.decoder)


def unet_training_saved(w: Workload, spec: ModelSpec, batch: int) -> Saved:
    """A diffusion UNet's training step at the latent of the workload's image (vision.unet_saved); under AMP the
    activations are counted at 16 bits and autocast caches a 16-bit copy of the trained weights. LoRA's frozen
    base saves the same tensors here (an upper bound: a frozen convolution needs no copy of its input)."""
    from configurator.core.vision import unet_saved

    assert spec.unet is not None
    e, _f, autocast = activation_dtypes(w.precision)
    acts = unet_saved(spec.unet, spec.image_size, spec.image_width or spec.image_size, batch, e)
    copies = 2.0 * spec.params if autocast and w.finetune == "full" else 0.0
    return Saved(acts, copies, 0.0, 0.0)


def training_vram(w: Workload, spec: ModelSpec, n: int, b: int, display_gpu: bool) -> VramBreakdown:
    """Training: weights, gradients and optimizer states (by precision, optimizer and fine-tuning method,
    sharded by ZeRO / FSDP), the saved tensors, and the options that move them:

    - optimizer states: OPTIMIZER_BYTES; fp32 master weights (4 B) in a bf16/fp16 run only for the
      optimizers that keep them; paged states are counted on the GPU but can page out (``pageable``);
    - ``optimizer_in_backward`` (each parameter stepped in its post-accumulate-grad hook, its gradient
      freed: the PyTorch tutorial "How to save memory by fusing the optimizer step into the backward
      pass"): the largest parameter's gradient instead of all of them;
    - ``offload`` optimizer / all: the states (and master weights) in host RAM (ZeRO-Offload, FSDP
      CPUOffload); activations / all: the saved tensors in pinned host memory
      (torch.autograd.graph.save_on_cpu, torchtune's OffloadActivations), the GPU keeping one layer's
      while they are copied back in backward, and the loss's log-softmax (computed outside the offloaded
      model); ``chunked_ce``: see :func:`transformer_saved`.
    """
    p = spec.params
    dw, dg, do = _shard(w.sharding, n)
    half = 2.0 if w.precision in ("amp", "bf16", "fp16") else 4.0
    opt = w.effective_optimizer
    opt_bytes = OPTIMIZER_BYTES[opt]
    saved = saved_bytes(w, b)
    frozen_parts = spec.frozen_params * (4.0 if w.precision == "fp32" else 2.0) / dw  # a diffusion model's VAE, text
    if w.finetune in ("lora", "qlora") and spec.unet is not None:
        # LoRA on the UNet's attention projections (diffusers' train_text_to_image_lora.py: to_q, to_k, to_v,
        # to_out.0; a Flux transformer: train_dreambooth_lora_flux.py's projections, vision.flux_lora_projections); the
        # denoiser frozen in 16 bits (fp32 in an fp32 run), adapters in fp32
        from configurator.core.vision import unet_lora_params

        trained = unet_lora_params(spec.unet, w.lora_rank)
        weights = p * half / dw + trained * ADAPTER_BYTES / dw + frozen_parts
        grad_values = trained
        grad_each = ADAPTER_BYTES
        biggest = float(max(spec.unet.channels) if isinstance(spec.unet, UNetLayout) else spec.unet.hidden * 4) \
            * w.lora_rank  # the widest adapter matrix (a Flux MLP's 4·d side)
        optimizer = trained * opt_bytes / do
    elif w.finetune in ("lora", "qlora") and spec.is_transformer:
        linear, other = split_params(spec)
        base = (linear * NF4_BYTES + other * 2.0) if w.finetune == "qlora" else (linear + other) * half
        trained = lora_params(spec, w.lora_rank)
        weights = base / dw + trained * ADAPTER_BYTES / dw  # adapters in fp32 (peft's default)
        grad_values = trained
        grad_each = ADAPTER_BYTES
        biggest = float(spec.hidden * w.lora_rank)  # one adapter matrix
        optimizer = trained * opt_bytes / do
    else:
        weights = p * WEIGHT_BYTES[w.precision] / dw + frozen_parts  # DreamBooth: the whole UNet trains
        grad_values = p - frozen_backbone_params(spec)  # a detector's frozen stem and stages: no gradient, no state
        grad_each = 4.0 if w.precision in ("fp32", "amp") else 2.0
        biggest = largest_param(spec)
        master = 4.0 if w.precision in ("bf16", "fp16") and opt not in NO_MASTER_OPTIMIZERS else 0.0
        optimizer = grad_values * (opt_bytes + master) / do
        if w.precision == "amp" and w.sharding in ("zero3", "fsdp"):
            saved = Saved(saved.activations, saved.autocast_copies / dw, saved.logits, saved.recompute)
    grads = (min(biggest, grad_values) if w.optimizer_in_backward else grad_values) * grad_each / dg
    offloaded = 0.0
    if w.offload in ("optimizer", "all"):
        offloaded, optimizer = optimizer, 0.0
    pageable = optimizer if opt in PAGED_OPTIMIZERS else 0.0
    host_acts = 0.0
    if w.offload in ("activations", "all"):
        saved, host_acts = _offload_activations(w, spec, b, saved)
    per = saved_bytes(w, 1)
    if w.offload in ("activations", "all"):
        per = _offload_activations(w, spec, 1, per)[0]
    per_sample = per.activations + per.logits + per.recompute
    return finish_breakdown(weights, grads, optimizer, saved, 0.0, per_sample, display_gpu, offloaded,
                   pageable=pageable, host_activations=host_acts, widen=PUBLISHED_RATIO)


def _offload_activations(w: Workload, spec: ModelSpec, b: int, saved: Saved) -> tuple[Saved, float]:
    """(what stays on the GPU, bytes in pinned host memory) when the saved tensors are offloaded: all but the
    loss's log-softmax go to the host; in backward they come back one autograd node at a time, and the GPU
    holds at most one layer's of them at once (with checkpointing the layer being rebuilt, which
    ``recompute`` already counts). benchmarks/memory_counts.py measures both."""
    if spec.family == "cnn" or spec.layers <= 0:
        kept = saved.activations / max(sum(spec.blocks) or 1, 1)  # one residual block's, about
        return Saved(kept, saved.autocast_copies, saved.logits, saved.recompute), saved.activations - kept
    s = w.effective_seq_len
    loss = 0.0 if (w.chunked_ce and spec.decoder) else 4.0 * spec.vocab * b * s
    if w.grad_checkpointing:
        one_layer = (saved.activations - loss) / (spec.layers + 1)  # the layers' inputs and the outside terms
    else:
        one = saved_bytes(dataclasses.replace(w, grad_checkpointing=True), b)
        one_layer = one.recompute  # one layer's saved tensors
    host = max(saved.activations - loss, 0.0)
    return Saved(min(one_layer, host) + loss, saved.autocast_copies, saved.logits, saved.recompute), host
