"""The Benchmark tab: one button runs the suite in child processes; a progress bar, a live
log and cancel; results in a table and charts, compared with the guides' reference figures,
with earlier runs on this machine and (when one is wired in) with the planner's estimate."""

from __future__ import annotations

import statistics
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QSettings, Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from configurator.bench import interpreters, suites
from configurator.bench.interpreters import Probe
from configurator.bench.references import percent_diff, references_for
from configurator.bench.results import STATUS_LABELS, RowResult, RunRecord, export_csv, export_json, fmt_value
from configurator.bench.runner import WORKER_MODULE, Event, SuiteSession
from configurator.core.i18n import Message
from configurator.paths import is_frozen
from configurator.store.bench_results import BenchResultsRepository
from configurator.store.repository import BuildsRepository
from configurator.ui.bench.charts import MatmulChart, ScalingChart, ThroughputChart
from configurator.ui.bench.process import QtSuiteRunner
from configurator.ui.i18n import translate
from configurator.ui.tasks import TaskRunner
from configurator.ui.theme import colours

# The planner's estimate for a result row on the fingerprinted hardware: (value, unit, how it was made).
EstimateFor = Callable[[dict[str, Any], RowResult], "tuple[float, str, str] | None"]
# Finding interpreters (run on a worker thread): all of them, or one path the user typed or browsed to.
DiscoverFn = Callable[[], "list[Probe]"]
ProbeFn = Callable[[str], Probe]

COLUMNS = 7
STATUS_COLOURS = {"ok": "ok", "failed": "error", "timeout": "error", "cancelled": "warning",
                  "skipped": "faint_text"}  # fields of the theme's colours


def _render(message: Message | None) -> str:
    return message.render(translate) if message is not None else ""


def _pct(v: float | None) -> str:
    if v is None:
        return "—"
    return f"{v:+.0f} %".replace("-", "−")


class BenchmarkTab(QWidget):
    def __init__(
        self,
        runner: QtSuiteRunner,
        tasks: TaskRunner,
        settings: QSettings,
        results: BenchResultsRepository | None = None,
        builds: BuildsRepository | None = None,
        estimate_for: EstimateFor | None = None,
        parent: QWidget | None = None,
        *,
        discover_fn: DiscoverFn | None = None,
        probe_fn: ProbeFn | None = None,
    ):
        super().__init__(parent)
        self.setObjectName("BenchmarkTab")
        self.runner = runner
        self.tasks = tasks
        self.settings = settings
        self.results = results
        self.builds = builds
        self.estimate_for = estimate_for
        self.record: RunRecord | None = None
        self.earlier: dict[str, list[float]] = {}
        self.last_error: str | None = None
        self.saved_run_id: int | None = None
        self.worker_module = WORKER_MODULE  # tests put the fault worker here
        # Interpreters: discovered in the background when the tab is first shown (never at start-up).
        self._stop = threading.Event()
        self.discover_fn: DiscoverFn = discover_fn or (lambda: interpreters.discover(cancelled=self._stop.is_set))
        self.probe_fn: ProbeFn = probe_fn or (lambda path: interpreters.probe(path))
        self.probes: dict[tuple[str, str], Probe] = {}
        self.discovering = False
        self.discovered = False  # a search has finished
        self._probing: set[tuple[str, str]] = set()
        self._note: tuple[str, str] | None = None  # the status (text, style) an interpreter note covers
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

        # -- controls --
        self.suite_label = QLabel()
        self.suite_combo = QComboBox()
        self.suite_combo.setObjectName("benchSuite")
        self.device_label = QLabel()
        self.device_combo = QComboBox()
        self.device_combo.setObjectName("benchDevice")
        self.python_label = QLabel()
        self.python_combo = QComboBox()
        self.python_combo.setObjectName("benchPython")
        self.python_combo.setEditable(True)
        self.python_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.python_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.python_combo.setMinimumContentsLength(20)
        initial = str(settings.value("bench/python", "") or "") or (
            "" if is_frozen() else sys.executable)
        if initial:
            self.python_combo.addItem(initial, initial)
        self.python_combo.currentIndexChanged.connect(self._update_python_note)
        line_edit = self.python_combo.lineEdit()
        assert line_edit is not None
        line_edit.editingFinished.connect(self._on_python_typed)
        self.python_browse = QPushButton("…")
        self.python_browse.setFixedWidth(32)
        self.python_browse.clicked.connect(self.pick_python)
        self.python_refresh = QPushButton()
        self.python_refresh.setObjectName("benchPythonRefresh")
        self.python_refresh.clicked.connect(self.refresh_interpreters)
        self.build_label = QLabel()
        self.build_combo = QComboBox()
        self.build_combo.setObjectName("benchBuild")
        self.run_button = QPushButton()
        self.run_button.setObjectName("benchRun")
        font = QFont(self.run_button.font())
        font.setBold(True)
        self.run_button.setFont(font)
        self.run_button.clicked.connect(lambda _checked=False: self.start())  # not start(jobs=checked)
        self.cancel_button = QPushButton()
        self.cancel_button.setObjectName("benchCancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)

        for combo in (self.suite_combo, self.device_combo, self.build_combo):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(7)
        top = QHBoxLayout()
        for w in (self.suite_label, self.suite_combo, self.device_label, self.device_combo, self.build_label,
                  self.build_combo):
            top.addWidget(w)
        top.addStretch(1)
        top.addWidget(self.run_button)
        top.addWidget(self.cancel_button)
        second = QHBoxLayout()
        second.addWidget(self.python_label)
        second.addWidget(self.python_combo, 1)
        second.addWidget(self.python_browse)
        second.addWidget(self.python_refresh)

        self.progress = QProgressBar()
        self.progress.setObjectName("benchProgress")
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.setTextVisible(True)
        self.status = QLabel()
        self.status.setObjectName("benchStatus")
        self.status.setWordWrap(True)

        # -- results table and log --
        self.table = QTableWidget(0, COLUMNS)
        self.table.setObjectName("benchResults")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setMinimumSize(100, 60)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for col, width in enumerate((150, 70, 110, 150, 150, 170)):
            self.table.setColumnWidth(col, width)
        self.log = QPlainTextEdit()
        self.log.setObjectName("benchLog")
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(5000)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.Monospace)
        self.log.setFont(mono)
        self.log.setMinimumSize(100, 40)
        self.log_label = QLabel()
        log_box = QWidget()
        lb = QVBoxLayout(log_box)
        lb.setContentsMargins(0, 0, 0, 0)
        lb.addWidget(self.log_label)
        lb.addWidget(self.log)
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.table)
        left.addWidget(log_box)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 2)

        # -- charts --
        self.throughput_chart = ThroughputChart()
        self.matmul_chart = MatmulChart()
        self.scaling_chart = ScalingChart()
        right = QSplitter(Qt.Orientation.Vertical)
        for chart in (self.throughput_chart, self.matmul_chart, self.scaling_chart):
            right.addWidget(chart.widget)
        right.setStretchFactor(0, 3)
        right.setStretchFactor(1, 2)
        right.setStretchFactor(2, 2)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setSizes([1000, 1000])

        # -- bottom --
        self.history_label = QLabel()
        self.history_label.setObjectName("benchHistory")
        self.export_json_button = QPushButton()
        self.export_json_button.clicked.connect(self.export_json_dialog)
        self.export_csv_button = QPushButton()
        self.export_csv_button.clicked.connect(self.export_csv_dialog)
        bottom = QHBoxLayout()
        bottom.addWidget(self.history_label, 1)
        bottom.addWidget(self.export_json_button)
        bottom.addWidget(self.export_csv_button)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(second)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(split, 1)
        layout.addLayout(bottom)

        runner.job_event.connect(self._on_event)
        runner.finished.connect(self._on_finished)
        self.retranslate()
        self._refresh_builds()
        self._show_record()
        self._set_running(False)
        self._scheme = colours(self.palette())

    # -- language --------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.suite_label.setText(translate("BenchmarkTab", "Suite:"))
        self.device_label.setText(translate("BenchmarkTab", "Device:"))
        self.python_label.setText(translate("BenchmarkTab", "Python:"))
        self.build_label.setText(translate("BenchmarkTab", "Link to build:"))
        suite_names = {"quick": translate("BenchmarkTab", "Quick"), "standard": translate("BenchmarkTab", "Standard"),
                       "full": translate("BenchmarkTab", "Full")}
        device_names = {"auto": translate("BenchmarkTab", "Automatic"), "cpu": translate("BenchmarkTab", "CPU"),
                        "cuda": translate("BenchmarkTab", "CUDA GPU"), "mps": translate("BenchmarkTab", "Apple MPS")}
        for combo, names, key in ((self.suite_combo, suite_names, "bench/suite"),
                                  (self.device_combo, device_names, "bench/device")):
            current = combo.currentData() or self.settings.value(key, next(iter(names)))
            combo.blockSignals(True)
            combo.clear()
            for code, text in names.items():
                combo.addItem(text, code)
            combo.setCurrentIndex(max(0, combo.findData(current)))
            combo.blockSignals(False)
        self.python_combo.setToolTip(translate("BenchmarkTab", "The interpreter the benchmarks run under: it needs "
                                                               "torch (and torchvision, transformers for the model "
                                                               "workloads)."))
        self.suite_combo.setToolTip(translate("BenchmarkTab", "Quick: about 2 minutes on a small CPU. Standard: "
                                                              "10–20 minutes. Full: an hour or more."))
        self.python_browse.setToolTip(translate("BenchmarkTab", "Choose another Python interpreter"))
        self.python_refresh.setToolTip(translate("BenchmarkTab", "Look again for Python interpreters on this "
                                                                 "machine"))
        self.run_button.setText(translate("BenchmarkTab", "Run benchmarks"))
        self.cancel_button.setText(translate("BenchmarkTab", "Cancel"))
        self.export_json_button.setText(translate("BenchmarkTab", "Export JSON…"))
        self.export_csv_button.setText(translate("BenchmarkTab", "Export CSV…"))
        self.log_label.setText(translate("BenchmarkTab", "Log"))
        self.table.setHorizontalHeaderLabels([
            translate("BenchmarkTab", "Result"), translate("BenchmarkTab", "Status"),
            translate("BenchmarkTab", "Value"), translate("BenchmarkTab", "Median ± IQR"),
            translate("BenchmarkTab", "vs earlier runs"), translate("BenchmarkTab", "vs guide reference"),
            translate("BenchmarkTab", "vs planner estimate")])
        if self.build_combo.count():
            self.build_combo.setItemText(0, translate("BenchmarkTab", "(none)"))
        if self._note is not None:  # the note is written again below, in the new language
            self.status.setText(self._note[0])
            self.status.setStyleSheet(self._note[1])
            self._note = None
        self._show_record()
        self._retranslate_interpreters()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.PaletteChange and hasattr(self, "_scheme") \
                and colours(self.palette()) is not self._scheme:
            self.restyle()
        super().changeEvent(event)

    def _error_style(self) -> str:
        return f"color: {colours(self.palette()).error};"

    def restyle(self) -> None:
        """Charts, status colours and the error line in the colours of the palette's scheme."""
        self._scheme = colours(self.palette())
        if self.status.styleSheet():  # the only style it gets is the error colour
            self.status.setStyleSheet(self._error_style())
        if self._note is not None and self._note[1]:
            self._note = (self._note[0], self._error_style())
        for i, r in enumerate(self.record.rows if self.record else []):
            self._fill_row(i, r)
        self._show_charts()

    def showEvent(self, event: Any) -> None:
        self._refresh_builds()
        if not self.discovered and not self.discovering:
            self.refresh_interpreters()
        super().showEvent(event)

    def shutdown(self) -> None:
        """Stop a search for interpreters that is under way (its child processes are killed)."""
        self._stop.set()

    def _refresh_builds(self) -> None:
        current = self.build_combo.currentData()
        self.build_combo.blockSignals(True)
        self.build_combo.clear()
        self.build_combo.addItem(translate("BenchmarkTab", "(none)"), None)
        if self.builds is not None:
            for b in self.builds.list():
                self.build_combo.addItem(b.name, b.id)
        self.build_combo.setCurrentIndex(max(0, self.build_combo.findData(current)))
        self.build_combo.blockSignals(False)

    # -- running -------------------------------------------------------------------------------
    def _retranslate_interpreters(self) -> None:
        self.python_refresh.setText(translate("BenchmarkTab", "Searching…") if self.discovering
                                    else translate("BenchmarkTab", "Refresh"))
        line_edit = self.python_combo.lineEdit()
        if line_edit is not None:
            line_edit.setPlaceholderText(
                translate("BenchmarkTab", "Looking for Python interpreters…") if self.discovering
                else translate("BenchmarkTab", "Path to a Python interpreter with PyTorch"))
        for i in range(self.python_combo.count()):
            path = self.python_combo.itemData(i)
            if path:
                self._set_item(i, str(path))
        self._update_python_note()

    # -- interpreters ------------------------------------------------------------------------------
    def python_path(self) -> str:
        """The interpreter chosen: the path behind the selected line, or the path typed in."""
        combo = self.python_combo
        text = combo.currentText().strip()
        i = combo.currentIndex()
        if i >= 0 and combo.itemText(i) == text and combo.itemData(i):
            return str(combo.itemData(i))
        i = combo.findText(text)
        if i >= 0 and combo.itemData(i):
            return str(combo.itemData(i))
        return text

    def set_python(self, path: str) -> None:
        """Choose ``path`` (typed, browsed or restored); it is probed in the background if new."""
        path = path.strip()
        if not path:
            self.python_combo.setCurrentIndex(-1)
            self._update_python_note()
            return
        i = self._item_for(path)
        if i < 0:
            self.python_combo.addItem(path, path)
            i = self.python_combo.count() - 1
            self._set_item(i, path)
        self.python_combo.setCurrentIndex(i)
        self.python_combo.setEditText(self.python_combo.itemText(i))
        self._probe_later(path)
        self._update_python_note()

    def known_probe(self, path: str) -> Probe | None:
        return self.probes.get(interpreters.identity(path)) if path else None

    def _item_for(self, path: str) -> int:
        key = interpreters.identity(path)
        for i in range(self.python_combo.count()):
            data = self.python_combo.itemData(i)
            if data and interpreters.identity(str(data)) == key:
                return i
        return -1

    def _set_item(self, i: int, path: str) -> None:
        probe = self.known_probe(path)
        combo = self.python_combo
        if probe is None:
            combo.setItemText(i, path)
            combo.setItemData(i, None, Qt.ItemDataRole.ToolTipRole)
        else:
            combo.setItemText(i, f"{_render(interpreters.describe(probe))} — {path}")
            problem = interpreters.problem(probe)
            extras = [name for name, present in (("torchvision", probe.torchvision),
                                                 ("transformers", probe.transformers)) if present]
            tip = _render(problem) if problem is not None else (
                translate("BenchmarkTab", "Also installed: {packages}").replace("{packages}", ", ".join(extras))
                if extras else "")
            combo.setItemData(i, tip or None, Qt.ItemDataRole.ToolTipRole)
        model = combo.model()
        item = model.item(i) if hasattr(model, "item") else None
        if item is not None:  # those that cannot run the benchmarks stay listed, with the reason, but greyed
            item.setEnabled(probe is None or probe.ok)

    def _probe_later(self, path: str) -> None:
        key = interpreters.identity(path)
        if key in self.probes or key in self._probing or not Path(path).is_file():
            return
        self._probing.add(key)
        probe_fn = self.probe_fn
        self.tasks.submit(lambda: probe_fn(path), self._on_probed,
                          lambda exc, _tb: self._probing.discard(key))

    def _on_probed(self, probe: Probe) -> None:
        key = interpreters.identity(probe.path)
        self._probing.discard(key)
        self.probes[key] = probe
        i = self._item_for(probe.path)
        if i >= 0:
            current = self.python_combo.currentIndex() == i
            self._set_item(i, str(self.python_combo.itemData(i)))
            if current:
                self.python_combo.setEditText(self.python_combo.itemText(i))
        self._update_python_note()

    def _on_python_typed(self) -> None:
        text = self.python_combo.currentText().strip()
        if text and self.python_combo.findText(text) < 0:
            self.set_python(text)

    def refresh_interpreters(self) -> None:
        """Look for interpreters on a worker thread; the list fills when they have answered."""
        if self.discovering:
            return
        self.discovering = True
        self._stop.clear()
        self.python_refresh.setEnabled(False)
        self._retranslate_interpreters()
        self.tasks.submit(self.discover_fn, self._on_discovered, self._on_discover_failed)

    def _discovery_done(self) -> None:
        self.discovering = False
        self.discovered = True
        self.python_refresh.setEnabled(not self.runner.is_running())
        self._retranslate_interpreters()

    def _on_discover_failed(self, exc: BaseException, _tb: str) -> None:
        self._discovery_done()
        self._set_status(translate("BenchmarkTab", "Could not look for Python interpreters: {error}")
                         .replace("{error}", str(exc)), error=True)

    def _on_discovered(self, found: list[Probe]) -> None:
        current = self.python_path()
        for p in found:
            self.probes[interpreters.identity(p.path)] = p
        combo = self.python_combo
        combo.blockSignals(True)
        combo.clear()
        for p in found:
            combo.addItem(p.path, p.path)
            self._set_item(combo.count() - 1, p.path)
        if not current and is_frozen():  # no choice yet: the first one with torch
            current = next((p.path for p in found if p.has_torch), "")
        if current:
            i = self._item_for(current)
            if i < 0:
                combo.insertItem(0, current, current)
                self._set_item(0, current)
                i = 0
                self._probe_later(current)
            combo.setCurrentIndex(i)
        else:
            combo.setCurrentIndex(-1)
            combo.setEditText("")
        view = combo.view()
        view.setMinimumWidth(min(view.sizeHintForColumn(0) + 24, 1200))
        combo.blockSignals(False)
        self._discovery_done()

    def python_problem(self) -> str | None:
        """Why the benchmarks cannot start with the chosen interpreter, when that is known now."""
        path = self.python_path()
        if not path:
            if is_frozen() and self.discovered:
                return translate("BenchmarkTab", "No Python with PyTorch found; pick one with “…”.")
            return None
        probe = self.known_probe(path)
        problem = interpreters.problem(probe) if probe is not None else None
        return _render(problem) if problem is not None else None

    def _update_python_note(self) -> None:
        """Say in the status line, before anything runs, when the chosen interpreter cannot be used."""
        if self.runner.is_running():
            return
        note = self.python_problem()
        if note is not None:
            if self._note is None:
                self._note = (self.status.text(), self.status.styleSheet())
            self._set_status(note, error=True)
        elif self._note is not None:
            text, style = self._note
            self._note = None
            self.status.setText(text)
            self.status.setStyleSheet(style)

    def pick_python(self) -> None:
        current = self.python_path()
        path, _ = QFileDialog.getOpenFileName(self, translate("BenchmarkTab", "Python interpreter"),
                                              str(Path(current).parent) if current else str(Path.home()))
        if path:
            self.set_python(path)

    def start(self, jobs: list[str] | None = None, overrides: dict[str, dict[str, Any]] | None = None,
              timeout_s: float | None = None) -> bool:
        """Start the chosen suite (tests may narrow it to ``jobs`` and small ``overrides``)."""
        if self.runner.is_running():
            return False
        python = self.python_path()
        if not python and is_frozen():
            self._set_status(translate("BenchmarkTab", "No Python with PyTorch found; pick one with “…”."),
                             error=True)
            return False
        if not python or not Path(python).is_file():
            self._set_status(translate("BenchmarkTab", "No Python interpreter at {path}: choose one with “…”.")
                             .replace("{path}", python or "—"), error=True)
            return False
        problem = self.python_problem()
        if problem is not None:
            self._set_status(problem, error=True)
            return False
        self._note = None
        suite = str(self.suite_combo.currentData())
        device = str(self.device_combo.currentData())
        self.settings.setValue("bench/suite", suite)
        self.settings.setValue("bench/device", device)
        self.settings.setValue("bench/python", python)
        session = SuiteSession(suite, device, jobs, python, overrides=overrides, timeout_s=timeout_s,
                               worker_module=self.worker_module)
        self.record = session.record
        self.record.build_id = self.build_combo.currentData()
        self.earlier = {}
        self.saved_run_id = None
        self.last_error = None
        self.log.clear()
        self._append(translate("BenchmarkTab", "Suite {suite} on {device} with {python}")
                     .replace("{suite}", suite).replace("{device}", device).replace("{python}", python))
        self.progress.setValue(0)
        self._set_running(True)
        self._set_status(translate("BenchmarkTab", "Checking the interpreter and the hardware…"))
        self._show_record()
        self.runner.start(session)
        return True

    def cancel(self) -> None:
        if self.runner.is_running():
            self._set_status(translate("BenchmarkTab", "Cancelling…"))
            self.runner.cancel()

    def _set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        for w in (self.suite_combo, self.device_combo, self.python_combo, self.python_browse, self.build_combo):
            w.setEnabled(not running)
        self.python_refresh.setEnabled(not running and not self.discovering)
        has = self.record is not None and bool(self.record.rows) and not running
        self.export_json_button.setEnabled(has)
        self.export_csv_button.setEnabled(has)

    def _set_status(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet(self._error_style() if error else "")
        if error:
            self.last_error = text

    def _append(self, line: str) -> None:
        self.log.appendPlainText(line)

    def _on_event(self, ev: Event) -> None:
        if ev.fraction is not None:
            self.progress.setValue(int(ev.fraction * 1000))
        label = translate("bench", suites.JOBS[ev.job].label) if ev.job in suites.JOBS else ev.job
        if ev.kind == "job_started":
            if ev.job == "fingerprint":
                return
            self._append(f"▶ {label}")
            self._set_status(translate("BenchmarkTab", "Running {job}…").replace("{job}", label))
        elif ev.kind == "progress":
            detail = _render(ev.message)
            self._set_status(f"{label}: {detail}" if detail else label)
        elif ev.kind == "log":
            self._append(f"  {_render(ev.message)}")
        elif ev.kind == "garbage":
            self._append("  " + translate("BenchmarkTab", "output not understood: {line}").replace("{line}", ev.text))
        elif ev.kind == "stderr":
            if ev.text.strip():
                self._append(f"  │ {ev.text}")
        elif ev.kind == "row" and ev.row is not None:
            self._append("  " + self._row_summary(ev.row))
            self._show_record()

    def _row_summary(self, row: RowResult) -> str:
        name = translate("bench", suites.ROW_LABELS.get(row.name, row.name))
        if row.status == "ok":
            return f"✓ {name}: {fmt_value(row.value)} {row.unit}"
        mark = "–" if row.status == "skipped" else "✗"
        return f"{mark} {name}: {translate('bench', STATUS_LABELS.get(row.status, row.status))} — " \
               f"{row.error_text(translate) or ''}"

    def _on_finished(self, record: RunRecord) -> None:
        self.record = record
        self._set_running(False)
        self.progress.setValue(1000)
        if record.error is not None:
            self._set_status(translate("BenchmarkTab", "The suite could not run: {reason}")
                             .replace("{reason}", record.error.render(translate)), error=True)
        else:
            ok = sum(1 for r in record.rows if r.status == "ok")
            self._set_status(translate("BenchmarkTab", "{status} in {seconds} s: {ok} of {n} results measured.")
                             .replace("{status}", translate("bench", STATUS_LABELS.get(record.status,
                                                                                      record.status)).capitalize())
                             .replace("{seconds}", f"{record.duration_s or 0:.0f}").replace("{ok}", str(ok))
                             .replace("{n}", str(len(record.rows))))
        self._show_record()
        if self.results is not None and record.rows:
            repo = self.results
            build_id = record.build_id

            def save() -> dict[str, list[float]]:
                earlier = {r.name: [p.value for p in repo.history(record.machine, r.name, before=record.started_at)]
                           for r in record.rows if r.status == "ok"}
                repo.save(record, build_id=build_id)
                return earlier

            self.tasks.submit(save, self._saved, self._save_failed)

    def _saved(self, earlier: dict[str, list[float]]) -> None:
        self.earlier = {k: v for k, v in earlier.items() if v}
        self.saved_run_id = self.record.run_id if self.record else None
        self._show_record()

    def _save_failed(self, exc: BaseException, _tb: str) -> None:
        self._set_status(translate("BenchmarkTab", "The results could not be saved: {error}")
                         .replace("{error}", str(exc)), error=True)

    # -- showing ---------------------------------------------------------------------------------
    def _show_record(self) -> None:
        rec = self.record
        rows = rec.rows if rec else []
        self.table.setRowCount(len(rows))
        for i, r in enumerate(rows):
            self._fill_row(i, r)
        self._show_charts()
        if rec is None:
            self.status.setText(translate(
                "BenchmarkTab", "No run yet. “Run benchmarks” measures this machine in child processes: matrix "
                                "multiply, memory bandwidth, ResNet training, GPT-2 inference, data loading and "
                                "DDP scaling. The quick suite takes about two minutes on a small CPU; a benchmark "
                                "that crashes or runs out of memory cannot take the app down."))
            self.history_label.setText("")
        else:
            runs = max((len(v) for v in self.earlier.values()), default=0)
            saved = (translate("BenchmarkTab", "Saved as run {id}.").replace("{id}", str(self.saved_run_id))
                     if self.saved_run_id is not None else "")
            hist = translate("BenchmarkTab", "{n} earlier runs on this machine.").replace("{n}", str(runs)) \
                if runs else translate("BenchmarkTab", "No earlier runs on this machine to compare with.")
            self.history_label.setText(f"{saved} {hist}".strip() if rec.finished_at else "")

    def _show_charts(self) -> None:
        rec = self.record
        earlier_median = {k: statistics.median(v) for k, v in self.earlier.items() if v}
        self.throughput_chart.update(rec, earlier_median)
        self.matmul_chart.update(rec)
        self.scaling_chart.update(rec)

    def _fill_row(self, i: int, r: RowResult) -> None:
        name = translate("bench", suites.ROW_LABELS.get(r.name, r.name))
        status = translate("bench", STATUS_LABELS.get(r.status, r.status))
        cells = [name, status, "", "", "", "", ""]
        tips = [r.name, r.error_text(translate) or "", "", "", "", "", ""]
        if r.status == "ok":
            cells[2] = f"{fmt_value(r.value)} {r.unit}"
            cells[3] = f"{fmt_value(r.median)} ± {fmt_value(r.iqr)} {r.unit}"
            tips[2] = "\n".join(f"{k}: {v}" for k, v in r.settings.items())
            prev = self.earlier.get(r.name)
            if prev and r.value is not None:
                base = statistics.median(prev)
                cells[4] = translate("BenchmarkTab", "{pct} vs {value} (median of {n})").replace(
                    "{pct}", _pct(percent_diff(r.value, base))).replace("{value}", fmt_value(base)).replace(
                    "{n}", str(len(prev)))
            refs = references_for(r.name, r.settings)
            if refs and r.value is not None:
                ref = refs[0]
                cells[5] = f"{_pct(percent_diff(r.value, ref.value))} vs {fmt_value(ref.value)} {ref.unit}"
                tips[5] = f"{ref.rule} · {translate('bench', ref.label)}"
            est = self._estimate(r)
            if est is not None and r.value is not None:
                value, unit, how = est
                if r.name.startswith("matmul-"):  # against the card's spec-sheet peak
                    cells[6] = translate("BenchmarkTab", "{share} of the spec sheet's {peak}").replace(
                        "{share}", f"{r.value / value:.0%}").replace("{peak}", f"{fmt_value(value)} {unit}")
                else:
                    cells[6] = translate("BenchmarkTab", "measured {measured} against {estimate} estimated, {pct}") \
                        .replace("{measured}", f"{fmt_value(r.value)} {r.unit}") \
                        .replace("{estimate}", f"{fmt_value(value)} {unit}").replace("{pct}", _pct(percent_diff(
                            r.value, value)))
                tips[6] = how
        else:
            cells[2] = r.error_text(translate) or ""
        for col, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if tips[col]:
                item.setToolTip(tips[col])
            if col == 1:
                c = colours(self.palette())
                item.setForeground(QColor(getattr(c, STATUS_COLOURS.get(r.status, "text"))))
            if col in (2, 3) and r.status == "ok":
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(i, col, item)

    def _estimate(self, r: RowResult) -> tuple[float, str, str] | None:
        if self.estimate_for is None or self.record is None:
            return None
        try:
            return self.estimate_for(self.record.fingerprint, r)
        except Exception:
            return None

    # -- export ----------------------------------------------------------------------------------
    def export_json_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, translate("BenchmarkTab", "Export results"),
                                              str(Path.home() / "benchmark.json"),
                                              translate("BenchmarkTab", "JSON files (*.json)"))
        if path:
            self.export(Path(path), "json")

    def export_csv_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, translate("BenchmarkTab", "Export results"),
                                              str(Path.home() / "benchmark.csv"),
                                              translate("BenchmarkTab", "CSV files (*.csv)"))
        if path:
            self.export(Path(path), "csv")

    def export(self, path: Path, kind: str) -> None:
        record = self.record
        if record is None:
            return
        write = export_json if kind == "json" else export_csv
        self.tasks.submit(lambda: write(record, path, translate),
                          lambda p: self._set_status(translate("BenchmarkTab", "Wrote {path}.")
                                                     .replace("{path}", str(p))),
                          lambda exc, _tb: self._set_status(translate("BenchmarkTab", "Could not write {path}: "
                                                                                      "{error}")
                                                            .replace("{path}", str(path))
                                                            .replace("{error}", str(exc)), error=True))
