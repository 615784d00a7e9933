"""The planner's build form: name and budget, a picker per part, the workload and the options.

It shows a Build and makes one from what the user chose; it decides nothing about the workload
(core's build reader does: an impossible choice stays as chosen and the results say why)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from configurator.core.build import (
    ATTENTION,
    DEFAULT_RUNTIME,
    FINETUNE,
    INFER_RUNTIMES,
    OFFLOAD,
    OPTIMIZERS,
    OS_CHOICES,
    PARALLEL,
    PRECISIONS,
    RUNTIMES,
    SHARDING,
    TASKS,
    TRAIN_RUNTIMES,
    Build,
    BuildPart,
    Cluster,
    Options,
    Workload,
)
from configurator.core.estimate.cluster import INTERCONNECTS, MAX_NODES
from configurator.core.estimate.quant import QUANTS
from configurator.core.i18n import fill
from configurator.core.model_specs import KNOWN_MODELS, ModelSpec, custom_model_fields
from configurator.core.models import ConfigError, read_hf_config
from configurator.core.parts import CATEGORY_LABELS, AnyPart, FieldError
from configurator.core.sheet import (
    ATTENTION_LABELS,
    FINETUNE_LABELS,
    OFFLOAD_LABELS,
    OPTIMIZER_LABELS,
    PARALLEL_LABELS,
    PRECISION_LABELS,
    RUNTIME_LABELS,
    SHARDING_LABELS,
    TASK_LABELS,
    quant_label,
)
from configurator.ui.files import open_file
from configurator.ui.i18n import translate
from configurator.ui.planner.picker import HF_CONFIG, ModelPicker, PartPicker, mark_invalid
from configurator.ui.theme import colours

# The parts rows of the form: (key, category, has a quantity). A new category is one more row here.
# A second GPU row: a machine with two models of card (an RTX 4090 beside an RTX 3090) is a build of both.
ROWS = (("gpu", "gpu", True), ("gpu2", "gpu", True), ("cpu", "cpu", True), ("motherboard", "motherboard", False),
        ("memory", "memory", True), ("storage", "storage", True), ("storage2", "storage", True),
        ("psu", "psu", True), ("case", "case", False), ("cooler", "cooler", True), ("platform", "platform", False))


class PartRow:
    """One category's picker, its quantity and its "bought used" box."""

    def __init__(self, key: str, category: str, has_qty: bool):
        self.key, self.category = key, category
        self.combo = PartPicker(category)
        self.combo.setObjectName(f"pick_{key}")
        self.qty = QSpinBox()
        self.qty.setObjectName(f"qty_{key}")
        self.qty.setRange(1, 16)
        self.qty.setVisible(has_qty)
        self.used = QCheckBox()
        self.used.setObjectName(f"used_{key}")

    def fill(self, parts: list[AnyPart]) -> None:
        self.combo.fill(parts)

    def select(self, part_id: str | None) -> None:
        self.combo.select(part_id)

    def part_id(self) -> str | None:
        return self.combo.part_id()


def _connect_edits(widget: QWidget, slot: Any) -> None:
    for signal in ("currentIndexChanged", "valueChanged", "toggled"):
        if hasattr(widget, signal):
            getattr(widget, signal).connect(slot)


def _choices(name: str, values: tuple[str | None, ...]) -> QComboBox:
    """A combo box over a workload key's values (the item's data; its text is set by ``retranslate``)."""
    combo = QComboBox()
    combo.setObjectName(name)
    for value in values:
        combo.addItem(value or "", value)
    return combo


def _select(combo: QComboBox, value: object) -> None:
    combo.setCurrentIndex(max(combo.findData(value), 0))


def _enable_item(combo: QComboBox, value: str, enabled: bool, why: str) -> None:
    """Let ``value`` be chosen, or grey it out in the list with ``why`` as its tooltip (a value already
    chosen stays chosen: the results say what is wrong with it)."""
    model = combo.model()
    i = combo.findData(value)
    if i < 0 or not isinstance(model, QStandardItemModel):
        return
    item = model.item(i)
    if item is not None and item.isEnabled() != enabled:
        item.setEnabled(enabled)
        item.setToolTip("" if enabled else why)


def _is_moe(spec: ModelSpec) -> bool:
    """A mixture-of-experts model (the catalogue's ``experts``)."""
    return spec.experts > 1


class BuildForm(QScrollArea):
    edited = Signal()  # the user changed something (not emitted while a build is being loaded)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("buildForm")
        self.setWidgetResizable(True)
        self._updating = False
        self._by_category: dict[str, list[AnyPart]] = {}
        host = QWidget()
        v = QVBoxLayout(host)
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("buildName")
        self.name_edit.editingFinished.connect(self._edited)
        self.budget = QSpinBox()
        self.budget.setObjectName("budget")
        self.budget.setRange(0, 100_000_000)
        self.budget.setSingleStep(1000)
        self.budget.setPrefix("¥ ")
        self.budget.setGroupSeparatorShown(True)
        self.budget.valueChanged.connect(self._edited)
        top = QFormLayout()
        self.lbl_name, self.lbl_budget = QLabel(), QLabel()
        top.addRow(self.lbl_name, self.name_edit)
        top.addRow(self.lbl_budget, self.budget)
        v.addLayout(top)
        v.addWidget(self._make_parts())
        v.addWidget(self._make_workload())
        v.addWidget(self._make_options())
        v.addStretch(1)
        self.setWidget(host)
        # The form fits the width it is given (no sideways scrolling): a choice shows as much of its long label
        # as fits, the whole one in its list and tooltip.
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._shrinking = [box for box in host.findChildren(QComboBox)
                           if box.sizeAdjustPolicy() == QComboBox.SizeAdjustPolicy.AdjustToContentsOnFirstShow]
        for box in self._shrinking:
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(10)
        self.retranslate()

    def _make_parts(self) -> QGroupBox:
        self.parts_box = QGroupBox()
        grid = QGridLayout(self.parts_box)
        self.rows: dict[str, PartRow] = {}
        self.row_labels: dict[str, QLabel] = {}
        self.lbl_qty, self.lbl_used = QLabel(), QLabel()
        grid.addWidget(self.lbl_qty, 0, 2)
        grid.addWidget(self.lbl_used, 0, 3)
        self.parts_grid = grid
        self.extra_rows: list[str] = []  # rows added for a build with more models of a category than ROWS has
        for key, cat, has_qty in ROWS:
            self._add_row(key, cat, has_qty)
        grid.setColumnStretch(1, 1)
        return self.parts_box

    def _add_row(self, key: str, category: str, has_qty: bool) -> PartRow:
        row = PartRow(key, category, has_qty)
        row.combo.picked.connect(self._edited)
        row.qty.valueChanged.connect(self._edited)
        row.used.toggled.connect(self._edited)
        label = QLabel()
        label.setBuddy(row.combo)
        self.rows[key], self.row_labels[key] = row, label
        i = self.parts_grid.rowCount()
        self.parts_grid.addWidget(label, i, 0)
        self.parts_grid.addWidget(row.combo, i, 1)
        self.parts_grid.addWidget(row.qty, i, 2)
        self.parts_grid.addWidget(row.used, i, 3)
        return row

    def _extra_row(self, category: str) -> PartRow:
        """One more row for ``category`` (a third model of GPU …), filled from the catalogue and named."""
        n = sum(r.category == category for r in self.rows.values()) + 1
        key = f"{category}{n}"
        has_qty = next((q for _k, c, q in ROWS if c == category), True)
        row = self._add_row(key, category, has_qty)
        row.fill(self._by_category.get(category, []))
        self.extra_rows.append(key)
        self._title_row(key)
        return row

    def _show_row(self, key: str, shown: bool) -> None:
        row = self.rows[key]
        for w in (self.row_labels[key], row.combo, row.used):
            w.setVisible(shown)
        row.qty.setVisible(shown and next((q for _k, c, q in ROWS if c == row.category), True))

    def _make_workload(self) -> QGroupBox:
        self.workload_box = QGroupBox()
        self.workload_box.setCheckable(True)
        self.workload_box.toggled.connect(self._edited)
        wf = QFormLayout(self.workload_box)
        wf.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.model = ModelPicker()
        self.model.setObjectName("model")
        self.model.fill_models()
        self.model.hf_requested.connect(self.pick_hf_config)
        self.model.picked.connect(self._model_picked)
        # what was wrong with the last config.json chosen (the file, the field, why), under the model
        self.model_problem = QLabel()
        self.model_problem.setObjectName("modelProblem")
        self.model_problem.setWordWrap(True)
        self.model_problem.setVisible(False)
        self._model_error: ConfigError | None = None
        self.settings: QSettings | None = None  # the file dialogs' last folders (the tab's settings)
        self.task = _choices("task", TASKS)
        self.runtime = _choices("runtime", (None, *RUNTIMES))
        self.precision = _choices("precision", PRECISIONS)
        self.quant = _choices("quant", (None, *QUANTS))
        self.batch = QSpinBox()
        self.batch.setObjectName("batch")
        self.batch.setRange(0, 65536)
        self.seq = QSpinBox()
        self.seq.setObjectName("seqLen")
        self.seq.setRange(0, 1_000_000)
        self.finetune = _choices("finetune", FINETUNE)
        self.lora_rank = QSpinBox()
        self.lora_rank.setObjectName("loraRank")
        self.lora_rank.setRange(1, 4096)
        self.lora_rank.setValue(Workload.lora_rank)
        self.optimizer = _choices("optimizer", (None, *OPTIMIZERS))
        self.opt_backward = QCheckBox()
        self.opt_backward.setObjectName("optimizerInBackward")
        self.sharding = _choices("sharding", SHARDING)
        self.parallel = _choices("parallel", PARALLEL)
        self.checkpointing = QCheckBox()
        self.checkpointing.setObjectName("checkpointing")
        self.offload = _choices("offload", OFFLOAD)
        self.chunked_ce = QCheckBox()
        self.chunked_ce.setObjectName("chunkedCe")
        self.attention = _choices("attention", ATTENTION)
        self.dataset = QDoubleSpinBox()
        self.dataset.setRange(0, 1e6)
        self.dataset.setDecimals(1)
        self.dataset.setSuffix(" GB")
        self.custom_params = QDoubleSpinBox()
        self.custom_params.setRange(0, 1e13)
        self.custom_params.setDecimals(0)
        self.custom_params.setSingleStep(1e6)
        self.custom_layers, self.custom_hidden, self.custom_heads = QSpinBox(), QSpinBox(), QSpinBox()
        self.custom_image = QSpinBox()
        for sb in (self.custom_layers, self.custom_hidden, self.custom_heads, self.custom_image):
            sb.setRange(0, 100000)
        self.workload_fields: dict[str, QWidget] = {
            "model": self.model, "params": self.custom_params, "layers": self.custom_layers,
            "hidden": self.custom_hidden, "heads": self.custom_heads, "image": self.custom_image,
            "task": self.task, "runtime": self.runtime, "precision": self.precision, "quant": self.quant,
            "batch": self.batch,
            "seq": self.seq, "finetune": self.finetune, "lora_rank": self.lora_rank, "optimizer": self.optimizer,
            "opt_backward": self.opt_backward, "sharding": self.sharding, "parallel": self.parallel,
            "ckpt": self.checkpointing, "offload": self.offload, "chunked_ce": self.chunked_ce,
            "attention": self.attention, "dataset": self.dataset}
        self.wlabels = {k: QLabel() for k in self.workload_fields}
        for key, w in self.workload_fields.items():
            self.wlabels[key].setBuddy(w)
            wf.addRow(self.wlabels[key], w)
            _connect_edits(w, self._edited)
            if key == "model":
                wf.addRow(self.model_problem)
        self._why_not: dict[str, str] = {}  # field key -> why it does not apply (the field is disabled)
        return self.workload_box

    def _make_options(self) -> QGroupBox:
        self.options_box = QGroupBox()
        of = QFormLayout(self.options_box)
        self.nvlink = QCheckBox()
        self.nvlink.setObjectName("nvlinkBridge")
        self.cloud = QDoubleSpinBox()
        self.cloud.setRange(0, 1e7)
        self.cloud.setDecimals(0)
        self.cloud.setPrefix("¥ ")
        self.hours = QDoubleSpinBox()
        self.hours.setRange(0, 24)
        self.hours.setDecimals(1)
        self.tariff = QDoubleSpinBox()
        self.tariff.setRange(0, 100)
        self.tariff.setDecimals(2)
        self.tariff.setPrefix("¥ ")
        self.os_combo = QComboBox()
        for o in OS_CHOICES:
            self.os_combo.addItem(o, o)
        # CLU-1: the build as one node of a small cluster (1: one machine, no cluster)
        self.nodes = QSpinBox()
        self.nodes.setObjectName("clusterNodes")
        self.nodes.setRange(1, MAX_NODES)
        self.interconnect = QComboBox()
        self.interconnect.setObjectName("clusterInterconnect")
        for key, net in INTERCONNECTS.items():
            self.interconnect.addItem(net.name, key)
        self.interconnect.setCurrentIndex(self.interconnect.findData("10gbe"))
        self.olabels = {k: QLabel() for k in ("nvlink", "cloud", "hours", "tariff", "os", "nodes", "interconnect")}
        for key, w in (("nvlink", self.nvlink), ("cloud", self.cloud), ("hours", self.hours),
                       ("tariff", self.tariff), ("os", self.os_combo), ("nodes", self.nodes),
                       ("interconnect", self.interconnect)):
            of.addRow(self.olabels[key], w)
            _connect_edits(w, self._edited)
        return self.options_box

    def _edited(self, *_args: object) -> None:
        if not self._updating:
            self.show_custom_fields()
            self.edited.emit()

    # -- catalogue ------------------------------------------------------------------------
    def fill(self, catalogue: dict[str, AnyPart]) -> None:
        by_cat: dict[str, list[AnyPart]] = {}
        for p in catalogue.values():
            by_cat.setdefault(p.category, []).append(p)
        self._by_category = by_cat
        self._updating = True
        try:
            for row in self.rows.values():
                row.fill(by_cat.get(row.category, []))
        finally:
            self._updating = False

    # -- widgets <-> build ------------------------------------------------------------------
    def build(self) -> Build:
        """The build the widgets show. The workload is what was chosen, as chosen: core says what is wrong."""
        parts: list[BuildPart] = []
        for row in self.rows.values():
            pid = row.part_id()
            if pid:
                qty = row.qty.value() if row.qty.isVisibleTo(self) or row.qty.value() > 1 else 1
                parts.append(BuildPart(pid, qty, row.used.isChecked()))
        options = Options(nvlink_bridge=self.nvlink.isChecked(), cloud_cny_per_month=self.cloud.value(),
                          hours_per_day=self.hours.value(), electricity_cny_per_kwh=self.tariff.value(),
                          os=str(self.os_combo.currentData()))
        workload = self.workload() if self.workload_box.isChecked() else None
        budget = float(self.budget.value()) if self.budget.value() else None
        cluster = Cluster(self.nodes.value(), str(self.interconnect.currentData())) if self.nodes.value() > 1 else None
        return Build(tuple(parts), self.name_edit.text().strip(), budget, options, workload, cluster)

    def load(self, build: Build, catalogue: dict[str, AnyPart]) -> None:
        self._updating = True
        try:
            self.name_edit.setText(build.name)
            self.budget.setValue(int(build.budget_cny or 0))
            for each in self.rows.values():
                each.select(None)
                each.qty.setValue(1)
                each.used.setChecked(False)
            free: dict[str, list[PartRow]] = {}  # a category's rows in form order (two drives: two rows)
            for row in self.rows.values():
                free.setdefault(row.category, []).append(row)
            for key in self.extra_rows:
                self._show_row(key, False)
            for bp in build.parts:
                part = catalogue.get(bp.id)
                if part is None:
                    continue
                if not free.get(part.category):  # more models of it than rows: one more row, never dropped
                    free[part.category] = [self._extra_row(part.category)]
                row = free[part.category].pop(0)
                if row.key in self.extra_rows:
                    self._show_row(row.key, True)
                row.select(bp.id)
                row.qty.setValue(bp.qty)
                row.used.setChecked(bp.used)
            o = build.options
            self.nvlink.setChecked(o.nvlink_bridge)
            self.cloud.setValue(o.cloud_cny_per_month)
            self.hours.setValue(o.hours_per_day)
            self.tariff.setValue(o.electricity_cny_per_kwh)
            self.os_combo.setCurrentIndex(max(self.os_combo.findData(o.os), 0))
            self.nodes.setValue(build.cluster.nodes if build.cluster else 1)
            if build.cluster is not None:
                self.interconnect.setCurrentIndex(max(self.interconnect.findData(build.cluster.interconnect), 0))
            w = build.workload
            self.workload_box.setChecked(w is not None)
            if w is not None:
                if w.hf_config is not None:
                    self._load_hf(w.hf_config)
                else:
                    self.model.select(w.model)
                    self._show_model_problem(None)
                _select(self.task, w.task)
                _select(self.runtime, w.runtime)
                _select(self.precision, w.precision)
                _select(self.quant, w.quant)
                self.batch.setValue(w.batch_size or 0)
                self.seq.setValue(w.seq_len or 0)
                _select(self.finetune, w.finetune)
                self.lora_rank.setValue(w.lora_rank)
                _select(self.optimizer, w.optimizer)
                self.opt_backward.setChecked(w.optimizer_in_backward)
                _select(self.sharding, w.sharding)
                _select(self.parallel, w.parallel)
                self.checkpointing.setChecked(w.grad_checkpointing)
                _select(self.offload, w.offload)
                self.chunked_ce.setChecked(w.chunked_ce)
                _select(self.attention, w.attention)
                self.dataset.setValue(w.dataset_gb or 0)
                self.custom_params.setValue(w.params or 0)
                self.custom_layers.setValue(w.layers or 0)
                self.custom_hidden.setValue(w.hidden or 0)
                self.custom_heads.setValue(w.heads or 0)
                self.custom_image.setValue(w.image_size or 0)
            self.show_custom_fields()
        finally:
            self._updating = False

    # -- a Hugging Face config.json as the model ------------------------------------------------------
    def pick_hf_config(self) -> None:
        """Ask for a config.json and read it: its model becomes the workload's, or, if it cannot be used, the
        line under the model says why (the file, the field) and the workload keeps its model."""
        settings = self.settings if self.settings is not None else QSettings()
        path = open_file(self, settings, "hf-config", translate("Planner", "Open a Hugging Face config.json"),
                         Path.home(), translate("Planner", "Hugging Face config (*.json);;All files (*)"))
        if not path:
            return
        try:
            spec = read_hf_config(Path(path), path)
        except ConfigError as exc:
            self._show_model_problem(exc)
            return
        self._show_model_problem(None)
        self.model.set_hf(path, spec)  # chosen: the form's edit follows (the same entry again: said below)
        self._edited()

    def _load_hf(self, path: str) -> None:
        """A build's config.json, read again (it may have changed or gone since the build was saved)."""
        try:
            spec: ModelSpec | None = read_hf_config(Path(path), path)
        except ConfigError as exc:
            spec = None
            self._show_model_problem(exc)
        else:
            self._show_model_problem(None)
        self.model.set_hf(path, spec)

    def _show_model_problem(self, exc: ConfigError | None) -> None:
        self._model_error = exc
        if exc is None:
            self.model_problem.clear()
            self.model_problem.setVisible(False)
            return
        field = f"{exc.field_name}: " if exc.field_name else ""
        self.model_problem.setText(fill(translate("Planner", "{file}: {field}{problem}"), file=exc.path, field=field,
                                        problem=exc.message.render(translate)))
        self.model_problem.setStyleSheet(f"color: {colours(self.palette()).error};")
        self.model_problem.setVisible(True)

    def _model_picked(self) -> None:
        if self.model.currentData() != HF_CONFIG and not self._updating:
            self._show_model_problem(None)  # another model: the config.json's problem is no longer the form's

    def _spec(self) -> ModelSpec | None:
        model = self.model.currentData()
        if model == HF_CONFIG:
            return self.model.hf_spec
        return KNOWN_MODELS.get(str(model))

    # -- the workload ------------------------------------------------------------------------------
    def _family(self) -> str:
        model = self.model.currentData()
        if model == "custom":
            return "transformer" if self.custom_layers.value() else "cnn"
        spec = self._spec()
        return spec.family if spec is not None else "transformer"

    def _moe(self) -> bool:
        spec = self._spec()
        return spec is not None and _is_moe(spec)

    def _reasons(self) -> dict[str, str]:
        """Why each field that does not apply to this task and model does not (it is disabled, its value
        kept for when it applies again, and left out of the build)."""
        why: dict[str, str] = {}
        train = self.task.currentData() == "train"
        cnn = self._family() == "cnn"
        if train:
            why["parallel"] = translate("Planner", "Applies to inference only: training divides a model's memory "
                                                   "over the GPUs with sharding")
        else:
            only = translate("Planner", "Applies to training only")
            for key in ("finetune", "lora_rank", "optimizer", "opt_backward", "sharding", "ckpt", "offload",
                        "chunked_ce"):
                why[key] = only
        if train:
            why["quant"] = translate("Planner", "Applies to inference only: training on quantised weights is QLoRA "
                                                "(Fine-tuning), in 8 bits precision FP8")
        elif cnn:
            why["quant"] = translate("Planner", "Quantised formats apply to transformer models only")
        if cnn:
            why.setdefault("finetune", translate("Planner", "LoRA and QLoRA apply to transformer models only: a "
                                                            "CNN is trained in full"))
            why["seq"] = translate("Planner", "A CNN takes images, not sequences")
            why.setdefault("chunked_ce", translate("Planner", "Applies to language models only (a loss over "
                                                              "the vocabulary)"))
            why["attention"] = translate("Planner", "Applies to transformer models only")
        if "lora_rank" not in why:
            if "finetune" in why:
                why["lora_rank"] = why["finetune"]
            elif self.finetune.currentData() == "full":
                why["lora_rank"] = translate("Planner", "Applies to LoRA and QLoRA only")
        return why

    def update_fields(self) -> None:
        """The custom model's rows, and which fields apply (the others disabled, saying why)."""
        custom = self.model.currentData() == "custom"
        layout = self.workload_box.layout()
        assert isinstance(layout, QFormLayout)
        for key in ("params", "layers", "hidden", "heads", "image"):
            layout.setRowVisible(self.wlabels[key], custom)
        task = str(self.task.currentData() or "train")
        runtimes = TRAIN_RUNTIMES if task == "train" else INFER_RUNTIMES
        if not self._updating and self.runtime.currentData() not in (None, *runtimes):
            _select(self.runtime, None)  # the task's runtimes differ: its default, not another task's runtime
        # the default follows the format (AWQ: transformers, GGUF: llama.cpp) and fp8, as core's effective_runtime
        quant = self.quant.currentData() if task != "train" else None
        chosen = Workload("custom", task, precision=str(self.precision.currentData()),
                          quant=str(quant) if quant is not None else None).effective_runtime
        default = translate("workload", RUNTIME_LABELS.get(chosen, RUNTIME_LABELS[DEFAULT_RUNTIME[task]]))
        self.runtime.setItemText(0, fill(translate("Planner", "default ({runtime})"), runtime=default))
        for_task = (translate("Planner", "Not for training") if task == "train"
                    else translate("Planner", "Not for inference"))
        for value in RUNTIMES:
            _enable_item(self.runtime, value, value in runtimes, for_task)
        for value in ("int8", "int4"):
            _enable_item(self.precision, value, task != "train",
                         translate("Planner", "For inference only: training needs fp32, amp, bf16, fp16 or fp8"))
        _enable_item(self.parallel, "expert", self._moe(),
                     translate("Planner", "For mixture-of-experts models only"))
        runtime = self.runtime.currentData()
        shown = translate("workload", RUNTIME_LABELS.get(str(runtime), str(runtime)))
        for value, q in QUANTS.items():  # a stated runtime runs only some formats (core/estimate/quant.py)
            allowed = ", ".join(translate("workload", RUNTIME_LABELS.get(r, r)) for r in q.kernels)
            _enable_item(self.quant, value, runtime is None or runtime in q.kernels,
                         fill(translate("Planner", "{runtime} cannot run this format; it runs in {allowed}"),
                              runtime=shown, allowed=allowed))
        self._why_not = why = self._reasons()
        on = self.workload_box.isChecked()  # unchecked: the group box greys every field out itself
        for key, widget in self.workload_fields.items():
            reason = why.get(key)
            widget.setEnabled(on and reason is None)
            self.wlabels[key].setEnabled(on and reason is None)
            self.wlabels[key].setToolTip(reason or "")
            if reason is not None:
                widget.setToolTip(reason)
                widget.setProperty("whyNot", True)
            elif widget.property("whyNot"):
                widget.setToolTip("")
                widget.setProperty("whyNot", False)

    def show_custom_fields(self) -> None:
        self.update_fields()

    def applies(self, key: str) -> bool:
        """Whether the workload field ``key`` applies to the task and model chosen (else it is disabled)."""
        return key not in self._why_not

    def workload(self) -> Workload:
        """The workload the fields show: what applies to its task and model, as chosen."""
        self._why_not = self._reasons()
        model = str(self.model.currentData())
        kw: dict[str, Any] = {"model": model, "task": str(self.task.currentData() or "train"),
                              "precision": str(self.precision.currentData())}
        if model == HF_CONFIG:
            kw["hf_config"] = self.model.hf_path
        if self.batch.value():
            kw["batch_size"] = self.batch.value()
        if self.seq.value() and self.applies("seq"):
            kw["seq_len"] = self.seq.value()
        for key, name, combo in (("runtime", "runtime", self.runtime), ("finetune", "finetune", self.finetune),
                                 ("optimizer", "optimizer", self.optimizer), ("sharding", "sharding", self.sharding),
                                 ("parallel", "parallel", self.parallel), ("offload", "offload", self.offload),
                                 ("attention", "attention", self.attention), ("quant", "quant", self.quant)):
            if self.applies(key) and combo.currentData() is not None:
                kw[name] = str(combo.currentData())
        if self.applies("lora_rank"):
            kw["lora_rank"] = self.lora_rank.value()
        for key, name, box in (("opt_backward", "optimizer_in_backward", self.opt_backward),
                               ("ckpt", "grad_checkpointing", self.checkpointing),
                               ("chunked_ce", "chunked_ce", self.chunked_ce)):
            if self.applies(key):
                kw[name] = box.isChecked()
        if self.dataset.value():
            kw["dataset_gb"] = self.dataset.value()
        if model == "custom":
            kw.update(custom_model_fields(self.custom_params.value(), self.custom_layers.value(),
                                          self.custom_hidden.value(), self.custom_heads.value(),
                                          self.custom_image.value()))
        return Workload(**kw)

    def show_problems(self, errors: tuple[FieldError, ...] | list[FieldError]) -> None:
        """Core's problems with the workload, on the fields they name (``workload.precision``)."""
        by_field = {"workload.precision": "precision", "workload.task": "task", "workload.batch_size": "batch",
                    "workload.seq_len": "seq", "workload.params": "params", "workload.layers": "layers",
                    "workload.hidden": "hidden", "workload.heads": "heads", "workload.image_size": "image",
                    "workload.optimizer": "optimizer", "workload.sharding": "sharding",
                    "workload.runtime": "runtime", "workload.finetune": "finetune", "workload.lora_rank": "lora_rank",
                    "workload.parallel": "parallel", "workload.offload": "offload", "workload.model": "model",
                    "workload.optimizer_in_backward": "opt_backward", "workload.chunked_ce": "chunked_ce",
                    "workload.attention": "attention", "workload.grad_checkpointing": "ckpt",
                    "workload.dataset_gb": "dataset", "workload.quant": "quant",
                    "workload.model.hf_config": "model"}
        problems: dict[str, list[str]] = {}
        for e in errors:
            key = by_field.get(e.path)
            if key is not None:
                problems.setdefault(key, []).append(e.message.render(translate))
        for key, widget in self.workload_fields.items():
            target = self.model.lineEdit() if key == "model" else widget
            if key in self._why_not:
                if target is not None and target.property("invalid"):
                    mark_invalid(target, None)  # an old problem's colour goes
                    widget.setToolTip(self._why_not[key])  # disabled: its tooltip says why it does not apply
                continue
            if target is not None:
                mark_invalid(target, "\n".join(problems[key]) if key in problems else None)

    def _title_row(self, key: str) -> None:
        titles = {
            "gpu": translate("Planner", "GPU"),
            "gpu2": translate("Planner", "Second GPU"),
            "cpu": translate("Planner", "CPU"),
            "motherboard": translate("Planner", "Motherboard"),
            "memory": translate("Planner", "Memory"),
            "storage": translate("Planner", "Storage"),
            "storage2": translate("Planner", "Second drive"),
            "psu": translate("Planner", "Power supply"),
            "case": translate("Planner", "Case"),
            "cooler": translate("Planner", "CPU cooler"),
            "platform": translate("Planner", "GPU baseboard (SXM)"),
        }
        category = self.rows[key].category
        title = titles.get(key)
        if title is None:  # a row of a new category, or one more row of one: the category's own name
            title = translate("parts", CATEGORY_LABELS.get(category, category))
            if key in self.extra_rows:
                title = fill(translate("Planner", "{category} {n}"), category=title, n=key[len(category):])
        self.row_labels[key].setText(title)

    # -- language ---------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.lbl_name.setText(translate("Planner", "Name"))
        self.lbl_budget.setText(translate("Planner", "Budget"))
        self.budget.setSpecialValueText(translate("Planner", "no budget"))
        self.parts_box.setTitle(translate("Planner", "Parts"))
        self.lbl_qty.setText(translate("Planner", "Qty"))
        self.lbl_used.setText(translate("Planner", "Used"))
        for key in self.row_labels:
            self._title_row(key)
        for row in self.rows.values():
            row.combo.retranslate()
            row.used.setToolTip(translate("Planner", "Bought used (BUD-4: test the VRAM before paying)"))
        self.workload_box.setTitle(translate("Planner", "Workload"))
        names = {
            "model": translate("Planner", "Model"),
            "task": translate("Planner", "Task"),
            "runtime": translate("Planner", "Runtime"),
            "precision": translate("Planner", "Precision"),
            "quant": translate("Planner", "Quantisation"),
            "batch": translate("Planner", "Batch per GPU"),
            "seq": translate("Planner", "Sequence length"),
            "finetune": translate("Planner", "Fine-tuning"),
            "lora_rank": translate("Planner", "LoRA rank"),
            "optimizer": translate("Planner", "Optimizer"),
            "opt_backward": translate("Planner", "Optimizer step in backward"),
            "sharding": translate("Planner", "Sharding"),
            "parallel": translate("Planner", "Model parallelism"),
            "ckpt": translate("Planner", "Activation checkpointing"),
            "offload": translate("Planner", "Offload to CPU"),
            "chunked_ce": translate("Planner", "Chunked cross-entropy"),
            "attention": translate("Planner", "Attention kernel"),
            "dataset": translate("Planner", "Data set"),
            "params": translate("Planner", "Parameters"),
            "layers": translate("Planner", "Layers"),
            "hidden": translate("Planner", "Hidden size"),
            "heads": translate("Planner", "Attention heads"),
            "image": translate("Planner", "Image size"),
        }
        for key, label in self.wlabels.items():
            label.setText(names[key])
        self.opt_backward.setText(translate("Planner", "no stored gradients"))
        self.checkpointing.setText(translate("Planner", "recompute activations in backward"))
        self.chunked_ce.setText(translate("Planner", "no full-vocabulary logits kept"))
        self.model.retranslate()
        self._show_model_problem(self._model_error)
        labels = {self.task: TASK_LABELS, self.runtime: RUNTIME_LABELS, self.precision: PRECISION_LABELS,
                  self.finetune: FINETUNE_LABELS, self.optimizer: OPTIMIZER_LABELS, self.sharding: SHARDING_LABELS,
                  self.parallel: PARALLEL_LABELS, self.offload: OFFLOAD_LABELS, self.attention: ATTENTION_LABELS}
        for combo, table in labels.items():
            for i in range(combo.count()):
                value = combo.itemData(i)
                if value is not None:
                    combo.setItemText(i, translate("workload", table.get(value, value)))
        for i in range(self.quant.count()):
            self.quant.setItemText(i, translate("workload", quant_label(self.quant.itemData(i))))
        default_opt = translate("Planner", "model default (AdamW for transformers, SGD for CNNs)")
        self.optimizer.setItemText(0, default_opt)
        self.update_fields()
        self.batch.setSpecialValueText(translate("Planner", "model default"))
        self.seq.setSpecialValueText(translate("Planner", "model default"))
        self.dataset.setSpecialValueText(translate("Planner", "not set"))
        self.options_box.setTitle(translate("Planner", "Options"))
        onames = {
            "nvlink": translate("Planner", "NVLink bridge"),
            "cloud": translate("Planner", "Cloud rent per month"),
            "hours": translate("Planner", "Hours per day"),
            "tariff": translate("Planner", "Electricity per kWh"),
            "os": translate("Planner", "Operating system"),
            "nodes": translate("Planner", "Nodes like this one"),
            "interconnect": translate("Planner", "Network between nodes"),
        }
        self.nodes.setSpecialValueText(translate("Planner", "1 (no cluster)"))
        for key, label in self.olabels.items():
            label.setText(onames[key])
        self._fit_choice_popups()

    def _fit_choice_popups(self) -> None:
        """Each choice's list as wide as its longest entry (the box itself shows what fits of it)."""
        for box in self._shrinking:
            view = box.view()
            view.setMinimumWidth(view.sizeHintForColumn(0) + view.verticalScrollBar().sizeHint().width() + 12)
