"""The workloads, one function per job: ``run(ctx)`` reports result rows through ``ctx.emit``.

Modules are imported only when their job runs, so a job needing torchvision or
transformers does not make the others depend on them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

_WHERE = {
    "matmul": ("configurator.bench.workloads.compute", "run_matmul"),
    "membw": ("configurator.bench.workloads.compute", "run_membw"),
    "copies": ("configurator.bench.workloads.compute", "run_copies"),
    "vram": ("configurator.bench.workloads.compute", "run_vram"),
    "resnet18": ("configurator.bench.workloads.networks", "run_resnet"),
    "resnet50": ("configurator.bench.workloads.networks", "run_resnet"),
    "gpt2": ("configurator.bench.workloads.networks", "run_gpt2"),
    "dataloader": ("configurator.bench.workloads.data", "run_dataloader"),
    "ddp": ("configurator.bench.workloads.ddp", "run_ddp"),
}


def get(job: str) -> Callable[[Any], None]:
    module, name = _WHERE[job]
    fn: Callable[[Any], None] = getattr(importlib.import_module(module), name)
    return fn
