"""The Parts browser: category filter, search, sortable table, detail pane with
every spec and its source, price editing and custom parts."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.parts import (
    CATEGORIES,
    CATEGORY_LABELS,
    FIELD_LABELS,
    AnyPart,
    Gpu,
    Motherboard,
    part_to_dict,
)
from configurator.store.measurements import MeasurementsRepository
from configurator.store.repository import PartsRepository, RepositoryError, today
from configurator.ui.i18n import translate
from configurator.ui.measurement_rows import measurements_html
from configurator.ui.parts_model import ALL, PART_ROLE, PartsFilterProxy, PartsTableModel, display_value, header_text
from configurator.ui.theme import colours

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

SKIP_IN_DETAIL = {"id", "name", "source", "notes", "pcie_slots", "m2_slots", "custom", "user_edited"}


def _lane_source(source: str) -> str:
    return translate("PartsBrowser", "CPU") if source == "cpu" else translate("PartsBrowser", "chipset")


class DetailPane(QWidget):
    """Every spec of the selected part, its source, and the price editor."""

    price_changed = Signal(object)  # the updated part

    def __init__(self, repo: PartsRepository, parent: QWidget | None = None):
        super().__init__(parent)
        self.repo = repo
        self.part: AnyPart | None = None
        self.setObjectName("DetailPane")

        self.title = QLabel()
        self.title.setObjectName("detailTitle")
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body = QLabel()
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.body.setOpenExternalLinks(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.body.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)

        self.price_label = QLabel()
        self.price = QSpinBox()
        self.price.setRange(0, 50_000_000)
        self.price.setSingleStep(100)
        self.price.setPrefix("¥ ")
        self.price.setGroupSeparatorShown(True)
        self.price.setObjectName("priceEditor")
        self.save_price = QPushButton()
        self.save_price.setObjectName("savePrice")
        self.reset_price = QPushButton()
        self.reset_price.setObjectName("resetPrice")
        self.save_price.clicked.connect(self._save_price)
        self.reset_price.clicked.connect(self._reset_price)
        self.price.valueChanged.connect(self._update_buttons)

        price_row = QHBoxLayout()
        price_row.addWidget(self.price_label)
        price_row.addWidget(self.price, 1)
        price_row.addWidget(self.save_price)
        price_row.addWidget(self.reset_price)

        inner = QWidget()
        inner_layout = QVBoxLayout(inner)
        inner_layout.addWidget(self.title)
        inner_layout.addWidget(self.body)
        inner_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 0, 0, 0)
        layout.addWidget(scroll, 1)
        layout.addLayout(price_row)
        self.retranslate()
        self.show_part(None)
        self._scheme = colours(self.palette())

    def retranslate(self) -> None:
        self.price_label.setText(translate("PartsBrowser", "Price:"))
        self.save_price.setText(translate("PartsBrowser", "Save price"))
        self.save_price.setToolTip(
            translate("PartsBrowser", "Keep this price; catalogue updates will not overwrite it"))
        self.reset_price.setText(translate("PartsBrowser", "Catalogue price"))
        self.reset_price.setToolTip(translate("PartsBrowser", "Go back to the price shipped with the catalogue"))
        self.show_part(self.part)

    def show_part(self, part: AnyPart | None) -> None:
        self.part = part
        editable = part is not None
        for w in (self.price, self.save_price, self.reset_price):
            w.setEnabled(editable)
        if part is None:
            self.title.setText(translate("PartsBrowser", "No part selected"))
            self.body.setText(translate("PartsBrowser", "Pick a part in the table to see every specification, "
                                                 "where it comes from, and to edit its price."))
            return
        self.title.setText(f"<h2>{html.escape(part.name)}</h2>")
        self.price.blockSignals(True)
        self.price.setValue(part.price_cny)
        self.price.blockSignals(False)
        self.body.setText(self._html(part))
        self._update_buttons()

    def _update_buttons(self) -> None:
        part = self.part
        if part is None:
            return
        self.save_price.setEnabled(self.price.value() != part.price_cny)
        self.reset_price.setEnabled(part.user_edited and not part.custom)

    def _html(self, part: AnyPart) -> str:
        d = part_to_dict(part)
        rows = []
        for key, value in d.items():
            if key in SKIP_IN_DETAIL:
                continue
            rows.append(
                f"<tr><td style='padding-right:14px'>{html.escape(header_text(part.category, key))}"
                f"</td><td><b>{html.escape(display_value(key, value))}</b></td></tr>"
            )
        out = [f"<p><code>{html.escape(part.id)}</code>"]
        if part.custom:
            out.append(" · " + html.escape(translate("PartsBrowser", "custom part")))
        if part.user_edited:
            out.append(" · " + html.escape(translate("PartsBrowser", "price edited by you")))
        out.append("</p><table cellspacing='0' cellpadding='2'>" + "".join(rows) + "</table>")
        if isinstance(part, Motherboard) and part.pcie_slots:
            out.append(f"<h3>{html.escape(translate('parts', 'PCIe slots'))}</h3>"
                       "<table cellspacing='0' cellpadding='3'>")
            heads = (
                translate("PartsBrowser", "Slot"), translate("PartsBrowser", "Position"),
                translate("PartsBrowser", "Size"), translate("PartsBrowser", "Link"),
                translate("PartsBrowser", "From"), translate("PartsBrowser", "Shares lanes with"),
            )
            out.append("<tr>" + "".join(
                f"<th align='left' style='padding-right:10px'>{html.escape(h)}</th>" for h in heads) + "</tr>")
            for s in part.pcie_slots:
                out.append(
                    f"<tr><td>{html.escape(s.name)}</td><td>{s.position}</td><td>x{s.physical_lanes}</td>"
                    f"<td>x{s.electrical_lanes} Gen{s.gen}</td>"
                    f"<td>{html.escape(_lane_source(s.source))}"
                    f"</td><td>{html.escape(', '.join(s.shares_with) or '—')}</td></tr>"
                )
            out.append("</table>")
        if isinstance(part, Motherboard) and part.m2_slots:
            out.append(f"<h3>{html.escape(translate('parts', 'M.2 slots'))}</h3>"
                       "<table cellspacing='0' cellpadding='3'>")
            for m in part.m2_slots:
                out.append(
                    f"<tr><td style='padding-right:10px'>{html.escape(m.name)}</td><td>x{m.lanes} Gen{m.gen}</td>"
                    f"<td style='padding-left:10px'>"
                    f"{html.escape(_lane_source(m.source))}"
                    f"</td><td style='padding-left:10px'>{html.escape(', '.join(m.shares_with) or '')}</td></tr>"
                )
            out.append("</table>")
        if part.notes:
            out.append(f"<h3>{html.escape(translate('parts', 'Notes'))}</h3><p>{html.escape(part.notes)}</p>")
        if isinstance(part, Gpu):  # what was measured on it (the throughput model is fitted to these)
            out.append(measurements_html(MeasurementsRepository(self.repo.store).for_gpu(part.id)))
        out.append(
            f"<h3>{html.escape(translate('parts', 'Source'))}</h3>"
            f"<p><a href='{html.escape(part.source, quote=True)}'>{html.escape(part.source)}</a></p>"
        )
        history = self.repo.price_history(part.id)
        if len(history) > 1:
            heading = translate("PartsBrowser", "Price history")
            out.append(f"<h3>{html.escape(heading)}</h3>"
                       "<table cellspacing='0' cellpadding='2'>")
            origins = {
                "catalogue": translate("PartsBrowser", "catalogue"),
                "user": translate("PartsBrowser", "edited by you"),
                "import": translate("PartsBrowser", "CSV import"),
                "reset": translate("PartsBrowser", "back to catalogue price"),
            }
            for point in reversed(history[-8:]):
                out.append(
                    f"<tr><td style='padding-right:14px'>{point.recorded_at:%Y-%m-%d %H:%M}</td>"
                    f"<td align='right' style='padding-right:14px'><b>¥{point.price_cny:,}</b></td>"
                    f"<td>{html.escape(origins.get(point.origin, point.origin))} ({html.escape(point.price_date)})"
                    "</td></tr>")
            out.append("</table>")
        out.append(f"<p style='color:{colours(self.palette()).muted_text}'>" + html.escape(
            translate("PartsBrowser", "Price: street-price estimate in CNY as of {date}; edit it to match your quote.")
        ).replace("{date}", html.escape(part.price_date)) + "</p>")
        return "".join(out)

    def _save_price(self) -> None:
        if self.part is None:
            return
        try:
            part = self.repo.set_price(self.part.id, self.price.value(), today())
        except RepositoryError as exc:
            QMessageBox.warning(self, translate("PartsBrowser", "Price not saved"), exc.message.render(translate))
            return
        self.show_part(part)
        self.price_changed.emit(part)

    def _reset_price(self) -> None:
        if self.part is None:
            return
        try:
            part = self.repo.reset_price(self.part.id)
        except RepositoryError as exc:
            QMessageBox.warning(self, translate("PartsBrowser", "Price not reset"), exc.message.render(translate))
            return
        self.show_part(part)
        self.price_changed.emit(part)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.PaletteChange and hasattr(self, "_scheme") \
                and colours(self.palette()) is not self._scheme:
            self._scheme = colours(self.palette())
            self.show_part(self.part)  # the note's colour, in the new scheme
        super().changeEvent(event)


class PartsBrowser(QWidget):
    """Category list | search + table | detail pane."""

    status_message = Signal(str)

    def __init__(self, repo: PartsRepository, settings: QSettings, parent: QWidget | None = None,
                 load: bool = True):
        """``load=False``: the table is filled by :meth:`ensure_loaded` (the app's start-up defers it
        until the window has been painted, or the tab is opened)."""
        super().__init__(parent)
        self.loaded = False
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
        self.add_button = QPushButton()
        self.add_button.setObjectName("addCustomPart")
        self.delete_button = QPushButton()
        self.delete_button.setObjectName("deleteCustomPart")
        self.delete_button.setEnabled(False)
        self.add_button.clicked.connect(self.add_custom_part)
        self.delete_button.clicked.connect(self.delete_selected)

        self.model = PartsTableModel(self, repo)
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
        self.detail = DetailPane(repo)
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
        self._damaged = self.repo.damaged_ids()
        self.model.unreadable.clear()
        self.model.active = True
        self._update_counts()
        self._fill(select_id)

    def _fill(self, select_id: str | None = None) -> None:
        current = select_id or (self.detail.part.id if self.detail.part else None)
        self.model.set_category(self.category)  # runs the query: its count and first page only
        header = self.table.horizontalHeader()
        self.table.resizeColumnsToContents()
        if header.sectionSize(0) > 320:
            header.resizeSection(0, 320)
        self._update_empty_state()
        self._update_notice()
        if current and self.select_part(current):
            return
        if self.proxy.rowCount() > 0:  # show something useful rather than an empty pane
            self.table.setCurrentIndex(self.proxy.index(0, 0))
            return
        self.detail.show_part(None)
        self.delete_button.setEnabled(False)

    def unreadable_ids(self) -> list[str]:
        """Parts the database holds but cannot be read: damaged JSON (found by SQLite at load) and
        rows that fail validation (found as they are shown)."""
        return sorted({*self._damaged, *self.model.unreadable})

    def _update_notice(self) -> None:
        ids = self.unreadable_ids()
        if ids:
            shown = ", ".join(ids[:10]) + (", …" if len(ids) > 10 else "")
            self.notice.setText(translate(
                "PartsBrowser", "{n} parts in the database could not be read and are not usable: {ids}. "
                "Fix them with an SQLite tool or import them again from a CSV.").replace(
                "{n}", str(len(ids))).replace("{ids}", shown))
        self.notice.setVisible(bool(ids))

    def select_part(self, part_id: str) -> bool:
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
        if visible == 0:
            if not self._counts:
                text = translate("PartsBrowser", "The parts database is empty. Restart the app to reseed it from "
                                          "the catalogue, or import a CSV (File → Import parts).")
            else:
                text = translate("PartsBrowser", "No part matches “{text}”. Search looks in names, ids, brands and "
                                          "every specification; clear the search to see all.").replace(
                    "{text}", self.search.text())
            self.empty.setText(text)
        self.empty.setVisible(visible == 0)
        self.table.setVisible(visible > 0)
        shown = translate("PartsBrowser", "{shown} of {total} parts shown").replace("{shown}", str(visible)).replace(
            "{total}", str(in_category))
        self.status_message.emit(shown)

    # -- slots -------------------------------------------------------------------
    def _category_changed(self, row: int) -> None:
        if row < 0:
            return
        self.category = self.categories.item(row).data(Qt.ItemDataRole.UserRole)
        self._fill()

    def _search_changed(self, text: str) -> None:
        self.model.set_search(text)  # SQL: the count and the first page of the matches
        self._update_empty_state()
        self._update_notice()

    def _selection_changed(self, current, _previous) -> None:  # type: ignore[no-untyped-def]
        part = current.data(PART_ROLE) if current.isValid() else None
        self.detail.show_part(part)
        self.delete_button.setEnabled(bool(part and part.custom))

    def _part_updated(self, part: AnyPart) -> None:
        self.model.replace_part(part)
        self.status_message.emit(translate("PartsBrowser", "Price of {name} saved: ¥{price}").replace(
            "{name}", part.name).replace("{price}", f"{part.price_cny:,}"))

    def add_custom_part(self) -> None:
        from configurator.ui.custom_part_dialog import CustomPartDialog

        category = self.category if self.category != ALL else "gpu"
        dialog = CustomPartDialog(self.repo, category, self)
        if dialog.exec() and dialog.created is not None:
            self.reload(select_id=dialog.created.id)

    def delete_selected(self) -> None:
        part = self.detail.part
        if part is None or not part.custom:
            return
        answer = QMessageBox.question(
            self, translate("PartsBrowser", "Delete custom part"),
            translate("PartsBrowser", "Delete your part “{name}”? This cannot be undone.").replace("{name}", part.name))
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            self.repo.delete_custom(part.id)
        except RepositoryError as exc:
            QMessageBox.warning(self, translate("PartsBrowser", "Not deleted"), exc.message.render(translate))
            return
        self.detail.show_part(None)
        self.reload()

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


__all__ = ["CATEGORY_LABELS", "FIELD_LABELS", "PartsBrowser"]
