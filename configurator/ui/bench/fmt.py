"""Small text helpers shared by the Benchmark tab's parts."""

from __future__ import annotations

from configurator.bench.results import fmt_value
from configurator.core.i18n import Message
from configurator.ui.i18n import translate


def render(message: Message | None) -> str:
    return message.render(translate) if message is not None else ""


def pct(v: float | None) -> str:
    if v is None:
        return "—"
    return f"{v:+.0f} %".replace("-", "−")


def unit(u: str | None) -> str:
    """A result's unit as the user reads it (units are stored in English)."""
    if not u:
        return ""
    names = {"img/s": translate("Units", "img/s"), "tokens/s": translate("Units", "tokens/s"),
             "samples/s": translate("Units", "samples/s")}
    return names.get(u, u)


def value_with_unit(v: float | None, u: str | None) -> str:
    return f"{fmt_value(v)} {unit(u)}".rstrip()


def suite_names() -> dict[str, str]:
    return {"quick": translate("BenchmarkTab", "Quick"), "standard": translate("BenchmarkTab", "Standard"),
            "full": translate("BenchmarkTab", "Full")}


def device_names() -> dict[str, str]:
    return {"auto": translate("BenchmarkTab", "Automatic"), "cpu": translate("BenchmarkTab", "CPU"),
            "cuda": translate("BenchmarkTab", "CUDA GPU"), "mps": translate("BenchmarkTab", "Apple MPS")}
