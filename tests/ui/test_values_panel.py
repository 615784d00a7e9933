"""A monitor card's values: read by screen readers, selectable and copyable like any label."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAccessible, QGuiApplication
from PySide6.QtWidgets import QLabel

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
    assert value.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    start = QPoint(2, value.height() // 2)
    end = QPoint(value.width() - 2, value.height() // 2)
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
