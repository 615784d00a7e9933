"""The step time as a sum of terms of the fitted parameters (:func:`terms`, the package docstring's formula): compute on
the tensor or shader cores, the same FLOPs against the board power, DRAM traffic, instruction issue, kernel
launches, dequantisation, collectives of a split model, offload over PCIe; :func:`step_time` and :func:`rate`
evaluate them at a parameter vector.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from configurator.core.estimate.throughput.case import (
    Case,
    Term,
    dequant_copy,
    experts,
    format_key,
    head_tokens,
    is_llama,
    packed_bits,
    ubatches,
)
from configurator.core.estimate.throughput.hardware import Hw
from configurator.core.estimate.throughput.priors import INDEX
from configurator.core.estimate.throughput.runtimes import (
    EAGER,
    HOST_BW_DEFAULT,
    LINK_LATENCY,
    OPTIMIZER_TRAFFIC,
    OVERLAP,
    QUANTISED,
    SIXTEEN_BIT,
    WEIGHT_ONLY,
)
from configurator.core.estimate.throughput.work import dequantised, saved_activation_bytes, trained_params, work


def _idx(*names: str) -> tuple[tuple[int, float], ...]:
    return tuple((INDEX[n], -1.0) for n in names)


def _conv_outputs(c: Case) -> float:
    """Elements of every convolution's output in one step (a third of what autograd keeps: conv, BN, ReLU)."""
    return c.spec.activation_elements_per_sample(1, False) / 3 * c.batch


def _peak(c: Case, hw: Hw) -> float | None:
    """The tensor-core rate the step's GEMMs run at (None: the shader cores)."""
    p = c.precision
    llama = is_llama(c)
    if llama and (p == "fp16" or p in QUANTISED):
        # llama.cpp multiplies FP16 (and dequantised) weights with cuBLAS in FP16 accumulate
        return hw.fp16_acc16_tensor or hw.fp16_tensor
    if p == "fp8":
        # FP8 tensor cores (compute capability ≥ 8.9: Ada, Hopper, Blackwell) with FP32 accumulate, as Transformer
        # Engine, torchao float8 and vLLM's W8A8 GEMMs run them: twice the FP16 FP32-accumulate rate (RTX 4090 330.3
        # against 165.2 dense; H100 SXM 1979 against 989); elsewhere FP8 weights are multiplied in FP16
        fp8 = hw.arch in ("Ada", "Hopper", "Blackwell") and (hw.cc is None or hw.cc >= 8.9)
        return 2 * hw.fp16_tensor if fp8 and hw.fp16_tensor else hw.fp16_tensor
    if packed_bits(c) is not None and p in WEIGHT_ONLY:
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
        out.append(Term((1 - OVERLAP) * 2 * saved_activation_bytes(c) / pcie, (), "offload"))
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
    llama = is_llama(c)
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
    dequantising = c.task == "prefill" and ((llama and p in QUANTISED) or dequant_copy(c))
    qlora = c.task == "train" and c.finetune == "qlora" and c.spec.is_transformer
    if hw.issue and (dequantising or qlora):
        # the dequantisation kernels unpack every weight (scale, nibbles, conversion) on the SMs: llama.cpp once
        # per batch of UBATCH tokens, the others once per forward pass; QLoRA in each pass through the weights
        if llama:
            unpacked = dequantised(c) * ubatches(c)
        elif qlora:
            unpacked = dequantised(c, c.seq * c.batch) * (3 if c.recompute else 2)
        else:
            unpacked = dequantised(c, c.seq * c.batch)
        out.append(Term(unpacked / c.tensor_parallel / hw.issue, ((INDEX["ipw.dequant"], 1.0),), "compute"))
    if llama and c.task == "prefill" and p in QUANTISED and f"dequant.{c.runtime}" in INDEX:
        # per layer Q, K, V, output and the FFN's three, plus the output head, once per batch of UBATCH tokens
        matmuls = (7 * c.spec.layers + (1 if head_tokens(c) > 1 else 0)) * ubatches(c)
        out.append(Term(matmuls, ((INDEX[f"dequant.{c.runtime}"], 1.0),), "overhead"))
    bnb = "nf4" if qlora or p == "bnb-fp4" else p  # bitsandbytes' FP4 runs NF4's code path (another lookup table)
    if f"dequant.{bnb}" in INDEX and (qlora or packed_bits(c) is not None):
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
