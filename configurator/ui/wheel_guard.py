"""The mouse wheel changes a combo box, spin box or slider only while it has the keyboard focus.

Scrolling a form with the wheel used to change whatever closed combo box or spin box passed under
the pointer (the optimizer, a quantity) without a word. The usual Qt remedy, applied once for the
whole application rather than widget by widget: such widgets take focus by click or Tab only
(``Qt.StrongFocus``, not the wheel), and a wheel event over one that does not have the focus is
ignored, so it goes on to the widget below (the scroll area scrolls). A widget with the focus, or
an open popup list, takes the wheel as usual.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QSlider, QWidget

GUARDED = (QComboBox, QAbstractSpinBox, QSlider)  # not scroll bars: they scroll, focus or not


class WheelGuard(QObject):
    """An application event filter: see the module's docstring."""

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Wheel and isinstance(obj, GUARDED) and not obj.hasFocus():
            event.ignore()  # not for this widget: Qt hands it to the parent (the scroll area scrolls)
            return True
        if kind == QEvent.Type.Polish and isinstance(obj, GUARDED) and isinstance(obj, QWidget) \
                and obj.focusPolicy() == Qt.FocusPolicy.WheelFocus:
            obj.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # the wheel does not give it the focus either
        return False


def install_wheel_guard() -> WheelGuard:
    """Install the guard on the application (once; later calls return the same guard)."""
    app = QCoreApplication.instance()
    assert app is not None, "a QApplication first"
    guard = app.findChild(WheelGuard)
    if guard is None:
        guard = WheelGuard(app)
        app.installEventFilter(guard)
    return guard
