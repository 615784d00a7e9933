"""The name/value rows of a monitor card: labels a screen reader reads and a user can select
and copy from (see :class:`ValuesPanel`)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, QSize, Qt
from PySide6.QtGui import QColor, QEnterEvent, QPainter, QPaintEvent, QPalette, QPen, QResizeEvent
from PySide6.QtWidgets import QApplication, QLabel, QSizePolicy, QWidget

from configurator.ui.theme import colours, on_theme_change, series_colour

SWATCH_W = 16  # room for a plot-colour swatch before a name


class Cell(QLabel):
    """One name or value of a card: a plain-text label whose text can be selected with the mouse
    and copied (its context menu has Copy), and which a screen reader reads; a name is the
    accessible label of its value (``setBuddy``).

    A cell is selectable while the pointer is over it, while it holds a selection and while its
    context menu is open; otherwise it is a plain label. A selectable QLabel keeps its text in a
    QTextDocument, which it fills and lays out again on every new text and paints through the
    document's layout: for the values the cards replace every second that took four times what
    a plain label's text does, 40 % of the app's instructions with the Monitor tab shown."""

    def __init__(self, panel: ValuesPanel, row: int, is_name: bool):
        super().__init__(panel)
        self.panel = panel
        self.row = row
        self.is_name = is_name
        self._full = ""
        self.colour: str | None = None  # a colour of the theme's (``Colours`` field), or a colour name
        self.swatch: str | None = None  # a name's plot colour (one of COLOURS): the card's legend
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        # Opaque: it fills its rectangle with the panel's background itself, so a new text
        # repaints the label alone, not the panel beneath it.
        self.setAutoFillBackground(True)

    def text(self) -> str:
        """The whole text (the label shows it elided where it does not fit)."""
        return self._full

    def setText(self, text: str, colour: str | None = None) -> None:
        """``colour``: a field of the theme's colours (``"warning"``), or a colour name."""
        colour = colour or None
        if colour != self.colour:
            self.colour = colour
            self.apply_colour()
        if text != self._full:
            self._full = text
            if self.is_name:
                self.panel.names_changed()
            self.fit()

    def fit(self) -> None:
        """Show the text, elided when it does not fit (then the whole text is its tooltip)."""
        width = self.width() - (4 if self.is_name else 6)
        fm = self.fontMetrics()
        shown = self._full
        if width > 0 and fm.horizontalAdvance(shown) > width:
            shown = fm.elidedText(shown, Qt.TextElideMode.ElideRight, width)
        tip = self._full if shown != self._full else ""
        if self.toolTip() != tip:
            self.setToolTip(tip)
        if shown != super().text():
            if not self.underMouse():
                self.set_selectable(False)  # a new text replaces what was selected
            super().setText(shown)
        if not self.is_name and self.accessibleName() != self._full:
            self.setAccessibleName(self._full)  # what a screen reader says: the whole value

    def set_selectable(self, on: bool) -> None:
        """Selectable by the mouse, or a plain label again (not while a context menu is open:
        its Copy and Select All act on the selectable label)."""
        if not on and QApplication.activePopupWidget() is not None:
            return
        flags = Qt.TextInteractionFlag.TextSelectableByMouse if on else Qt.TextInteractionFlag.NoTextInteraction
        if self.textInteractionFlags() != flags:
            self.setTextInteractionFlags(flags)

    def enterEvent(self, event: QEnterEvent) -> None:
        self.set_selectable(True)
        super().enterEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self.set_selectable(self.hasSelectedText())  # a selection stays until a new text replaces it
        super().leaveEvent(event)

    def apply_colour(self) -> None:
        """The text colour from the panel's scheme: names muted, values the window text, or the
        cell's own colour."""
        panel_palette = self.panel.palette()
        c = colours(panel_palette)
        if self.colour is not None:
            semantic = getattr(c, self.colour, None)
            colour = QColor(semantic if isinstance(semantic, str) else self.colour)
        elif self.is_name:
            colour = QColor(c.muted_text)
        else:
            colour = panel_palette.windowText().color()
        palette = self.palette()
        if palette.color(QPalette.ColorRole.WindowText) != colour:
            palette.setColor(QPalette.ColorRole.WindowText, colour)
            self.setPalette(palette)


class ValuesPanel(QWidget):
    """The name/value rows of a card, in two columns of labels.

    The labels are placed by the panel (no layout) at a fixed size each, so a changed value
    repaints its own label and re-lays out nothing (a label of fixed size does not ask its
    parent for a new layout), and nothing beneath it (a label fills its own background). The
    panel paints the background around them and the plot-colour swatches."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.rows: list[tuple[Cell, Cell]] = []
        self._name_w: int | None = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)  # the card beneath need not repaint with it
        on_theme_change(self.restyle)

    def add_row(self) -> tuple[Cell, Cell]:
        i = len(self.rows)
        name, value = Cell(self, i, True), Cell(self, i, False)
        name.setBuddy(value)  # the name labels the value (for screen readers)
        name.apply_colour()
        self.rows.append((name, value))
        self.setFixedHeight(self._line() * ((len(self.rows) + 1) // 2) + 2)
        self._place()
        return name, value

    def names_changed(self) -> None:
        """A (re)translated name: measure the names' column again."""
        self._name_w = None
        self.updateGeometry()
        self._place()

    def _line(self) -> int:
        return self.fontMetrics().height() + 1

    def _name_width(self) -> int:
        if self._name_w is None:
            fm = self.fontMetrics()
            self._name_w = max((fm.horizontalAdvance(n.text()) + (SWATCH_W if n.swatch else 0)
                                for n, _v in self.rows), default=0) + 10
        return self._name_w

    def cell_rects(self) -> list[tuple[QRect, QRect]]:
        """Per row, the rectangles of its name (with its swatch) and its value (two rows to a line; a last row
        alone on its line has the whole line: the host card's "This app", "0.8 % of a core; sample took 0.8 ms",
        was cut off in half a line with the other half empty)."""
        half = self.width() // 2
        name_w = max(90, min(half // 2, self._name_width()))
        line = self._line()
        rects = []
        n = len(self.rows)
        for i in range(n):
            x, y = (i % 2) * half, (i // 2) * line
            right = self.width() if i == n - 1 and i % 2 == 0 else x + half
            rects.append((QRect(x, y, name_w, line), QRect(x + name_w, y, right - x - name_w, line)))
        return rects

    def _place(self) -> None:
        for (name, value), (name_r, value_r) in zip(self.rows, self.cell_rects(), strict=True):
            if name.swatch is not None:
                name_r = name_r.adjusted(SWATCH_W, 0, 0, 0)
            for cell, rect in ((name, name_r), (value, value_r)):
                if cell.geometry() != rect:
                    cell.setFixedSize(rect.size())
                    cell.move(rect.topLeft())
                    cell.fit()

    def minimumSizeHint(self) -> QSize:
        # Room for the widest typical value ("34.9 GiB of 48.0 GiB (72 %)") in each of the two columns.
        value_w = self.fontMetrics().horizontalAdvance("1,888 MHz / 10,501 MHz ·") + 6
        return QSize(2 * (self._name_width() + value_w), self._line() * ((len(self.rows) + 1) // 2) + 2)

    def sizeHint(self) -> QSize:
        return self.minimumSizeHint()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place()

    def paintEvent(self, event: QPaintEvent) -> None:
        """The background, and the swatches beside the names (the labels draw the texts)."""
        p = QPainter(self)
        palette = self.palette()
        p.fillRect(event.rect(), palette.window())
        c = colours(palette)
        for (name, _value), (rect, _value_r) in zip(self.rows, self.cell_rects(), strict=True):
            if name.swatch is not None and event.rect().intersects(rect):
                y = rect.center().y()
                p.setPen(QPen(QColor(series_colour(name.swatch, c)), 2))
                p.drawLine(rect.left() + 1, y, rect.left() + SWATCH_W - 5, y)
        p.end()

    def restyle(self) -> None:
        """The cells' text colours (each label holds its own) in the new scheme."""
        for cells in self.rows:
            for cell in cells:
                cell.apply_colour()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._name_w = None
            self.setFixedHeight(self._line() * ((len(self.rows) + 1) // 2) + 2)
            self._place()
