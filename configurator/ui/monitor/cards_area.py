"""The Monitor tab's cards: the host's, one per GPU and one per remote host, in as many columns
(up to four) as the width allows, in a scroll area. It knows which cards are scrolled into view,
so a redraw updates only those."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QGridLayout, QScrollArea, QWidget

from configurator.ui.monitor.cards import GpuCard, HostCard, RemoteCard

MAX_COLUMNS = 4


class CardsArea(QScrollArea):
    """``exposed``: cards may have come into view (scrolled, resized): they should show the latest values."""

    exposed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.host_card = HostCard()
        self.gpu_cards: dict[str, GpuCard] = {}
        self.remotes: list[RemoteCard] = []
        self.cards = QWidget()
        self.grid = QGridLayout(self.cards)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(6)
        self.setWidgetResizable(True)
        self.setWidget(self.cards)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.verticalScrollBar().valueChanged.connect(lambda _v: self.exposed.emit())
        self.viewport().installEventFilter(self)
        self.layout_cards()

    def all_cards(self) -> list[QWidget]:
        return [self.host_card, *self.gpu_cards.values(), *self.remotes]

    def retranslate(self) -> None:
        self.host_card.retranslate()
        for card in self.gpu_cards.values():
            card.retranslate()
        for remote in self.remotes:
            remote.retranslate()

    # -- cards -----------------------------------------------------------------------------------
    def gpu_card(self, gpu_id: str) -> tuple[GpuCard, bool]:
        """The card of a GPU, and whether it was made now (then lay the cards out once it is filled)."""
        card = self.gpu_cards.get(gpu_id)
        if card is not None:
            return card, False
        card = self.gpu_cards[gpu_id] = GpuCard(gpu_id)
        return card, True

    def add_remote(self, card: RemoteCard) -> None:
        self.remotes.append(card)
        self.layout_cards()

    def remove_remote(self, card: RemoteCard) -> None:
        if card in self.remotes:
            self.remotes.remove(card)
            self.grid.removeWidget(card)
            card.deleteLater()
            self.layout_cards()

    # -- layout ----------------------------------------------------------------------------------
    def _columns(self) -> int:
        width = self.viewport().width()
        card = max(self.host_card.minimumSizeHint().width(),
                   max((c.minimumSizeHint().width() for c in self.gpu_cards.values()), default=0))
        return max(1, min(MAX_COLUMNS, (width + 6) // (card + 6)))

    def layout_cards(self) -> None:
        cards = self.all_cards()
        columns = self._columns()
        self._laid_out = (columns, len(cards))
        for card in cards:
            self.grid.removeWidget(card)
        for i, card in enumerate(cards):
            self.grid.addWidget(card, i // columns, i % columns)
        for c in range(MAX_COLUMNS):
            self.grid.setColumnStretch(c, 1 if c < columns else 0)
        for r in range(self.grid.rowCount()):
            self.grid.setRowStretch(r, 0)
        self.grid.setRowStretch(len(cards) // columns + 1, 1)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._columns() != self._laid_out[0]:
            self.layout_cards()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.viewport() and event.type() == QEvent.Type.Resize:
            self.exposed.emit()  # (window or splitter) cards that came into view show the latest values
        return super().eventFilter(watched, event)

    # -- what is on screen -------------------------------------------------------------------------
    def visible_area(self) -> QRect:
        """The part of the cards' area the scroll view shows, in the cards' coordinates."""
        return QRect(-self.cards.x(), -self.cards.y(), *self.viewport().size().toTuple())

    def on_screen(self, widget: QWidget, area: QRect | None = None) -> bool:
        """Whether a card, or a widget in a card, is (partly) scrolled into view."""
        if not widget.isVisible():
            return False
        rect = widget.geometry()
        parent = widget.parentWidget()
        while parent is not None and parent is not self.cards:
            rect.translate(parent.pos())
            parent = parent.parentWidget()
        return rect.intersects(area if area is not None else self.visible_area())
