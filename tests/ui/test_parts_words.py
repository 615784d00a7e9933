"""The Parts tab and the custom-part dialog as a user reads them: choice values in words, not keys; a
template to fill with many parts, which File → Import reads back."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from PySide6.QtCore import Qt
from test_parts_browser import choose_category, visible_ids

from configurator.core.parts import CATEGORIES
from configurator.store.csvio import import_csv
from configurator.ui.custom_part_dialog import CustomPartDialog
from configurator.ui.main_window import MainWindow


def test_choice_values_and_flags_read_as_words_in_the_table_and_the_details(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    browser = window.parts_browser
    browser.reload(select_id="nvidia-rtx-3090")
    qtbot.waitUntil(lambda: browser.detail.part is not None and browser.detail.part.id == "nvidia-rtx-3090",
                    timeout=3000)
    text = browser.detail.body.text()
    for key in ("used_market", "open_air", ">pcie<", ">nvidia<"):
        assert key not in text, key
    assert "Used-market price" in text and "Open-air (axial fans)" in text and "PCIe card" in text
    choose_category(window, "storage")
    qtbot.waitUntil(lambda: bool(visible_ids(window)), timeout=3000)
    model = browser.proxy
    col = next(c for c in range(model.columnCount()) if model.headerData(c, Qt.Orientation.Horizontal) == "Kind")
    kinds = {model.index(r, col).data() for r in range(model.rowCount())}
    assert kinds <= {"Hard disk", "SATA SSD", "NVMe SSD"} and "NVMe SSD" in kinds


def test_the_dialogs_template_filled_in_one_row_imports_back(qtbot, services, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dialog = CustomPartDialog(services.parts, "gpu")
    qtbot.addWidget(dialog)
    for name in ("source", "brand", "architecture", "cooling", "nvlink", "price_date"):
        assert not dialog._labels[name].text().endswith("*"), name  # optional now
    assert dialog._labels["vram_gb"].text().endswith("*")
    path = dialog.save_template(tmp_path / "我的显卡.csv")
    assert path is not None and dialog.template_note.isVisibleTo(dialog)
    assert str(path) in dialog.template_note.text()
    header, marks, example = csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline=""))
    row = dict(zip(header, example, strict=True))
    required = {h for h, m in zip(header, marks, strict=True) if "required" in m}
    mine = {h: (row[h] if h in required else "") for h in header}
    mine.update(id="my-card-from-the-dialog", name="My card", price_cny="2,500")
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f).writerows([header, marks, [mine[h] for h in header]])
    result = import_csv(path, services.parts)
    assert result.added == ["my-card-from-the-dialog"]
    part = services.parts.get("my-card-from-the-dialog")
    assert part is not None and part.price_cny == 2500 and part.cooling == "open_air" and part.source == ""
    # Another category shown: its own template.
    dialog.category.setCurrentIndex(CATEGORIES.index("psu"))
    psu = dialog.save_template(tmp_path / "psu.csv")
    assert psu is not None and psu.read_text(encoding="utf-8-sig").startswith("id,category,name,price_cny,watts")
