"""A local translation marker for the worker side (lupdate extracts the calls).

Kept here rather than imported from configurator.core so the worker depends on
nothing but the standard library and torch.
"""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    return text
