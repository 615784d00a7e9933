"""Throughput of a workload on one GPU (or the CPU): per-layer-type work over the unit it runs on.

The time of one step is a sum of terms, each a piece of work over a rate times an efficiency:

    t = F / (peak_unit × e_unit)          GEMM and convolution FLOPs on the unit the precision runs on:
                                          Tensor Cores for fp16/bf16/amp (and TF32 for fp32 on
                                          compute capability ≥ 8.0), shader FP32 cores otherwise;
                                          llama.cpp's cuBLAS GEMMs accumulate in FP16, which GeForce
                                          boards run at twice their FP32-accumulate rate
      + F·r / (P_board × φ)               the same FLOPs against the board power: a card sustains at most
                                          φ FP16 FLOPs per joule (the power-limited rate of many cards sits
                                          far below their spec-sheet tensor peak); r weighs a FLOP by its
                                          format's rate (TF32 2, INT8 or FP16 accumulate on GeForce ½)
      + B / (bandwidth × e_bw)            memory-bound traffic on DRAM: elementwise, normalisation,
                                          softmax, optimizer updates; NCHW transposes around FP16
                                          convolutions; llama.cpp's FP16 copies of quantised weights in
                                          prompt processing; LLM decode streams every weight (+ the KV
                                          cache) once per token
      + B × ipb / issue                   the instructions those eager kernels issue per byte, over the
                                          SMs' issue rate (SMs × clock × 128)
      + K × t_launch                      launch overhead per kernel (per operator where the framework's own
                                          dispatch costs more than the launch: PyTorch of 2019); the optimizer
                                          steps of 2019 loop over the parameter tensors (kernels per tensor)
      + M × t_dequant                     llama.cpp before 2024: a fixed cost per dequantised matrix
                                          multiplication in prompt processing; bitsandbytes (NF4, LLM.int8)
                                          in transformers and QLoRA: per quantised projection and pass
      + C × α × λ_path + C × V / link     collectives of a model split over n GPUs (inference): tensor
                                          parallel 2 all-reduces per layer (V = 2(n − 1)/n × tokens × hidden
                                          × 2 B), expert parallel 2 all-to-alls per MoE layer, a pipeline n − 1
                                          hand-overs; α the NCCL latency over NVLink, λ its factor for PCIe
                                          P2P (2) and the path through host memory (4)
      + S / (B_host × e_bw,cpu) + X / B_pcie   training with offload: the optimizer step on the host and the
                                          gradients/weights (and saved activations) over PCIe, half hidden

LLM inference as the machine runs it (:func:`llm_cases`), for a batch of b streams, prompts of p tokens and g
generated tokens each:

    decode step (b tokens):  F = b × (2 N_body + 2 V h + 4 L ctx h),  ctx = p + g/2 (the generation's mean)
                             B = W (the weights, read once per step for all b streams) + b × KV(ctx)
                             (each stream's own cache: 2 L ctx h_kv × 2 B), kernels per step as for one
    tokens/s of the batch = b / t(step);  one stream alone = 1 / t(step at b = 1)
    prefill (b prompts):     F = b × p × (2 N + attention over p/2), B = W once per step (+ the dequantised FP16
                             copies of formats that make them: llama.cpp once per ⌈b p / 512⌉ packed batches of
                             tokens), kernels per step: its rate b p / t grows with b while W and the kernels
                             dominate, and flattens where the FLOPs do (compute-bound)

The machine's figure (``throughput_total``) is the batch's tokens/s times the model copies the build holds.

Weight formats (the workload's ``quant``: quant.py): bits per weight with the group's scales and zeros; each
format's kernel has its own efficiencies q.<key> (× on the weight streaming: t_mem = B / (bandwidth × e_bw ×
q)) and qc.<key> (× on its GEMMs), fitted to published rows of that kernel. FP8 (``precision: fp8``, and
quant fp8-w8a8) runs on FP8 tensor cores at twice the FP16 FP32-accumulate rate (compute capability ≥ 8.9).

Runtimes (the workload's ``runtime``; default llama.cpp for LLM inference, PyTorch for training): each has
its own decode bandwidth share e_bw,rt and seconds per kernel t_launch,rt — transformers' eager ``generate``
(Python dispatch of each operator: overhead-bound at batch 1), torch.compile with CUDA graphs (near the
bandwidth bound), vLLM, exllamav2, TensorRT-LLM, llama.cpp — and its weight formats for int8/int4 (FORMATS:
bitsandbytes NF4/LLM.int8, gpt-fast int8/int4, AWQ, EXL2, GGUF), read at their bits per weight; formats that
dequantise to an FP16 copy for prompts (bitsandbytes, exllamav2) pay 4 B per weight and its unpacking.
With tensor parallelism each GPU reads 1/n of the weights and KV cache and does 1/n of the FLOPs; kernels
do not split. A pipeline does not speed one stream (its stages run in turn). A mixture of experts reads the
experts its tokens are routed to (1 − (1 − k/E)^tokens of them); expert parallelism spreads them n ways.

Training: full fine-tuning 6N FLOPs per token (+ attention); LoRA/QLoRA ≈ 4N (the frozen weights get
activation gradients, no weight gradients) + 6 per adapter weight, and 5 kernels per adapted projection
and pass; activation checkpointing runs the forward again (+2N, its traffic and kernels); QLoRA
dequantises every NF4 weight in each pass (2.5 B per weight and its unpacking). The optimizer step moves
OPTIMIZER_TRAFFIC bytes per trained parameter (AdamW FP32 28, bf16 14, 8-bit 16, SGD 20); torch.compile
leaves a fitted share of eager's memory-bound traffic and kernels.

Several GPUs (data parallel): speedup = N × η^log2(N) × t / (t + (1 − overlap) · t_allreduce), with
the ring all-reduce time from the GPU-to-GPU link, of every gradient (of the adapters alone under LoRA).
Inference of one stream is not multiplied by the number of GPUs: several GPUs help one stream only through
tensor (or expert) parallelism.
The CPU uses the same terms with its vector peak (cores × lanes × 2 FMA × 2 × clock) and the
bandwidth of its installed memory (channels × MT/s × 8 B).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from configurator.core.build import Workload
from configurator.core.estimate.memory import ACT_BYTES, LORA_PROJECTIONS, WEIGHT_BYTES, lora_params
from configurator.core.estimate.quant import QUANTS
from configurator.core.estimate.quant import kernel_for as quant_kernel
from configurator.core.model_specs import ModelSpec
from configurator.core.parts import Cpu, Gpu
from configurator.core.vision import pipeline_work, vision_scaled

if TYPE_CHECKING:
    from configurator.core.estimate.fit import Fit

OVERLAP = 0.5  # share of the all-reduce DDP hides behind the backward pass (bucketed)
ARCHS: tuple[str, ...] = ("Volta", "Turing", "Ampere", "Ada", "Hopper", "Blackwell")
# llama.cpp before 2024 (no CUDA graphs, older kernels) and since: measured apart, fitted apart.
# "fused": PyTorch training as current LLM stacks run it, with fused attention (SDPA/FlashAttention)
# and fused kernels (measured: MosaicML llm-foundry); the planner uses it for transformer training
# with the workload's attention "sdpa", eager PyTorch ("pytorch", measured: NVIDIA DLE) otherwise.
# "pytorch-2019": eager PyTorch 1.x as NGC's 2019 containers ran it (19.xx: PyTorch 1.2 with APEX AMP), which
# the measurements of that year (NVIDIA DLE's BERT tables, NGC 19.07) were made with; the planner never uses
# it (it estimates current software), the fit keeps those rows from pulling current PyTorch's parameters.
# LLM inference runtimes (the workload's ``runtime``): "transformers" (Hugging Face ``generate``, eager
# PyTorch: each operator dispatched from Python), "compiled" (torch.compile with a static KV cache and CUDA
# graphs, as gpt-fast and transformers' static cache run it), "vllm", "exllamav2", "tensorrt-llm".
# "autoawq": AutoAWQ's fused modules (its attention, MLP and KV cache; eager PyTorch without CUDA graphs), which
# its benchmark table was measured with; the planner never uses it (transformers runs AWQ through the same kernels).
RUNTIMES: tuple[str, ...] = ("pytorch", "pytorch-2019", "fused", "llama.cpp", "llama.cpp-2023",
                             "transformers", "compiled", "vllm", "exllamav2", "tensorrt-llm", "autoawq")
# The workload's inference runtime (core/build.py INFER_RUNTIMES) → the model's runtime.
INFER_RUNTIME = {"transformers": "transformers", "torch-compile": "compiled", "vllm": "vllm",
                 "llama.cpp": "llama.cpp", "exllamav2": "exllamav2", "tensorrt-llm": "tensorrt-llm"}
# Runtimes whose memory-bound kernels are eager PyTorch kernels (the ``ipb`` instruction term applies);
# the others fuse them (CUDA graphs, custom kernels).
EAGER = ("pytorch", "pytorch-2019", "fused", "transformers")
# Stated, uncalibrated prior for vendors without measurements: AMD (ROCm) and Intel reach half of
# what an NVIDIA card of the same spec-sheet figures reaches (the guides call ROCm poorly compatible).
VENDOR_FACTOR = {"nvidia": 1.0, "amd": 0.5, "intel": 0.5}
# Bits per weight as stored: GGUF block formats carry a scale per block of 32 (q4_0: 18 B / 32 weights);
# bitsandbytes NF4 a uint8 absmax per 64 weights with double quantisation (+ an fp32 per 256 absmax):
# 4 + 8/64 + 32/(64·256) (Dettmers et al. 2023, QLoRA §2); AWQ/GPTQ with groups of 128: an fp16 scale and
# a 4-bit zero per group, 4 + 20/128; EXL2 states its own average (``Case.bits``: its bpw), 4.65 when not
# given (exllamav2's 4.65 bpw preset); LLM.int8 and fp8: a byte per weight (a scale per row); gpt-fast's
# int4 a bf16 scale and zero per group of 32: 4 + 32/32.
BITS_PER_WEIGHT = {"fp32": 32.0, "tf32": 32.0, "amp": 16.0, "fp16": 16.0, "bf16": 16.0, "fp8": 8.0,
                   "int8": 8.5, "q8_0": 8.5, "q5_k_m": 5.7, "q4_k_m": 4.85, "q4_0": 4.5, "int4": 4.5,
                   "nf4": 4.127, "bnb-int8": 8.0, "awq": 4.16, "gptq": 4.16, "exl2": 4.65, "int4-g32": 5.0,
                   "bnb-fp4": 4.127, "fp8-wo": 8.0}
QUANTISED = ("int8", "int4", "q8_0", "q5_k_m", "q4_k_m", "q4_0")
# Weight-only formats of the LLM runtimes: stored packed, multiplied in 16 bits (the FP16 tensor peak).
# GGUF's formats run weight-only outside llama.cpp too (vLLM's GGUF kernels); fp8-wo: FP8 weights multiplied in 16
# bits (FP8 Marlin, W8A16).
WEIGHT_ONLY = ("nf4", "bnb-fp4", "bnb-int8", "awq", "gptq", "exl2", "int8", "int4", "int4-g32", "q4_k_m", "q8_0",
               "fp8-wo")
# The kernels of the weight formats, each with its own fitted efficiencies (``q.<key>`` on the weight streaming,
# ``qc.<key>`` on the GEMMs): a Case's ``kernel`` where it names one (AutoAWQ's GEMV kernel, Marlin), else its
# precision. bitsandbytes' FP4 runs NF4's code path; gpt-fast's int4 is torchao's tinygemm; llama.cpp's int8 /
# int4 are Q8_0 / Q4_0.
FORMAT_KEY = {"awq": "awq", "awq-gemv": "awq-gemv", "gptq": "gptq", "marlin": "marlin", "nf4": "nf4",
              "bnb-fp4": "nf4", "bnb-int8": "bnb-int8", "exl2": "exl2", "q4_k_m": "q4_k_m", "q4_0": "q4_0",
              "q8_0": "q8_0", "int4": "int4", "int4-g32": "int4", "int8": "int8", "fp8": "fp8", "fp8-wo": "fp8-wo"}
LLAMA_FORMAT_KEY = {"int8": "q8_0", "int4": "q4_0"}
FORMAT_KEYS: tuple[str, ...] = tuple(dict.fromkeys(FORMAT_KEY.values()))
FORMAT_SIGMA = {"q4_0": 0.5, "q4_k_m": 0.5, "q8_0": 0.5}  # prior spread of the format parameters (GLOBALS)
# Formats whose prompt processing first dequantises every weight to an FP16 copy (written, then read by a
# cuBLAS GEMM): bitsandbytes (``dequantize_4bit`` then ``F.linear`` for more than one token; LLM.int8's
# outlier decomposition), exllamav2 (it reconstructs FP16 weights for long inputs); AWQ/GPTQ through
# Marlin (vLLM) and TensorRT-LLM's kernels multiply the packed weights directly.
DEQUANT_COPY = ("nf4", "bnb-fp4", "bnb-int8", "exl2", "gptq")
# The weight format of the workload's int8 / int4 in each runtime (its usual path; the refusals of
# formats a runtime cannot run are core/build.py's RUNTIME_PRECISIONS).
FORMATS: dict[tuple[str, str], str] = {
    ("transformers", "int8"): "bnb-int8", ("transformers", "int4"): "nf4",  # bitsandbytes
    ("compiled", "int8"): "int8", ("compiled", "int4"): "int4-g32",  # gpt-fast's weight-only int8 / int4
    ("vllm", "int8"): "int8", ("vllm", "int4"): "awq",
    ("exllamav2", "int8"): "exl2", ("exllamav2", "int4"): "exl2",
    ("tensorrt-llm", "int8"): "int8", ("tensorrt-llm", "int4"): "awq",
}
EXL2_BITS = {"int8": 8.0, "int4": 4.0}  # the EXL2 bpw the planner takes for the workload's int8 / int4
UBATCH = 512  # tokens llama.cpp's prompt processing multiplies at once (its default batch)
SIXTEEN_BIT = ("amp", "fp16", "bf16")
# Kernels the optimizer step of 2019 launched per parameter tensor (runtime "pytorch-2019"): BertAdam in
# Python (fp32: ~10 elementwise ops per tensor) and APEX's FusedAdam with AMP O2's master weights (fp16: the
# update, the master-to-model copy, unscaling, zeroing) stepped each tensor in turn; current optimizers
# (multi-tensor apply, foreach/fused AdamW) launch a handful of kernels for the whole model.
OPT_KERNELS_PER_TENSOR_2019 = 8
# Bytes an optimizer step moves per trained parameter (mixed precision: FP32 master weights and gradients,
# except adamw-bf16's pure bf16 weights): read weight and gradient, write the weight, read and write each
# state. AdamW/Adam 4+4+4 + 2×8 = 28; AdamW in bf16 2+2+2 + 2×4 = 14; bitsandbytes 8-bit AdamW (paged or
# not) 12 + 2×2 = 16; SGD with momentum 12 + 2×4 = 20; without 12.
OPTIMIZER_TRAFFIC = {"adamw": 28.0, "adam": 28.0, "adamw-bf16": 14.0, "adamw8bit": 16.0,
                     "paged-adamw8bit": 16.0, "sgd": 20.0, "sgd_nomomentum": 12.0}
# Extra kernels a LoRA adapter adds to each adapted projection in a forward pass (dropout, the A and B
# matrix multiplications, scaling and the add; PEFT's ``lora.Linear.forward``), and in backward twice that.
LORA_KERNELS = 5
# Collective latency of a link relative to NVLink (the ``allreduce`` parameter): NCCL's PCIe P2P transport
# and its SHM path through host memory add copies and proxy hops per collective. An assumption of this model
# (no published latency read), stated where it is used.
LINK_LATENCY = {"nvlink": 1.0, "baseboard": 1.0, "pcie": 2.0, "host": 4.0}
# A host memory bandwidth to assume when the build has no CPU or memory (dual-channel DDR4-3200: 51 GB/s)
HOST_BW_DEFAULT = 51.2e9


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


# ---------------------------------------------------------------------------------------------
# hardware and workload, reduced to what the terms need


@dataclass(frozen=True)
class Hw:
    kind: str  # "gpu" | "cpu"
    arch: str | None  # one of ARCHS, or None (other vendors, CPU): global parameters only
    fp32: float  # FLOP/s on shader / vector units
    fp16_tensor: float | None  # FLOP/s, dense, FP32 accumulate
    bf16_tensor: float | None
    int8_tensor: float | None
    tf32: bool  # FP32 GEMMs/convolutions may run on Tensor Cores (TF32)
    bandwidth: float  # B/s
    power_w: float | None
    vendor_factor: float = 1.0
    fp16_acc16_tensor: float | None = None  # FLOP/s, dense, FP16 accumulate (cuBLAS compute type 16F)
    issue: float | None = None  # thread instructions per second the SMs issue (SMs × clock × 4 warps × 32)
    pcie: float | None = None  # B/s one way between this GPU and the host (offload)
    host_bw: float | None = None  # B/s of the host memory (the optimizer step of an offload)
    link: float | None = None  # B/s one way per GPU to its peers (tensor/expert parallel collectives)
    link_path: str = "pcie"  # "nvlink", "baseboard", "pcie" or "host" (LINK_LATENCY)
    cc: float | None = None  # NVIDIA compute capability (which kernel a quantised format runs with)


def arch_family(architecture: str) -> str | None:
    first = architecture.split(" ")[0] if architecture else ""
    return first if first in ARCHS else None


# Dense FP16-accumulate tensor FLOPs per FP32 shader FLOP of one SM, for the SM designs of which the
# GeForce boards run FP32 accumulate at half the FP16-accumulate rate (the catalogue's tensor figure is
# the FP32-accumulate one): Turing TU10x, 8 tensor cores × 64 FP16 FMA per clock against 64 FP32 lanes;
# GA10x, AD10x and GB20x, 4 tensor cores × 128 dense FP16 FMA against 128 FP32 lanes (NVIDIA's Turing,
# GA102 and Ada whitepapers). The data-centre SMs (7.0, 8.0, 9.0, 10.0) accumulate in FP32 at full rate.
FP16_ACC_PER_FP32 = {"7.5": 8.0, "8.6": 4.0, "8.9": 4.0, "12.0": 4.0}
# FP32 lanes per SM (64 on Volta, Turing and GA100; 128 since GA10x), to get SMs × clock from the FP32 peak;
# every SM since Volta issues 4 warp instructions (128 thread instructions) per clock
FP32_LANES_PER_SM = {"7.0": 64, "7.2": 64, "7.5": 64, "8.0": 64}


def gpu_hw(gpu: Gpu) -> Hw:
    cc = float(gpu.compute_capability) if gpu.compute_capability else 0.0
    tc = gpu.fp16_tensor_tflops * 1e12 if gpu.tensor_cores and gpu.fp16_tensor_tflops else None
    per_fp32 = FP16_ACC_PER_FP32.get(gpu.compute_capability or "") if gpu.vendor == "nvidia" else None
    acc16 = max(tc, per_fp32 * gpu.fp32_tflops * 1e12) if tc and per_fp32 else tc
    return Hw("gpu", arch_family(gpu.architecture) if gpu.vendor == "nvidia" else None, gpu.fp32_tflops * 1e12,
              tc, gpu.bf16_tensor_tflops * 1e12 if gpu.bf16_tensor_tflops else None,
              gpu.int8_tops * 1e12 if gpu.int8_tops else None,
              tc is not None and (cc >= 8.0 or gpu.vendor != "nvidia"), gpu.memory_bandwidth_gbs * 1e9,
              float(gpu.board_power_w), VENDOR_FACTOR.get(gpu.vendor, 0.5), acc16,
              gpu.fp32_tflops * 1e12 / (2 * FP32_LANES_PER_SM.get(gpu.compute_capability or "", 128)) * 128
              if gpu.vendor == "nvidia" else None, float(0.985e9 * 2 ** (gpu.pcie_gen - 3) * gpu.pcie_lanes),
              cc=cc if gpu.vendor == "nvidia" and cc else None)


def cpu_peak_flops(cpu: Cpu, sockets: int) -> float:
    lanes = 16 if cpu.avx512 else 8
    clock = (cpu.base_ghz + cpu.boost_ghz) / 2 * 1e9  # sustained all-core clock between base and boost
    return cpu.cores * sockets * lanes * 2 * 2 * clock


def cpu_hw(cpu: Cpu, sockets: int, bandwidth: float) -> Hw:
    return Hw("cpu", None, cpu_peak_flops(cpu, sockets), None, None, None, False, bandwidth, None)


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


def _llama(c: Case) -> bool:
    return c.runtime.startswith("llama.cpp")


def format_key(c: Case) -> str | None:
    """The weight format's kernel an LLM inference case runs (its ``q.``/``qc.`` parameters), or None (16 bits,
    or not LLM inference)."""
    if c.task not in ("decode", "prefill"):
        return None
    name = c.kernel or c.precision
    if _llama(c) and name in LLAMA_FORMAT_KEY:
        return LLAMA_FORMAT_KEY[name]
    return FORMAT_KEY.get(name)


def _dequant_copy(c: Case) -> bool:
    """Prompt processing dequantises every weight to an FP16 copy first (DEQUANT_COPY; Marlin does not)."""
    return not _llama(c) and c.precision in DEQUANT_COPY and c.kernel != "marlin" and _bits(c) is not None


def _ubatches(c: Case) -> int:
    """Batches of up to UBATCH tokens llama.cpp's prompt processing runs: the prompts of a batch of sequences
    are packed together (its ``n_ubatch``)."""
    return math.ceil(c.seq * c.batch / UBATCH)


def _bits(c: Case) -> float | None:
    """Bits per stored weight of a packed format (None: the precision's bytes per weight)."""
    if c.bits:
        return c.bits
    if _llama(c):
        return BITS_PER_WEIGHT.get(c.precision, 32.0)
    if c.runtime not in ("pytorch", "pytorch-2019", "fused") and (c.precision in WEIGHT_ONLY or c.precision == "fp8"):
        return float(BITS_PER_WEIGHT[c.precision])
    return None


def _head(c: Case) -> float:
    return c.spec.vocab * c.spec.hidden if c.lm_head else 0.0


def _weights(c: Case, tokens: float = 1.0) -> float:
    """Weights a forward pass of ``tokens`` tokens reads: the body, plus the output head where it is computed."""
    return _touched_body(c, tokens) + _head(c)


def _weight_bytes(c: Case, tokens: float = 1.0) -> float:
    """Bytes a forward pass reads: the body, plus the output head where it is computed. llama.cpp quantises
    the head with the body; the other runtimes' packed formats keep it (and the embeddings) in 16 bits."""
    bits = _bits(c)
    if _llama(c) and bits is not None:
        return _weights(c, tokens) * bits / 8
    if bits is None:
        return _weights(c, tokens) * WEIGHT_BYTES.get(c.precision, 4.0)
    return _touched_body(c, tokens) * bits / 8 + _head(c) * 2.0


def _head_flops(c: Case) -> float:
    """FLOPs of the output projection over the vocabulary, per token it is computed for."""
    return 2.0 * c.spec.vocab * c.spec.hidden if c.lm_head else 0.0


def _head_tokens(c: Case) -> int:
    """Tokens of a prompt the output head is computed for: llama.cpp since 2024 (March 2024: the last layer
    keeps only the tokens whose logits are asked for, the last one when a prompt is processed) and the serving
    runtimes (vLLM, TensorRT-LLM, exllamav2 and compiled loops keep the last token's hidden state) compute it
    for one; llama.cpp before, eager transformers and PyTorch for every token."""
    one = c.runtime in ("llama.cpp", "vllm", "tensorrt-llm", "exllamav2", "compiled")
    return 1 if c.task == "prefill" and one else c.seq


def _dequantised(c: Case, tokens: float = 1.0) -> float:
    """Weights prompt processing dequantises to FP16 copies: all it multiplies with, except a head that is
    computed for one token only (a matrix-vector product on the quantised weights) or kept in 16 bits."""
    if not _llama(c):
        return _touched_body(c, tokens)
    head = _head(c) if _head_tokens(c) == 1 else 0.0
    return _weights(c, tokens) - head


def _transformer_fwd_flops(c: Case, tokens: int, ctx: int) -> float:
    spec = c.spec
    return tokens * (2 * _flop_body(c) + _head_flops(c) + 4 * spec.layers * ctx * spec.hidden)


def _act_bytes(precision: str) -> float:
    return ACT_BYTES.get(precision, 4.0 if precision in ("fp32", "tf32") else 2.0)


def _lora(c: Case) -> bool:
    return c.finetune in ("lora", "qlora") and c.spec.is_transformer


def trained_params(c: Case) -> float:
    """Parameters the optimizer steps (and data parallelism all-reduces): the adapters under LoRA/QLoRA."""
    return lora_params(c.spec, c.lora_rank) if _lora(c) else c.spec.params


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


def _saved_bytes(c: Case) -> float:
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
            return vision_scaled(spec, c.task, (flops, (4 + again) * act + opt / c.accumulation, kernels))
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
        if _llama(c) and c.precision in QUANTISED:
            # cuBLAS prompt processing: each batch of up to UBATCH tokens (the batch's prompts packed together)
            # dequantises every weight to an FP16 copy (written, then read by the GEMM): 4 B per weight per batch
            nbytes += _dequantised(c) * 4.0 * _ubatches(c)
        elif _dequant_copy(c):
            nbytes += _dequantised(c, s * b) * 4.0  # the same, once per forward pass (bitsandbytes, exllamav2)
        flops = (_transformer_fwd_flops(c, s, (ctx + 1) // 2) - (s - _head_tokens(c)) * _head_flops(c)) * b
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
        moved += _dequantised(c, s * b) * 2.5 * passes
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


def _idx(*names: str) -> tuple[tuple[int, float], ...]:
    return tuple((INDEX[n], -1.0) for n in names)


def _conv_outputs(c: Case) -> float:
    """Elements of every convolution's output in one step (a third of what autograd keeps: conv, BN, ReLU)."""
    return c.spec.activation_elements_per_sample(1, False) / 3 * c.batch


def _peak(c: Case, hw: Hw) -> float | None:
    """The tensor-core rate the step's GEMMs run at (None: the shader cores)."""
    p = c.precision
    llama = _llama(c)
    if llama and (p == "fp16" or p in QUANTISED):
        # llama.cpp multiplies FP16 (and dequantised) weights with cuBLAS in FP16 accumulate
        return hw.fp16_acc16_tensor or hw.fp16_tensor
    if p == "fp8":
        # FP8 tensor cores (compute capability ≥ 8.9: Ada, Hopper, Blackwell) with FP32 accumulate, as Transformer
        # Engine, torchao float8 and vLLM's W8A8 GEMMs run them: twice the FP16 FP32-accumulate rate (RTX 4090 330.3
        # against 165.2 dense; H100 SXM 1979 against 989); elsewhere FP8 weights are multiplied in FP16
        fp8 = hw.arch in ("Ada", "Hopper", "Blackwell") and (hw.cc is None or hw.cc >= 8.9)
        return 2 * hw.fp16_tensor if fp8 and hw.fp16_tensor else hw.fp16_tensor
    if _bits(c) is not None and p in WEIGHT_ONLY:
        return hw.fp16_tensor  # weight-only formats multiply dequantised 16-bit weights
    if p in ("amp", "fp16"):
        return hw.fp16_tensor
    if p == "bf16":
        return hw.bf16_tensor
    if p in ("int8", "int4"):
        return hw.int8_tensor
    if p in ("fp32", "tf32") and hw.tf32 and not llama:
        return hw.fp16_tensor / 2 if hw.fp16_tensor else None  # TF32 runs at half the FP16 rate
    return None


def tensor_peak(c: Case, hw: Hw) -> float | None:
    """The tensor-core rate (FLOP/s, the catalogue's dense spec) the step's GEMMs run at in its format, or None
    (the shader cores): what the compute term divides the FLOPs by (:func:`terms`)."""
    return _peak(c, hw) if hw.kind != "cpu" else None


def is_tensor_term(t: Term) -> bool:
    """Whether ``t`` is the step's tensor-core GEMM term (kind compute, on the fitted ``tc`` rate), not a
    dequantisation or shader-core term."""
    return t.kind == "compute" and any(i == INDEX["tc"] for i, _s in t.params)


def _comm_terms(c: Case, hw: Hw) -> list[Term]:
    """Collectives of one model over several GPUs, per step: tensor parallel all-reduces each layer's attention
    and MLP outputs (2 per layer; ring: 2(n − 1)/n of the tokens × hidden × 2 B over the link); expert parallel
    sends each token to its experts and back (2 all-to-alls per layer, k/E of the activations each way); a
    pipeline hands the activations on n − 1 times. Each collective also costs the ``allreduce`` latency (×
    LINK_LATENCY of the path)."""
    n = max(c.tensor_parallel, c.pipeline, c.expert_parallel)
    if n <= 1 or c.task == "train":
        return []
    spec = c.spec
    tokens = c.batch if c.task == "decode" else c.batch * c.seq
    act = tokens * spec.hidden * 2.0
    link = hw.link or hw.pcie or 16e9
    latency = ((INDEX["allreduce"], 1.0),)
    hop = LINK_LATENCY.get(hw.link_path, 2.0)
    if c.tensor_parallel > 1:
        count, moved = 2 * spec.layers, 2 * (n - 1) / n * act
    elif c.expert_parallel > 1 and experts(spec)[0]:
        _e, k = experts(spec)
        count, moved = 2 * spec.layers, act * k * (n - 1) / n
    elif c.pipeline > 1:
        count, moved = n - 1, act
    else:
        return []
    return [Term(count * hop, latency, "comm"), Term(count * moved / link, (), "comm")]


def _offload_terms(c: Case, hw: Hw) -> list[Term]:
    """Training with offload: the optimizer step on the host (its traffic over the host memory at the CPU's
    bandwidth share) and the gradients down / 16-bit weights up over PCIe, once per optimizer step; saved
    activations out and back over PCIe each micro-batch. Transfers are taken half hidden (OVERLAP)."""
    if c.task != "train" or c.offload == "none":
        return []
    out: list[Term] = []
    pcie = hw.pcie or 16e9
    if c.offload in ("optimizer", "all"):
        trained = trained_params(c) / c.shards
        host = hw.host_bw or HOST_BW_DEFAULT
        traffic = OPTIMIZER_TRAFFIC.get(c.optimizer, 28.0) * trained
        out.append(Term(traffic / host / c.accumulation, _idx("bw.cpu"), "offload"))
        out.append(Term((1 - OVERLAP) * trained * (4.0 + 2.0) / pcie / c.accumulation, (), "offload"))
    if c.offload in ("activations", "all"):
        out.append(Term((1 - OVERLAP) * 2 * _saved_bytes(c) / pcie, (), "offload"))
    return out


def terms(c: Case, hw: Hw) -> list[Term]:
    """The step's time as terms of the fitted parameters (see the module docstring)."""
    flops, nbytes, kernels = work(c)
    a = hw.arch
    vf = hw.vendor_factor
    out: list[Term] = []
    if hw.kind == "cpu":
        out.append(Term(flops / hw.fp32, _idx("cpu"), "compute"))
        out.append(Term(nbytes / hw.bandwidth, _idx("bw.cpu"), "memory"))
        out.append(Term(kernels, ((INDEX["launch.cpu"], 1.0),), "overhead"))
        return out + _offload_terms(c, hw)
    p = c.precision
    llama = _llama(c)
    cnn = c.spec.family != "transformer"
    peak = _peak(c, hw)
    runtime_bw = "bw.llama.cpp" if llama else f"bw.{c.runtime}"
    bw_names = ["bw"] + ([f"bw@{a}"] if a else []) + ([runtime_bw] if runtime_bw in INDEX else [])
    fusion = ((INDEX["fusion.compiled"], 1.0),) if c.compiled else ()
    fk = format_key(c)
    q_bw = _idx(f"q.{fk}") if fk else ()  # the weight format's kernel: its streaming and its GEMMs
    q_mm = _idx(f"qc.{fk}") if fk else ()
    if peak:
        names = ["tc"] + ([f"tc@{a}"] if a else [])
        if cnn:
            names.append("conv")
        if llama:
            names.append(f"tc.{c.runtime}")
        fused = ["fused"] if c.runtime == "fused" else []
        out.append(Term(flops / (peak * vf), (*_idx(*names, *fused), *q_mm), "compute"))
        if hw.power_w:
            # energy: the tensor cores draw about the same power at their full rate in any format, so a
            # FLOP costs energy in inverse proportion to the format's rate on this card (TF32 twice a 16-bit
            # FLOP, INT8 or GeForce FP16 accumulate half), counted in FP16 (FP32-accumulate) FLOPs
            joules = flops * (hw.fp16_tensor or peak) / peak
            out.append(Term(joules / (hw.power_w * vf), _idx("pwr", *([f"pwr@{a}"] if a else []), *fused),
                            "power"))
        if cnn and c.layout == "nchw" and p in SIXTEEN_BIT:
            passes = 1.0 if c.task == "train" else 0.5  # the forward pass alone: its two transposes
            moved = _conv_outputs(c) * 2.0 * passes  # 2 B per FP16 element per pass
            out.append(Term(moved / (hw.bandwidth * vf), (*_idx(*bw_names), (INDEX["nchw"], 1.0), *fusion),
                            "memory"))
    else:
        names = ["simt"] + (["conv.simt"] if cnn else [])
        out.append(Term(flops / (hw.fp32 * vf), (*_idx(*names), *q_mm), "compute"))
    out.append(Term(nbytes / (hw.bandwidth * vf), (*_idx(*bw_names), *fusion, *q_bw), "memory"))
    dequantising = c.task == "prefill" and ((llama and p in QUANTISED) or _dequant_copy(c))
    qlora = c.task == "train" and c.finetune == "qlora" and c.spec.is_transformer
    if hw.issue and (dequantising or qlora):
        # the dequantisation kernels unpack every weight (scale, nibbles, conversion) on the SMs: llama.cpp once
        # per batch of UBATCH tokens, the others once per forward pass; QLoRA in each pass through the weights
        if llama:
            unpacked = _dequantised(c) * _ubatches(c)
        elif qlora:
            unpacked = _dequantised(c, c.seq * c.batch) * (3 if c.recompute else 2)
        else:
            unpacked = _dequantised(c, c.seq * c.batch)
        out.append(Term(unpacked / c.tensor_parallel / hw.issue, ((INDEX["ipw.dequant"], 1.0),), "compute"))
    if llama and c.task == "prefill" and p in QUANTISED and f"dequant.{c.runtime}" in INDEX:
        # per layer Q, K, V, output and the FFN's three, plus the output head, once per batch of UBATCH tokens
        matmuls = (7 * c.spec.layers + (1 if _head_tokens(c) > 1 else 0)) * _ubatches(c)
        out.append(Term(matmuls, ((INDEX[f"dequant.{c.runtime}"], 1.0),), "overhead"))
    bnb = "nf4" if qlora or p == "bnb-fp4" else p  # bitsandbytes' FP4 runs NF4's code path (another lookup table)
    if f"dequant.{bnb}" in INDEX and (qlora or _bits(c) is not None):
        # bitsandbytes: a fixed cost per quantised projection (7 per layer) per forward pass (and per backward
        # and recomputed pass under QLoRA), beyond the weights' traffic
        passes = (3 if c.recompute else 2) if qlora else 1
        out.append(Term(7 * c.spec.layers * passes, ((INDEX[f"dequant.{bnb}"], 1.0),), "overhead"))
    if hw.issue and c.runtime in EAGER:
        # eager elementwise/normalisation kernels also issue a few instructions per byte they move
        # (address arithmetic, conversions, the op): on GPUs with a lot of bandwidth per SM that, not DRAM, limits them
        out.append(Term(nbytes / hw.issue, ((INDEX["ipb"], 1.0), *fusion), "memory"))
    launch = "launch.pytorch" if c.runtime == "fused" else f"launch.{c.runtime}"
    out.append(Term(kernels, ((INDEX[launch], 1.0), *fusion), "overhead"))
    return out + _comm_terms(c, hw) + _offload_terms(c, hw)


def step_time(c: Case, hw: Hw, theta: Sequence[float]) -> tuple[float, dict[str, float]]:
    """Seconds per step and the share of each kind of term."""
    parts: dict[str, float] = {}
    for t in terms(c, hw):
        v = t.a * math.exp(sum(s * theta[i] for i, s in t.params))
        parts[t.kind] = parts.get(t.kind, 0.0) + v
    return sum(parts.values()), parts


def rate(c: Case, hw: Hw, theta: Sequence[float]) -> float:
    return c.units / step_time(c, hw, theta)[0]


# ---------------------------------------------------------------------------------------------
# the planner's workloads


def runtime_used(w: Workload) -> str:
    """The workload runtime the estimate is for (a key of core/build.py's RUNTIMES): the stated one or the
    task's default; encoders and CNNs run in PyTorch whatever an inference runtime says (unless compiled)."""
    rt = w.effective_runtime
    spec = w.spec()
    if w.task == "infer" and not spec.decoder and rt != "torch-compile":
        return "pytorch"
    return rt


def llm_cases(one: Case, batch: int, prompt: int, generated: int) -> dict[str, Case]:
    """LLM inference as the machine runs it, from a decode case ``one`` (model, format, runtime, split):
    "main" one stream decoding alone, "batch" ``batch`` streams decoded together (the weights read once per step
    for all of them, each stream's KV cache read for it, the FLOPs per token), "prefill" the ``batch`` prompts of
    ``prompt`` tokens processed together. Decoding runs at the mean context of the generation, prompt +
    generated / 2."""
    ctx = max(prompt + generated // 2, 1)
    main = replace(one, task="decode", batch=1, seq=ctx)
    return {"main": main, "batch": replace(main, batch=batch),
            "prefill": replace(main, task="prefill", batch=batch, seq=max(prompt, 1))}


def quant_case(w: Workload, runtime: str, cc: float | None) -> tuple[str, str, float | None]:
    """(precision, kernel, bits) of the workload's weights in the model's ``runtime`` on a card of compute
    capability ``cc``: its ``quant``'s kernel there (quant.py), else its int8/int4 in that runtime's usual
    format (FORMATS)."""
    if w.quant is not None and w.quant in QUANTS:
        k = quant_kernel(w.quant, w.effective_runtime, cc) or QUANTS[w.quant].kernels.get(w.effective_runtime)
        key = k.key if k is not None else w.quant
        precision = {"marlin": "awq" if w.quant == "awq" else "gptq"}.get(key, key)
        return precision, key if key != precision else "", QUANTS[w.quant].bits
    fmt = FORMATS.get((runtime, w.precision), w.precision)
    return fmt, "", EXL2_BITS.get(w.precision) if fmt == "exl2" else None


def planner_cases(w: Workload, gpus: int = 1, cc: float | None = None) -> dict[str, Case]:
    """The cases behind the planner's figures: "main" (training step or forward pass, or for decoder
    inference the one-stream decode), and for decoder inference "prefill" and "batch" (:func:`llm_cases`:
    the workload's ``batch`` streams together). ``gpus``: the GPUs one model is split over when the workload
    is parallel; ``cc``: the card's compute capability (the kernel a quantised format runs with)."""
    spec = w.spec()
    s = w.effective_seq_len
    b = w.effective_batch
    n = max(gpus, 1)
    ways = (n if w.parallel == "tensor" else 1, n if w.parallel == "pipeline" else 1,
            n if w.parallel == "expert" and experts(spec)[0] else 1)
    if spec.decoder and w.task == "infer":
        # LLM inference in the workload's runtime (default llama.cpp, the most measured; a quant's own runtime);
        # its weights in the quant's kernel or the int8/int4 of that runtime's usual format. The sequence is
        # generated from a short prompt (mean decode context half the sequence); the prefill figure is for
        # prompts of min(sequence, 512) tokens (llama-bench's pp512), the workload's batch of them at once.
        runtime = INFER_RUNTIME.get(w.effective_runtime, "llama.cpp")
        if w.quant == "awq" and runtime == "transformers":
            runtime = "autoawq"  # transformers runs AWQ through AutoAWQ's kernels and fused modules (do_fuse)
        fmt, kernel, bits = quant_case(w, runtime, cc)
        one = Case(spec, "decode", fmt, 1, 1, runtime=runtime, lm_head=True, bits=bits, kernel=kernel,
                   tensor_parallel=ways[0], pipeline=ways[1], expert_parallel=ways[2])
        cases = llm_cases(one, b, 0, s)
        cases["prefill"] = replace(cases["prefill"], seq=min(s, 512))
        return cases
    task = "train" if w.task == "train" else "infer"
    # diffusers runs a UNet's attention through PyTorch 2's scaled_dot_product_attention by default (AttnProcessor2_0)
    attention = w.attention if spec.family == "transformer" else "sdpa" if spec.unet is not None else "eager"
    # "fused" is fitted on LLM training stacks (llm-foundry: FlashAttention, fused norms and FSDP), which is
    # how decoders are trained; encoders (BERT) are measured as PyTorch eager GEMM work (NVIDIA DLE, Lambda):
    # SDPA only keeps their attention scores off the memory, it does not make the rest of the model fused.
    runtime = "fused" if task == "train" and attention == "sdpa" and spec.decoder else "pytorch"
    compiled = w.effective_runtime == "torch-compile"
    if task == "train":
        return {"main": Case(spec, task, w.precision, b, s, lm_head=spec.decoder, attention=attention,
                             runtime=runtime, finetune=w.finetune, lora_rank=w.lora_rank,
                             recompute=w.grad_checkpointing, optimizer=w.effective_optimizer, offload=w.offload,
                             compiled=compiled)}
    return {"main": Case(spec, task, w.precision, b, s, lm_head=spec.decoder, attention=attention,
                         runtime=runtime, compiled=compiled, tensor_parallel=ways[0])}


def grad_bytes(w: Workload) -> float:
    """Bytes data parallelism all-reduces per step: every parameter's gradient (FP32 under fp32/amp, else 16
    bits); under LoRA/QLoRA only the adapters' (PEFT keeps them in FP32)."""
    spec = w.spec()
    if w.task == "train" and w.finetune in ("lora", "qlora") and spec.is_transformer:
        return lora_params(spec, w.lora_rank) * 4.0
    return spec.params * (4.0 if w.precision in ("fp32", "amp") else 2.0)


@dataclass(frozen=True)
class Factors:
    """What the estimate rests on: the fit (None: the stated priors) and the data-parallel prior."""

    eta: float = 0.935  # per-doubling data-parallel efficiency, from PCI-5 (4 cards 3.5× of 4)
    fit: Fit | None = None
    extra: Mapping[str, float] = field(default_factory=dict)

    def theta(self) -> list[float]:
        if self.fit is not None:
            return list(self.fit.theta)
        from configurator.core.estimate import fit as fitting

        return list(fitting.fit_for().theta)  # the shipped measurements' fit

    def efficiency(self, name: str) -> float:
        return math.exp(self.theta()[INDEX[name]])


FACTORS = Factors()


@dataclass(frozen=True)
class Throughput:
    samples_per_s: float
    tokens_per_s: float | None  # training/prefill tokens for transformers
    decode_tokens_per_s: float | None  # one stream
    bound: str  # "compute" | "power" | "memory" | "overhead": the largest term
    path: str  # "tensor" | "simt" | "cpu"
    decode_batch_tokens_per_s: float | None = None  # all ``batch`` streams together
    runtime: str = ""  # the workload runtime estimated (runtime_used)
    model_gpus: int = 1  # GPUs one copy of the model spans (tensor, pipeline or expert parallel)
    format_key: str = ""  # the weight format's kernel (FORMAT_KEY) of LLM inference; "" for 16 bits
    prefill_bound: str = ""  # the largest term of the prefill step (LLM inference)

    def headline(self, w: Workload) -> float:
        """The figure the planner reports, in ``w.throughput_unit``: for GPT inference the generated tokens of
        the workload's batch of streams summed (one stream's at batch 1), trained tokens for GPT training, else
        samples."""
        spec = w.spec()
        if spec.decoder:
            value = self.decode_batch_tokens_per_s if w.task == "infer" else self.tokens_per_s
            return value or 0.0
        return self.samples_per_s


def _path(c: Case, hw: Hw) -> str:
    if hw.kind == "cpu":
        return "cpu"
    names = {NAMES[i] for t in terms(c, hw) if t.kind == "compute" for i, _s in t.params}
    return "tensor" if "tc" in names else "simt"


@dataclass(frozen=True)
class System:
    """What one GPU's estimate needs of the rest of the build: the GPUs a parallel model spans and the link
    between them (B/s one way per GPU, its path: LINK_LATENCY), the host memory's bandwidth (offload)."""

    gpus: int = 1
    link: float | None = None
    link_path: str = "pcie"
    host_bw: float | None = None


def _estimate(w: Workload, hw: Hw, f: Factors, system: System | None = None) -> Throughput:
    theta = f.theta()
    sysm = system or System()
    parallel = w.parallel != "none" and w.task == "infer" and sysm.gpus > 1
    hw = replace(hw, link=sysm.link or hw.link, link_path=sysm.link_path, host_bw=sysm.host_bw or hw.host_bw)
    cases = planner_cases(w, sysm.gpus if parallel else 1, hw.cc)
    main = cases["main"]
    spans = max(main.tensor_parallel, main.pipeline, main.expert_parallel)
    t, parts = step_time(main, hw, theta)
    bound = max(parts, key=lambda k: parts[k])
    spec = w.spec()
    rt = runtime_used(w)
    if main.task == "decode":
        pre = cases["prefill"]
        t_pre, pre_parts = step_time(pre, hw, theta)
        prefill = pre.units / t_pre
        t_batch, batch_parts = step_time(cases["batch"], hw, theta)
        return Throughput(prefill / pre.seq, prefill, 1 / t, max(batch_parts, key=lambda k: batch_parts[k]),
                          _path(pre, hw), cases["batch"].batch / t_batch, rt, spans, format_key(main) or "",
                          max(pre_parts, key=lambda k: pre_parts[k]))
    samples = main.batch / t
    tokens = samples * main.seq if spec.is_transformer else None
    return Throughput(samples, tokens, None, bound, _path(main, hw), runtime=rt, model_gpus=spans)


def single_gpu(gpu: Gpu, w: Workload, f: Factors, system: System | None = None) -> Throughput:
    """One GPU's throughput; with ``system``, the GPUs and link a parallel model spans (the rate is then the
    model's, over all of them) and the host memory an offload uses."""
    return _estimate(w, gpu_hw(gpu), f, system)


def cpu_only(cpu: Cpu, sockets: int, mem_bandwidth: float, w: Workload, f: Factors | None = None) -> Throughput:
    return _estimate(w, cpu_hw(cpu, sockets, mem_bandwidth), f or FACTORS)


def link_bytes_per_s(gpu: Gpu, pcie_gen: int | None, pcie_lanes: int | None, nvlink: bool) -> float:
    """One direction: NVLink's total / 2; PCIe ≈ 0.985 GB/s per lane at Gen3, doubling per generation."""
    if nvlink and gpu.nvlink_bandwidth_gbs:
        return gpu.nvlink_bandwidth_gbs / 2 * 1e9
    gen = pcie_gen or gpu.pcie_gen
    lanes = pcie_lanes or gpu.pcie_lanes
    return float(0.985e9 * 2 ** (gen - 3) * lanes)


def scaling(n: int, t_step: float, grad_bytes: float, link: float, f: Factors) -> float:
    """Speed-up of n data-parallel GPUs over one."""
    if n <= 1:
        return 1.0
    t_comm = 2 * (n - 1) / n * grad_bytes / link
    return float(n * f.eta ** math.log2(n) * t_step / (t_step + (1 - OVERLAP) * t_comm))
