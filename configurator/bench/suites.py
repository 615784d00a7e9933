"""Suites: which jobs run, with which sizes and time limits. Pure data, no torch.

A *job* is one child process (``matmul``, ``gpt2`` …); it reports one or more result
*rows* (``matmul-fp32``, ``gpt2-prefill``, ``gpt2-decode`` …).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from configurator.bench.i18n import QT_TRANSLATE_NOOP

SUITES = ("quick", "standard", "full")
DEVICES = ("auto", "cpu", "cuda", "mps")


@dataclass(frozen=True)
class JobInfo:
    name: str
    label: str  # translatable, context "bench"
    rows: tuple[str, ...]
    needs: tuple[str, ...] = ()  # python packages besides torch
    cuda_only: bool = False


JOBS: dict[str, JobInfo] = {j.name: j for j in (
    JobInfo("matmul", QT_TRANSLATE_NOOP("bench", "Matrix multiply"),
            ("matmul-fp32", "matmul-tf32", "matmul-fp16", "matmul-bf16")),
    JobInfo("membw", QT_TRANSLATE_NOOP("bench", "Device memory bandwidth"), ("membw",)),
    JobInfo("copies", QT_TRANSLATE_NOOP("bench", "Host–device copies"),
            ("h2d-pinned", "h2d-pageable", "d2h-pinned", "d2h-pageable"), cuda_only=True),
    JobInfo("resnet18", QT_TRANSLATE_NOOP("bench", "ResNet-18 training"), ("resnet18-train",), ("torchvision",)),
    JobInfo("resnet50", QT_TRANSLATE_NOOP("bench", "ResNet-50 training"), ("resnet50-train",), ("torchvision",)),
    JobInfo("gpt2", QT_TRANSLATE_NOOP("bench", "GPT-2 inference"), ("gpt2-prefill", "gpt2-decode"),
            ("transformers",)),
    JobInfo("dataloader", QT_TRANSLATE_NOOP("bench", "DataLoader throughput"),
            ("dataloader-cold", "dataloader-warm")),
    JobInfo("ddp", QT_TRANSLATE_NOOP("bench", "Data-parallel scaling (DDP)"), ("ddp-scaling",)),
    JobInfo("vram", QT_TRANSLATE_NOOP("bench", "VRAM pattern test"), ("vram-test",), cuda_only=True),
)}

ROW_LABELS: dict[str, str] = {
    "matmul-fp32": QT_TRANSLATE_NOOP("bench", "Matmul FP32"),
    "matmul-tf32": QT_TRANSLATE_NOOP("bench", "Matmul TF32"),
    "matmul-fp16": QT_TRANSLATE_NOOP("bench", "Matmul FP16"),
    "matmul-bf16": QT_TRANSLATE_NOOP("bench", "Matmul BF16"),
    "membw": QT_TRANSLATE_NOOP("bench", "Memory bandwidth"),
    "h2d-pinned": QT_TRANSLATE_NOOP("bench", "Host→device, pinned"),
    "h2d-pageable": QT_TRANSLATE_NOOP("bench", "Host→device, pageable"),
    "d2h-pinned": QT_TRANSLATE_NOOP("bench", "Device→host, pinned"),
    "d2h-pageable": QT_TRANSLATE_NOOP("bench", "Device→host, pageable"),
    "resnet18-train": QT_TRANSLATE_NOOP("bench", "ResNet-18 training"),
    "resnet50-train": QT_TRANSLATE_NOOP("bench", "ResNet-50 training"),
    "gpt2-prefill": QT_TRANSLATE_NOOP("bench", "GPT-2 prefill"),
    "gpt2-decode": QT_TRANSLATE_NOOP("bench", "GPT-2 decode"),
    "dataloader-cold": QT_TRANSLATE_NOOP("bench", "DataLoader, cold cache"),
    "dataloader-warm": QT_TRANSLATE_NOOP("bench", "DataLoader, warm cache"),
    "ddp-scaling": QT_TRANSLATE_NOOP("bench", "DDP scaling efficiency"),
    "ddp-nodes": QT_TRANSLATE_NOOP("bench", "DDP across nodes"),
    "vram-test": QT_TRANSLATE_NOOP("bench", "VRAM bad bytes"),
}

SUITE_JOBS: dict[str, tuple[str, ...]] = {
    "quick": ("matmul", "membw", "copies", "resnet18", "resnet50", "gpt2", "dataloader", "ddp"),
    "standard": ("matmul", "membw", "copies", "resnet18", "resnet50", "gpt2", "dataloader", "ddp", "vram"),
    "full": ("matmul", "membw", "copies", "resnet18", "resnet50", "gpt2", "dataloader", "ddp", "vram"),
}

# Seconds a job may run (one attempt) before it is stopped.
TIMEOUTS: dict[str, float] = {"quick": 90.0, "standard": 600.0, "full": 1800.0}


def job_for_row(row: str) -> str | None:
    for job in JOBS.values():
        if row in job.rows:
            return job.name
    return None


def parse_only(text: str) -> tuple[list[str], list[str]]:
    """``--only matmul,gpt2-decode`` → (jobs in suite order, unknown names). Row names select their job."""
    wanted: list[str] = []
    bad: list[str] = []
    for name in (n.strip() for n in text.split(",")):
        if not name:
            continue
        job = name if name in JOBS else job_for_row(name)
        if job is None:
            bad.append(name)
        elif job not in wanted:
            wanted.append(job)
    order = list(JOBS)
    return sorted(wanted, key=order.index), bad


def _by_device(device: str, cpu: Any, gpu: Any) -> Any:
    return cpu if device == "cpu" else gpu


def params(job: str, suite: str, device: str, cpus: int = 1) -> dict[str, Any]:
    """Default sizes for a job in a suite on a (resolved) device: cpu, cuda or mps."""
    q, s = suite == "quick", suite == "standard"
    timing = ({"min_time": 0.6, "min_reps": 5, "warmup": 2} if q else
              {"min_time": 3.0, "min_reps": 10, "warmup": 3} if s else
              {"min_time": 10.0, "min_reps": 20, "warmup": 5})
    if job == "matmul":
        if device == "cpu":
            shapes = [[1024, 1024, 1024], [2048, 2048, 2048]] if q else \
                [[1024, 1024, 1024], [2048, 2048, 2048], [4096, 4096, 4096], [4096, 1024, 4096]]
            if suite == "full":
                shapes += [[3072, 3072, 3072], [8192, 2048, 2048]]
            timing = {**timing, "min_time": 0.3 if q else timing["min_time"], "min_reps": 5}
        else:
            shapes = [[2048, 2048, 2048], [4096, 4096, 4096]] if q else \
                [[2048, 2048, 2048], [4096, 4096, 4096], [8192, 8192, 8192], [8192, 4096, 8192]]
            if suite == "full":  # a mamf-finder style sweep
                shapes += [[n, n, n] for n in range(5120, 16385, 1024) if n != 8192]
        return {"shapes": shapes, "dtypes": ["fp32", "tf32", "fp16", "bf16"], **timing}
    if job == "membw":
        mib = _by_device(device, 64 if q else 256, 256 if q else 1024)
        return {"mib": mib, **timing}
    if job == "copies":
        return {"mib": 64 if q else 256, **timing}
    if job in ("resnet18", "resnet50"):
        r18 = job == "resnet18"
        if device == "cpu":
            batch = (16 if r18 else 8) if q else (32 if r18 else 16)
            image = 64 if q else 128 if s else 224
        else:
            batch = (64 if r18 else 32) if q else (128 if r18 else 64)
            image = 112 if q else 224
        return {"batch": batch, "image": image, "classes": 1000, "amp": "auto", **timing,
                "min_time": 2.0 if q else timing["min_time"], "min_reps": 5 if q else timing["min_reps"]}
    if job == "gpt2":
        if q:
            model = {"n_layer": 4, "n_embd": 256, "n_head": 4}
            prompt, new = (128, 32)
        elif s:
            model = {"n_layer": 12, "n_embd": 768, "n_head": 12}  # GPT-2 Small, 124M
            prompt, new = (256, 64) if device == "cpu" else (512, 512)
        else:
            model = {"n_layer": 12, "n_embd": 768, "n_head": 12}
            prompt, new = (512, 128) if device == "cpu" else (512, 512)
        return {"model": model, "batch": 1, "prompt": prompt, "new_tokens": new, "dtype": "auto",
                **timing, "min_reps": 3 if q else timing["min_reps"], "min_time": 1.0 if q else timing["min_time"]}
    if job == "dataloader":
        workers = [0, 2] if q else [0, 2, 4] if s else [0, 2, 4, 8]
        return {"files": 192 if q else 1024 if s else 4096, "image": 64 if q else 128,
                "batch": 32, "workers": workers, "data_dir": None,
                "min_time": 0.5 if q else timing["min_time"], "min_reps": 2 if q else 3, "warmup": 1}
    if job == "ddp":
        gpus_or_cores = cpus
        top = min(2 if q else 4 if s else 8, max(1, gpus_or_cores))
        return {"procs": list(range(1, top + 1)) if top > 1 else [1], "batch": 32, "hidden": 512,
                "layers": 4, "steps": 20 if q else 60, "warmup_steps": 3 if q else 10,
                "threads": cpus, "timeout": 80 if q else 500}
    if job == "vram":
        return {"fraction": 0.9, "chunk_mib": 256, "patterns": ["0x00", "0xff", "0xaa", "0x55", "random"]}
    raise KeyError(job)
