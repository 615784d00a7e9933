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
                                          multiplication in prompt processing

The efficiencies (e_tc, conv, e_simt, φ, e_bw, ipb, t_launch, …: ``GLOBALS``) are a few parameters per
architecture family (Volta, Turing, Ampere, Ada, Hopper, Blackwell) and runtime (eager PyTorch/NGC, eager
PyTorch of 2019, fused LLM training, llama.cpp before 2024 and since), fitted to the published measurements
in :mod:`configurator.core.estimate.fit` (least squares on log error, ridge towards the stated priors below).
No branch depends on a particular GPU or model name; the tables keyed by compute capability are facts of the
SM design (whitepapers).

Several GPUs (data parallel): speedup = N × η^log2(N) × t / (t + (1 − overlap) · t_allreduce), with
the ring all-reduce time from the GPU-to-GPU link. Inference of one stream is not multiplied by the
number of GPUs: several GPUs help one stream only through tensor/pipeline parallelism.
The CPU uses the same terms with its vector peak (cores × lanes × 2 FMA × 2 × clock) and the
bandwidth of its installed memory (channels × MT/s × 8 B).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from configurator.core.build import Workload
from configurator.core.estimate.memory import ACT_BYTES, WEIGHT_BYTES
from configurator.core.model_specs import ModelSpec
from configurator.core.parts import Cpu, Gpu

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
RUNTIMES: tuple[str, ...] = ("pytorch", "pytorch-2019", "fused", "llama.cpp", "llama.cpp-2023")
# Stated, uncalibrated prior for vendors without measurements: AMD (ROCm) and Intel reach half of
# what an NVIDIA card of the same spec-sheet figures reaches (the guides call ROCm poorly compatible).
VENDOR_FACTOR = {"nvidia": 1.0, "amd": 0.5, "intel": 0.5}
# Bits per weight as stored: GGUF block formats carry a scale per block of 32 (q4_0: 18 B / 32 weights).
BITS_PER_WEIGHT = {"fp32": 32.0, "tf32": 32.0, "amp": 16.0, "fp16": 16.0, "bf16": 16.0, "fp8": 8.0,
                   "int8": 8.5, "q8_0": 8.5, "q5_k_m": 5.7, "q4_k_m": 4.85, "q4_0": 4.5, "int4": 4.5}
UNTIED = ("llama-7b", "llama-2-7b", "llama-3-8b", "llama-3-70b")  # separate input and output embeddings
KV_HIDDEN = {"llama-3-8b": 1024, "llama-3-70b": 1024}  # grouped-query attention: 8 K/V heads
QUANTISED = ("int8", "int4", "q8_0", "q5_k_m", "q4_k_m", "q4_0")
UBATCH = 512  # tokens llama.cpp's prompt processing multiplies at once (its default batch)
SIXTEEN_BIT = ("amp", "fp16", "bf16")
# Kernels the optimizer step of 2019 launched per parameter tensor (runtime "pytorch-2019"): BertAdam in
# Python (fp32: ~10 elementwise ops per tensor) and APEX's FusedAdam with AMP O2's master weights (fp16: the
# update, the master-to-model copy, unscaling, zeroing) stepped each tensor in turn; current optimizers
# (multi-tensor apply, foreach/fused AdamW) launch a handful of kernels for the whole model.
OPT_KERNELS_PER_TENSOR_2019 = 8


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
              if gpu.vendor == "nvidia" else None)


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
    untied: bool = False  # separate input embedding and output head (LLaMA)
    kv_hidden: int | None = None  # K/V width with grouped-query attention
    lm_head: bool = False  # the output projection over the vocabulary is computed
    # "eager": the attention scores are materialised (and saved for backward); "sdpa"/"flash": fused
    # kernels (PyTorch's scaled_dot_product_attention, FlashAttention) keep them on chip
    attention: str = "eager"
    shards: int = 1  # ZeRO/FSDP: each GPU updates 1/shards of the optimizer states
    accumulation: int = 1  # micro-batches per optimizer step (gradient accumulation): the step is amortised
    layout: str = "nchw"  # CNN activations' memory format: PyTorch's default NCHW, or "nhwc" (channels_last)

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
    kind: str  # "compute" | "power" | "memory" | "overhead"


def _body_params(c: Case) -> float:
    spec = c.spec
    if spec.family == "cnn":
        return spec.params
    emb = spec.vocab * spec.hidden * (2 if c.untied else 1)
    return max(spec.params - emb, spec.params * 0.5)


def _param_tensors(spec: ModelSpec, convs: float = 0.0) -> float:
    """Parameter tensors an optimizer steps: a transformer layer's 16 (Q, K, V, output, two FFN weights with
    their biases, two LayerNorms' weight and bias) plus embeddings, final norm and head; a CNN's three per
    convolution (its weight and its BatchNorm's two) plus the classifier's two."""
    if spec.family == "cnn":
        return 3 * convs + 2
    return 16.0 * spec.layers + 8


def _optimizer_kernels(c: Case, current: float, convs: float = 0.0) -> float:
    """Kernels of one optimizer step: ``current`` for today's multi-tensor optimizers, per tensor in 2019."""
    if c.runtime == "pytorch-2019":
        return OPT_KERNELS_PER_TENSOR_2019 * _param_tensors(c.spec, convs)
    return current


def _weights(c: Case) -> float:
    """Weights a forward pass multiplies by: the body, plus the output head where it is computed."""
    return _body_params(c) + (c.spec.vocab * c.spec.hidden if c.lm_head else 0.0)


def _weight_bytes(c: Case) -> float:
    """Bytes a forward pass reads: the body, plus the output head where it is computed."""
    n = _weights(c)
    if not c.runtime.startswith("llama.cpp"):
        return n * WEIGHT_BYTES.get(c.precision, 4.0)
    return n * BITS_PER_WEIGHT.get(c.precision, 32.0) / 8


def _head_flops(c: Case) -> float:
    """FLOPs of the output projection over the vocabulary, per token it is computed for."""
    return 2.0 * c.spec.vocab * c.spec.hidden if c.lm_head else 0.0


def _head_tokens(c: Case) -> int:
    """Tokens of a prompt the output head is computed for: llama.cpp since 2024 (March 2024: the last layer
    keeps only the tokens whose logits are asked for, the last one when a prompt is processed) computes it
    for one; llama.cpp before and PyTorch for every token."""
    return 1 if c.task == "prefill" and c.runtime == "llama.cpp" else c.seq


def _dequantised(c: Case) -> float:
    """Weights prompt processing dequantises to FP16 copies: all it multiplies with, except a head that is
    computed for one token only (a matrix-vector product on the quantised weights)."""
    head = c.spec.vocab * c.spec.hidden if c.lm_head and _head_tokens(c) == 1 else 0.0
    return _weights(c) - head


def _transformer_fwd_flops(c: Case, tokens: int, ctx: int) -> float:
    spec = c.spec
    return tokens * (2 * _body_params(c) + _head_flops(c) + 4 * spec.layers * ctx * spec.hidden)


def _act_bytes(precision: str) -> float:
    return ACT_BYTES.get(precision, 4.0 if precision in ("fp32", "tf32") else 2.0)


def work(c: Case) -> tuple[float, float, float]:
    """(GEMM/conv FLOPs, DRAM bytes, kernels) of one step."""
    spec = c.spec
    b = c.batch
    ab = _act_bytes(c.precision)
    if spec.family == "cnn":
        convs = float(sum(spec.blocks) * (3 if spec.bottleneck else 2) + 5) if spec.blocks else 53.0
        fwd = spec.forward_flops_per_sample(1) * b
        act = spec.activation_elements_per_sample(1, False) * ab * b
        if c.task == "train":
            # activations written, read back, gradients written and read; SGD + momentum in FP32: 20 B/param
            return 3 * fwd, 4 * act + 20 * spec.params / c.accumulation, \
                9 * convs + _optimizer_kernels(c, 10, convs) / c.accumulation
        return fwd, 2 * act / 3 + _weight_bytes(c), 3 * convs
    s = c.seq
    layers = spec.layers
    if c.task == "decode":
        ctx = max(s, 1)
        flops = _transformer_fwd_flops(c, b, ctx)
        kv = 2 * layers * ctx * (c.kv_hidden or spec.hidden) * 2.0 * b
        return flops, _weight_bytes(c) + kv, 14 * layers + 4
    ctx = c.attn_ctx or s
    if c.task == "prefill":
        nbytes = _weight_bytes(c)
        if c.runtime.startswith("llama.cpp") and c.precision in QUANTISED:
            # cuBLAS prompt processing: each batch of up to UBATCH tokens dequantises every weight to an
            # FP16 copy (written, then read by the GEMM): 4 B per weight per batch
            nbytes += _dequantised(c) * 4.0 * math.ceil(s / UBATCH)
        flops = _transformer_fwd_flops(c, s, (ctx + 1) // 2) - (s - _head_tokens(c)) * _head_flops(c)
        return flops * b, nbytes, 14 * layers + 4
    # activations per layer (Korthikanti et al. 2022, 16-bit): s·h·34 + 5·a·s² bytes with the scores
    # materialised (eager attention), moved about three times in a training step (written, read back, their
    # gradients); fused attention kernels keep the a·s² scores on chip
    train = c.task == "train"
    act_layer = 34 * s * spec.hidden * ab / 2
    scores = spec.heads * s * ctx * ab / 2 * _score_bytes(c, train)
    fwd = _transformer_fwd_flops(c, s, ctx) * b
    if train:
        # AdamW in FP32: read weight, grad, m, v; write weight, m, v = 28 B/param per step (of this
        # GPU's shard under ZeRO/FSDP)
        return 3 * fwd, layers * (3 * act_layer + scores) * b + 28 * spec.params / c.shards / c.accumulation, \
            3 * (16 * layers + 4) + _optimizer_kernels(c, 20) / c.accumulation
    return fwd, layers * (act_layer + scores) * b + _weight_bytes(c), 16 * layers + 4


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
        return out
    p = c.precision
    llama = c.runtime.startswith("llama.cpp")
    cnn = c.spec.family == "cnn"
    peak: float | None = None
    if llama and (p == "fp16" or p in QUANTISED):
        # llama.cpp multiplies FP16 (and dequantised) weights with cuBLAS in FP16 accumulate
        peak = hw.fp16_acc16_tensor or hw.fp16_tensor
    elif p in ("amp", "fp16"):
        peak = hw.fp16_tensor
    elif p == "bf16":
        peak = hw.bf16_tensor
    elif p in ("int8", "int4"):
        peak = hw.int8_tensor
    elif p in ("fp32", "tf32") and hw.tf32 and not llama:
        peak = hw.fp16_tensor / 2 if hw.fp16_tensor else None  # TF32 runs at half the FP16 rate
    bw_names = ["bw"] + ([f"bw@{a}"] if a else []) + (["bw.llama.cpp"] if llama else [])
    if peak:
        names = ["tc"] + ([f"tc@{a}"] if a else [])
        if cnn:
            names.append("conv")
        if llama:
            names.append(f"tc.{c.runtime}")
        fused = ["fused"] if c.runtime == "fused" else []
        out.append(Term(flops / (peak * vf), _idx(*names, *fused), "compute"))
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
            out.append(Term(moved / (hw.bandwidth * vf), (*_idx(*bw_names), (INDEX["nchw"], 1.0)), "memory"))
    else:
        names = ["simt"] + (["conv.simt"] if cnn else [])
        out.append(Term(flops / (hw.fp32 * vf), _idx(*names), "compute"))
    out.append(Term(nbytes / (hw.bandwidth * vf), _idx(*bw_names), "memory"))
    if hw.issue and llama and c.task == "prefill" and p in QUANTISED:
        # the dequantisation kernels unpack every weight (scale, nibbles, conversion) on the SMs once per batch
        unpacked = _dequantised(c) * math.ceil(c.seq / UBATCH) * c.batch
        out.append(Term(unpacked / hw.issue, ((INDEX["ipw.dequant"], 1.0),), "compute"))
    if llama and c.task == "prefill" and p in QUANTISED and f"dequant.{c.runtime}" in INDEX:
        # per layer Q, K, V, output and the FFN's three, plus the output head, once per batch of UBATCH tokens
        matmuls = (7 * c.spec.layers + (1 if _head_tokens(c) > 1 else 0)) * math.ceil(c.seq / UBATCH) * c.batch
        out.append(Term(matmuls, ((INDEX[f"dequant.{c.runtime}"], 1.0),), "overhead"))
    if hw.issue and not llama:
        # eager elementwise/normalisation kernels also issue a few instructions per byte they move
        # (address arithmetic, conversions, the op): on GPUs with a lot of bandwidth per SM that, not DRAM, limits them
        out.append(Term(nbytes / hw.issue, ((INDEX["ipb"], 1.0),), "memory"))
    launch = "launch.pytorch" if c.runtime == "fused" else f"launch.{c.runtime}"
    out.append(Term(kernels, ((INDEX[launch], 1.0),), "overhead"))
    return out


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


def planner_cases(w: Workload) -> dict[str, Case]:
    """The cases behind the planner's figures: "main" (training step or forward pass, or for decoder
    inference the one-stream decode), and for decoder inference "prefill" and "batch" (the aggregate
    of ``batch`` streams)."""
    spec = w.spec()
    s = w.effective_seq_len
    b = w.effective_batch
    if spec.decoder and w.task == "infer":
        # LLM inference: a llama.cpp-class runtime (the measured one); context half the sequence on average
        ctx = max(s // 2, 1)
        one = Case(spec, "decode", w.precision, 1, ctx, runtime="llama.cpp", untied=spec.name in UNTIED,
                   kv_hidden=KV_HIDDEN.get(spec.name), lm_head=True)
        return {"main": one, "batch": replace(one, batch=b),
                "prefill": replace(one, task="prefill", seq=min(s, 512))}
    task = "train" if w.task == "train" else "infer"
    attention = w.attention if spec.family == "transformer" else "eager"
    # "fused" is fitted on LLM training stacks (llm-foundry: FlashAttention, fused norms and FSDP), which is
    # how decoders are trained; encoders (BERT) are measured as PyTorch eager GEMM work (NVIDIA DLE, Lambda):
    # SDPA only keeps their attention scores off the memory, it does not make the rest of the model fused.
    runtime = "fused" if task == "train" and attention == "sdpa" and spec.decoder else "pytorch"
    return {"main": Case(spec, task, w.precision, b, s, lm_head=spec.decoder, attention=attention,
                         runtime=runtime)}


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

    def headline(self, w: Workload) -> float:
        """The figure the planner reports, in ``w.throughput_unit``: generated tokens (one stream) for GPT
        inference, trained tokens for GPT training, else samples."""
        spec = w.spec()
        if spec.decoder:
            value = self.decode_tokens_per_s if w.task == "infer" else self.tokens_per_s
            return value or 0.0
        return self.samples_per_s


def _path(c: Case, hw: Hw) -> str:
    if hw.kind == "cpu":
        return "cpu"
    names = {NAMES[i] for t in terms(c, hw) if t.kind == "compute" for i, _s in t.params}
    return "tensor" if "tc" in names else "simt"


def _estimate(w: Workload, hw: Hw, f: Factors) -> Throughput:
    theta = f.theta()
    cases = planner_cases(w)
    main = cases["main"]
    t, parts = step_time(main, hw, theta)
    bound = max(parts, key=lambda k: parts[k])
    spec = w.spec()
    if main.task == "decode":
        pre = cases["prefill"]
        prefill = rate(pre, hw, theta)
        batch = rate(cases["batch"], hw, theta)
        return Throughput(prefill / pre.seq, prefill, 1 / t, bound, _path(pre, hw), batch)
    samples = main.batch / t
    tokens = samples * main.seq if spec.is_transformer else None
    return Throughput(samples, tokens, None, bound, _path(main, hw))


def single_gpu(gpu: Gpu, w: Workload, f: Factors) -> Throughput:
    return _estimate(w, gpu_hw(gpu), f)


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
