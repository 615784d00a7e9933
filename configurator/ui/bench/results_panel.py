"""The Benchmark tab's results: a table of result rows compared with earlier runs on this
machine, the guides' references and the planner's estimate; the live log; the three charts;
the stored runs, the history line and the export buttons.

A result measured while the machine was busy says so beside it; a result whose spread is too
wide (or a DDP scaling above ideal) is marked unstable and not compared, as it is no fact;
the thresholds are stated under the table (configurator.bench.load)."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from configurator.bench import suites
from configurator.bench.load import BUSY_CPU_PERCENT, BUSY_GPU_PERCENT, UNSTABLE_SPREAD
from configurator.bench.references import other_device_references, percent_diff, references_for
from configurator.bench.results import STATUS_LABELS, RowResult, RunRecord, fmt_value
from configurator.core.i18n import fill
from configurator.ui.bench.charts import MatmulChart, ScalingChart, ThroughputChart
from configurator.ui.bench.fmt import pct, render, unit, value_with_unit
from configurator.ui.bench.measured_cells import energy_cell, memory_cell
from configurator.ui.bench.run_list import RunList
from configurator.ui.i18n import translate
from configurator.ui.theme import colours

# The planner's estimate for a result row on the fingerprinted hardware: (value, unit, how it was made).
EstimateFor = Callable[[dict[str, Any], RowResult], "tuple[float, str, str] | None"]

COLUMNS = 9
STATUS_COLOURS = {"ok": "ok", "failed": "error", "timeout": "error", "cancelled": "warning",
                  "skipped": "faint_text"}  # fields of the theme's colours


class ResultsPanel(QWidget):
    export_requested = Signal(str)  # "json" or "csv"

    def __init__(self, estimate_for: EstimateFor | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.estimate_for = estimate_for
        self.record: RunRecord | None = None
        self.earlier: dict[str, list[float]] = {}
        self.saved_run_id: int | None = None
        self.opened = False  # the record is a stored run opened from the list, not the one just run

        self.table = QTableWidget(0, COLUMNS)
        self.table.setObjectName("benchResults")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setMinimumSize(100, 60)
        self.notes = QLabel()  # what "busy" and "unstable" mean, when a row is either
        self.notes.setObjectName("benchNotes")
        self.notes.setWordWrap(True)
        self.notes.hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for col, width in enumerate((150, 120, 130, 170, 150, 170, 260, 280)):
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
        table_box = QWidget()
        tb = QVBoxLayout(table_box)
        tb.setContentsMargins(0, 0, 0, 0)
        tb.addWidget(self.table, 1)
        tb.addWidget(self.notes)
        self.left = QSplitter(Qt.Orientation.Vertical)
        self.left.addWidget(table_box)
        self.left.addWidget(log_box)
        self.left.setStretchFactor(0, 3)
        self.left.setStretchFactor(1, 2)

        self.throughput_chart = ThroughputChart()
        self.matmul_chart = MatmulChart()
        self.scaling_chart = ScalingChart()
        right = QSplitter(Qt.Orientation.Vertical)
        for chart in (self.throughput_chart, self.matmul_chart, self.scaling_chart):
            right.addWidget(chart.widget)
        right.setStretchFactor(0, 3)
        right.setStretchFactor(1, 2)
        right.setStretchFactor(2, 2)
        self.split = split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.left)
        split.addWidget(right)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setSizes([1000, 1000])

        self.history_label = QLabel()
        self.history_label.setObjectName("benchHistory")
        self.export_json_button = QPushButton()
        self.export_json_button.clicked.connect(lambda: self.export_requested.emit("json"))
        self.export_csv_button = QPushButton()
        self.export_csv_button.clicked.connect(lambda: self.export_requested.emit("csv"))
        self.runs = RunList()
        top = QHBoxLayout()
        top.addWidget(self.runs, 3)
        top.addWidget(self.history_label, 2)
        top.addWidget(self.export_json_button)
        top.addWidget(self.export_csv_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(split, 1)

    def retranslate(self) -> None:
        self.export_json_button.setText(translate("BenchmarkTab", "Export JSON…"))
        self.export_csv_button.setText(translate("BenchmarkTab", "Export CSV…"))
        self.log_label.setText(translate("BenchmarkTab", "Log"))
        self.log.setPlaceholderText(translate("BenchmarkTab", "What the benchmarks print shows here while they run "
                                                              "(a stored run keeps its results, not its log)."))
        self.runs.retranslate()
        self.table.setHorizontalHeaderLabels([
            translate("BenchmarkTab", "Result"), translate("BenchmarkTab", "Status"),
            translate("BenchmarkTab", "Value"), translate("BenchmarkTab", "Median ± IQR"),
            translate("BenchmarkTab", "vs earlier runs"), translate("BenchmarkTab", "vs guide reference"),
            translate("BenchmarkTab", "vs planner estimate"), translate("BenchmarkTab", "Peak memory vs VRAM estimate"),
            translate("BenchmarkTab", "Energy")])
        self.show_record()

    def set_running(self, running: bool) -> None:
        self.runs.set_running(running)
        has = self.record is not None and bool(self.record.rows) and not running
        self.export_json_button.setEnabled(has)
        self.export_csv_button.setEnabled(has)

    def append(self, line: str) -> None:
        self.log.appendPlainText(line)

    # -- showing -----------------------------------------------------------------------------------
    def show_record(self) -> None:
        rec = self.record
        rows = rec.rows if rec else []
        self.table.setRowCount(len(rows))
        for i, r in enumerate(rows):
            self._fill_row(i, r)
        self._show_notes(rows)
        self.show_charts()
        if rec is None:
            self.history_label.setText("")
            return
        runs = max((len(v) for v in self.earlier.values()), default=0)
        if self.opened:
            saved = fill(translate("BenchmarkTab", "Run {id} of {time}, stored."),
                         id=str(rec.run_id), time=rec.started_at.strftime("%Y-%m-%d %H:%M"))
        else:
            saved = (fill(translate("BenchmarkTab", "Saved as run {id}."), id=str(self.saved_run_id))
                     if self.saved_run_id is not None else "")
        hist = fill(translate("BenchmarkTab", "{n} earlier runs on this machine."), n=str(runs)) \
            if runs else translate("BenchmarkTab", "No earlier runs on this machine to compare with.")
        both = fill(translate("BenchmarkTab", "{saved} {history}"), saved=saved, history=hist)
        self.history_label.setText(both.strip() if rec.finished_at else "")

    def show_charts(self) -> None:
        rec = self.record
        earlier_median = {k: statistics.median(v) for k, v in self.earlier.items() if v}
        self.throughput_chart.update(rec, earlier_median)
        self.matmul_chart.update(rec)
        self.scaling_chart.update(rec)

    def _show_notes(self, rows: list[RowResult]) -> None:
        busy = any(r.busy() for r in rows)
        unstable = any(r.unstable() is not None for r in rows)
        notes = []
        if busy:
            notes.append(fill(translate(
                     "BenchmarkTab", "⚠ busy: before or during the result other processes used more than {cpu} % of "
                                     "the CPU (all cores together), or the GPU was more than {gpu} % busy with other "
                                     "work or ran another process; the result may be lower than this machine can do."),
                              cpu=f"{BUSY_CPU_PERCENT:.0f}", gpu=f"{BUSY_GPU_PERCENT:.0f}"))
        if unstable:
            notes.append(fill(translate(
                     "BenchmarkTab", "≈ unstable: the spread (IQR) is more than {spread} % of the median, or a scaling "
                                     "efficiency is above ideal; such a result is not compared with anything."),
                              spread=f"{100 * UNSTABLE_SPREAD:.0f}"))
        self.notes.setText("\n".join(notes))
        self.notes.setStyleSheet(f"color: {colours(self.palette()).warning};" if notes else "")
        self.notes.setVisible(bool(notes))

    def _device(self, r: RowResult) -> str:
        rec = self.record
        return str(r.settings.get("device") or (rec.resolved_device if rec else None) or "cpu")

    def _fill_row(self, i: int, r: RowResult) -> None:
        name = translate("bench", suites.ROW_LABELS.get(r.name, r.name))
        status = translate("bench", STATUS_LABELS.get(r.status, r.status))
        cells = [name, status, "", "", "", "", "", "", ""]
        tips = [r.name, r.error_text(translate) or "", "", "", "", "", "", "", ""]
        colour = STATUS_COLOURS.get(r.status, "text")
        impossible = r.not_measured()
        if impossible is not None:  # a value that cannot be true is no result: say why and how to get one
            cells[1] = "⚠ " + translate("BenchmarkTab", "not measured")
            cells[2] = translate("BenchmarkTab", "not measured")
            tips[1] = tips[2] = render(impossible)
            for col in (3, 4, 5, 6):
                cells[col] = "—"
                tips[col] = render(impossible)
            colour = "warning"
        elif r.status == "ok":
            busy, unstable = r.busy(), r.unstable()
            marks = []
            if unstable is not None:
                marks.append(translate("BenchmarkTab", "measurement problem") if r.name == "ddp-scaling"
                             and "measurement problem" in unstable.template else translate("BenchmarkTab", "unstable"))
            if busy:
                marks.append(translate("BenchmarkTab", "busy"))
            if marks:
                cells[1] = "⚠ " + ", ".join(marks)
                tips[1] = "\n".join([render(m) for m in ([unstable] if unstable is not None else []) + busy])
                colour = "warning"
            cells[2] = ("≈ " if unstable is not None else "") + value_with_unit(r.value, r.unit)
            cells[3] = f"{fmt_value(r.median)} ± {fmt_value(r.iqr)} {unit(r.unit)}".rstrip()
            tips[2] = "\n".join(f"{k}: {v}" for k, v in r.settings.items())
            if unstable is not None:  # no fact to compare: say why instead
                for col in (4, 5, 6):
                    cells[col] = translate("BenchmarkTab", "not compared")
                    tips[col] = render(unstable)
            else:
                self._comparisons(r, cells, tips)
            cells[7], tips[7] = memory_cell(r, self._device(r))
            cells[8], tips[8] = energy_cell(r, self._device(r))
        else:
            cells[2] = r.error_text(translate) or ""
        for col, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if tips[col]:
                item.setToolTip(tips[col])
            if col == 1:
                item.setForeground(QColor(getattr(colours(self.palette()), colour)))
            if col in (2, 3) and r.status == "ok" and impossible is None:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(i, col, item)

    def _comparisons(self, r: RowResult, cells: list[str], tips: list[str]) -> None:
        """Against earlier runs here, the guides' references for this kind of device, the planner's estimate."""
        prev = self.earlier.get(r.name)
        if prev and r.value is not None:
            base = statistics.median(prev)
            cells[4] = fill(translate("BenchmarkTab", "{pct} vs {value} (median of {n})"),
                            pct=pct(percent_diff(r.value, base)), value=fmt_value(base), n=str(len(prev)))
        device = self._device(r)
        refs = references_for(r.name, r.settings, device)
        if refs and r.value is not None:
            ref = refs[0]
            cells[5] = f"{pct(percent_diff(r.value, ref.value))} vs {value_with_unit(ref.value, ref.unit)}"
            tips[5] = f"{ref.rule} · {translate('bench', ref.label)}"
        elif device == "cpu" and other_device_references(r.name, device):
            others = other_device_references(r.name, device)
            cells[5] = translate("BenchmarkTab", "none for a CPU")
            shown = "; ".join(f"{ref.rule}: {value_with_unit(ref.value, ref.unit)}, {translate('bench', ref.label)}"
                              for ref in others)
            tips[5] = fill(translate("BenchmarkTab", "The guides' figures for this result are GPU measurements "
                                                     "({refs}); a CPU result is not compared with them."), refs=shown)
        est = self._estimate(r)
        if est is not None and r.value is not None:
            value, est_unit, how = est
            if r.name.startswith("matmul-"):  # against the card's spec-sheet peak
                cells[6] = fill(translate("BenchmarkTab", "{share} of the spec sheet's {peak}"),
                                share=f"{r.value / value:.0%}", peak=value_with_unit(value, est_unit))
            else:
                cells[6] = fill(translate("BenchmarkTab", "measured {measured} against {estimate} estimated, {pct}"),
                                measured=value_with_unit(r.value, r.unit), estimate=value_with_unit(value, est_unit),
                                pct=pct(percent_diff(r.value, value)))
            tips[6] = how

    def _estimate(self, r: RowResult) -> tuple[float, str, str] | None:
        if self.estimate_for is None or self.record is None:
            return None
        try:
            return self.estimate_for(self.record.fingerprint, r)
        except Exception:
            return None
