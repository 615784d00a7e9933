"""The Benchmark tab's numbers a user can believe: busy machine, unstable results, stored runs
(also after a restart), CPU results compared with CPU figures only. Real child processes run the
torch-free fault worker."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timedelta

import psutil
import pytest
from PySide6.QtCore import QSettings

from configurator.bench.results import RowResult, RunRecord
from configurator.core.i18n import Message
from configurator.store.bench_results import BenchResultsRepository
from configurator.ui.bench import BenchmarkTab, QtSuiteRunner
from configurator.ui.main_window import MainWindow
from configurator.ui.tasks import TaskRunner

FAULT = "tests.support.fault_worker"
HOG = "import time\nend = time.monotonic() + 60\nwhile time.monotonic() < end: pass\n"


def bench_tab(window: MainWindow) -> BenchmarkTab:
    tab = window.tab(BenchmarkTab)
    assert isinstance(tab, BenchmarkTab)
    tab.worker_module = FAULT
    return tab


def run(qtbot, tab: BenchmarkTab, jobs: list[str], overrides=None, cancel_on: str | None = None):  # type: ignore[no-untyped-def]
    if cancel_on is not None:
        def maybe_cancel(ev) -> None:  # type: ignore[no-untyped-def]
            if ev.kind == "progress" and ev.job == cancel_on:
                tab.cancel()
        tab.runner.job_event.connect(maybe_cancel)
    before = tab.panel.saved_run_id
    with qtbot.waitSignal(tab.runner.finished, timeout=30000):
        assert tab.start(jobs=jobs, overrides=overrides or {})
    qtbot.waitUntil(lambda: tab.panel.saved_run_id not in (None, before), timeout=10000)
    if cancel_on is not None:
        tab.runner.job_event.disconnect(maybe_cancel)


def cells(tab: BenchmarkTab, row: int) -> list[str]:
    return [tab.panel.table.item(row, c).text() for c in range(tab.panel.table.columnCount())]


def test_an_unstable_result_is_marked_and_not_compared(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = bench_tab(window)
    run(qtbot, tab, ["noisy"], {"noisy": {"median": 100.0, "iqr": 30.0}})
    run(qtbot, tab, ["noisy"], {"noisy": {"median": 100.0, "iqr": 30.0}})  # an earlier run to compare with
    status, value, *_rest = cells(tab, 0)[1:]
    assert status.startswith("⚠ unstable") and value == "≈ 100 img/s"
    assert "30 % of the median, more than 10 %" in tab.panel.table.item(0, 1).toolTip()
    assert cells(tab, 0)[4:7] == ["not compared"] * 3  # earlier runs, the guides' figure, the estimate
    assert cells(tab, 0)[7:] == ["n/a", "n/a"]  # peak memory and energy: a CPU run measures neither here
    assert "30 % of the median" in tab.panel.table.item(0, 4).toolTip()
    assert tab.panel.notes.isVisible() and "more than 10 % of the median" in tab.panel.notes.text()

    run(qtbot, tab, ["noisy"], {"noisy": {"median": 100.0, "iqr": 5.0}})  # a steady one: a fact, compared
    assert "unstable" not in cells(tab, 0)[1] and cells(tab, 0)[2] == "100 img/s"  # (busy: this machine may be)
    assert cells(tab, 0)[4].startswith("+0 % vs 100 (median of 2)")
    assert "median" not in tab.panel.notes.text()


def test_a_value_that_cannot_be_true_is_not_measured_with_its_reason(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = bench_tab(window)
    run(qtbot, tab, ["noisy"], {"noisy": {"median": 7.46, "iqr": 44.8}})  # spread six times the median
    status, value, spread, *compared = cells(tab, 0)[1:7]
    assert status == "⚠ not measured" and value == "not measured" and spread == "—"
    assert compared == ["—"] * 3
    tip = tab.panel.table.item(0, 2).toolTip()
    assert "more than their median" in tip and "configurator bench --only noisy" in tip
    log = tab.panel.log.toPlainText()
    assert "not measured — a measurement problem" in log and "✓" not in log
    assert tab.panel.record is not None and tab.panel.record.to_json()["results"][0]["value"] is None


def test_a_busy_machine_is_said_beside_the_result_and_kept_when_stored(qtbot, window: MainWindow,  # type: ignore[no-untyped-def]
                                                                       services) -> None:
    tab = bench_tab(window)
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(psutil.cpu_count() or 1)]
    try:
        run(qtbot, tab, ["spin"], {"spin": {"seconds": 0.5}})
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    status = tab.panel.table.item(0, 1)
    assert status.text() == "⚠ busy"
    assert "before: other processes used" in status.toolTip() and "during: other processes used" in status.toolTip()
    notes = tab.panel.notes.text()
    assert tab.panel.notes.isVisible() and "more than 10 % of the CPU" in notes and "more than 10 % busy" in notes
    stored = BenchResultsRepository(services.store).get(tab.panel.saved_run_id)
    assert stored is not None and stored.rows[0].load == tab.record.rows[0].load
    assert stored.rows[0].busy()


def test_a_cancelled_run_is_no_earlier_run(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = bench_tab(window)
    run(qtbot, tab, ["ok", "slow"], {"ok": {"batch": 10}}, cancel_on="slow")
    assert tab.record.status == "cancelled" and tab.record.rows[0].status == "ok"
    run(qtbot, tab, ["ok"], {"ok": {"batch": 30}})
    assert cells(tab, 0)[4] == ""
    assert "No earlier runs on this machine to compare with." in tab.panel.history_label.text()


def test_stored_runs_are_listed_and_open_after_a_restart(qtbot, window: MainWindow, services,  # type: ignore[no-untyped-def]
                                                         tmp_path) -> None:
    tab = bench_tab(window)
    run(qtbot, tab, ["ok"], {"ok": {"batch": 10}})
    first = tab.panel.saved_run_id
    run(qtbot, tab, ["ok"], {"ok": {"batch": 30}})
    combo = tab.panel.runs.combo
    assert combo.count() == 2 and combo.itemData(0) == tab.panel.saved_run_id
    assert combo.itemText(0).startswith(f"Run {tab.panel.saved_run_id} · ") and "Quick on CPU · finished" in \
        combo.itemText(0)

    # The app again, on the same database: the newest run is shown, not "No run yet".
    tasks, runner = TaskRunner(), QtSuiteRunner()
    again = BenchmarkTab(runner, tasks, QSettings(str(tmp_path / "again.ini"), QSettings.Format.IniFormat),
                         BenchResultsRepository(services.store), discover_fn=lambda: [])
    qtbot.addWidget(again)
    try:
        assert "No run yet" not in again.status.text()
        assert again.status.text().startswith(f"Showing run {tab.panel.saved_run_id} of ")
        assert again.panel.table.item(0, 2).text() == "30.0 img/s"
        assert again.panel.table.item(0, 4).text().startswith("+200 % vs 10.0 (median of 1)")
        assert again.panel.runs.combo.count() == 2
        again.panel.runs.combo.activated.emit(1)  # the user picks the older run
        assert again.record is not None and again.record.run_id == first
        assert again.panel.table.item(0, 2).text() == "10.0 img/s" and again.panel.table.item(0, 4).text() == ""
        assert again.panel.export_json_button.isEnabled()
    finally:
        runner.shutdown()
        tasks.wait()


def cpu_run(repo: BenchResultsRepository) -> int:
    fp = {"cpu": "Intel(R) Core(TM) i5-10400F CPU @ 2.90GHz", "cpu_mhz": 2900.0, "cpu_logical": 12,
          "cpu_physical": 6, "cpu_usable": 12, "ram_gib": 31.3, "gpus": [], "torch": "2.5.1",
          "cpu_capability": "AVX2"}
    start = datetime.now() - timedelta(minutes=5)
    rec = RunRecord("quick", "cpu", sys.executable, start, resolved_device="cpu", finished_at=start
                    + timedelta(minutes=2), status="finished", fingerprint=fp, machine="cpu-box", rows=[
                        RowResult("resnet50-train", "resnet50", "ok", 2.3, "img/s", 2.3, 0.05,
                                  {"device": "cpu", "amp": False, "batch": 8, "image": 224}),
                        RowResult("matmul-tf32", "matmul", "skipped", error=Message(
                            "bench", "TF32 is a Tensor Core format of NVIDIA GPUs"))])
    return repo.save(rec)


def test_a_cpu_result_is_compared_with_cpu_figures_never_a_gpus(qtbot, window: MainWindow, services) -> None:  # type: ignore[no-untyped-def]
    tab = bench_tab(window)
    run_id = cpu_run(BenchResultsRepository(services.store))
    tab.load_runs()
    assert tab.open_run(run_id)
    ref = tab.panel.table.item(0, 5)
    assert ref.text() == "none for a CPU" and "230" not in ref.text()
    assert "REF-1: 230 img/s, RTX 3090, FP32" in ref.toolTip()
    planner = tab.panel.table.item(0, 6)
    assert planner.text().startswith("measured 2.30 img/s against ") and "estimated" in planner.text()
    assert "Planner estimate for" in planner.toolTip()


@pytest.mark.parametrize("lang", ["zh_CN"])
def test_the_table_speaks_chinese(qtbot, window: MainWindow, services, lang: str) -> None:  # type: ignore[no-untyped-def]
    tab = bench_tab(window)
    run_id = cpu_run(BenchResultsRepository(services.store))
    tab.load_runs()
    tab.open_run(run_id)
    window.set_language(lang)
    text = " ".join(cells(tab, 0) + cells(tab, 1)) + tab.status.text() + tab.panel.runs.combo.itemText(0)
    assert "img/s" not in text and "none for a CPU" not in text and "Showing run" not in text
    assert "张/秒" in text and "TF32 是 NVIDIA GPU Tensor Core 的数据格式" in text  # a stored reason, translated
