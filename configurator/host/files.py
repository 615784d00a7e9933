"""Reading one file of /proc or /sys: its text, or None where it cannot be read."""

from __future__ import annotations

from pathlib import Path


def read(path: str | Path) -> str | None:
    """The whole text (undecodable bytes replaced), or None if the file cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def value(path: str | Path) -> str | None:
    """A one-value file (a sysfs attribute) without its surrounding white space; None if it cannot be
    read or is empty."""
    text = read(path)
    return (text.strip() or None) if text is not None else None
