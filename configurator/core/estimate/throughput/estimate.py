"""The planner's throughput figures: one GPU's (:func:`single_gpu`) or the CPU's (:func:`cpu_only`) throughput of a
workload at the fitted parameters (:class:`Factors`: the shipped fit, or the priors), the link between GPUs and
data-parallel scaling.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from configurator.core.build import Workload
from configurator.core.estimate.throughput.case import Case, format_key
from configurator.core.estimate.throughput.hardware import Hw, cpu_hw, gpu_hw
from configurator.core.estimate.throughput.priors import INDEX, NAMES
from configurator.core.estimate.throughput.runtimes import OVERLAP
from configurator.core.estimate.throughput.terms import step_time, terms
from configurator.core.estimate.throughput.workloads import planner_cases, runtime_used
from configurator.core.parts import Cpu, Gpu

if TYPE_CHECKING:
    from configurator.core.estimate.fit import Fit


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
