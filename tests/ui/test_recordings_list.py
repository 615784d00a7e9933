"""The Monitor tab's recordings list: the index, a run report for a recording made with the fake NVML,
its PDF, and one clear message for a recording whose CSV was moved."""

from __future__ import annotations

from pathlib import Path

from fake_recording import record
from pypdf import PdfReader

from configurator.store.recordings import RecordingsRepository
from configurator.ui.main_window import MainWindow
from configurator.ui.monitor import MonitorTab


def monitor_tab(w: MainWindow) -> MonitorTab:
    return next(t for t, _title in w.extra_tabs if isinstance(t, MonitorTab))


def test_a_recording_opens_its_report_and_saves_it_as_pdf(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tab = monitor_tab(window)
    lst = tab.recordings_list
    assert tab.bottom.tabText(2) == "Recordings"
    lst.refresh()
    assert lst.empty.text().startswith("No recordings yet") and not lst.report_button.isEnabled()
    repo = RecordingsRepository(window.store)
    csv = record(tmp_path / "运行 run.csv", seconds=40)
    rid = repo.start(csv, "box", 1.0)
    repo.finish(rid, rows=40, gpus=1)
    lst.refresh()
    assert lst.table.rowCount() == 1 and lst.table.item(0, 1).text() == str(csv.resolve())
    assert lst.report_button.isEnabled()
    lst.report_button.click()
    qtbot.waitUntil(lambda: lst.dialog is not None and lst.dialog.isVisible(), timeout=10000)
    text = lst.dialog.text.toPlainText()
    assert "Training run report" in text and "运行 run.csv" in text and "GPU-6" in text and "busy" in text
    out = tmp_path / "报告.pdf"
    assert lst.save_pdf(lst.dialog.run, out)
    assert "Training run report" in " ".join(PdfReader(str(out)).pages[0].extract_text().split())
    assert str(out) in lst.status.text()
    # the electricity price: the report is costed at the one set above it, and the next report keeps it
    assert lst.dialog.tariff.value() == 0.6 and "× ¥0.6/kWh" in lst.dialog.text.toPlainText()
    lst.dialog.tariff.setValue(1.25)
    assert "× ¥1.25/kWh" in lst.dialog.text.toPlainText() and lst.dialog.run.tariff_cny_per_kwh == 1.25
    lst.dialog.close()
    lst.report_button.click()
    qtbot.waitUntil(lambda: lst.dialog is not None and lst.dialog.isVisible()
                    and lst.dialog.run.tariff_cny_per_kwh == 1.25, timeout=10000)
    assert lst.dialog.tariff.value() == 1.25 and "× ¥1.25/kWh" in lst.dialog.text.toPlainText()
    lst.dialog.close()


def test_a_moved_recording_gives_one_clear_message(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    lst = monitor_tab(window).recordings_list
    repo = RecordingsRepository(window.store)
    csv = record(tmp_path / "run.csv", seconds=5)
    repo.start(csv, "box", 1.0)
    csv.rename(tmp_path / "elsewhere.csv")
    lst.refresh()
    assert lst.table.item(0, 5).text() == "file missing"
    lst.open_report()
    assert lst.dialog is None
    message = lst.status.text()
    assert "no longer there" in message and str(csv.resolve()) in message and "\n" not in message
    # a CSV that is there but damaged: the report's own one-line message, after reading it off the GUI thread
    csv.write_text("not, a, recording\n", encoding="utf-8")
    lst.refresh()
    lst.save_pdf_dialog()
    qtbot.waitUntil(lambda: not lst.busy, timeout=10000)
    assert "not a monitor recording" in lst.status.text() and lst.dialog is None
