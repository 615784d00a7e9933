"""A part picker: an editable combo box over one category's parts, and how a field shows it is invalid."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QCompleter, QWidget

from configurator.core.parts import SUMMARY_FIELDS, AnyPart, part_to_dict
from configurator.ui.i18n import translate
from configurator.ui.models import display_value, header_text


def part_label(part: AnyPart) -> str:
    d = part_to_dict(part)
    keys = SUMMARY_FIELDS[part.category][:3]
    bits = []
    for k in keys:
        unit = header_text(part.category, k)
        unit = unit[unit.rfind("(") + 1:-1] if unit.endswith(")") else ""
        value = display_value(k, d[k])
        bits.append(f"{value} {unit}".strip())
    return f"{part.name} — {' · '.join(bits)} · ¥{part.price_cny:,}"


class PartPicker(QComboBox):
    picked = Signal()  # the chosen part changed

    def __init__(self, category: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.category = category
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.setMinimumContentsLength(28)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        completer = self.completer()
        assert completer is not None
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.currentIndexChanged.connect(self._index_changed)

    def _index_changed(self, _index: int) -> None:
        self.show_start()
        if not self.signalsBlocked():
            self.picked.emit()

    def fill(self, parts: list[AnyPart]) -> None:
        current = self.currentData()
        self.blockSignals(True)
        self.clear()
        self.addItem(translate("Planner", "— none —"), None)
        for p in sorted(parts, key=lambda p: (p.price_cny, p.name)):
            self.addItem(part_label(p), p.id)
        self.select(current)
        self.blockSignals(False)

    def select(self, part_id: str | None) -> None:
        i = self.findData(part_id)
        self.setCurrentIndex(max(i, 0))
        self.show_start()

    def show_start(self) -> None:
        """Long labels: show the part's name, not the tail of the line."""
        line = self.lineEdit()
        if line is not None:
            line.setCursorPosition(0)

    def part_id(self) -> str | None:
        data = self.currentData()
        return str(data) if data else None

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
        return
    widget.setProperty("invalid", True)
    widget.setStyleSheet(f"color: {colours(widget.palette()).error};")
    widget.setToolTip(problem)
    widget.setAccessibleDescription(problem)
