"""The machine's memory (/proc/meminfo, else sysconf), standard library only."""

from __future__ import annotations

import os
import re
from pathlib import Path

from configurator.host import files

ROOT = Path("/")


def total_bytes(root: Path = ROOT) -> int | None:
    """``MemTotal`` of /proc/meminfo in bytes; None where it cannot be read."""
    m = re.search(r"^MemTotal:\s*(\d+)\s*kB", files.read(root / "proc/meminfo") or "", re.M)
    return int(m.group(1)) * 1024 if m else None


def ram_gib(root: Path = ROOT) -> float | None:
    """The total in GiB to one decimal (from sysconf where /proc/meminfo is missing)."""
    total = total_bytes(root)
    if total is not None:
        return round(total / 1024**3, 1)
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024**3, 1)
    except (AttributeError, ValueError, OSError):
        return None
