"""The power estimates: the build's peak draw (the PSU's sizing, PWR-1) and its average draw while
training or serving."""

from __future__ import annotations

from configurator.core.engine.report import message as _m
from configurator.core.estimate.power import training_draw_w
from configurator.core.findings import Estimate
from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.shared import Ctx


def power_estimates(ctx: Ctx, serving: bool = False) -> list[Estimate]:
    """The build's peak draw (the PSU's sizing, PWR-1) and its average draw under load: while training, or (a
    serving workload) while serving."""
    p = ctx.power
    peak = Estimate("peak_power_w", p.peak_w, "W", p.formula,
                    {"gpu_w": p.gpu_w, "cpu_w": p.cpu_w, "platform_w": p.platform_w, "transient_w": p.transient_w},
                    "medium")
    if serving:
        return [peak, Estimate("serving_draw_w", training_draw_w(ctx.r), "W", _m(QT_TRANSLATE_NOOP(
            "estimates",
            "GPUs at board power + CPU at TDP + platform: the draw while serving under load, an upper figure "
            "(decoding is bound by memory bandwidth more than by compute; a lightly loaded server draws less).")),
            {}, "low")]
    return [peak,
            Estimate("training_draw_w", training_draw_w(ctx.r), "W",
                     _m(QT_TRANSLATE_NOOP(
                         "estimates",
                         "GPUs at board power + CPU at TDP + platform: the average draw while training.")),
                     {}, "medium")]
