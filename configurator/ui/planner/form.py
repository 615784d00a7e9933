"""The planner's build form: name and budget, a picker per part, the workload (workload_form.py, which of its
fields apply: workload_rules.py) and the options.

It shows a Build and makes one from what the user chose; it decides nothing about the workload
(core's build reader does: an impossible choice stays as chosen and the results say why)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
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

from configurator.core.build import OS_CHOICES, Build, BuildPart, Cluster, Options
from configurator.core.estimate.cluster import INTERCONNECTS, MAX_NODES
from configurator.core.i18n import fill
from configurator.core.parts import CATEGORY_LABELS, AnyPart
from configurator.ui.i18n import translate
from configurator.ui.planner.picker import PartPicker
from configurator.ui.planner.workload_form import WorkloadForm, connect_edits

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


class BuildForm(WorkloadForm, QScrollArea):
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
            connect_edits(w, self._edited)
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
                self._load_workload(w)
            self.show_custom_fields()
        finally:
            self._updating = False

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
        self._retranslate_workload()
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
