"""The fitted parameters (theta) of the throughput model: each global efficiency, rate or per-kernel cost with its
stated prior and spread (GLOBALS, with the published figure each prior rests on), the per-architecture deviations,
and their order in the parameter vector (NAMES, INDEX) that :mod:`configurator.core.estimate.fit` fits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from configurator.core.estimate.throughput.runtimes import ARCHS, FORMAT_KEYS, FORMAT_SIGMA


@dataclass(frozen=True)
class Param:
    name: str
    prior: float  # the prior value (an efficiency, FLOP/J or seconds)
    sigma: float  # prior spread in log space: ridge weight 1/σ² towards log(prior)
    what: str


# Global parameters and their priors. Per-architecture deviations (``tc@Ampere`` …) have prior 0
# in log space (= the global value) with spread ARCH_SIGMA; an architecture without measurements
# (Blackwell today) gets the global values.
GLOBALS: tuple[Param, ...] = (
    Param("tc", 0.5, 1.0, "share of the dense tensor peak (FP32-accumulate figure) GEMMs reach"),
    Param("conv", 0.7, 0.5, "convolutions relative to GEMMs (implicit-GEMM overheads)"),
    Param("simt", 0.5, 0.5, "share of the shader FP32 peak"),
    # cuDNN runs FP32 3×3 convolutions as Winograd F(2×2, 3×3): 2.25× fewer multiplies on the 3×3
    # layers, about half of a ResNet's FLOPs, so ≈ 1.4× the implicit-GEMM rate × its 0.7 overheads
    Param("conv.simt", 1.0, 0.3, "FP32 convolutions on the shader cores relative to SGEMM (Winograd 3×3)"),
    Param("pwr", 2.5e11, 1.0, "FP16 tensor FLOPs per joule of board power (power-limited sustained rate; a "
          "FLOP of a slower format costs the unit's rate ratio more: TF32 twice, INT8 half)"),
    Param("bw", 0.6, 0.5, "share of DRAM bandwidth eager PyTorch's memory-bound kernels reach"),
    # cuDNN's FP16 tensor-core convolutions work on NHWC; NCHW tensors (PyTorch's default memory
    # format) are transposed on the way in and out: forward input and output, backward gradients,
    # each read and written: ≈ 8 passes over every convolution's output
    Param("nchw", 8.0, 0.5, "passes over each convolution output that NCHW layout transposes add "
          "(16-bit tensor-core convolutions)"),
    Param("ipb", 2.0, 0.7, "instructions eager memory-bound kernels issue per byte they move"),
    Param("launch.pytorch", 6e-6, 1.0, "seconds per kernel launch, eager PyTorch"),
    # prior: 2.5 × the current figure: PyTorch 1.2's per-operator Python dispatch and autograd recording
    # (and APEX O2's casts) ran the CPU side of an eager operator well above a kernel launch
    Param("launch.pytorch-2019", 15e-6, 0.7, "seconds per operator, eager PyTorch 1.x of 2019 (NGC 19.xx, APEX)"),
    # prior: FlashAttention trains GPT-2 1.7× faster than Megatron-LM's eager kernels (Dao et al. 2022, table 2)
    Param("fused", 1.7, 0.5, "speed of fused-attention LLM training's GEMM work (SDPA/FlashAttention, fused "
          "kernels) relative to eager PyTorch's, on both the compute and the power limit"),
    Param("launch.llama.cpp", 4e-6, 1.0, "seconds per kernel launch, llama.cpp"),
    Param("tc.llama.cpp", 0.7, 0.5, "llama.cpp's cuBLAS GEMMs (FP16 accumulate, against that peak) relative to "
          "PyTorch's (FP32 accumulate, against theirs)"),
    Param("ipw.dequant", 8.0, 0.7, "instructions llama.cpp's dequantisation issues per weight it unpacks "
          "(prompt processing of quantised weights)"),
    Param("bw.llama.cpp", 1.3, 0.5, "llama.cpp weight streaming (decode) relative to PyTorch's elementwise"),
    Param("launch.llama.cpp-2023", 8e-6, 1.0, "seconds per kernel launch, llama.cpp before 2024 (no CUDA graphs)"),
    Param("tc.llama.cpp-2023", 0.5, 1.0, "GEMMs of llama.cpp before 2024 relative to its later cuBLAS GEMMs"),
    # the Dec-2023 table's q4_0 prompts take 33-63 ms longer than FP16 on every card, 35-47 ms on the HBM cards
    # whose bandwidth accounts for ~10 ms of it: a cost per matrix multiplication more than per byte. Prior:
    # four of the runtime's launches (dequantise, convert the activations, GEMM, convert back) with their
    # buffer-pool round trips; the data moves it little (the LOO of the A100 and H100 rows rests on it)
    Param("dequant.llama.cpp-2023", 32e-6, 1.0, "seconds per dequantised matrix multiplication in prompt "
          "processing, llama.cpp before 2024"),
    Param("cpu", 0.35, 0.3, "share of the CPU vector peak oneDNN GEMMs/convolutions reach (no CPU data: prior)"),
    Param("bw.cpu", 0.6, 0.3, "share of the CPU memory bandwidth reached (no CPU data: prior)"),
    Param("launch.cpu", 10e-6, 0.5, "seconds per operator on the CPU (no CPU data: prior)"),
    # --- LLM inference runtimes. Priors from published figures; each is fitted where rows of its runtime exist.
    # gpt-fast's eager starting point decodes LLaMA-7B at 25.5 tokens/s on an A100-80GB (330 W), "heavily CPU
    # overhead bound" (https://pytorch.org/blog/accelerating-generative-ai-2/): 39 ms per token, of which the
    # weights' 13.5 GB take ~11 ms at eager PyTorch's share of the bandwidth; ~28 ms over the model's 452
    # kernels of a decode step ≈ 60 µs each (Python dispatch of the several operators behind each kernel)
    Param("launch.transformers", 60e-6, 0.7, "seconds per kernel of a decode/prefill step, transformers' eager "
          "generate (each operator dispatched from Python)"),
    # gpt-fast with torch.compile (static KV cache, CUDA graphs): LLaMA-2-7B 104.9 tokens/s on one A100-80GB,
    # TP 2/4/8: 168.84/254.02/328.43 (README at commit 0f925b5: https://github.com/pytorch-labs/gpt-fast/blob/
    # 0f925b5d4ce457b89a7ca6c9ce50f42bf2576945/README.md). t(n) − t(2n) halves with n: the weights stream at
    # 1.70 TB/s (0.83 of 2.04 TB/s, 1.35× eager's 0.62) plus a fixed 1.6 ms at n = 1 (452 kernels: 3.5 µs each)
    Param("bw.compiled", 1.35, 0.3, "torch.compile decode weight streaming relative to eager PyTorch's elementwise"),
    Param("launch.compiled", 3.5e-6, 0.7, "seconds per kernel, torch.compile with CUDA graphs"),
    # no published batch-1 figure read for vLLM and TensorRT-LLM: the priors of the other CUDA-graph runtimes
    # (llama.cpp's 1.3, gpt-fast's 3.5 µs), wide; fitted once rows of their runtime exist
    Param("bw.vllm", 1.3, 0.5, "vLLM decode weight streaming relative to eager PyTorch's elementwise"),
    Param("launch.vllm", 5e-6, 1.0, "seconds per kernel, vLLM (CUDA graphs; its scheduler's step included)"),
    Param("bw.tensorrt-llm", 1.3, 0.5, "TensorRT-LLM decode weight streaming relative to eager PyTorch's"),
    Param("launch.tensorrt-llm", 3.5e-6, 1.0, "seconds per kernel, TensorRT-LLM"),
    # exllamav2's README: LLaMA-7B GPTQ 4-bit g128 at 195 tokens/s on an RTX 4090 (https://github.com/lm-sys/
    # FastChat/blob/main/docs/exllama_v2.md quotes it): 3.6 GB per token in 5.1 ms, 0.86 of 1008 GB/s with
    # ~2 µs per kernel of its fused layers
    Param("bw.exllamav2", 1.4, 0.3, "exllamav2 decode weight streaming relative to eager PyTorch's elementwise"),
    Param("launch.exllamav2", 2e-6, 1.0, "seconds per kernel, exllamav2"),
    # bitsandbytes in eager PyTorch: NF4 decodes Mistral-7B at 36.5 tokens/s against FP16's 48.6 (bitsandbytes
    # issue 611: https://github.com/bitsandbytes-foundation/bitsandbytes/issues/611, GPU not stated): 6.8 ms
    # more per token although it reads 9.8 GB less (8–16 ms at eager PyTorch's share of 1–2 TB/s), over 224
    # quantised projections: 65–100 µs each (absmax dequantisation, the 4-bit GEMV, Python glue)
    Param("dequant.nf4", 80e-6, 0.7, "seconds per NF4 matrix multiplication (bitsandbytes) beyond its kernel"),
    # LLM.int8 runs at 15 % of FP16's speed (bitsandbytes issue 181) and "about 5× as slow as bf16" (issue 490:
    # https://github.com/bitsandbytes-foundation/bitsandbytes/issues/490): with FP16 at ~21 ms per token, 80–120 ms
    # more over 224 projections ≈ 450 µs each (outlier detection, decomposition, int8 GEMM and casts)
    Param("dequant.bnb-int8", 450e-6, 0.5, "seconds per LLM.int8 matrix multiplication (bitsandbytes)"),
    # --- parallelism. gpt-fast's tensor-parallel rows (above): beyond the halving weight stream, t(n) carries
    # a fixed 1.96 ms at 7B (64 all-reduces) and 5.7 ms at 70B (160) for n = 2..8, less the per-kernel 1.6 and
    # 3.9 ms: 5–11 µs per all-reduce of one token's activations over NVLink
    Param("allreduce", 8e-6, 0.7, "seconds per all-reduce of a small tensor over NVLink (NCCL latency)"),
    # AutoAWQ's fused modules run eager (no CUDA graphs) with fewer, larger kernels than transformers' modules:
    # prior between the CUDA-graph runtimes and eager dispatch, wide; fitted to its benchmark table
    Param("launch.autoawq", 8e-6, 2.0, "seconds per kernel, AutoAWQ's fused modules (eager, no CUDA graphs)"),
    # --- weight formats (quant.py): each kernel's weight streaming and GEMMs relative to the runtime's 16-bit
    # ones. Prior 1 (a packed weight streams like a 16-bit one, a dequantising GEMM runs like a 16-bit GEMM);
    # fitted where published rows of that kernel exist (AutoAWQ GEMM/GEMV, GPTQ ExLlamaV2 and Marlin,
    # bitsandbytes FP4/NF4, EXL2, GGUF Q4_0/Q4_K_M, gpt-fast int4/int8), the prior elsewhere (Q8_0, fp8). GGUF's
    # kernels are llama.cpp's own and share its fitted 16-bit efficiencies: σ 0.5; the other kernels are
    # separate code, measured on one or two GPUs each: σ 2, so that their rows move their own parameters
    # rather than the shared ones (with σ 0.5 the AutoAWQ rows, all on one RTX 4090, moved the Ada card's
    # GEMM efficiency enough to take BERT training's worst held-out row from 31 % to 32 %)
    *(Param(f"q.{k}", 1.0, FORMAT_SIGMA.get(k, 2.0), f"{k}: its kernel's weight streaming relative to 16-bit "
            "weights") for k in FORMAT_KEYS),
    *(Param(f"qc.{k}", 1.0, FORMAT_SIGMA.get(k, 2.0), f"{k}: its matrix multiplications (dequantising in the "
            "kernel) relative to 16-bit GEMMs") for k in FORMAT_KEYS),
    # --- training. PyTorch 2.0's torch.compile trains 163 open-source models 1.38× faster on average on an
    # A100 with AMP (unverified figure: the PyTorch 2.0 announcement, https://pytorch.org/get-started/pytorch-2.0/):
    # Inductor fuses the elementwise kernels, taken as a share of eager's memory traffic and kernels that remains
    Param("fusion.compiled", 0.5, 0.5, "share of eager PyTorch's memory-bound traffic and kernels left after "
          "torch.compile's fusion (training)"),
)
ARCH_PARAMS: tuple[str, ...] = ("tc", "pwr", "bw")
ARCH_SIGMA = 0.3  # ≈ ±35 %: how far an architecture family may sit from the global value without data


def param_names() -> tuple[str, ...]:
    return tuple(p.name for p in GLOBALS) + tuple(f"{k}@{a}" for k in ARCH_PARAMS for a in ARCHS)


NAMES = param_names()
INDEX: dict[str, int] = {n: i for i, n in enumerate(NAMES)}


def prior_theta() -> list[float]:
    """Log-space prior of every parameter (0 for the per-architecture deviations)."""
    return [math.log(p.prior) for p in GLOBALS] + [0.0] * (len(NAMES) - len(GLOBALS))


def prior_sigma() -> list[float]:
    return [p.sigma for p in GLOBALS] + [ARCH_SIGMA] * (len(NAMES) - len(GLOBALS))
