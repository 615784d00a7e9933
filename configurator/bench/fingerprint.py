"""The hardware and software fingerprint a run is stored with.

Collected inside the worker (so it describes the interpreter and torch the
benchmarks ran under). ``machine_id`` hashes the hardware part only, so the
history of one machine survives a driver or torch upgrade.
"""

from __future__ import annotations

import hashlib
import json
import platform
import sys
from importlib import metadata
from typing import Any

from configurator.host import cpu, memory, system
from configurator.host.gpu import nvidia_smi


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def resolve_device(requested: str, torch: Any) -> str:
    if requested != "auto":
        return requested
    if torch.cuda.is_available():
        return "cuda"
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return "mps"
    return "cpu"


def collect(torch: Any | None = None) -> dict[str, Any]:
    counts = cpu.counts()
    fp: dict[str, Any] = {
        "cpu": cpu.model(),
        "cpu_mhz": cpu.mhz(),
        "cpu_logical": counts["logical"],
        "cpu_physical": counts["physical"],
        "cpu_usable": counts["usable"],
        "ram_gib": memory.ram_gib(),
        "gpus": [],
        "os": f"{platform.system()} {platform.release()}",
        "wsl": system.wsl(),
        "python": platform.python_version(),
        "python_executable": sys.executable,
        "torch": None,
        "torch_cuda": None,
        "cudnn": None,
        "torchvision": _version("torchvision"),
        "transformers": _version("transformers"),
        "driver": None,
        "driver_cuda": None,
    }
    if torch is None:
        return fp
    fp["torch"] = torch.__version__
    fp["torch_cuda"] = torch.version.cuda
    fp["torch_threads"] = torch.get_num_threads()
    fp["cpu_capability"] = _cpu_capability(torch)
    smi = nvidia_smi() if torch.version.cuda else None
    if smi and "driver" in smi:
        fp["driver"], fp["driver_cuda"] = smi["driver"], smi["cuda"]
    links = {g["bus_id"].lower()[-12:]: g for g in (smi or {}).get("gpus", [])}
    if torch.cuda.is_available():
        try:
            fp["cudnn"] = torch.backends.cudnn.version()
        except Exception:
            fp["cudnn"] = None
        for i in range(torch.cuda.device_count()):
            p = torch.cuda.get_device_properties(i)
            gpu: dict[str, Any] = {
                "index": i, "name": p.name, "memory_gib": round(p.total_memory / 1024**3, 1),
                "capability": f"{p.major}.{p.minor}", "sms": p.multi_processor_count,
            }
            bus = _bus_id(p)
            if bus:
                link = links.get(bus.lower()[-12:])
                if link:
                    gpu.update({k: link[k] for k in ("gen_current", "gen_max", "width_current", "width_max")})
            fp["gpus"].append(gpu)
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        fp["gpus"].append({"index": 0, "name": "Apple MPS", "memory_gib": None, "capability": None})
    return fp


def _bus_id(props: Any) -> str | None:
    try:
        return f"{props.pci_domain_id:04x}:{props.pci_bus_id:02x}:{props.pci_device_id:02x}.0"
    except AttributeError:
        return None


def _cpu_capability(torch: Any) -> str | None:
    try:
        return str(torch.backends.cpu.get_cpu_capability())
    except Exception:
        return None


def machine_id(fp: dict[str, Any]) -> str:
    """A stable hash of the hardware: CPU, core counts, RAM, GPUs (name and memory)."""
    ram = fp.get("ram_gib")
    hw = {
        "cpu": fp.get("cpu"), "cpu_logical": fp.get("cpu_logical"), "cpu_physical": fp.get("cpu_physical"),
        # Round RAM to whole GiB: MemTotal moves a little with kernel reservations.
        "ram_gib": round(ram) if isinstance(ram, int | float) else None,
        "gpus": sorted((str(g.get("name")), g.get("memory_gib")) for g in fp.get("gpus", [])),
    }
    return hashlib.sha256(json.dumps(hw, sort_keys=True).encode()).hexdigest()[:16]


def summary(fp: dict[str, Any]) -> str:
    gpus = ", ".join(str(g.get("name")) for g in fp.get("gpus", [])) or "no GPU"
    return f"{fp.get('cpu')} ({fp.get('cpu_logical')} threads), {fp.get('ram_gib')} GiB RAM, {gpus}; " \
           f"torch {fp.get('torch')}"
