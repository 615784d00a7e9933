"""Suggest: budget, workload and options in, the best build and alternatives out, one to pick.

The options are :class:`~configurator.core.suggest.SuggestOptions` (goal, GPU count, case sizes,
used-market cards, memory strategy); values Suggest cannot use are shown in the dialog and nothing
runs. The search takes up to a second or two on the shipped catalogue, so it runs on the task
runner while the button says so. Each result shows its score where warnings lower it (the
penalties, and why, in its tooltip); below the list, why the best build won, what binds it, how the
workload was made to fit, and what each alternative trades.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from configurator.core.build import PRECISIONS, Workload
from configurator.core.i18n import Message, fill
from configurator.core.model_specs import KNOWN_MODELS
from configurator.core.parts import AnyPart
from configurator.core.sheet import PRECISION_LABELS, TASK_LABELS, model_label
from configurator.core.suggest import (
    CASE_SIZE_NAMES,
    CASE_SIZES,
    DEFAULT_WORKLOAD,
    MAX_GPUS_LIMIT,
    Penalty,
    Suggestion,
    SuggestOptions,
    suggest,
    why_nothing,
)
from configurator.ui.i18n import translate
from configurator.ui.tasks import TaskRunner
from configurator.ui.theme import colours, on_theme_change

THROUGHPUT = 2  # the results' column


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.1f}"


def _penalty_list(ps: tuple[Penalty, ...]) -> str:
    return ", ".join(f"{p.rule} −{p.weight:.0%}" for p in ps)


def _render(m: Message) -> str:
    return m.render(translate)


class SuggestDialog(QDialog):
    searched = Signal()  # a search ended (results, nothing found or a failure are shown)

    def __init__(self, catalogue: Mapping[str, AnyPart], budget: float, workload: Workload | None,
                 parent: QWidget | None = None, tasks: TaskRunner | None = None):
        super().__init__(parent)
        self.catalogue = catalogue
        self.tasks = tasks if tasks is not None else TaskRunner(self)
        self.chosen: Suggestion | None = None
        self.found: list[Suggestion] = []
        self.busy = False
        self.error = ""
        self.setWindowTitle(translate("Suggest", "Suggest a build"))
        self.resize(940, 740)
        w = workload if workload is not None and workload.model in KNOWN_MODELS else DEFAULT_WORKLOAD
        # A serving workload at a request rate (the planner's task serve): its serving keys are kept
        self.served: Workload | None = w if w.serving and w.request_rate is not None else None
        top = QHBoxLayout()
        top.addWidget(self._build_workload_box(budget, w), 2)
        top.addWidget(self._build_options_box(), 3)
        run_row, split = self._build_results()
        self._lay_out(top, run_row, split)
        self._connect()

    def _build_workload_box(self, budget: float, w: Workload) -> QGroupBox:
        # -- budget and workload --------------------------------------------------------------------
        self.budget = QSpinBox()
        self.budget.setObjectName("suggestBudget")
        self.budget.setRange(1000, 100_000_000)
        self.budget.setSingleStep(1000)
        self.budget.setPrefix("¥ ")
        self.budget.setGroupSeparatorShown(True)
        self.budget.setValue(int(budget))
        self.model = QComboBox()
        for m in KNOWN_MODELS:  # the model's name and parameter count, as the planner's form lists them
            self.model.addItem(model_label(m).render(translate), m)
        self.task = QComboBox()
        for t in ("train", "infer"):
            self.task.addItem(translate("workload", TASK_LABELS[t]), t)
        self.task.addItem(translate("Suggest", "Serving (a request rate)"), "serve")
        self.precision = QComboBox()
        for p in PRECISIONS:
            self.precision.addItem(translate("workload", PRECISION_LABELS.get(p, p)), p)
        self.model.setCurrentIndex(self.model.findData(w.model))
        self.task.setCurrentIndex(self.task.findData("serve" if self.served is not None else w.task))
        self.precision.setCurrentIndex(self.precision.findData(w.precision))
        form = QFormLayout()
        form.addRow(translate("Planner", "Budget"), self.budget)
        form.addRow(translate("Planner", "Model"), self.model)
        form.addRow(translate("Planner", "Task"), self.task)
        form.addRow(translate("Planner", "Precision"), self.precision)
        workload_box = QGroupBox(translate("Suggest", "Budget and workload"))
        workload_box.setLayout(form)
        return workload_box


    def _build_options_box(self) -> QGroupBox:
        # -- options (SuggestOptions) ---------------------------------------------------------------
        self.goal = QComboBox()
        self.goal.setObjectName("suggestGoal")
        self.goal.addItem(translate("Suggest", "Fastest within the budget"), "fastest")
        self.goal.addItem(translate("Suggest", "Cheapest that reaches a target"), "cheapest")
        self.target = QSpinBox()
        self.target.setObjectName("suggestTarget")
        self.target.setRange(0, 10_000_000)
        self.target.setSingleStep(100)
        self.target.setGroupSeparatorShown(True)
        self.target.setValue(1000)
        self.target.setToolTip(translate("Suggest", "The score to reach: the estimated throughput less the "
                                                    "penalties for the build's warnings."))
        self.min_gpus = QSpinBox()
        self.min_gpus.setObjectName("suggestMinGpus")
        self.min_gpus.setRange(0, MAX_GPUS_LIMIT)
        self.min_gpus.setToolTip(translate("Suggest", "0 allows a build without a GPU"))
        self.max_gpus = QSpinBox()
        self.max_gpus.setObjectName("suggestMaxGpus")
        self.max_gpus.setRange(1, MAX_GPUS_LIMIT)
        defaults = SuggestOptions()
        self.min_gpus.setValue(defaults.min_gpus)
        self.max_gpus.setValue(defaults.max_gpus)
        gpus = QHBoxLayout()
        gpus.addWidget(self.min_gpus)
        gpus.addWidget(QLabel(translate("Suggest", "to")))
        gpus.addWidget(self.max_gpus)
        gpus.addStretch(1)
        self.case_boxes: dict[str, QCheckBox] = {}
        cases = QGridLayout()
        for i, size in enumerate(CASE_SIZES):
            box = QCheckBox(translate("suggest", CASE_SIZE_NAMES[size]))
            box.setObjectName(f"suggestCase_{size}")
            box.setToolTip(translate("Suggest", "None checked: any case"))
            self.case_boxes[size] = box
            cases.addWidget(box, i // 2, i % 2)
        self.allow_used = QCheckBox(translate("Suggest", "Allow used-market GPUs (discontinued models; marked "
                                                         "used in the build)"))
        self.allow_used.setObjectName("suggestAllowUsed")
        self.allow_used.setChecked(defaults.allow_used)
        self.memory = QCheckBox(translate("Suggest", "Let Suggest shard (FSDP) or use LoRA/QLoRA for LLM training"))
        self.memory.setObjectName("suggestMemory")
        self.memory.setChecked(defaults.memory == "auto")
        self.memory.setToolTip(translate("Suggest", "Off: the workload is trained as given, without sharding and "
                                                    "with full fine-tuning."))
        self.options_form = QFormLayout()
        self.options_form.addRow(translate("Suggest", "Goal"), self.goal)
        self.options_form.addRow(translate("Suggest", "Target"), self.target)
        self.options_form.addRow(translate("Suggest", "GPUs"), gpus)
        self.options_form.addRow(translate("Suggest", "Case"), cases)
        self._build_serving_rows()
        self.options_form.addRow(self.allow_used)
        self.options_form.addRow(self.memory)
        options_box = QGroupBox(translate("Suggest", "Options"))
        options_box.setLayout(self.options_form)
        return options_box


    def _build_serving_rows(self) -> None:
        """The serving target's rows (shown for task serve): the request rate, the request's lengths and the
        bound on the median time to first token (suggest.serve)."""
        served = self.served
        self.request_rate = QDoubleSpinBox()
        self.request_rate.setObjectName("suggestRequestRate")
        self.request_rate.setRange(0.01, 100_000)
        self.request_rate.setDecimals(2)
        self.request_rate.setSuffix(" " + translate("Suggest", "requests/s"))
        self.request_rate.setValue(served.request_rate if served is not None and served.request_rate else 4.0)
        self.prompt_tokens = QSpinBox()
        self.prompt_tokens.setObjectName("suggestPromptTokens")
        self.prompt_tokens.setRange(1, 1_000_000)
        self.prompt_tokens.setValue(served.prompt_tokens if served is not None and served.prompt_tokens else 512)
        self.output_tokens = QSpinBox()
        self.output_tokens.setObjectName("suggestOutputTokens")
        self.output_tokens.setRange(1, 1_000_000)
        self.output_tokens.setValue(served.output_tokens if served is not None and served.output_tokens else 256)
        self.max_ttft = QSpinBox()
        self.max_ttft.setObjectName("suggestMaxTtft")
        self.max_ttft.setRange(0, 600_000)
        self.max_ttft.setSingleStep(50)
        self.max_ttft.setSuffix(" ms")
        self.max_ttft.setSpecialValueText(translate("Suggest", "no bound"))
        self.max_ttft.setValue(200)
        self.max_ttft.setToolTip(translate("Suggest", "The median time to first token at the request rate, judged on "
                                                      "the central estimate (its range is shown with the result)."))
        self.options_form.addRow(translate("Suggest", "Request rate"), self.request_rate)
        self.options_form.addRow(translate("Suggest", "Prompt tokens"), self.prompt_tokens)
        self.options_form.addRow(translate("Suggest", "Output tokens"), self.output_tokens)
        self.options_form.addRow(translate("Suggest", "Max TTFT"), self.max_ttft)

    def _build_results(self) -> tuple[QHBoxLayout, QSplitter]:
        # -- running, results -----------------------------------------------------------------------
        self.run_button = QPushButton(translate("Suggest", "Find builds"))
        self.run_button.setObjectName("findBuilds")
        self.run_button.clicked.connect(self.run)
        self.problems = QLabel()
        self.problems.setObjectName("suggestProblems")
        self.problems.setWordWrap(True)
        self.problems.setTextFormat(Qt.TextFormat.PlainText)
        run_row = QHBoxLayout()
        run_row.addWidget(self.run_button, 0, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        run_row.addWidget(self.problems, 1)
        self.note = QLabel(translate("Suggest", "Errors rule a build out; each warning lowers its score by a stated "
                                                "penalty. The best build scores highest within the budget (or, for "
                                                "“cheapest”, costs least while reaching the target); the "
                                                "alternatives have other GPUs or GPU counts."))
        self.note.setWordWrap(True)
        self.results = QTreeWidget()
        self.results.setObjectName("suggestions")
        # The throughput (and score, with its penalties) last: it takes what the names leave.
        self.results.setHeaderLabels([translate("Suggest", "Build"), translate("Suggest", "Price"),
                                      translate("Suggest", "Throughput")])
        self.results.itemDoubleClicked.connect(lambda _i, _c: self.accept_current())
        self.why = QTextBrowser()
        self.why.setObjectName("suggestWhy")
        self.why.setOpenLinks(False)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.results)
        split.addWidget(self.why)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setChildrenCollapsible(False)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(translate("Suggest", "Use this build"))
        self.buttons.accepted.connect(self.accept_current)
        self.buttons.rejected.connect(self.reject)
        return run_row, split

    def _lay_out(self, top: QHBoxLayout, run_row: QHBoxLayout, split: QSplitter) -> None:
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(run_row)
        layout.addWidget(self.note)
        layout.addWidget(split, 1)
        layout.addWidget(self.buttons)


    def _connect(self) -> None:
        self.goal.currentIndexChanged.connect(self._options_changed)
        for spin in (self.target, self.min_gpus, self.max_gpus, self.max_ttft, self.prompt_tokens,
                     self.output_tokens):
            spin.valueChanged.connect(self._options_changed)
        self.request_rate.valueChanged.connect(self._options_changed)
        for combo in (self.model, self.task):
            combo.currentIndexChanged.connect(self._options_changed)
        on_theme_change(self._restyle)
        self._restyle()
        self._options_changed()

    # -- what is asked --------------------------------------------------------------------------------
    def serving(self) -> bool:
        return bool(self.task.currentData() == "serve")

    def workload(self) -> Workload:
        model, precision = str(self.model.currentData()), str(self.precision.currentData())
        if not self.serving():
            return Workload(model=model, task=str(self.task.currentData()), precision=precision)
        base = self.served or Workload(model=model, task="infer")
        return dataclasses.replace(base, model=model, task="infer", precision=precision, concurrency=None,
                                   request_rate=float(self.request_rate.value()),
                                   prompt_tokens=self.prompt_tokens.value(), output_tokens=self.output_tokens.value())

    def options(self) -> SuggestOptions:
        serving = self.serving()
        cheapest = serving or self.goal.currentData() == "cheapest"
        return SuggestOptions(
            goal="cheapest" if cheapest else "fastest",
            target_throughput=float(self.target.value()) if cheapest and not serving else None,
            max_ttft_ms=float(self.max_ttft.value()) if serving and self.max_ttft.value() > 0 else None,
            min_gpus=self.min_gpus.value(), max_gpus=self.max_gpus.value(),
            case_sizes=frozenset(k for k, box in self.case_boxes.items() if box.isChecked()),
            allow_used=self.allow_used.isChecked(), memory="auto" if self.memory.isChecked() else "as-given")

    def option_problems(self) -> list[str]:
        names = {"goal": translate("Suggest", "Goal"), "target_throughput": translate("Suggest", "Target"),
                 "gpus": translate("Suggest", "GPUs"), "case": translate("Suggest", "Case"),
                 "memory": translate("Suggest", "Memory"), "max_ttft_ms": translate("Suggest", "Max TTFT")}
        return [fill(translate("Suggest", "{option}: {problem}"), option=names.get(key, key), problem=_render(m))
                for key, m in self.options().problems(self.workload())]

    def _options_changed(self) -> None:
        serving = self.serving()
        cheapest = self.goal.currentData() == "cheapest"
        self.options_form.setRowVisible(self.goal, not serving)  # a serving target: the cheapest build that meets it
        self.options_form.setRowVisible(self.target, cheapest and not serving)
        for row in (self.request_rate, self.prompt_tokens, self.output_tokens, self.max_ttft):
            self.options_form.setRowVisible(row, serving)
        self.target.setSuffix(" " + self.workload().throughput_unit)
        self.error = ""
        self._show_problems()

    def _show_problems(self) -> None:
        lines = self.option_problems()
        if self.error:
            lines.append(self.error)
        self.problems.setText("\n".join(lines))
        self.problems.setVisible(bool(lines))

    def _restyle(self) -> None:
        self.problems.setStyleSheet(f"color: {colours(self.palette()).error};")

    # -- the search -----------------------------------------------------------------------------------
    def run(self) -> None:
        """Check the options and start the search on the task runner; ``searched`` says when it ends."""
        if self.busy:
            return
        self.error = ""
        self._show_problems()
        if self.option_problems():
            return  # the problems are shown beside the button; nothing runs
        w = self.workload()
        if w.task == "train" and w.precision in ("int8", "int4"):
            w = Workload(model=w.model, task=w.task, precision="amp")
        catalogue, budget, prefs = dict(self.catalogue), float(self.budget.value()), self.options()
        self._set_busy(True)
        self.tasks.submit(lambda: suggest(catalogue, budget, w, prefs=prefs), self._found, self._failed)

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.run_button.setEnabled(not busy)
        self.run_button.setText(translate("Suggest", "Finding builds…") if busy
                                else translate("Suggest", "Find builds"))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not busy)
        if busy:
            self.found = []
            self.results.clear()
            self.why.clear()

    def _failed(self, exc: BaseException, _tb: str) -> None:
        self._set_busy(False)
        self.error = fill(translate("Suggest", "Suggest failed: {error}"), error=str(exc))
        self._show_problems()
        self.searched.emit()

    def _found(self, found: list[Suggestion]) -> None:
        self._set_busy(False)
        self.found = found
        self._show_results()
        self.searched.emit()

    # -- showing it -----------------------------------------------------------------------------------
    def _title(self, i: int) -> str:
        return translate("Suggest", "Best") if i == 0 else fill(translate("Suggest", "Alternative {n}"), n=i)

    def _gpu_name(self, s: Suggestion) -> str:
        for p in s.build.parts:
            part = self.catalogue[p.id]
            if part.category == "gpu":
                name = part.name + (f" × {p.qty}" if p.qty > 1 else "")
                return fill(translate("Suggest", "{part} (used)"), part=name) if p.used else name
        return translate("Suggest", "CPU only")

    def throughput_text(self, s: Suggestion) -> str:
        """The throughput, and the score where warnings lower it: "925 img/s · scored 812 (BAL-1 −10%)"."""
        value = f"{_number(s.throughput)} {s.unit}"
        if not s.penalties:
            return value
        return fill(translate("Suggest", "{throughput} · scored {score} ({penalties})"), throughput=value,
                    score=_number(s.score), penalties=_penalty_list(s.penalties))

    def _penalty_tip(self, s: Suggestion) -> str:
        if not s.penalties:
            return translate("Suggest", "No warnings: the score is the estimated throughput.")
        lines = [translate("Suggest", "Each warning lowers the score by its penalty:")]
        lines += [fill(translate("Suggest", "{rule} −{weight}: {why}"), rule=p.rule, weight=f"{p.weight:.0%}",
                       why=_render(p.why)) for p in s.penalties]
        return "\n".join(lines)

    def _show_results(self) -> None:
        self.results.clear()
        self.why.clear()
        if not self.found:
            item = QTreeWidgetItem([translate("Suggest", "No build without errors fits this budget and these "
                                                         "options.")])
            self.results.addTopLevelItem(item)
            item.setFirstColumnSpanned(True)
            reasons = why_nothing(self.catalogue, float(self.budget.value()), self.workload(), self.options())
            self.why.setHtml("".join(f"<p>{_esc(_render(m))}</p>" for m in reasons))
            return
        for i, s in enumerate(self.found):
            title = fill(translate("Suggest", "{title}: {build}"), title=self._title(i), build=self._gpu_name(s))
            top = QTreeWidgetItem([title, f"¥{s.total_cny:,}", self.throughput_text(s)])
            top.setData(0, Qt.ItemDataRole.UserRole, i)
            top.setToolTip(THROUGHPUT, self._penalty_tip(s))
            top.setToolTip(0, _render(s.reasons[0]) if i > 0 and s.reasons else title)
            for p in s.build.parts:
                part = self.catalogue[p.id]
                qty = f"{p.qty} × " if p.qty > 1 else ""
                name = f"{qty}{part.name}"
                if p.used:
                    name = fill(translate("Suggest", "{part} (used)"), part=name)
                child = QTreeWidgetItem([name, f"¥{part.price_cny * p.qty:,}", ""])
                child.setToolTip(0, name)
                top.addChild(child)
            self.results.addTopLevelItem(top)
        first = self.results.topLevelItem(0)
        if first is not None:
            self.results.setCurrentItem(first)
            first.setExpanded(True)
        for column in (0, 1):
            self.results.resizeColumnToContents(column)
        self.results.setColumnWidth(0, min(self.results.columnWidth(0), self.results.viewport().width() * 9 // 20))
        self.why.setHtml(self.why_html())

    def why_html(self) -> str:
        """Why the best build won (its reasons, how the workload was made to fit, what binds it) and
        what each alternative trades against it."""
        if not self.found:
            return ""
        best, rest = self.found[0], self.found[1:]
        heading = fill(translate("Suggest", "Why {build}"), build=self._gpu_name(best))
        html = [f"<p><b>{_esc(heading)}</b></p><ul>"]
        html += [f"<li>{_esc(_render(r))}</li>" for r in best.reasons if r != best.strategy]
        html.append("</ul>")
        if best.strategy is not None:
            html.append(f"<p>{_esc(_render(best.strategy))}</p>")
        if best.binding is not None:
            html.append(f"<p>{_esc(_render(best.binding))}</p>")
        if best.serving is not None:  # the load it was judged at, the figures and their ranges
            html += [f"<p>{_esc(_render(m))}</p>" for m in best.serving.messages()]
        if rest:
            html.append("<p><b>" + _esc(translate("Suggest", "Alternatives")) + "</b></p><ul>")
            for i, s in enumerate(rest, 1):
                trade = _render(s.reasons[0]) if s.reasons else ""
                line = fill(translate("Suggest", "{title} ({build}): {trade}"), title=self._title(i),
                            build=self._gpu_name(s), trade=trade)
                html.append(f"<li>{_esc(line)}</li>")
            html.append("</ul>")
        return "".join(html)

    def accept_current(self) -> None:
        if self.busy:
            return
        item = self.results.currentItem()
        while item is not None and item.parent() is not None:
            item = item.parent()
        if item is None or item.data(0, Qt.ItemDataRole.UserRole) is None:
            return
        self.chosen = self.found[int(item.data(0, Qt.ItemDataRole.UserRole))]
        self.accept()
