"""One GPU's throughput (``throughput_one_gpu``), the figure the machine's throughputs are built from: the
slowest counted GPU under the fitted model, its range, the weights' format and the fitted efficiencies
it used; and the words of the throughput sentence (what bounds it, which cores)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from configurator.core.build import Workload
from configurator.core.engine.links import build_system
from configurator.core.engine.ranges import format_range, likely_range, vision_family, vision_range
from configurator.core.engine.report import message as _m
from configurator.core.engine.report import throughput_figure
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import throughput as tp
from configurator.core.estimate.quant import QUANTS
from configurator.core.estimate.quant import kernel_for as quant_kernel
from configurator.core.findings import Estimate
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.measurements import Measurement
from configurator.core.parts import Gpu
from configurator.core.rules.shared import Ctx

# Words of the throughput sentence, translated where it is shown.
BOUND = {"compute": Message("estimates", QT_TRANSLATE_NOOP("estimates", "compute")),
          "memory": Message("estimates", QT_TRANSLATE_NOOP("estimates", "memory"))}
BOUND["power"] = Message("estimates", QT_TRANSLATE_NOOP("estimates", "power"))
BOUND["overhead"] = Message("estimates", QT_TRANSLATE_NOOP("estimates", "launch-overhead"))
BOUND["comm"] = Message("estimates", QT_TRANSLATE_NOOP("estimates", "communication"))
BOUND["offload"] = Message("estimates", QT_TRANSLATE_NOOP("estimates", "host-transfer"))
_RUNTIME_DEFAULT = Message("estimates", QT_TRANSLATE_NOOP("estimates", " (the default: the build does not name one)"))
_RUNTIME_STATED = Message("estimates", QT_TRANSLATE_NOOP("estimates", " (the build's)"))
_UNITS = {"tensor": Message("estimates", QT_TRANSLATE_NOOP("estimates", "tensor")),
          "simt": Message("estimates", QT_TRANSLATE_NOOP("estimates", "shader (SIMT)")),
          "cpu": Message("estimates", QT_TRANSLATE_NOOP("estimates", "CPU"))}


@dataclass(frozen=True)
class OneGpu:
    """The slowest counted GPU's throughput, which the machine's figures are built from: its model, headline value
    (in the workload's unit), likely range, the range's basis and the sentence that says it."""
    gpu: Gpu
    one: tp.Throughput
    value: float
    low: float | None
    high: float | None
    basis: dict[str, Any]
    rng: Message


def one_gpu_throughput(ctx: Ctx, placed: list[Gpu], f: tp.Factors, rows: Sequence[Measurement],
                        w: Workload) -> tuple[OneGpu, Estimate]:
    """The slowest counted GPU's throughput (``throughput_one_gpu``): the fitted model's figure, its range from
    the family's held-out residuals (a quantised format's own where it has enough rows) and the published rows of
    this GPU and workload."""
    fit = f.fit
    unit = w.throughput_unit
    system = build_system(ctx, placed, w)
    slowest = min(placed, key=lambda g: tp.single_gpu(g, w, f, system).headline(w))
    one = tp.single_gpu(slowest, w, f, system)
    value = one.headline(w)
    fam = fitting.family_of(w)
    row_precision = QUANT_ROW_PRECISION.get(w.quant or "")
    matched = fitting.matches(rows, slowest.id, dataclasses.replace(w, precision=row_precision)
                              if row_precision else w)
    spec = w.spec()
    vision = vision_family(spec.arch, spec.unet is not None, w.task)
    seen = vision_range(value, unit, vision, matched) if vision is not None and fit is not None else None
    low, high, basis, rng = seen if seen is not None else likely_range(value, unit, fam, fit, matched)
    if one.format_key:
        low, high, basis, rng = format_range(value, unit, fam, one.format_key, fit, (low, high, basis, rng))
    assumes = _m(QT_TRANSLATE_NOOP(
        "estimates",
        "Per-layer-type work (GEMM/convolution FLOPs on the unit the precision runs on, memory-bound traffic on "
        "DRAM, launch overhead per kernel) with efficiencies per architecture and runtime fitted to {n} published "
        "measurements (ridge towards stated priors). Software as measured: NGC PyTorch with TF32 for FP32 on "
        "Ampere and newer, synthetic data. Runtime: {runtime}{default}."),
        n=len(fit.rows) if fit else 0, runtime=tp.runtime_used(w),
        default=_RUNTIME_DEFAULT if w.runtime is None else _RUNTIME_STATED)
    estimate = Estimate(
        "throughput_one_gpu", throughput_figure(value), unit,
        _m("{range} {detail}", range=rng, detail=_m(QT_TRANSLATE_NOOP(
            "estimates", "{gpu}: {bound}-bound on {units} cores ({precision}{weights}). {assumes}"),
            gpu=slowest.name, bound=BOUND.get(one.bound, one.bound), units=_UNITS.get(one.path, one.path),
            precision=w.precision, weights=_weights_message(w, one, slowest), assumes=assumes)),
        {"path": one.path, "bound": one.bound, "runtime": tp.runtime_used(w), "runtime_default": w.runtime is None,
         "model_gpus": one.model_gpus,
         **({"batch": w.effective_batch} if w.spec().decoder and w.task == "infer" else {}),
         **({"kv_cache_dtype": w.kv_cache} if w.kv_cache_dtype and w.task == "infer" else {}),
         **_quant_json(w, one, slowest), **_parameters(f, slowest)}, "medium" if fit else "low", low, high, basis)
    return OneGpu(slowest, one, value, low, high, basis, rng), estimate


# The precision the published rows of a workload's ``quant`` are labelled with (db/measurements/README.md).
QUANT_ROW_PRECISION = {"awq": "awq", "gptq": "gptq", "bnb-nf4": "nf4", "bnb-int8": "bnb-int8", "gguf-q4_k_m": "q4_k_m",
                       "gguf-q8_0": "q8_0", "torchao-int4": "int4", "torchao-int8": "int8", "fp8": "fp8",
                       "fp8-w8a8": "fp8", "exl2": "exl2"}
_FP8_PRIOR = Message("estimates", QT_TRANSLATE_NOOP(
    "estimates", "; FP8 tensor cores at twice the 16-bit rate, with the 16-bit GEMM efficiency (no published fp8 "
                 "row fitted)"))


def _weights_message(w: Workload, one: tp.Throughput, gpu: Gpu) -> Message | str:
    """The weights' format of an estimate: the quant, its kernel on this card and its bits per weight."""
    if w.quant is not None and w.task == "infer":
        k = quant_kernel(w.quant, w.effective_runtime, float(gpu.compute_capability) if gpu.compute_capability
                         else None)
        q = QUANTS[w.quant]
        return _m(QT_TRANSLATE_NOOP("estimates", "; weights {quant}, {bits:.3g} bits per weight, kernel {kernel}"),
                  quant=q.name, bits=q.bits, kernel=k.name if k else "—")
    if w.precision == "fp8":
        return _FP8_PRIOR
    return ""


def _quant_json(w: Workload, one: tp.Throughput, gpu: Gpu) -> dict[str, Any]:
    if w.quant is None or w.task != "infer":
        return {}
    k = quant_kernel(w.quant, w.effective_runtime, float(gpu.compute_capability) if gpu.compute_capability else None)
    return {"quant": w.quant, "quant_kernel": k.name if k else None,
            "quant_bits_per_weight": round(QUANTS[w.quant].bits, 3),
            "format_key": one.format_key}


def _parameters(f: tp.Factors, gpu: Gpu) -> dict[str, float]:
    """The fitted efficiencies this GPU's estimate uses (architecture deviation folded in)."""
    arch = tp.arch_family(gpu.architecture) if gpu.vendor == "nvidia" else None
    out = {}
    for k in ("tc", "pwr", "bw"):
        v = f.efficiency(k) * (f.efficiency(f"{k}@{arch}") if arch else 1.0)
        out[f"e_{k}"] = float(f"{v:.4g}")
    out["e_conv"] = float(f"{f.efficiency('conv'):.3g}")
    out["e_simt"] = float(f"{f.efficiency('simt'):.3g}")
    return out
