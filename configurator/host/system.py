"""The operating system around the hardware: WSL, and the file system holding a path; standard
library only."""

from __future__ import annotations

import os
import platform
from pathlib import Path

from configurator.host import files


def wsl() -> str | None:
    """'wsl2', 'wsl1' or None (not WSL)."""
    rel = platform.release().lower()
    text = (files.read("/proc/version") or "").lower()
    if "microsoft" not in rel and "microsoft" not in text:
        return None
    return "wsl2" if ("wsl2" in rel or "microsoft-standard" in rel or Path("/run/WSL").exists()) else "wsl1"


def filesystem_of(path: str | Path) -> str | None:
    """The file-system type holding ``path`` (from /proc/mounts), e.g. ext4, tmpfs."""
    text = files.read("/proc/mounts")
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
