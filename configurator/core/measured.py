"""The planner's estimate for a benchmark that was measured: the same workload, at the settings
the benchmark used, on the hardware its fingerprint describes.

GPUs are matched to the catalogue by name (and memory size, for variants); the CPU is
matched by name, or else described from the fingerprint itself (usable threads, clock,
vector width), so a machine whose CPU is not in the catalogue still gets an estimate.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from typing import Any

from configurator.core.build import Workload
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import throughput as tp
from configurator.core.estimate.power import MeasuredPower
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import AnyPart, Cpu, Gpu

_DROP = {"nvidia", "geforce", "amd", "radeon", "intel", "r", "tm", "core", "processor", "cpu", "with", "graphics",
         "tesla"}


def _tokens(name: str) -> set[str]:
    return {t for t in re.split(r"[^a-z0-9]+", name.lower()) if t and t not in _DROP}


def match_gpu(name: str, memory_gib: float | None, catalogue: Mapping[str, AnyPart]) -> Gpu | None:
    """The catalogue GPU whose name tokens all appear in the device name (most tokens wins)."""
    have = _tokens(name)
    best: tuple[int, int, Gpu] | None = None
    for part in catalogue.values():
        if not isinstance(part, Gpu):
            continue
        want = _tokens(part.name) - {"pcie", "sxm", "sxm2", "sxm4", "sxm5"}
        want = {t for t in want if not re.fullmatch(r"\d+gb", t)}
        if not want or not want <= have:
            continue
        close = 0 if memory_gib is None else -abs(part.vram_gb - memory_gib)
        score = (len(want), int(close))
        if best is None or score > best[:2]:
            best = (score[0], score[1], part)
    return best[2] if best else None


def match_cpu(name: str, catalogue: Mapping[str, AnyPart]) -> Cpu | None:
    have = _tokens(name)
    for part in sorted(catalogue.values(), key=lambda p: -len(p.name)):
        if isinstance(part, Cpu) and _tokens(part.name) <= have:
            return part
    return None


def cpu_from_fingerprint(fp: Mapping[str, Any], threads: int) -> Cpu | None:
    mhz = fp.get("cpu_mhz")
    if not mhz:
        return None
    capability = str(fp.get("cpu_capability") or "").upper()
    ghz = float(mhz) / 1000
    return Cpu(id="this-machine", name=str(fp.get("cpu") or "this CPU"), brand="", price_cny=0,
               price_date="2026-11", source="https://localhost/fingerprint", vendor="intel", architecture="",
               socket="", cores=threads, threads=threads, base_ghz=ghz, boost_ghz=ghz, l3_mb=1.0, tdp_w=1,
               max_power_w=1, pcie_gen=4, pcie_lanes=1, memory_types=["DDR4"], memory_channels=1,
               max_memory_gb=1, ecc=False, rdimm=False, avx512="AVX512" in capability, integrated_graphics=False)


def _workload(name: str, s: Mapping[str, Any]) -> Workload | None:
    batch = int(s.get("batch") or 1)
    if name in ("resnet18-train", "resnet50-train"):
        amp = s.get("amp")
        precision = {"bf16": "bf16", "fp16": "amp"}.get(str(amp), "fp32")
        return Workload(model=name.split("-")[0], task="train", precision=precision, batch_size=batch,
                        image_size=int(s.get("image") or 224))
    if name in ("gpt2-prefill", "gpt2-decode"):
        m = s.get("model") or {}
        layers, hidden, heads = m.get("n_layer"), m.get("n_embd"), m.get("n_head")
        params = float(m.get("params_m") or 0) * 1e6
        precision = {"fp16": "fp16", "bf16": "bf16"}.get(str(s.get("dtype")), "fp32")
        seq = int(s.get("prompt") or 128)
        if not (layers and hidden and heads and params):
            return Workload(model="gpt2", task="infer", precision=precision, batch_size=batch, seq_len=seq)
        return Workload(model="custom", task="infer", family="transformer", params=params, layers=int(layers),
                        hidden=int(hidden), heads=int(heads), vocab=int(m.get("vocab_size") or 50257),
                        precision=precision, batch_size=batch, seq_len=seq)
    return None


SPEC_FIELDS = {"matmul-bf16": ("bf16_tensor_tflops", "BF16"), "matmul-fp16": ("fp16_tensor_tflops", "FP16"),
               "matmul-fp32": ("fp32_tflops", "FP32")}


def spec_peak(catalogue: Mapping[str, AnyPart], fp: Mapping[str, Any], workload: str,
              settings: Mapping[str, Any]) -> tuple[float, str, Message] | None:
    """A CUDA matmul result against the card's spec-sheet peak for that data type."""
    if workload not in SPEC_FIELDS or settings.get("device") != "cuda":
        return None
    gpus = fp.get("gpus") or []
    gpu = match_gpu(str(gpus[0].get("name")), gpus[0].get("memory_gib"), catalogue) if gpus else None
    if gpu is None:
        return None
    field, label = SPEC_FIELDS[workload]
    peak = getattr(gpu, field)
    if not peak:
        return None
    how = Message("estimates", QT_TRANSLATE_NOOP(
        "estimates", "{gpu}'s spec-sheet dense {dtype} peak ({source}); the measured share of it is what the "
                     "card reaches on this software."), {"gpu": gpu.name, "dtype": label, "source": gpu.source})
    return float(peak), "TFLOPS", how


def estimate_measurement(catalogue: Mapping[str, AnyPart], fp: Mapping[str, Any], workload: str,
                         settings: Mapping[str, Any]) -> tuple[float, str, Message] | None:
    """(value, unit, how) of the planner's estimate for one measured result, or None.

    For CUDA matmul results the comparison is with the card's spec-sheet peak instead."""
    peak = spec_peak(catalogue, fp, workload, settings)
    if peak is not None:
        return peak
    w = _workload(workload, settings)
    if w is None:
        return None
    f = fitting.factors_for()
    device = settings.get("device")
    if device == "cuda":
        gpus = fp.get("gpus") or []
        if not gpus:
            return None
        gpu = match_gpu(str(gpus[0].get("name")), gpus[0].get("memory_gib"), catalogue)
        if gpu is None:
            return None
        one = tp.single_gpu(gpu, w, f)
        hw = gpu.name
    elif device == "cpu":
        threads = int(settings.get("threads") or fp.get("cpu_usable") or 1)
        cpu = match_cpu(str(fp.get("cpu") or ""), catalogue)
        if cpu is not None:
            cpu = Cpu(**{**cpu.__dict__, "cores": min(cpu.cores, threads)})  # the threads torch used
        else:
            cpu = cpu_from_fingerprint(fp, threads)
        if cpu is None:
            return None
        bandwidth = 2 * 3200e6 * 8  # dual-channel DDR4-3200 when the machine's memory is unknown
        one = tp.cpu_only(cpu, 1, bandwidth, w, f)
        hw = f"{cpu.name} ({cpu.cores} threads used)"
    else:
        return None
    if workload == "gpt2-decode":
        value = one.decode_tokens_per_s
        unit = "tokens/s"
    elif workload == "gpt2-prefill":
        value = one.tokens_per_s
        unit = "tokens/s"
    else:
        value = one.samples_per_s
        unit = "img/s"
    if value is None:
        return None
    how = Message("estimates", QT_TRANSLATE_NOOP(
        "estimates", "Planner estimate for {hw} at the benchmark's settings ({precision}, batch {batch})."),
        {"hw": hw, "precision": w.precision, "batch": w.effective_batch})
    return value, unit, how


def vram_estimate(workload: str, settings: Mapping[str, Any]) -> tuple[float, float, Message] | None:
    """The planner's VRAM estimate for one benchmark at its settings on one GPU: (bytes of the tensors,
    the whole per-GPU estimate, how). ``torch.cuda.max_memory_allocated`` counts only the tensors the
    caching allocator handed out, so the first figure leaves out the CUDA context and the allocator's
    margin that the whole estimate adds. None for a benchmark the planner does not model (matmul)."""
    from configurator.core.estimate.memory import vram_per_gpu
    from configurator.core.units import GIB

    w = _workload(workload, settings)
    if w is None:
        return None
    if w.task == "train":  # SGD with momentum; autocast keeps fp32 weights (the planner's "amp")
        w = dataclasses.replace(w, optimizer="sgd", precision="amp" if settings.get("amp") else w.precision)
    elif workload == "gpt2-decode":  # the KV cache holds the prompt and the generated tokens
        w = dataclasses.replace(w, seq_len=int(settings.get("prompt") or 128) + int(settings.get("new_tokens") or 0))
    v = vram_per_gpu(w, 1)
    tensors = v.total - v.context - v.margin - v.display
    how = Message("estimates", QT_TRANSLATE_NOOP(
        "estimates", "Planner VRAM estimate at the benchmark's settings ({precision}, batch {batch}): "
                     "{tensors:.2f} GiB of tensors (weights, gradients, optimizer states, saved activations, "
                     "logits, KV cache), {total:.2f} GiB with the CUDA context and the allocator's margin."),
        {"precision": w.precision, "batch": w.effective_batch, "tensors": tensors / GIB, "total": v.total / GIB})
    return tensors, v.total, how


def power_from_benchmark(results: Iterable[tuple[float | None, str | None, float | None]],
                         source: Message | None = None) -> MeasuredPower | None:
    """The draw a benchmark measured: for each result with joules per sample and a rate in samples (or
    tokens) per second, watts = J/sample × samples/s; the busiest workload's, as training keeps the GPU
    as busy as that. ``results``: (value, unit, joules per sample)."""
    watts = [float(v) * float(j) for v, unit, j in results
             if v and j and (unit or "").endswith("/s") and float(v) > 0 and float(j) > 0]
    if not watts:
        return None
    return MeasuredPower(max(watts), max(watts), cpu=False, source=source)
