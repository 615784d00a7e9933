"""GPU and VRAM (GPU-1..7): the guides' recommendations of a card for the workload (whether it fits is
FIT-1's estimate, fit.py). GPU-6 is the monitor's alert."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.shared import Ctx


def card(ctx: Ctx) -> None:
    r = ctx.r
    w = ctx.workload
    gpus = r.gpu_list
    if not gpus:
        ctx.add("GPU-7", "info", "G 一",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "No GPU: small models (MNIST-sized) train on the CPU or integrated graphics; anything like "
                    "BERT pre-training needs a professional GPU."),
                {}, guide="轻量级模型训练（如MNIST分类），集成显卡即可满足需求")
        return
    vram = min(g.vram_gb for g in gpus)
    if w is None:
        return
    spec = w.spec()
    if vram <= 6:
        heavy = spec.is_transformer or spec.params >= 50e6
        ctx.add("GPU-1", "warning" if heavy else "info", "G 二.1",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "A {vram} GiB card suits fewer than 100k samples, CNNs under 50M parameters and real-time "
                    "inference under 50 ms; this workload has {params:.0f}M parameters."),
                {"vram_gb": vram, "params_m": round(spec.params / 1e6, 1)},
                guide="GTX 1660 Super（6GB）适合<10万样本、<50M参数的CNN", vram=vram, params=spec.params / 1e6)
    if spec.family == "cnn":
        if vram < 4:
            ctx.add("GPU-4", "warning", "M 1.1, 1.3",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "The CNN minimum is a 4 GiB card (GTX 1650 Super); this one has {vram} GiB."),
                    {"vram_gb": vram}, guide="GPU：NVIDIA GTX 1650 Super（4GB GDDR6显存）", vram=vram)
        elif vram <= 4 and w.effective_batch > 32:
            ctx.add("GPU-4", "warning", "M 1.3",
                    QT_TRANSLATE_NOOP("rules", "On a 4 GiB card the guide suggests batch 32; this workload uses {b}."),
                    {"batch": w.effective_batch}, guide="GTX 1650 Super建议batch_size=32", b=w.effective_batch)
        return
    if vram < 24:
        ctx.add("GPU-2", "warning", "G 二.2",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "For Transformer models the guide recommends 24 GiB or more of VRAM; this card has {vram}."),
                {"vram_gb": vram}, guide="对于Transformer类模型，建议优先选择显存≥24GB的显卡", vram=vram)
    if spec.name.startswith("bert") and w.task == "train":
        guide_batch = 64 if vram >= 24 else 32 if vram >= 12 else None
        if guide_batch is not None and w.effective_batch > guide_batch:
            ctx.add("GPU-3", "warning", "G 二.2",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "The guide trains BERT-base with batch {g} on {vram} GiB; batch {b} is above it."),
                    {"guide_batch": guide_batch, "batch": w.effective_batch, "vram_gb": vram},
                    guide="24GB显存可支持batch_size=64，12GB显卡需将batch_size降至32，训练时间增加40%",
                    g=guide_batch, vram=vram, b=w.effective_batch)
        elif guide_batch == 32:
            ctx.add("GPU-3", "info", "G 二.2",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "With 12–23 GiB the guide uses batch 32 for BERT-base, about 40 % longer training than "
                        "batch 64 on 24 GiB."), {"guide_batch": 32, "vram_gb": vram},
                    guide="12GB显卡需将batch_size降至32，导致训练时间增加40%")
    if spec.decoder:
        need = 16 if spec.params >= 300e6 else 12
        if vram < need:
            medium = need > 12
            ctx.add("GPU-5", "warning", "M 2.1",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "For GPT-2 Medium (345M) the guide recommends the RTX 3090 24 GB or A4000 16 GB, so {need} "
                        "GiB or more (its GPT minimum is the RTX 3060 12 GB with FP16 mixed precision); this card "
                        "has {vram} GiB. Whether it fits is FIT-1's estimate, not this recommendation.")
                    if medium else QT_TRANSLATE_NOOP(
                        "rules",
                        "The guide's GPT minimum is the RTX 3060 12 GB (FP16 mixed precision); this card has {vram} "
                        "GiB. Whether it fits is FIT-1's estimate, not this recommendation."),
                    {"recommended_gb": need, "vram_gb": vram, "guide_minimum_gpu": "RTX 3060 12GB"},
                    guide="最低GPU：NVIDIA RTX 3060（12GB）；推荐RTX 3090（24GB）或A4000（16GB）", need=need, vram=vram)
