"""A GPU or the CPU reduced to what the throughput terms need (:class:`Hw`): its peaks per unit, its memory
bandwidth and board power, the SMs' issue rate, its links.
"""

from __future__ import annotations

from dataclasses import dataclass

from configurator.core.estimate.throughput.runtimes import ARCHS, VENDOR_FACTOR
from configurator.core.parts import Cpu, Gpu


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
