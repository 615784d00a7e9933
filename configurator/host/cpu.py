"""The CPU: its model, clock, logical/usable/physical counts and sockets (/proc/cpuinfo, the
scheduler's affinity), standard library only."""

from __future__ import annotations

import os
import platform
import re
from pathlib import Path

from configurator.host import files

ROOT = Path("/")


def _cpuinfo(root: Path) -> str:
    return files.read(root / "proc/cpuinfo") or ""


def model_name(root: Path = ROOT) -> str | None:
    """The ``model name`` of /proc/cpuinfo, None where it has none."""
    m = re.search(r"^model name\s*:\s*(.+)$", _cpuinfo(root), re.M)
    return m.group(1).strip() if m else None


def model(root: Path = ROOT) -> str:
    """The model name, else what Python's ``platform`` says, else "unknown" (a fingerprint needs a name)."""
    return model_name(root) or platform.processor() or platform.machine() or "unknown"


def mhz(root: Path = ROOT) -> float | None:
    """The current clock of the first core as the kernel reports it (MHz), if it does."""
    m = re.search(r"^cpu MHz\s*:\s*([0-9.]+)$", _cpuinfo(root), re.M)
    return round(float(m.group(1)), 1) if m else None


def _physical_cores(cpuinfo: str) -> int | None:
    """Distinct (physical id, core id) pairs of /proc/cpuinfo; None where it lists none."""
    pairs = set()
    phys = core = None
    for line in cpuinfo.splitlines():
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
    return len(pairs) or None


def counts(root: Path = ROOT) -> dict[str, int | None]:
    """``logical`` (os.cpu_count), ``usable`` (this process's affinity) and ``physical`` cores."""
    logical = os.cpu_count()
    try:
        usable: int | None = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = logical
    text = files.read(root / "proc/cpuinfo")
    return {"logical": logical, "usable": usable, "physical": _physical_cores(text) if text else None}


def sockets(root: Path = ROOT) -> int:
    """CPU packages: distinct ``physical id`` lines, at least 1."""
    return max(len(set(re.findall(r"^physical id\s*:\s*(\d+)", _cpuinfo(root), re.M))), 1)
