"""What the Parts tab says beside a figure no vendor source confirmed (the part's ``unverified`` list). Values
themselves are shown by ui.part_columns.display_value (a choice field's value in words)."""

from __future__ import annotations

from configurator.ui.i18n import translate


def unverified_words() -> str:
    """What follows a figure no vendor source confirmed (the part's ``unverified`` list) in the detail pane."""
    return translate("PartsBrowser", "(unverified)")


def unverified_tip() -> str:
    """The tooltip of a table cell whose figure no vendor source confirmed."""
    return translate("PartsBrowser", "Not found on the vendor's page: check the vendor's figure before relying on it")
