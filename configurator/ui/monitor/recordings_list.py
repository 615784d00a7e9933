"""The Monitor tab's recordings: the index in the database (newest first), and for the one selected its
run report (monitor/report.py) in a dialog, or as an A4 PDF (ui/report_pdf.py). A CSV file that was
moved or deleted gets one clear message; its entry stays in the index (the file may come back)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from configurator.core.build import DEFAULT_ELECTRICITY_CNY_PER_KWH
from configurator.core.i18n import fill
from configurator.monitor.report import RecordingError, RunReport, report
from configurator.store.recordings import Recording, RecordingsRepository
from configurator.ui.files import save_file
from configurator.ui.i18n import translate
from configurator.ui.report_pdf import report_html, write_report_pdf
from configurator.ui.tasks import TaskRunner
from configurator.ui.theme import colours

TARIFF_KEY = "runReport/tariff"  # the electricity price the last report was costed at, ¥/kWh
MAX_TARIFF = 100.0


class ReportDialog(QDialog):
    """A run report as the PDF shows it, costed at the tariff above it (which the PDF keeps), with
    "Save PDF…"."""

    def __init__(self, run: RunReport, save_pdf: Callable[[RunReport], None], parent: QWidget | None = None,
                 tariff_changed: Callable[[float], None] = lambda _t: None):
        super().__init__(parent)
        self.setObjectName("runReportDialog")
        self.run = run
        self._tariff_changed = tariff_changed
        self.setWindowTitle(fill(translate("Monitor", "Run report: {file}"), file=Path(run.path).name))
        self.tariff = QDoubleSpinBox()
        self.tariff.setObjectName("runReportTariff")
        self.tariff.setRange(0.0, MAX_TARIFF)
        self.tariff.setDecimals(2)
        self.tariff.setSingleStep(0.05)
        self.tariff.setPrefix("¥ ")
        self.tariff.setValue(run.tariff_cny_per_kwh)
        self.tariff.valueChanged.connect(self._set_tariff)
        tariff_label = QLabel(translate("Monitor", "Electricity per kWh:"))
        tariff_label.setBuddy(self.tariff)
        top = QHBoxLayout()
        top.addWidget(tariff_label)
        top.addWidget(self.tariff)
        top.addStretch(1)
        self.text = QTextBrowser()
        self.text.setObjectName("runReportText")
        self.text.setHtml(report_html(run))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.pdf_button = buttons.addButton(translate("Monitor", "Save PDF…"), QDialogButtonBox.ButtonRole.ActionRole)
        self.pdf_button.clicked.connect(lambda: save_pdf(self.run))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)
        self.resize(820, 640)

    def _set_tariff(self, value: float) -> None:
        self.run = replace(self.run, tariff_cny_per_kwh=round(value, 2))
        bar = self.text.verticalScrollBar()
        at = bar.value()
        self.text.setHtml(report_html(self.run))
        bar.setValue(at)
        self._tariff_changed(self.run.tariff_cny_per_kwh)


class RecordingsList(QWidget):
    def __init__(self, recordings: RecordingsRepository, settings: QSettings, tasks: TaskRunner,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("recordingsList")
        self.recordings, self.settings, self.tasks = recordings, settings, tasks
        self.rows: list[Recording] = []
        self.dialog: ReportDialog | None = None
        self.message = ""
        self._error = False
        self.busy = False
        self._then: Callable[[RunReport], None] = lambda _r: None
        self.table = QTableWidget(0, 6)
        self.table.setObjectName("recordingsTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.table.doubleClicked.connect(lambda _i: self.open_report())
        self.empty = QLabel()
        self.empty.setObjectName("emptyRecordings")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.report_button = QPushButton()
        self.report_button.setObjectName("openReport")
        self.report_button.clicked.connect(self.open_report)
        self.pdf_button = QPushButton()
        self.pdf_button.setObjectName("saveReportPdf")
        self.pdf_button.clicked.connect(self.save_pdf_dialog)
        self.refresh_button = QPushButton()
        self.refresh_button.clicked.connect(self.refresh)
        self.status = QLabel()
        self.status.setObjectName("recordingsStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        side = QVBoxLayout()
        for b in (self.report_button, self.pdf_button, self.refresh_button):
            side.addWidget(b)
        side.addStretch(1)
        main = QVBoxLayout()
        main.setContentsMargins(0, 0, 0, 0)
        main.addWidget(self.table, 1)
        main.addWidget(self.empty, 1)
        main.addWidget(self.status)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addLayout(main, 1)
        row.addLayout(side)
        self.retranslate()
        self.refresh()

    # -- the index --------------------------------------------------------------------------------------
    def refresh(self) -> None:
        keep = self.selected()
        self.rows = self.recordings.list(limit=500)
        self.table.setRowCount(len(self.rows))
        for i, rec in enumerate(self.rows):
            # the time the samples cover (the index's clock times, where the file has no rows counted yet)
            span = rec.rows * rec.interval_s if rec.rows else (
                None if rec.stopped_at is None else (rec.stopped_at - rec.started_at).total_seconds())
            length = "—" if span is None else f"{span / 60:.1f}"
            state = "" if rec.exists else translate("Monitor", "file missing")
            cells = (f"{rec.started_at:%Y-%m-%d %H:%M}", str(rec.path), rec.hostname, length, str(rec.rows),
                     state or (rec.note or ""))
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(str(rec.path))
                self.table.setItem(i, col, item)
        ids = [r.id for r in self.rows]
        if keep is not None and keep.id in ids:
            self.table.selectRow(ids.index(keep.id))
        elif self.rows:
            self.table.selectRow(0)
        self.table.setVisible(bool(self.rows))
        self.empty.setVisible(not self.rows)
        self._selection_changed()

    def selected(self) -> Recording | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return self.rows[rows[0].row()] if rows and rows[0].row() < len(self.rows) else None

    def select(self, recording_id: int) -> None:
        ids = [r.id for r in self.rows]
        if recording_id in ids:
            self.table.selectRow(ids.index(recording_id))

    def _selection_changed(self) -> None:
        on = self.selected() is not None and not self.busy
        self.report_button.setEnabled(on)
        self.pdf_button.setEnabled(on)

    def showEvent(self, event: QShowEvent) -> None:
        self.refresh()  # a recording made since (here or by `configurator monitor --record`)
        super().showEvent(event)

    # -- the report -------------------------------------------------------------------------------------
    def _read(self, then: Callable[[RunReport], None]) -> None:
        """Read the selected recording's report off the GUI thread, then ``then`` it."""
        rec = self.selected()
        if rec is None:
            return
        if not rec.exists:
            self._say(fill(translate("Monitor", "The recording {path} is no longer there: it was moved or deleted. "
                                                "Put it back to see its report."), path=str(rec.path)), error=True)
            return
        self.busy = True
        self._selection_changed()
        self._say(fill(translate("Monitor", "Reading {file}…"), file=rec.path.name))
        path, tariff = rec.path, self.tariff

        def job() -> RunReport | RecordingError:
            try:
                return report(path, tariff_cny_per_kwh=tariff)
            except RecordingError as exc:  # damaged, or gone since: one message
                return exc

        self._then = then
        self.tasks.submit(job, self._read_done, self._failed)  # bound methods: dropped if the list is gone

    def _read_done(self, result: RunReport | RecordingError) -> None:
        self.busy = False
        self._selection_changed()
        if isinstance(result, RecordingError):
            self._say(result.message.render(translate), error=True)
            return
        self._say("")
        self._then(result)

    def _failed(self, exc: BaseException, _tb: str = "") -> None:
        self.busy = False
        self._selection_changed()
        self._say(str(exc), error=True)

    def open_report(self) -> None:
        self._read(self._show_report)

    def _show_report(self, run: RunReport) -> None:
        if self.dialog is not None:
            self.dialog.close()
        self.dialog = ReportDialog(run, self.save_pdf_dialog_for, self, self._remember_tariff)
        self.dialog.show()

    @property
    def tariff(self) -> float:
        """The electricity price reports are costed at: the last one set in a report, else the planner's default."""
        try:
            value = float(self.settings.value(TARIFF_KEY, DEFAULT_ELECTRICITY_CNY_PER_KWH))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return DEFAULT_ELECTRICITY_CNY_PER_KWH
        return value if math.isfinite(value) and 0 <= value <= MAX_TARIFF else DEFAULT_ELECTRICITY_CNY_PER_KWH

    def _remember_tariff(self, value: float) -> None:
        self.settings.setValue(TARIFF_KEY, value)

    def save_pdf_dialog(self) -> None:
        self._read(self.save_pdf_dialog_for)

    def save_pdf_dialog_for(self, run: RunReport) -> None:
        default = Path(run.path).with_suffix(".pdf")
        path = save_file(self, self.settings, "run-report", translate("Monitor", "Save the run report as PDF"),
                         default, translate("Monitor", "PDF files (*.pdf)"))
        if path:
            self.save_pdf(run, Path(path))

    def save_pdf(self, run: RunReport, path: Path) -> bool:
        try:
            write_report_pdf(run, path)
        except OSError as exc:
            self._say(fill(translate("Monitor", "Cannot write {path}: {error}"), path=str(path),
                           error=exc.strerror or str(exc)), error=True)
            return False
        self._say(fill(translate("Monitor", "Wrote {path}"), path=str(path)))
        return True

    def _say(self, text: str, error: bool = False) -> None:
        self.message, self._error = text, error
        c = colours(self.palette())
        self.status.setStyleSheet(f"color: {c.error if error else c.muted_text};")
        self.status.setText(text)

    # -- language ----------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.table.setHorizontalHeaderLabels([
            translate("Monitor", "Started"), translate("Monitor", "File"), translate("Monitor", "Host"),
            translate("Monitor", "Minutes"), translate("Monitor", "Samples"), translate("Monitor", "Note")])
        self.empty.setText(translate("Monitor", "No recordings yet. “Record…” writes every sample to a CSV file; "
                                                "its run report (utilisation, memory, energy, GPU-6) opens here."))
        self.report_button.setText(translate("Monitor", "Open report…"))
        self.report_button.setToolTip(translate("Monitor", "The run report of the selected recording"))
        self.pdf_button.setText(translate("Monitor", "Save PDF…"))
        self.refresh_button.setText(translate("Monitor", "Refresh"))
        if self.rows:
            self.refresh()
