"""The Planner's Upgrade panel, driven as a user would: advice for a build with no evidence, an upgrade
applied as a new build (the old one kept, undo goes back), and "This machine" with a recording made by
the fake NVML, whose measured draw PWR-4 and BUD-3 then use."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from fake_recording import record

from configurator.core.build import build_to_dict, parse_build
from configurator.store.recordings import RecordingsRepository
from configurator.store.repository import BuildsRepository
from configurator.ui.main_window import MainWindow
from configurator.ui.planner.tab import PlannerTab

# The advisor checks every candidate as a whole build: a few GPUs, supplies and cases keep this fast.
OFFER = ("nvidia-rtx-4060-ti-16gb", "nvidia-rtx-4070", "nvidia-rtx-3090", "nvidia-rtx-4090",
         "seasonic-focus-gx-650", "corsair-rm750e-2023", "seasonic-focus-gx-850", "seasonic-prime-tx-1000")


def planner(window: MainWindow) -> PlannerTab:
    tab = window.tabs.widget(0)
    assert isinstance(tab, PlannerTab)
    return tab


def entry(tab: PlannerTab):  # type: ignore[no-untyped-def]
    return next(p for p in tab.tiers if p.tier.id == "TIER-entry").build


def small_catalogue(tab: PlannerTab) -> None:
    keep = {p.id for p in entry(tab).parts} | set(OFFER)
    small = {k: v for k, v in tab.catalogue.items() if k in keep}
    tab.upgrade.catalogue = lambda: small


def find(qtbot, tab: PlannerTab) -> None:  # type: ignore[no-untyped-def]
    panel = tab.upgrade
    tab.side.setCurrentWidget(panel)
    panel.find_button.click()
    qtbot.waitUntil(lambda: panel.outcome is not None and not panel.busy, timeout=20000)


def test_a_build_with_no_evidence_gets_upgrades_and_one_applies_as_a_new_build(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    small_catalogue(tab)
    builds = BuildsRepository(window.store)
    saved_id = builds.save("Lab box", build_to_dict(replace(entry(tab), name="Lab box")))
    assert tab.open_saved(saved_id)
    panel = tab.upgrade
    assert panel.build_combo.currentData() is None  # no "This machine" saved: the planner's build
    assert panel.recording_combo.currentData() is None  # no recording: from the plan alone
    find(qtbot, tab)
    assert "plan alone" in panel.limit.text() and "FIT-1" in panel.limit.text()
    assert panel.table.rowCount() >= 2
    for row in range(panel.table.rowCount()):
        assert panel.table.item(row, 0).text()  # what to buy
        assert panel.table.item(row, 2).text().endswith("%")  # gain
        assert panel.table.item(row, 4).text().startswith("¥")  # price
    assert "UPG-1, long term" in panel.guide.toPlainText()

    assert not panel.apply_button.isEnabled()
    panel.table.selectRow(0)
    assert panel.apply_button.isEnabled() and panel.basis.text()
    upgrade = panel.selected()
    assert upgrade is not None
    panel.apply_button.click()
    new = tab.doc.build
    assert {p.id for p in new.parts} >= {i for i, _q in upgrade.buy}
    assert new.name.startswith("Lab box + ") and tab.doc.saved_id is None and tab.doc.modified
    assert tab.rows["gpu"].part_id() == upgrade.buy[0][0]
    # the saved build is untouched, and undo goes back to it
    again = builds.get(saved_id)
    assert again is not None and parse_build(again.data, tab.catalogue).parts == entry(tab).parts
    tab.act_undo.trigger()
    assert tab.doc.build.name == "Lab box" and tab.doc.saved_id == saved_id
    assert tab.rows["gpu"].part_id() == "nvidia-rtx-3060-12gb"


def test_this_machine_with_a_recording_uses_its_measured_draw(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    small_catalogue(tab)
    builds = BuildsRepository(window.store)
    machine_id = builds.save("This machine", build_to_dict(replace(entry(tab), name="This machine")))
    csv = record(tmp_path / "训练 run.csv")
    RecordingsRepository(window.store).start(csv, "box", 1.0)
    panel = tab.upgrade
    panel.refresh_sources()
    assert panel.build_combo.currentData() == machine_id  # the detected machine, by default
    assert panel.recording_combo.currentData() == str(csv.resolve())  # the newest recording
    assert panel.measured_power is None  # read once it is wanted: the panel shown, or "This machine" checked
    assert tab.open_saved(machine_id)
    qtbot.waitUntil(lambda: panel.measured_power is not None, timeout=10000)
    watts = panel.measured_power.mean_w
    assert 50 < watts < 200  # the fake RTX 3060's readings, under its 170 W limit
    assert tab.report is not None
    found = {f.rule: f for f in tab.report.findings}
    assert "measured" in found["PWR-4"].message.render() and found["PWR-4"].numbers["draw_measured"]
    assert found["PWR-4"].numbers["measured_w"] == round(watts)
    assert "训练 run.csv" in found["BUD-3"].message.render() and found["BUD-3"].numbers["draw_measured"]
    # another build in the planner keeps the estimate
    tab.doc.start_new(entry(tab), lambda: "entry")
    assert "measured" not in {f.rule: f for f in tab.report.findings}["PWR-4"].message.render()
    find(qtbot, tab)  # the advice is for this machine, with the recording's evidence
    assert "训练 run.csv" in panel.limit.text()



def test_a_benchmark_run_with_poor_ddp_scaling_names_the_link_between_the_gpus(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    from datetime import datetime

    from configurator.bench.results import RowResult, RunRecord
    from configurator.core.build import BuildPart
    from configurator.core.parts import Motherboard
    from configurator.store.bench_results import BenchResultsRepository

    tab = planner(window)
    b = entry(tab)
    boards = {k for k, v in tab.catalogue.items() if isinstance(v, Motherboard)}
    keep = {p.id for p in b.parts} | set(OFFER) | boards
    small = {k: v for k, v in tab.catalogue.items() if k in keep}
    tab.upgrade.catalogue = lambda: small
    r = RunRecord("quick", "cuda", "/py", datetime(2026, 12, 1, 9), resolved_device="cuda", status="finished")
    r.rows = [RowResult("ddp-scaling", "ddp", "ok", 60.0, "%", 60.0, 1.0, {"procs": [1, 2]}, {})]
    run_id = BenchResultsRepository(window.store).save(r)
    two = tuple(BuildPart(p.id, 2) if p.id == "nvidia-rtx-3060-12gb" else p for p in b.parts
                if small[p.id].category != "psu")
    tab.doc.start_new(replace(b, parts=(*two, BuildPart("seasonic-focus-gx-850"))), lambda: "two cards")
    panel = tab.upgrade
    panel.refresh_sources()
    panel.bench_combo.setCurrentIndex(panel.bench_combo.findData(run_id))
    find(qtbot, tab)
    assert "the link between the GPUs" in panel.limit.text() and "PCI-5" in panel.limit.text()
    assert panel.outcome is not None and panel.outcome.advice.upgrades[0].kind == "interconnect"
    assert panel.table.rowCount() >= 1


def test_a_damaged_recording_is_one_line_and_the_plan_still_advises(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QApplication, QDialog

    tab = planner(window)
    small_catalogue(tab)
    tab.doc.start_new(entry(tab), lambda: "entry")
    bad = tmp_path / "half.csv"
    bad.write_bytes(b"\x00\x01 not a recording\n")
    RecordingsRepository(window.store).start(bad, "box", 1.0)
    panel = tab.upgrade
    panel.refresh_sources()
    assert panel.recording_combo.currentData() == str(bad.resolve())
    tab.side.setCurrentWidget(panel)  # shown: the recording is read (off the GUI thread)
    qtbot.waitUntil(lambda: bool(panel.error), timeout=10000)
    assert "half.csv" in panel.status.text() and "\n" not in panel.status.text()
    assert panel.run is None and panel.measured_power is None
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible()]
    panel.recording_combo.setCurrentIndex(0)  # none: from the plan alone
    find(qtbot, tab)
    assert "plan alone" in panel.limit.text() and panel.table.rowCount() >= 1
