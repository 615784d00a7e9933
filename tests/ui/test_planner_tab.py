"""Drive the planner tab as a user would."""

from __future__ import annotations

from pathlib import Path

from dialogs import answer_next_dialog
from pypdf import PdfReader
from PySide6.QtWidgets import QDialog, QMessageBox

from configurator.core.presets import presets
from configurator.ui.main_window import MainWindow
from configurator.ui.planner.suggest_dialog import SuggestDialog
from configurator.ui.planner.tab import PlannerTab


def planner(window: MainWindow) -> PlannerTab:
    tab = window.tabs.widget(0)
    assert isinstance(tab, PlannerTab)
    return tab


def pick(qtbot, tab: PlannerTab, key: str, part_id: str | None) -> None:  # type: ignore[no-untyped-def]
    combo = tab.rows[key].combo
    combo.setCurrentIndex(combo.findData(part_id))
    qtbot.waitUntil(lambda: tab.doc.build == tab.build_from_widgets(), timeout=2000)


def rules(tab: PlannerTab, severity: str) -> list[str]:
    assert tab.report is not None
    return [f.rule for f in tab.report.findings if f.severity == severity]


def test_psu_error_appears_and_goes_away(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    assert window.tabs.tabText(0) == "Planner"
    for key, pid in (("gpu", "nvidia-rtx-4090"), ("cpu", "intel-core-i9-14900k"),
                     ("motherboard", "asus-proart-z790-creator-wifi"),
                     ("memory", "corsair-vengeance-64gb-2x32gb-ddr5-6000"), ("storage", "samsung-990-pro-2tb"),
                     ("case", "fractal-design-define-7-xl"), ("psu", "corsair-rm750e-2023")):
        pick(qtbot, tab, key, pid)
    assert "PWR-2" in rules(tab, "error")
    top = tab.findings.topLevelItem(0)
    assert top.text(0).startswith("Errors")
    assert any(top.child(i).text(0).startswith("PWR-2 · G 六.3") for i in range(top.childCount()))
    assert tab.bars["power"].ratio is not None and tab.bars["power"].ratio > 1
    pick(qtbot, tab, "psu", "seasonic-prime-tx-1000")
    assert "PWR-2" not in rules(tab, "error")
    assert tab.bars["power"].ratio < 1
    tab.act_undo.trigger()
    assert tab.rows["psu"].part_id() == "corsair-rm750e-2023" and "PWR-2" in rules(tab, "error")
    tab.act_redo.trigger()
    assert tab.rows["psu"].part_id() == "seasonic-prime-tx-1000"


def test_preset_suggest_save_reopen_and_pdf(qtbot, window: MainWindow, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    entry = next(p for p in presets(tab.catalogue) if p.tier.id == "TIER-entry")
    tab.apply_preset(entry)
    assert tab.rows["gpu"].part_id() == "nvidia-rtx-3060-12gb"
    assert tab.rows["cpu"].part_id() == "amd-ryzen-5-5600x"
    assert tab.report is not None and tab.report.ok

    # Suggest: run the dialog as a user would and take the best build.
    def run_dialog(dialog: SuggestDialog) -> int:
        dialog.budget.setValue(12000)
        with qtbot.waitSignal(dialog.searched, timeout=10000):
            dialog.run()
        assert dialog.tasks.wait(5000)
        assert dialog.found and dialog.results.topLevelItemCount() >= 2
        dialog.accept_current()
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(SuggestDialog, "exec", run_dialog)
    tab.suggest_dialog()
    assert tab.report.ok and tab.report.total_cny <= 12000
    suggested = tab.doc.build.parts

    tab.name_edit.setText("我的 配置")
    tab.name_edit.editingFinished.emit()
    qtbot.waitUntil(lambda: tab.doc.build.name == "我的 配置", timeout=2000)
    assert tab.save()
    saved_id = tab.doc.saved_id
    tab.new_build()
    assert tab.doc.build.parts == ()
    assert tab.open_saved(saved_id)
    assert tab.doc.build.parts == suggested and tab.name_edit.text() == "我的 配置"

    pdf = tmp_path / "配置单" / "build sheet.pdf"
    pdf.parent.mkdir()
    assert tab.export_pdf(pdf)
    text = "".join("".join(page.extract_text().split()) for page in PdfReader(pdf).pages)
    assert "我的配置" in text and "BUD-1" in text and "¥" in text and "Parts" in text


def test_suggestions_and_presets_are_new_builds_and_nothing_is_lost(qtbot, window: MainWindow, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """"Use this build" used to write the suggestion into the saved build that was open (the next
    Save overwrote it); New and Open discarded edits without asking; a preset cleared undo."""
    tab = planner(window)
    pick(qtbot, tab, "gpu", "nvidia-rtx-3090")
    tab.name_edit.setText("Mine")
    tab.name_edit.editingFinished.emit()
    qtbot.waitUntil(lambda: tab.doc.build.name == "Mine", timeout=2000)
    assert window.tabs.tabText(0) == "Planner *" and window.isWindowModified()
    assert tab.save()
    mine_id, mine = tab.doc.saved_id, tab.doc.build
    assert window.tabs.tabText(0) == "Planner" and not window.isWindowModified()

    entry = next(p for p in presets(tab.catalogue) if p.tier.id == "TIER-entry")
    tab.apply_preset(entry)  # no question: undo brings the saved build back
    assert tab.doc.saved_id is None and tab.doc.modified and window.tabs.tabText(0) == "Planner *"
    tab.act_undo.trigger()
    assert tab.doc.build == mine and tab.doc.saved_id == mine_id and not tab.doc.modified

    def run_dialog(dialog: SuggestDialog) -> int:
        dialog.budget.setValue(12000)
        with qtbot.waitSignal(dialog.searched, timeout=10000):
            dialog.run()
        assert dialog.tasks.wait(5000)
        dialog.accept_current()
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(SuggestDialog, "exec", run_dialog)
    tab.suggest_dialog()
    assert tab.doc.saved_id is None and tab.doc.build.name == "Suggested build" and tab.doc.modified
    assert tab.save()
    assert tab.doc.saved_id != mine_id
    saved = {b.name: b for b in tab.builds.list()}
    assert set(saved) == {"Mine", "Suggested build"}
    assert tab.builds.get(mine_id).data["parts"] == [{"id": "nvidia-rtx-3090"}]  # the open build is untouched

    pick(qtbot, tab, "psu", "seasonic-prime-tx-1000")
    seen = answer_next_dialog(QMessageBox.StandardButton.Cancel)
    tab.new_build()
    assert "“Suggested build” has changes that are not saved" in seen[0]
    assert tab.rows["psu"].part_id() == "seasonic-prime-tx-1000"  # cancelled: nothing lost
    answer_next_dialog(QMessageBox.StandardButton.Cancel)
    assert not tab.open_saved(mine_id) and tab.rows["psu"].part_id() == "seasonic-prime-tx-1000"
    answer_next_dialog(QMessageBox.StandardButton.Cancel)
    window.close()  # quitting asks too
    assert window.isVisible()
    answer_next_dialog(QMessageBox.StandardButton.Save)
    assert tab.open_saved(mine_id)  # saved first, then opened
    assert tab.builds.get(tab.builds.list()[0].id) is not None
    assert any(p.get("id") == "seasonic-prime-tx-1000" for b in tab.builds.list() for p in b.data["parts"])
    assert tab.doc.build == mine and not tab.doc.modified
    answer_next_dialog(QMessageBox.StandardButton.Discard)
    pick(qtbot, tab, "gpu", "nvidia-rtx-4090")
    tab.new_build()
    assert tab.doc.build.parts == () and not tab.doc.modified


def test_import_export_and_bad_files(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    pick(qtbot, tab, "gpu", "nvidia-rtx-3090")
    out = tmp_path / "构建.json"
    tab.export_file(out)
    answer_next_dialog(QMessageBox.StandardButton.Discard)  # the edit is in the file, not saved here
    tab.new_build()
    assert tab.import_file(out) and tab.rows["gpu"].part_id() == "nvidia-rtx-3090"
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "configurator.build/1", "parts": [{"id": "nope", "qty": 0}]}', encoding="utf-8")
    before = tab.doc.build
    assert not tab.import_file(bad)
    box = window.findChild(QMessageBox, "buildErrors")  # what the user is shown
    assert box is not None and box.isVisible()
    assert "parts[0].qty" in box.informativeText() and "parts[0].id" in box.informativeText()
    box.close()
    assert tab.doc.build == before  # nothing lost


def test_pcie_map_and_language(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    pick(qtbot, tab, "gpu", "nvidia-rtx-3090")
    tab.rows["gpu"].qty.setValue(2)
    pick(qtbot, tab, "motherboard", "asus-proart-b550-creator")
    assert len(tab.pcie_map.seats) == 2 and tab.pcie_map.seats[0].lanes == 8
    window.language_actions["zh_CN"].trigger()
    assert window.tabs.tabText(0) == "配置规划 *"  # the edited build is not saved
    assert tab.parts_box.title() == "部件"
    window.language_actions["en"].trigger()


def test_int8_training_stays_as_chosen_and_says_why(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """The form used to turn int8 training into amp without a word; core's build reader calls it an error."""
    tab = planner(window)
    pick(qtbot, tab, "gpu", "nvidia-rtx-3090")
    form = tab.form
    form.precision.setCurrentIndex(form.precision.findData("int8"))
    qtbot.waitUntil(lambda: tab.doc.build.workload.precision == "int8", timeout=2000)
    assert form.precision.currentData() == "int8"  # not silently amp
    assert tab.report is not None and not tab.report.ok
    assert "int8 is for inference" in tab.verdict.text()
    assert "int8 is for inference" in form.precision.toolTip()
    assert tab.report.estimate("throughput_one_gpu") is None  # nothing estimated for an impossible workload
    form.task.setCurrentIndex(form.task.findData("infer"))
    qtbot.waitUntil(lambda: tab.doc.build.workload.task == "infer", timeout=2000)
    assert tab.report.ok and form.precision.toolTip() == ""
    assert tab.report.estimate("throughput_one_gpu") is not None


def test_the_suggest_dialog_starts_from_the_command_lines_defaults(qtbot) -> None:  # type: ignore[no-untyped-def]
    from configurator.core.suggest import DEFAULT_WORKLOAD

    dialog = SuggestDialog({}, 20000, None)
    qtbot.addWidget(dialog)
    assert dialog.workload() == DEFAULT_WORKLOAD  # `configurator suggest --budget 20000` assumes the same
