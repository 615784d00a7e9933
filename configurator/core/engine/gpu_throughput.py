"""The throughputs on the counted GPUs: one GPU's, a decoder's prefill and batch, the data-parallel
scaling, the machine's total and its throughput per ¥1000; or, where there is none, the one
sentence that says why (``throughput_not_estimated``)."""

from __future__ import annotations

from collections.abc import Sequence

from configurator.core.build import Workload
from configurator.core.engine.decode import decode_estimates
from configurator.core.engine.gpus import usable_gpus
from configurator.core.engine.one_gpu import one_gpu_throughput
from configurator.core.engine.ranges import scaled
from configurator.core.engine.report import message as _m
from configurator.core.engine.report import throughput_figure
from configurator.core.engine.scaling import scaling_estimate, total_factors
from configurator.core.estimate import throughput as tp
from configurator.core.estimate.memory import verdict
from configurator.core.findings import Estimate
from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.measurements import Measurement
from configurator.core.models import throughput_note
from configurator.core.parts import Gpu
from configurator.core.rules.shared import Ctx
from configurator.core.units import GIB


def throughput_blocked(ctx: Ctx, placed: list[Gpu], w: Workload) -> Estimate | None:
    """Why there is no throughput at all, where there is none: a model whose compute no source states (a
    diffusion UNet), or a build that cannot run the workload (FIT-1): one sentence why, no figure."""
    unit = w.throughput_unit
    not_estimated = throughput_note(w.spec())
    if not_estimated is not None:
        return Estimate("throughput_not_estimated", None, unit, not_estimated, {"model": w.model}, "low")
    smallest_gib = min((g.vram_gb for g in placed), default=0)
    if ctx.vram is not None and placed and verdict(ctx.vram, smallest_gib) == "does_not_fit":
        return Estimate("throughput_not_estimated", None, unit, _m(QT_TRANSLATE_NOOP(
            "estimates", "No throughput: the workload does not fit in GPU memory ({need:.1f} GiB per GPU estimated, "
                         "{have} GiB on the card; FIT-1). RAM-4 lists what makes it fit."),
            need=ctx.vram.total / GIB, have=smallest_gib),
            {"model": w.model, "reason": "does_not_fit", "need_gib": round(ctx.vram.total / GIB, 2),
             "vram_gib": smallest_gib}, "low")
    return None


def gpu_throughput(ctx: Ctx, placed: list[Gpu], total: int, f: tp.Factors, rows: Sequence[Measurement],
                    w: Workload) -> list[Estimate]:
    """Throughput on the counted GPUs: one GPU's; a decoder's prompt and batched decode rates (inference); the
    data-parallel scaling (training on several GPUs); the machine's total and its throughput per ¥1000."""
    base, first = one_gpu_throughput(ctx, placed, f, rows, w)
    out = [first]
    n = len(placed)
    stream = w.spec().decoder and w.task == "infer"
    copies = max(n // base.one.model_gpus, 1)  # model copies: one per GPU, or one per group of a parallel model
    if stream:
        out += decode_estimates(base, w, f.fit, n, copies)
    speedup = 1.0
    if n > 1 and w.task == "train":
        speedup, scaling = scaling_estimate(ctx, placed, base, w, f)
        out.append(scaling)
    factor, low_factor, high_factor, how_total = total_factors(ctx, placed, base, w, f.fit, speedup, stream,
                                                                copies)
    total_value = base.value * factor
    in_build = len(usable_gpus(ctx.r))
    if in_build > n:
        how_total = _m("{how} {left}", how=how_total, left=_m(QT_TRANSLATE_NOOP(
            "estimates", "{k} of the build's {m} GPUs have no slot or baseboard and are not counted."),
            k=in_build - n, m=in_build))
    unit = w.throughput_unit
    out.append(Estimate(
        "throughput_total", throughput_figure(total_value), unit, how_total,
        {"gpus": n, "gpus_in_build": in_build, "runtime": tp.runtime_used(w), "runtime_default": w.runtime is None,
         "model_gpus": base.one.model_gpus},
        "low",
        scaled(base.low, low_factor), scaled(base.high, high_factor), base.basis))
    if total:
        out.append(Estimate("throughput_per_kcny", throughput_figure(total_value / total * 1000), f"{unit} per ¥1000",
                            _m(QT_TRANSLATE_NOOP(
                                "estimates",
                                "Throughput ÷ build price.")), {"total_cny": total}, "low",
                            scaled(base.low, low_factor * 1000 / total),
                            scaled(base.high, high_factor * 1000 / total), base.basis))
    return out
