"""GPU memory of inference (:func:`inference_vram`): the weights at the quantised format's or precision's bytes per
parameter, split over tensor / pipeline / expert parallel GPUs, the working set of one forward pass
(:func:`inference_working_set`: transformers, CNNs, detectors, diffusion pipelines) and a decoder's KV cache.
"""

from __future__ import annotations

import dataclasses
import math

from configurator.core.build import Workload
from configurator.core.estimate.memory.breakdown import VramBreakdown, finish_breakdown
from configurator.core.estimate.memory.constants import WEIGHT_BYTES, Saved
from configurator.core.estimate.memory.detectors import FPN_CHANNELS
from configurator.core.estimate.memory.params import expert_params, split_params
from configurator.core.estimate.memory.resnet import resnet_sides
from configurator.core.estimate.quant import QUANTS
from configurator.core.model_specs import DETECTORS, ModelSpec


def weight_bytes_per_param(w: Workload) -> float:
    """Bytes per parameter of inference weights: the quantised format's (its linear weights at its bits per
    weight, scales and zeros included; embeddings and head in 16 bits except GGUF's), else the precision's."""
    if w.quant is None or w.quant not in QUANTS:
        return WEIGHT_BYTES[w.precision]
    q = QUANTS[w.quant]
    spec = w.spec()
    linear, other = split_params(spec)
    if q.head_quantised or linear + other <= 0:
        return q.bits / 8
    return (linear * q.bits / 8 + other * 2.0) / (linear + other)


def inference_vram(w: Workload, spec: ModelSpec, n: int, b: int, display_gpu: bool) -> VramBreakdown:
    """Inference: weights, one layer's working set, the logits, and the KV cache of a generating model.
    Tensor / pipeline parallel split the model over the GPUs; expert parallel spreads a mixture-of-experts
    model's experts (all of them resident somewhere) and replicates the rest."""
    p = spec.params
    s = w.effective_seq_len
    wb = weight_bytes_per_param(w)
    if w.quant is not None and w.precision not in ("fp16", "bf16"):
        w = dataclasses.replace(w, precision="fp16")  # a quantised format computes (and caches K, V) in 16 bits
    model_parallel = n if w.parallel in ("tensor", "pipeline") else 1
    if w.parallel == "pipeline" and spec.is_transformer and spec.layers > 0:
        linear, other = split_params(spec)
        per_layer = linear / spec.layers
        weights = (math.ceil(spec.layers / n) * per_layer + other) * wb  # the stage that also holds the embeddings
        kv_share = math.ceil(spec.layers / n) / spec.layers
    elif w.parallel == "expert" and expert_params(spec) > 0:
        ex = expert_params(spec)
        weights = ((p - ex) + ex / n) * wb
        kv_share = 1.0
    else:
        weights = p * wb / model_parallel
        kv_share = 1.0 / model_parallel
    weights += spec.frozen_params * wb / model_parallel  # a diffusion model's VAE and text encoders
    live_one = inference_working_set(spec, s, w.precision, w.attention, model_parallel if w.parallel == "tensor"
                                      else 1)
    # bytes per cached K or V element: an FP8 cache's 1 (kv_cache fp8), else the compute precision's
    e_kv = 1.0 if w.kv_cache == "fp8" else 4.0 if w.precision == "fp32" else 2.0
    kv_heads = spec.kv_heads or spec.heads
    kv_width = spec.hidden * kv_heads / max(spec.heads, 1)
    kv_one = 2 * spec.layers * s * kv_width * e_kv * kv_share if spec.decoder else 0.0
    saved = Saved(live_one * b, 0.0, 0.0, 0.0)
    return finish_breakdown(weights, 0.0, 0.0, saved, kv_one * b, live_one + kv_one, display_gpu, 0.0)


def inference_working_set(spec: ModelSpec, seq: int, precision: str, attention: str, tp: int) -> float:
    """Bytes per sample alive at once without autograd: the residual stream and one layer's widest
    intermediate (the MLP's, or eager attention's scores), and a decoder's next-token logits in fp32."""
    e = 4.0 if precision == "fp32" else 2.0
    if spec.unet is not None:
        # a pipeline's step runs the UNet on the prompt and the empty prompt (CFG_PASSES; a Flux transformer once),
        # then the VAE decodes
        from configurator.core.vision import unet_working_set, vae_working_set

        hw = (spec.image_size, spec.image_width or spec.image_size)
        unet = unet_working_set(spec.unet, *hw, e, materialised=attention == "eager")  # eager: scores written out
        return max(spec.unet.passes * unet, vae_working_set(spec.unet, *hw, e))
    if spec.arch == "detr":
        # the backbone's widest layer (the stem at half the image) with the image; the encoder's widest moment is
        # far smaller (T tokens of d and the MLP's f, T = pixels / 1,024)
        from configurator.core.vision import DETR_FFN, DETR_HIDDEN

        encoder = spec.pixels / 1024 * (2 * DETR_HIDDEN + DETR_FFN) * e
        return 2 * 64 * spec.pixels / 4 * e + 3 * spec.pixels * e + encoder
    if spec.arch in DETECTORS:
        # the backbone's widest layer, input and output (the stem at half the image), and the FPN's top level
        return 2 * 64 * spec.pixels / 4 * e + 3 * spec.pixels * e + 2 * FPN_CHANNELS * spec.pixels / 16 * e
    if spec.family == "cnn":
        stem, _pooled, _sides = resnet_sides(spec)
        return 2 * 64 * stem**2 * e + 3 * spec.image_size**2 * e  # the widest layer's input and output
    t = float(seq)
    stream = 2 * t * spec.hidden * e
    mlp = 2 * t * spec.ffn * e / tp
    scores = spec.heads * t * t * (e + 4.0) / tp if attention == "eager" else 4 * t * spec.hidden * e / tp
    logits = spec.vocab * 4.0 if spec.decoder else 0.0  # generate() computes the last position's logits
    return stream + max(mlp, scores) + logits
