"""The planner's build form: name and budget, a picker per part, the workload and the options.

It shows a Build and makes one from what the user chose; it decides nothing about the workload
(core's build reader does: an impossible choice stays as chosen and the results say why)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
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
    OPTIMIZERS,
    OS_CHOICES,
    PRECISIONS,
    SHARDING,
    Build,
    BuildPart,
    Cluster,
    Options,
    Workload,
)
from configurator.core.estimate.cluster import INTERCONNECTS, MAX_NODES
from configurator.core.model_specs import KNOWN_MODELS, custom_model_fields
from configurator.core.parts import CATEGORY_LABELS, AnyPart, FieldError
from configurator.ui.i18n import translate
from configurator.ui.planner.picker import PartPicker, mark_invalid

# The parts rows of the form: (key, category, has a quantity). A new category is one more row here.
ROWS = (("gpu", "gpu", True), ("cpu", "cpu", True), ("motherboard", "motherboard", False),
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


class BuildForm(QScrollArea):
    edited = Signal()  # the user changed something (not emitted while a build is being loaded)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("buildForm")
        self.setWidgetResizable(True)
        self._updating = False
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
        self.retranslate()

    def _make_parts(self) -> QGroupBox:
        self.parts_box = QGroupBox()
        grid = QGridLayout(self.parts_box)
        self.rows: dict[str, PartRow] = {}
        self.row_labels: dict[str, QLabel] = {}
        self.lbl_qty, self.lbl_used = QLabel(), QLabel()
        grid.addWidget(self.lbl_qty, 0, 2)
        grid.addWidget(self.lbl_used, 0, 3)
        for i, (key, cat, has_qty) in enumerate(ROWS, start=1):
            row = PartRow(key, cat, has_qty)
            row.combo.picked.connect(self._edited)
            row.qty.valueChanged.connect(self._edited)
            row.used.toggled.connect(self._edited)
            label = QLabel()
            label.setBuddy(row.combo)
            self.rows[key], self.row_labels[key] = row, label
            grid.addWidget(label, i, 0)
            grid.addWidget(row.combo, i, 1)
            grid.addWidget(row.qty, i, 2)
            grid.addWidget(row.used, i, 3)
        grid.setColumnStretch(1, 1)
        return self.parts_box

    def _make_workload(self) -> QGroupBox:
        self.workload_box = QGroupBox()
        self.workload_box.setCheckable(True)
        self.workload_box.toggled.connect(self._edited)
        wf = QFormLayout(self.workload_box)
        self.model = QComboBox()
        self.model.setObjectName("model")
        for m in (*KNOWN_MODELS, "custom"):
            self.model.addItem(m, m)
        self.task = QComboBox()
        self.task.setObjectName("task")
        self.precision = QComboBox()
        self.precision.setObjectName("precision")
        for p in PRECISIONS:
            self.precision.addItem(p, p)
        self.batch = QSpinBox()
        self.batch.setObjectName("batch")
        self.batch.setRange(0, 65536)
        self.seq = QSpinBox()
        self.seq.setObjectName("seqLen")
        self.seq.setRange(0, 1_000_000)
        self.optimizer = QComboBox()
        self.sharding = QComboBox()
        for s in SHARDING:
            self.sharding.addItem(s, s)
        self.checkpointing = QCheckBox()
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
            "model": self.model, "task": self.task, "precision": self.precision, "batch": self.batch,
            "seq": self.seq, "optimizer": self.optimizer, "sharding": self.sharding, "ckpt": self.checkpointing,
            "dataset": self.dataset, "params": self.custom_params, "layers": self.custom_layers,
            "hidden": self.custom_hidden, "heads": self.custom_heads, "image": self.custom_image}
        self.wlabels = {k: QLabel() for k in self.workload_fields}
        for key, w in self.workload_fields.items():
            wf.addRow(self.wlabels[key], w)
            _connect_edits(w, self._edited)
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
        workload = None
        if self.workload_box.isChecked():
            model = str(self.model.currentData())
            kw: dict[str, Any] = {"model": model, "task": str(self.task.currentData() or "train"),
                                  "precision": str(self.precision.currentData())}
            if self.batch.value():
                kw["batch_size"] = self.batch.value()
            if self.seq.value():
                kw["seq_len"] = self.seq.value()
            if self.optimizer.currentData():
                kw["optimizer"] = str(self.optimizer.currentData())
            kw["sharding"] = str(self.sharding.currentData())
            kw["grad_checkpointing"] = self.checkpointing.isChecked()
            if self.dataset.value():
                kw["dataset_gb"] = self.dataset.value()
            if model == "custom":
                kw.update(custom_model_fields(self.custom_params.value(), self.custom_layers.value(),
                                              self.custom_hidden.value(), self.custom_heads.value(),
                                              self.custom_image.value()))
            workload = Workload(**kw)
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
            for bp in build.parts:
                part = catalogue.get(bp.id)
                if part is None or not free.get(part.category):
                    continue
                row = free[part.category].pop(0)
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
                self.model.setCurrentIndex(max(self.model.findData(w.model), 0))
                self.task.setCurrentIndex(max(self.task.findData(w.task), 0))
                self.precision.setCurrentIndex(max(self.precision.findData(w.precision), 0))
                self.batch.setValue(w.batch_size or 0)
                self.seq.setValue(w.seq_len or 0)
                self.optimizer.setCurrentIndex(max(self.optimizer.findData(w.optimizer), 0))
                self.sharding.setCurrentIndex(max(self.sharding.findData(w.sharding), 0))
                self.checkpointing.setChecked(w.grad_checkpointing)
                self.dataset.setValue(w.dataset_gb or 0)
                self.custom_params.setValue(w.params or 0)
                self.custom_layers.setValue(w.layers or 0)
                self.custom_hidden.setValue(w.hidden or 0)
                self.custom_heads.setValue(w.heads or 0)
                self.custom_image.setValue(w.image_size or 0)
            self.show_custom_fields()
        finally:
            self._updating = False

    def show_custom_fields(self) -> None:
        custom = self.model.currentData() == "custom"
        layout = self.workload_box.layout()
        assert isinstance(layout, QFormLayout)
        for key in ("params", "layers", "hidden", "heads", "image"):
            layout.setRowVisible(self.wlabels[key], custom)

    def show_problems(self, errors: tuple[FieldError, ...] | list[FieldError]) -> None:
        """Core's problems with the workload, on the fields they name (``workload.precision``)."""
        by_field = {"workload.precision": "precision", "workload.task": "task", "workload.batch_size": "batch",
                    "workload.seq_len": "seq", "workload.params": "params", "workload.layers": "layers",
                    "workload.hidden": "hidden", "workload.heads": "heads", "workload.image_size": "image",
                    "workload.optimizer": "optimizer", "workload.sharding": "sharding"}
        problems: dict[str, list[str]] = {}
        for e in errors:
            key = by_field.get(e.path)
            if key is not None:
                problems.setdefault(key, []).append(e.message.render(translate))
        for key, widget in self.workload_fields.items():
            mark_invalid(widget, "\n".join(problems[key]) if key in problems else None)

    # -- language ---------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.lbl_name.setText(translate("Planner", "Name"))
        self.lbl_budget.setText(translate("Planner", "Budget"))
        self.budget.setSpecialValueText(translate("Planner", "no budget"))
        self.parts_box.setTitle(translate("Planner", "Parts"))
        self.lbl_qty.setText(translate("Planner", "Qty"))
        self.lbl_used.setText(translate("Planner", "Used"))
        titles = {
            "gpu": translate("Planner", "GPU"),
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
        for key, label in self.row_labels.items():  # a row of a new category: the category's own name
            label.setText(titles.get(key) or translate("parts", CATEGORY_LABELS.get(self.rows[key].category, key)))
        for row in self.rows.values():
            row.combo.retranslate()
            row.used.setToolTip(translate("Planner", "Bought used (BUD-4: test the VRAM before paying)"))
        self.workload_box.setTitle(translate("Planner", "Workload"))
        names = {
            "model": translate("Planner", "Model"),
            "task": translate("Planner", "Task"),
            "precision": translate("Planner", "Precision"),
            "batch": translate("Planner", "Batch per GPU"),
            "seq": translate("Planner", "Sequence length"),
            "optimizer": translate("Planner", "Optimizer"),
            "sharding": translate("Planner", "Sharding"),
            "ckpt": translate("Planner", "Gradient checkpointing"),
            "dataset": translate("Planner", "Data set"),
            "params": translate("Planner", "Parameters"),
            "layers": translate("Planner", "Layers"),
            "hidden": translate("Planner", "Hidden size"),
            "heads": translate("Planner", "Attention heads"),
            "image": translate("Planner", "Image size"),
        }
        for key, label in self.wlabels.items():
            label.setText(names[key])
        self._updating = True
        try:
            task, opt = self.task.currentData(), self.optimizer.currentData()
            self.task.clear()
            self.task.addItem(translate("Planner", "train"), "train")
            self.task.addItem(translate("Planner", "infer"), "infer")
            self.task.setCurrentIndex(max(self.task.findData(task), 0))
            self.optimizer.clear()
            self.optimizer.addItem(translate("Planner", "model default"), None)
            for o in OPTIMIZERS:
                self.optimizer.addItem(o, o)
            self.optimizer.setCurrentIndex(max(self.optimizer.findData(opt), 0))
            self.sharding.setItemText(self.sharding.findData("none"),
                                      translate("Planner", "none (a full copy per GPU)"))
        finally:
            self._updating = False
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
