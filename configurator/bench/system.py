"""Standard-library probes of the host: CPU, memory, NVIDIA devices on the PCI bus,
``nvidia-smi``, WSL, file systems. Every probe returns ``None`` (or an empty list)
where it cannot tell, and never raises."""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

NVIDIA_VENDOR = "0x10de"

# GB/s per lane, one direction, after line encoding (8b/10b up to Gen2, 128b/130b from Gen3;
# Gen6 is PAM4 with FLIT encoding, ~242/256).
PCIE_GBPS_PER_LANE = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}


def pcie_expected_gbps(gen: int | None, width: int | None) -> float | None:
    if not gen or not width or gen not in PCIE_GBPS_PER_LANE:
        return None
    return round(PCIE_GBPS_PER_LANE[gen] * width, 2)


def _read(path: str | Path) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def cpu_model() -> str:
    text = _read("/proc/cpuinfo") or ""
    m = re.search(r"^model name\s*:\s*(.+)$", text, re.M)
    if m:
        return m.group(1).strip()
    return platform.processor() or platform.machine() or "unknown"


def cpu_mhz() -> float | None:
    """The current clock of the first core as the kernel reports it (MHz), if it does."""
    text = _read("/proc/cpuinfo") or ""
    m = re.search(r"^cpu MHz\s*:\s*([0-9.]+)$", text, re.M)
    return round(float(m.group(1)), 1) if m else None


def cpu_counts() -> dict[str, int | None]:
    logical = os.cpu_count()
    try:
        usable: int | None = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = logical
    physical = None
    text = _read("/proc/cpuinfo")
    if text:
        pairs = set()
        phys = core = None
        for line in text.splitlines():
            if line.startswith("physical id"):
                phys = line.split(":")[1].strip()
            elif line.startswith("core id"):
                core = line.split(":")[1].strip()
            elif not line.strip():
                if phys is not None and core is not None:
                    pairs.add((phys, core))
                phys = core = None
        if phys is not None and core is not None:
            pairs.add((phys, core))
        physical = len(pairs) or None
    return {"logical": logical, "usable": usable, "physical": physical}


def ram_gib() -> float | None:
    text = _read("/proc/meminfo")
    if text:
        m = re.search(r"^MemTotal:\s*(\d+)\s*kB", text, re.M)
        if m:
            return round(int(m.group(1)) / 1024**2, 1)
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024**3, 1)
    except (AttributeError, ValueError, OSError):
        return None


def nvidia_pci_devices() -> list[dict[str, Any]]:
    """NVIDIA display/3D controllers on the PCI bus (Linux sysfs), with their link."""
    out: list[dict[str, Any]] = []
    root = Path("/sys/bus/pci/devices")
    if not root.is_dir():
        return out
    for dev in sorted(root.iterdir()):
        vendor = (_read(dev / "vendor") or "").strip()
        klass = (_read(dev / "class") or "").strip()
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
        "gen_current": _gen_from_speed(_read(dev / "current_link_speed")),
        "gen_max": _gen_from_speed(_read(dev / "max_link_speed")),
        "width_current": _int(_read(dev / "current_link_width")),
        "width_max": _int(_read(dev / "max_link_width")),
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
    text = _read("/proc/driver/nvidia/version")
    if not text:
        return None
    m = re.search(r"Kernel Module\s+(?:for \S+\s+)?([\d.]+)", text)
    return m.group(1) if m else None


def wsl() -> str | None:
    """'wsl2', 'wsl1' or None (not WSL)."""
    rel = platform.release().lower()
    text = (_read("/proc/version") or "").lower()
    if "microsoft" not in rel and "microsoft" not in text:
        return None
    return "wsl2" if ("wsl2" in rel or "microsoft-standard" in rel or Path("/run/WSL").exists()) else "wsl1"


def filesystem_of(path: str | Path) -> str | None:
    """The file-system type holding ``path`` (from /proc/mounts), e.g. ext4, tmpfs."""
    text = _read("/proc/mounts")
    if not text:
        return None
    target = os.path.realpath(path)
    best, fstype = "", None
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        mnt = parts[1].replace("\\040", " ")
        if (target == mnt or target.startswith(mnt.rstrip("/") + "/")) and len(mnt) >= len(best):
            best, fstype = mnt, parts[2]
    return fstype
