"""The Planner's Upgrade panel: for a build (the saved "This machine" when there is one, or the build in
the planner) and the evidence there is (a monitor recording, a stored benchmark run), what limits it,
with the evidence and the rule; the cheapest catalogue changes the engine accepts, each with its gain,
range, price and price per percent; and what the guide's upgrade path (UPG-1) says, with its erratum.

The advisor checks every candidate as a whole build (seconds): it runs on the task runner, and an answer
for inputs that have changed since is dropped. "Apply as a new build" opens the upgraded build as a new,
unsaved one in the planner; undo goes back to the build that was open, and nothing saved is changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from configurator.core.build import Build, BuildError, parse_build
from configurator.core.estimate.power import MeasuredPower
from configurator.core.i18n import fill
from configurator.core.parts import AnyPart
from configurator.store.repository import BuildsRepository
from configurator.ui.i18n import translate
from configurator.ui.planner.upgrade_evidence import (
    THIS_MACHINE_NAMES,
    Outcome,
    RunRead,
    UpgradeSources,
    bench_power,
    bench_summary,
    read_run,
    work_out,
)
from configurator.ui.planner.upgrade_table import UpgradeTable
from configurator.ui.tasks import TaskRunner
from configurator.ui.theme import on_theme_change

if TYPE_CHECKING:
    from configurator.monitor.report import RunReport

COLUMNS = 6  # change, replaces, gain, range, price, ¥ per %


def this_machine_names() -> set[str]:
    return {*THIS_MACHINE_NAMES, translate("detect", "This machine")}


class UpgradePanel(UpgradeTable, QWidget):
    """``current``: the build in the planner; ``catalogue``: the planner's parts by id."""

    apply_build = Signal(object, object)  # the upgraded Build, the undo text (document.Words: asked for when shown)
    measured_changed = Signal()  # the evidence's measured draw changed (PWR-4 and BUD-3 for "This machine")

    def __init__(self, current: Callable[[], Build], catalogue: Callable[[], Mapping[str, AnyPart]],
                 builds: BuildsRepository, tasks: TaskRunner, sources: UpgradeSources | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("upgradePanel")
        self.current, self.catalogue, self.builds, self.tasks = current, catalogue, builds, tasks
        self.sources = sources or UpgradeSources()
        self.outcome: Outcome | None = None
        self.run: RunReport | None = None  # the chosen recording, read
        self.run_power: MeasuredPower | None = None
        self.bench_measured: MeasuredPower | None = None
        self.bench_run: Any = None  # the chosen benchmark run (bench.results.RunRecord), its DDP scaling evidence
        self.bench_text = ""
        self.error = ""
        self._generation = 0  # answers for older inputs are dropped
        self._run_generation = 0
        self._asked: Build | None = None
        self.busy = False
        self._build_chosen = False  # the user picked the build (else "This machine" where there is one)
        self._find_pending = False  # "Find upgrades" pressed while the recording was still being read
        self._wanted = False  # the evidence is read once the panel is shown or "This machine" is checked
        self._recording_chosen = False  # the user picked the recording (else the newest)

        self.build_label, self.recording_label, self.bench_label, self.budget_label = (QLabel() for _ in range(4))
        self.build_combo = QComboBox()
        self.build_combo.setObjectName("upgradeBuild")
        self.build_combo.activated.connect(self._build_picked)
        self.recording_combo = QComboBox()
        self.recording_combo.setObjectName("upgradeRecording")
        self.recording_combo.currentIndexChanged.connect(self._recording_changed)
        self.recording_combo.activated.connect(self._recording_picked)
        self.bench_combo = QComboBox()
        self.bench_combo.setObjectName("upgradeBench")
        self.bench_combo.currentIndexChanged.connect(self._bench_changed)
        self.budget = QSpinBox()
        self.budget.setObjectName("upgradeBudget")
        self.budget.setRange(0, 1_000_000)
        self.budget.setSingleStep(500)
        self.budget.setPrefix("¥")
        self.find_button = QPushButton()
        self.find_button.setObjectName("findUpgrades")
        self.find_button.clicked.connect(self.find_upgrades)
        grid = QGridLayout()
        grid.addWidget(self.build_label, 0, 0)
        grid.addWidget(self.build_combo, 0, 1)
        grid.addWidget(self.budget_label, 0, 2)
        grid.addWidget(self.budget, 0, 3)
        grid.addWidget(self.recording_label, 1, 0)
        grid.addWidget(self.recording_combo, 1, 1)
        grid.addWidget(self.bench_label, 1, 2)
        grid.addWidget(self.bench_combo, 1, 3)
        grid.addWidget(self.find_button, 0, 4, 2, 1)
        grid.setColumnStretch(1, 2)
        grid.setColumnStretch(3, 1)

        self.status = QLabel()
        self.status.setObjectName("upgradeStatus")
        self.status.setWordWrap(True)
        self.limit = QLabel()
        self.limit.setObjectName("upgradeLimit")
        self.limit.setWordWrap(True)
        self.limit.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableWidget(0, COLUMNS)
        self.table.setObjectName("upgradeTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.basis = QLabel()
        self.basis.setObjectName("upgradeBasis")
        self.basis.setWordWrap(True)
        self.apply_button = QPushButton()
        self.apply_button.setObjectName("applyUpgrade")
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self.apply_selected)
        row = QHBoxLayout()
        row.addWidget(self.basis, 1)
        row.addWidget(self.apply_button, 0, Qt.AlignmentFlag.AlignTop)
        self.guide = QTextBrowser()
        self.guide.setObjectName("upgradeGuide")
        self.guide.setFrameShape(QTextBrowser.Shape.NoFrame)
        self.guide.viewport().setAutoFillBackground(False)

        v = QVBoxLayout(self)
        v.setContentsMargins(6, 6, 0, 0)
        v.addLayout(grid)
        v.addWidget(self.status)
        v.addWidget(self.limit)
        v.addWidget(self.table, 3)
        v.addLayout(row)
        v.addWidget(self.guide, 2)
        self.retranslate()
        on_theme_change(self.retranslate)  # the table's and the guide's colours are the scheme's
        self.refresh_sources()

    # -- inputs ---------------------------------------------------------------------------------------
    def refresh_sources(self) -> None:
        """The builds, recordings and benchmark runs to choose from (the newest evidence by default)."""
        self._fill_builds()
        keep = before = self.recording_combo.currentData()
        if not self._recording_chosen:
            keep = None
        self.recording_combo.blockSignals(True)
        self.recording_combo.clear()
        self.recording_combo.addItem(translate("Upgrade", "None: from the plan alone"), None)
        first = None
        for rec in self.sources.recordings():
            missing = "" if rec.exists else " " + translate("Upgrade", "(file missing)")
            self.recording_combo.addItem(f"{rec.started_at:%Y-%m-%d %H:%M} · {rec.path.name}{missing}", str(rec.path))
            if first is None and rec.exists:
                first = str(rec.path)
        index = self.recording_combo.findData(keep if keep is not None else first)
        self.recording_combo.setCurrentIndex(max(index, 0))
        self.recording_combo.blockSignals(False)
        keep = bench_before = self.bench_combo.currentData()
        self.bench_combo.blockSignals(True)
        self.bench_combo.clear()
        self.bench_combo.addItem(translate("Upgrade", "None"), None)
        for run in self.sources.bench_runs():
            self.bench_combo.addItem(f"#{run.id} · {run.started_at:%Y-%m-%d %H:%M} · {run.suite} · {run.device}",
                                     run.id)
        self.bench_combo.setCurrentIndex(max(self.bench_combo.findData(keep), 0))
        self.bench_combo.blockSignals(False)
        path = self.recording_combo.currentData()
        if path != before or (path is not None and self.error):  # another file, or try the missing one again
            self._recording_changed()
        if self.bench_combo.currentData() != bench_before or self.bench_combo.count() == 1:
            self._bench_changed()

    def _recording_picked(self, _index: int) -> None:
        self._recording_chosen = True

    def ensure_evidence(self) -> None:
        """Read the chosen recording now (it waits until the panel is shown or "This machine" is checked:
        a day's recording is large)."""
        if not self._wanted:
            self._wanted = True
            if self.recording_combo.currentData() is not None and self.run is None and not self.error:
                self._recording_changed()

    def showEvent(self, event: QShowEvent) -> None:
        self.refresh_sources()  # recordings and runs made since
        self.ensure_evidence()
        super().showEvent(event)

    def _fill_builds(self) -> None:
        keep = self.build_combo.currentData()
        self.build_combo.blockSignals(True)
        self.build_combo.clear()
        self.build_combo.addItem(fill(translate("Upgrade", "The build in the planner ({name})"),
                                     name=self.current().name or translate("Upgrade", "unnamed")), None)
        names = this_machine_names()
        saved = next((b for b in self.builds.list() if b.name in names), None)
        if saved is not None and self.current().name not in names:  # else the planner has it open (maybe edited)
            self.build_combo.addItem(fill(translate("Upgrade", "{name} (saved, detected)"), name=saved.name), saved.id)
        if not self._build_chosen:  # until the user picks one: this machine, where it was detected and saved
            index = self.build_combo.count() - 1
        else:
            index = 0 if keep is None else max(self.build_combo.findData(keep), 0)
        self.build_combo.setCurrentIndex(index)
        self.build_combo.blockSignals(False)

    def _build_picked(self, _index: int) -> None:
        self._build_chosen = True
        self._show_status()

    def chosen_build(self) -> Build:
        """The build the advice is for (raises BuildError for a saved build the catalogue cannot read)."""
        build_id = self.build_combo.currentData()
        if build_id is None:
            return self.current()
        saved = self.builds.get(int(build_id))
        if saved is None:
            return self.current()
        return parse_build(saved.data, self.catalogue())

    def _recording_changed(self) -> None:
        path = self.recording_combo.currentData()
        self._run_generation += 1
        generation = self._run_generation
        self.run, self.run_power = None, None
        self.error = ""
        if path is None or not self._wanted:
            self._show_status()
            self.measured_changed.emit()
            return
        self.status.setText(translate("Upgrade", "Reading the recording…"))

        self.tasks.submit(lambda: (generation, read_run(Path(path))), self._run_read, self._run_failed)

    def _run_read(self, result: tuple[int, RunRead]) -> None:
        generation, got = result
        if generation != self._run_generation:
            return
        if got.error is not None:  # a missing, moved or damaged file: one message
            self._find_pending = False
            self.error = got.error.render(translate)
            self._show_status()
            return
        self.run, self.run_power = got.report, got.power
        self._show_status()
        self.measured_changed.emit()
        if self._find_pending:
            self.find_upgrades()

    def _run_failed(self, exc: BaseException, _tb: str) -> None:
        self._find_pending = False
        self.error = str(exc)
        self._show_status()

    def _bench_changed(self) -> None:
        run_id = self.bench_combo.currentData()
        run = self.sources.bench_run(int(run_id)) if run_id is not None else None
        self.bench_run = run
        self.bench_measured = bench_power(run)
        self.bench_text = bench_summary(run) if run is not None else ""
        if run is not None:
            self.bench_text = fill(translate("Upgrade", "Benchmark run {id} ({device}): {results}"), id=run.run_id,
                                   device=run.resolved_device or run.device,
                                   results=self.bench_text or translate("Upgrade", "no successful result"))
        self._show_guide()
        self.measured_changed.emit()

    @property
    def measured_power(self) -> MeasuredPower | None:
        """The draw measured on this machine: the recording's (a training run), else the benchmark's."""
        return self.run_power or self.bench_measured

    # -- the advice ------------------------------------------------------------------------------------
    def find_upgrades(self) -> None:
        if self.recording_combo.currentData() is not None and self.run is None:
            if self.error:
                self._show_status()
            else:  # still reading the recording: ask once it is read
                self._find_pending = True
                self.status.setText(translate("Upgrade", "Reading the recording…"))
            return
        self._find_pending = False
        try:
            build = self.chosen_build()
        except BuildError as exc:
            self.error = fill(translate("Upgrade", "The saved build cannot be read: {error}"),
                              error=exc.errors[0].message.render(translate) if exc.errors else "")
            self._show_status()
            return
        if not build.parts:
            self.error = translate("Upgrade", "The build has no parts yet: pick some, or detect this machine "
                                              "(configurator detect --save).")
            self._show_status()
            return
        self._generation += 1
        generation = self._generation
        self.busy = True
        self.error = ""
        self._asked = build
        self.find_button.setEnabled(False)
        self.status.setText(translate("Upgrade", "Checking candidate upgrades as whole builds…"))
        catalogue = dict(self.catalogue())
        run, bench, budget = self.run, self.bench_run, (float(self.budget.value()) or None)
        self.tasks.submit(lambda: (generation, work_out(build, catalogue, run, budget, bench)), self._found,
                          self._failed)

    def _found(self, result: tuple[int, Outcome]) -> None:
        generation, outcome = result
        if generation != self._generation:
            return
        self.busy = False
        self.find_button.setEnabled(True)
        self.outcome = outcome
        self._show()

    def _failed(self, exc: BaseException, _tb: str) -> None:
        self.busy = False
        self.find_button.setEnabled(True)
        self.error = fill(translate("Upgrade", "The advisor failed: {error}"), error=str(exc))
        self._show_status()

    def build_changed(self) -> None:
        """The planner's build was edited: the advice for it is out of date."""
        self._fill_builds()
        if self.outcome is not None and self.build_combo.currentData() is None:
            self._show_status()

    # -- language and theme ---------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.build_label.setText(translate("Upgrade", "Build:"))
        self.recording_label.setText(translate("Upgrade", "Recording:"))
        self.bench_label.setText(translate("Upgrade", "Benchmark:"))
        self.budget_label.setText(translate("Upgrade", "Up to:"))
        self.budget.setSpecialValueText(translate("Upgrade", "any price"))
        self.budget.setToolTip(translate("Upgrade", "Only upgrades up to this price (¥); 0: any price"))
        self.find_button.setText(translate("Upgrade", "Find upgrades"))
        self.apply_button.setText(translate("Upgrade", "Apply as a new build"))
        self.apply_button.setToolTip(translate(
            "Upgrade", "Open the upgraded build in the planner as a new, unsaved build; Undo goes back"))
        self.table.setHorizontalHeaderLabels([
            translate("Upgrade", "Buy"), translate("Upgrade", "Replaces"), translate("Upgrade", "Gain"),
            translate("Upgrade", "Range"), translate("Upgrade", "Price"), translate("Upgrade", "¥ per %")])
        if self.recording_combo.count():
            self.recording_combo.setItemText(0, translate("Upgrade", "None: from the plan alone"))
            self.bench_combo.setItemText(0, translate("Upgrade", "None"))
            self._fill_builds()
        self._show()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
