"""The planner's choices as a user reads them: the part pickers, the verdict of an incomplete build,
the findings' details and the PCIe map."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from test_planner_tab import pick, planner

from configurator.ui.main_window import MainWindow


def test_picker_entries_read_from_the_name_with_the_deciding_figures(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    combo = tab.rows["gpu"].combo
    texts = [combo.itemText(i) for i in range(combo.count())]
    ti = next(t for t in texts if t.startswith("NVIDIA GeForce RTX 3060 Ti —"))
    plain = next(t for t in texts if t.startswith("NVIDIA GeForce RTX 3060 12GB —"))
    assert ti.split(" — ")[1].startswith("8 GiB") and plain.split(" — ")[1].startswith("12 GiB")  # VRAM first
    small = next(t for t in texts if t.startswith("NVIDIA GeForce RTX 4060 Ti 8GB —"))
    big = next(t for t in texts if t.startswith("NVIDIA GeForce RTX 4060 Ti 16GB —"))
    assert small.split(" — ")[1].startswith("8 GiB") and big.split(" — ")[1].startswith("16 GiB")
    assert len(set(texts)) == len(texts)  # no two entries read alike
    cpu = tab.rows["cpu"].combo.itemText(1)
    assert " cores · " in cpu and " threads · " in cpu and "GHz" in cpu
    assert " W" in tab.rows["psu"].combo.itemText(1).split(" — ")[1]
    assert "GB" in tab.rows["storage"].combo.itemText(1).split(" — ")[1]

    # The popup is as wide as the longest entry.
    widest = max(combo.view().fontMetrics().horizontalAdvance(t) for t in texts)
    assert combo.popup_width() >= widest
    combo.showPopup()
    qtbot.waitUntil(lambda: combo.view().isVisible(), timeout=2000)
    assert combo.view().width() >= widest
    combo.hidePopup()

    # After a pick the field shows the name from its start.
    pick(qtbot, tab, "gpu", "nvidia-rtx-4060-ti-16gb")
    line = combo.lineEdit()
    assert line.text().startswith("NVIDIA GeForce RTX 4060 Ti 16GB") and line.cursorPosition() == 0


def test_typing_a_search_and_enter_picks_the_first_match(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    combo = tab.rows["gpu"].combo
    line = combo.lineEdit()
    line.setFocus()
    line.selectAll()
    QTest.keyClicks(line, "4060 ti 16")
    QTest.keyClick(line, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tab.doc.build.parts != (), timeout=2000)
    assert tab.rows["gpu"].part_id() == "nvidia-rtx-4060-ti-16gb"
    assert line.cursorPosition() == 0 and not combo.invalid


def test_text_that_matches_nothing_is_flagged_and_is_not_a_choice(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    pick(qtbot, tab, "gpu", "nvidia-rtx-3090")
    combo = tab.rows["gpu"].combo
    line = combo.lineEdit()
    line.setFocus()
    line.selectAll()
    QTest.keyClicks(line, "rtx 9999")
    assert combo.invalid
    assert "No GPU matches “rtx 9999”" in line.toolTip() and "NVIDIA GeForce RTX 3090" in line.toolTip()
    assert line.property("invalid") is True
    QTest.keyClick(line, Qt.Key.Key_Return)
    assert combo.invalid and tab.rows["gpu"].part_id() == "nvidia-rtx-3090"  # nothing picked
    tab.name_edit.setFocus()  # leaving the field: still flagged, the build keeps its GPU
    assert combo.invalid and tab.doc.build.parts[0].id == "nvidia-rtx-3090"
    # Text that matches but was not picked gives way to the choice when the field is left.
    line.setFocus()
    line.selectAll()
    QTest.keyClicks(line, "4090")
    assert not combo.invalid
    tab.name_edit.setFocus()
    qtbot.waitUntil(lambda: line.text().startswith("NVIDIA GeForce RTX 3090"), timeout=2000)
    assert tab.rows["gpu"].part_id() == "nvidia-rtx-3090"


def _rows(item) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {item.child(i).text(0): item.child(i).text(1) for i in range(item.childCount())}


def _finding_item(tab, rule: str):  # type: ignore[no-untyped-def]
    for i in range(tab.findings.topLevelItemCount()):
        top = tab.findings.topLevelItem(i)
        for j in range(top.childCount()):
            if top.child(j).data(0, Qt.ItemDataRole.UserRole) == rule:
                return top.child(j)
    raise AssertionError(rule)


FULL = (("gpu", "nvidia-rtx-3090"), ("cpu", "amd-ryzen-9-7950x"), ("motherboard", "asus-proart-x670e-creator-wifi"),
        ("memory", "corsair-vengeance-64gb-2x32gb-ddr5-6000"), ("storage", "samsung-990-pro-2tb"),
        ("psu", "corsair-rm750e-2023"))


def test_an_expanded_finding_shows_labelled_values_with_units(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    for key, pid in FULL:
        pick(qtbot, tab, key, pid)
    item = _finding_item(tab, "PWR-2")
    rows = _rows(item)
    assert "peak_w" not in rows and rows["Peak power"].endswith(" W") and rows["PSU rating"] == "750 W"
    assert item.toolTip(1) == item.text(1)  # the whole message, whatever the column's width
    assert item.text(0) == "PWR-2 · G 六.3"
    tree = tab.findings
    assert tree.columnWidth(0) >= tree.fontMetrics().horizontalAdvance(item.text(0))  # the source is not cut
    assert tree.wordWrap() and tree.textElideMode() == Qt.TextElideMode.ElideNone
    fit = _rows(_finding_item(tab, "FIT-1"))
    assert "breakdown_gib" not in fit and fit["VRAM"] == "24 GiB"
    guide = next((_finding_item(tab, r) for r in ("BUD-3",)), None)
    assert guide is not None and any(k == "The guide says" for k in _rows(guide))
    window.language_actions["zh_CN"].trigger()
    rows = _rows(_finding_item(tab, "PWR-2"))
    assert "Peak power" not in rows and any(v.endswith(" W") for v in rows.values())
    window.language_actions["en"].trigger()


def test_pcie_map_names_each_gpu_and_its_link_inside_its_box(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    pick(qtbot, tab, "gpu", "nvidia-rtx-3090")
    tab.rows["gpu"].qty.setValue(2)
    pick(qtbot, tab, "motherboard", "asus-proart-b550-creator")
    seats = tab.pcie_map.seats
    texts = [tab.pcie_map.seat_texts(n, s) for n, s in enumerate(seats, 1)]
    assert texts[0] == ("GPU 1 · RTX 3090", "x8 Gen4 · CPU")
    assert "GPU 2 · RTX 3090" in tab.pcie_map.toolTip()


def test_a_build_without_cpu_board_or_psu_is_not_judged_whole(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    pick(qtbot, tab, "gpu", "nvidia-rtx-4090")
    text = tab.verdict.text()
    assert "No errors and no warnings" not in text
    assert "Not a whole build yet" in text and "CPU" in text and "Motherboard" in text and "Power supply" in text
    for key, pid in FULL[1:]:
        pick(qtbot, tab, key, pid)
    assert "Not a whole build yet" not in tab.verdict.text() and "Also still to choose" not in tab.verdict.text()


def test_chinese_planner_and_pdf_have_no_english_units_or_tier_names(qtbot, window: MainWindow, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import re

    from pypdf import PdfReader

    from configurator.core.presets import presets

    tab = planner(window)
    assert [a.text().split(" · ")[-1] for a in tab.presets_menu.actions()][:2] == [
        "Entry level (students, individuals)", "Professional (research teams)"]  # English menus, English names
    pro = next(p for p in presets(tab.catalogue) if p.tier.id == "TIER-pro")
    tab.apply_preset(pro)
    window.language_actions["zh_CN"].trigger()
    html = tab.results.estimates_label.toHtml()
    for english in ("sequences/s", "tokens/s", "img/s", "samples", "per ¥1000", "months"):
        assert english not in html, english
    assert "序列/秒" in html
    assert next(a.text().split(" · ")[-1] for a in tab.presets_menu.actions()) == "入门级（学生/个人）"
    left = tab.chart.getPlotItem().getAxis("left")
    assert "序列/秒" in left.labelText
    pdf = tmp_path / "配置.pdf"
    assert tab.export_pdf(pdf)
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    for english in ("sequences/s", "samples", "per ¥1000", " train ", "none"):
        assert english not in text, english
    prices = re.findall(r"¥[\d,]+", text)
    bad = [p for p in prices if not re.fullmatch(r"¥(\d{1,4}|\d{1,3}(,\d{3})+)", p)]
    assert prices and not bad, bad  # no price cut inside its digits
    window.language_actions["en"].trigger()


def test_chart_ticks_are_round_numbers() -> None:
    from configurator.core.sheet import round_ticks, tick_text

    assert round_ticks(1234) == [0, 500, 1000, 1500]
    assert round_ticks(7.3) == [0, 2, 4, 6, 8]
    ticks = round_ticks(0.37)
    assert [tick_text(v, ticks) for v in ticks] == ["0", "0.1", "0.2", "0.3", "0.4"]
    assert [tick_text(v, round_ticks(98765)) for v in round_ticks(98765)][-1] == "100,000"
