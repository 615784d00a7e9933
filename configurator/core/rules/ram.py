"""Memory (RAM-1..4): the guide's RAM formula beside the first-principles estimate (whether it fits is
FIT-2's, fit.py), the CNN and GPT minimums, and the options that reduce a workload's memory."""

from __future__ import annotations

from configurator.core.estimate.memory import verdict
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.rules.shared import Ctx, option_list


def capacity(ctx: Ctx) -> None:
    r = ctx.r
    w = ctx.workload
    ram = r.ram_gb
    if not r.memory or w is None:
        return
    spec = w.spec()
    est = ctx.ram
    assert est is not None
    numbers = ctx.ram_numbers()
    if ram < est.guide_gib:
        ctx.add("RAM-1", "warning", "G 三.2",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "The guide's formula (params × batch × 4 B × 1.2, halved for mixed precision) asks for "
                    "{guide_gb:.0f} GiB; {ram} GiB is installed. The formula scales weights with the batch, which "
                    "memory does not do; the first-principles estimate is {fp:.1f} GiB."),
                numbers, guide="内存容量 ≥ 模型参数量(字节) × batch_size × 4（FP32） × 1.2（冗余）",
                guide_gb=est.guide_gib, fp=est.first_principles_gib, ram=ram)
    else:
        ctx.add("RAM-1", "info", "G 三.2",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Guide's formula: {guide_gb:.1f} GiB; first-principles estimate: {fp:.1f} GiB; installed: "
                    "{ram} GiB."),
                numbers, guide_gb=est.guide_gib, fp=est.first_principles_gib, ram=ram)
    if spec.family == "cnn":
        if ram < 16:
            ctx.add("RAM-2", "warning", "M 1.1",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "The guide's CNN minimum is 16 GB DDR4-3200; {ram} GiB installed."), numbers,
                    guide="内存：16GB DDR4（3200MHz）", ram=ram)
        elif ram - est.first_principles_gib < 8:
            ctx.add("RAM-2", "warning", "M 1.1",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "Keep at least 8 GiB free for data loading; about {free:.1f} GiB would be left."),
                    numbers, guide="大批量数据加载时需预留至少8GB空闲内存", free=ram - est.first_principles_gib)
    elif spec.decoder:
        if ram < 32:
            ctx.add("RAM-3", "warning", "M 2.1",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "The guide's GPT minimum is 32 GB of RAM (64 GB better); {ram} GiB installed."),
                    numbers, guide="内存：32GB DDR4（64GB更佳）", ram=ram)
        elif ram < 64:
            ctx.add("RAM-3", "info", "M 2.1", QT_TRANSLATE_NOOP(
                "rules",
                "32 GB meets the GPT minimum; the guide prefers 64 GB."),
                    numbers, guide="内存：32GB DDR4（64GB更佳）")


def reduce(ctx: Ctx) -> None:
    """RAM-4, where FIT-1 (fit.vram) finds the workload does not fit: each memory option alone, estimated
    per GPU."""
    w = ctx.workload
    vram = ctx.vram
    gpus = ctx.r.gpu_list
    if w is None or vram is None or not gpus:
        return
    have = min(g.vram_gb for g in gpus)
    if verdict(vram, have) != "does_not_fit":
        return
    options = ctx.memory_options
    ctx.add("RAM-4", "info", "G 三.2, 六.1",
            QT_TRANSLATE_NOOP(
                "rules",
                "Each option alone, estimated per GPU against the {have} GiB on the card: {options}. The "
                "guide's advice: gradient checkpointing, mixed precision (about −50 % activations)."),
            {"options": [o.to_json() for o in options], "vram_gib": have},
            guide="使用梯度检查点（Gradient Checkpointing）降低内存占用；混合精度训练可减少50%内存需求",
            have=have, options=option_list(options) if options else Message("rules", QT_TRANSLATE_NOOP(
                "rules", "none applies to this workload")))
