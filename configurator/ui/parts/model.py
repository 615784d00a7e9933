"""The Parts table's model: lazy, over one SQL query.

A query (category, search words, order) is one scan in SQL that gives the matching rows' numbers in
order (store.part_pages); the count is that list's length, and the model fetches the rows it shows a
page at a time (``canFetchMore``/``fetchMore``) by those numbers. A row becomes a part record only
when it is shown. Over a large table (more than ``background_over`` parts in the category) the scan
runs off the GUI thread (ui.tasks): the table keeps what it shows until the answer comes, and an
answer to a query that has since changed is dropped."""

from __future__ import annotations

import logging
from array import array
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QIdentityProxyModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont

from configurator.core.parts import CATEGORIES, CATEGORY_LABELS, AnyPart
from configurator.core.sheet import UNVERIFIED_MARK
from configurator.store.part_pages import matching_rows, rowid_of, rows_at
from configurator.store.repository import PartQuery, PartsRepository, Unreadable, decode_row
from configurator.ui.i18n import translate
from configurator.ui.part_columns import ALL, PART_ROLE, SORT_ROLE, columns_for, display_value, header_text
from configurator.ui.parts.values import unverified_tip
from configurator.ui.tasks import TaskRunner

log = logging.getLogger(__name__)
Index = QModelIndex | QPersistentModelIndex
PAGE = 200
BACKGROUND_OVER = 20_000  # parts in the category: a scan of more runs off the GUI thread


class PartsTableModel(QAbstractTableModel):
    """One page at a time of a query over the parts table."""

    refreshed = Signal()  # a query's answer is in (its count and first page)

    def __init__(self, parent: Any = None, repo: PartsRepository | None = None, page: int = PAGE,
                 tasks: TaskRunner | None = None, background_over: int = BACKGROUND_OVER):
        super().__init__(parent)
        self.repo = repo
        self.tasks = tasks
        self.background_over = background_over
        self.page_size = page
        self._order: array[int] = array("q")  # the query's row numbers, in its order
        self._rows: list[Any] = []  # the rows fetched so far (the first len(_rows) of _order)
        self._decoded: dict[int, AnyPart | Unreadable] = {}
        self._category = ALL
        self._columns = columns_for(ALL)
        self._words: tuple[str, ...] = ()
        self._sort = ("name", False)
        self._generation = 0
        self._last_query: PartQuery | None = None  # the query last run (or running)
        self.busy = False  # a scan is running off the GUI thread
        self.error: str | None = None  # why the last query failed
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

    def in_background(self) -> bool:
        """Whether this category's queries run off the GUI thread (it holds more than ``background_over``)."""
        if self.tasks is None or self.repo is None:
            return False
        return self.repo.count(PartQuery(None if self._category == ALL else self._category)) > self.background_over

    def refresh(self) -> None:
        """Run the query again: its rows' order, then its first page."""
        if not self.active or self.repo is None:
            return
        self._generation += 1
        self._last_query = self.query()
        generation, query, words, store = self._generation, self.query(), self.category_words(), self.repo.store
        if self.tasks is not None and self.in_background():
            self.busy = True
            self.tasks.submit(lambda: matching_rows(store, query, words),
                              lambda order: self._answered(generation, order),
                              lambda exc, tb: self._failed(generation, exc, tb))
            return
        try:
            order = matching_rows(store, query, words)
        except Exception as exc:  # shown in the table's place, like a failure off the GUI thread
            self._failed(generation, exc, "")
            return
        self._answered(generation, order)

    def _answered(self, generation: int, order: array[int]) -> None:
        if generation != self._generation:
            return  # the query changed while this one ran
        self.busy = False
        self.error = None
        self.beginResetModel()
        self._order = order
        self._rows = []
        self._decoded = {}
        self.pages_fetched = 0
        self.endResetModel()
        if order:
            self.fetchMore(QModelIndex())
        self.refreshed.emit()

    def _failed(self, generation: int, exc: BaseException, tb: str) -> None:
        if generation != self._generation:
            return
        log.warning("the parts query failed: %s\n%s", exc, tb)
        self.busy = False
        self.error = str(exc)
        self.refreshed.emit()

    @property
    def total(self) -> int:
        """Rows the query matches (fetched or not)."""
        return len(self._order)

    @property
    def category(self) -> str:
        return self._category

    # -- data in -------------------------------------------------------------------
    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:
        return not parent.isValid() and len(self._rows) < len(self._order)

    def fetchMore(self, parent: Index = QModelIndex(), limit: int | None = None) -> None:
        if parent.isValid() or self.repo is None or len(self._rows) >= len(self._order):
            return
        first = len(self._rows)
        rows = rows_at(self.repo.store, self._order[first:first + (limit or self.page_size)])
        if not rows:
            return
        self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
        self._rows.extend(rows)
        self.pages_fetched += 1
        self.endInsertRows()

    def fetch_until(self, row: int) -> None:
        """Fetch every row up to ``row`` (and the rest of its page) in one look-up."""
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
        rowid = rowid_of(self.repo.store, part_id)
        try:
            pos = self._order.index(rowid) if rowid is not None else -1
        except ValueError:
            return -1
        self.fetch_until(pos)
        return pos if 0 <= pos < len(self._rows) and self._rows[pos].id == part_id else -1

    def near(self, part_id: str, rows: int) -> bool:
        """Whether a part is among the first ``rows`` rows of the answer (fetched or not)."""
        if self.repo is None:
            return False
        rowid = rowid_of(self.repo.store, part_id)
        return rowid is not None and rowid in self._order[:rows]

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
        sort = (self._columns[column], order == Qt.SortOrder.DescendingOrder)
        if sort == self._sort and self._last_query == self.query():
            return  # QTableView.sortByColumn asks twice (once through the header's indicator)
        self._sort = sort
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
            if name in part.unverified:
                text += " " + UNVERIFIED_MARK  # not confirmed by a vendor source: the tooltip says so
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
            if name in part.unverified:
                return unverified_tip()
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
