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


def fill(template: str, **params: object) -> str:
    """Fill the ``{name}`` placeholders of an (already translated) template: the one way the app
    fills its texts (``fill(translate(ctx, "Wrote {path}."), path=p)``; :meth:`Message.render`
    uses it too). A template whose placeholders do not match the parameters (a broken
    translation) is shown unfilled rather than raising, so a message is never lost."""
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


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
            return fill(self.template, **params)
