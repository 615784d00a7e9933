"""Result widgets of the planner: ratio bars, the findings tree, the PCIe map."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QTreeWidget, QTreeWidgetItem, QWidget

from configurator.core.findings import Finding
from configurator.core.parts import Motherboard
from configurator.core.pcie import Seat
from configurator.ui.i18n import translate
from configurator.ui.theme import Colours, colours


def severity_colour(severity: str, c: Colours) -> QColor:
    return QColor({"error": c.error, "warning": c.warning}.get(severity, c.info))


def ratio_colour(ratio: float | None, c: Colours) -> QColor:
    if ratio is None:
        return QColor(c.neutral_fill)
    if ratio > 1.0:
        return QColor(c.error_fill)
    if ratio > 0.85:
        return QColor(c.warning_fill)
    return QColor(c.ok_fill)


class RatioBar(QWidget):
    """A labelled bar: value against a limit (price vs budget, peak power vs PSU …)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.label = ""
        self.text = ""
        self.ratio: float | None = None
        self.setMinimumHeight(40)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_values(self, label: str, text: str, ratio: float | None) -> None:
        self.label, self.text, self.ratio = label, text, ratio
        self.setToolTip(f"{label}: {text}")
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(320, 40)

    def paintEvent(self, _event: object) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        fm = self.fontMetrics()
        p.setPen(pal.windowText().color())
        p.drawText(0, fm.ascent(), self.label)
        p.drawText(QRectF(0, 0, self.width(), fm.height()), Qt.AlignmentFlag.AlignRight, self.text)
        top = fm.height() + 4
        track = QRectF(0, top, self.width() - 1, self.height() - top - 2)
        c = colours(pal)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(c.track))
        p.drawRoundedRect(track, 4, 4)
        if self.ratio is not None:
            fill = QRectF(track)
            fill.setWidth(track.width() * min(self.ratio, 1.0))
            p.setBrush(ratio_colour(self.ratio, c))
            p.drawRoundedRect(fill, 4, 4)
        p.end()


class FindingsTree(QTreeWidget):
    """Findings grouped by severity; each expands to the numbers behind it and the guide's words."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("findingsTree")
        self.setColumnCount(2)
        self.setHeaderHidden(True)
        self.setWordWrap(True)
        self.setUniformRowHeights(False)
        self.setAlternatingRowColors(False)
        self.setColumnWidth(0, 120)
        self.findings: list[Finding] = []
        self._scheme = colours(self.palette())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "_scheme") \
                and colours(self.palette()) is not self._scheme:
            self._scheme = colours(self.palette())
            self.retranslate()  # the severity colours of the items, in the new scheme
        super().changeEvent(event)

    def show_findings(self, findings: list[Finding]) -> None:
        if findings == self.findings:
            return
        shape = [(f.severity, f.rule, len(f.numbers), bool(f.guide)) for f in findings]
        if shape == [(f.severity, f.rule, len(f.numbers), bool(f.guide)) for f in self.findings]:
            self._update_in_place(findings)
            return
        expanded = {}
        for i in range(self.topLevelItemCount()):
            item = self.topLevelItem(i)
            if item is not None:
                expanded[item.data(0, Qt.ItemDataRole.UserRole)] = item.isExpanded()
        self.setUpdatesEnabled(False)
        self.clear()
        self.findings = findings
        bold = QFont(self.font())
        bold.setBold(True)
        c = colours(self.palette())
        for severity in ("error", "warning", "info"):
            group = [f for f in findings if f.severity == severity]
            if not group:
                continue
            title = {"error": translate("Planner", "Errors"), "warning": translate("Planner", "Warnings"),
                     "info": translate("Planner", "Information")}[severity]
            top = QTreeWidgetItem([f"{title} ({len(group)})", ""])
            top.setData(0, Qt.ItemDataRole.UserRole, severity)
            top.setFont(0, bold)
            top.setForeground(0, severity_colour(severity, c))
            top.setFirstColumnSpanned(True)
            self.addTopLevelItem(top)
            for f in group:
                item = QTreeWidgetItem([f"{f.rule} · {f.source}", f.message.render(translate)])
                item.setForeground(0, severity_colour(severity, c))
                item.setToolTip(1, f.message.render(translate))
                item.setData(0, Qt.ItemDataRole.UserRole, f.rule)
                top.addChild(item)
                for key, value in f.numbers.items():
                    child = QTreeWidgetItem([key, _fmt(value)])
                    item.addChild(child)
                if f.guide:
                    child = QTreeWidgetItem([translate("Planner", "The guide says"), f"“{f.guide}”"])
                    item.addChild(child)
            top.setExpanded(expanded.get(severity, severity != "info"))
        self.setUpdatesEnabled(True)


    def _update_in_place(self, findings: list[Finding]) -> None:
        """Same findings, new figures (e.g. another PSU): change only the texts that differ."""
        old = self.findings
        self.findings = findings
        index = {f.severity: 0 for f in findings}
        for i in range(self.topLevelItemCount()):
            top = self.topLevelItem(i)
            if top is None:
                continue
            severity = top.data(0, Qt.ItemDataRole.UserRole)
            group_new = [f for f in findings if f.severity == severity]
            group_old = [f for f in old if f.severity == severity]
            for j in range(top.childCount()):
                item = top.child(j)
                if item is None or group_new[j] == group_old[j]:
                    continue
                f = group_new[j]
                text = f.message.render(translate)
                item.setText(1, text)
                item.setToolTip(1, text)
                for k, (key, value) in enumerate(f.numbers.items()):
                    child = item.child(k)
                    if child is not None:
                        child.setText(0, key)
                        child.setText(1, _fmt(value))
            index[severity] = 0

    def retranslate(self) -> None:
        findings, self.findings = self.findings, []
        self.show_findings(findings)


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_fmt(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_fmt(v) for v in value)
    return str(value)


class PcieMap(QWidget):
    """The board's expansion slots top to bottom, with the GPUs in the slots they occupy."""

    ROW = 26

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("pcieMap")
        self.board: Motherboard | None = None
        self.seats: list[Seat] = []
        self.setMinimumHeight(60)

    def set_layout(self, board: Motherboard | None, seats: list[Seat]) -> None:
        self.board, self.seats = board, seats
        rows = max((s.position for s in board.pcie_slots), default=1) if board else 1
        rows = max(rows, max((s.covers[-1] for s in seats), default=0))
        self.setMinimumHeight(self.ROW * rows + 8)
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(360, self.minimumHeight())

    def paintEvent(self, _event: object) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        if self.board is None:
            p.setPen(pal.placeholderText().color())
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                       translate("Planner", "Choose a motherboard to see which slot each GPU gets."))
            p.end()
            return
        fm = self.fontMetrics()
        c = colours(pal)
        label_w = 110
        by_pos = {s.position: s for s in self.board.pcie_slots}
        rows = max(max(by_pos), max((s.covers[-1] for s in self.seats), default=0))
        taken = {p for seat in self.seats for p in seat.covers}
        for pos in range(1, rows + 1):
            y = 4 + (pos - 1) * self.ROW
            slot = by_pos.get(pos)
            p.setPen(pal.windowText().color())
            if slot is not None:
                p.drawText(QRectF(0, y, label_w, self.ROW), Qt.AlignmentFlag.AlignVCenter,
                           f"{slot.name}")
                length = (self.width() - label_w - 10) * slot.physical_lanes / 16
                p.setPen(QPen(QColor(c.outline), 1))
                p.setBrush(QColor(c.track))
                p.drawRect(QRectF(label_w, y + 7, length, self.ROW - 14))
                if pos in taken:
                    continue
                hint = f"x{slot.electrical_lanes} Gen{slot.gen} · {slot.source}"
                p.setPen(pal.placeholderText().color())
                p.drawText(QRectF(label_w + 4, y, self.width() - label_w - 8, self.ROW),
                           Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, hint)
        for n, seat in enumerate(self.seats, start=1):
            y = 4 + (seat.covers[0] - 1) * self.ROW + 2
            h = len(seat.covers) * self.ROW - 4
            rect = QRectF(label_w + 4, y, self.width() - label_w - 8, h)
            colour = QColor(c.ok_fill if seat.lanes >= 8 and seat.slot.source == "cpu" else c.warning_fill)
            colour.setAlpha(200)
            p.setPen(QPen(colour.darker(130), 1.5))
            p.setBrush(colour)
            p.drawRoundedRect(rect, 5, 5)
            p.setPen(QColor(c.on_fill))
            text = f"GPU {n}: {seat.gpu.name} — x{seat.lanes} Gen{seat.gen} · {seat.slot.name}"
            p.drawText(rect.adjusted(6, 0, -4, 0), Qt.AlignmentFlag.AlignVCenter,
                       fm.elidedText(text, Qt.TextElideMode.ElideRight, int(rect.width()) - 10))
        p.end()
