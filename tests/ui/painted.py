"""Seeing the Monitor redraw as a user does: its plots are painted again."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget


class Paints(QObject):
    """Counts the paint events of a widget and the widgets in it (an event filter: Qt's public
    way to watch a widget). A redraw of the Monitor repaints every plot on screen, and nothing is
    painted while the tab is hidden, so a plot's paints count the tab's redraws."""

    def __init__(self, widget: QWidget):
        super().__init__(widget)
        self.count = 0
        for w in (widget, *widget.findChildren(QWidget)):
            w.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False
