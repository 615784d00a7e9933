"""Unverified figures marked in the Parts tab and the PDF sheet; a Hugging Face config.json as the Planner's model;
the quantisation format in the workload form and on the sheet."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

from dialogs import answer_file_dialog, forget_unsaved
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QApplication, QComboBox

from configurator.core.build import Build, BuildPart, Workload, build_to_dict
from configurator.core.estimate.quant import QUANTS
from configurator.core.parts import CATEGORIES
from configurator.core.sheet import QUANT_LABELS, workload_summary
from configurator.ui.main_window import MainWindow
from configurator.ui.planner.picker import HF_CONFIG, HF_PICK
from configurator.ui.planner.tab import PlannerTab


def planner(window: MainWindow) -> PlannerTab:
    tab = window.tabs.widget(0)
    assert isinstance(tab, PlannerTab)
    return tab


def choose(combo: QComboBox, value: object) -> None:
    i = combo.findData(value)
    assert i >= 0, value
    combo.setCurrentIndex(i)


def settle(qtbot, tab: PlannerTab) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: tab.doc.build == tab.build_from_widgets(), timeout=2000)


def item_enabled(combo: QComboBox, value: str) -> tuple[bool, str]:
    model = combo.model()
    assert isinstance(model, QStandardItemModel)
    item = model.item(combo.findData(value))
    return item.isEnabled(), item.toolTip()


def pdf_text(path: Path) -> str:
    """The PDF's words, ligatures ("ﬁ") undone."""
    return unicodedata.normalize("NFKC", " ".join(" ".join(page.extract_text().split())
                                                  for page in PdfReader(path).pages))


# -- 1. unverified figures -------------------------------------------------------------------------------------
def test_the_parts_tab_marks_each_unverified_figure(window: MainWindow) -> None:
    browser = window.parts_browser
    browser.categories.setCurrentRow(1 + CATEGORIES.index("psu"))
    assert browser.select_part("corsair-cv450")  # pcie_8pin, connector_12v2x6 and eps_8pin are unverified
    model = browser.model
    row = model.row_of("corsair-cv450")
    column = {name: i for i, name in enumerate(model.column_names)}
    doubtful = model.index(row, column["pcie_8pin"])
    assert str(doubtful.data()).endswith(" ?")
    assert "check the vendor's figure" in str(doubtful.data(Qt.ItemDataRole.ToolTipRole))
    sure = model.index(row, column["watts"])  # read on the vendor's page: no mark
    assert not str(sure.data()).endswith("?") and "vendor" not in str(sure.data(Qt.ItemDataRole.ToolTipRole))
    text = browser.detail.body.text()
    assert text.count("(unverified)") == 3
    assert "Not verified against a vendor source (3): 8-pin PCIe connectors, 12V-2x6 connectors, 8-pin EPS" in text
    assert browser.select_part("seasonic-focus-gx-550")
    other = browser.detail.body.text()
    assert "(unverified)" in other
    browser.categories.setCurrentRow(1 + CATEGORIES.index("gpu"))
    assert browser.select_part("nvidia-rtx-4090")
    assert "(unverified)" not in browser.detail.body.text() and "Not verified" not in browser.detail.body.text()


def test_the_pdf_marks_each_unverified_figure(window: MainWindow, tmp_path: Path) -> None:
    tab = planner(window)
    tab.doc.replace(Build((BuildPart("nvidia-rtx-4090"), BuildPart("corsair-cv450")), "doubt"))
    pdf = tmp_path / "sheet.pdf"
    assert tab.export_pdf(pdf)
    text = pdf_text(pdf)
    row = text.split("Corsair CV450")[1].split("Total")[0]
    assert "8-pin PCIe connectors 2 ? · 12V-2x6 connectors 0 ?" in row and "450 W ·" in row  # the rating is sure
    assert "? Unverified: 8-pin PCIe connectors, 12V-2x6 connectors, 8-pin EPS connectors" in row
    assert "Unverified:" in text and "check the vendor's figure" in text
    assert text.count("? Unverified:") == 1  # the card has none
    tab.doc.replace(Build((BuildPart("nvidia-rtx-4090"),), "sure"))
    assert tab.export_pdf(pdf)
    text = pdf_text(pdf)
    assert "Unverified" not in text and "vendor's page" not in text


# -- 2. a Hugging Face config.json as the model --------------------------------------------------------------------
LLAMA_1B = {"_name_or_path": "meta-llama/Llama-3.2-1B", "model_type": "llama", "hidden_size": 2048,
            "num_hidden_layers": 16, "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 64,
            "intermediate_size": 8192, "vocab_size": 128256, "max_position_embeddings": 131072,
            "tie_word_embeddings": True}


def test_a_config_json_is_the_models_and_round_trips(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    form = tab.form
    good = tmp_path / "config.json"
    good.write_text(json.dumps(LLAMA_1B), encoding="utf-8")
    choose(tab.rows["gpu"].combo, "nvidia-rtx-4090")
    form.workload_box.setChecked(True)
    choose(form.task, "infer")
    answer_file_dialog(good)
    choose(form.model, HF_PICK)
    qtbot.waitUntil(lambda: tab.doc.build.workload is not None and tab.doc.build.workload.hf_config == str(good),
                    timeout=5000)
    assert form.model.currentData() == HF_CONFIG
    shown = form.model.currentText()
    assert "meta-llama/Llama-3.2-1B" in shown and "1.2 B" in shown and "config.json" in shown, shown
    assert not form.model_problem.isVisible()
    assert tab.report is not None and tab.report.estimate("vram_per_gpu_gib") is not None

    bad = tmp_path / "bad.json"
    bad.write_text('{"model_type": "llama"}', encoding="utf-8")
    before = tab.doc.build
    answer_file_dialog(bad)
    choose(form.model, HF_PICK)
    qtbot.waitUntil(form.model_problem.isVisible, timeout=5000)
    problem = form.model_problem.text()
    assert "bad.json" in problem and "hidden_size" in problem, problem
    assert tab.doc.build == before == tab.build_from_widgets()  # nothing changed
    assert form.model.currentData() == HF_CONFIG and form.model.hf_path == str(good)

    settle(qtbot, tab)
    saved = tab.doc.build
    path = tmp_path / "build.json"
    answer_file_dialog(path)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(path.is_file, timeout=5000)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["workload"]["model"] == {"hf_config": str(good)} and doc == build_to_dict(saved)
    tab.doc.replace(Build(()))
    assert form.model.currentData() != HF_CONFIG or not form.workload_box.isChecked()
    answer_file_dialog(path)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: tab.doc.build == saved, timeout=5000)
    assert form.model.currentData() == HF_CONFIG and form.model.hf_path == str(good)
    assert "meta-llama/Llama-3.2-1B" in form.model.currentText() and not form.model_problem.isVisible()
    forget_unsaved(window)


def test_a_build_whose_config_json_went_says_so(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    gone = tmp_path / "config.json"
    gone.write_text(json.dumps(LLAMA_1B), encoding="utf-8")
    build = Build((BuildPart("nvidia-rtx-4090"),), "gone",
                  workload=Workload(HF_CONFIG, "infer", precision="bf16", hf_config=str(gone)))
    gone.unlink()
    tab.doc.replace(build)  # no crash: the estimates wait for the file, the form says why
    assert tab.form.model_problem.isVisible() and "config.json" in tab.form.model_problem.text()
    assert tab.report is not None and tab.report.estimate("vram_per_gpu_gib") is None
    forget_unsaved(window)


# -- 3. the quantisation format -------------------------------------------------------------------------------------
def test_the_quantisation_format_in_the_form(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    form = tab.form
    choose(tab.rows["gpu"].combo, "nvidia-rtx-4090")
    form.workload_box.setChecked(True)
    choose(form.model, "llama-7b")
    choose(form.task, "infer")
    choose(form.precision, "fp16")
    assert form.quant.isEnabled()
    assert form.quant.itemText(form.quant.findData("gguf-q4_k_m")) == "GGUF Q4_K_M (about 4.85 bits per weight)"
    choose(form.quant, "awq")
    settle(qtbot, tab)
    w = tab.doc.build.workload
    assert w is not None and w.quant == "awq"
    assert form.runtime.itemText(0) == "default (Hugging Face transformers (generate))"  # AWQ's usual runtime
    choose(form.runtime, "llama.cpp")  # llama.cpp runs GGUF only
    enabled, why = item_enabled(form.quant, "awq")
    assert not enabled and "llama.cpp cannot run this format" in why and "transformers" in why
    assert item_enabled(form.quant, "gguf-q4_k_m")[0]
    settle(qtbot, tab)
    assert form.quant.property("invalid") and "cannot run awq" in form.quant.toolTip()  # AWQ stays, marked
    choose(form.quant, "gguf-q4_k_m")
    settle(qtbot, tab)
    assert tab.doc.build.workload is not None and tab.doc.build.workload.quant == "gguf-q4_k_m"
    assert not form.quant.property("invalid")
    choose(form.quant, "awq")
    settle(qtbot, tab)
    choose(form.task, "train")  # training: no format (the weights train in their precision)
    settle(qtbot, tab)
    assert not form.quant.isEnabled() and "inference only" in form.quant.toolTip()
    assert not form.quant.property("invalid")  # llama.cpp's refusal of AWQ no longer marks it
    assert tab.doc.build.workload is not None and tab.doc.build.workload.quant is None
    forget_unsaved(window)


def test_every_format_has_words_and_the_sheet_states_it() -> None:
    assert set(QUANT_LABELS) == set(QUANTS)
    rows = dict(workload_summary(Workload("llama-7b", "infer", precision="fp16", quant="awq")))
    value = rows["quant"]
    assert not isinstance(value, str) and value.render() == "AWQ 4-bit (group 128)"
    assert "quant" not in dict(workload_summary(Workload("llama-7b", "infer", precision="fp16")))
    assert "quant" not in dict(workload_summary(Workload("llama-7b", "train", precision="bf16")))
