"""The Benchmark tab and its QProcess runner, with real child processes."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from PySide6.QtCore import QProcess

from configurator.bench.runner import SuiteSession
from configurator.store.bench_results import BenchResultsRepository
from configurator.store.repository import BuildsRepository
from configurator.ui.bench import BenchmarkTab, QtSuiteRunner

FAULT = "configurator.bench.fault_worker"


def fault_session(jobs: list[str], **kw) -> SuiteSession:  # type: ignore[no-untyped-def]
    kw.setdefault("timeout_s", 20.0)
    return SuiteSession("quick", "cpu", jobs, worker_module=FAULT, fingerprint=False, **kw)


@pytest.fixture
def runner(qapp):  # type: ignore[no-untyped-def]
    r = QtSuiteRunner(grace_s=0.5)
    yield r
    r.shutdown()


def run_to_end(qtbot, runner: QtSuiteRunner, session: SuiteSession, timeout: int = 20000):  # type: ignore[no-untyped-def]
    events = []
    runner.job_event.connect(events.append)
    with qtbot.waitSignal(runner.finished, timeout=timeout) as blocker:
        runner.start(session)
    return blocker.args[0], events


def test_qprocess_runner_handles_every_fault_once(qtbot, runner: QtSuiteRunner) -> None:  # type: ignore[no-untyped-def]
    s = fault_session(["crash", "garbage", "exit", "ok"], overrides={"ok": {"batch": 3}})
    rec, events = run_to_end(qtbot, runner, s)
    status = {r.name: (r.status, r.error_text() or "") for r in rec.rows}
    assert status["crash"][0] == "failed" and "crashed" in status["crash"][1]
    assert status["garbage"][0] == "failed" and "not understood" in status["garbage"][1]
    assert status["exit"][0] == "failed" and "exit code 7" in status["exit"][1]
    assert status["ok"] == ("ok", "")
    # every job ended exactly once, although a crash emits both errorOccurred and finished
    assert [e.job for e in events if e.kind == "job_finished"] == ["crash", "garbage", "exit", "ok"]
    assert rec.status == "finished" and not runner.is_running()


def test_qprocess_runner_timeout_oom_and_failed_start(qtbot, runner: QtSuiteRunner) -> None:  # type: ignore[no-untyped-def]
    s = fault_session(["stubborn", "oom"], timeout_s=1.0, overrides={"oom": {"batch": 16, "fits": 4}})
    rec, _ = run_to_end(qtbot, runner, s)
    assert rec.row("stubborn").status == "timeout"
    oom = rec.row("oom")
    assert oom.status == "ok" and oom.value == 4.0 and oom.details["oom_retries"] == 2

    s = fault_session(["ok"], python="/nonexistent/python3")
    rec, events = run_to_end(qtbot, runner, s)
    assert rec.rows[0].status == "failed" and "could not start" in (rec.rows[0].error_text() or "")
    assert [e.kind for e in events].count("job_finished") == 1


def test_qprocess_runner_cancel(qtbot, runner: QtSuiteRunner) -> None:  # type: ignore[no-untyped-def]
    s = fault_session(["slow", "ok"])
    runner.job_event.connect(lambda ev: runner.cancel() if ev.kind == "progress" else None)
    with qtbot.waitSignal(runner.finished, timeout=15000) as blocker:
        runner.start(s)
    rec = blocker.args[0]
    assert rec.status == "cancelled"
    assert [(r.name, r.status) for r in rec.rows] == [("slow", "cancelled"), ("ok", "cancelled")]
    assert runner.proc is None


def test_shutdown_kills_a_running_child(qtbot, runner: QtSuiteRunner) -> None:  # type: ignore[no-untyped-def]
    runner.start(fault_session(["hang"]))
    qtbot.waitUntil(lambda: runner.proc is not None and runner.proc.state() == QProcess.ProcessState.Running)
    proc = runner.proc
    with qtbot.waitSignal(runner.finished, timeout=10000):
        runner.shutdown()
    assert proc is not None and not runner.is_running()
    assert runner.session is not None and runner.session.record.status == "cancelled"


def bench_tab(window) -> BenchmarkTab:  # type: ignore[no-untyped-def]
    tab = next(w for w, _ in window.extra_tabs if isinstance(w, BenchmarkTab))
    window.tabs.setCurrentWidget(tab)
    return tab


def test_tab_empty_state_and_title(window) -> None:  # type: ignore[no-untyped-def]
    tab = bench_tab(window)
    assert window.tabs.tabText(window.tabs.indexOf(tab)) == "Benchmark"
    assert "No run yet" in tab.status.text()
    assert tab.run_button.isEnabled() and not tab.cancel_button.isEnabled()
    assert not tab.export_json_button.isEnabled()
    assert tab.python_edit.text()


def test_tab_runs_stores_compares_and_exports(qtbot, window, services, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tab = bench_tab(window)
    tab.worker_module = FAULT
    build_id = BuildsRepository(services.store).save("我的机器", {"parts": []})
    tab._refresh_builds()
    tab.build_combo.setCurrentIndex(tab.build_combo.findData(build_id))
    repo = BenchResultsRepository(services.store)
    for batch in (10, 30):  # two runs: the second is compared with the first
        with qtbot.waitSignal(tab.runner.finished, timeout=20000):
            assert tab.start(jobs=["ok", "crash"], overrides={"ok": {"batch": batch}})
            assert tab.cancel_button.isEnabled() and not tab.run_button.isEnabled()
        qtbot.waitUntil(lambda: tab.saved_run_id is not None, timeout=10000)
    assert tab.table.rowCount() == 2
    assert tab.table.item(0, 2).text() == "30.0 img/s"
    assert tab.table.item(0, 4).text().startswith("+200 %")
    assert "crashed" in tab.table.item(1, 2).text()
    assert "1 earlier runs" in tab.history_label.text()
    assert "SIGSEGV" in tab.log.toPlainText() or "crashed" in tab.log.toPlainText()
    runs = repo.runs()
    assert len(runs) == 2 and runs[0].build_id == build_id and runs[0].results == 2
    assert [p.value for p in repo.history(runs[0].machine, "ok")] == [10.0, 30.0]

    out_json = tmp_path / "导出" / "结果.json"
    out_csv = tmp_path / "导出" / "结果.csv"
    tab.export(out_json, "json")
    tab.export(out_csv, "csv")
    qtbot.waitUntil(lambda: out_json.exists() and out_csv.exists(), timeout=5000)
    services.tasks.wait()
    doc = json.loads(out_json.read_text(encoding="utf-8"))
    assert doc["results"][0]["workload"] == "ok" and doc["results"][0]["settings"] == {"batch": 30}
    rows = list(csv.DictReader(out_csv.read_text(encoding="utf-8-sig").splitlines()))
    assert [r["workload"] for r in rows] == ["ok", "crash"] and rows[0]["value"] == "30.0"
    assert not list(out_json.parent.glob(".*.tmp"))


def test_tab_estimate_seam(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    tab = bench_tab(window)
    tab.worker_module = FAULT
    tab.estimate_for = lambda fp, row: (40.0, "img/s", "test estimate") if row.name == "ok" else None
    with qtbot.waitSignal(tab.runner.finished, timeout=20000):
        tab.start(jobs=["ok"], overrides={"ok": {"batch": 36}})
    cell = tab.table.item(0, 6)
    assert cell.text() == "measured 36.0 img/s against 40.0 img/s estimated, −10 %"
    assert cell.toolTip() == "test estimate"


def test_tab_rejects_a_missing_interpreter(window) -> None:  # type: ignore[no-untyped-def]
    tab = bench_tab(window)
    tab.python_edit.setText("/no/such/python")
    assert not tab.start()
    assert "No Python interpreter" in (tab.last_error or "")


def test_tab_real_worker_tiny_matmul(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    tab = bench_tab(window)
    tab.device_combo.setCurrentIndex(tab.device_combo.findData("cpu"))
    with qtbot.waitSignal(tab.runner.finished, timeout=60000) as blocker:
        tab.start(jobs=["matmul"], overrides={"matmul": {"shapes": [[64, 64, 64]], "dtypes": ["fp32"],
                                                         "min_time": 0.01, "min_reps": 3, "warmup": 1}})
    rec = blocker.args[0]
    row = rec.row("matmul-fp32")
    assert row.status == "ok" and row.unit == "TFLOPS" and row.value > 0
    assert rec.fingerprint["torch"] and rec.resolved_device == "cpu"
    qtbot.waitUntil(lambda: tab.saved_run_id is not None, timeout=10000)
