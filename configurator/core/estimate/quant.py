"""Quantisation as a format, not a bit width: the workload's ``quant`` and what each format stores and needs.

Each format states its bytes per weight (the packed values plus their group's scales and zeros), the model
format of the throughput model that prices it (:mod:`throughput`: ``q.<key>`` and ``qc.<key>``, its kernel's
weight-streaming and GEMM efficiency, fitted to published rows of that kernel), the runtimes that run it
and with which kernel, and the compute capability each kernel needs.

Bits per weight (weights of the transformer blocks' linear layers; embeddings and output head stay in 16
bits except in GGUF, which quantises the head with the rest):

    AWQ, GPTQ (4 bit, groups of 128)   4 + (16-bit scale + 4-bit zero) / 128 = 4.156
    bitsandbytes NF4                   4 + 8/64 + 32/(64·256) = 4.127 (uint8 absmax per 64, double quantised:
                                       Dettmers et al. 2023, QLoRA §2)
    bitsandbytes LLM.int8              8 + a 32-bit scale per row (≈ 8.0)
    GGUF Q4_K_M                        4.85 (Q4_K super-blocks with some tensors at Q6_K: llama.cpp's quantize)
    GGUF Q8_0                          (32 × 8 + 16) / 32 = 8.5
    torchao int4 weight-only           4 + (bf16 scale + bf16 zero) / 128 = 4.25 (tinygemm, group 128)
    torchao int8 weight-only           8 + a scale per output channel (≈ 8.0)
    fp8 weight-only (W8A16)            8 (+ a scale per channel): multiplied in 16 bits (FP8 Marlin)
    fp8 W8A8                           8: weights and activations in FP8 on FP8 tensor cores
    EXL2                               its stated average, 4.65 when not given (exllamav2's preset)

Compute capability: FP8 tensor cores need ≥ 8.9 (Ada, Hopper, Blackwell); Marlin kernels (vLLM's GPTQ/AWQ/FP8
W8A16) ≥ 8.0; AWQ's own kernels ≥ 7.5; vLLM's support table: https://docs.vllm.ai/en/v0.9.2/features/
quantization/supported_hardware.html ("FP8 (W8A8): Ada, Hopper", "Marlin (GPTQ/AWQ/FP8): Ampere, Ada, Hopper",
"AWQ: Turing and newer"). torchao's int4 tinygemm kernel works on bf16 (``_weight_int4pack_mm``, pytorch/ao
PR 131), which the tensor cores run from compute capability 8.0 (pytorch/ao issue 1110 reports it failing on
a T4, 7.5).
"""

from __future__ import annotations

from dataclasses import dataclass

from configurator.core.i18n import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class Kernel:
    """A kernel a runtime runs a format with: the throughput model's format key (its fitted efficiencies), the
    lowest compute capability it runs on (None: any the runtime runs on), and its name as shown."""

    key: str
    min_cc: float | None
    name: str


@dataclass(frozen=True)
class Quant:
    name: str  # as shown
    bits: float  # bits per weight of the quantised (linear) weights, scales and zeros included
    width: str  # "int4" | "int8" | "fp8": the bit width the workload's precision may also name
    head_quantised: bool  # GGUF: the output head is quantised with the body; the others keep it in 16 bits
    kernels: dict[str, Kernel]  # runtime (core/build/limits.py INFER_RUNTIMES) -> its kernel
    fallback: dict[str, Kernel]  # runtime -> the kernel it runs below its first kernel's compute capability
    default_runtime: str


_AWQ_GEMM = Kernel("awq", 7.5, "AutoAWQ GEMM, fused modules")
_MARLIN = Kernel("marlin", 8.0, "Marlin")
_GPTQ_EXL = Kernel("gptq", None, "ExLlamaV2 GPTQ")
_NF4 = Kernel("nf4", None, "bitsandbytes NF4")
_TINYGEMM = Kernel("int4", 8.0, "torchao int4 tinygemm")
_INT8_WO = Kernel("int8", None, "torchao int8 weight-only")
_FP8_W8A8 = Kernel("fp8", 8.9, "FP8 tensor cores (W8A8)")

QUANTS: dict[str, Quant] = {
    "awq": Quant("AWQ 4-bit (group 128)", 4 + 20 / 128, "int4", False,
                 {"transformers": _AWQ_GEMM, "vllm": _MARLIN,
                  "tensorrt-llm": Kernel("awq", 7.5, "TensorRT-LLM W4A16 AWQ")},
                 {"vllm": Kernel("awq", 7.5, "vLLM AWQ")}, "transformers"),
    "gptq": Quant("GPTQ 4-bit (group 128)", 4 + 20 / 128, "int4", False,
                  {"transformers": _GPTQ_EXL, "vllm": _MARLIN, "exllamav2": _GPTQ_EXL,
                   "tensorrt-llm": Kernel("gptq", None, "TensorRT-LLM W4A16 GPTQ")},
                  {"vllm": Kernel("gptq", 7.0, "vLLM GPTQ (ExLlamaV2 kernel)")}, "transformers"),
    "bnb-nf4": Quant("bitsandbytes NF4", 4 + 8 / 64 + 32 / (64 * 256), "int4", False,
                     {"transformers": _NF4, "vllm": _NF4}, {}, "transformers"),
    "bnb-int8": Quant("bitsandbytes LLM.int8", 8.0, "int8", False,
                      {"transformers": Kernel("bnb-int8", None, "bitsandbytes LLM.int8")}, {}, "transformers"),
    "gguf-q4_k_m": Quant("GGUF Q4_K_M", 4.85, "int4", True,
                         {"llama.cpp": Kernel("q4_k_m", None, "llama.cpp Q4_K"),
                          "vllm": Kernel("q4_k_m", 7.0, "vLLM GGUF")}, {}, "llama.cpp"),
    "gguf-q8_0": Quant("GGUF Q8_0", 8.5, "int8", True,
                       {"llama.cpp": Kernel("q8_0", None, "llama.cpp Q8_0"),
                        "vllm": Kernel("q8_0", 7.0, "vLLM GGUF")}, {}, "llama.cpp"),
    "torchao-int4": Quant("torchao int4 weight-only (group 128)", 4 + 32 / 128, "int4", False,
                          {"transformers": _TINYGEMM, "torch-compile": _TINYGEMM}, {}, "torch-compile"),
    "torchao-int8": Quant("torchao int8 weight-only", 8.0, "int8", False,
                          {"transformers": _INT8_WO, "torch-compile": _INT8_WO}, {}, "torch-compile"),
    "fp8": Quant("FP8 weight-only (W8A16)", 8.0, "fp8", False,
                 {"vllm": Kernel("fp8-wo", 8.0, "FP8 Marlin (W8A16)")}, {}, "vllm"),
    "fp8-w8a8": Quant("FP8 W8A8", 8.0, "fp8", False,
                      {"vllm": _FP8_W8A8, "tensorrt-llm": _FP8_W8A8,
                       "torch-compile": Kernel("fp8", 8.9, "torchao float8")},
                      {}, "vllm"),
    "exl2": Quant("EXL2 (4.65 bits per weight)", 4.65, "int4", False,
                  {"exllamav2": Kernel("exl2", None, "ExLlamaV2 EXL2")}, {}, "exllamav2"),
}

# Precision fp8 (training and inference): the GEMMs run on FP8 tensor cores (Transformer Engine, torchao float8,
# vLLM / TensorRT-LLM fp8), which compute capability 8.9 brings (Ada, Hopper, Blackwell).
FP8_MIN_CC = 8.9
FP8_RUNTIMES = ("pytorch", "torch-compile", "vllm", "tensorrt-llm")
FP8_DEFAULT_INFER_RUNTIME = "vllm"

NO_FP8 = QT_TRANSLATE_NOOP(
    "build", "{gpu} (compute capability {cc}) has no FP8 tensor cores: fp8 needs compute capability {need} "
             "(Ada, Hopper, Blackwell: RTX 40/50, L4, L40S, H100/H200)")
KERNEL_NEEDS = QT_TRANSLATE_NOOP(
    "build", "{gpu} (compute capability {cc}) cannot run {quant} in {runtime}: its kernel ({kernel}) needs "
             "compute capability {need} or newer")


def kernel_for(quant: str, runtime: str, cc: float | None) -> Kernel | None:
    """The kernel ``runtime`` runs ``quant`` with on a card of compute capability ``cc`` (None: not known, the
    first kernel): its first, or its fallback below the first's requirement; None where it cannot run it."""
    q = QUANTS[quant]
    first = q.kernels.get(runtime)
    if first is None:
        return None
    if cc is None or first.min_cc is None or cc >= first.min_cc:
        return first
    low = q.fallback.get(runtime)
    if low is not None and (low.min_cc is None or cc >= low.min_cc):
        return low
    return None


def needs(quant: str, runtime: str) -> float | None:
    """The lowest compute capability on which ``runtime`` runs ``quant`` at all (with its fallback kernel)."""
    q = QUANTS[quant]
    k = q.fallback.get(runtime) or q.kernels.get(runtime)
    return k.min_cc if k is not None else None


def runtimes_for(quant: str) -> tuple[str, ...]:
    return tuple(QUANTS[quant].kernels)
