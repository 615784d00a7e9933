"""Start-up: the window is painted first, the other tabs are built right after (or when opened)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QTimer

from configurator.app import Services, build_window
from configurator.ui.bench import BenchmarkTab
from configurator.ui.main_window import MainWindow, PendingTab
from configurator.ui.monitor import MonitorTab
from configurator.ui.planner.tab import PlannerTab


def test_deferred_tabs_are_built_after_the_first_paint(qtbot, services: Services) -> None:  # type: ignore[no-untyped-def]
    window = build_window(services, defer=True)
    qtbot.addWidget(window)
    planner = window.extra_tabs[0][0]
    assert isinstance(planner, PlannerTab)
    assert [type(w) for w, _t in window.extra_tabs[1:]] == [PendingTab, PendingTab]
    assert not window.parts_browser.loaded and planner.tiers == []  # nothing of that before the paint
    assert planner.rows["gpu"].combo.count() > 1  # but the planner's pickers have the parts
    with qtbot.waitSignal(window.first_painted, timeout=10000):
        window.show()
    # Nothing to chart yet (an empty build, the tiers not worked out): a hint, and no plot made for it.
    assert planner.chart is None and planner.results.chart_hint.isVisible()
    assert "workload" in planner.results.chart_hint.text()
    # The first check waits for the paint too: the verdict says the build is being checked, the bars have titles
    assert planner.report is None and "Checking the build" in planner.results.verdict.text()
    assert planner.results.bars["price"].label == "Price against budget"
    assert planner.form.model.currentData() == "resnet50"  # the form holds the empty build's workload already
    window.finish_startup()
    assert planner.report is not None and "Pick parts" in planner.results.verdict.text()
    assert planner.chart is not None and planner.chart.isVisible()  # the tiers' bars
    assert not planner.results.chart_hint.isVisible()
    kinds = [type(w) for w, _t in window.extra_tabs]
    assert kinds == [PlannerTab, MonitorTab, BenchmarkTab]
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == ["Planner", "Monitor", "Benchmark",
                                                                            "Parts"]
    assert window.tabs.currentIndex() == 0
    assert window.parts_browser.loaded and window.parts_browser.model.rowCount() > 100
    assert len(planner.tiers) == 5 and len(planner.presets_menu.actions()) == 5


def test_the_app_finishes_its_start_up_a_step_per_turn_of_the_event_loop(qtbot, services: Services) -> None:  # type: ignore[no-untyped-def]
    """Between the steps after the first paint (the first check, each tab, the parts, the tiers) the window answers
    input: an event posted after the first step is handled while tabs are still pending."""
    window = build_window(services, defer=True)
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.first_painted, timeout=10000):
        window.show()
    done: list[bool] = []
    seen: list[bool] = []
    window.finish_startup_stepwise(lambda: done.append(True))
    QTimer.singleShot(0, lambda: seen.append(window.pending()))  # posted once the first step has run
    planner = window.extra_tabs[0][0]
    assert isinstance(planner, PlannerTab) and planner.report is not None  # the first step: the first check
    qtbot.waitUntil(lambda: bool(done), timeout=20000)
    assert seen == [True]  # handled while the Monitor and Benchmark tabs still waited
    assert not window.pending() and window.parts_browser.loaded and len(planner.tiers) == 5


def test_a_tab_opened_before_it_was_built_is_built_then(qtbot, services: Services) -> None:  # type: ignore[no-untyped-def]
    window = build_window(services, defer=True)
    qtbot.addWidget(window)
    window.show()
    window.tabs.setCurrentIndex(2)  # the user clicks Benchmark at once
    widget, _title = window.extra_tabs[2]
    assert isinstance(widget, BenchmarkTab) and window.tabs.currentWidget() is widget
    assert isinstance(window.extra_tabs[1][0], PendingTab)  # the monitor still waits for finish_startup
    window.tabs.setCurrentWidget(window.parts_browser)
    assert window.parts_browser.loaded


def test_the_app_starts_paints_builds_every_tab_and_quits(tmp_path: Path) -> None:
    """The real entry point, as the package smoke test and the start-up benchmark run it."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "CONFIGURATOR_QUIT_WHEN_SHOWN": "loaded",
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_DATA_HOME": str(tmp_path / "data")}
    proc = subprocess.run([sys.executable, "-m", "configurator", "--db", str(tmp_path / "c.db"), "--fake-gpus", "2"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    log = next((tmp_path / "state").rglob("configurator.log")).read_text(encoding="utf-8")
    assert log.index("configurator.app: ready") < log.index("configurator.app: all tabs built")
    assert "Traceback" not in log and "ERROR" not in log


def test_the_eager_window_has_everything_built(window: MainWindow) -> None:
    """The eager window (what the other UI tests use) has every tab built and the parts loaded."""
    assert not any(isinstance(w, PendingTab) for w, _t in window.extra_tabs)
    assert window.parts_browser.loaded


FIRST_PAINT = """
import sys
from PySide6.QtWidgets import QApplication
from configurator.app import build_services, build_window
from configurator.cli.entry import build_parser
app = QApplication(sys.argv[:1])
services = build_services(build_parser().parse_args(["--db", sys.argv[1], "--lang", "en"]))
window = build_window(services, defer=True)
seen = []
window.first_painted.connect(lambda: (seen.extend(m for m in ("pyqtgraph", "numpy", "pydantic") if m in sys.modules),
                                      app.quit()))
window.show()
app.exec()
services.close()
print("loaded at the first paint:", seen)
"""


def test_the_first_paint_does_not_wait_for_pyqtgraph_numpy_or_pydantic(tmp_path: Path) -> None:
    """The first window (an empty build) has nothing to plot or fit: loading pyqtgraph and numpy
    (about 0.3 s of the start) waits until the tiers are worked out after the paint, and the first check (pydantic,
    which validates the workload, and the published rows: 0.1-0.2 s) until right after it."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_STATE_HOME": str(tmp_path / "state")}
    # the first start creates the database (its catalogue validated with pydantic); what is measured is a start
    # with the database there
    for _start in range(2):
        proc = subprocess.run([sys.executable, "-c", FIRST_PAINT, str(tmp_path / "c.db")], env=env,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr[-2000:]
    assert "loaded at the first paint: []" in proc.stdout
