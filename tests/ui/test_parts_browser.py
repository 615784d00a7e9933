"""Drive the parts browser as a user would."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from PySide6.QtCore import QModelIndex, QSettings, Qt
from PySide6.QtWidgets import QMessageBox

from configurator.app import build_services, build_window
from configurator.core.parts import CATEGORIES
from configurator.store.repository import PartsRepository
from configurator.ui.custom_part_dialog import CustomPartDialog
from configurator.ui.main_window import MainWindow
from configurator.ui.part_columns import PART_ROLE


def visible_ids(w: MainWindow) -> list[str]:
    proxy = w.parts_browser.proxy
    return [proxy.index(r, 0).data(PART_ROLE).id for r in range(proxy.rowCount())]


def choose_category(w: MainWindow, category: str) -> None:
    w.parts_browser.categories.setCurrentRow(1 + CATEGORIES.index(category))


def test_category_filter_and_counts(window: MainWindow) -> None:
    total = len(visible_ids(window))
    choose_category(window, "gpu")
    gpus = visible_ids(window)
    assert 40 <= len(gpus) < total
    assert all(i.startswith(("nvidia-", "amd-", "intel-")) for i in gpus)
    label = window.parts_browser.categories.item(1).text()
    assert label.startswith("GPUs") and f"({len(gpus)})" in label
    headers = [window.parts_browser.model.headerData(c, Qt.Orientation.Horizontal)
               for c in range(window.parts_browser.model.columnCount())]
    assert "VRAM (GiB)" in headers and "Board power (W)" in headers and "Price (¥)" in headers


def test_search_and_empty_state(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    total = len(visible_ids(window))
    qtbot.keyClicks(window.parts_browser.search, "3090")
    ids = visible_ids(window)
    assert "nvidia-rtx-3090" in ids and len(ids) < total / 4
    window.parts_browser.search.clear()
    qtbot.keyClicks(window.parts_browser.search, "no such part zzz")
    assert visible_ids(window) == []
    assert not window.parts_browser.empty.isHidden() and "zzz" in window.parts_browser.empty.text()
    window.parts_browser.search.clear()
    assert window.parts_browser.empty.isHidden()


def test_sorting_is_numeric(window: MainWindow) -> None:
    choose_category(window, "gpu")
    browser = window.parts_browser
    col = browser.model.column_names.index("vram_gb")
    browser.table.sortByColumn(col, Qt.SortOrder.DescendingOrder)
    vram = [browser.proxy.index(r, 0).data(PART_ROLE).vram_gb for r in range(browser.proxy.rowCount())]
    assert vram == sorted(vram, reverse=True) and vram[0] >= 141


def test_detail_pane_shows_every_spec_and_the_source(window: MainWindow) -> None:
    assert window.parts_browser.select_part("nvidia-rtx-3090")
    text = window.parts_browser.detail.body.text()
    part = window.parts_browser.detail.part
    assert part is not None and part.id == "nvidia-rtx-3090"
    assert "VRAM (GiB)" in text and "350" in text and part.source in text
    # the GPU's published measurements, from the database, each with its software and a link to its source
    shown = window.parts_browser.detail.measurements.label.text()
    assert "Published measurements" in shown and "resnet50" in shown and "513 images/s" in shown
    assert "https://github.com/lambdal/deeplearning-benchmark/blob/" in shown


def test_price_edit_is_persisted(qtbot, window: MainWindow, services) -> None:  # type: ignore[no-untyped-def]
    browser = window.parts_browser
    browser.select_part("nvidia-rtx-4090")
    detail = browser.detail
    assert not detail.save_price.isEnabled()
    detail.price.setValue(12345)
    assert detail.save_price.isEnabled()
    qtbot.mouseClick(detail.save_price, Qt.MouseButton.LeftButton)
    fresh = PartsRepository(services.store).get("nvidia-rtx-4090")
    assert fresh is not None and fresh.price_cny == 12345 and fresh.user_edited
    row = browser.proxy.mapFromSource(browser.model.index(browser.model.row_of("nvidia-rtx-4090"),
                                                          browser.model.column_names.index("price_cny")))
    assert row.data() == "¥12,345 ✎"
    assert "Price history" in detail.body.text() and "edited by you" in detail.body.text()
    assert detail.reset_price.isEnabled()
    qtbot.mouseClick(detail.reset_price, Qt.MouseButton.LeftButton)
    back = PartsRepository(services.store).get("nvidia-rtx-4090")
    assert back is not None and back.price_cny != 12345 and not back.user_edited


def test_custom_part_dialog_keeps_input_on_error_and_adds_when_fixed(qtbot, window, services) -> None:  # type: ignore[no-untyped-def]
    dialog = CustomPartDialog(services.parts, "psu", window)
    qtbot.addWidget(dialog)
    ed = dialog.editors
    ed["id"].setText("my-psu-1300")
    ed["name"].setText("我的 1300W 电源")
    ed["brand"].setText("Mine")
    ed["price_cny"].setText("abc")
    ed["source"].setText("https://example.com")
    ed["watts"].setText("1300")
    ed["efficiency"].setText("80 PLUS Gold")
    for name, value in (("form_factor", "ATX"), ("pcie_8pin", "6"), ("connector_12v2x6", "1"), ("eps_8pin", "2")):
        ed[name].setText(value)
    dialog.try_accept()
    assert dialog.result() == 0 and dialog.created is None
    errors = dialog.errors.text()
    assert "Price (¥)" in errors and "Source" in errors
    assert ed["name"].text() == "我的 1300W 电源"  # nothing typed is lost
    ed["price_cny"].setText("1,299")
    ed["source"].setText("https://example.com/psu/1300")
    dialog.try_accept()
    assert dialog.created is not None and dialog.created.custom, dialog.errors.text()
    window.parts_browser.reload(select_id="my-psu-1300")
    assert window.parts_browser.detail.part is not None and window.parts_browser.detail.part.id == "my-psu-1300"
    assert window.parts_browser.delete_button.isEnabled()


def test_language_switch_retranslates_live(window: MainWindow) -> None:
    assert window.tabs.tabText(window.tabs.indexOf(window.parts_browser)) == "Parts"
    window.language_actions["zh_CN"].trigger()
    assert window.tabs.tabText(window.tabs.indexOf(window.parts_browser)) == "部件"
    assert window.parts_browser.categories.item(1).text().startswith("显卡")
    headers = [window.parts_browser.model.headerData(c, Qt.Orientation.Horizontal)
               for c in range(window.parts_browser.model.columnCount())]
    assert "价格 (¥)" in headers
    assert window.settings.value("ui/language") == "zh_CN"
    window.language_actions["en"].trigger()
    assert window.tabs.tabText(window.tabs.indexOf(window.parts_browser)) == "Parts"


def test_geometry_is_remembered(qtbot, services) -> None:  # type: ignore[no-untyped-def]
    w = build_window(services)
    qtbot.addWidget(w)
    w.show()
    least = w.minimumSizeHint()
    size = (least.width() + 7, least.height() + 5)
    w.resize(*size)
    w.close()
    again = build_window(services)
    qtbot.addWidget(again)
    assert (again.width(), again.height()) == size


def test_csv_import_errors_are_shown_and_good_files_load(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "坏.csv"
    bad.write_text("id,category,name\nx,psu,X\n", encoding="utf-8")
    window.import_parts(bad)
    qtbot.waitUntil(lambda: hasattr(window, "last_import_error"), timeout=10000)
    assert "line 2" in window.last_import_error and "watts" in window.last_import_error
    for box in window.findChildren(QMessageBox):
        box.close()
    good = tmp_path / "好.csv"
    good.write_text("id,category,name,brand,price_cny,price_date,source,watts,efficiency,form_factor,pcie_8pin,"
                    "connector_12v2x6,eps_8pin\n"
                    "gw-850,psu,长城 850W,长城,599,2026-11,https://www.greatwall.com.cn/p/850,850,Gold,ATX,4,0,1\n",
                    encoding="gb18030")
    window.import_parts(good)
    qtbot.waitUntil(lambda: hasattr(window, "last_import_message"), timeout=10000)
    assert window.parts_browser.detail.part is not None and window.parts_browser.detail.part.id == "gw-850"


def test_corrupt_database_gives_a_notice(qapp, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """At the app's own location a file that is not SQLite is set aside (never deleted) and replaced;
    a file the user named with --db or CONFIGURATOR_DB is theirs: it is left as it is, and the notice says so."""
    from configurator.paths import db_location

    monkeypatch.delenv("CONFIGURATOR_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    db, owned = db_location()
    assert owned and db.is_relative_to(tmp_path)
    db.parent.mkdir(parents=True)
    junk = os.urandom(10000)
    db.write_bytes(junk)
    s = build_services(argparse.Namespace(db=None, lang="en"),
                       QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    try:
        assert len(s.notices) == 1
        title, text = s.notices[0]
        assert title == "Database repaired" and ".corrupt-" in text
        assert str(s.store.recovered.moved_to) in text and s.store.recovered.moved_to.read_bytes() == junk
    finally:
        s.store.close()
    mine = tmp_path / "mybuild.json"
    mine.write_bytes(junk)
    s = build_services(argparse.Namespace(db=str(mine), lang="en"),
                       QSettings(str(tmp_path / "s2.ini"), QSettings.Format.IniFormat))
    try:
        assert [title for title, _text in s.notices] == ["Database not available"]
        assert "not a configurator database" in s.notices[0][1] and mine.read_bytes() == junk
        assert s.store.path != mine
    finally:
        s.store.close()


def test_parts_tab_fetches_lazily_with_100k_parts(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """100,000 parts: the first paint reads one page, fetchMore the next; nothing builds all rows."""
    from configurator.store.database import open_store
    from configurator.store.seed import seed_store
    from configurator.ui.parts.model import PAGE, PartsTableModel

    store = open_store(tmp_path / "big.db", seed=seed_store)
    try:
        base = PartsRepository(store).list_parts("psu")[0]
        from configurator.store.catalogue import specs_of

        specs = json.dumps(specs_of(base))
        rows = [(f"{base.id}-x{i}", "psu", f"{base.name} {i}", specs, base.price_cny + i % 97,
                 base.price_date, base.source) for i in range(100_000)]
        with store.engine.begin() as con:
            con.exec_driver_sql(
                "INSERT INTO parts (id, category, name, specs, price_cny, price_date, source, user_edited, custom,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 1, '2026-11-01 00:00:00.000000')", rows)
        repo = PartsRepository(store)
        settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
        from configurator.ui.parts import PartsBrowser
        from configurator.ui.tasks import TaskRunner

        tasks = TaskRunner()
        browser = PartsBrowser(repo, settings, tasks=tasks)
        qtbot.addWidget(browser)
        browser.show()
        qtbot.waitExposed(browser)
        model: PartsTableModel = browser.model
        assert model.in_background()  # 100k parts: queries run off the GUI thread
        qtbot.waitUntil(lambda: not browser.busy, timeout=20000)
        assert model.total > 100_000
        assert model.rowCount() == PAGE and model.pages_fetched == 1  # the first paint: one page
        assert len(model._decoded) < PAGE  # only the rows on screen became part records
        assert browser.proxy.canFetchMore(QModelIndex())
        browser.proxy.fetchMore(QModelIndex())
        assert model.rowCount() == 2 * PAGE
        browser.table.scrollToBottom()  # the view asks for the next page when it reaches the end
        qtbot.waitUntil(lambda: model.rowCount() >= 3 * PAGE, timeout=5000)
        assert model.rowCount() < 10 * PAGE
        # Search and sort run in SQL, over all 100k rows, and again show one page.
        browser.search.setText("x99999")
        assert browser.busy  # typing does not wait for a scan of 100k rows
        qtbot.waitUntil(lambda: not browser.busy, timeout=20000)
        assert model.total == 1 and model.part_at(0).id == f"{base.id}-x99999"  # type: ignore[union-attr]
        browser.search.clear()
        col = model.column_names.index("price_cny")
        browser.table.sortByColumn(col, Qt.SortOrder.DescendingOrder)
        qtbot.waitUntil(lambda: not browser.busy, timeout=20000)
        prices = [model.part_at(r).price_cny for r in range(model.rowCount())]  # type: ignore[union-attr]
        assert prices == sorted(prices, reverse=True)
        # The part selected before is now far down the answer: the first row is selected instead of
        # fetching every row up to it; one page was read.
        assert browser.detail.part is not None and browser.detail.part.id == model.part_at(0).id  # type: ignore[union-attr]
        assert model.pages_fetched == 1 and model.rowCount() == PAGE
        assert browser.select_part(f"{base.id}-x50000")  # far down: fetched up to it, by its position
        assert browser.detail.part is not None and browser.detail.part.id == f"{base.id}-x50000"
    finally:
        tasks.wait()
        store.close()


def test_parts_tab_names_parts_that_cannot_be_read(qtbot, services, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with services.store.engine.begin() as con:
        con.exec_driver_sql("UPDATE parts SET specs = '{broken' WHERE id = 'nvidia-rtx-3090'")
    w = build_window(services)
    qtbot.addWidget(w)
    w.show()
    w.parts_browser.ensure_loaded()
    notice = w.parts_browser.notice
    assert not notice.isHidden() and "1 parts" in notice.text() and "nvidia-rtx-3090" in notice.text()
    assert "nvidia-rtx-4090" in visible_ids_safe(w)


def visible_ids_safe(w: MainWindow) -> list[str]:
    proxy = w.parts_browser.proxy
    out = []
    for r in range(proxy.rowCount()):
        part = proxy.index(r, 0).data(PART_ROLE)
        if part is not None:
            out.append(part.id)
    return out


def test_search_terms_match_the_fields_they_name(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """The placeholder suggests "24 nvlink": every card found has 24 GB and NVLink."""
    browser = window.parts_browser
    window.tabs.setCurrentWidget(browser)
    browser.ensure_loaded()
    assert "24 nvlink" in browser.search.placeholderText()
    qtbot.keyClicks(browser.search, "24 nvlink")
    model = browser.model
    qtbot.waitUntil(lambda: model.rowCount() > 0, timeout=3000)
    parts = [model.part_at(r) for r in range(model.rowCount())]
    assert parts and all(p.category == "gpu" and p.vram_gb == 24 and p.nvlink for p in parts)
    browser.search.clear()
    qtbot.keyClicks(browser.search, "2tb gen5")
    qtbot.waitUntil(lambda: model.rowCount() > 0, timeout=3000)
    parts = [model.part_at(r) for r in range(model.rowCount())]
    assert all(p.category == "storage" and p.capacity_gb == 2000 and p.pcie_gen == 5 for p in parts)


def test_a_custom_part_can_start_as_a_copy(qtbot, window, services) -> None:  # type: ignore[no-untyped-def]
    dialog = CustomPartDialog(services.parts, "motherboard", window)
    qtbot.addWidget(dialog)
    combo = dialog.copy_from
    i = combo.findData("asus-proart-b550-creator")
    assert i > 0
    combo.setCurrentIndex(i)
    combo.activated.emit(i)
    ed = dialog.editors
    assert ed["id"].text() == "asus-proart-b550-creator-copy" and ed["name"].text().endswith("(copy)")
    assert ed["socket"].text() == "AM4" and "PCIEX16" in ed["pcie_slots"].text()
    ed["price_cny"].setText("1999")
    dialog.try_accept()
    assert dialog.created is not None, dialog.errors.text()
    original = services.parts.get("asus-proart-b550-creator")
    assert dialog.created.custom and dialog.created.pcie_slots == original.pcie_slots
    assert dialog.created.price_cny == 1999


def test_lazy_model_shows_the_right_rows_after_search_and_sort(qtbot, services, settings) -> None:  # type: ignore[no-untyped-def]
    """Queries off the GUI thread (as over a large table): after a search and a sort the table holds
    exactly the matching parts, in the order Python gives, fetched a page at a time."""
    from configurator.core.search import parse_search, term_matches
    from configurator.store.catalogue import specs_of
    from configurator.ui.parts import PartsBrowser
    from configurator.ui.parts.model import PartsTableModel
    from configurator.ui.tasks import TaskRunner

    tasks = TaskRunner()
    browser = PartsBrowser(services.parts, settings, tasks=tasks)
    qtbot.addWidget(browser)
    model: PartsTableModel = browser.model
    model.background_over = 0  # every query runs as a large table's does
    model.page_size = 3
    try:
        browser.categories.setCurrentRow(1 + CATEGORIES.index("gpu"))
        browser.search.setText("24")
        assert browser.busy
        qtbot.waitUntil(lambda: not browser.busy, timeout=5000)
        col = model.column_names.index("fp32_tflops")
        browser.table.sortByColumn(col, Qt.SortOrder.DescendingOrder)
        qtbot.waitUntil(lambda: not browser.busy, timeout=5000)
        # Fetched a page at a time, not all at once (the view may fetch more pages to fill itself:
        # Qt 6.11's table does so before it is shown, earlier ones did not).
        assert model.total > model.page_size
        assert model.pages_fetched >= -(-model.rowCount() // model.page_size)
        while model.canFetchMore():
            model.fetchMore()
        gpus = services.parts.list_parts("gpu")
        term = parse_search("24")[0]
        expected = sorted((p for p in gpus if term_matches(term, {"name": p.name}, specs_of(p))),
                          key=lambda p: (p.fp32_tflops, p.id), reverse=True)
        assert [model.part_at(r).id for r in range(model.rowCount())] == [p.id for p in expected]  # type: ignore[union-attr]
        assert all(p.vram_gb == 24 or "24" in p.name for p in expected)
        # A part selected before a search stays selected when it still matches.
        assert browser.select_part("nvidia-rtx-3090")
        browser.search.setText("24 nvlink")
        qtbot.waitUntil(lambda: not browser.busy, timeout=5000)
        names = {model.part_at(r).name for r in range(model.rowCount())}  # type: ignore[union-attr]
        assert names == {"NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 3090 Ti", "NVIDIA RTX A5000"}
        assert browser.detail.part is not None and browser.detail.part.id == "nvidia-rtx-3090"
    finally:
        tasks.wait()


def test_a_gpu_shows_its_published_measurements(window: MainWindow) -> None:
    from configurator.core import measurements as ms

    browser = window.parts_browser
    browser.ensure_loaded()
    assert browser.select_part("nvidia-rtx-4090")
    shown = browser.detail.measurements
    rows = ms.for_gpu(ms.load(), "nvidia-rtx-4090")
    assert not shown.isHidden() and shown.rows == rows and len(rows) >= 5
    text = shown.label.text()
    first = rows[0]
    # whole numbers from 100 up, three significant digits below (a diffusion row's 0.6 s/image keeps its digits)
    figure = f"{first.value:,.0f}" if first.value >= 100 else f"{first.value:,.3g}"
    assert "Published measurements" in text and first.model in text and f"{figure} {first.unit}" in text
    assert f"href='{first.source_url}'" in text and str(first.source_date) in text
    assert browser.select_part("amd-ryzen-9-5950x")
    assert shown.isHidden()
