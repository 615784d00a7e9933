"""Numbers with units, "n/a" for what a device does not report."""

from __future__ import annotations

from configurator.core.i18n import fill
from configurator.core.units import GIB
from configurator.ui.i18n import translate


def na() -> str:
    return translate("Monitor", "n/a")


def num(value: float | None, unit: str = "", digits: int = 0) -> str:
    if value is None:
        return na()
    text = f"{value:,.{digits}f}"
    return f"{text} {unit}" if unit else text


def percent(value: float | None) -> str:
    return num(value, "%")


def gib(value: float | None, digits: int = 1) -> str:
    return num(None if value is None else value / GIB, "GiB", digits)


def rate(value: float | None) -> str:
    """Bytes per second in decimal units (like disks and networks are sold)."""
    if value is None:
        return na()
    for unit, scale in (("GB/s", 1e9), ("MB/s", 1e6), ("kB/s", 1e3)):
        if value >= scale:
            return f"{value / scale:.1f} {unit}"
    return f"{value:.0f} B/s"


def seconds(value: float) -> str:
    if value < 60:
        return fill(translate("Monitor", "{n} s"), n=f"{value:g}")
    if value < 3600:
        return fill(translate("Monitor", "{n} min"), n=f"{value / 60:g}")
    return fill(translate("Monitor", "{n} h"), n=f"{value / 3600:g}")
