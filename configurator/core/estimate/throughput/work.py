"""The work of one step on one GPU (:func:`work`): GEMM and convolution FLOPs, DRAM bytes and kernel launches, for
training (full, LoRA, QLoRA; checkpointing; the optimizer step), a forward pass, LLM prefill and decode, and the
share of one GPU where a model is split over several. Also the weights a step reads and the parameters it trains.
"""

from __future__ import annotations

from configurator.core.estimate.memory.constants import ACT_BYTES, LORA_PROJECTIONS, WEIGHT_BYTES
from configurator.core.estimate.memory.detectors import frozen_backbone_params
from configurator.core.estimate.memory.params import lora_params
from configurator.core.estimate.throughput.case import (
    Case,
    dequant_copy,
    experts,
    head_tokens,
    is_llama,
    kv_hidden,
    packed_bits,
    ubatches,
)
from configurator.core.estimate.throughput.runtimes import (
    LORA_KERNELS,
    OPT_KERNELS_PER_TENSOR_2019,
    OPTIMIZER_TRAFFIC,
    QUANTISED,
)
from configurator.core.model_specs import ModelSpec
from configurator.core.vision import adapted_projections, pipeline_work, unet_lora_params, vision_scaled


def _expert_params(c: Case) -> float:
    """Weights of every expert's FFN (SwiGLU: gate, up and down projections of the expert width)."""
    e, _k = experts(c.spec)
    return float(c.spec.layers * e * 3 * c.spec.hidden * c.spec.ffn) if e else 0.0


def _body_params(c: Case) -> float:
    spec = c.spec
    if spec.family != "transformer":  # CNNs, detectors, diffusion UNets
        return spec.params
    emb = spec.vocab * spec.hidden * (1 if spec.tied_head else 2)
    return max(spec.params - emb, spec.params * 0.5)


def _flop_body(c: Case) -> float:
    """Body weights each token multiplies by: a mixture of experts' routed share of the experts."""
    e, k = experts(c.spec)
    return _body_params(c) - _expert_params(c) * (1 - k / e) if e else _body_params(c)


def _touched_body(c: Case, tokens: float) -> float:
    """Body weights a step reads: all of a dense model; of a mixture of experts, the experts at least one of
    the step's ``tokens`` is routed to (uniform routing: 1 − (1 − k/E)^tokens of them)."""
    e, k = experts(c.spec)
    if not e:
        return _body_params(c)
    share = 1.0 - float((1 - k / e) ** max(tokens, 1.0))
    return _body_params(c) - _expert_params(c) * (1 - share)


def _param_tensors(spec: ModelSpec, convs: float = 0.0) -> float:
    """Parameter tensors an optimizer steps: a transformer layer's 16 (Q, K, V, output, two FFN weights with
    their biases, two LayerNorms' weight and bias) plus embeddings, final norm and head; a CNN's three per
    convolution (its weight and its BatchNorm's two) plus the classifier's two."""
    if spec.family != "transformer":  # CNNs, detectors, diffusion UNets
        return 3 * convs + 2
    return 16.0 * spec.layers + 8


def _optimizer_kernels(c: Case, current: float, convs: float = 0.0) -> float:
    """Kernels of one optimizer step: ``current`` for today's multi-tensor optimizers, per tensor in 2019."""
    if c.runtime == "pytorch-2019":
        return OPT_KERNELS_PER_TENSOR_2019 * _param_tensors(c.spec, convs)
    return current


def _head(c: Case) -> float:
    return c.spec.vocab * c.spec.hidden if c.lm_head else 0.0


def _weights(c: Case, tokens: float = 1.0) -> float:
    """Weights a forward pass of ``tokens`` tokens reads: the body, plus the output head where it is computed."""
    return _touched_body(c, tokens) + _head(c)


def _weight_bytes(c: Case, tokens: float = 1.0) -> float:
    """Bytes a forward pass reads: the body, plus the output head where it is computed. llama.cpp quantises
    the head with the body; the other runtimes' packed formats keep it (and the embeddings) in 16 bits."""
    bits = packed_bits(c)
    if is_llama(c) and bits is not None:
        return _weights(c, tokens) * bits / 8
    if bits is None:
        return _weights(c, tokens) * WEIGHT_BYTES.get(c.precision, 4.0)
    return _touched_body(c, tokens) * bits / 8 + _head(c) * 2.0


def _head_flops(c: Case) -> float:
    """FLOPs of the output projection over the vocabulary, per token it is computed for."""
    return 2.0 * c.spec.vocab * c.spec.hidden if c.lm_head else 0.0


def dequantised(c: Case, tokens: float = 1.0) -> float:
    """Weights prompt processing dequantises to FP16 copies: all it multiplies with, except a head that is
    computed for one token only (a matrix-vector product on the quantised weights) or kept in 16 bits."""
    if not is_llama(c):
        return _touched_body(c, tokens)
    head = _head(c) if head_tokens(c) == 1 else 0.0
    return _weights(c, tokens) - head


def _transformer_fwd_flops(c: Case, tokens: int, ctx: int) -> float:
    spec = c.spec
    return tokens * (2 * _flop_body(c) + _head_flops(c) + 4 * spec.layers * ctx * spec.hidden)


def _act_bytes(precision: str) -> float:
    return ACT_BYTES.get(precision, 4.0 if precision in ("fp32", "tf32") else 2.0)


def _lora(c: Case) -> bool:
    return c.finetune in ("lora", "qlora") and c.spec.is_transformer


def trained_params(c: Case) -> float:
    """Parameters the optimizer steps (and data parallelism all-reduces), as the memory model counts them: the
    adapters under LoRA/QLoRA (a diffusion denoiser's on its attention projections: vision.unet_lora_params); else
    every parameter but a detector's frozen backbone stages (memory.frozen_backbone_params)."""
    if c.finetune in ("lora", "qlora") and c.spec.unet is not None:
        return unet_lora_params(c.spec.unet, c.lora_rank)
    if _lora(c):
        return lora_params(c.spec, c.lora_rank)
    return c.spec.params - frozen_backbone_params(c.spec)


def _split(c: Case, flops: float, nbytes: float, tokens: float) -> tuple[float, float]:
    """One GPU's share of an inference step's work: tensor parallel splits every weight matrix (and the KV
    heads) n ways; expert parallel spreads the experts, the rest is replicated; a pipeline's stages run one
    after the other, so one stream waits for all of them (the same work as on one GPU)."""
    if c.tensor_parallel > 1:
        return flops / c.tensor_parallel, nbytes / c.tensor_parallel
    if c.expert_parallel > 1 and experts(c.spec)[0]:
        e, k = experts(c.spec)
        per_weight = _weight_bytes(c, tokens) / max(_weights(c, tokens), 1.0)
        ex_bytes = (_touched_body(c, tokens) - (_body_params(c) - _expert_params(c))) * per_weight
        ex_flops = 2.0 * tokens * _expert_params(c) * k / e
        keep = 1 - 1 / c.expert_parallel
        return flops - ex_flops * keep, nbytes - ex_bytes * keep
    return flops, nbytes


def saved_activation_bytes(c: Case) -> float:
    """Bytes of the tensors autograd saves in one micro-batch's forward pass (what activation offload moves)."""
    spec = c.spec
    if spec.family != "transformer":  # CNNs, detectors, diffusion UNets
        return spec.activation_elements_per_sample(1, c.recompute) * _act_bytes(c.precision) * c.batch
    return spec.activation_elements_per_sample(c.seq, c.recompute) * _act_bytes(c.precision) * c.batch


def work(c: Case) -> tuple[float, float, float]:
    """(GEMM/conv FLOPs, DRAM bytes, kernels) of one step on one GPU."""
    spec = c.spec
    b = c.batch
    ab = _act_bytes(c.precision)
    offloaded = c.offload in ("optimizer", "all")  # the optimizer step runs on the host (a term of its own)
    opt = 0.0 if offloaded else OPTIMIZER_TRAFFIC.get(c.optimizer, 28.0) * trained_params(c) / c.shards
    if spec.family != "transformer":  # CNNs, detectors, diffusion UNets
        convs = float(sum(spec.blocks) * (3 if spec.bottleneck else 2) + 5) if spec.blocks else 53.0
        fwd = spec.forward_flops_per_sample(1) * b
        act = spec.activation_elements_per_sample(1, False) * ab * b
        if c.task == "train":
            # activations written, read back, gradients written and read; checkpointing runs the forward again
            again = 1 if c.recompute else 0
            flops = spec.train_flops_per_sample(c.recompute, c.finetune in ("lora", "qlora")) * b
            kernels = (9 + 3 * again) * convs + _optimizer_kernels(c, 10, convs) / c.accumulation
            moved = (4 + again) * act + opt / c.accumulation
            if c.finetune in ("lora", "qlora") and spec.unet is not None:
                # the adapters' own kernels on every adapted projection (forward, and backward's two), as for a
                # language model's LoRA; QLoRA dequantises the frozen NF4 denoiser to 16 bits on every pass through
                # it (0.5 B read, 2 B written per weight), as a QLoRA language model does
                kernels += 3 * LORA_KERNELS * adapted_projections(spec.unet)
                if c.finetune == "qlora":
                    moved += spec.params * 2.5 * (3 if c.recompute else 2)
            return vision_scaled(spec, c.task, (flops, moved, kernels))
        extra_bytes, extra_kernels = pipeline_work(spec, b, ab, c.attention != "eager")  # diffusion: vision.py
        return vision_scaled(spec, c.task, (fwd, 2 * act / 3 + _weight_bytes(c) + extra_bytes,
                                            3 * convs + extra_kernels))
    s = c.seq
    layers = spec.layers
    if c.task == "decode":
        ctx = max(s, 1)
        flops = _transformer_fwd_flops(c, b, ctx)
        kv = 2 * layers * ctx * kv_hidden(spec) * c.kv_bytes * b
        flops, nbytes = _split(c, flops, _weight_bytes(c, b) + kv, b)
        return flops, nbytes, 14 * layers + 4
    ctx = c.attn_ctx or s
    if c.task == "prefill":
        nbytes = _weight_bytes(c, s * b)
        if is_llama(c) and c.precision in QUANTISED:
            # cuBLAS prompt processing: each batch of up to UBATCH tokens (the batch's prompts packed together)
            # dequantises every weight to an FP16 copy (written, then read by the GEMM): 4 B per weight per batch
            nbytes += dequantised(c) * 4.0 * ubatches(c)
        elif dequant_copy(c):
            nbytes += dequantised(c, s * b) * 4.0  # the same, once per forward pass (bitsandbytes, exllamav2)
        flops = (_transformer_fwd_flops(c, s, (ctx + 1) // 2) - (s - head_tokens(c)) * _head_flops(c)) * b
        flops, nbytes = _split(c, flops, nbytes, s * b)
        return flops, nbytes, 14 * layers + 4
    # activations per layer (Korthikanti et al. 2022, 16-bit): s·h·34 + 5·a·s² bytes with the scores
    # materialised (eager attention), moved about three times in a training step (written, read back, their
    # gradients); fused attention kernels keep the a·s² scores on chip
    train = c.task == "train"
    act_layer = 34 * s * spec.hidden * ab / 2
    scores = spec.heads * s * ctx * ab / 2 * _score_bytes(c, train)
    fwd = _transformer_fwd_flops(c, s, ctx) * b
    if not train:
        flops, nbytes = _split(c, fwd, layers * (act_layer + scores) * b + _weight_bytes(c, s * b), s * b)
        return flops, nbytes, 16 * layers + 4
    kernels = 3 * (16 * layers + 4)
    if _lora(c):
        # frozen weights: backward computes the activations' gradients through every weight (as many FLOPs as
        # the forward's weight GEMMs) but no weight gradients; the attention's score products (no weights) get
        # both; the adapters (rank r) train in full: 6 FLOPs per adapter weight and token
        per_token_w = 2 * _flop_body(c) + _head_flops(c)
        per_token_attn = 4 * layers * ctx * spec.hidden
        flops = b * s * (2 * per_token_w + 3 * per_token_attn + 6 * trained_params(c))
        kernels += 3 * LORA_KERNELS * LORA_PROJECTIONS * layers
    else:
        flops = 3 * fwd
    moved = layers * (3 * act_layer + scores) * b
    if c.recompute:
        # activation checkpointing: each layer's forward runs again in backward (its FLOPs, traffic, kernels)
        flops += fwd
        moved += layers * (act_layer + scores / 3) * b
        kernels += 16 * layers + 4
    if c.finetune == "qlora":
        # QLoRA: every pass through a frozen NF4 weight (forward, backward, a recomputed forward) dequantises it
        # to a 16-bit copy: 0.5 B read, 2 B written (the GEMM's read of the copy is the GEMM's own)
        passes = 3 if c.recompute else 2
        moved += dequantised(c, s * b) * 2.5 * passes
        kernels += 7 * layers * passes
    # the optimizer step (AdamW in FP32 by default: 28 B per trained parameter, of this GPU's shard under
    # ZeRO/FSDP), amortised over the micro-batches of an accumulated step
    return flops, moved + opt / c.accumulation, kernels + _optimizer_kernels(c, 20) / c.accumulation


def _score_bytes(c: Case, train: bool) -> float:
    """Bytes moved per element of the attention scores (16-bit) in a step: none with fused attention; three
    passes over the 5 bytes autograd saves in training (one forward) with today's eager kernels. PyTorch of
    2019 ran scaling, masking, softmax and dropout as separate kernels, each reading and writing the whole
    tensor: forward 21 B (the score GEMM writes 2, scale, mask and softmax read and write 2 each, dropout reads
    2 and writes 2 and its 1-byte mask, the value GEMM reads 2), backward 24 B (the GEMM writes the gradient,
    dropout's and softmax's backward read 3 and 4 and write 2 each, scaling reads and writes 2, two GEMMs read
    the result)."""
    if c.attention != "eager":
        return 0.0
    if c.runtime == "pytorch-2019":
        return 45.0 if train else 21.0
    return 15.0 if train else 5.0
