"""What this host reports about its hardware, for "This machine" (core/detect.py matches it).

Standard-library reads of /proc and /sys (the CPU from /proc/cpuinfo, memory from /proc/meminfo,
the board from DMI, drives from /sys/block); the GPUs come from NVML, read by the caller (app/cli)
with the monitor's backend and passed in. Nothing here raises: what cannot be read is left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from configurator.core.detect import DriveFact, GpuFact, MachineFacts
from configurator.core.i18n import Message

# Block devices that are not drives a user bought.
_VIRTUAL = re.compile(r"^(loop|ram|zram|dm-|md|sr|fd|nbd|vd|xvd)")


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip() or None
    except OSError:
        return None


def _sockets(cpuinfo: str) -> int:
    ids = set(re.findall(r"^physical id\s*:\s*(\d+)", cpuinfo, re.M))
    return max(len(ids), 1)


def board(root: Path = Path("/")) -> tuple[str | None, str | None]:
    dmi = root / "sys/class/dmi/id"
    return _text(dmi / "board_vendor"), _text(dmi / "board_name")


def drives(root: Path = Path("/")) -> tuple[DriveFact, ...]:
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
        model = _text(dev / "device/model")
        if not model:
            continue
        sectors = _text(dev / "size")
        rot = _text(dev / "queue/rotational")
        out.append(DriveFact(model, int(sectors) * 512 if sectors and sectors.isdigit() else None,
                             name.startswith("nvme"), None if rot is None else rot == "1"))
    return tuple(out)


def read_facts(gpus: Sequence[GpuFact] = (), gpu_error: Message | None = None,
               root: Path = Path("/")) -> MachineFacts:
    cpuinfo = _text(root / "proc/cpuinfo") or ""
    m = re.search(r"^model name\s*:\s*(.+)$", cpuinfo, re.M)
    meminfo = _text(root / "proc/meminfo") or ""
    mem = re.search(r"^MemTotal:\s*(\d+)\s*kB", meminfo, re.M)
    vendor, name = board(root)
    return MachineFacts(
        gpus=tuple(gpus), cpu_model=m.group(1).strip() if m else None, sockets=_sockets(cpuinfo),
        memory_bytes=int(mem.group(1)) * 1024 if mem else None, board_vendor=vendor, board_name=name,
        drives=drives(root), gpu_error=gpu_error)



