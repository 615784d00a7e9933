"""The NVIDIA GPUs as seen from outside torch and NVML: the devices on the PCI bus and their links
(Linux sysfs), ``nvidia-smi`` and the kernel module's version; standard library only. Every probe
returns ``None`` (or an empty list) where it cannot tell, and never raises."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from configurator.host import files

NVIDIA_VENDOR = "0x10de"

# GB/s per lane, one direction, after line encoding (8b/10b up to Gen2, 128b/130b from Gen3;
# Gen6 is PAM4 with FLIT encoding, ~242/256).
PCIE_GBPS_PER_LANE = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}


def pcie_expected_gbps(gen: int | None, width: int | None) -> float | None:
    if not gen or not width or gen not in PCIE_GBPS_PER_LANE:
        return None
    return round(PCIE_GBPS_PER_LANE[gen] * width, 2)


def nvidia_pci_devices() -> list[dict[str, Any]]:
    """NVIDIA display/3D controllers on the PCI bus (Linux sysfs), with their link."""
    out: list[dict[str, Any]] = []
    root = Path("/sys/bus/pci/devices")
    if not root.is_dir():
        return out
    for dev in sorted(root.iterdir()):
        vendor = (files.read(dev / "vendor") or "").strip()
        klass = (files.read(dev / "class") or "").strip()
        if vendor != NVIDIA_VENDOR or not klass.startswith("0x03"):
            continue
        out.append({"bus_id": dev.name, **sysfs_link(dev)})
    return out


def _gen_from_speed(text: str | None) -> int | None:
    if not text:
        return None
    m = re.search(r"([\d.]+)\s*GT/s", text)
    if not m:
        return None
    gts = float(m.group(1))
    for gen, rate in ((1, 2.5), (2, 5.0), (3, 8.0), (4, 16.0), (5, 32.0), (6, 64.0)):
        if abs(gts - rate) < 0.1:
            return gen
    return None


def _int(text: str | None) -> int | None:
    try:
        return int((text or "").strip())
    except ValueError:
        return None


def sysfs_link(dev: Path) -> dict[str, int | None]:
    return {
        "gen_current": _gen_from_speed(files.read(dev / "current_link_speed")),
        "gen_max": _gen_from_speed(files.read(dev / "max_link_speed")),
        "width_current": _int(files.read(dev / "current_link_width")),
        "width_max": _int(files.read(dev / "max_link_width")),
    }


def run_quiet(argv: list[str], timeout: float = 20.0) -> tuple[int, str, str] | None:
    """(exit code, stdout, stderr), or None if the program is missing or hangs."""
    if shutil.which(argv[0]) is None and not os.path.isabs(argv[0]):
        return None
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return p.returncode, p.stdout, p.stderr


SMI_FIELDS = ("index", "name", "driver_version", "memory.total", "pci.bus_id", "pcie.link.gen.current",
              "pcie.link.gen.max", "pcie.link.width.current", "pcie.link.width.max")


def nvidia_smi() -> dict[str, Any] | None:
    """Driver version, the highest CUDA version it supports, and per-GPU link data; None without it."""
    got = run_quiet(["nvidia-smi", f"--query-gpu={','.join(SMI_FIELDS)}", "--format=csv,noheader,nounits"])
    if got is None:
        return None
    code, out, err = got
    if code != 0:
        return {"error": (err or out).strip().splitlines()[-1:] or [f"exit code {code}"]}
    gpus = []
    for line in out.strip().splitlines():
        cells = [c.strip() for c in line.split(",")]
        if len(cells) != len(SMI_FIELDS):
            continue
        row = dict(zip(SMI_FIELDS, cells, strict=True))
        gpus.append({
            "index": _int(row["index"]), "name": row["name"], "driver": row["driver_version"],
            "memory_mib": _int(row["memory.total"]), "bus_id": row["pci.bus_id"],
            "gen_current": _int(row["pcie.link.gen.current"]), "gen_max": _int(row["pcie.link.gen.max"]),
            "width_current": _int(row["pcie.link.width.current"]), "width_max": _int(row["pcie.link.width.max"]),
        })
    cuda = None
    head = run_quiet(["nvidia-smi"])
    if head and head[0] == 0:
        m = re.search(r"CUDA Version:\s*([\d.]+)", head[1])
        cuda = m.group(1) if m else None
    driver = gpus[0]["driver"] if gpus else None
    return {"driver": driver, "cuda": cuda, "gpus": gpus}


def proc_driver_version() -> str | None:
    text = files.read("/proc/driver/nvidia/version")
    if not text:
        return None
    m = re.search(r"Kernel Module\s+(?:for \S+\s+)?([\d.]+)", text)
    return m.group(1) if m else None
