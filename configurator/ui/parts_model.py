"""Thin Qt item models over the parts store.

The Parts table is lazy: the model holds the rows fetched so far of one query (category, search
words, order: all run in SQL) and fetches the next page when the view scrolls to the end
(``canFetchMore``/``fetchMore``); a row becomes a part record only when it is shown.
With 100,000 parts the first paint reads one page, not every part."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QIdentityProxyModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QFont

from configurator.core.parts import (
    CATEGORIES,
    CATEGORY_LABELS,
    FIELD_LABELS,
    SUMMARY_FIELDS,
    AnyPart,
    field_unit,
)
from configurator.store.repository import PartQuery, PartsRepository, Unreadable, decode_row
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


PAGE = 200


class PartsTableModel(QAbstractTableModel):
    """One page at a time of a query over the parts table."""

    def __init__(self, parent: Any = None, repo: PartsRepository | None = None, page: int = PAGE):
        super().__init__(parent)
        self.repo = repo
        self.page_size = page
        self._rows: list[Any] = []  # raw rows, in the query's order
        self._decoded: dict[int, AnyPart | Unreadable] = {}
        self._total = 0
        self._category = ALL
        self._columns = columns_for(ALL)
        self._words: tuple[str, ...] = ()
        self._sort = ("name", False)
        self.pages_fetched = 0
        self.unreadable: dict[str, Unreadable] = {}
        self.active = False  # no query before the browser first loads (start-up defers it)

    # -- the query ----------------------------------------------------------------
    def query(self) -> PartQuery:
        sort, descending = self._sort
        return PartQuery(None if self._category == ALL else self._category, self._words, sort, descending)

    def category_words(self) -> dict[str, set[str]]:
        """Search words that name a category (in the current language) find its parts."""
        out: dict[str, set[str]] = {}
        for word in self._words:
            cats = {c for c in CATEGORIES if word in translate("parts", CATEGORY_LABELS[c]).lower()
                    or word in CATEGORY_LABELS[c].lower()}
            if cats:
                out[word] = cats
        return out

    def set_category(self, category: str) -> None:
        self._category = category
        self._columns = columns_for(category)
        self.refresh()

    def set_search(self, text: str) -> None:
        self._words = tuple(text.lower().split())
        self.refresh()

    def refresh(self) -> None:
        """Run the query again: its count, and its first page."""
        if not self.active:
            return
        self.beginResetModel()
        self._rows = []
        self._decoded = {}
        self._total = self.repo.count(self.query(), self.category_words()) if self.repo else 0
        self.pages_fetched = 0
        self.endResetModel()
        if self._total:
            self.fetchMore(QModelIndex())

    @property
    def total(self) -> int:
        """Rows the query matches (fetched or not)."""
        return self._total

    @property
    def category(self) -> str:
        return self._category

    # -- data in -------------------------------------------------------------------
    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:
        return not parent.isValid() and len(self._rows) < self._total

    def fetchMore(self, parent: Index = QModelIndex(), limit: int | None = None) -> None:
        if parent.isValid() or self.repo is None or len(self._rows) >= self._total:
            return
        rows = self.repo.page(self.query(), len(self._rows), limit or self.page_size, self.category_words())
        if not rows:
            self._total = len(self._rows)
            return
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
        self._rows.extend(rows)
        self.pages_fetched += 1
        self.endInsertRows()

    def fetch_until(self, row: int) -> None:
        """Fetch every row up to ``row`` (and the rest of its page) in one query."""
        if len(self._rows) <= row and self.canFetchMore():
            self.fetchMore(QModelIndex(), row + 1 - len(self._rows) + self.page_size)

    def _part(self, row: int) -> AnyPart | Unreadable:
        got = self._decoded.get(row)
        if got is None:
            got = self._decoded[row] = decode_row(self._rows[row])
            if isinstance(got, Unreadable):
                self.unreadable[got.id] = got
        return got

    def replace_part(self, part: AnyPart) -> None:
        row = self.row_of(part.id, fetch=False)
        if row >= 0:
            self._decoded[row] = part
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self._columns) - 1))

    def part_at(self, row: int) -> AnyPart | None:
        got = self._part(row)
        return None if isinstance(got, Unreadable) else got

    def row_of(self, part_id: str, fetch: bool = True) -> int:
        """The row of a part in the current query (fetching up to it), or -1."""
        for row, r in enumerate(self._rows):
            if r.id == part_id:
                return row
        if not fetch or self.repo is None:
            return -1
        pos = self.repo.position(self.query(), part_id, self.category_words())
        if pos is None:
            return -1
        self.fetch_until(pos)
        return pos if pos < len(self._rows) and self._rows[pos].id == part_id else -1

    @property
    def column_names(self) -> list[str]:
        return self._columns

    def retranslate(self) -> None:
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self._columns) - 1)
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(self._columns) - 1))

    # -- Qt interface ----------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._columns)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self._columns):
            return
        self._sort = (self._columns[column], order == Qt.SortOrder.DescendingOrder)
        self.refresh()

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return header_text(self._category, self._columns[section])
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        part = self._part(index.row())
        name = self._columns[index.column()]
        if isinstance(part, Unreadable):
            if role == Qt.ItemDataRole.DisplayRole:
                return part.id + " ⚠" if name == "name" else ""
            if role == Qt.ItemDataRole.ToolTipRole:
                return translate("PartsBrowser", "This part cannot be read: {reason}").replace(
                    "{reason}", part.reason)
            return None
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


class PartsFilterProxy(QIdentityProxyModel):
    """The view's model: search and sort are the source model's (they run in SQL), so this only
    passes them on; fetching more rows and sorting are forwarded by Qt's proxy base."""

    def set_search(self, text: str) -> None:
        model = self.sourceModel()
        assert isinstance(model, PartsTableModel)
        model.set_search(text)

    def refilter(self) -> None:
        model = self.sourceModel()
        assert isinstance(model, PartsTableModel)
        model.refresh()

    def invalidate_cache(self) -> None:
        pass
