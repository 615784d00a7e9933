"""App-wide: visible indicators in the dark scheme, file dialogs that remember the last folder,
the Parts tab's status line only on that tab, and Qt's own dialogs in Chinese."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication, QCheckBox, QFileDialog, QMessageBox, QStyle, QStyleOptionButton

from configurator.ui.files import open_file, save_file
from configurator.ui.main_window import MainWindow
from configurator.ui.planner.tab import PlannerTab
from configurator.ui.theme import ThemeManager, colours


@pytest.fixture
def dark(qapp) -> Iterator[ThemeManager]:  # type: ignore[no-untyped-def]
    m = ThemeManager(qapp, "dark")
    m.apply("dark")
    qapp.processEvents()
    yield m
    m.reset()
    qapp.processEvents()
    assert not colours().dark


def _indicator_contrast(box: QCheckBox) -> float:
    """How far the lightest pixel of the box's indicator stands out of the box's own background."""
    opt = QStyleOptionButton()
    opt.initFrom(box)
    rect = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, opt, box)
    image = box.grab().toImage()
    inside = [image.pixelColor(x, y).lightnessF() for x in range(rect.left(), rect.right() + 1)
              for y in range(rect.top(), rect.bottom() + 1)]
    window = box.palette().color(box.backgroundRole()).lightnessF()
    return max(inside) - window


def test_an_unchecked_box_is_visible_in_the_dark_scheme(qtbot, dark) -> None:  # type: ignore[no-untyped-def]
    box = QCheckBox("Prometheus exporter on")
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    assert colours(box.palette()).dark
    assert _indicator_contrast(box) > 0.3  # Fusion's own outline was 0.05 above the window: invisible
    box.setChecked(True)
    assert _indicator_contrast(box) > 0.3


def _answer_file_dialog(path: Path, seen: list[str]) -> None:
    """Choose ``path`` in the next file dialog, noting the folder it opened in."""

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            QTimer.singleShot(10, answer)
            return
        seen.append(dialog.directory().absolutePath())
        dialog.selectFile(str(path))
        dialog.accept()

    QTimer.singleShot(0, answer)


def test_file_dialogs_remember_the_last_folder(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    chosen = tmp_path / "导出" / "第一次"
    chosen.mkdir(parents=True)
    seen: list[str] = []
    _answer_file_dialog(chosen / "parts.csv", seen)
    got = save_file(None, settings, "parts-csv", "Export parts", tmp_path / "parts.csv", "CSV files (*.csv)")
    assert got == str(chosen / "parts.csv") and seen == [str(tmp_path)]
    (chosen / "parts.csv").write_text("id\n", encoding="utf-8")
    _answer_file_dialog(chosen / "parts.csv", seen)
    assert open_file(None, settings, "parts-csv", "Import parts", Path.home(), "CSV files (*.csv)") == got
    assert seen[-1] == str(chosen)  # the import opened where the export went
    _answer_file_dialog(chosen / "x.json", seen)
    save_file(None, settings, "bench-export", "Export results", Path.home() / "benchmark.json")
    assert seen[-1] == str(chosen)  # another kind, never used: where any dialog last went


def test_main_window_import_opens_where_the_last_import_was(qtbot, window: MainWindow, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                            monkeypatch) -> None:
    folder = tmp_path / "零件"
    folder.mkdir()
    csv = folder / "parts.csv"
    csv.write_text("\ufeffid,category,name\n", encoding="utf-8")
    imported: list[Path] = []
    monkeypatch.setattr(window, "import_parts", imported.append)
    seen: list[str] = []
    _answer_file_dialog(csv, seen)
    window.import_parts_dialog()
    _answer_file_dialog(csv, seen)
    window.import_parts_dialog()
    assert imported == [csv, csv] and seen[1] == str(folder)


def test_the_parts_count_is_shown_on_the_parts_tab_only(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    bar = window.statusBar()
    window.tab(PlannerTab)
    window.parts_browser.reload()  # as the app's start-up does, after the first paint, on the Planner tab
    assert "parts" not in bar.currentMessage()
    window.tabs.setCurrentWidget(window.parts_browser)
    assert "parts shown" in bar.currentMessage()
    qtbot.keyClicks(window.parts_browser.search, "3090")
    qtbot.waitUntil(lambda: "parts shown" in bar.currentMessage(), timeout=5000)
    counted = bar.currentMessage()
    window.tab(PlannerTab)
    assert bar.currentMessage() == ""
    window.tabs.setCurrentWidget(window.parts_browser)
    assert bar.currentMessage() == counted


def test_qt_dialogs_are_in_chinese(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    window.set_language("zh_CN")
    box = QMessageBox(QMessageBox.Icon.Question, "?", "?", QMessageBox.StandardButton.Save
                      | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel, window)
    assert sorted(b.text() for b in box.buttons()) == sorted(["保存", "丢弃", "取消"])
    dialog = QFileDialog(window)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    assert dialog.labelText(QFileDialog.DialogLabel.Reject) in ("取消", "取消(&C)")
    dialog.deleteLater()
    box.deleteLater()
    window.set_language("en")
    box = QMessageBox(QMessageBox.Icon.Question, "?", "?", QMessageBox.StandardButton.Cancel, window)
    assert [b.text().replace("&", "") for b in box.buttons()] == ["Cancel"]
    box.deleteLater()


def test_undo_and_redo_name_the_edit_in_the_language_switched_to(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """View → Language at run time: Undo and Redo, and the edits they name, follow (QUndoStack's own actions kept the
    prefix of the language the window was made in: "Undo 编辑配置" in Chinese)."""
    from configurator.ui.planner.tab import PlannerTab

    planner = window.tab(PlannerTab)
    planner.rows["gpu"].combo.setCurrentIndex(planner.rows["gpu"].combo.findData("nvidia-rtx-4090"))
    qtbot.waitUntil(lambda: planner.act_undo.isEnabled(), timeout=2000)
    assert planner.act_undo.text() == "Undo Edit build" and planner.act_redo.text() == "Redo"
    window.set_language("zh_CN")
    assert planner.act_undo.text() == "撤销编辑配置" and planner.act_redo.text() == "重做"
    planner.act_undo.trigger()
    assert not planner.act_undo.isEnabled() and planner.act_undo.text() == "撤销"
    assert planner.act_redo.text() == "重做编辑配置"
    window.set_language("en")
    assert planner.act_redo.text() == "Redo Edit build"


def test_the_planners_build_file_dialogs_remember_their_folder(qtbot, window: MainWindow,  # type: ignore[no-untyped-def]
                                                                tmp_path: Path) -> None:
    from configurator.ui.planner.tab import PlannerTab

    planner = window.tab(PlannerTab)
    folder = tmp_path / "配置"
    folder.mkdir()
    seen: list[str] = []
    _answer_file_dialog(folder / "mine.json", seen)
    planner.files.export_dialog()
    assert (folder / "mine.json").is_file()
    _answer_file_dialog(folder / "mine.json", seen)
    planner.files.import_dialog()
    assert seen[-1] == str(folder)  # the import opened where the export went
