"""A part picker: an editable combo box over one category's parts that reads from the start of each
part's name, followed by the figures that decide the choice; and how a field shows it is invalid.

Generic over categories: a category without an entry in CHOICE_FIELDS shows its first summary fields."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QApplication, QComboBox, QCompleter, QLineEdit, QStyle, QWidget

from configurator.core.i18n import fill
from configurator.core.model_specs import ModelSpec
from configurator.core.parts import (
    CATEGORY_LABELS,
    SUMMARY_FIELDS,
    AnyPart,
    field_unit,
    part_to_dict,
)
from configurator.core.search import Term, parse_search, term_matches
from configurator.ui.i18n import translate
from configurator.ui.part_columns import display_value

# What decides a choice in each category, in the order a buyer reads it (VRAM first for a GPU).
CHOICE_FIELDS: dict[str, tuple[str, ...]] = {
    "gpu": ("vram_gb", "memory_bandwidth_gbs", "fp16_tensor_tflops", "board_power_w"),
    "cpu": ("cores", "threads", "boost_ghz", "socket"),
    "motherboard": ("socket", "chipset", "form_factor", "memory_type"),
    "memory": ("capacity_gb", "modules", "memory_type", "speed_mts"),
    "storage": ("capacity_gb", "kind", "interface"),
    "psu": ("watts", "efficiency"),
    "case": ("form_factor", "max_gpu_length_mm"),
}


def _counted(name: str, value: int) -> str:
    """Counts that carry no unit, in words ("16 cores")."""
    if name == "cores":
        return fill(translate("Planner", "{n} cores"), n=f"{value:,}")
    if name == "threads":
        return fill(translate("Planner", "{n} threads"), n=f"{value:,}")
    if name == "modules":
        if value == 1:
            return translate("Planner", "1 module")
        return fill(translate("Planner", "{n} modules"), n=f"{value:,}")
    return f"{value:,}"


def choice_figures(part: AnyPart) -> list[str]:
    """The figures that matter for choosing ``part``, each with its unit."""
    d = part_to_dict(part)
    out = []
    for key in CHOICE_FIELDS.get(part.category, SUMMARY_FIELDS.get(part.category, ())[:3]):
        value = d.get(key)
        if value is None or isinstance(value, bool) or value == [] or value == "":
            continue
        unit = field_unit(part.category, key)
        if isinstance(value, int) and not unit:
            out.append(_counted(key, value))
        else:
            text = display_value(key, value)  # "NVMe SSD", not "nvme"
            out.append(f"{text} {translate('parts', unit)}".strip() if unit else text)
    return out


def part_label(part: AnyPart) -> str:
    """The picker's entry: the whole name first, then the deciding figures and the price."""
    return " — ".join((part.name, " · ".join([*choice_figures(part), f"¥{part.price_cny:,}"])))


def _words(text: str) -> list[str]:
    return text.casefold().split()


def _searched(part: AnyPart) -> tuple[dict[str, object], dict[str, object]]:
    """A part as core.search's terms read it: its row (id, name, category, price) and its specs."""
    d = part_to_dict(part)
    row = {k: d.pop(k) for k in ("id", "name", "category", "price_cny")}
    return row, d


def _sized(term: Term) -> bool:
    return term.kind == "number" and not term.in_name


class _Matching(QSortFilterProxyModel):
    """The completer's list: the rows ``PartPicker.matches`` found for the text typed (all rows before any)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.rows: frozenset[int] | None = None

    def show_rows(self, rows: frozenset[int] | None) -> None:
        if rows != self.rows:
            self.beginFilterChange()
            self.rows = rows
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        return self.rows is None or source_row in self.rows


class PartPicker(QComboBox):
    picked = Signal()  # the chosen part changed
    first_choice = 1  # the first row that is a choice (row 0: "— none —")

    def __init__(self, category: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.category = category
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.setMinimumContentsLength(16)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self._found: dict[str, tuple[dict[str, object], dict[str, object]]] = {}
        completer = self.completer()
        assert completer is not None
        # The popup lists what ``matches`` finds (words in the entry, or terms against the specs: "2 TB"),
        # not only entries that hold the typed text: the filter is set as the text changes.
        self._matching = _Matching(self)
        self._matching.setSourceModel(self.model())
        completer.setModel(self._matching)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        line = self.lineEdit()
        assert line is not None
        self._warning = QAction(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning), "", self)
        self._warning.setObjectName("noMatch")
        line.addAction(self._warning, QLineEdit.ActionPosition.TrailingPosition)
        self._warning.setVisible(False)  # after adding: the line edit shows what it is given
        line.textEdited.connect(self._text_edited)
        line.returnPressed.connect(self._return_pressed)
        self.currentIndexChanged.connect(self._index_changed)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)

    # -- what the list holds ------------------------------------------------------------------
    def fill(self, parts: list[AnyPart]) -> None:
        current = self.currentData()
        self.blockSignals(True)
        self.clear()
        self.addItem(translate("Planner", "— none —"), None)
        self._found = {p.id: _searched(p) for p in parts}
        self._matching.show_rows(None)
        for p in sorted(parts, key=lambda p: (p.price_cny, p.name)):
            label = part_label(p)
            self.addItem(label, p.id)
            self.setItemData(self.count() - 1, label, Qt.ItemDataRole.ToolTipRole)
        self.select(current)
        self.blockSignals(False)
        self._fit_popup()

    def _fit_popup(self) -> None:
        """The popups (the list and the completer's) as wide as their longest entry, within the screen."""
        fm = self.view().fontMetrics()
        widest = max((fm.horizontalAdvance(self.itemText(i)) for i in range(self.count())), default=0)
        extra = self.view().verticalScrollBar().sizeHint().width() + 4 * self.view().frameWidth() + 24
        screen = self.screen() or QGuiApplication.primaryScreen()
        limit = int(screen.availableGeometry().width() * 0.95) if screen is not None else widest + extra
        width = min(widest + extra, limit)
        self.view().setMinimumWidth(width)
        popup = self._completer_popup()
        if popup is not None:
            popup.setMinimumWidth(width)

    def _completer_popup(self) -> QWidget | None:
        completer = self.completer()
        return completer.popup() if completer is not None else None

    def popup_width(self) -> int:
        return self.view().minimumWidth()

    def matches(self, text: str) -> list[int]:
        """Rows of the parts that match every term of ``text`` as the Parts tab's search reads it (core.search:
        "2 TB" a capacity, "850w" a power, "ATX" a form factor or any other spec value, "nvlink", "gen4"), a
        word also matching as part of the name ("409" while typing "4090"); those whose name holds every word
        first ("4060 ti 16" is the 16 GB card, not an 8 GB one at 165 TFLOPS), each in the list's order.
        Entries that are not parts (the models) match when the entry holds every word."""
        words = _words(text)
        if not words:
            return []
        terms = parse_search(text)
        in_name: list[int] = []
        in_specs: list[int] = []
        in_entry: list[int] = []
        for i in range(self.first_choice, self.count()):
            entry = self.itemText(i).casefold()
            name = entry.split(" — ")[0]
            found = self._found.get(str(self.itemData(i)))
            if found is None:
                if all(w in name for w in words):
                    in_name.append(i)
                elif all(w in entry for w in words):
                    in_entry.append(i)
                continue
            row, specs = found
            # A size with its unit ("2tb") is that size; any other term may also be part of the name.
            if not all(term_matches(t, row, specs) or (not _sized(t) and t.word in name) for t in terms):
                continue
            (in_name if all(w in name for w in words) else in_specs).append(i)
        return in_name + in_specs + in_entry

    # -- choosing ----------------------------------------------------------------------------
    def select(self, part_id: str | None) -> None:
        i = self.findData(part_id)
        self.setCurrentIndex(max(i, 0))
        self.show_start()

    def part_id(self) -> str | None:
        data = self.currentData()
        return str(data) if data else None

    def show_start(self) -> None:
        """Long labels: show the part's name from its start, not the tail of the line."""
        line = self.lineEdit()
        if line is not None:
            line.setCursorPosition(0)

    def _index_changed(self, _index: int) -> None:
        self._flag(None)
        self.show_start()
        if not self.signalsBlocked():
            self.picked.emit()

    def _typed(self) -> str:
        line = self.lineEdit()
        return line.text() if line is not None else ""

    def _text_edited(self, text: str) -> None:
        found = self.matches(text) if text.strip() else []
        self._matching.show_rows(frozenset(found) if text.strip() else None)
        if not text.strip() or text == self.itemText(self.currentIndex()) or found:
            self._flag(None)
        else:
            self._flag(text)

    def _return_pressed(self) -> None:
        """Enter picks the first part that matches what was typed (the list is in price order)."""
        text = self._typed()
        if text == self.itemText(self.currentIndex()):
            return
        found = self.matches(text)
        if found:
            self.setCurrentIndex(found[0])
            popup = self._completer_popup()
            if popup is not None:
                popup.hide()
        elif text.strip():
            self._flag(text)

    def _focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        """Focus left the field (not for its own popups: the list, the completer's list)."""
        mine = (self, self.lineEdit(), self.view(), self._completer_popup())
        if old in mine and new not in mine and new is not None:
            self._left()

    def _left(self) -> None:
        """Leaving the field: typed text that matches nothing stays, flagged; any other text that is not
        the choice gives way to the choice's name, so the field never shows what was not picked."""
        text = self._typed()
        current = self.itemText(self.currentIndex())
        if text == current or self._warning.isVisible():
            self.show_start()
            return
        line = self.lineEdit()
        if line is not None:
            line.setText(current)
        self.show_start()

    def _flag(self, text: str | None) -> None:
        problem = None if text is None else self.no_match(text, self.itemText(self.currentIndex()).split(" — ")[0])
        self._warning.setVisible(problem is not None)
        self._warning.setToolTip(problem or "")
        line = self.lineEdit()
        if line is not None:
            mark_invalid(line, problem)

    def no_match(self, text: str, choice: str) -> str:
        """What the field says when ``text`` matches no entry (the build keeps ``choice``)."""
        name = translate("parts", CATEGORY_LABELS.get(self.category, self.category))
        return fill(translate("Planner", "No {category} matches “{text}”; the build keeps {choice}."),
                    category=name, text=text, choice=choice)

    @property
    def invalid(self) -> bool:
        return self._warning.isVisible()

    def retranslate(self) -> None:
        self.setItemText(0, translate("Planner", "— none —"))


def mark_invalid(widget: QWidget, problem: str | None) -> None:
    """Show (``problem``) or clear (None) a field's invalid state: the error colour and the reason as its tooltip."""
    from configurator.ui.theme import colours

    if problem is None:
        if widget.property("invalid"):
            widget.setProperty("invalid", False)
            widget.setStyleSheet("")
            widget.setToolTip("")
            widget.setAccessibleDescription("")
        return
    widget.setProperty("invalid", True)
    widget.setStyleSheet(f"color: {colours(widget.palette()).error};")
    widget.setToolTip(problem)
    widget.setAccessibleDescription(problem)


HF_CONFIG = "hf_config"  # the model of a workload that names a Hugging Face config.json (core/build/limits.py)
HF_PICK = "hf_config…"  # the entry that asks for a config.json (never a workload's model)


class ModelPicker(PartPicker):
    """The workload's model: every model the planner knows, each with its parameter count, searched as the
    part pickers are (any words, any order), "Custom model", the config.json chosen (if one was), and
    "Hugging Face config.json…", which asks for one (``hf_requested``; the choice stays until one is read)."""

    first_choice = 0
    hf_requested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__("model", parent)
        self.setMinimumContentsLength(22)
        self.hf_path: str | None = None  # the config.json the entry HF_CONFIG reads
        self.hf_spec: ModelSpec | None = None  # what it says (None: it could not be read)
        self._last = 0  # the choice before HF_PICK was picked

    def set_hf(self, path: str, spec: ModelSpec | None) -> None:
        """The config.json entry: ``path`` and what it says (None: unreadable now); chosen, with the signals."""
        self.hf_path, self.hf_spec = path, spec
        self.fill_models()
        self.select(HF_CONFIG)

    def hf_label(self) -> str:
        from configurator.core.sheet import model_label

        name = Path(self.hf_path or "").name or "config.json"
        if self.hf_spec is None:
            return fill(translate("Planner", "{file} (cannot be read)"), file=name)
        return fill(translate("Planner", "{model} — from {file}"),
                    model=model_label(HF_CONFIG, self.hf_spec).render(translate), file=name)

    def _index_changed(self, index: int) -> None:
        if self.itemData(index) == HF_PICK:
            # back to the last choice until a file is read; the dialog opens once the combo box is done
            self.blockSignals(True)
            self.setCurrentIndex(self._last if self._last != index else 0)
            self.blockSignals(False)
            self.show_start()
            QTimer.singleShot(0, self.hf_requested.emit)
            return
        self._last = index
        super()._index_changed(index)

    def fill_models(self) -> None:
        from configurator.core.model_specs import KNOWN_MODELS
        from configurator.core.sheet import model_label

        current = self.currentData()
        self.blockSignals(True)
        self.clear()
        for model_id, spec in KNOWN_MODELS.items():
            label = model_label(model_id, spec).render(translate)
            self.addItem(label, model_id)
            self.setItemData(self.count() - 1, f"{label}\n{model_id}", Qt.ItemDataRole.ToolTipRole)
        self.addItem(translate("workload", "Custom model"), "custom")
        self.setItemData(self.count() - 1, translate("Planner", "A model of your own: its parameters and layers "
                                                               "(or image size) below"), Qt.ItemDataRole.ToolTipRole)
        if self.hf_path is not None:
            self.addItem(self.hf_label(), HF_CONFIG)
            self.setItemData(self.count() - 1, self.hf_path, Qt.ItemDataRole.ToolTipRole)
        self.addItem(translate("Planner", "Hugging Face config.json…"), HF_PICK)
        self.setItemData(self.count() - 1, translate("Planner", "A model's config.json from Hugging Face, read from "
                                                               "your disk (nothing is downloaded)"),
                         Qt.ItemDataRole.ToolTipRole)
        self.select(current)
        self._last = self.currentIndex()
        self.blockSignals(False)
        self._fit_popup()

    def select(self, part_id: str | None) -> None:
        i = self.findData(part_id)
        self.setCurrentIndex(i if i >= 0 else 0)
        self.show_start()

    def matches(self, text: str) -> list[int]:
        found = super().matches(text)
        words = _words(text)  # an id ("llama-7b") finds its model too
        by_id = [i for i in range(self.count()) if i not in found
                 and all(w in str(self.itemData(i)).casefold() for w in words)] if words else []
        return found + by_id

    def no_match(self, text: str, choice: str) -> str:
        return fill(translate("Planner", "No model matches “{text}”; the workload keeps {choice}."),
                    text=text, choice=choice)

    def retranslate(self) -> None:
        self.fill_models()
