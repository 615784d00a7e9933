"""The Benchmark tab and its QProcess runner, with real child processes."""

from __future__ import annotations

import contextlib
import csv
import json
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QProcess, QSettings, Qt

from configurator.bench import interpreters, suites
from configurator.bench.interpreters import Probe
from configurator.bench.runner import Event, SuiteSession
from configurator.core.i18n import Message
from configurator.store.bench_results import BenchResultsRepository
from configurator.store.repository import BuildsRepository
from configurator.ui.bench import BenchmarkTab, QtSuiteRunner
from configurator.ui.tasks import TaskRunner

FAULT = "tests.support.fault_worker"


def probe_of(path: str | Path, torch: str | None = "2.14.1+cu128", cuda: str | None = "12.8",
             python: str = "3.11.9", error: str | None = None) -> Probe:
    return Probe(str(path), python=python, executable=str(path), prefix=str(path) + "-env", platform="linux",
                 torch=torch, cuda=cuda if torch else None, torchvision=True,
                 error=Message("bench", error) if error else None)


@pytest.fixture(autouse=True)
def no_real_search(monkeypatch):  # type: ignore[no-untyped-def]
    """The tab looks for interpreters when shown; here it finds this one only (with torch)."""
    monkeypatch.setattr(interpreters, "discover", lambda **kw: [probe_of(sys.executable)])


def fault_session(jobs: list[str], **kw) -> SuiteSession:  # type: ignore[no-untyped-def]
    kw.setdefault("timeout_s", 20.0)
    kw.setdefault("settle_s", 0.0)  # no pause before each job: these tests are about faults
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


def test_qprocess_runner_cancel_in_the_pause_before_a_child(qtbot, runner: QtSuiteRunner) -> None:  # type: ignore[no-untyped-def]
    """Each workload waits a moment first (how busy the machine is, before it, is measured then)."""
    from PySide6.QtCore import QTimer

    s = fault_session(["ok", "ok"], settle_s=30.0)
    QTimer.singleShot(300, runner.cancel)
    with qtbot.waitSignal(runner.finished, timeout=10000) as blocker:
        runner.start(s)
    rec = blocker.args[0]
    assert rec.status == "cancelled" and [r.status for r in rec.rows] == ["cancelled"]
    assert runner.proc is None and rec.duration_s is not None and rec.duration_s < 5


def test_qprocess_runner_records_the_load_around_a_child(qtbot, runner: QtSuiteRunner) -> None:  # type: ignore[no-untyped-def]
    rec, _ = run_to_end(qtbot, runner, fault_session(["spin"], settle_s=0.5, overrides={"spin": {"seconds": 0.3}}))
    load = rec.rows[0].load
    assert load is not None and load["before"]["seconds"] >= 0.45 and load["during"]["seconds"] >= 0.3
    assert load["before"]["cpu_percent"] is not None and load["during"]["cpu_percent"] is not None


def test_shutdown_kills_a_running_child(qtbot, runner: QtSuiteRunner) -> None:  # type: ignore[no-untyped-def]
    runner.start(fault_session(["hang"]))
    qtbot.waitUntil(lambda: runner.proc is not None and runner.proc.state() == QProcess.ProcessState.Running)
    proc = runner.proc
    with qtbot.waitSignal(runner.finished, timeout=10000):
        runner.shutdown()
    assert proc is not None and not runner.is_running()
    assert runner.session is not None and runner.session.record.status == "cancelled"


def _tree_catcher(runner: QtSuiteRunner) -> list:  # type: ignore[type-arg]
    """psutil processes for the pids the worker logs, taken while they run."""
    import psutil

    procs: list = []  # type: ignore[type-arg]

    def on_event(ev: Event) -> None:
        if ev.kind == "log" and ev.message is not None and "pids" in ev.message.params:
            procs.extend(psutil.Process(pid) for pid in ev.message.params["pids"])

    runner.job_event.connect(on_event)
    return procs


def _left_running(procs: list) -> list[int]:  # type: ignore[type-arg]
    import psutil

    _gone, alive = psutil.wait_procs(procs, timeout=3)
    out = []
    for p in alive:
        try:
            if p.status() != psutil.STATUS_ZOMBIE:
                out.append(p.pid)
        except psutil.NoSuchProcess:
            pass
    return out


@pytest.mark.parametrize("how", ["timeout", "cancel", "finished"])
def test_qprocess_runner_ends_the_whole_tree(qtbot, runner: QtSuiteRunner, how: str) -> None:  # type: ignore[no-untyped-def]
    """Grandchildren in the child's session and in one of their own, holding its stdout; a torchrun-like
    tree for cancel; what a finished job left running. Nothing survives and nothing waits on the pipes."""
    import time

    job = {"timeout": "orphans", "cancel": "tree", "finished": "leaky"}[how]
    s = fault_session([job], timeout_s=2.0 if how == "timeout" else 20.0)
    procs = _tree_catcher(runner)
    if how == "cancel":
        runner.job_event.connect(lambda ev: runner.cancel() if ev.kind == "log" else None)
    start = time.monotonic()
    rec, _events = run_to_end(qtbot, runner, s, timeout=15000)
    took = time.monotonic() - start
    try:
        assert rec.rows[0].status == {"timeout": "timeout", "cancel": "cancelled", "finished": "ok"}[how]
        assert took < 6, f"{how} took {took:.1f} s"
        assert len(procs) == (5 if job == "tree" else 3)
        assert _left_running(procs) == []
    finally:
        for p in procs:
            with contextlib.suppress(Exception):
                p.kill()


def bench_tab(window) -> BenchmarkTab:  # type: ignore[no-untyped-def]
    tab = next(w for w, _ in window.extra_tabs if isinstance(w, BenchmarkTab))
    window.tabs.setCurrentWidget(tab)
    return tab


def test_tab_empty_state_and_title(window) -> None:  # type: ignore[no-untyped-def]
    tab = bench_tab(window)
    assert window.tabs.tabText(window.tabs.indexOf(tab)) == "Benchmark"
    assert "No run yet" in tab.status.text()
    assert tab.controls.run_button.isEnabled() and not tab.controls.cancel_button.isEnabled()
    assert not tab.panel.export_json_button.isEnabled()
    assert tab.picker.python_path() == sys.executable


def test_tab_runs_stores_compares_and_exports(qtbot, window, services, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tab = bench_tab(window)
    tab.worker_module = FAULT
    build_id = BuildsRepository(services.store).save("我的机器", {"parts": []})
    tab.controls.refresh_builds()
    tab.controls.build_combo.setCurrentIndex(tab.controls.build_combo.findData(build_id))
    repo = BenchResultsRepository(services.store)
    for batch in (10, 30):  # two runs: the second is compared with the first
        with qtbot.waitSignal(tab.runner.finished, timeout=20000):
            assert tab.start(jobs=["ok", "crash"], overrides={"ok": {"batch": batch}})
            assert tab.controls.cancel_button.isEnabled() and not tab.controls.run_button.isEnabled()
        qtbot.waitUntil(lambda: tab.panel.saved_run_id is not None, timeout=10000)
    assert tab.panel.table.rowCount() == 2
    assert tab.panel.table.item(0, 2).text() == "30.0 img/s"
    assert tab.panel.table.item(0, 4).text().startswith("+200 %")
    assert "crashed" in tab.panel.table.item(1, 2).text()
    assert "1 earlier runs" in tab.panel.history_label.text()
    assert "SIGSEGV" in tab.panel.log.toPlainText() or "crashed" in tab.panel.log.toPlainText()
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
    tab.panel.estimate_for = lambda fp, row: (40.0, "img/s", "test estimate") if row.name == "ok" else None
    with qtbot.waitSignal(tab.runner.finished, timeout=20000):
        tab.start(jobs=["ok"], overrides={"ok": {"batch": 36}})
    cell = tab.panel.table.item(0, 6)
    assert cell.text() == "measured 36.0 img/s against 40.0 img/s estimated, −10 %"
    assert cell.toolTip() == "test estimate"


def test_run_button_starts_the_whole_suite(qtbot, window, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The button's clicked(bool) must not arrive as ``jobs=False`` (it did: TypeError, no run)."""
    tab = bench_tab(window)
    started: list[object] = []
    monkeypatch.setattr(tab.runner, "start", started.append)
    qtbot.mouseClick(tab.controls.run_button, Qt.MouseButton.LeftButton)
    assert len(started) == 1 and tab.status.styleSheet() == ""  # no error shown
    session = started[0]
    assert isinstance(session, SuiteSession)
    assert session.jobs == list(suites.SUITE_JOBS[session.suite])


def test_tab_rejects_a_missing_interpreter(window) -> None:  # type: ignore[no-untyped-def]
    tab = bench_tab(window)
    tab.picker.set_python("/no/such/python")
    assert not tab.start()
    assert "No Python interpreter" in tab.status.text() and tab.status.styleSheet() != ""


def test_tab_real_worker_tiny_matmul(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    tab = bench_tab(window)
    tab.controls.device_combo.setCurrentIndex(tab.controls.device_combo.findData("cpu"))
    with qtbot.waitSignal(tab.runner.finished, timeout=60000) as blocker:
        tab.start(jobs=["matmul"], overrides={"matmul": {"shapes": [[64, 64, 64]], "dtypes": ["fp32"],
                                                         "min_time": 0.01, "min_reps": 3, "warmup": 1}})
    rec = blocker.args[0]
    row = rec.row("matmul-fp32")
    assert row.status == "ok" and row.unit == "TFLOPS" and row.value > 0
    assert rec.fingerprint["torch"] and rec.resolved_device == "cpu"
    qtbot.waitUntil(lambda: tab.panel.saved_run_id is not None, timeout=10000)


# -- choosing the interpreter -----------------------------------------------------------------------


@pytest.fixture
def make_tab(qtbot, qapp, tmp_path: Path):  # type: ignore[no-untyped-def]
    """A tab built on its own, with a fake search for interpreters."""
    made: list[tuple[BenchmarkTab, TaskRunner, QtSuiteRunner]] = []

    def make(found: list[Probe], settings: QSettings | None = None, probe_fn=None) -> BenchmarkTab:  # type: ignore[no-untyped-def]
        tasks, runner = TaskRunner(), QtSuiteRunner(grace_s=0.5)
        settings = settings or QSettings(str(tmp_path / "tab.ini"), QSettings.Format.IniFormat)
        tab = BenchmarkTab(runner, tasks, settings, discover_fn=lambda: list(found),
                           probe_fn=probe_fn or (lambda path: probe_of(path, torch=None)))
        qtbot.addWidget(tab)
        made.append((tab, tasks, runner))
        return tab

    yield make
    for _tab, tasks, runner in made:
        runner.shutdown()
        tasks.wait()


def interpreter(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name / "bin" / "python3"
    path.parent.mkdir(parents=True)
    path.write_text("#!/bin/sh\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def shown(qtbot, tab: BenchmarkTab) -> BenchmarkTab:  # type: ignore[no-untyped-def]
    assert not tab.picker.discovered and not tab.picker.discovering  # nothing is searched before the tab is shown
    tab.show()
    qtbot.waitUntil(lambda: tab.picker.discovered, timeout=5000)
    return tab


def test_discovery_fills_the_combo_when_first_shown(qtbot, make_tab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    torch_py, plain_py = interpreter(tmp_path, "torch"), interpreter(tmp_path, "plain")
    found = [probe_of(sys.executable), probe_of(torch_py, torch="2.3.1", cuda=None),
             probe_of(plain_py, torch=None), probe_of("/old/python2", python="2.7.18", error="too old")]
    tab = shown(qtbot, make_tab(found))
    combo = tab.picker.combo
    assert combo.objectName() == "benchPython" and combo.isEditable()
    assert [combo.itemData(i) for i in range(combo.count())] == [p.path for p in found]
    assert combo.itemText(0) == f"Python 3.11.9 · torch 2.14.1 (CUDA 12.8) — {sys.executable}"
    assert combo.itemText(1) == f"Python 3.11.9 · torch 2.3.1 (CPU only) — {torch_py}"
    assert combo.itemText(2) == f"Python 3.11.9 · no PyTorch — {plain_py}"
    assert combo.itemText(3) == "too old — /old/python2"
    assert not combo.model().item(3).isEnabled() and combo.model().item(2).isEnabled()
    assert tab.picker.python_path() == sys.executable  # not frozen: this interpreter, as before
    assert combo.currentText() == combo.itemText(0)
    assert tab.picker.refresh.isEnabled() and tab.picker.refresh.text() == "Refresh"
    assert "No run yet" in tab.status.text()

    found.append(probe_of(interpreter(tmp_path, "new")))  # Refresh looks again
    tab.picker.search()
    assert not tab.picker.refresh.isEnabled()
    qtbot.waitUntil(lambda: not tab.picker.discovering and combo.count() == 5, timeout=5000)
    assert tab.picker.python_path() == sys.executable


def test_saved_setting_is_preselected(qtbot, make_tab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    a, b = interpreter(tmp_path, "a"), interpreter(tmp_path, "b")
    settings = QSettings(str(tmp_path / "saved.ini"), QSettings.Format.IniFormat)
    settings.setValue("bench/python", str(b))
    tab = make_tab([probe_of(a, torch="2.14.1"), probe_of(b, torch="2.3.0")], settings)
    assert tab.picker.python_path() == str(b)  # before the search too
    shown(qtbot, tab)
    assert tab.picker.python_path() == str(b) and tab.picker.combo.currentIndex() == 1
    assert tab.picker.combo.currentText().startswith("Python 3.11.9 · torch 2.3.0")


def test_saved_interpreter_not_found_by_the_search_is_kept_and_probed(qtbot, make_tab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    mine = interpreter(tmp_path, "mine")
    settings = QSettings(str(tmp_path / "saved.ini"), QSettings.Format.IniFormat)
    settings.setValue("bench/python", str(mine))
    tab = shown(qtbot, make_tab([probe_of(sys.executable)], settings,
                                probe_fn=lambda path: probe_of(path, torch="2.5.0", cuda="12.4")))
    qtbot.waitUntil(lambda: tab.picker.known_probe(str(mine)) is not None, timeout=5000)
    assert tab.picker.python_path() == str(mine)
    assert tab.picker.combo.currentText() == f"Python 3.11.9 · torch 2.5.0 (CUDA 12.4) — {mine}"


def test_interpreter_without_torch_is_refused_with_the_pip_command(qtbot, make_tab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plain = interpreter(tmp_path, "plain")
    tab = shown(qtbot, make_tab([probe_of(sys.executable), probe_of(plain, torch=None)]))
    tab.picker.combo.setCurrentIndex(1)  # chosen: the status says so before anything runs
    expected = (f"There is no PyTorch in {plain}. Install it with “{plain} -m pip install torch torchvision”")
    assert tab.status.text().startswith(expected) and "cf222e" in tab.status.styleSheet()
    assert not tab.start()
    assert tab.status.text().startswith(expected) and "cf222e" in tab.status.styleSheet()
    assert not tab.runner.is_running()
    tab.picker.combo.setCurrentIndex(0)  # back to one with torch: the note goes
    assert "No run yet" in tab.status.text() and tab.status.styleSheet() == ""


def test_browsed_or_typed_path_is_probed(qtbot, make_tab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    typed = interpreter(tmp_path, "typed")
    tab = shown(qtbot, make_tab([probe_of(sys.executable)]))
    tab.picker.combo.setEditText(str(typed))
    assert tab.picker.python_path() == str(typed)
    tab.picker.combo.lineEdit().editingFinished.emit()  # what Return or leaving the field does
    qtbot.waitUntil(lambda: tab.picker.known_probe(str(typed)) is not None, timeout=5000)
    assert tab.picker.combo.currentText() == f"Python 3.11.9 · no PyTorch — {typed}"
    assert tab.picker.python_path() == str(typed) and "There is no PyTorch" in tab.status.text()
    assert tab.picker.combo.count() == 2


def test_frozen_default_is_the_first_with_torch(qtbot, make_tab, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    plain, good = interpreter(tmp_path, "plain"), interpreter(tmp_path, "conda-torch")
    tab = make_tab([probe_of(good, torch="2.14.1"), probe_of(plain, torch=None)])
    assert tab.picker.python_path() == ""  # the app itself is no choice
    shown(qtbot, tab)
    assert tab.picker.python_path() == str(good)


def test_frozen_without_any_torch_says_so(qtbot, make_tab, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    plain = interpreter(tmp_path, "plain")
    tab = shown(qtbot, make_tab([probe_of(plain, torch=None)]))
    assert tab.picker.python_path() == "" and tab.picker.combo.count() == 1
    message = "No Python with PyTorch found; pick one with “…”."
    assert tab.status.text() == message
    assert not tab.start() and tab.status.text() == message and tab.status.styleSheet() != ""
