"""The name/value rows of a monitor card, painted by one widget (see :class:`ValuesPanel`)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, QRect, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPen, QRegion
from PySide6.QtWidgets import QSizePolicy, QWidget

from configurator.ui.theme import Colours, colours, series_colour

SWATCH_W = 16  # room for a plot-colour swatch before a name
_DIGITS_AS_ZERO = str.maketrans("123456789", "000000000")


class Cell:
    """One name or value of a card: text (and colour) kept here, painted by the card's ValuesPanel."""

    def __init__(self, panel: ValuesPanel, row: int, is_name: bool):
        self.panel = panel
        self.row = row
        self.is_name = is_name
        self._text = ""
        self.colour: str | None = None  # a colour of the theme's (``Colours`` field), or a colour name
        self.swatch: str | None = None  # a name's plot colour (one of COLOURS): the card's legend
        self._fitted: tuple[str, int, str] | None = None  # (text, width, what fits): eliding is not free
        self._advance: tuple[str, int] | None = None  # (the text with its digits as 0, its width in pixels)

    def text(self) -> str:
        return self._text

    def setText(self, text: str, colour: str | None = None) -> None:  # QLabel's spelling, so callers need not care
        """``colour``: a field of the theme's colours (``"warning"``), read when painted, or a colour name."""
        colour = colour or None
        if text != self._text or colour != self.colour:
            self._text = text
            self.colour = colour
            self.panel.changed(self)

    def forget_width(self) -> None:
        """After a font change."""
        self._fitted = self._advance = None

    def fitted(self, fm: QFontMetrics, width: int, tabular: bool = False) -> str:
        """The text, elided only when it does not fit (measuring is cheaper than eliding; with
        ``tabular`` digits, a value that changed only in its digits is as wide as before)."""
        if self._fitted is None or self._fitted[:2] != (self._text, width):
            text = self._text
            shape = text.translate(_DIGITS_AS_ZERO) if tabular else text
            if self._advance is None or self._advance[0] != shape:
                self._advance = (shape, fm.horizontalAdvance(text))
            if self._advance[1] > width:
                text = fm.elidedText(text, Qt.TextElideMode.ElideRight, width)
            self._fitted = (self._text, width, text)
        return self._fitted[2]


class ValuesPanel(QWidget):
    """The name/value rows of a card, painted by one widget, in two columns.

    Twenty QLabels per card re-laid out the whole Monitor tab on every change (each
    setText invalidates the layouts up to the scroll area). Here a changed value
    repaints only its own cell: the names, and values that stayed the same, are not
    drawn again. The cells' rectangles are worked out once per width and font.
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.rows: list[tuple[Cell, Cell]] = []
        self._name_w: int | None = None
        self._rects: tuple[int, list[tuple[QRect, QRect]]] | None = None  # (width, per row (name, value))
        self._pens: tuple[Colours, QBrush, tuple[QColor, QColor], dict[str, QColor]] | None = None
        self._font: tuple[QFont, QFontMetrics, float, bool] | None = None
        # The values changed since the last paint: when the paint is for exactly them (the usual
        # case), only they are visited, not every cell of the card.
        self._pending: dict[Cell, QRect] = {}
        self._pending_region = QRegion()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)  # the card beneath need not repaint with it

    def changed(self, cell: Cell) -> None:
        if cell.is_name:
            self._name_w = None  # a (re)translated name: measure the column again
            self._rects = None
            self.updateGeometry()
            self.update()
        else:
            rect = self._cell_rects()[cell.row][1]
            if cell not in self._pending:
                self._pending[cell] = rect
                self._pending_region += rect
            self.update(rect)

    def add_row(self) -> tuple[Cell, Cell]:
        i = len(self.rows)
        row = (Cell(self, i, True), Cell(self, i, False))
        self.rows.append(row)
        self._rects = None
        self.setFixedHeight(self._line() * ((len(self.rows) + 1) // 2) + 2)
        return row

    def _line(self) -> int:
        return self.fontMetrics().height() + 1

    def _name_width(self) -> int:
        if self._name_w is None:
            fm = self.fontMetrics()
            self._name_w = max((fm.horizontalAdvance(n.text()) + (SWATCH_W if n.swatch else 0)
                                for n, _v in self.rows), default=0) + 10
        return self._name_w

    def _cell_rects(self) -> list[tuple[QRect, QRect]]:
        """Per row, the rectangles of its name and its value (two rows to a line)."""
        width = self.width()
        if self._rects is None or self._rects[0] != width:
            half = width // 2
            name_w = max(90, min(half // 2, self._name_width()))
            line = self._line()
            rects = []
            for i in range(len(self.rows)):
                x, y = (i % 2) * half, (i // 2) * line
                rects.append((QRect(x, y, name_w, line), QRect(x + name_w, y, half - name_w, line)))
            self._rects = (width, rects)
        return self._rects[1]

    def minimumSizeHint(self) -> QSize:
        # Room for the widest typical value ("34.9 GiB of 48.0 GiB (72 %)") in each of the two columns.
        value_w = self.fontMetrics().horizontalAdvance("1,888 MHz / 10,501 MHz ·") + 6
        return QSize(2 * (self._name_width() + value_w), self._line() * ((len(self.rows) + 1) // 2) + 2)

    def sizeHint(self) -> QSize:
        return self.minimumSizeHint()

    def _colours(self) -> tuple[Colours, QBrush, tuple[QColor, QColor], dict[str, QColor]]:
        """(the scheme, the background, (names', values') colours, colours by name): made once
        a palette (a PaletteChange forgets them)."""
        if self._pens is None:
            palette = self.palette()
            c = colours(palette)
            self._pens = (c, QBrush(palette.window()), (QColor(c.muted_text), palette.windowText().color()), {})
        return self._pens

    def _colour(self, name: str) -> QColor:
        c, _background, _plain, named = self._colours()
        colour = named.get(name)
        if colour is None:
            semantic = getattr(c, name, None)
            colour = named[name] = QColor(semantic if isinstance(semantic, str) else name)
        return colour

    def paintEvent(self, event: QPaintEvent) -> None:
        region = event.region()  # the changed cells, not their bounding box
        if self._pending and region == self._pending_region:
            cells = list(self._pending.items())
        else:
            cells = [(cell, rect) for row, rects in zip(self.rows, self._cell_rects(), strict=True)
                     for cell, rect in zip(row, rects, strict=True) if region.intersects(rect)]
        self._pending, self._pending_region = {}, QRegion()
        p = QPainter(self)
        font, fm, baseline, tabular = self._text_font()
        p.setFont(font)
        c, background, plain, _named = self._colours()
        p.fillRect(event.rect(), background)
        for cell, rect in cells:
            if cell.swatch is not None:
                y = rect.center().y()
                p.setPen(QPen(self._colour(series_colour(cell.swatch, c)), 2))
                p.drawLine(rect.left() + 1, y, rect.left() + SWATCH_W - 5, y)
                rect = rect.adjusted(SWATCH_W, 0, 0, 0)
            p.setPen(self._colour(cell.colour) if cell.colour is not None else plain[not cell.is_name])
            # At its baseline, as drawText(rect, AlignVCenter) would put it, without the line
            # layout that form does (the text is already elided to fit).
            width = rect.width() - (4 if cell.is_name else 6)
            p.drawText(QPointF(rect.left(), rect.top() + baseline), cell.fitted(fm, width, tabular))
        p.end()

    def _text_font(self) -> tuple[QFont, QFontMetrics, float, bool]:
        """(font, its metrics, the baseline's offset in a line, whether its digits share one
        width), made once a font. The font is told not to shape text that needs no shaping
        (Latin, digits, Han): a third of the cost of drawing a value."""
        if self._font is None:
            font = QFont(self.font())
            font.setStyleStrategy(QFont.StyleStrategy.PreferNoShaping)
            fm = QFontMetrics(font)
            baseline = (self._line() - fm.height()) / 2 + fm.ascent()
            tabular = len({fm.horizontalAdvance(d) for d in "0123456789"}) == 1
            self._font = (font, fm, baseline, tabular)
        return self._font

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._pens = None
        if event.type() == QEvent.Type.FontChange:
            self._font = None
            self._name_w = None
            self._rects = None
            for cells in self.rows:
                for cell in cells:
                    cell.forget_width()
            self.setFixedHeight(self._line() * ((len(self.rows) + 1) // 2) + 2)
        super().changeEvent(event)
