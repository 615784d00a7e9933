"""The Planner tab: parts on the left, the engine's verdict on the right, recomputed on every edit."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTextBrowser,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from configurator.core.build import (
    MAX_BUILD_FILE_BYTES,
    OPTIMIZERS,
    OS_CHOICES,
    PRECISIONS,
    SHARDING,
    Build,
    BuildError,
    BuildPart,
    Options,
    Workload,
    build_to_dict,
    load_build_json,
    parse_build,
    resolve,
)
from configurator.core.cloud import CloudPrice
from configurator.core.engine import Report, check
from configurator.core.findings import ESTIMATE_LABELS
from configurator.core.models import KNOWN_MODELS
from configurator.core.parts import SUMMARY_FIELDS, AnyPart, part_to_dict
from configurator.core.presets import Preset, presets
from configurator.core.sheet import Sheet, build_sheet, main_throughput, throughput_chart
from configurator.store.cloud_prices import cloud_prices
from configurator.store.csvio import write_atomic
from configurator.store.repository import BuildsRepository, PartsRepository, RepositoryError
from configurator.ui.i18n import translate
from configurator.ui.models import display_value, header_text
from configurator.ui.planner.document import PlannerDocument
from configurator.ui.planner.widgets import FindingsTree, PcieMap, RatioBar
from configurator.ui.theme import colours, style_plot

# The parts rows of the form: (key, category, has a quantity).
ROWS = (("gpu", "gpu", True), ("cpu", "cpu", True), ("motherboard", "motherboard", False),
        ("memory", "memory", True), ("storage", "storage", True), ("storage2", "storage", True),
        ("psu", "psu", True), ("case", "case", False), ("cooler", "cooler", True), ("platform", "platform", False))
EMPTY_BUILD = Build(parts=(), name="", workload=Workload(model="resnet50", task="train", precision="amp"))


def part_label(part: AnyPart) -> str:
    d = part_to_dict(part)
    keys = SUMMARY_FIELDS[part.category][:3]
    bits = []
    for k in keys:
        unit = header_text(part.category, k)
        unit = unit[unit.rfind("(") + 1:-1] if unit.endswith(")") else ""
        value = display_value(k, d[k])
        bits.append(f"{value} {unit}".strip())
    return f"{part.name} — {' · '.join(bits)} · ¥{part.price_cny:,}"


def _set_text(label: QLabel, text: str) -> None:
    """Only relayout a label whose text really changed."""
    if label.text() != text:
        label.setText(text)


class PartRow:
    def __init__(self, key: str, category: str, has_qty: bool):
        self.key, self.category = key, category
        self.combo = QComboBox()
        self.combo.setObjectName(f"pick_{key}")
        self.combo.setEditable(True)
        self.combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.combo.setMinimumContentsLength(28)
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        completer = self.combo.completer()
        assert completer is not None
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.qty = QSpinBox()
        self.qty.setObjectName(f"qty_{key}")
        self.qty.setRange(1, 16)
        self.qty.setVisible(has_qty)
        self.used = QCheckBox()
        self.used.setObjectName(f"used_{key}")

    def fill(self, parts: list[AnyPart]) -> None:
        current = self.combo.currentData()
        self.combo.blockSignals(True)
        self.combo.clear()
        self.combo.addItem(translate("Planner", "— none —"), None)
        for p in sorted(parts, key=lambda p: (p.price_cny, p.name)):
            self.combo.addItem(part_label(p), p.id)
        self.select(current)
        self.combo.blockSignals(False)

    def select(self, part_id: str | None) -> None:
        i = self.combo.findData(part_id)
        self.combo.setCurrentIndex(max(i, 0))
        self.show_start()

    def show_start(self) -> None:
        """Long labels: show the part's name, not the tail of the line."""
        line = self.combo.lineEdit()
        if line is not None:
            line.setCursorPosition(0)

    def part_id(self) -> str | None:
        data = self.combo.currentData()
        return str(data) if data else None


class PlannerTab(QWidget):
    status_message = Signal(str)
    modified_changed = Signal(bool)  # the build has changes that are not saved (the window marks it)

    def __init__(self, parts: PartsRepository, builds: BuildsRepository, settings: QSettings,
                 parent: QWidget | None = None, runs_for_build: Callable[[int], list[Any]] | None = None,
                 load_presets: bool = True):
        """``load_presets=False``: the guides' tiers (presets, and the chart's reference points) wait
        for :meth:`load_presets`, which the app calls once the window has been painted."""
        super().__init__(parent)
        self.setObjectName("PlannerTab")
        self.parts_repo = parts
        self.builds = builds
        self.settings = settings
        self.runs_for_build = runs_for_build  # benchmark runs linked to a saved build
        self.setAcceptDrops(True)
        self.catalogue: dict[str, AnyPart] = {}
        self.cloud_prices: list[CloudPrice] | None = None  # BUD-3: the shipped table with the user's prices
        self.report: Report | None = None
        self.sheet: Sheet | None = None
        self._updating = False
        self._chart_key: object = None
        self._estimates_html = ""
        self._presets_wanted = load_presets
        self.tiers: list[Preset] = []
        self.doc = PlannerDocument(EMPTY_BUILD, self)
        self.doc.changed.connect(self._on_build_changed)
        self.doc.modified_changed.connect(self.modified_changed)

        self.toolbar = QToolBar()
        self.toolbar.setObjectName("plannerToolbar")
        self._make_actions()
        self._make_form()
        self._make_results()

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.form_scroll)
        splitter.addWidget(self.results)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([560, 840])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 4)
        layout.addWidget(self.toolbar)
        layout.addWidget(splitter, 1)

        # Coalesce bursts of edits (typing in a spin box) into one check per event-loop turn.
        self._pending = QTimer(self)
        self._pending.setSingleShot(True)
        self._pending.setInterval(0)
        self._pending.timeout.connect(self._commit_now)

        self.reload_catalogue()
        self.retranslate()
        self._on_build_changed(self.doc.build)

    # -- construction -------------------------------------------------------------
    def _make_actions(self) -> None:
        tb = self.toolbar
        self.act_new = QAction(self)
        self.act_new.triggered.connect(self.new_build)
        self.act_open = QAction(self)
        self.act_open.triggered.connect(self.open_saved_dialog)
        self.act_save = QAction(self)
        self.act_save.setShortcut(QKeySequence.StandardKey.Save)
        self.act_save.triggered.connect(self.save)
        self.act_duplicate = QAction(self)
        self.act_duplicate.triggered.connect(self.duplicate)
        self.act_delete = QAction(self)
        self.act_delete.triggered.connect(self.delete_saved)
        self.act_import = QAction(self)
        self.act_import.triggered.connect(self.import_dialog)
        self.act_export = QAction(self)
        self.act_export.triggered.connect(self.export_dialog)
        self.act_pdf = QAction(self)
        self.act_pdf.triggered.connect(self.export_pdf_dialog)
        self.act_suggest = QAction(self)
        self.act_suggest.setObjectName("suggestAction")
        self.act_suggest.triggered.connect(self.suggest_dialog)
        self.act_undo = self.doc.undo_stack.createUndoAction(self)
        self.act_undo.setShortcut(QKeySequence.StandardKey.Undo)
        self.act_redo = self.doc.undo_stack.createRedoAction(self)
        self.act_redo.setShortcut(QKeySequence.StandardKey.Redo)
        self.presets_menu = QMenu(self)
        self.presets_button = QToolButton()
        self.presets_button.setObjectName("presetsButton")
        self.presets_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.presets_button.setMenu(self.presets_menu)
        for a in (self.act_new, self.act_open, self.act_save, self.act_duplicate, self.act_delete):
            tb.addAction(a)
        tb.addSeparator()
        for a in (self.act_import, self.act_export, self.act_pdf):
            tb.addAction(a)
        tb.addSeparator()
        tb.addWidget(self.presets_button)
        tb.addAction(self.act_suggest)
        tb.addSeparator()
        tb.addAction(self.act_undo)
        tb.addAction(self.act_redo)

    def _make_form(self) -> None:
        host = QWidget()
        v = QVBoxLayout(host)
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("buildName")
        self.name_edit.editingFinished.connect(self._schedule)
        self.budget = QSpinBox()
        self.budget.setObjectName("budget")
        self.budget.setRange(0, 100_000_000)
        self.budget.setSingleStep(1000)
        self.budget.setPrefix("¥ ")
        self.budget.setGroupSeparatorShown(True)
        self.budget.valueChanged.connect(self._schedule)
        top = QFormLayout()
        self.lbl_name, self.lbl_budget = QLabel(), QLabel()
        top.addRow(self.lbl_name, self.name_edit)
        top.addRow(self.lbl_budget, self.budget)
        v.addLayout(top)

        self.parts_box = QGroupBox()
        grid = QGridLayout(self.parts_box)
        self.rows: dict[str, PartRow] = {}
        self.row_labels: dict[str, QLabel] = {}
        self.lbl_qty, self.lbl_used = QLabel(), QLabel()
        grid.addWidget(self.lbl_qty, 0, 2)
        grid.addWidget(self.lbl_used, 0, 3)
        for i, (key, cat, has_qty) in enumerate(ROWS, start=1):
            row = PartRow(key, cat, has_qty)
            row.combo.currentIndexChanged.connect(self._schedule)
            row.combo.currentIndexChanged.connect(lambda _i, r=row: r.show_start())
            row.qty.valueChanged.connect(self._schedule)
            row.used.toggled.connect(self._schedule)
            label = QLabel()
            self.rows[key], self.row_labels[key] = row, label
            grid.addWidget(label, i, 0)
            grid.addWidget(row.combo, i, 1)
            grid.addWidget(row.qty, i, 2)
            grid.addWidget(row.used, i, 3)
        grid.setColumnStretch(1, 1)
        v.addWidget(self.parts_box)

        self.workload_box = QGroupBox()
        self.workload_box.setCheckable(True)
        self.workload_box.toggled.connect(self._schedule)
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
        self.wlabels = {k: QLabel() for k in ("model", "task", "precision", "batch", "seq", "optimizer",
                                               "sharding", "ckpt", "dataset", "params", "layers", "hidden",
                                               "heads", "image")}
        for key, w in (("model", self.model), ("task", self.task), ("precision", self.precision),
                       ("batch", self.batch), ("seq", self.seq), ("optimizer", self.optimizer),
                       ("sharding", self.sharding), ("ckpt", self.checkpointing), ("dataset", self.dataset),
                       ("params", self.custom_params), ("layers", self.custom_layers),
                       ("hidden", self.custom_hidden), ("heads", self.custom_heads), ("image", self.custom_image)):
            wf.addRow(self.wlabels[key], w)
            for signal in ("currentIndexChanged", "valueChanged", "toggled"):
                if hasattr(w, signal):
                    getattr(w, signal).connect(self._schedule)
        v.addWidget(self.workload_box)

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
        self.olabels = {k: QLabel() for k in ("nvlink", "cloud", "hours", "tariff", "os")}
        for key, w in (("nvlink", self.nvlink), ("cloud", self.cloud), ("hours", self.hours),
                       ("tariff", self.tariff), ("os", self.os_combo)):
            of.addRow(self.olabels[key], w)
            for signal in ("currentIndexChanged", "valueChanged", "toggled"):
                if hasattr(w, signal):
                    getattr(w, signal).connect(self._schedule)
        v.addWidget(self.options_box)
        v.addStretch(1)
        self.form_scroll = QScrollArea()
        self.form_scroll.setWidgetResizable(True)
        self.form_scroll.setWidget(host)

    def _make_results(self) -> None:
        self.results = QWidget()
        v = QVBoxLayout(self.results)
        v.setContentsMargins(6, 0, 0, 0)
        self.verdict = QLabel()
        self.verdict.setObjectName("verdict")
        self.verdict.setWordWrap(True)
        v.addWidget(self.verdict)
        bars = QGridLayout()
        self.bars = {k: RatioBar() for k in ("price", "power", "vram", "ram")}
        for i, key in enumerate(("price", "power", "vram", "ram")):
            self.bars[key].setObjectName(f"bar_{key}")
            bars.addWidget(self.bars[key], i // 2, i % 2)
        v.addLayout(bars)
        # A text browser, not a word-wrapped label: its layout stays inside it, so an edit
        # does not re-lay out the whole tab (that alone cost most of a frame).
        self.estimates_label = QTextBrowser()
        self.estimates_label.setObjectName("estimates")
        self.estimates_label.setFrameShape(QTextBrowser.Shape.NoFrame)
        self.estimates_label.setFixedHeight(205)
        self.estimates_label.viewport().setAutoFillBackground(False)
        v.addWidget(self.estimates_label)
        lower = QSplitter(Qt.Orientation.Vertical)
        self.findings = FindingsTree()
        lower.addWidget(self.findings)
        bottom = QSplitter(Qt.Orientation.Horizontal)
        self.pcie_map = PcieMap()
        pcie_box = QGroupBox()
        self.pcie_box = pcie_box
        QVBoxLayout(pcie_box).addWidget(self.pcie_map)
        self.chart = pg.PlotWidget()
        self.chart.setObjectName("throughputChart")
        self._scheme = colours(self.palette())
        style_plot(self.chart, self._scheme, background=False)  # on the window's colour
        self.chart.setMouseEnabled(x=False, y=False)
        self.chart.hideButtons()
        self.chart.setMenuEnabled(False)
        self.chart.getPlotItem().showGrid(y=True, alpha=0.25)
        self.chart_box = QGroupBox()
        QVBoxLayout(self.chart_box).addWidget(self.chart)
        bottom.addWidget(pcie_box)
        bottom.addWidget(self.chart_box)
        lower.addWidget(bottom)
        lower.setStretchFactor(0, 3)
        lower.setStretchFactor(1, 2)
        v.addWidget(lower, 1)

    # -- catalogue ----------------------------------------------------------------------
    def reload_catalogue(self) -> None:
        self.catalogue = {p.id: p for p in self.parts_repo.list_parts()}
        self.cloud_prices = cloud_prices(self.parts_repo.store)
        by_cat: dict[str, list[AnyPart]] = {}
        for p in self.catalogue.values():
            by_cat.setdefault(p.category, []).append(p)
        for row in self.rows.values():
            row.fill(by_cat.get(row.category, []))
        if self._presets_wanted:
            self._make_presets()
        else:
            self.presets_menu.clear()
            self.presets_menu.addAction(translate("Planner", "Working out the guides' tiers…")).setEnabled(False)
        self._chart_key = None
        if self.doc is not None and hasattr(self, "verdict"):
            self._load_widgets(self.doc.build)
            self._recompute(self.doc.build)

    def load_presets(self) -> None:
        """The guides' tiers, filled from this catalogue: the Presets menu and the chart's references."""
        self._presets_wanted = True
        self._make_presets()
        self._chart_key = None
        self._recompute(self.doc.build)

    def _make_presets(self) -> None:
        self.presets_menu.clear()
        self.tiers = presets(self.catalogue)
        for preset in self.tiers:
            act = self.presets_menu.addAction(f"{preset.tier.id} · {preset.tier.source} · {preset.tier.name}")
            act.setData(preset.tier.id)
            act.triggered.connect(lambda _c=False, p=preset: self.apply_preset(p))

    # -- widgets <-> build ------------------------------------------------------------------
    def _schedule(self, *_args: object) -> None:
        if not self._updating:
            self._pending.start()

    def _commit_now(self) -> None:
        self.doc.edit(self.build_from_widgets(), translate("Planner", "Edit build"))

    def build_from_widgets(self) -> Build:
        parts: list[BuildPart] = []
        for row in self.rows.values():
            pid = row.part_id()
            if pid:
                qty = row.qty.value() if row.qty.isVisible() or row.qty.value() > 1 else 1
                parts.append(BuildPart(pid, qty, row.used.isChecked()))
        options = Options(nvlink_bridge=self.nvlink.isChecked(), cloud_cny_per_month=self.cloud.value(),
                          hours_per_day=self.hours.value(), electricity_cny_per_kwh=self.tariff.value(),
                          os=str(self.os_combo.currentData()))
        workload = None
        if self.workload_box.isChecked():
            model = str(self.model.currentData())
            kw: dict[str, Any] = {"model": model, "task": str(self.task.currentData() or "train"),
                                  "precision": str(self.precision.currentData())}
            if kw["task"] == "train" and kw["precision"] in ("int8", "int4"):
                kw["precision"] = "amp"
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
                kw["params"] = self.custom_params.value() or 1e6
                if self.custom_layers.value():
                    kw.update(family="transformer", layers=self.custom_layers.value(),
                              hidden=self.custom_hidden.value() or 768, heads=self.custom_heads.value() or 12)
                else:
                    kw.update(family="cnn", image_size=self.custom_image.value() or 224)
            workload = Workload(**kw)
        budget = float(self.budget.value()) if self.budget.value() else None
        return Build(tuple(parts), self.name_edit.text().strip(), budget, options, workload)

    def _load_widgets(self, build: Build) -> None:
        self._updating = True
        try:
            self.name_edit.setText(build.name)
            self.budget.setValue(int(build.budget_cny or 0))
            for each in self.rows.values():
                each.select(None)
                each.qty.setValue(1)
                each.used.setChecked(False)
            storage_rows = ["storage", "storage2"]
            for bp in build.parts:
                part = self.catalogue.get(bp.id)
                if part is None:
                    continue
                key = part.category
                if part.category == "storage":
                    if not storage_rows:
                        continue
                    key = storage_rows.pop(0)
                row = self.rows.get(key)
                if row is None:
                    continue
                row.select(bp.id)
                row.qty.setValue(bp.qty)
                row.used.setChecked(bp.used)
            o = build.options
            self.nvlink.setChecked(o.nvlink_bridge)
            self.cloud.setValue(o.cloud_cny_per_month)
            self.hours.setValue(o.hours_per_day)
            self.tariff.setValue(o.electricity_cny_per_kwh)
            self.os_combo.setCurrentIndex(max(self.os_combo.findData(o.os), 0))
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
            self._show_custom_fields()
        finally:
            self._updating = False

    def _show_custom_fields(self) -> None:
        custom = self.model.currentData() == "custom"
        layout = self.workload_box.layout()
        assert isinstance(layout, QFormLayout)
        for key in ("params", "layers", "hidden", "heads", "image"):
            layout.setRowVisible(self.wlabels[key], custom)

    def _on_build_changed(self, build: Build) -> None:
        if self.build_from_widgets() != build:
            self._load_widgets(build)
        else:
            self._show_custom_fields()
        self._recompute(build)

    # -- results ------------------------------------------------------------------------------
    def _recompute(self, build: Build) -> None:
        self.report = report = check(build, self.catalogue, cloud_prices=self.cloud_prices)
        self.findings.show_findings(list(report.findings))
        errors = len(report.errors)
        warnings = sum(f.severity == "warning" for f in report.findings)
        if not build.parts:
            text = translate("Planner", "Pick parts on the left, or start from a preset or Suggest. Findings and "
                                        "estimates appear here as you choose.")
            colour = self.palette().windowText().color().name()
        elif errors:
            text = translate("Planner", "{n} error(s): this build will not work as planned.").replace(
                "{n}", str(errors))
            colour = colours(self.palette()).error
        elif warnings:
            text = translate("Planner", "No errors; {n} recommendation(s) from the guides not met.").replace(
                "{n}", str(warnings))
            colour = colours(self.palette()).warning
        else:
            text = translate("Planner", "No errors and no warnings.")
            colour = colours(self.palette()).ok
        _set_text(self.verdict, f"<b style='color:{colour}'>{text}</b>")
        sheet = build_sheet(build, self.catalogue, report, with_chart=False)
        self.sheet = sheet
        self._show_bars(sheet)
        r = resolve(build, self.catalogue)
        self.pcie_map.set_layout(r.board, sheet.seats)
        self._show_estimates(report)
        self._show_chart(build, report)

    def _show_bars(self, sheet: Sheet) -> None:
        titles = {"price": translate("Planner", "Price against budget"),
                  "power": translate("Planner", "Peak power against the PSU"),
                  "vram": translate("Planner", "VRAM need per GPU against capacity"),
                  "ram": translate("Planner", "RAM need against installed")}
        by_key = {b.key: b for b in sheet.bars}
        for key, widget in self.bars.items():
            bar = by_key.get(key)
            if bar is None:
                widget.set_values(titles[key], translate("Planner", "n/a"), None)
                continue
            if key == "price":
                text = f"¥{bar.value:,.0f}" + (f" / ¥{bar.limit:,.0f}" if bar.limit else "")
            else:
                text = f"{bar.value:,.1f} {bar.unit}" + (f" / {bar.limit:,.0f} {bar.unit}" if bar.limit else "")
            widget.set_values(titles[key], text, bar.ratio)

    def _show_estimates(self, report: Report) -> None:
        rows = []
        shown = ("throughput_one_gpu", "throughput_total", "throughput_batch", "scaling_efficiency",
                 "prefill_tokens_per_s", "throughput_cpu", "largest_batch", "throughput_per_kcny")
        labels = {k: translate("estimates", ESTIMATE_LABELS[k]) for k in shown}
        muted = colours(self.palette()).muted_text
        for e in report.estimates:
            if e.key not in labels or e.value is None:
                continue
            if e.key == "scaling_efficiency":
                value = f"{e.value:.0%}"
            elif e.key == "largest_batch":
                value = f"{int(e.value):,}"
            else:
                value = f"{e.value:,.1f} {e.unit}"
                if e.low is not None and e.high is not None:  # the cross-validated range
                    value += (f"<br><span style='font-weight:normal;color:{muted}'>"
                              f"{e.low:,.0f}–{e.high:,.0f}</span>")
            rows.append(f"<tr><td style='padding-right:10px'>{labels[e.key]}</td><td><b>{value}</b></td>"
                        f"<td style='padding-left:10px;color:{muted}'>{e.how.render(translate)}</td></tr>")
        months = next((f for f in report.findings if f.rule == "BUD-3"), None)
        if months is not None and months.numbers.get("months") is not None:
            label = translate("Planner", "Break-even against renting")
            unit = translate("Planner", "months")
            rows.append(f"<tr><td>{label}</td><td><b>{months.numbers['months']:.1f} {unit}</b></td>"
                        f"<td style='padding-left:10px;color:{muted}'>BUD-3 · M 四.1</td></tr>")
        html = ("<table cellspacing='0' cellpadding='1'>" + "".join(rows) + "</table>" if rows else
                translate("Planner", "Add a GPU or CPU and a workload to see throughput estimates."))
        if html != self._estimates_html:
            self._estimates_html = html
            self.estimates_label.setHtml(html)

    def _show_chart(self, build: Build, report: Report) -> None:
        if build.workload is None:
            self.chart.clear()
            return
        key = (build.workload, build.name, main_throughput(report))
        if key == self._chart_key:
            return
        self._chart_key = key
        points, unit = throughput_chart(build, self.catalogue, report, self.tiers)
        plot = self.chart.getPlotItem()
        plot.clear()
        xs = list(range(len(points)))
        heights = [p.value for p in points]
        c = colours(self.palette())
        brushes = [pg.mkBrush(c.accent if p.this_build else c.neutral_fill) for p in points]
        plot.addItem(pg.BarGraphItem(x=xs, height=heights, width=0.6, brushes=brushes))
        names = [translate("Planner", "This build") if p.this_build else p.label.replace("TIER-", "")
                 for p in points]
        plot.getAxis("bottom").setTicks([list(zip(xs, names, strict=True))])
        plot.setLabel("left", unit)
        plot.setTitle(translate("Planner", "Estimated throughput beside the guides' tiers (same workload)"),
                      size="9pt", color=c.plot_foreground)

    # -- actions ----------------------------------------------------------------------------
    def maybe_discard(self) -> bool:
        """True if the build may be replaced: it has no unsaved changes, or the user saved them or
        chose to discard them (Save / Discard / Cancel)."""
        if not self.doc.modified:
            return True
        name = self.doc.build.name or translate("Planner", "Untitled build")
        box = QMessageBox(QMessageBox.Icon.Warning, translate("Planner", "Unsaved changes"),
                          translate("Planner", "“{name}” has changes that are not saved.").replace("{name}", name),
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self)
        box.setObjectName("unsavedChanges")
        box.setInformativeText(translate("Planner", "Save them before going on?"))
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        answer = box.exec()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_build(self) -> None:
        if self.maybe_discard():
            self.doc.replace(EMPTY_BUILD)

    def apply_preset(self, preset: Any) -> None:
        """A preset opens as a new, unsaved build; undo goes back to the build before it."""
        build = Build(preset.build.parts, preset.tier.name, None, preset.build.options, preset.build.workload)
        self.doc.start_new(build, translate("Planner", "Preset {id}").replace("{id}", preset.tier.id))
        filled = ", ".join(self.catalogue[i].name for i in preset.filled if i in self.catalogue)
        self.status_message.emit(translate("Planner", "Preset {id} ({source}); filled in: {filled}").replace(
            "{id}", preset.tier.id).replace("{source}", preset.tier.source).replace("{filled}", filled or "—"))

    def suggest_dialog(self) -> None:
        from configurator.ui.planner.suggest_dialog import SuggestDialog

        build = self.doc.build
        dialog = SuggestDialog(self.catalogue, build.budget_cny or 20000.0, build.workload, self)
        if dialog.exec() and dialog.chosen is not None:
            # A new, unsaved build: it never takes the name (or the saved row) of the build that was open.
            chosen = dialog.chosen.build
            self.doc.start_new(Build(chosen.parts, translate("Planner", "Suggested build"), chosen.budget_cny,
                                     build.options, chosen.workload), translate("Planner", "Suggested build"))

    def save(self) -> bool:
        build = self.doc.build
        name = build.name
        if not name:
            name, ok = QInputDialog.getText(self, translate("Planner", "Save build"), translate("Planner", "Name:"))
            if not ok or not name.strip():
                return False
            name = name.strip()
            build = Build(build.parts, name, build.budget_cny, build.options, build.workload)
            self.doc.edit(build, translate("Planner", "Rename"))
        try:
            saved_id = self.builds.save(name, build_to_dict(build), self.doc.saved_id)
        except RepositoryError:
            saved_id = self.builds.save(name, build_to_dict(build), None)
        self.doc.mark_saved(saved_id)
        self.status_message.emit(translate("Planner", "Saved “{name}”.").replace("{name}", name))
        return True

    def duplicate(self) -> None:
        build = self.doc.build
        name = (build.name or translate("Planner", "Build")) + " " + translate("Planner", "(copy)")
        copy = Build(build.parts, name, build.budget_cny, build.options, build.workload)
        saved_id = self.builds.save(name, build_to_dict(copy))
        self.doc.start_new(copy, translate("Planner", "Duplicate"))
        self.doc.mark_saved(saved_id)
        self.status_message.emit(translate("Planner", "Saved “{name}”.").replace("{name}", name))

    def delete_saved(self) -> None:
        if self.doc.saved_id is None:
            self.status_message.emit(translate("Planner", "This build is not saved."))
            return
        answer = QMessageBox.question(self, translate("Planner", "Delete build"),
                                      translate("Planner", "Delete the saved build “{name}”?").replace(
                                          "{name}", self.doc.build.name))
        if answer == QMessageBox.StandardButton.Yes:
            self.builds.delete(self.doc.saved_id)
            self.doc.saved_id = None
            self.doc.undo_stack.resetClean()  # what is on screen is now saved nowhere

    def open_saved_dialog(self) -> None:
        saved = self.builds.list()
        dialog = QDialog(self)
        dialog.setWindowTitle(translate("Planner", "Open a saved build"))
        lst = QListWidget()
        lst.setObjectName("savedBuilds")
        for b in saved:
            item = QListWidgetItem(f"{b.name}  —  {b.updated_at:%Y-%m-%d %H:%M}")
            item.setData(Qt.ItemDataRole.UserRole, b.id)
            lst.addItem(item)
        if not saved:
            lst.addItem(translate("Planner", "No saved builds yet: Save keeps the current one."))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        lst.itemDoubleClicked.connect(lambda _i: dialog.accept())
        layout = QVBoxLayout(dialog)
        layout.addWidget(lst)
        layout.addWidget(buttons)
        dialog.resize(460, 360)
        if dialog.exec() and lst.currentItem() is not None:
            build_id = lst.currentItem().data(Qt.ItemDataRole.UserRole)
            if build_id is not None:
                self.open_saved(int(build_id))

    def open_saved(self, build_id: int) -> bool:
        saved = self.builds.get(build_id)
        if saved is None:
            return False
        try:
            build = parse_build(saved.data, self.catalogue)
        except BuildError as exc:
            self._show_build_errors(saved.name, exc)
            return False
        if not self.maybe_discard():
            return False
        self.doc.replace(build, saved_id=build_id)
        return True

    def import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, translate("Planner", "Import build file"), str(Path.home()),
                                              translate("Planner", "Build files (*.json);;All files (*)"))
        if path:
            self.import_file(Path(path))

    def import_file(self, path: Path) -> bool:
        try:
            if not path.is_file():  # a folder, a FIFO (which would block), a device
                raise OSError(translate("Planner", "not a regular file"))
            with path.open("rb") as f:  # bounded, as the command line reads it
                raw = f.read(MAX_BUILD_FILE_BYTES + 1)
            build = parse_build(load_build_json(raw), self.catalogue)
        except OSError as exc:
            QMessageBox.warning(self, translate("Planner", "Cannot import"),
                                translate("Planner", "{path} could not be read: {error}").replace(
                                    "{path}", str(path)).replace("{error}", exc.strerror or str(exc)))
            return False
        except BuildError as exc:
            self._show_build_errors(str(path), exc)
            return False
        if not self.maybe_discard():
            return False
        self.doc.replace(build)
        self.status_message.emit(translate("Planner", "Imported {path}.").replace("{path}", path.name))
        return True

    def _show_build_errors(self, where: str, exc: BuildError) -> None:
        detail = "\n".join(e.render(translate) for e in exc.errors)
        box = QMessageBox(QMessageBox.Icon.Warning, translate("Planner", "Cannot use this build file"),
                          translate("Planner", "{where} has problems; nothing was changed:").replace(
                              "{where}", where), QMessageBox.StandardButton.Ok, self)
        box.setInformativeText(detail)
        box.setObjectName("buildErrors")
        self.last_error = detail
        box.open()

    def export_dialog(self) -> None:
        default = str(Path.home() / f"{self.doc.build.name or 'build'}.json")
        path, _ = QFileDialog.getSaveFileName(self, translate("Planner", "Export build file"), default,
                                              translate("Planner", "Build files (*.json)"))
        if path:
            self.export_file(Path(path))

    def export_file(self, path: Path) -> None:
        text = json.dumps(build_to_dict(self.doc.build), ensure_ascii=False, indent=2) + "\n"
        try:
            write_atomic(path, text)
        except OSError as exc:
            QMessageBox.warning(self, translate("Planner", "Export failed"), str(exc))
            return
        self.status_message.emit(translate("Planner", "Wrote {path}.").replace("{path}", str(path)))

    def export_pdf_dialog(self) -> None:
        default = str(Path.home() / f"{self.doc.build.name or 'build'}.pdf")
        path, _ = QFileDialog.getSaveFileName(self, translate("Planner", "Export build sheet"), default,
                                              translate("Planner", "PDF files (*.pdf)"))
        if path:
            self.export_pdf(Path(path))

    def export_pdf(self, path: Path) -> bool:
        from configurator.ui.pdf import write_sheet_pdf

        sheet = build_sheet(self.doc.build, self.catalogue)
        if self.runs_for_build is not None and self.doc.saved_id is not None:
            runs = self.runs_for_build(self.doc.saved_id)
            if runs:  # the newest linked run, measured results only
                sheet.benchmark = [(r.name, float(r.value), r.unit or "") for r in runs[0].rows
                                   if r.status == "ok" and r.value is not None]
        try:
            write_sheet_pdf(sheet, path)
        except OSError as exc:
            QMessageBox.warning(self, translate("Planner", "Export failed"), str(exc))
            return False
        self.status_message.emit(translate("Planner", "Wrote {path}.").replace("{path}", str(path)))
        return True

    # -- drag and drop ----------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls()
        if len(urls) == 1 and urls[0].toLocalFile().lower().endswith(".json"):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        self.import_file(Path(event.mimeData().urls()[0].toLocalFile()))
        event.acceptProposedAction()

    # -- language ---------------------------------------------------------------------------
    def retranslate(self) -> None:
        actions = (
            (self.act_new, translate("Planner", "New")),
            (self.act_open, translate("Planner", "Open…")),
            (self.act_save, translate("Planner", "Save")),
            (self.act_duplicate, translate("Planner", "Duplicate")),
            (self.act_delete, translate("Planner", "Delete")),
            (self.act_import, translate("Planner", "Import…")),
            (self.act_export, translate("Planner", "Export…")),
            (self.act_pdf, translate("Planner", "PDF…")),
            (self.act_suggest, translate("Planner", "Suggest…")),
        )
        for act, text in actions:
            act.setText(text)
        self.act_undo.setText(translate("Planner", "Undo"))
        self.act_redo.setText(translate("Planner", "Redo"))
        self.presets_button.setText(translate("Planner", "Presets"))
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
        for key, label in self.row_labels.items():
            label.setText(titles[key])
        for row in self.rows.values():
            row.combo.setItemText(0, translate("Planner", "— none —"))
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
        self.sharding.setItemText(self.sharding.findData("none"), translate("Planner", "none (a full copy per GPU)"))
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
        }
        for key, label in self.olabels.items():
            label.setText(onames[key])
        self.pcie_box.setTitle(translate("Planner", "PCIe map"))
        self.chart_box.setTitle(translate("Planner", "Throughput"))
        self._chart_key = None
        self.findings.retranslate()
        if hasattr(self, "report") and self.report is not None:
            self._recompute(self.doc.build)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.PaletteChange and hasattr(self, "_scheme") \
                and colours(self.palette()) is not self._scheme:
            self.restyle()
        super().changeEvent(event)

    def restyle(self) -> None:
        """The chart, the verdict and the estimates in the colours of the palette's scheme."""
        self._scheme = colours(self.palette())
        style_plot(self.chart, self._scheme, background=False)
        self._chart_key = None
        if self.report is not None:
            self._recompute(self.doc.build)


