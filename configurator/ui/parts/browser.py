"""The Parts tab: category list | search + lazy table | detail pane (ui/parts/detail.py).

The table's model (ui/parts/model.py) runs each query in SQL and fetches what is shown; over a
large table the query runs off the GUI thread, and typing in the search box waits for a pause."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from configurator.core.i18n import QT_TRANSLATE_NOOP, fill
from configurator.core.parts import CATEGORIES, AnyPart
from configurator.store.measurements import MeasurementsRepository
from configurator.store.repository import PartsRepository
from configurator.ui.i18n import translate
from configurator.ui.part_columns import ALL, PART_ROLE
from configurator.ui.parts import actions
from configurator.ui.parts.detail import DetailPane
from configurator.ui.parts.measurements import MeasurementsSource
from configurator.ui.parts.model import PartsFilterProxy, PartsTableModel
from configurator.ui.tasks import TaskRunner

SEARCH_PAUSE_MS = 250  # over a large table, the query runs once typing pauses this long
KEEP_WITHIN = 2_000  # a new answer keeps the selected part selected if it is within this many rows

CATEGORY_PLURALS = {
    ALL: QT_TRANSLATE_NOOP("PartsBrowser", "All parts"),
    "gpu": QT_TRANSLATE_NOOP("PartsBrowser", "GPUs"),
    "cpu": QT_TRANSLATE_NOOP("PartsBrowser", "CPUs"),
    "motherboard": QT_TRANSLATE_NOOP("PartsBrowser", "Motherboards"),
    "memory": QT_TRANSLATE_NOOP("PartsBrowser", "Memory kits"),
    "storage": QT_TRANSLATE_NOOP("PartsBrowser", "Storage"),
    "psu": QT_TRANSLATE_NOOP("PartsBrowser", "Power supplies"),
    "case": QT_TRANSLATE_NOOP("PartsBrowser", "Cases"),
    "cooler": QT_TRANSLATE_NOOP("PartsBrowser", "CPU coolers"),
    "platform": QT_TRANSLATE_NOOP("PartsBrowser", "GPU baseboards"),
}

class PartsBrowser(QWidget):
    """Category list | search + table | detail pane."""

    status_message = Signal(str)

    def __init__(self, repo: PartsRepository, settings: QSettings, parent: QWidget | None = None,
                 load: bool = True, tasks: TaskRunner | None = None,
                 measurements: MeasurementsSource | None = None):
        """``load=False``: the table is filled by :meth:`ensure_loaded` (the app's start-up defers it
        until the window has been painted, or the tab is opened). ``tasks``: where a large table's
        queries run (without it they run on the GUI thread). ``measurements``: where a GPU's published
        measurements come from (default: the database's measurements table)."""
        super().__init__(parent)
        self.loaded = False
        self._select_after: str | None = None  # the part to select when the running query answers
        self.repo = repo
        self.settings = settings
        self._counts: dict[str, int] = {}
        self._damaged: list[str] = []
        self.category = ALL

        self.categories = QListWidget()
        self.categories.setObjectName("categoryList")
        self.categories.setMaximumWidth(200)
        for cat in (ALL, *CATEGORIES):
            item = QListWidgetItem()
            item.setData(Qt.ItemDataRole.UserRole, cat)
            self.categories.addItem(item)
        self.categories.currentRowChanged.connect(self._category_changed)

        self.search = QLineEdit()
        self.search.setObjectName("partSearch")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._search_changed)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_PAUSE_MS)
        self._search_timer.timeout.connect(self._run_search)
        self.add_button = QPushButton()
        self.add_button.setObjectName("addCustomPart")
        self.delete_button = QPushButton()
        self.delete_button.setObjectName("deleteCustomPart")
        self.delete_button.setEnabled(False)
        self.add_button.clicked.connect(self.add_custom_part)
        self.delete_button.clicked.connect(self.delete_selected)

        self.model = PartsTableModel(self, repo, tasks=tasks)
        self.model.refreshed.connect(self._query_answered)
        self.proxy = PartsFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setObjectName("partsTable")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 10)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.selectionModel().currentRowChanged.connect(self._selection_changed)
        self.detail = DetailPane(repo, measurements=measurements or MeasurementsRepository(repo.store).for_gpu)
        self.detail.price_changed.connect(self._part_updated)
        self.table.doubleClicked.connect(lambda _i: self.detail.price.setFocus())

        self.notice = QLabel()
        self.notice.setObjectName("unreadableNotice")
        self.notice.setWordWrap(True)
        self.notice.hide()

        self.empty = QLabel()
        self.empty.setObjectName("emptyState")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.hide()

        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.add_button)
        top.addWidget(self.delete_button)
        middle = QWidget()
        mid_layout = QVBoxLayout(middle)
        mid_layout.setContentsMargins(0, 0, 0, 0)
        mid_layout.addLayout(top)
        mid_layout.addWidget(self.notice)
        mid_layout.addWidget(self.table, 1)
        mid_layout.addWidget(self.empty, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("partsSplitter")
        self.splitter.addWidget(self.categories)
        self.splitter.addWidget(middle)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setStretchFactor(2, 2)
        self.splitter.setSizes([170, 760, 420])
        state = settings.value("parts/splitter")
        if state is not None:
            self.splitter.restoreState(state)

        layout = QVBoxLayout(self)
        layout.addWidget(self.splitter)
        self.retranslate()
        # Column widths from the first rows only: measuring all ~200 rows took a tenth of a second.
        self.table.horizontalHeader().setResizeContentsPrecision(60)
        self.categories.blockSignals(True)  # one fill below, not a second one for the row change
        self.categories.setCurrentRow(0)
        self.categories.blockSignals(False)
        if load:
            self.reload()

    def ensure_loaded(self) -> None:
        if not self.loaded:
            self.reload()

    # -- data ------------------------------------------------------------------
    def reload(self, select_id: str | None = None) -> None:
        self.loaded = True
        self._counts = self.repo.counts_by_category()
        if self.model.tasks is not None and self.model.in_background():  # a scan of every row's JSON
            self.model.tasks.submit(self.repo.damaged_ids, self._damaged_found)
        else:
            self._damaged = self.repo.damaged_ids()
        self.model.unreadable.clear()
        self.model.active = True
        self._update_counts()
        self._fill(select_id)

    def _fill(self, select_id: str | None = None) -> None:
        self._select_after = select_id or (self.detail.part.id if self.detail.part else None)
        self.model.set_category(self.category)  # runs the query: its order, then its first page

    def _query_answered(self) -> None:
        """The query's answer is in: size the columns, say what is shown, keep (or make) a selection."""
        header = self.table.horizontalHeader()
        self.table.resizeColumnsToContents()
        if header.sectionSize(0) > 320:
            header.resizeSection(0, 320)
        self._update_empty_state()
        self._update_notice()
        current, self._select_after = self._select_after, None
        if current and self.model.row_of(current, fetch=False) < 0 and not self.model.near(current, KEEP_WITHIN):
            current = None  # far down a large answer: fetching every row up to it is not worth a pause
        if current and self.select_part(current):
            return
        if self.proxy.rowCount() > 0:  # show something useful rather than an empty pane
            self.table.setCurrentIndex(self.proxy.index(0, 0))
            return
        self.detail.show_part(None)
        self.delete_button.setEnabled(False)

    @property
    def busy(self) -> bool:
        """A query is waiting for a pause in typing, or running."""
        return self._search_timer.isActive() or self.model.busy

    def _damaged_found(self, ids: list[str]) -> None:
        self._damaged = ids
        self._update_notice()

    def unreadable_ids(self) -> list[str]:
        """Parts the database holds but cannot be read: damaged JSON (found by SQLite at load) and
        rows that fail validation (found as they are shown)."""
        return sorted({*self._damaged, *self.model.unreadable})

    def _update_notice(self) -> None:
        ids = self.unreadable_ids()
        if ids:
            shown = ", ".join(ids[:10]) + (", …" if len(ids) > 10 else "")
            self.notice.setText(fill(translate(
                     "PartsBrowser", "{n} parts in the database could not be read and are not usable: {ids}. "
                     "Fix them with an SQLite tool or import them again from a CSV."), n=str(len(ids)), ids=shown))
        self.notice.setVisible(bool(ids))

    def select_part(self, part_id: str) -> bool:
        """Select a part (fetching the table up to it); while a query runs, when it answers."""
        if self.busy:
            self._select_after = part_id
            return True
        row = self.model.row_of(part_id)
        if row < 0:
            return False
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid():
            return False
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)
        return True

    def _update_counts(self) -> None:
        total = sum(self._counts.values())
        for i in range(self.categories.count()):
            item = self.categories.item(i)
            cat = item.data(Qt.ItemDataRole.UserRole)
            n = total if cat == ALL else self._counts.get(cat, 0)
            item.setText(f"{translate('PartsBrowser', CATEGORY_PLURALS[cat])}  ({n:,})")

    def _update_empty_state(self) -> None:
        visible = self.model.total
        in_category = sum(self._counts.values()) if self.category == ALL else self._counts.get(self.category, 0)
        if self.model.error is not None:
            self.empty.setText(fill(translate("PartsBrowser", "The parts could not be read: {error}"),
                                    error=self.model.error))
        elif visible == 0:
            if not self._counts:
                text = translate("PartsBrowser", "The parts database is empty. Restart the app to reseed it from "
                                          "the catalogue, or import a CSV (File → Import parts).")
            else:
                text = fill(translate("PartsBrowser", "No part matches “{text}”. Search looks in names, ids, brands "
                                                      "and every specification; clear the search to see all."),
                            text=self.search.text())
            self.empty.setText(text)
        self.empty.setVisible(visible == 0)
        self.table.setVisible(visible > 0)
        shown = fill(translate("PartsBrowser", "{shown} of {total} parts shown"),
                     shown=f"{visible:,}", total=f"{in_category:,}")
        self.status_message.emit(shown)

    # -- slots -------------------------------------------------------------------
    def _category_changed(self, row: int) -> None:
        if row < 0:
            return
        self.category = self.categories.item(row).data(Qt.ItemDataRole.UserRole)
        self._fill()

    def _search_changed(self, _text: str) -> None:
        if self.model.active and self.model.in_background():
            self._search_timer.start()  # a scan of a large table: once typing pauses
            self.status_message.emit(translate("PartsBrowser", "Searching…"))
        else:
            self._run_search()

    def _run_search(self) -> None:
        self._search_timer.stop()
        self._select_after = self.detail.part.id if self.detail.part else None  # kept if it still matches
        self.model.set_search(self.search.text())  # SQL: the matches' order, then their first page

    def _selection_changed(self, current, _previous) -> None:  # type: ignore[no-untyped-def]
        part = current.data(PART_ROLE) if current.isValid() else None
        self.detail.show_part(part)
        self.delete_button.setEnabled(bool(part and part.custom))

    def _part_updated(self, part: AnyPart) -> None:
        self.model.replace_part(part)
        self.status_message.emit(fill(translate("PartsBrowser", "Price of {name} saved: ¥{price}"),
                                      name=part.name, price=f"{part.price_cny:,}"))

    def add_custom_part(self) -> None:
        actions.add_custom_part(self)

    def delete_selected(self) -> None:
        actions.delete_custom_part(self)

    def save_state(self) -> None:
        self.settings.setValue("parts/splitter", self.splitter.saveState())

    def retranslate(self) -> None:
        self.search.setPlaceholderText(
            translate("PartsBrowser", "Search: name, id, brand or any spec (e.g. 24 nvlink)"))
        self.add_button.setText(translate("PartsBrowser", "Add custom part…"))
        self.delete_button.setText(translate("PartsBrowser", "Delete custom part"))
        self.model.retranslate()
        if self.loaded:
            self._update_counts()
            self._update_empty_state()
            self._update_notice()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


__all__ = ["PartsBrowser"]
