"""Drivers, CUDA and the software stack (CUD-1..7): each GPU's architecture against the dated support
table, the guides' driver and CUDA figures, bundled CUDA runtimes, AMD cards under ROCm, the OS, containers."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.shared import Ctx
from configurator.core.software import (
    DRIVER_TABLE,
    GUIDE_CUD1,
    GUIDE_CUD2,
    ROCM_NOTES,
    arch_row,
    architecture_message,
    pytorch_message,
)


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
