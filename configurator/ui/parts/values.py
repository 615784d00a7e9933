"""A spec value as the Parts tab shows it: a choice field's value in words ("Open-air (axial fans)", not
``open_air``), in the reader's language; anything else as the parts tables show it."""

from __future__ import annotations

from typing import Any

from configurator.core.parts import VALUE_LABELS, value_label
from configurator.ui.i18n import translate
from configurator.ui.part_columns import display_value


def shown_value(name: str, value: Any) -> str:
    if isinstance(value, str) and name in VALUE_LABELS:
        return translate("parts", value_label(name, value))
    return display_value(name, value)


def unverified_words() -> str:
    """What follows a figure no vendor source confirmed (the part's ``unverified`` list) in the detail pane."""
    return translate("PartsBrowser", "(unverified)")


def unverified_tip() -> str:
    """The tooltip of a table cell whose figure no vendor source confirmed."""
    return translate("PartsBrowser", "Not found on the vendor's page: check the vendor's figure before relying on it")
