"""What the parts tables show: their columns, header texts and cell texts (shared by the Parts tab's
model in ui/parts/model.py, the planner's picker, the custom-part dialog and the PDF sheet)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from configurator.core.parts import FIELD_LABELS, SUMMARY_FIELDS, field_unit, value_label
from configurator.ui.i18n import translate

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
PART_ROLE = Qt.ItemDataRole.UserRole + 2

ALL = "all"


def columns_for(category: str) -> list[str]:
    if category == ALL:
        return ["name", "category", "brand", "price_cny", "price_date", "launch_year"]
    return ["name", "brand", *SUMMARY_FIELDS[category], "price_cny", "price_date"]


def header_text(category: str, name: str) -> str:
    label, _ = FIELD_LABELS.get(name, (name, ""))
    unit = field_unit(category if category != ALL else "", name)
    text = translate("parts", label)
    return f"{text} ({translate('parts', unit)})" if unit else text


def display_value(name: str, value: Any) -> str:
    if value is None:
        return translate("parts", "n/a")
    if isinstance(value, bool):
        return translate("parts", "yes") if value else translate("parts", "no")
    if name == "price_cny":
        return f"¥{value:,}"
    if isinstance(value, str):  # a catalogue value in the reader's words (category, cooling, form factor …)
        return value_label(name, value, translate)
    if isinstance(value, float):
        if value.is_integer():
            return f"{int(value):,}"
        return f"{value:,.1f}" if value >= 100 else f"{value:g}"
    if isinstance(value, int) and name not in ("launch_year",):
        return f"{value:,}"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)
