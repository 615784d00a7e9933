"""The Suggest dialog as a user drives it: options reach the optimiser, problems show beside the
button, and each result says why (reasons, binding constraint, trade-offs, penalties)."""

from __future__ import annotations

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QSettings

from configurator.core.catalogue import load_catalogue
from configurator.core.parts import AnyPart, Case
from configurator.core.suggest import DEFAULT_WORKLOAD, SuggestOptions, case_sizes
from configurator.ui.i18n import LanguageManager, translate
from configurator.ui.planner.suggest_dialog import SuggestDialog
from configurator.ui.tasks import TaskRunner


@pytest.fixture(scope="module")
def catalogue() -> dict[str, AnyPart]:
    return {p.id: p for p in load_catalogue()}


@pytest.fixture
def dialog(qtbot, catalogue: dict[str, AnyPart]) -> SuggestDialog:  # type: ignore[no-untyped-def]
    d = SuggestDialog(catalogue, 20000, None)
    qtbot.addWidget(d)
    return d


def find(qtbot, dialog: SuggestDialog) -> None:  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(dialog.searched, timeout=10000):
        dialog.run()
    assert dialog.tasks.wait(5000)  # the worker has returned, too
    assert not dialog.busy and dialog.run_button.isEnabled()


def titles(dialog: SuggestDialog) -> list[str]:
    return [dialog.results.topLevelItem(i).text(0) for i in range(dialog.results.topLevelItemCount())]


def gpu_counts(dialog: SuggestDialog) -> list[int]:
    return [s.gpu[1] for s in dialog.found]


def test_the_options_start_from_suggests_defaults(dialog: SuggestDialog) -> None:
    assert dialog.workload() == DEFAULT_WORKLOAD
    assert dialog.options() == SuggestOptions()  # the same as `configurator suggest` without options
    assert not dialog.target.isVisibleTo(dialog) and not dialog.problems.isVisibleTo(dialog)
    dialog.goal.setCurrentIndex(dialog.goal.findData("cheapest"))
    assert dialog.target.isVisibleTo(dialog) and dialog.target.suffix() == " img/s"
    dialog.model.setCurrentIndex(dialog.model.findData("llama-7b"))
    assert dialog.target.suffix() == " tokens/s"


def test_the_search_runs_off_the_gui_thread_and_explains_its_answer(qtbot, dialog: SuggestDialog) -> None:  # type: ignore[no-untyped-def]
    dialog.run()
    assert dialog.busy and not dialog.run_button.isEnabled() and dialog.run_button.text() == "Finding builds…"
    qtbot.waitUntil(lambda: not dialog.busy, timeout=10000)
    assert dialog.tasks.wait(5000)
    assert dialog.run_button.text() == "Find builds"
    best, *rest = dialog.found
    assert rest and titles(dialog)[0].startswith("Best: ")
    why = dialog.why.toPlainText()
    for reason in best.reasons:
        assert reason.render() in why
    assert best.binding is not None and best.binding.render() in why and "Binding:" in why
    for s in rest:
        assert s.reasons[0].render() in why  # "¥1,000 less, 3% slower"
    assert any(" less, " in s.reasons[0].render() or " more, " in s.reasons[0].render() for s in rest)

    # A build with warnings shows its score, its penalties and, in the tooltip, why each costs what it does.
    i = next(i for i, s in enumerate(dialog.found) if s.penalties)
    s, item = dialog.found[i], dialog.results.topLevelItem(i)
    assert item.text(2).startswith(f"{s.throughput:,.0f} img/s · scored {s.score:,.0f} (")
    assert all(f"{p.rule} −{p.weight:.0%}" in item.text(2) for p in s.penalties)
    assert all(p.why.render() in item.toolTip(2) for p in s.penalties)
    assert i == 0 or s.reasons[0].render() == item.toolTip(0)  # an alternative: what it trades


def test_max_gpus_one_gives_single_gpu_builds(qtbot, dialog: SuggestDialog) -> None:  # type: ignore[no-untyped-def]
    find(qtbot, dialog)
    assert max(gpu_counts(dialog)) > 1  # at ¥20,000 some alternative has two cards
    dialog.max_gpus.setValue(1)
    find(qtbot, dialog)
    assert gpu_counts(dialog) == [1] * len(dialog.found) and len(dialog.found) >= 2
    assert not any("×" in t for t in titles(dialog))
    assert "GPU count (0–1)" in dialog.why.toPlainText()  # the binding constraint names the option


def test_allowing_used_cards_adds_a_used_card(qtbot, dialog: SuggestDialog) -> None:  # type: ignore[no-untyped-def]
    find(qtbot, dialog)
    assert not any(p.used for s in dialog.found for p in s.build.parts)
    dialog.allow_used.setChecked(True)
    find(qtbot, dialog)
    used = [p for s in dialog.found for p in s.build.parts if p.used]
    assert used and all(dialog.catalogue[p.id].category == "gpu" for p in used)
    assert any(t.endswith("(used)") for t in titles(dialog))


def test_case_sizes_limit_the_case(qtbot, catalogue: dict[str, AnyPart]) -> None:  # type: ignore[no-untyped-def]
    dialog = SuggestDialog(catalogue, 12000, None)
    qtbot.addWidget(dialog)
    dialog.case_boxes["rack"].setChecked(True)
    assert dialog.options().case_sizes == {"rack"}
    find(qtbot, dialog)
    assert dialog.found
    for s in dialog.found:
        case = next(catalogue[p.id] for p in s.build.parts if catalogue[p.id].category == "case")
        assert isinstance(case, Case) and "rack" in case_sizes(case)
    dialog.budget.setValue(2000)  # no GPU build costs that
    dialog.min_gpus.setValue(1)
    find(qtbot, dialog)
    assert not dialog.found and titles(dialog) == ["No build without errors fits this budget and these options."]
    # why: the cheapest rack build's parts alone cost more than the budget
    assert "Even the cheapest" in dialog.why.toPlainText() and "¥2,000" in dialog.why.toPlainText()


def test_cheapest_reaching_a_target(qtbot, dialog: SuggestDialog) -> None:  # type: ignore[no-untyped-def]
    dialog.goal.setCurrentIndex(dialog.goal.findData("cheapest"))
    dialog.target.setValue(900)
    find(qtbot, dialog)
    best, *rest = dialog.found
    assert best.score >= 900 and all(best.total_cny <= s.total_cny for s in rest)
    why = dialog.why.toPlainText()
    assert "whose score reaches 900 img/s" in why and "Binding: the target of 900 img/s" in why


def test_problems_show_inline_and_nothing_runs(qtbot, dialog: SuggestDialog) -> None:  # type: ignore[no-untyped-def]
    dialog.min_gpus.setValue(3)
    dialog.max_gpus.setValue(2)
    assert dialog.problems.isVisibleTo(dialog)
    assert dialog.problems.text() == "GPUs: at least 3 GPUs and at most 2 contradict each other"
    with qtbot.assertNotEmitted(dialog.searched, wait=100):
        dialog.run()
    assert not dialog.busy and dialog.results.topLevelItemCount() == 0 and dialog.run_button.isEnabled()

    dialog.max_gpus.setValue(3)
    dialog.goal.setCurrentIndex(dialog.goal.findData("cheapest"))
    dialog.target.setValue(0)
    assert dialog.problems.text() == "Target: the goal \"cheapest\" needs a positive target throughput"
    dialog.run()
    assert not dialog.busy and not dialog.found
    dialog.target.setValue(500)
    assert not dialog.problems.isVisibleTo(dialog)


def test_llm_training_is_made_to_fit_or_kept_as_given(qtbot, catalogue: dict[str, AnyPart]) -> None:  # type: ignore[no-untyped-def]
    dialog = SuggestDialog(catalogue, 40000, None)
    qtbot.addWidget(dialog)
    dialog.model.setCurrentIndex(dialog.model.findData("llama-7b"))
    dialog.precision.setCurrentIndex(dialog.precision.findData("bf16"))
    find(qtbot, dialog)
    best = dialog.found[0]
    assert best.gpu[1] >= 1 and best.strategy is not None and best.workload is not None
    assert best.workload.finetune in ("lora", "qlora") or best.workload.sharding == "fsdp"
    assert best.strategy.render() in dialog.why.toPlainText()
    dialog.memory.setChecked(False)
    assert dialog.options().memory == "as-given"
    find(qtbot, dialog)
    assert dialog.found[0].strategy is None and titles(dialog)[0] == "Best: CPU only"


def test_the_answer_in_chinese(qtbot, dialog: SuggestDialog, settings: QSettings) -> None:  # type: ignore[no-untyped-def]
    languages = LanguageManager(settings)
    assert languages.install("zh_CN")
    try:
        find(qtbot, dialog)
        best = dialog.found[0]
        why = dialog.why.toPlainText()
        assert best.binding is not None and best.binding.render(translate) in why
        assert best.binding.render() not in why  # the core's message is translated, not shown in English
        s = next(s for s in dialog.found if s.penalties)
        tip = dialog.results.topLevelItem(dialog.found.index(s)).toolTip(2)
        assert all(p.why.render(translate) in tip and p.why.render() not in tip for p in s.penalties)
    finally:
        languages.install("en")


def test_a_dialog_closed_mid_search_is_not_reported_to(qtbot, catalogue: dict[str, AnyPart]) -> None:  # type: ignore[no-untyped-def]
    """The planner tab lends its task runner and deletes the dialog once it is closed: a search still
    running then ends without touching the deleted dialog (pytest-qt fails on an exception in a slot)."""
    tasks = TaskRunner()
    dialog = SuggestDialog(catalogue, 100000, None, tasks=tasks)
    dialog.run()
    assert dialog.busy
    dialog.reject()
    dialog.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not shiboken6.isValid(dialog) and tasks.pool.activeThreadCount() == 1  # gone while it searches
    assert tasks.wait(10000)
    QCoreApplication.processEvents()
    tasks.deleteLater()


def test_the_ttft_bound_shows_for_a_serving_workload_and_reaches_the_search(qtbot, catalogue) -> None:  # type: ignore[no-untyped-def]
    from configurator.core.build import Workload

    served = Workload("llama-3.1-8b", "infer", precision="bf16", request_rate=4.0, prompt_tokens=512,
                      output_tokens=256)
    ids = ["nvidia-rtx-4090", "nvidia-rtx-3060-12gb", "amd-ryzen-9-5950x", "asus-proart-b550-creator",
           "corsair-vengeance-lpx-32gb-2x16gb-ddr4-3200", "samsung-990-pro-2tb", "corsair-hx1200i-2023",
           "corsair-4000d-airflow"]  # a small space: the search is quick
    d = SuggestDialog({i: catalogue[i] for i in ids}, 100_000, served)
    qtbot.addWidget(d)
    assert d.task.currentData() == "serve" and d.options_form.isRowVisible(d.max_ttft)
    assert not d.options_form.isRowVisible(d.goal) and not d.options_form.isRowVisible(d.target)
    d.max_ttft.setValue(200)
    w, prefs = d.workload(), d.options()
    assert w.request_rate == 4.0 and w.prompt_tokens == 512 and w.output_tokens == 256
    assert prefs.goal == "cheapest" and prefs.max_ttft_ms == 200 and prefs.target_throughput is None
    assert d.option_problems() == []
    with qtbot.waitSignal(d.searched, timeout=60000):  # a cold start fits the throughput model first
        d.run()
    assert d.tasks.wait(5000) and not d.busy
    best = d.found[0]
    assert best.serving is not None and best.serving.ttft_ms.value <= 200
    assert "Judged at 4 requests/s" in d.why.toPlainText()
    # "no bound" (0): the cheapest build that serves the rate
    d.max_ttft.setValue(0)
    assert d.options().max_ttft_ms is None
    # a workload that does not serve: the rows go
    d.task.setCurrentIndex(d.task.findData("train"))
    assert not d.options_form.isRowVisible(d.max_ttft) and d.options().max_ttft_ms is None
    assert d.options_form.isRowVisible(d.goal)


def test_the_serving_rows_are_hidden_for_the_default_workload(dialog: SuggestDialog) -> None:
    assert dialog.task.currentData() == "train" and not dialog.options_form.isRowVisible(dialog.max_ttft)
    assert not dialog.options_form.isRowVisible(dialog.request_rate)
