"""What this host reports about its hardware, for "This machine" (core/detect.py matches it).

The CPU and memory through :mod:`configurator.host.cpu` and :mod:`configurator.host.memory`, the
board from DMI, drives from /sys/block; the GPUs' identity (name, memory, PCI id) as NVML reports it,
read through the monitor's GPU backend, which the caller (app/cli) makes and hands in, or from the
monitor's last snapshot (nothing but the sampler calls NVML while the monitor runs). Nothing here
raises: what cannot be read is left out. Unlike the rest of this package it imports core (the facts'
dataclasses), so the benchmark worker never imports it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from configurator.core.detect import DriveFact, GpuFact, MachineFacts, gpu_facts, no_gpu_read
from configurator.core.i18n import Message
from configurator.host import cpu, memory
from configurator.host.files import value

ROOT = Path("/")

# Block devices that are not drives a user bought.
_VIRTUAL = re.compile(r"^(loop|ram|zram|dm-|md|sr|fd|nbd|vd|xvd)")


def board(root: Path = ROOT) -> tuple[str | None, str | None]:
    """The mainboard's vendor and name as DMI gives them."""
    dmi = root / "sys/class/dmi/id"
    return value(dmi / "board_vendor"), value(dmi / "board_name")


def drives(root: Path = ROOT) -> tuple[DriveFact, ...]:
    """The drives a user bought (/sys/block, virtual and multipath devices left out)."""
    out = []
    block = root / "sys/block"
    try:
        names = sorted(p.name for p in block.iterdir())
    except OSError:
        return ()
    for name in names:
        if _VIRTUAL.match(name) or re.search(r"nvme\d+c\d+", name):  # multipath controller paths
            continue
        dev = block / name
        model = value(dev / "device/model")
        if not model:
            continue
        sectors = value(dev / "size")
        rot = value(dev / "queue/rotational")
        out.append(DriveFact(model, int(sectors) * 512 if sectors and sectors.isdigit() else None,
                             name.startswith("nvme"), None if rot is None else rot == "1"))
    return tuple(out)


class GpuBackend(Protocol):
    """The monitor's GPU backend (monitor.nvml.NvmlBackend, or its fake), as far as identity needs it."""

    def start(self) -> Any: ...
    def sample(self, slow: bool = ...) -> tuple[Any, Sequence[Any]]: ...
    def close(self) -> None: ...


def nvml_gpus(backend: GpuBackend) -> tuple[list[GpuFact], Message | None]:
    """The GPUs' identity read once through ``backend`` (started here, closed after), or why there is
    none (NVML's error)."""
    status = backend.start()
    try:
        if not status.available:
            return [], no_gpu_read(status.error or status.error_kind or "NVML")
        _status, gpus = backend.sample(slow=True)
        return gpu_facts(gpus), None
    finally:
        backend.close()


def sampled_gpus(snapshot: Any, not_sampled: str) -> tuple[list[GpuFact], Message | None]:
    """The GPUs' identity as the monitor last sampled them (``snapshot``: monitor.snapshot.Snapshot or
    None), or why there is none: NVML's error, else ``not_sampled`` (translated by the caller)."""
    gpus = gpu_facts(snapshot.gpus) if snapshot is not None else []
    if gpus:
        return gpus, None
    why = (snapshot.nvml.error or snapshot.nvml.error_kind) if snapshot is not None else None
    return gpus, no_gpu_read(why or not_sampled)


def read_facts(gpus: Sequence[GpuFact] = (), gpu_error: Message | None = None,
               root: Path = ROOT) -> MachineFacts:
    """This machine as core.detect matches it: ``gpus`` (from :func:`nvml_gpus` or :func:`sampled_gpus`)
    and the rest read here."""
    vendor, name = board(root)
    return MachineFacts(
        gpus=tuple(gpus), cpu_model=cpu.model_name(root), sockets=cpu.sockets(root),
        memory_bytes=memory.total_bytes(root), board_vendor=vendor, board_name=name,
        drives=drives(root), gpu_error=gpu_error)
