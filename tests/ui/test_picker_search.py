"""The planner's part pickers search as the Parts tab does: "2 TB" is a capacity, "ATX" a form factor,
whatever the entry's label says; the popup lists what Enter would pick from."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from test_planner_tab import planner

from configurator.core.parts import part_to_dict
from configurator.ui.main_window import MainWindow


def _ids(combo, rows: list[int]) -> list[str]:  # type: ignore[no-untyped-def]
    return [combo.itemData(i) for i in rows]


def test_a_size_or_a_form_factor_finds_the_parts_that_have_it(qtbot, window: MainWindow, services) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    storage = tab.rows["storage"].combo
    found = _ids(storage, storage.matches("2 TB"))
    two_tb = sorted(p.id for p in services.parts.list_parts("storage") if p.capacity_gb == 2000)
    assert two_tb and sorted(found) == two_tb  # "2 TB" is 2,000 GB, not any entry holding "2"
    assert "2 tb" not in " ".join(storage.itemText(i).casefold() for i in range(storage.count()))
    assert sorted(_ids(storage, storage.matches("2tb nvme"))) == sorted(
        p.id for p in services.parts.list_parts("storage") if p.capacity_gb == 2000 and p.kind == "nvme")
    board = tab.rows["motherboard"].combo
    atx = _ids(board, board.matches("ATX"))
    boards = {p.id: p for p in services.parts.list_parts("motherboard")}
    assert atx and all("atx" in part_to_dict(boards[i])["form_factor"].casefold() for i in atx)
    assert {i for i, b in boards.items() if b.form_factor == "ATX"} <= set(atx)
    # Words in the name still come first: "4060 ti 16" is the 16 GB card.
    gpu = tab.rows["gpu"].combo
    assert _ids(gpu, gpu.matches("4060 ti 16"))[0] == "nvidia-rtx-4060-ti-16gb"


def test_typing_a_size_lists_the_matches_in_the_popup_and_enter_picks_one(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    combo = tab.rows["storage"].combo
    line = combo.lineEdit()
    line.setFocus()
    line.selectAll()
    QTest.keyClicks(line, "2 TB")
    assert not combo.invalid
    popup = combo.completer().popup()
    qtbot.waitUntil(popup.isVisible, timeout=2000)
    listed = [popup.model().index(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(popup.model().rowCount())]
    assert sorted(listed) == sorted(_ids(combo, combo.matches("2 TB")))
    QTest.keyClick(line, Qt.Key.Key_Return)
    if popup.isVisible():  # Return went to the popup (no row current there): close it, Enter again
        popup.hide()
        QTest.keyClick(line, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tab.rows["storage"].part_id() is not None, timeout=2000)
    assert tab.rows["storage"].part_id() in _ids(combo, combo.matches("2 TB"))
