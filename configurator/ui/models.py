"""Thin Qt item models over lists of core part records."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QFont

from configurator.core.parts import CATEGORY_LABELS, FIELD_LABELS, SUMMARY_FIELDS, AnyPart, field_unit
from configurator.ui.i18n import translate

Index = QModelIndex | QPersistentModelIndex
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
    if name == "category":
        return translate("parts", CATEGORY_LABELS.get(value, value))
    if isinstance(value, float):
        if value.is_integer():
            return f"{int(value):,}"
        return f"{value:,.1f}" if value >= 100 else f"{value:g}"
    if isinstance(value, int) and name not in ("launch_year",):
        return f"{value:,}"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


class PartsTableModel(QAbstractTableModel):
    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self._parts: list[AnyPart] = []
        self._category = ALL
        self._columns = columns_for(ALL)

    # -- data in -----------------------------------------------------------
    def set_parts(self, parts: list[AnyPart], category: str) -> None:
        self.beginResetModel()
        self._parts = list(parts)
        self._category = category
        self._columns = columns_for(category)
        self.endResetModel()

    def replace_part(self, part: AnyPart) -> None:
        for row, p in enumerate(self._parts):
            if p.id == part.id:
                self._parts[row] = part
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(self._columns) - 1))
                return

    def part_at(self, row: int) -> AnyPart:
        return self._parts[row]

    def row_of(self, part_id: str) -> int:
        for row, p in enumerate(self._parts):
            if p.id == part_id:
                return row
        return -1

    @property
    def column_names(self) -> list[str]:
        return self._columns

    def retranslate(self) -> None:
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self._columns) - 1)
        if self._parts:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._parts) - 1, len(self._columns) - 1))

    # -- Qt interface ----------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._parts)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return header_text(self._category, self._columns[section])
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        part = self._parts[index.row()]
        name = self._columns[index.column()]
        value = part.category if name == "category" else getattr(part, name, None)
        if role == Qt.ItemDataRole.DisplayRole:
            text = display_value(name, value)
            if name == "price_cny" and part.user_edited:
                text += " ✎"
            if name == "name" and part.custom:
                text += " ★"
            return text
        if role == SORT_ROLE:
            if value is None:
                return float("-inf")
            if isinstance(value, bool):
                return int(value)
            if isinstance(value, list):
                return ", ".join(map(str, value))
            return value
        if role == PART_ROLE:
            return part
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            if name == "price_cny":
                return translate("PartsBrowser", "Street-price estimate of {date}; double-click to edit").replace(
                    "{date}", part.price_date)
            if name == "name":
                return part.id
        if role == Qt.ItemDataRole.FontRole and name == "name" and part.custom:
            f = QFont()
            f.setItalic(True)
            return f
        return None


class PartsFilterProxy(QSortFilterProxyModel):
    """Numeric sort by value (not by the formatted text) and a multi-word search
    over id, name, brand and every spec value."""

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setSortCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self._words: list[str] = []
        self._haystacks: dict[str, str] = {}

    def set_search(self, text: str) -> None:
        self._words = text.lower().split()
        self.refilter()

    def refilter(self) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.10: invalidateFilter is deprecated
            self.beginFilterChange()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:  # pragma: no cover - older Qt
            self.invalidateFilter()

    def invalidate_cache(self) -> None:
        self._haystacks.clear()

    def _haystack(self, part: AnyPart) -> str:
        key = f"{part.id}\0{part.price_cny}"
        hay = self._haystacks.get(key)
        if hay is None:
            hay = " ".join(str(v) for v in vars(part).values() if v is not None).lower()
            hay += " " + translate("parts", CATEGORY_LABELS[part.category]).lower()
            self._haystacks[key] = hay
        return hay

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        if not self._words:
            return True
        model = self.sourceModel()
        assert isinstance(model, PartsTableModel)
        hay = self._haystack(model.part_at(source_row))
        return all(w in hay for w in self._words)
