"""The Planner's serving load (task serve) and the vision tasks' image size and denoising steps: the form
offers them where they apply, the results and the PDF build sheet show the serving figures with their
ranges, and a saved build file opens as the same workload."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pypdf import PdfReader
from PySide6.QtWidgets import QComboBox

from configurator.core.build import Build, BuildPart, Workload, build_to_dict, parse_build
from configurator.core.numbers import range_text, value_text
from configurator.ui.main_window import MainWindow
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
    qtbot.waitUntil(lambda: tab.report is not None and tab.report.build == tab.doc.build, timeout=5000)


def shown(tab: PlannerTab, key: str) -> bool:
    """Whether the form shows the workload row ``key`` (its label and its field)."""
    form = tab.form
    return form.wlabels[key].isVisibleTo(form) and form.workload_fields[key].isVisibleTo(form)


def test_serving_shows_its_load_and_the_results_its_figures_with_ranges(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    form = tab.form
    choose(tab.rows["gpu"].combo, "nvidia-rtx-4090")
    choose(form.model, "llama-3.1-8b")
    choose(form.precision, "bf16")
    settle(qtbot, tab)
    assert not any(shown(tab, k) for k in ("serve_load", "concurrency", "request_rate", "prompt_tokens",
                                           "output_tokens"))
    choose(form.task, "serve")
    assert all(shown(tab, k) for k in ("serve_load", "concurrency", "prompt_tokens", "output_tokens"))
    assert not shown(tab, "request_rate")  # one load at a time: clients in flight here
    assert not form.batch.isEnabled() and "Serving" in form.batch.toolTip()
    form.concurrency.setValue(64)
    form.prompt_tokens.setValue(512)
    form.output_tokens.setValue(256)
    settle(qtbot, tab)
    w = tab.doc.build.workload
    assert w is not None and w.serving
    assert (w.task, w.concurrency, w.request_rate, w.prompt_tokens, w.output_tokens) == ("infer", 64, None, 512, 256)
    assert w.batch_size is None and w.effective_runtime == "vllm"
    assert tab.report is not None and not tab.report.workload_errors
    text = tab.results.estimates_label.toPlainText()
    assert "Serving at 64 requests in flight, 512 prompt + 256 output tokens per request" in text
    for label in ("Most requests in flight", "Output tokens/s", "Requests/s", "Time to first token (TTFT)",
                  "Time per output token (TPOT)"):
        assert label in text, label
    by_key = {e.key: e for e in tab.report.estimates}
    for key, unit in (("serving_ttft_ms", "ms"), ("serving_tpot_ms", "ms")):
        e = by_key[key]
        assert e.value is not None and e.low is not None and e.high is not None and e.low < e.value < e.high
        # the figure, its unit and its range on the next line (138 ms / 94–303, 54.4 ms / 42.8–97.1)
        assert f"{value_text(e.value)} {unit}\n{range_text(e.low, e.high)}\n" in text, key
    # a rate instead: the concurrency row goes, the rate row comes, the workload follows
    choose(form.serve_load, "request_rate")
    assert shown(tab, "request_rate") and not shown(tab, "concurrency")
    form.request_rate.setValue(3.5)
    settle(qtbot, tab)
    w = tab.doc.build.workload
    assert w is not None and (w.concurrency, w.request_rate) == (None, 3.5)
    assert "3.5 requests/s" in tab.results.estimates_label.toPlainText()


def test_serve_is_greyed_out_for_a_model_that_does_not_generate(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    form = tab.form
    choose(form.model, "resnet50")
    settle(qtbot, tab)
    item = form.task.model().item(form.task.findData("serve"))  # type: ignore[attr-defined]
    assert not item.isEnabled() and "generative language models" in item.toolTip()
    choose(form.model, "llama-3.1-8b")
    assert form.task.model().item(form.task.findData("serve")).isEnabled()  # type: ignore[attr-defined]
    choose(form.task, "serve")
    # a runtime that does not serve (static batches) is greyed out, saying why
    item = form.runtime.model().item(form.runtime.findData("llama.cpp"))  # type: ignore[attr-defined]
    assert not item.isEnabled() and "paged KV cache" in item.toolTip()
    assert form.runtime.currentText() == "default (vLLM)"


def test_a_diffusion_models_steps_and_image_size_are_offered_and_kept(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    form = tab.form
    choose(tab.rows["gpu"].combo, "nvidia-rtx-4090")
    choose(form.model, "llama-3.1-8b")
    settle(qtbot, tab)
    assert not shown(tab, "steps") and not shown(tab, "image")  # a language model: neither
    choose(form.model, "sdxl-unet")
    choose(form.task, "train")
    assert shown(tab, "image") and not shown(tab, "steps")  # training has no denoising steps
    assert form.custom_image.text() == "model default (1024 px)"
    choose(form.task, "infer")
    assert shown(tab, "steps") and form.steps.text() == "default (50)"
    choose(form.model, "flux1-dev")  # its pipeline's own default, which the estimate runs
    assert form.steps.text() == "default (28)"
    choose(form.model, "sdxl-unet")
    assert form.runtime.currentText() == "default (PyTorch (eager))"  # a UNet runs in PyTorch, not llama.cpp
    form.steps.setValue(30)
    form.custom_image.setValue(768)
    settle(qtbot, tab)
    w = tab.doc.build.workload
    assert w is not None and (w.model, w.task, w.steps, w.image_size) == ("sdxl-unet", "infer", 30, 768)
    assert tab.report is not None and not tab.report.workload_errors
    text = tab.results.estimates_label.toPlainText()
    total = next(e for e in tab.report.estimates if e.key == "throughput_total")
    assert total.unit == "img/s" and total.low is not None and total.high is not None
    # a figure under one image a second keeps its digits (0.187 img/s, 0.124–0.327), not "0–1"
    span = range_text(total.low, total.high)
    assert span is not None and "img/s" in text and span in text
    assert re.fullmatch(r"0\.\d{2,}–0\.\d{2,}", span), span
    # a detector: its image size's default is its short side
    choose(form.model, "yolov8n")
    assert shown(tab, "image") and not shown(tab, "steps")


def test_saving_and_opening_keeps_the_serving_load_and_the_steps(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    builds = [
        Build((BuildPart("nvidia-rtx-4090", 2),), "serve",
              workload=Workload("llama-3.1-8b", "infer", precision="bf16", runtime="tensorrt-llm", parallel="tensor",
                                concurrency=64, prompt_tokens=512, output_tokens=256)),
        Build((BuildPart("nvidia-rtx-4090", 1),), "rate",
              workload=Workload("llama-3.1-8b", "infer", precision="bf16", request_rate=2.5, prompt_tokens=2000,
                                output_tokens=100)),
        Build((BuildPart("nvidia-rtx-4090", 1),), "sdxl",
              workload=Workload("sdxl-unet", "infer", precision="fp16", steps=30, image_size=768)),
    ]
    for build in builds:
        tab.doc.replace(build)
        qtbot.waitUntil(lambda: tab.form.build() == tab.doc.build, timeout=2000)
        assert tab.form.build() == build, build.name  # the form shows all of it
        path = tmp_path / f"{build.name}.json"
        assert tab.save_file(path)
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc == build_to_dict(build)
        assert parse_build(doc, tab.catalogue) == build  # what `configurator check` reads: the same workload
    saved = json.loads((tmp_path / "serve.json").read_text(encoding="utf-8"))["workload"]
    assert (saved["task"], saved["concurrency"], saved["prompt_tokens"], saved["output_tokens"]) == (
        "serve", 64, 512, 256)
    assert json.loads((tmp_path / "sdxl.json").read_text(encoding="utf-8"))["workload"]["steps"] == 30


def test_the_pdf_states_the_serving_load_ttft_and_tpot(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tab = planner(window)
    tab.doc.replace(Build((BuildPart("nvidia-rtx-4090", 1),), "Serving box",
                          workload=Workload("llama-3.1-8b", "infer", precision="bf16", concurrency=64,
                                            prompt_tokens=512, output_tokens=256)))
    pdf = tmp_path / "服务.pdf"
    assert tab.export_pdf(pdf)
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages)
    text = text.replace("\ufb01", "fi").replace("\ufb02", "fl")  # the typesetter's ligatures
    for words in ("Serving (LLM under load)", "Load: 64 requests in flight", "512 prompt + 256 output",
                  "Time to first token (TTFT)", "Time per output token", "(TPOT)", "Most requests in flight",
                  "median time to first token"):
        assert words in text, words
    assert "serving_ttft_ms" not in text  # a name, not the JSON key


def test_the_pdf_states_a_diffusion_models_steps_image_size_and_runtime(qtbot, window: MainWindow,  # type: ignore[no-untyped-def]
                                                                        tmp_path: Path) -> None:
    tab = planner(window)
    tab.doc.replace(Build((BuildPart("nvidia-rtx-4090", 1),), "SDXL box",
                          workload=Workload("sdxl-unet", "infer", precision="fp16", steps=30, image_size=768)))
    pdf = tmp_path / "sdxl.pdf"
    assert tab.export_pdf(pdf)
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages)
    for words in ("Denoising steps: 30", "Image size: 768 px", "Runtime: PyTorch (eager) (default)", "img/s"):
        assert words in text, words
