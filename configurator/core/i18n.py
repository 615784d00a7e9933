"""Translation markers for Qt-free code.

``QT_TRANSLATE_NOOP(context, text)`` returns ``text`` unchanged; Qt's lupdate
finds the call and extracts the string. Code that must not import Qt returns a
:class:`Message` (context, template, parameters); ui/ and cli.py translate the
template and then fill in the parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Translate = Callable[[str, str], str]


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    return text


@dataclass(frozen=True)
class Message:
    context: str
    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, translate: Translate | None = None) -> str:
        template = translate(self.context, self.template) if translate else self.template
        # A parameter may itself be a translatable message (e.g. "an integer").
        params = {k: v.render(translate) if isinstance(v, Message) else v for k, v in self.params.items()}
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            # A broken translation must never hide the message: fall back to English.
            return self.template.format(**params)
