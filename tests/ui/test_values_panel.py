"""A monitor card's values: read by screen readers, selectable and copyable like any label."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAccessible, QContextMenuEvent, QGuiApplication
from PySide6.QtWidgets import QApplication, QLabel, QMenu

from configurator.ui.monitor.values_panel import ValuesPanel


def panel_with_rows(qtbot) -> ValuesPanel:  # type: ignore[no-untyped-def]
    panel = ValuesPanel()
    qtbot.addWidget(panel)
    for name, value in (("Power", "312 W of 450 W"), ("Temperature", "71 °C"), ("VRAM", "18.2 GiB of 24.0 GiB")):
        n, v = panel.add_row()
        n.setText(name)
        v.setText(value)
    panel.resize(640, panel.height())
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def test_values_are_labels_a_screen_reader_reads_with_their_names(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = panel_with_rows(qtbot)
    name, value = panel.rows[0]
    assert isinstance(value, QLabel) and name.buddy() is value
    face = QAccessible.queryAccessibleInterface(value)
    assert face is not None and face.text(QAccessible.Text.Name) == "312 W of 450 W"
    labelled_by = [other.text(QAccessible.Text.Name) for other, _rel
                   in face.relations(QAccessible.RelationFlag.Label)]
    assert labelled_by == ["Power"]
    value.setText("320 W of 450 W")  # a screen reader hears the new value
    assert face.text(QAccessible.Text.Name) == "320 W of 450 W"


def test_a_value_can_be_selected_and_copied(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = panel_with_rows(qtbot)
    value = panel.rows[2][1]
    start = QPoint(2, value.height() // 2)
    end = QPoint(value.width() - 2, value.height() // 2)
    qtbot.mouseMove(value, start)  # the pointer comes over the value: it can be selected
    assert value.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    qtbot.mousePress(value, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(value, end)
    qtbot.mouseRelease(value, Qt.MouseButton.LeftButton, pos=end)
    assert value.selectedText() == "18.2 GiB of 24.0 GiB"
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(value, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == "18.2 GiB of 24.0 GiB"


def test_a_long_value_is_elided_on_screen_but_read_whole(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = panel_with_rows(qtbot)
    value = panel.rows[1][1]
    long = "71 °C, throttling: hardware slowdown, power brake, thermal limit, sync boost"
    value.setText(long)
    assert value.text() == long and value.toolTip() == long  # the tooltip shows what is cut off
    assert QLabel.text(value) != long and QLabel.text(value).endswith("…")
    face = QAccessible.queryAccessibleInterface(value)
    assert face is not None and face.text(QAccessible.Text.Name) == long


def test_a_value_is_a_plain_label_unless_the_pointer_is_over_it_or_it_holds_a_selection(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = panel_with_rows(qtbot)
    selectable = Qt.TextInteractionFlag.TextSelectableByMouse
    name, value = panel.rows[2]
    assert not value.textInteractionFlags() & selectable  # (a selectable label lays its text out as a document)
    qtbot.mouseMove(panel, QPoint(panel.width() - 2, panel.height() - 2))  # into the window, where no row is
    middle = QPoint(value.width() // 2, value.height() // 2)
    qtbot.mouseMove(value, middle)
    assert value.textInteractionFlags() & selectable
    qtbot.mouseMove(name, QPoint(name.width() // 2, name.height() // 2))
    assert not value.textInteractionFlags() & selectable and name.textInteractionFlags() & selectable
    # A selection outlasts the pointer, until a new value replaces the text it selected.
    qtbot.mouseMove(value, QPoint(2, middle.y()))
    qtbot.mousePress(value, Qt.MouseButton.LeftButton, pos=QPoint(2, middle.y()))
    qtbot.mouseMove(value, middle)
    qtbot.mouseRelease(value, Qt.MouseButton.LeftButton, pos=middle)
    qtbot.mouseMove(name, QPoint(name.width() // 2, name.height() // 2))
    assert value.selectedText() and value.textInteractionFlags() & selectable
    value.setText("18.3 GiB of 24.0 GiB")
    assert not value.textInteractionFlags() & selectable and QLabel.text(value) == "18.3 GiB of 24.0 GiB"


def test_a_values_context_menu_acts_on_it_after_the_pointer_left(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = panel_with_rows(qtbot)
    value = panel.rows[2][1]
    qtbot.mouseMove(panel, QPoint(panel.width() - 2, panel.height() - 2))
    middle = QPoint(value.width() // 2, value.height() // 2)
    qtbot.mouseMove(value, middle)
    QApplication.sendEvent(value, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, middle, value.mapToGlobal(middle)))
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu)
    try:
        assert not value.underMouse()  # the menu took the pointer
        select_all = next(a for a in menu.actions() if a.text().startswith("Select All"))
        select_all.trigger()
        assert value.selectedText() == "18.2 GiB of 24.0 GiB"
    finally:
        menu.close()


def test_a_last_row_alone_on_its_line_shows_its_whole_value(qtbot) -> None:  # type: ignore[no-untyped-def]
    """The host card's last row ("This app") has no partner on its line: its value may use the whole line,
    so "0.8 % of a core; sample took 0.8 ms" is not cut off where half the line stood empty."""
    panel = panel_with_rows(qtbot)  # three rows: the third is alone on the second line
    _n, v = panel.rows[2]
    text = "0.8 % of a core; sample took 0.8 ms · and more words to be long enough"
    v.setText(text)
    width = panel.fontMetrics().horizontalAdvance(text) + 160
    panel.resize(width + 2 * 90, panel.height())
    qtbot.waitUntil(lambda: v.geometry().right() >= panel.width() - 1, timeout=2000)
    assert QLabel.text(v) == text and not v.toolTip()  # shown whole, not elided
    first = panel.rows[0][1]
    assert first.geometry().right() < panel.width() // 2  # rows with a partner keep half a line
