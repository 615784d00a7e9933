"""One workload instance as the throughput terms see it (:class:`Case`), a term of the step time (:class:`Term`), and
what a case's model and weight format imply: its K/V width and experts, the runtime's format kernel, bits per stored
weight, llama.cpp's token batches, which tokens the output head is computed for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from configurator.core.estimate.throughput.runtimes import (
    BITS_PER_WEIGHT,
    DEQUANT_COPY,
    FORMAT_KEY,
    LLAMA_FORMAT_KEY,
    UBATCH,
    WEIGHT_ONLY,
)
from configurator.core.model_specs import ModelSpec


@dataclass(frozen=True)
class Case:
    """One workload instance: a step of ``batch`` samples (train/infer/prefill) or one token for each of
    ``batch`` streams (decode)."""

    spec: ModelSpec
    task: str  # "train" | "infer" (a forward pass) | "prefill" | "decode"
    precision: str
    batch: int
    seq: int = 1  # tokens per sequence (train, infer, prefill); context length for decode
    attn_ctx: int | None = None  # keys each query attends to, where it differs from seq (Transformer-XL memory)
    runtime: str = "pytorch"
    lm_head: bool = False  # the output projection over the vocabulary is computed
    # "eager": the attention scores are materialised (and saved for backward); "sdpa"/"flash": fused
    # kernels (PyTorch's scaled_dot_product_attention, FlashAttention) keep them on chip
    attention: str = "eager"
    shards: int = 1  # ZeRO/FSDP: each GPU updates 1/shards of the optimizer states
    accumulation: int = 1  # micro-batches per optimizer step (gradient accumulation): the step is amortised
    layout: str = "nchw"  # CNN activations' memory format: PyTorch's default NCHW, or "nhwc" (channels_last)
    bits: float | None = None  # bits per weight where the format states its own (EXL2's bpw, a group size's)
    kernel: str = ""  # the weight format's kernel where it is not the precision's own (FORMAT_KEY)
    # training: what is trained and how
    finetune: str = "full"  # "full" | "lora" | "qlora"
    lora_rank: int = 16
    recompute: bool = False  # activation checkpointing: the forward pass runs again in backward
    optimizer: str = "adamw"
    offload: str = "none"  # "none" | "optimizer" | "activations" | "all"
    compiled: bool = False  # training under torch.compile
    # inference: one model over several GPUs
    tensor_parallel: int = 1
    pipeline: int = 1
    expert_parallel: int = 1
    # bytes per element of the KV cache a decode step reads: 2 (a 16-bit cache), 1 (an FP8 or INT8 cache)
    kv_bytes: float = 2.0

    @property
    def units(self) -> float:
        """What one step produces: samples, or tokens for prefill/decode/decoder training."""
        if self.task == "decode":
            return float(self.batch)
        if self.task == "prefill" or (self.spec.decoder and self.task == "train"):
            return float(self.batch * self.seq)
        return float(self.batch)


@dataclass(frozen=True)
class Term:
    a: float  # work over the rate: seconds at efficiency 1 (or a count of kernels)
    params: tuple[tuple[int, float], ...]  # (parameter index, exponent): t = a × exp(Σ s·θ)
    kind: str  # "compute" | "power" | "memory" | "overhead" | "comm" | "offload"


def kv_hidden(spec: ModelSpec) -> int:
    """Width of the K and V projections: heads' width × K/V heads (grouped-query attention)."""
    if spec.kv_heads and spec.heads:
        return spec.hidden // spec.heads * spec.kv_heads
    return spec.hidden


def experts(spec: ModelSpec) -> tuple[int, int]:
    """(experts per layer, experts each token is routed to) of a mixture-of-experts model; (0, 0) when dense.
    Read from the spec's ``experts`` / ``experts_per_token`` where the catalogue states them (2 routed when
    it states only the count: Mixtral's top-2)."""
    e = int(getattr(spec, "experts", 0) or 0)
    if e <= 1:
        return 0, 0
    k = int(getattr(spec, "experts_per_token", 0) or getattr(spec, "active_experts", 0) or 2)
    return e, min(k, e)


def is_llama(c: Case) -> bool:
    return c.runtime.startswith("llama.cpp")


def format_key(c: Case) -> str | None:
    """The weight format's kernel an LLM inference case runs (its ``q.``/``qc.`` parameters), or None (16 bits,
    or not LLM inference)."""
    if c.task not in ("decode", "prefill"):
        return None
    name = c.kernel or c.precision
    if is_llama(c) and name in LLAMA_FORMAT_KEY:
        return LLAMA_FORMAT_KEY[name]
    return FORMAT_KEY.get(name)


def dequant_copy(c: Case) -> bool:
    """Prompt processing dequantises every weight to an FP16 copy first (DEQUANT_COPY; Marlin does not)."""
    return not is_llama(c) and c.precision in DEQUANT_COPY and c.kernel != "marlin" and packed_bits(c) is not None


def ubatches(c: Case) -> int:
    """Batches of up to UBATCH tokens llama.cpp's prompt processing runs: the prompts of a batch of sequences
    are packed together (its ``n_ubatch``)."""
    return math.ceil(c.seq * c.batch / UBATCH)


def packed_bits(c: Case) -> float | None:
    """Bits per stored weight of a packed format (None: the precision's bytes per weight)."""
    if c.bits:
        return c.bits
    if is_llama(c):
        return BITS_PER_WEIGHT.get(c.precision, 32.0)
    if c.runtime not in ("pytorch", "pytorch-2019", "fused") and (c.precision in WEIGHT_ONLY or c.precision == "fp8"):
        return float(BITS_PER_WEIGHT[c.precision])
    return None


def head_tokens(c: Case) -> int:
    """Tokens of a prompt the output head is computed for: llama.cpp since 2024 (March 2024: the last layer
    keeps only the tokens whose logits are asked for, the last one when a prompt is processed) and the serving
    runtimes (vLLM, TensorRT-LLM, exllamav2 and compiled loops keep the last token's hidden state) compute it
    for one; llama.cpp before, eager transformers and PyTorch for every token."""
    one = c.runtime in ("llama.cpp", "vllm", "tensorrt-llm", "exllamav2", "compiled")
    return 1 if c.task == "prefill" and one else c.seq
