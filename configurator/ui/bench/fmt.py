"""Small text helpers shared by the Benchmark tab's parts."""

from __future__ import annotations

from configurator.core.i18n import Message
from configurator.ui.i18n import translate


def render(message: Message | None) -> str:
    return message.render(translate) if message is not None else ""


def pct(v: float | None) -> str:
    if v is None:
        return "—"
    return f"{v:+.0f} %".replace("-", "−")
