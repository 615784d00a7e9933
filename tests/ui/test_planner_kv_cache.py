"""The Planner's KV cache choice (workload.kv_cache): offered for LLM inference and serving, disabled for training
and for a model with no KV cache, greyed out for a runtime without an FP8 cache; an FP8 cache raises the serving
capacity, and a saved build keeps it."""

from __future__ import annotations

import json
from pathlib import Path

from pypdf import PdfReader
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QComboBox
from test_planner_serving import choose, planner, settle

from configurator.core.build import Build, BuildPart, Workload, build_to_dict, parse_build
from configurator.ui.main_window import MainWindow


def item_enabled(combo: QComboBox, value: object) -> bool:
    model = combo.model()
    assert isinstance(model, QStandardItemModel)
    item = model.item(combo.findData(value))
    assert item is not None
    return item.isEnabled()


def test_the_form_offers_the_kv_cache_for_serving(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    form = tab.form
    choose(tab.rows["gpu"].combo, "nvidia-rtx-4090")
    choose(form.model, "llama-3.1-8b")
    choose(form.precision, "bf16")
    choose(form.task, "train")
    settle(qtbot, tab)
    assert not form.kv_cache.isEnabled() and "inference and serving" in form.kv_cache.toolTip()
    choose(form.task, "serve")
    form.concurrency.setValue(256)
    form.prompt_tokens.setValue(512)
    form.output_tokens.setValue(256)
    settle(qtbot, tab)
    assert form.kv_cache.isEnabled() and form.wlabels["kv_cache"].text() == "KV cache"
    assert tab.doc.build.workload is not None and tab.doc.build.workload.kv_cache is None
    assert tab.report is not None
    b16 = {e.key: e for e in tab.report.estimates}["serving_max_concurrency"].value
    choose(form.kv_cache, "fp8")
    settle(qtbot, tab)
    w = tab.doc.build.workload
    assert w is not None and w.kv_cache == "fp8" and w.serving
    assert tab.report is not None and not tab.report.workload_errors
    fp8 = {e.key: e for e in tab.report.estimates}["serving_max_concurrency"].value
    assert b16 is not None and fp8 is not None and fp8 > 1.8 * b16
    # plain inference in llama.cpp has no FP8 cache: greyed out, saying why; vLLM keeps one
    choose(form.task, "infer")
    choose(form.runtime, "llama.cpp")
    assert not item_enabled(form.kv_cache, "fp8")
    choose(form.runtime, "vllm")
    assert item_enabled(form.kv_cache, "fp8")
    # a model without a KV cache: disabled
    choose(form.model, "resnet50")
    settle(qtbot, tab)
    assert not form.kv_cache.isEnabled()
    assert tab.doc.build.workload is not None and tab.doc.build.workload.kv_cache is None


def test_a_saved_build_keeps_the_fp8_cache(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    build = Build((BuildPart("nvidia-rtx-4090", 1),), "fp8 kv",
                  workload=Workload("llama-3.1-8b", "infer", precision="bf16", kv_cache="fp8", concurrency=64,
                                    prompt_tokens=512, output_tokens=256))
    tab.doc.replace(build)
    qtbot.waitUntil(lambda: tab.form.build() == tab.doc.build, timeout=2000)
    assert tab.form.build() == build and tab.form.kv_cache.currentData() == "fp8"
    path = tmp_path / "kv.json"
    assert tab.save_file(path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc == build_to_dict(build) and doc["workload"]["kv_cache"] == "fp8"
    assert parse_build(doc, tab.catalogue) == build
    pdf = tmp_path / "kv.pdf"
    assert tab.export_pdf(pdf)
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages)
    assert "KV cache: FP8 (1 B per cached element)" in text  # the sheet's workload summary states it
