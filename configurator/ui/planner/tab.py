"""The Planner tab: the build form on the left, the engine's verdict on the right, recomputed on every
edit. The tab wires three parts together: the form (form.py), the results (results.py) and the file
actions (files.py; their toolbar: tab_actions.py), around one document with undo (document.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QSplitter, QTabWidget, QToolBar, QVBoxLayout, QWidget

from configurator.core.build import Build
from configurator.core.calibration import LocalMeasurement
from configurator.core.cloud import CloudPrice
from configurator.core.detect import DetectedMachine
from configurator.core.engine import Report, check
from configurator.core.i18n import fill
from configurator.core.parts import CATEGORY_LABELS, AnyPart
from configurator.core.presets import Preset, presets, tier_label
from configurator.core.sheet import Sheet, build_sheet
from configurator.store.cloud_prices import cloud_prices
from configurator.store.measurements import MeasurementsRepository
from configurator.store.repository import BuildsRepository, PartsRepository
from configurator.ui.i18n import translate
from configurator.ui.planner.document import PlannerDocument
from configurator.ui.planner.files import EMPTY_BUILD, FileActions
from configurator.ui.planner.form import BuildForm
from configurator.ui.planner.results import ResultsPanel
from configurator.ui.planner.tab_actions import PlannerActions
from configurator.ui.planner.upgrade_evidence import UpgradeSources
from configurator.ui.planner.upgrade_panel import UpgradePanel, this_machine_names
from configurator.ui.tasks import TaskRunner
from configurator.ui.theme import colours, on_theme_change

__all__ = ["EMPTY_BUILD", "PlannerTab"]


class PlannerTab(PlannerActions, QWidget):
    status_message = Signal(str)
    modified_changed = Signal(bool)  # the build has changes that are not saved (the window marks it)

    def __init__(self, parts: PartsRepository, builds: BuildsRepository, settings: QSettings,
                 parent: QWidget | None = None, runs_for_build: Callable[[int], list[Any]] | None = None,
                 load_presets: bool = True, tasks: TaskRunner | None = None,
                 upgrade_sources: UpgradeSources | None = None,
                 detect_machine: Callable[[dict[str, AnyPart]], DetectedMachine] | None = None):
        """``load_presets=False``: the guides' tiers (presets, and the chart's reference points) wait
        for :meth:`load_presets`, which the app calls once the window has been painted. ``tasks`` runs
        the Upgrade panel's advisor; ``upgrade_sources``: the recordings and benchmark runs it reads;
        ``detect_machine``: this machine as catalogue parts (core.detect), for "This machine"."""
        super().__init__(parent)
        self.setObjectName("PlannerTab")
        self.parts_repo = parts
        self.builds = builds
        self.settings = settings
        self.setAcceptDrops(True)
        self.catalogue: dict[str, AnyPart] = {}
        self.cloud_prices: list[CloudPrice] | None = None
        self.local: list[LocalMeasurement] = []  # this machine's benchmarks: they calibrate its hardware
        self.report: Report | None = None
        self.sheet: Sheet | None = None
        self._presets_wanted = load_presets
        self.tiers: list[Preset] = []
        self.doc = PlannerDocument(EMPTY_BUILD, self)
        self.doc.changed.connect(self._on_build_changed)
        self.doc.modified_changed.connect(self.modified_changed)
        self.files = FileActions(self.doc, builds, self, lambda: self.catalogue, runs_for_build, settings)
        self.files.status_message.connect(self.status_message)

        self.form = BuildForm()
        self.form.settings = settings  # the config.json dialog's last folder
        self.form.edited.connect(self._schedule)
        self.results = ResultsPanel()
        # The parts a user (and a test) reaches for, by their old names.
        self.rows, self.name_edit, self.parts_box = self.form.rows, self.form.name_edit, self.form.parts_box
        self.findings, self.bars, self.pcie_map = self.results.findings, self.results.bars, self.results.pcie_map
        self.verdict = self.results.verdict
        self.tasks = tasks or TaskRunner(self)
        self.detect_machine = detect_machine
        self.upgrade = UpgradePanel(lambda: self.doc.build, lambda: self.catalogue, builds, self.tasks,
                                    upgrade_sources)
        self.upgrade.apply_build.connect(self.doc.start_new)
        self.upgrade.measured_changed.connect(self._measured_changed)
        self.side = QTabWidget()
        self.side.setObjectName("plannerSide")
        self.side.addTab(self.results, "")
        self.side.addTab(self.upgrade, "")
        self.toolbar = QToolBar()
        self.toolbar.setObjectName("plannerToolbar")
        self._make_actions()

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.form)
        splitter.addWidget(self.side)
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
        on_theme_change(self.restyle)
        if self._presets_wanted:
            self._on_build_changed(self.doc.build)
        else:
            # the app's deferred start-up: the first check (the workload's schema, the published rows) waits for
            # the window's first paint too (check_first), as the tiers do
            self.form.load(self.doc.build, self.catalogue)

    @property
    def chart(self) -> Any:
        """The throughput chart (a ``pg.PlotWidget``), or None until it has had a bar to draw."""
        return self.results.chart

    # -- the file actions, where the window and the tests call them ----------------------------
    def maybe_discard(self) -> bool:
        return self.files.maybe_discard()

    def new_build(self) -> None:
        self.files.new_build()

    def save(self) -> bool:
        return self.files.save()

    def duplicate(self) -> None:
        self.files.duplicate()

    def delete_saved(self) -> None:
        self.files.delete_saved()

    def open_saved(self, build_id: int) -> bool:
        return self.files.open_saved(build_id)

    def import_file(self, path: Path) -> bool:
        return self.files.import_file(path)

    def export_file(self, path: Path) -> bool:
        return self.files.export_file(path)

    def save_file(self, path: Path | None = None) -> bool:
        return self.files.save_file(path)

    def export_pdf(self, path: Path) -> bool:
        return self.files.export_pdf(path)

    # -- catalogue ----------------------------------------------------------------------
    def reload_local_measurements(self) -> None:
        """After a benchmark run was saved or deleted: its results calibrate the estimates again."""
        local = MeasurementsRepository(self.parts_repo.store).local()
        if local != self.local:
            self.local = local
            self._recompute(self.doc.build)

    def reload_catalogue(self) -> None:
        self.catalogue = {p.id: p for p in self.parts_repo.list_parts()}
        self.cloud_prices = cloud_prices(self.parts_repo.store)  # BUD-3: the shipped table with the user's prices
        self.local = MeasurementsRepository(self.parts_repo.store).local()
        self.form.fill(self.catalogue)
        if self._presets_wanted:
            self._make_presets()
        else:
            self.presets_menu.clear()
            self.presets_menu.addAction(translate("Planner", "Working out the guides' tiers…")).setEnabled(False)
        self.results.forget_chart()
        if self.report is not None:
            self.form.load(self.doc.build, self.catalogue)
            self._recompute(self.doc.build)

    def check_first(self) -> None:
        """The deferred start-up's first check, once the window has been painted (an edit before it checked
        already)."""
        if self.report is None:
            self._on_build_changed(self.doc.build)

    def load_presets(self) -> None:
        """The guides' tiers, filled from this catalogue: the Presets menu and the chart's references."""
        self._presets_wanted = True
        self._make_presets()
        self.results.forget_chart()
        self._recompute(self.doc.build)

    def _make_presets(self) -> None:
        self.presets_menu.clear()
        self.tiers = presets(self.catalogue)
        for preset in self.tiers:
            act = self.presets_menu.addAction(
                f"{preset.tier.id} · {preset.tier.source} · {tier_label(preset.tier.id, translate)}")
            act.setData(preset.tier.id)
            act.triggered.connect(lambda _c=False, p=preset: self.apply_preset(p))

    # -- widgets <-> build ------------------------------------------------------------------
    def _schedule(self) -> None:
        self._pending.start()

    def _commit_now(self) -> None:
        self.doc.edit(self.build_from_widgets(), lambda: translate("Planner", "Edit build"))

    def build_from_widgets(self) -> Build:
        return self.form.build()

    def _on_build_changed(self, build: Build) -> None:
        if self.form.build() != build:
            self.form.load(build, self.catalogue)
        self._recompute(build)
        self.upgrade.build_changed()

    def _measured_changed(self) -> None:
        if self.report is not None and self.doc.build.name in this_machine_names():
            self._recompute(self.doc.build)

    def _recompute(self, build: Build) -> None:
        # "This machine": PWR-4 and BUD-3 use the draw measured on it (the Upgrade panel's evidence)
        measured = None
        if build.name in this_machine_names():
            self.upgrade.ensure_evidence()
            measured = self.upgrade.measured_power
        report = check(build, self.catalogue, cloud_prices=self.cloud_prices, local=self.local,
                       measured_power=measured)
        self.report = report
        self.sheet = build_sheet(build, self.catalogue, report, with_chart=False)
        self.form.show_problems(report.workload_errors)
        self.results.show_report(build, report, self.sheet, self.catalogue, self.tiers)

    # -- presets and suggestions ----------------------------------------------------------------
    def apply_preset(self, preset: Preset) -> None:
        """A preset opens as a new, unsaved build; undo goes back to the build before it."""
        name = tier_label(preset.tier.id, translate)
        build = Build(preset.build.parts, name, None, preset.build.options, preset.build.workload)
        self.doc.start_new(build, lambda: fill(translate("Planner", "Preset {id}"), id=preset.tier.id))
        filled = ", ".join(self.catalogue[i].name for i in preset.filled if i in self.catalogue)
        self.status_message.emit(fill(translate("Planner", "Preset {id} ({source}); filled in: {filled}"),
                                      id=preset.tier.id, source=preset.tier.source, filled=filled or "—"))

    def detect_this_machine(self) -> None:
        """Open this machine, detected as catalogue parts (off the GUI thread: it reads /proc and /sys),
        as a new unsaved build named "This machine"; the status line says what is left to pick."""
        detect = self.detect_machine
        if detect is None or not self.maybe_discard():
            return
        catalogue = dict(self.catalogue)
        self.act_detect.setEnabled(False)
        self.status_message.emit(translate("Planner", "Reading this machine's parts…"))
        self.tasks.submit(lambda: detect(catalogue), self._detected, self._detect_failed)

    def _detected(self, machine: DetectedMachine) -> None:
        self.act_detect.setEnabled(True)
        name = translate("detect", "This machine")
        self.doc.start_new(machine.build(name), lambda: translate("Planner", "Detect this machine"))
        unknown = [p.category for p in machine.unknown()]
        matched = len(machine.parts) - len(unknown)
        text = fill(translate("Planner", "This machine: {n} parts matched to the catalogue. Save it to keep it as "
                                         "“{name}” (the Upgrade panel and PWR-4 use it)."), n=matched, name=name)
        if unknown:
            text += " " + fill(translate("Planner", "Not matched, pick them yourself: {parts}."),
                               parts=", ".join(translate("parts", CATEGORY_LABELS.get(c, c)) for c in unknown))
        self.status_message.emit(text)

    def _detect_failed(self, exc: BaseException, _tb: str) -> None:
        self.act_detect.setEnabled(True)
        self.status_message.emit(fill(translate("Planner", "This machine could not be read: {error}"),
                                      error=str(exc)))

    def suggest_dialog(self) -> None:
        from configurator.ui.planner.suggest_dialog import SuggestDialog

        build = self.doc.build
        dialog = SuggestDialog(self.catalogue, build.budget_cny or 20000.0, build.workload, self, self.tasks)
        chosen = dialog.chosen.build if dialog.exec() and dialog.chosen is not None else None
        dialog.deleteLater()  # a search still running reports to nobody (its slots go with the dialog)
        if chosen is not None:
            # A new, unsaved build: it never takes the name (or the saved row) of the build that was open.
            self.doc.start_new(Build(chosen.parts, translate("Planner", "Suggested build"), chosen.budget_cny,
                                     build.options, chosen.workload), lambda: translate("Planner", "Suggested build"))

    # -- drag and drop ----------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls()
        if len(urls) == 1 and urls[0].toLocalFile().lower().endswith(".json"):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        self.import_file(Path(event.mimeData().urls()[0].toLocalFile()))
        event.acceptProposedAction()

    # -- language and theme -------------------------------------------------------------------
    def retranslate(self) -> None:
        self.doc.retranslate()
        self._retranslate_actions()
        self.form.retranslate()
        self.results.retranslate()
        self.side.setTabText(0, translate("Planner", "Check"))
        self.side.setTabText(1, translate("Planner", "Upgrade"))
        if self.report is not None:
            self._recompute(self.doc.build)
        else:  # before the first check (the app's start-up)
            self.results.show_checking()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def restyle(self) -> None:
        """The chart, the verdict and the estimates in the colours of the palette's scheme."""
        self.results.restyle(colours(self.palette()))
        if self.report is not None:
            self._recompute(self.doc.build)
        else:
            self.results.show_checking()
