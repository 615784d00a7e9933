"""Result widgets of the planner: ratio bars, the findings tree, the PCIe map."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen, QResizeEvent
from PySide6.QtWidgets import (
    QHeaderView,
    QSizePolicy,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from configurator.core.findings import Finding, source_text
from configurator.core.numbers import NUMBER_LABELS, VALUE_WORDS, format_number, number_label
from configurator.core.parts import Motherboard
from configurator.core.pcie import Seat
from configurator.ui.i18n import translate
from configurator.ui.theme import Colours, colours, on_theme_change


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


def number_words() -> dict[str, str]:
    """The translated names of the numbers' keys, word values and word units."""
    out = {k: translate("numbers", label) for k, (label, _unit) in NUMBER_LABELS.items()}
    out.update({k: translate("numbers", w) for k, w in VALUE_WORDS.items()})
    return out


def number_text(key: str, value: object, words: dict[str, str]) -> tuple[str, str]:
    """A finding's number as (label, value with its unit), e.g. ("Peak power", "395 W")."""
    label, unit = number_label(key)
    return translate("numbers", label), format_number(value, unit, words)


class _WrappingDelegate(QStyledItemDelegate):
    """Rows as tall as their text wrapped to its column's width (a tree view asks with no width)."""

    def __init__(self, tree: QTreeWidget):
        super().__init__(tree)
        self.tree = tree

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        text = index.data(Qt.ItemDataRole.DisplayRole)
        if not text:
            return size
        width = self.tree.columnWidth(index.column())
        if index.column() == 0:
            depth, parent = 0, index.parent()
            while parent.isValid():
                depth, parent = depth + 1, parent.parent()
            width -= (depth + 1) * self.tree.indentation()
        width = max(width - 8, 40)
        fm = QFontMetrics(option.font)
        if "\n" not in text and fm.horizontalAdvance(text) <= width:  # one line: the style's own height
            return size
        rect = fm.boundingRect(QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), str(text))
        return QSize(size.width(), max(size.height(), rect.height() + 4))


class FindingsTree(QTreeWidget):
    """Findings grouped by severity; each expands to the numbers behind it and the guide's words.

    Nothing is cut: the rule column fits its text, long texts wrap, and every cell has its whole text
    as a tooltip; the columns can be resized from the header."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("findingsTree")
        self.setColumnCount(2)
        self.setWordWrap(True)
        self.setUniformRowHeights(False)
        self.setAlternatingRowColors(False)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        header = self.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.sectionResized.connect(lambda *_a: self.doItemsLayout())
        self.setItemDelegate(_WrappingDelegate(self))
        self.itemExpanded.connect(lambda _i: self.fit_rule_column())
        self.findings: list[Finding] = []
        on_theme_change(self.retranslate)  # the severity colours of the items, in the new scheme

    def show_findings(self, findings: list[Finding]) -> None:
        if findings == self.findings:
            return
        shape = [_shape(f) for f in findings]
        if shape == [_shape(f) for f in self.findings]:
            self._update_in_place(findings)
            return
        expanded = {}
        for i in range(self.topLevelItemCount()):
            item = self.topLevelItem(i)
            if item is not None:
                expanded[item.data(0, Qt.ItemDataRole.UserRole)] = item.isExpanded()
        self.setUpdatesEnabled(False)
        self.clear()
        self.setHeaderLabels([translate("Planner", "Rule · source"), translate("Planner", "Finding")])
        self.findings = findings
        bold = QFont(self.font())
        bold.setBold(True)
        c = colours(self.palette())
        words = number_words()
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
            self.addTopLevelItem(top)
            top.setFirstColumnSpanned(True)  # once in the tree: outside one it cannot span (cut "Information (3)")
            for f in group:
                item = QTreeWidgetItem()
                item.setForeground(0, severity_colour(severity, c))
                item.setData(0, Qt.ItemDataRole.UserRole, f.rule)
                top.addChild(item)
                self._fill(item, f, words)
            self.blockSignals(True)  # one fit of the rule column below, not one per group
            top.setExpanded(expanded.get(severity, severity != "info"))
            self.blockSignals(False)
        self.fit_rule_column()
        self.setUpdatesEnabled(True)

    def fit_rule_column(self) -> None:
        """The rule column as wide as its widest shown text (rule · source, a number's label)."""
        fm = self.fontMetrics()
        step = self.indentation()
        widest = 0

        def walk(item: QTreeWidgetItem, depth: int) -> None:
            nonlocal widest
            for i in range(item.childCount()):
                child = item.child(i)
                if child is None:
                    continue
                widest = max(widest, fm.horizontalAdvance(child.text(0)) + (depth + 1) * step)
                if child.isExpanded():
                    walk(child, depth + 1)

        for i in range(self.topLevelItemCount()):
            top = self.topLevelItem(i)
            if top is not None and top.isExpanded():
                walk(top, 1)
        width = widest + 24
        if widest and width != self.columnWidth(0):
            self.setColumnWidth(0, width)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.doItemsLayout()  # the wrapped rows' heights for the new width

    def _fill(self, item: QTreeWidgetItem, f: Finding, words: dict[str, str]) -> None:
        """A finding's row and its children (numbers, the guide's words); existing children are reused."""
        _set(item, f"{f.rule} · {source_text(f.source, translate)}", f.message.render(translate))
        rows: list[tuple[str, str, list[tuple[str, str]]]] = []
        for key, value in f.numbers.items():
            label, unit = number_label(key)
            if isinstance(value, dict) and value:
                head = translate("numbers", label)
                subs = [(words.get(str(k), str(k)), format_number(v, unit, words)) for k, v in value.items()]
                rows.append((head, "", subs))
            else:
                rows.append((*number_text(key, value, words), []))
        if f.guide:
            rows.append((translate("Planner", "The guide says"), f"“{f.guide}”", []))
        for n, (label, text, subs) in enumerate(rows):
            child = item.child(n)
            if child is None:
                child = QTreeWidgetItem()
                item.addChild(child)
            _set(child, label, text)
            for m, (sub_label, sub_text) in enumerate(subs):
                grandchild = child.child(m)
                if grandchild is None:
                    grandchild = QTreeWidgetItem()
                    child.addChild(grandchild)
                _set(grandchild, sub_label, sub_text)

    def _update_in_place(self, findings: list[Finding]) -> None:
        """Same findings, new figures (e.g. another PSU): change only the texts that differ."""
        old = self.findings
        self.findings = findings
        words = number_words()
        for i in range(self.topLevelItemCount()):
            top = self.topLevelItem(i)
            if top is None:
                continue
            severity = top.data(0, Qt.ItemDataRole.UserRole)
            group_new = [f for f in findings if f.severity == severity]
            group_old = [f for f in old if f.severity == severity]
            for j in range(top.childCount()):
                item = top.child(j)
                if item is not None and group_new[j] != group_old[j]:
                    self._fill(item, group_new[j], words)
        self.fit_rule_column()

    def retranslate(self) -> None:
        self.setHeaderLabels([translate("Planner", "Rule · source"), translate("Planner", "Finding")])
        findings, self.findings = self.findings, []
        self.show_findings(findings)


def _shape(f: Finding) -> tuple[object, ...]:
    return (f.severity, f.rule, tuple((k, len(v) if isinstance(v, dict) else -1) for k, v in f.numbers.items()),
            bool(f.guide))


def _set(item: QTreeWidgetItem, first: str, second: str) -> None:
    for column, text in ((0, first), (1, second)):
        if item.text(column) != text:
            item.setText(column, text)
            item.setToolTip(column, text)


def short_gpu_name(name: str) -> str:
    """A GPU's name without its maker's brand words ("NVIDIA GeForce RTX 4090" → "RTX 4090")."""
    words = name.split()
    while len(words) > 2 and words[0] in ("NVIDIA", "GeForce", "AMD", "Radeon", "Intel"):
        words.pop(0)
    return " ".join(words)


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
        self.setToolTip("\n".join(self.seat_tooltips()))
        rows = max((s.position for s in board.pcie_slots), default=1) if board else 1
        rows = max(rows, max((s.covers[-1] for s in seats), default=0))
        self.setMinimumHeight(self.ROW * rows + 8)
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(360, self.minimumHeight())

    @staticmethod
    def seat_texts(n: int, seat: Seat) -> tuple[str, str]:
        """What a GPU's box says: "GPU 1 · RTX 4090" and its link, "x16 Gen4 · CPU"."""
        source = translate("numbers", "CPU") if seat.slot.source == "cpu" else translate("numbers", "chipset")
        return f"GPU {n} · {short_gpu_name(seat.gpu.name)}", f"x{seat.lanes} Gen{seat.gen} · {source}"

    def seat_tooltips(self) -> list[str]:
        return [" — ".join(self.seat_texts(n, s)) + f" · {s.slot.name}" for n, s in enumerate(self.seats, 1)]

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
                source = translate("numbers", "CPU") if slot.source == "cpu" else translate("numbers", "chipset")
                hint = f"x{slot.electrical_lanes} Gen{slot.gen} · {source}"
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
            name, link = self.seat_texts(n, seat)
            inner = rect.adjusted(6, 0, -6, 0)
            link_w = fm.horizontalAdvance(link)
            room = int(inner.width()) - link_w - 12
            if rect.height() >= 2 * fm.height() + 6:  # a tall box (a wide card): the name above its link
                upper = QRectF(inner.left(), inner.top(), inner.width(), inner.height() / 2)
                lower = QRectF(inner.left(), inner.center().y(), inner.width(), inner.height() / 2)
                p.drawText(upper, Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignLeft,
                           fm.elidedText(name, Qt.TextElideMode.ElideRight, int(inner.width())))
                p.drawText(lower, Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft, link)
            elif room >= fm.horizontalAdvance("GPU 1 · RTX"):  # one line: the name left, the link right
                p.drawText(inner, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                           fm.elidedText(name, Qt.TextElideMode.ElideRight, room))
                p.drawText(inner, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, link)
            else:  # a narrow map: the link, which is what the map is for, before the name
                p.drawText(inner, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                           fm.elidedText(f"{link} · {name}", Qt.TextElideMode.ElideRight, int(inner.width())))
        p.end()
