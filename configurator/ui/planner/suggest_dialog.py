"""Suggest: budget and workload in, the best build and alternatives out, one to pick."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from configurator.core.build import PRECISIONS, Workload
from configurator.core.model_specs import KNOWN_MODELS
from configurator.core.parts import AnyPart
from configurator.core.suggest import DEFAULT_WORKLOAD, Suggestion, suggest
from configurator.ui.i18n import translate


class SuggestDialog(QDialog):
    def __init__(self, catalogue: dict[str, AnyPart], budget: float, workload: Workload | None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.catalogue = catalogue
        self.chosen: Suggestion | None = None
        self.found: list[Suggestion] = []
        self.setWindowTitle(translate("Suggest", "Suggest a build"))
        self.resize(760, 520)
        self.budget = QSpinBox()
        self.budget.setObjectName("suggestBudget")
        self.budget.setRange(1000, 100_000_000)
        self.budget.setSingleStep(1000)
        self.budget.setPrefix("¥ ")
        self.budget.setGroupSeparatorShown(True)
        self.budget.setValue(int(budget))
        self.model = QComboBox()
        for m in KNOWN_MODELS:
            self.model.addItem(m, m)
        self.task = QComboBox()
        self.task.addItem(translate("Planner", "train"), "train")
        self.task.addItem(translate("Planner", "infer"), "infer")
        self.precision = QComboBox()
        for p in PRECISIONS:
            self.precision.addItem(p, p)
        w = workload if workload is not None and workload.model in KNOWN_MODELS else DEFAULT_WORKLOAD
        self.model.setCurrentIndex(self.model.findData(w.model))
        self.task.setCurrentIndex(self.task.findData(w.task))
        self.precision.setCurrentIndex(self.precision.findData(w.precision))
        self.run_button = QPushButton(translate("Suggest", "Find builds"))
        self.run_button.setObjectName("findBuilds")
        self.run_button.clicked.connect(self.run)
        form = QFormLayout()
        form.addRow(translate("Planner", "Budget"), self.budget)
        form.addRow(translate("Planner", "Model"), self.model)
        form.addRow(translate("Planner", "Task"), self.task)
        form.addRow(translate("Planner", "Precision"), self.precision)
        self.note = QLabel(translate("Suggest", "The build with no errors and the highest estimated throughput "
                                                "within the budget, then alternatives with other GPUs."))
        self.note.setWordWrap(True)
        self.results = QTreeWidget()
        self.results.setObjectName("suggestions")
        self.results.setHeaderLabels([translate("Suggest", "Build"), translate("Suggest", "Throughput"),
                                      translate("Suggest", "Price")])
        self.results.setColumnWidth(0, 430)
        self.results.itemDoubleClicked.connect(lambda _i, _c: self.accept_current())
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(translate("Suggest", "Use this build"))
        self.buttons.accepted.connect(self.accept_current)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.run_button)
        layout.addWidget(self.note)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.buttons)

    def workload(self) -> Workload:
        return Workload(model=str(self.model.currentData()), task=str(self.task.currentData()),
                        precision=str(self.precision.currentData()))

    def run(self) -> None:
        w = self.workload()
        if w.task == "train" and w.precision in ("int8", "int4"):
            w = Workload(model=w.model, task=w.task, precision="amp")
        self.found = suggest(self.catalogue, float(self.budget.value()), w)
        self.results.clear()
        if not self.found:
            item = QTreeWidgetItem([translate("Suggest", "No build without errors fits this budget.")])
            self.results.addTopLevelItem(item)
            return
        for i, s in enumerate(self.found):
            title = translate("Suggest", "Best") if i == 0 else translate("Suggest", "Alternative {n}").replace(
                "{n}", str(i))
            gpu = next((self.catalogue[p.id].name + (f" × {p.qty}" if p.qty > 1 else "")
                        for p in s.build.parts if self.catalogue[p.id].category == "gpu"),
                       translate("Suggest", "CPU only"))
            top = QTreeWidgetItem([f"{title}: {gpu}", f"{s.throughput:,.1f} {s.unit}", f"¥{s.total_cny:,}"])
            top.setData(0, Qt.ItemDataRole.UserRole, i)
            for p in s.build.parts:
                part = self.catalogue[p.id]
                qty = f"{p.qty} × " if p.qty > 1 else ""
                top.addChild(QTreeWidgetItem([f"{qty}{part.name}", "", f"¥{part.price_cny * p.qty:,}"]))
            self.results.addTopLevelItem(top)
        first = self.results.topLevelItem(0)
        if first is not None:
            self.results.setCurrentItem(first)
            first.setExpanded(True)

    def accept_current(self) -> None:
        item = self.results.currentItem()
        while item is not None and item.parent() is not None:
            item = item.parent()
        if item is None or item.data(0, Qt.ItemDataRole.UserRole) is None:
            return
        self.chosen = self.found[int(item.data(0, Qt.ItemDataRole.UserRole))]
        self.accept()
