"""What a transformer's training step saves for the backward pass (:func:`transformer_saved`): per layer its norms,
attention (eager or SDPA), MLP (GELU, gelu_new, SwiGLU, experts) and dropout masks, LoRA's adapters on a frozen
base, outside the layers the embeddings, head and loss (chunked or not), checkpointing, autocast's weight copies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from configurator.core.estimate.memory.constants import (
    CE_CHUNKS,
    LORA_PROJECTIONS,
    Saved,
    activation_dtypes,
    mask_bytes,
)
from configurator.core.estimate.memory.params import mlp_params
from configurator.core.model_specs import ModelSpec


def transformer_saved(spec: ModelSpec, batch: int, seq: int, precision: str, *, checkpointing: bool = False,
                      attention: str = "sdpa", device: str = "cuda", frozen: bool = False,
                      adapter_bytes: float = 0.0, lora_rank: int = 0, chunked_ce: bool = False) -> Saved:
    """What a Hugging Face GPT-2 (decoder, LM head), BERT (encoder, MLM head) or LLaMA (RMSNorm, rotary
    positions, SwiGLU, grouped-query attention; Mixtral with experts) training step saves.

    Per token and layer, with e = activation bytes, f = residual-stream bytes (fp32 under autocast),
    m = a dropout mask's bytes (1 on CUDA), h = hidden, k = the K/V width (h × kv_heads / heads),
    i = MLP width, a = heads:

    - two norms: their inputs f·h each (LLaMA's RMSNorm upcasts its input: 4·h), mean and rstd
      2 × 4 B each (RMSNorm: the normalised copy f·h, rstd);
    - the normed activations as the projections save them: e·h each (under autocast each
      projection saves its own 16-bit cast, so BERT's separate Q/K/V save three);
    - attention, eager: Q, K, V as the matmuls copy them (LLaMA repeats K and V to all heads) and the
      merged heads, 4·e·h, plus per query a·s × (softmax output, 4 B under autocast or where the model
      upcasts it, as LLaMA does, + dropout output e + mask m when attention dropout > 0; the 16-bit copy
      of the probabilities without dropout); SDPA (flash / memory-efficient kernels): Q, K, V, the output,
      2·e·h + 2·e·k, and the log-sum-exp, 4·a B; no s² term;
    - MLP: F.gelu saves its input and output, 2·e·i; GPT-2's gelu_new, written in Python ops,
      saves the input, tanh, 0.5·x, 1 + tanh and the output, 5·e·i; SwiGLU: gate, up, SiLU
      and product, 4·e·i; with experts (Mixtral), each token's x routed copies through k experts'
      MLPs and the router's fp32 probabilities;
    - dropout masks on the attention and MLP outputs, 2·m·h.

    ``frozen`` (LoRA / QLoRA: the base weights do not train): a frozen projection does not save its
    input (autograd saves a matmul's input only to compute its weight's gradient), nor does a frozen
    norm weight's multiply; the adapters on Q, K, V and O save their inputs instead (one 16-bit
    storage; each adapter its own cast copy under autocast, or with ``adapter_bytes`` wider than e, as
    peft's fp32 adapters on a 16-bit base) and the rank-r intermediate.

    Outside the layers: token ids (and labels) 8 B each, the embedding dropout's mask, the final
    norm or BERT's MLM transform, the LM head's input, and the loss: log-softmax keeps
    b·s·vocab fp32. Held besides: the logits (e·vocab per token, fp32 without autocast, where
    they are the log-softmax's input) and, when backward starts, two b·s·vocab fp32 gradients.
    ``chunked_ce`` (the head and the loss one chunk of the sequence at a time, the chunk rebuilt in
    backward: Liger's fused linear cross-entropy, a checkpointed chunked head): no log-softmax is
    saved and only one of CE_CHUNKS chunks' logits, log-softmax and gradients is alive at once.
    Checkpointing (``activation_checkpointing_enable``, once ``gradient_checkpointing_enable``) keeps
    each layer's input, f·h per token.
    """
    d = _LayerDims.of(spec, seq, precision, device, frozen, adapter_bytes)
    per_layer = _layer_saved(spec, d, attention, device, frozen, lora_rank)
    outside = _outside_saved(spec, d, batch, device, frozen, chunked_ce)
    t = float(batch * seq)
    layers = float(spec.layers)
    stream = d.f * d.h  # a layer's input: the residual stream (GPT-2) or the last LayerNorm's output (BERT)
    if checkpointing:
        acts = t * (layers * stream + outside)
        recompute = t * per_layer
    else:
        acts = t * (layers * per_layer + outside)
        recompute = 0.0
    copies = 2.0 * _matmul_params(spec) if d.autocast and not frozen else 0.0
    v = float(spec.vocab)
    logits_one = v * (d.e if d.autocast else 4.0) + 2 * v * 4.0
    # chunked: one chunk's logits and gradients, with its log-softmax
    logits = math.ceil(t / CE_CHUNKS) * (logits_one + 4.0 * v) if chunked_ce else t * logits_one
    return Saved(acts, copies, logits, recompute)


@dataclass(frozen=True)
class _LayerDims:
    """The widths and byte sizes transformer_saved's steps share (its docstring's symbols)."""

    h: float  # hidden
    i: float  # MLP width
    a: float  # heads
    s: float  # sequence length
    kvw: float  # K/V width
    e: float  # activation bytes
    f: float  # residual-stream bytes
    autocast: bool
    cast_bytes: float  # what each LoRA adapter's cast copy of its input costs (0: no cast)

    @staticmethod
    def of(spec: ModelSpec, seq: int, precision: str, device: str, frozen: bool,
           adapter_bytes: float) -> _LayerDims:
        e, f, autocast = activation_dtypes(precision)
        if frozen and autocast:
            f = e  # LoRA under autocast: the frozen base is 16-bit, and so is its residual stream
        # each adapter casts its input: autocast to 16 bit, peft to lora_A's dtype (fp32 adapters on a 16-bit base)
        cast_bytes = (e if autocast else adapter_bytes if adapter_bytes > e else 0.0) if frozen else 0.0
        h = float(spec.hidden)
        kvw = h * (spec.kv_heads or spec.heads) / max(spec.heads, 1)
        return _LayerDims(h, float(spec.ffn), float(spec.heads), float(seq), kvw, e, f, autocast, cast_bytes)


def _norm_saved(spec: ModelSpec, d: _LayerDims, frozen: bool, out_savers: int, weight_saves: bool = True) -> float:
    """A norm, per token: its input (LLaMA's RMSNorm upcasts it: 4·h), mean and rstd (RMSNorm: rstd and the
    normalised copy) and the output as the projections after it save it."""
    rms = spec.norm == "rmsnorm"
    stats = 4.0 if rms else 8.0
    inp = 4.0 * d.h if rms else d.f * d.h  # HF LlamaRMSNorm: hidden_states.to(torch.float32)
    if frozen:
        return inp + stats  # the frozen weight's multiply keeps only the weight; no projection saves x
    normalised = d.f * d.h if rms else 0.0  # HF LlamaRMSNorm keeps x·rstd before the weight multiplies it
    saved_out = out_savers * d.e * d.h if d.autocast else d.e * d.h  # one storage unless autocast casts per use
    return inp + stats + normalised + (saved_out if weight_saves else 0.0)


def _attention_saved(spec: ModelSpec, d: _LayerDims, attention: str, device: str) -> float:
    """Attention, per token: eager keeps Q, K, V, the merged heads and the a·s scores (softmax output, dropout);
    SDPA Q, K, V, its output and the log-sum-exp."""
    rotary = not spec.learned_positions
    e, h, a = d.e, d.h, d.a
    if attention == "eager":
        upcast = d.autocast or rotary  # LLaMA's eager attention: softmax(..., dtype=torch.float32).to(q.dtype)
        probs = 4.0 if upcast else e
        # with dropout: its mask and output; without: the 16-bit copy of the probabilities the matmul saves
        scores = (probs + mask_bytes(device, e) + e if spec.attention_dropout > 0
                  else probs + (e if upcast and e < 4.0 else 0.0))
        return 4 * e * h + a * d.s * scores
    attn = 2 * e * h + 2 * e * d.kvw + 4.0 * a
    if device == "cpu" and spec.decoder and not rotary:
        # measured: on the CPU, SDPA's causal path receives GPT-2's Q and K as contiguous copies
        # (CatBackward0); CUDA's flash / memory-efficient kernels read them strided, in place
        attn += 2 * e * h
    return attn


def _mlp_saved(spec: ModelSpec, d: _LayerDims, frozen: bool) -> float:
    """The MLP, per token: GELU's input and output, GPT-2's gelu_new's five Python-op tensors, SwiGLU's four;
    a frozen down projection does not save its input; a mixture of experts routes copies of x."""
    e, i = d.e, d.i
    if spec.activation == "gelu_new":
        mlp = 5 * e * i
    elif spec.activation == "swiglu":
        mlp = 4 * e * i
    else:
        mlp = 2 * e * i
    if frozen:
        mlp -= e * i  # the down projection is frozen: its input (the activation's output) is not saved
        if spec.activation == "gelu":
            mlp = e * i  # F.gelu keeps its input only
    experts = float(getattr(spec, "experts", 0) or 0)
    routed = float(getattr(spec, "experts_per_token", 0) or 0) if experts else 1.0
    mlp *= routed
    if experts:
        # Mixtral's sparse block: router probabilities in fp32 (softmax output, top-k weights) and each
        # routed copy of x (hidden_states[top_x]) that the expert's projections save
        mlp += experts * 4.0 + routed * (8.0 + 4.0) + (0.0 if frozen else routed * e * d.h)
    return mlp


def _layer_saved(spec: ModelSpec, d: _LayerDims, attention: str, device: str, frozen: bool,
                 lora_rank: int) -> float:
    """One layer, per token: two norms, attention, the MLP, the dropout masks on the attention and MLP outputs,
    and LoRA's adapters where the base is frozen. GPT-2 (pre-LN) and BERT (post-LN) save the same set."""
    m_h = mask_bytes(device, d.e) if spec.dropout > 0 else 0.0
    proj_in_attn = 1 if spec.fused_qkv else 3
    proj_in_mlp = 2 if spec.activation == "swiglu" else 1
    per_layer = (_norm_saved(spec, d, frozen, proj_in_attn) + _attention_saved(spec, d, attention, device)
                 + _norm_saved(spec, d, frozen, proj_in_mlp) + _mlp_saved(spec, d, frozen) + 2 * m_h * d.h)
    if frozen:
        per_layer += _adapter_saved(d.h, d.e, d.cast_bytes, lora_rank)
    return per_layer


def _outside_saved(spec: ModelSpec, d: _LayerDims, batch: int, device: str, frozen: bool,
                   chunked_ce: bool) -> float:
    """Per token outside the layers: token ids (and labels), the embedding dropout's mask, the final norm and the
    LM head's input (rotary cos and sin) or BERT's embedding LayerNorm and MLM transform, the log-softmax."""
    h = d.h
    m_emb = mask_bytes(device, d.f) if spec.dropout > 0 else 0.0
    outside = 8.0 * (2 if spec.decoder else 1) + m_emb * h  # token ids (+ shifted labels); encoder labels as ids
    if spec.decoder:
        outside += _norm_saved(spec, d, frozen, 1)  # final norm and the LM head's input
        if not spec.learned_positions:
            outside += 2 * (h / max(d.a, 1.0)) * d.e / max(batch, 1)  # the rotary cos and sin, one per position
    else:
        outside += d.f * h + 8.0  # embedding LayerNorm's input and stats
        if not frozen:
            outside += 3 * d.e * h + d.f * h + 8.0  # MLM transform: dense in, GELU in, LN in, decoder in
        else:
            outside += d.e * h + d.f * h + 8.0  # the frozen MLM transform: GELU's input, the LayerNorm's input, stats
    if not chunked_ce:
        outside += 4.0 * spec.vocab  # log-softmax output, fp32
    return outside


def _adapter_saved(h: float, e: float, cast_bytes: float, rank: int) -> float:
    """Per token and layer, what LoRA adapters on Q, K, V and O save: their inputs and the rank-r outputs
    (lora_A's output, which lora_B saves). Shared 16-bit inputs: the normed x (one
    storage for Q, K and V) and the attention output that O's adapter reads (a view of SDPA's output);
    adapters that cast their input (autocast; peft to lora_A's dtype) keep one cast each, ``cast_bytes``."""
    inner = LORA_PROJECTIONS * rank * max(cast_bytes, e)
    if cast_bytes:
        return LORA_PROJECTIONS * cast_bytes * h + inner
    return e * h + inner  # the normed x, no longer saved by the frozen projections; O's input is SDPA's output


def _matmul_params(spec: ModelSpec) -> float:
    """Weights that go through matmuls (autocast casts and caches them): the layers' projections and the head."""
    h = spec.hidden
    kv = h * (spec.kv_heads or spec.heads) // max(spec.heads, 1)
    mlp = mlp_params(spec)
    per_layer = 2 * h * h + 2 * h * kv + mlp
    head = spec.vocab * h + (0 if spec.decoder else h * h)  # BERT's MLM transform dense
    return float(spec.layers * per_layer + head)
