"""Throughput of a workload on the build's hardware: a roofline with stated, calibrated factors.

Per sample (training or prefill):
    t = max(FLOPs / (peak × e_compute), bytes / (bandwidth × E_MEM))
where peak is the rate of the units the math runs on for that precision (Tensor Cores at
the FP16/BF16 rate, TF32 = half of it for FP32 convolutions, which cuDNN allows by default;
otherwise the shader FP32 rate), e_compute is E_TC on Tensor Cores or E_SIMT on shader
cores. Generation (decode) is bandwidth bound: each token reads every weight once, plus a
fixed eager-mode overhead per layer (T_DECODE_LAYER).
Several GPUs (data parallel): speedup = N × η^log2(N) × t / (t + (1 − overlap) · t_allreduce),
with the ring all-reduce time from the GPU-to-GPU link (NVLink or the PCIe link each GPU gets).
The CPU alone: cores × vector lanes (16 FP32 with AVX-512, else 8) × 2 FMA units × 2 FLOPs × clock.

Software assumed: eager PyTorch, default flags (cuDNN TF32 on, matmul TF32 off), channels_last
with AMP for CNNs, no torch.compile. The factors are calibrated on the guides' reference
figures (REF-1..3); ``leave_one_out`` reports each figure's error when it is left out.
No branch depends on a particular GPU or model name.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from configurator.core.build import Workload
from configurator.core.estimate.memory import ACT_BYTES, WEIGHT_BYTES
from configurator.core.parts import Cpu, Gpu

E_MEM = 0.7  # fraction of peak DRAM bandwidth streaming kernels reach (STREAM-like)
OVERLAP = 0.5  # share of the all-reduce DDP hides behind the backward pass (bucketed)
E_CPU = 0.35  # fraction of CPU vector peak eager PyTorch reaches (oneDNN convs/GEMMs)
# Per-vendor factor on the calibrated efficiencies. The guides' reference figures are all NVIDIA
# cards; for AMD (ROCm) there is no reference, and the guides call its ecosystem poorly
# compatible (CUD-4), so its vendor peak figures (dual-issue FP32, WMMA rates) are halved
# as a stated, uncalibrated prior.
VENDOR_FACTOR = {"nvidia": 1.0, "amd": 0.5, "intel": 0.5}


@dataclass(frozen=True)
class Factors:
    e_tc: float = 0.25  # prior: Tensor Core utilisation of eager training (MLPerf-tuned code reaches ~0.4)
    e_simt: float = 0.45  # prior: shader-core utilisation
    eta: float = 0.935  # prior: per-doubling data-parallel efficiency, from PCI-5 (4 cards 3.5× of 4)
    t_decode_layer: float = 0.15e-3  # prior: ~15 kernels × ~10 µs launch per layer per token


@dataclass(frozen=True)
class Path:
    peak_flops: float
    efficiency: float
    units: str  # "tensor" | "simt" | "cpu"


def gpu_path(gpu: Gpu, precision: str, is_cnn: bool, f: Factors) -> Path:
    path = _gpu_path(gpu, precision, is_cnn, f)
    return replace(path, efficiency=path.efficiency * VENDOR_FACTOR.get(gpu.vendor, 0.5))


def _gpu_path(gpu: Gpu, precision: str, is_cnn: bool, f: Factors) -> Path:
    cc = float(gpu.compute_capability) if gpu.compute_capability else 0.0
    tc = gpu.fp16_tensor_tflops if gpu.tensor_cores else None
    if precision in ("amp", "fp16") and tc:
        return Path(tc * 1e12, f.e_tc, "tensor")
    if precision == "bf16" and gpu.bf16_tensor_tflops:
        return Path(gpu.bf16_tensor_tflops * 1e12, f.e_tc, "tensor")
    if precision in ("int8", "int4") and gpu.int8_tops:
        return Path(gpu.int8_tops * 1e12, f.e_tc, "tensor")
    if precision == "fp32" and is_cnn and tc and (cc >= 8.0 or gpu.vendor != "nvidia"):
        return Path(tc / 2 * 1e12, f.e_tc, "tensor")  # TF32 convolutions (cuDNN default)
    return Path(gpu.fp32_tflops * 1e12, f.e_simt, "simt")


def cpu_peak_flops(cpu: Cpu, sockets: int) -> float:
    lanes = 16 if cpu.avx512 else 8
    clock = (cpu.base_ghz + cpu.boost_ghz) / 2 * 1e9  # sustained all-core clock between base and boost
    return cpu.cores * sockets * lanes * 2 * 2 * clock


def _train_flops(w: Workload) -> float:
    spec = w.spec()
    return 3 * spec.forward_flops_per_sample(w.effective_seq_len)  # forward + 2× for the backward


def _mem_bytes_per_sample(w: Workload) -> float:
    """CNN training streams its activations about 4 times (write, read back, gradient write and read)."""
    spec = w.spec()
    if spec.family != "cnn":
        return 0.0
    return spec.activation_elements_per_sample(1, w.grad_checkpointing) * ACT_BYTES[w.precision] * 4


@dataclass(frozen=True)
class Throughput:
    samples_per_s: float
    tokens_per_s: float | None  # training/prefill tokens for transformers
    decode_tokens_per_s: float | None
    bound: str  # "compute" | "memory" | "overhead"
    path: str

    def headline(self, w: Workload) -> float:
        """The figure the planner reports, in ``w.throughput_unit``: generated tokens for GPT inference,
        trained tokens for GPT training, else samples."""
        spec = w.spec()
        if spec.decoder:
            value = self.decode_tokens_per_s if w.task == "infer" else self.tokens_per_s
            return value or 0.0
        return self.samples_per_s


def single_gpu(gpu: Gpu, w: Workload, f: Factors) -> Throughput:
    spec = w.spec()
    path = gpu_path(gpu, w.precision, spec.family == "cnn", f)
    s = w.effective_seq_len
    flops = _train_flops(w) if w.task == "train" else spec.forward_flops_per_sample(s)
    t_compute = flops / (path.peak_flops * path.efficiency)
    t_mem = _mem_bytes_per_sample(w) / (gpu.memory_bandwidth_gbs * 1e9 * E_MEM) if w.task == "train" else 0.0
    t = max(t_compute, t_mem)
    bound = "compute" if t_compute >= t_mem else "memory"
    samples = 1 / t
    tokens = samples * s if spec.is_transformer else None
    decode = None
    if spec.decoder and w.task == "infer":
        decode = decode_tokens_per_s(gpu.memory_bandwidth_gbs * 1e9, path, w, f)
    return Throughput(samples, tokens, decode, bound, path.units)


def decode_tokens_per_s(bandwidth: float, path: Path, w: Workload, f: Factors) -> float:
    """Batch of b sequences, one token each per step: read all weights (and the KV cache) once."""
    spec = w.spec()
    b = w.effective_batch
    weights = spec.params * WEIGHT_BYTES[w.precision]
    kv = 2 * spec.layers * w.effective_seq_len * spec.hidden * 2.0 * b / 2  # half-full cache on average
    t_mem = (weights + kv) / (bandwidth * E_MEM)
    t_compute = 2 * spec.params * b / (path.peak_flops * path.efficiency)
    t = max(t_mem, t_compute) + spec.layers * f.t_decode_layer
    return b / t


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


def cpu_only(cpu: Cpu, sockets: int, mem_bandwidth: float, w: Workload) -> Throughput:
    spec = w.spec()
    peak = cpu_peak_flops(cpu, sockets)
    flops = _train_flops(w) if w.task == "train" else spec.forward_flops_per_sample(w.effective_seq_len)
    samples = peak * E_CPU / flops
    tokens = samples * w.effective_seq_len if spec.is_transformer else None
    decode = None
    if spec.decoder and w.task == "infer":
        weights = spec.params * WEIGHT_BYTES[w.precision]
        decode = w.effective_batch / (weights / (mem_bandwidth * E_MEM) + 2 * spec.params * w.effective_batch /
                                      (peak * E_CPU))
    return Throughput(samples, tokens, decode, "compute", "cpu")


# ---------------------------------------------------------------------------
# Calibration on the guides' reference figures


@dataclass(frozen=True)
class RefGpu:
    """The reference cards' vendor figures (the same as the catalogue's; a test checks)."""

    id: str
    fp32: float
    fp16_tc: float | None
    bw: float
    cc: str
    nvlink_gbs: float | None


REF_3090 = RefGpu("nvidia-rtx-3090", 35.58, 71.0, 936.2, "8.6", 112.5)
REF_1660S = RefGpu("nvidia-gtx-1660-super", 5.03, None, 336.0, "7.5", None)
REF_3060 = RefGpu("nvidia-rtx-3060-12gb", 12.74, 25.5, 360.0, "8.6", None)
REF1_BATCH = 64  # REF-1 does not give its batch; 64 per GPU is the common ResNet-50 setting on 24 GB


def _gpu(ref: RefGpu) -> Gpu:
    return Gpu(id=ref.id, name=ref.id, brand="NVIDIA", price_cny=1, price_date="2026-11",
               source="https://www.nvidia.com/ref", vendor="nvidia", architecture="", compute_capability=ref.cc,
               form_factor="pcie", vram_gb=24, vram_type="", memory_bandwidth_gbs=ref.bw, fp32_tflops=ref.fp32,
               tensor_cores=ref.fp16_tc is not None, fp16_tensor_tflops=ref.fp16_tc, board_power_w=1,
               pcie_gen=4, pcie_lanes=16, cooling="active", nvlink=ref.nvlink_gbs is not None,
               nvlink_bandwidth_gbs=ref.nvlink_gbs)


@dataclass(frozen=True)
class RefPoint:
    ref: str  # REF-1, REF-2, REF-3
    label: str
    measured: float
    unit: str


REF_POINTS = (
    RefPoint("REF-1", "ResNet-50 train, 1× RTX 3090, FP32", 230, "img/s"),
    RefPoint("REF-1", "ResNet-50 train, 2× RTX 3090 NVLink DDP, FP32", 420, "img/s"),
    RefPoint("REF-1", "ResNet-50 train, 1× RTX 3090, AMP", 460, "img/s"),
    RefPoint("REF-1", "ResNet-50 train, 2× RTX 3090 NVLink DDP, AMP", 850, "img/s"),
    RefPoint("REF-2", "ResNet-18 train, GTX 1660 Super vs RTX 3090", 0.37, "ratio"),
    RefPoint("REF-3", "GPT-2 small generation, RTX 3060, batch 1", 512 / 8, "tokens/s"),
)


def _r50(precision: str) -> Workload:
    return Workload(model="resnet50", task="train", precision=precision, batch_size=REF1_BATCH)


def predict(point: RefPoint, f: Factors) -> float:
    g3090 = _gpu(REF_3090)
    if point.ref == "REF-1":
        precision = "amp" if "AMP" in point.label else "fp32"
        w = _r50(precision)
        one = single_gpu(g3090, w, f).samples_per_s
        if "2×" not in point.label:
            return one
        grad_bytes = w.spec().params * 4
        return one * scaling(2, REF1_BATCH / one, grad_bytes, link_bytes_per_s(g3090, None, None, True), f)
    if point.ref == "REF-2":
        w = Workload(model="resnet18", task="train", precision="fp32")
        return single_gpu(_gpu(REF_1660S), w, f).samples_per_s / single_gpu(g3090, w, f).samples_per_s
    w = Workload(model="gpt2", task="infer", precision="fp32", batch_size=1, seq_len=512)
    value = single_gpu(_gpu(REF_3060), w, f).decode_tokens_per_s
    assert value is not None
    return value


def calibrate(exclude: str | None = None) -> Factors:
    """Fit each factor to the reference figures that determine it (closed form, in order)."""
    f = Factors()
    use = [p for p in REF_POINTS if p.ref != exclude]
    singles = [p for p in use if p.ref == "REF-1" and "2×" not in p.label]
    if singles:
        # e_tc scales the prediction linearly: the geometric mean of measured / predicted.
        ratios = [p.measured / predict(p, f) for p in singles]
        f = replace(f, e_tc=f.e_tc * math.prod(ratios) ** (1 / len(ratios)))
    pairs = [p for p in use if p.ref == "REF-1" and "2×" in p.label]
    if pairs:
        # η enters as η^log2(2) = η for two cards.
        ratios = [p.measured / predict(p, f) for p in pairs]
        f = replace(f, eta=f.eta * math.prod(ratios) ** (1 / len(ratios)))
    for p in use:
        if p.ref == "REF-2":
            f = replace(f, e_simt=f.e_simt * p.measured / predict(p, f))
        if p.ref == "REF-3":
            # tokens/s = 1 / (t_mem + L·t): solve for t.
            current = predict(p, f)
            layers = 12
            t_other = 1 / current - layers * f.t_decode_layer
            f = replace(f, t_decode_layer=max((1 / p.measured - t_other) / layers, 0.0))
    return f


FACTORS = calibrate()


@dataclass(frozen=True)
class LooResult:
    point: RefPoint
    predicted: float

    @property
    def error(self) -> float:
        return self.predicted / self.point.measured - 1


def leave_one_out() -> list[LooResult]:
    out: list[LooResult] = []
    for ref in ("REF-1", "REF-2", "REF-3"):
        f = calibrate(exclude=ref)
        out.extend(LooResult(p, predict(p, f)) for p in REF_POINTS if p.ref == ref)
    return out
