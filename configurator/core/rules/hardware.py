"""Software stack (CUD-*), GPU and VRAM (GPU-*), CPU (CPU-*), memory (RAM-*), storage (STO-*)
and workload fit (FIT-*)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from configurator.core.build import Workload, workload_errors
from configurator.core.estimate.memory import largest_batch, verdict, vram_per_gpu
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.rules.context import Ctx
from configurator.core.software import (
    DRIVER_TABLE,
    GUIDE_CUD1,
    GUIDE_CUD2,
    ROCM_NOTES,
    arch_row,
    architecture_message,
    pytorch_message,
)
from configurator.core.units import GIB


def software(ctx: Ctx) -> None:
    r = ctx.r
    seen: set[str] = set()
    for g in r.gpu_list:
        if g.id in seen:
            continue
        seen.add(g.id)
        if g.vendor == "amd":
            if g.rocm_supported:
                ctx.add("CUD-4", "warning", "M 1.1",
                        QT_TRANSLATE_NOOP(
                            "rules",
                            "{gpu} ({target}) needs ROCm and PyTorch's ROCm wheels; libraries built for CUDA only "
                            "(many custom kernels) will not run."),
                        {"gfx_target": g.gfx_target, "source": ROCM_NOTES}, guide="需ROCm支持，但生态兼容性较差",
                        gpu=g.name, target=g.gfx_target or "?")
            else:
                ctx.add("CUD-4", "warning", "M 1.1",
                        QT_TRANSLATE_NOOP(
                            "rules",
                            "{gpu} ({target}) is supported by neither current ROCm nor PyTorch's ROCm wheels: no "
                            "GPU path for PyTorch; it would train on the CPU."),
                        {"gfx_target": g.gfx_target, "source": ROCM_NOTES}, guide="可选用AMD RX 570（需ROCm支持）",
                        gpu=g.name, target=g.gfx_target or "?")
            continue
        row = arch_row(g.compute_capability)
        if row is None:
            continue
        numbers = {"compute_capability": row.compute_capability, "first_cuda": row.first_cuda,
                   "first_driver": row.first_driver, "pytorch": row.pytorch, "source": row.source,
                   "checked": row.checked,
                   "driver_per_cuda_major": {d.cuda_major: d.min_linux_driver for d in DRIVER_TABLE}}
        if not row.current_wheels:
            ctx.add("CUD-1", "warning", "G 一",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "{gpu} (sm_{cc}) is not in the newest PyTorch CUDA builds: install the {pytorch}."),
                    numbers, gpu=g.name, cc=row.compute_capability.replace(".", ""), pytorch=pytorch_message(row))
        else:
            ctx.add("CUD-1", "info", "G 一",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "{gpu}: {arch}, sm_{cc}: CUDA ≥ {cuda} (Linux driver ≥ {driver}); PyTorch {pytorch}. Table "
                        "checked {checked}."),
                    numbers, guide=GUIDE_CUD1 if row.compute_capability == "8.6" else None, gpu=g.name,
                    arch=architecture_message(row), cc=row.compute_capability.replace(".", ""),
                    cuda=row.first_cuda, driver=row.first_driver, pytorch=pytorch_message(row), checked=row.checked)
        if row.compute_capability == "8.6":
            ctx.add("CUD-2", "info", "M 2.2",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "The guides ask for driver ≥ 450.80.02 and CUDA ≥ 11.3 for RTX 30 cards; the vendor "
                        "minimum is CUDA 11.1 with driver ≥ 455.23.04 (450.80.02 is CUDA 11.0's, which has no "
                        "sm_86). Current PyTorch wheels bundle a newer CUDA anyway."),
                    numbers, guide=GUIDE_CUD2)
    if r.gpus:
        ctx.add("CUD-3", "info", "M 1.2",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "PyTorch's pip wheels bundle the CUDA runtime and cuDNN: only the driver must be new enough. A "
                    "system or conda CUDA must match the framework build, or GPU acceleration silently fails."),
                {}, guide="CUDA与cuDNN需与框架版本匹配，错误配置会导致GPU加速失效")
        ctx.add("CUD-7", "info", "M 3.1",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "To isolate the stack, use a CUDA base image no newer than the driver supports, then install "
                    "the framework in it."), {}, guide="FROM nvidia/cuda:11.6.0-base-ubuntu20.04")
    os_name = r.build.options.os
    if os_name.startswith("windows") and os_name != "windows-wsl2":
        ctx.add("CUD-6", "warning", "M 1.2",
                QT_TRANSLATE_NOOP("rules", "On Windows, train under WSL2 (Ubuntu LTS) in a venv or conda environment."),
                {"os": os_name}, guide="Windows 10（需WSL2支持）")
    elif os_name in ("ubuntu-20.04", "other-linux"):
        ctx.add("CUD-6", "info", "M 1.2",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "{os}: a current Ubuntu LTS (24.04) is the best-supported choice."), {"os": os_name},
                os=os_name)


def gpu(ctx: Ctx) -> None:
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


def cpu(ctx: Ctx) -> None:
    r = ctx.r
    c = r.cpu
    if c is None:
        return
    cores = c.cores * r.cpu_count
    threads = c.threads * r.cpu_count
    numbers = {"cores": cores, "threads": threads, "l3_mb": c.l3_mb, "boost_ghz": c.boost_ghz}
    multi = len(r.gpu_list) >= 2
    if cores < 8:
        ctx.add("CPU-1", "warning" if multi else "info", "G 三.1",
                QT_TRANSLATE_NOOP("rules", "{cores} cores; the guide recommends 8 or more (for model parallelism)."),
                numbers, guide="核心数：建议≥8核（模型并行时）", cores=cores)
    if c.threads == c.cores:
        ctx.add("CPU-2", "info", "G 三.1",
                QT_TRANSLATE_NOOP("rules", "{cpu} has no SMT/Hyper-Threading, which the guide values at +20–30 %."),
                numbers, guide="超线程技术可提升20-30%性能", cpu=c.name)
    if c.l3_mb < 16:
        ctx.add("CPU-3", "warning", "G 三.1",
                QT_TRANSLATE_NOOP("rules", "{l3:g} MB of L3 cache; the guide recommends 16 MB or more."),
                numbers, guide="L3缓存≥16MB可减少数据加载延迟", l3=c.l3_mb)
    if not r.gpu_list and not c.avx512:
        ctx.add("CPU-4", "warning", "G 三.1",
                QT_TRANSLATE_NOOP("rules", "CPU-only inference: {cpu} has no AVX-512, which the guide prefers."),
                numbers, guide="对于纯CPU推理场景，建议选择支持AVX-512指令集的处理器", cpu=c.name)
    # The 3.6 GHz minimum is a desktop CPU's (i5-10400F, Ryzen 5 3600); server and workstation CPUs (registered
    # memory) trade clock for cores and are judged by their core count here.
    server = c.rdimm
    if threads < 12 or (c.boost_ghz < 3.6 and not server):
        ctx.add("CPU-5", "warning", "M 1.1",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Below the guide's CPU minimum (6 cores/12 threads such as i5-10400F or Ryzen 5 3600, ≥ 3.6 "
                    "GHz): {cores} cores, {threads} threads, {ghz:g} GHz."),
                numbers, guide="CPU：Intel i5-10400F（6核12线程）或AMD Ryzen 5 3600，主频≥3.6GHz",
                cores=cores, threads=threads, ghz=c.boost_ghz)
    if c.id in ("amd-ryzen-9-5950x", "intel-core-i9-12900k"):
        ctx.add("CPU-6", "info", "G 三.1",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "The guide measured the Ryzen 9 5950X 18 % faster than the i9-12900K at data preprocessing, "
                    "and equal at launching CUDA kernels."), {},
                guide="AMD Ryzen 9 5950X在数据预处理阶段比Intel i9-12900K快18%")


def memory(ctx: Ctx) -> None:
    r = ctx.r
    w = ctx.workload
    ram = r.ram_gb
    if not r.memory or w is None:
        return
    spec = w.spec()
    est = ctx.ram
    assert est is not None
    numbers = {"ram_gb": ram, "first_principles_gb": est.first_principles_gib, "guide_formula_gb": est.guide_gib,
               "parts_gb": est.parts}
    if ram < est.first_principles_gib:
        ctx.add("FIT-2", "error", "first principles",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Estimated host RAM need {need:.1f} GiB (first principles: OS and libraries, a host copy of "
                    "the weights per process, DataLoader prefetch) is more than the {ram} GiB installed."),
                numbers, need=est.first_principles_gib, ram=ram)
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


def storage(ctx: Ctx) -> None:
    r = ctx.r
    w = ctx.workload
    if not r.storage:
        return
    fast = [(s, q) for s, q in r.storage if s.kind != "hdd"]
    fast_gb = sum(s.capacity_gb * q for s, q in fast)
    total_gb = sum(s.capacity_gb * q for s, q in r.storage)
    nvme = [s for s, _q in r.storage if s.kind == "nvme"]
    best = max(r.storage, key=lambda sq: sq[0].seq_read_mbs)[0]
    transformer = bool(w and w.spec().is_transformer)
    min_gb = 512 if transformer else 256
    # Drives are sold as 250/256 and 500/512 GB classes: a 250 GB drive is the guide's 256 GB.
    class_gb = {512: 500, 256: 250}[min_gb]
    numbers: dict[str, float] = {"fast_gb": fast_gb, "total_gb": total_gb, "best_seq_read_mbs": best.seq_read_mbs}
    if not nvme:
        ctx.add("STO-3", "warning", "M 1.1, 2.1",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "No NVMe drive: the guides want NVMe (≥ 2000 MB/s) for loading weights and data."),
                numbers, guide="存储：256GB NVMe SSD（读取速度≥2000MB/s）")
    else:
        fastest = max(s.seq_read_mbs for s in nvme)
        if fastest < 2000:
            ctx.add("STO-3", "warning", "M 1.1",
                    QT_TRANSLATE_NOOP("rules", "The fastest NVMe reads {mbs} MB/s; the guide asks for ≥ 2000 MB/s."),
                    numbers, guide="读取速度≥2000MB/s", mbs=fastest)
    if fast_gb < class_gb:
        ctx.add("STO-3", "warning", "M 1.1, 2.1",
                QT_TRANSLATE_NOOP("rules", "{gb} GB of SSD; the guide asks for ≥ {min} GB for this kind of work."),
                numbers, gb=fast_gb, min=min_gb)
    hdd = any(s.kind == "hdd" for s, _q in r.storage)
    if w is not None and w.dataset_gb:
        numbers["dataset_gb"] = w.dataset_gb
        seconds = w.dataset_gb * 1000 / best.seq_read_mbs
        if w.dataset_gb > total_gb:
            ctx.add("FIT-3", "error", "G 四.1",
                    QT_TRANSLATE_NOOP("rules", "The {ds:g} GB data set does not fit on {gb} GB of storage."),
                    numbers, ds=w.dataset_gb, gb=total_gb)
        elif w.dataset_gb > fast_gb:
            ctx.add("STO-4", "warning", "G 四.1",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "The {ds:g} GB data set does not fit on the {gb} GB fast tier (SSD/NVMe); epochs will read "
                        "from the hard disk."), numbers, guide="将常用数据放在SSD", ds=w.dataset_gb,
                    gb=fast_gb)
        ctx.add("STO-1", "info", "G 四.1",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Reading {ds:g} GB once at {mbs} MB/s takes about {sec:,.0f} s (guide's reference: HDD 150, "
                    "SATA SSD 550, NVMe 3500 MB/s)."),
                {**numbers, "seconds": round(seconds)}, ds=w.dataset_gb, mbs=best.seq_read_mbs, sec=seconds)
    if hdd and fast:
        ctx.add("STO-2", "info", "G 四.1",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Tiered storage: keep the hot data set on the SSD and archives on the hard disk."),
                numbers, guide="建议采用“SSD+HDD”分级存储方案")
    if w is not None and w.task == "train":
        ctx.add("STO-5", "info", "G 四.2",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Data loading: num_workers ≥ 4, memory-map huge files, DALI for GPU preprocessing."),
                {}, guide="启用多线程数据加载（num_workers≥4）")


def fit(ctx: Ctx, n_gpus: int) -> None:
    w = ctx.workload
    vram = ctx.vram
    gpus = ctx.r.gpu_list
    if w is None or vram is None or not gpus:
        return
    have = min(g.vram_gb for g in gpus)
    need = vram.total / GIB
    low, high = vram.low / GIB, vram.high / GIB
    state = verdict(vram, have)
    numbers = {"need_gib": round(need, 2), "low_gib": round(low, 2), "high_gib": round(high, 2),
               "verdict": state, "vram_gib": have, "breakdown_gib": vram.gib(), "gpus": n_gpus,
               "sharding": w.sharding, "parallel": w.parallel, "finetune": w.finetune, "offload": w.offload,
               "precision": w.precision, "batch": w.effective_batch,
               "display_gpu": ctx.r.build.options.display_gpu}
    parts: dict[str, Any] = dict(w=vram.weights / GIB, g=vram.gradients / GIB, o=vram.optimizer / GIB,
                 a=(vram.activations + vram.autocast_copies + vram.recompute) / GIB, lg=vram.logits / GIB,
                 kv=vram.kv_cache / GIB, c=(vram.context + vram.display + vram.margin) / GIB)
    if state == "does_not_fit":
        display = ctx.r.build.options.display_gpu
        options = fit_options(w, n_gpus, have, display)
        numbers["options"] = [o.to_json() for o in options]
        fits = [o for o in options if o.verdict != "does_not_fit"]
        ctx.add("FIT-1", "error", "first principles",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Estimated {need:.1f} GiB per GPU (range {low:.1f}–{high:.1f}: weights {w:.1f}, gradients "
                    "{g:.1f}, optimizer {o:.1f}, activations {a:.1f}, logits and loss {lg:.1f}, KV cache {kv:.1f}, "
                    "CUDA context, display and allocator margin {c:.1f}): even the low end is more than the {have} "
                    "GiB on the card. {fixes}"),
                numbers, need=need, low=low, high=high, have=have, **parts,
                fixes=Message("rules", QT_TRANSLATE_NOOP("rules", "It fits with: {options} (RAM-4)."),
                              {"options": _option_list(fits)}) if fits else Message("rules", QT_TRANSLATE_NOOP(
                                  "rules", "No single option makes it fit (RAM-4): a card with more memory.")))
        ctx.add("RAM-4", "info", "G 三.2, 六.1",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Each option alone, estimated per GPU against the {have} GiB on the card: {options}. The "
                    "guide's advice: gradient checkpointing, mixed precision (about −50 % activations)."),
                {"options": numbers["options"], "vram_gib": have},
                guide="使用梯度检查点（Gradient Checkpointing）降低内存占用；混合精度训练可减少50%内存需求",
                have=have, options=_option_list(options) if options else Message("rules", QT_TRANSLATE_NOOP(
                    "rules", "none applies to this workload")))
    elif state == "tight":
        ctx.add("FIT-1", "warning", "first principles",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Tight: estimated {need:.1f} GiB per GPU (range {low:.1f}–{high:.1f}) against {have} GiB; "
                    "within the estimate's error (saved tensors ±10 %, allocator margin 0–25 %) it may run out "
                    "of memory. Leave {margin:.1f} GiB more room to be sure."),
                numbers, need=need, low=low, high=high, have=have, margin=high - have)
    else:
        ctx.add("FIT-1", "info", "first principles",
                QT_TRANSLATE_NOOP("rules",
                                  "Fits: estimated {need:.1f} GiB per GPU (range {low:.1f}–{high:.1f}) of {have} "
                                  "GiB ({share:.0%}); {margin:.1f} GiB to spare at the high end."),
                numbers, need=need, low=low, high=high, have=have, share=need / have, margin=have - high)


# What an option of RAM-4 is called, translated where it is shown.
_OPTION_NAMES = {
    "lora": QT_TRANSLATE_NOOP("rules", "LoRA (rank {rank})"),
    "qlora": QT_TRANSLATE_NOOP("rules", "QLoRA (4-bit base, rank {rank})"),
    "offload": QT_TRANSLATE_NOOP("rules", "optimizer states offloaded to host RAM"),
    "checkpointing": QT_TRANSLATE_NOOP("rules", "activation checkpointing"),
    "adamw8bit": QT_TRANSLATE_NOOP("rules", "8-bit AdamW (bitsandbytes)"),
    "adamw-bf16": QT_TRANSLATE_NOOP("rules", "AdamW in bf16 (no fp32 master copy)"),
    "amp": QT_TRANSLATE_NOOP("rules", "mixed precision (amp)"),
    "batch": QT_TRANSLATE_NOOP("rules", "batch {batch} with gradient accumulation"),
    "fsdp": QT_TRANSLATE_NOOP("rules", "FSDP (ZeRO-3) over {gpus} GPUs"),
    "int8": QT_TRANSLATE_NOOP("rules", "int8 weights"),
    "int4": QT_TRANSLATE_NOOP("rules", "int4 weights"),
    "tensor": QT_TRANSLATE_NOOP("rules", "tensor parallel over {gpus} GPUs"),
}
_VERDICTS = {"fits": QT_TRANSLATE_NOOP("rules", "fits"), "tight": QT_TRANSLATE_NOOP("rules", "tight"),
             "does_not_fit": QT_TRANSLATE_NOOP("rules", "does not fit")}
MIN_SAVING = 0.05  # an option that saves less than this share of the estimate is not listed
MAX_SPLIT_GPUS = 8  # the most GPUs an option splits over (boards with 7 or 8 x16-length slots, an HGX board)


@dataclass(frozen=True)
class FitOption:
    """One change to the workload (or the GPU count) and the memory estimate per GPU with it."""

    key: str
    change: dict[str, Any]
    gpus: int
    gib: float
    verdict: str
    params: dict[str, Any]

    def message(self) -> Message:
        return Message("rules", QT_TRANSLATE_NOOP("rules", "{name} {gib:.1f} GiB ({verdict})"),
                       {"name": Message("rules", _OPTION_NAMES[self.key], self.params), "gib": self.gib,
                        "verdict": Message("rules", _VERDICTS[self.verdict])})

    def to_json(self) -> dict[str, Any]:
        return {"option": self.key, "change": self.change, "gpus": self.gpus, "gib": round(self.gib, 2),
                "verdict": self.verdict}


def _option_list(options: list[FitOption]) -> Message:
    return Message("rules", "; ".join(f"{{o{i}}}" for i in range(len(options))),
                   {f"o{i}": o.message() for i, o in enumerate(options)})


def fit_options(w: Workload, n_gpus: int, have_gib: float, display_gpu: bool = False) -> list[FitOption]:
    """The options the planner models that apply to this workload, each alone, with the memory estimate
    per GPU it gives (``vram_per_gpu`` with the option changed) and its verdict on a ``have_gib`` card, the
    ones that fit first (least memory first): fine-tuning method, optimizer offload, activation
    checkpointing, 8-bit or bf16 AdamW, mixed precision, a smaller batch, sharding over more GPUs
    (training); int8/int4 weights and tensor parallelism (inference). The GPU count of a split is the
    fewest up to MAX_SPLIT_GPUS that fits (or that many)."""
    spec = w.spec()
    n = max(n_gpus, 1)
    changes: list[tuple[str, dict[str, Any], int, dict[str, Any]]] = []
    if w.task == "train":
        if spec.is_transformer and w.finetune == "full":
            changes += [("lora", {"finetune": "lora"}, n, {"rank": w.lora_rank}),
                        ("qlora", {"finetune": "qlora"}, n, {"rank": w.lora_rank})]
        if w.offload in ("none", "activations") and w.effective_optimizer not in ("sgd_nomomentum",):
            changes.append(("offload", {"offload": "optimizer" if w.offload == "none" else "all"}, n, {}))
        if not w.grad_checkpointing:
            changes.append(("checkpointing", {"grad_checkpointing": True}, n, {}))
        if w.effective_optimizer in ("adamw", "adam"):
            changes.append(("adamw8bit", {"optimizer": "adamw8bit"}, n, {}))
            if w.precision == "bf16":
                changes.append(("adamw-bf16", {"optimizer": "adamw-bf16"}, n, {}))
        if w.precision == "fp32":
            changes.append(("amp", {"precision": "amp"}, n, {}))
        batch = largest_batch(w, n, have_gib, display_gpu)
        if 0 < batch < w.effective_batch:
            changes.append(("batch", {"batch_size": batch}, n, {"batch": batch}))
        if w.sharding not in ("zero3", "fsdp") or n < MAX_SPLIT_GPUS:
            sharded = dataclasses.replace(w, sharding="fsdp")
            k = _fewest(sharded, max(n, 2) if w.sharding not in ("zero3", "fsdp") else n + 1, have_gib, display_gpu)
            if k is not None:
                changes.append(("fsdp", {"sharding": "fsdp", "gpus": k}, k, {"gpus": k}))
    else:
        if spec.is_transformer:
            for p in ("int8", "int4"):
                if WEIGHT_BYTES_ORDER.index(p) > WEIGHT_BYTES_ORDER.index(w.precision):
                    changes.append((p, {"precision": p}, n, {}))
            if w.parallel == "none" or (w.parallel == "tensor" and n < MAX_SPLIT_GPUS):
                split = dataclasses.replace(w, parallel="tensor")
                k = _fewest(split, max(n, 2) if w.parallel == "none" else n + 1, have_gib, display_gpu)
                if k is not None:
                    changes.append(("tensor", {"parallel": "tensor", "gpus": k}, k, {"gpus": k}))
    need = vram_per_gpu(w, n, display_gpu=display_gpu).total / GIB
    out: list[FitOption] = []
    for key, change, gpus, params in changes:
        fields = {f: v for f, v in change.items() if f != "gpus"}
        changed = dataclasses.replace(w, **fields)
        if workload_errors(changed):
            continue  # not a workload the planner accepts (a runtime that cannot run the precision)
        v = vram_per_gpu(changed, gpus, display_gpu=display_gpu)
        if v.total / GIB > need * (1 - MIN_SAVING):
            continue  # saves (next to) nothing for this workload: not an option
        out.append(FitOption(key, change, gpus, v.total / GIB, verdict(v, have_gib), params))
    order = {"fits": 0, "tight": 1, "does_not_fit": 2}
    return sorted(out, key=lambda o: (order[o.verdict], o.gib))


# Weight formats from the widest to the narrowest: a quantisation option only narrows.
WEIGHT_BYTES_ORDER = ("fp32", "amp", "bf16", "fp16", "int8", "int4")


def _fewest(w: Workload, start: int, have_gib: float, display_gpu: bool) -> int | None:
    """The fewest GPUs from ``start`` up to MAX_SPLIT_GPUS over which this split workload fits (else is only
    tight; a tensor split only over a GPU count that divides the heads), else the most; None: no count."""
    heads = w.spec().heads
    counts = [k for k in range(max(start, 2), MAX_SPLIT_GPUS + 1)
              if w.parallel != "tensor" or (heads > 0 and heads % k == 0)]
    verdicts = {k: verdict(vram_per_gpu(w, k, display_gpu=display_gpu), have_gib) for k in counts}
    for wanted in ("fits", "tight"):
        got = next((k for k in counts if verdicts[k] == wanted), None)
        if got is not None:
            return got
    return counts[-1] if counts else None
