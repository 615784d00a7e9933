"""The Planner's workload form (every workload key of the build file), Suggest's choices in it, the second
GPU row, and the window's build-file keys, colour-scheme menu and wheel guard."""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from dialogs import answer_file_dialog, forget_unsaved
from pypdf import PdfReader
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QComboBox, QDialog

from configurator.app import Services, build_services, build_window
from configurator.core.build import Build, BuildPart, Workload, build_to_dict
from configurator.ui.main_window import MainWindow
from configurator.ui.planner.form import BuildForm
from configurator.ui.planner.suggest_dialog import SuggestDialog
from configurator.ui.planner.tab import PlannerTab
from configurator.ui.theme import colours, theme_manager


def planner(window: MainWindow) -> PlannerTab:
    tab = window.tabs.widget(0)
    assert isinstance(tab, PlannerTab)
    return tab


def activate(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """The window active (keyboard shortcuts and the focus work in the active window only)."""
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)


def choose(combo: QComboBox, value: object) -> None:
    i = combo.findData(value)
    assert i >= 0, value
    combo.setCurrentIndex(i)


def settle(qtbot, tab: PlannerTab) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: tab.doc.build == tab.build_from_widgets(), timeout=2000)


def workload(tab: PlannerTab) -> Workload:
    w = tab.doc.build.workload
    assert w is not None
    return w


def test_each_field_changes_the_builds_workload(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    form = tab.form
    choose(form.model, "llama-7b")
    settle(qtbot, tab)
    assert workload(tab).model == "llama-7b"
    assert form.model.currentText() == "LLaMA 7B · 6.7 B"  # the name and its parameter count
    # (field, how to set it, what the build's workload then holds)
    train: list[tuple[str, Callable[[], None], Callable[[Workload], bool]]] = [
        ("precision", lambda: choose(form.precision, "bf16"), lambda w: w.precision == "bf16"),
        ("runtime", lambda: choose(form.runtime, "torch-compile"), lambda w: w.runtime == "torch-compile"),
        ("batch", lambda: form.batch.setValue(4), lambda w: w.batch_size == 4),
        ("seq", lambda: form.seq.setValue(4096), lambda w: w.seq_len == 4096),
        ("finetune", lambda: choose(form.finetune, "qlora"), lambda w: w.finetune == "qlora"),
        ("lora_rank", lambda: form.lora_rank.setValue(64), lambda w: w.lora_rank == 64),
        ("optimizer", lambda: choose(form.optimizer, "paged-adamw8bit"), lambda w: w.optimizer == "paged-adamw8bit"),
        ("opt_backward", lambda: form.opt_backward.setChecked(True), lambda w: w.optimizer_in_backward),
        ("sharding", lambda: choose(form.sharding, "zero3"), lambda w: w.sharding == "zero3"),
        ("ckpt", lambda: form.checkpointing.setChecked(True), lambda w: w.grad_checkpointing),
        ("offload", lambda: choose(form.offload, "activations"), lambda w: w.offload == "activations"),
        ("chunked_ce", lambda: form.chunked_ce.setChecked(True), lambda w: w.chunked_ce),
        ("attention", lambda: choose(form.attention, "eager"), lambda w: w.attention == "eager"),
        ("dataset", lambda: form.dataset.setValue(12.5), lambda w: w.dataset_gb == 12.5),
    ]
    for key, act, holds in train:
        assert form.workload_fields[key].isEnabled(), key
        act()
        settle(qtbot, tab)
        assert holds(workload(tab)), key
    assert workload(tab).runtime == "torch-compile" and workload(tab).finetune == "qlora"  # each kept

    # Inference: the training-only fields are disabled, say why and leave the build; parallelism applies
    choose(form.task, "infer")
    settle(qtbot, tab)
    w = workload(tab)
    assert w.task == "infer" and w.finetune == "full" and w.optimizer is None and w.sharding == "none"
    assert not w.grad_checkpointing and not w.chunked_ce and w.offload == "none"
    for key in ("finetune", "lora_rank", "optimizer", "opt_backward", "sharding", "ckpt", "offload", "chunked_ce"):
        assert not form.workload_fields[key].isEnabled(), key
        assert form.workload_fields[key].toolTip() == "Applies to training only", key
    assert form.runtime.currentData() == "torch-compile"  # one of inference's runtimes too
    choose(form.runtime, "vllm")
    choose(form.parallel, "tensor")
    choose(form.precision, "int4")
    settle(qtbot, tab)
    w = workload(tab)
    assert (w.runtime, w.parallel, w.precision) == ("vllm", "tensor", "int4")
    assert tab.report is not None and not tab.report.workload_errors
    # vLLM is not a training runtime: back to training, the runtime is training's default, said in the list
    choose(form.precision, "bf16")
    choose(form.task, "train")
    settle(qtbot, tab)
    w = workload(tab)
    assert w.runtime is None and w.parallel == "none" and w.finetune == "qlora" and w.sharding == "zero3"
    assert form.runtime.currentText() == "default (PyTorch (eager))"
    assert not form.parallel.isEnabled() and "inference only" in form.parallel.toolTip()
    assert tab.report is not None and not tab.report.workload_errors

    # A CNN: no sequence, no LoRA, no attention kernel, each saying why
    choose(form.model, "resnet50")
    settle(qtbot, tab)
    w = workload(tab)
    assert w.finetune == "full" and w.seq_len is None and w.attention == "sdpa"
    assert "transformer models only" in form.finetune.toolTip() and not form.seq.isEnabled()
    assert tab.report is not None and not tab.report.workload_errors


def test_suggests_choice_shows_in_the_form_and_can_be_changed_and_undone(qtbot, window: MainWindow,  # type: ignore[no-untyped-def]
                                                                        monkeypatch) -> None:
    tab = planner(window)
    suggested = Build((BuildPart("nvidia-rtx-4090", 2),), "x", 30000,
                      workload=Workload("llama-7b", "train", precision="bf16", finetune="lora", lora_rank=8,
                                        sharding="fsdp", grad_checkpointing=True))

    def accept(dialog: SuggestDialog) -> int:  # the dialog's answer, as "Use this build" leaves it
        dialog.chosen = SimpleNamespace(build=suggested)  # type: ignore[assignment]
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(SuggestDialog, "exec", accept)
    tab.suggest_dialog()
    form = tab.form
    assert form.finetune.currentData() == "lora" and form.finetune.currentText().startswith("LoRA")
    assert form.lora_rank.value() == 8 and form.lora_rank.isEnabled()
    assert form.sharding.currentData() == "fsdp" and form.checkpointing.isChecked()
    assert tab.doc.build.workload == suggested.workload
    choose(form.finetune, "full")  # turned off
    settle(qtbot, tab)
    assert workload(tab).finetune == "full" and not form.lora_rank.isEnabled()
    choose(form.sharding, "none")
    settle(qtbot, tab)
    assert workload(tab).sharding == "none"
    tab.act_undo.trigger()
    tab.act_undo.trigger()
    assert workload(tab) == suggested.workload and form.finetune.currentData() == "lora"
    assert form.sharding.currentData() == "fsdp"


def test_a_build_with_three_models_of_gpu_keeps_each(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    build = Build((BuildPart("nvidia-rtx-4090"), BuildPart("nvidia-rtx-3090", 2), BuildPart("nvidia-rtx-3060-12gb")),
                  "mixed")
    tab.doc.replace(build)
    assert tab.rows["gpu"].part_id() == "nvidia-rtx-4090" and tab.rows["gpu2"].part_id() == "nvidia-rtx-3090"
    assert tab.rows["gpu2"].qty.value() == 2
    third = tab.rows["gpu3"]
    assert third.part_id() == "nvidia-rtx-3060-12gb" and tab.form.row_labels["gpu3"].text() == "GPU 3"
    assert tab.form.build() == build  # nothing dropped on the next edit
    tab.doc.replace(Build((BuildPart("nvidia-rtx-4090"),), "one"))
    assert not tab.form.row_labels["gpu3"].isVisibleTo(tab.form) and tab.form.build().parts == (
        BuildPart("nvidia-rtx-4090"),)


@pytest.fixture
def two_gpu_services(qapp, seeded_db: Path, settings: QSettings) -> Iterator[Services]:  # type: ignore[no-untyped-def]
    s = build_services(argparse.Namespace(db=str(seeded_db), lang="en", fake_gpus=2), settings)
    yield s
    s.close()


def test_this_machine_with_two_models_of_fake_gpu_lists_both(qtbot, two_gpu_services: Services) -> None:  # type: ignore[no-untyped-def]
    """``--fake-gpus 2`` is an RTX 4090 and an RTX 3090 (``configurator detect`` lists both): the Planner's
    This machine showed the 4090 alone, and the next edit dropped the 3090 from the build."""
    window = build_window(two_gpu_services)
    try:
        window.show()
        tab = planner(window)
        from configurator.ui.monitor import MonitorTab

        monitor = next(w for w, _t in window.extra_tabs if isinstance(w, MonitorTab))
        qtbot.waitUntil(lambda: monitor.service.latest is not None and len(monitor.service.latest.gpus) == 2,
                        timeout=10000)
        tab.detect_this_machine()
        qtbot.waitUntil(lambda: tab.doc.build.name == "This machine", timeout=10000)
        gpus = [tab.rows[k].part_id() for k in ("gpu", "gpu2")]
        assert gpus == ["nvidia-rtx-4090", "nvidia-rtx-3090"]
        assert [bp.id for bp in tab.form.build().parts if bp.id in gpus] == gpus
        message = window.statusBar().currentMessage()
        assert message.startswith("This machine:")
        # the database's label leaves the message its room: the file name only, the path in its tooltip
        assert window.db_label.text() == f"Database: {two_gpu_services.store.path.name}"
        assert window.db_label.toolTip() == str(two_gpu_services.store.path)
        forget_unsaved(window)
    finally:
        window.close()
        window.deleteLater()


def _wheel(widget: Any, steps: int = -1) -> None:
    pos = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(pos, widget.mapToGlobal(pos), QPoint(), QPoint(0, 120 * steps), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_the_wheel_changes_a_combo_or_spin_box_only_with_the_focus(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    form: BuildForm = tab.form
    activate(qtbot, window)
    form.name_edit.setFocus()
    before = form.optimizer.currentIndex(), form.batch.value(), tab.rows["gpu"].qty.value()
    for widget in (form.optimizer, form.batch, tab.rows["gpu"].qty):
        assert widget.focusPolicy() == Qt.FocusPolicy.StrongFocus  # the wheel does not give it the focus
        _wheel(widget)
    assert (form.optimizer.currentIndex(), form.batch.value(), tab.rows["gpu"].qty.value()) == before
    form.optimizer.setFocus()
    qtbot.waitUntil(form.optimizer.hasFocus, timeout=2000)
    _wheel(form.optimizer)
    assert form.optimizer.currentIndex() == before[0] + 1  # focused: the wheel is its own


def test_ctrl_s_and_ctrl_o_save_and_open_a_build_file(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    activate(qtbot, window)
    choose(tab.rows["gpu"].combo, "nvidia-rtx-3090")
    choose(tab.form.model, "llama-7b")
    choose(tab.form.finetune, "lora")
    settle(qtbot, tab)
    saved = tab.doc.build
    path = tmp_path / "我的构建.json"
    answer_file_dialog(path)
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # not saved anywhere yet: where?
    qtbot.waitUntil(path.is_file, timeout=5000)
    assert json.loads(path.read_text(encoding="utf-8")) == build_to_dict(saved)  # what `configurator check` reads
    assert not tab.doc.modified and tab.doc.path == path
    choose(tab.form.finetune, "full")
    settle(qtbot, tab)
    assert tab.doc.modified
    activate(qtbot, window)  # back from the file dialog
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # to the same file, no question
    assert json.loads(path.read_text(encoding="utf-8"))["workload"].get("finetune") is None
    assert not tab.doc.modified
    tab.doc.replace(Build(()))
    path.write_text(json.dumps(build_to_dict(saved)), encoding="utf-8")
    answer_file_dialog(path)
    activate(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: tab.doc.build == saved, timeout=5000)
    assert tab.form.finetune.currentData() == "lora" and tab.doc.path == path
    names = [a.text() for a in window.file_menu.actions()]
    assert names[:4] == ["New", "Open…", "Save", "Save as…"] and "&Import parts from CSV…" in names
    assert window.import_action.shortcut().toString() == "Ctrl+I"  # not Ctrl+O any more
    assert "Configurator" not in window.windowTitle()  # the platform adds the app's name


def test_the_view_menus_colour_scheme_is_kept(qtbot, qapp, seeded_db: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    made: list[Services] = []
    windows: list[MainWindow] = []

    def open_window() -> MainWindow:
        services = build_services(argparse.Namespace(db=str(seeded_db), lang="en"), settings)
        made.append(services)
        w = build_window(services)
        windows.append(w)
        return w

    try:
        first = open_window()
        assert first.theme_actions["system"].isChecked()
        first.theme_actions["dark"].trigger()
        assert colours().dark and settings.value("ui/theme") == "dark"
        assert first.theme_actions["dark"].isChecked()
        manager = theme_manager()
        assert manager is not None
        manager.choose("light")  # as if the app started light again: the next window applies the choice
        assert not colours().dark
        second = open_window()
        assert colours().dark and second.theme_actions["dark"].isChecked()
        second.theme_actions["system"].trigger()
        assert settings.value("ui/theme") == "system" and not colours().dark  # offscreen: no system scheme
    finally:
        for w in windows:
            w.close()
            w.deleteLater()
        for s in made:
            s.close()
        manager = theme_manager()
        if manager is not None:
            manager.reset()
        qapp.processEvents()


def test_the_pdf_states_the_workload(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    build = Build((BuildPart("nvidia-rtx-4090", 2),), "LoRA box",
                  workload=Workload("llama-7b", "train", precision="bf16", finetune="qlora", lora_rank=32,
                                    optimizer="adamw8bit", sharding="zero2", grad_checkpointing=True))
    tab.doc.replace(dataclasses.replace(build))
    pdf = tmp_path / "sheet.pdf"
    assert tab.export_pdf(pdf)
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages)
    for words in ("LLaMA 7B · 6.7 B", "Training", "PyTorch (eager) (default)", "QLoRA", "rank 32",
                  "AdamW 8-bit (bitsandbytes)", "ZeRO-2", "Activation checkpointing: on"):
        assert words in text, words
