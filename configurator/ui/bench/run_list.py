"""The Benchmark tab's list of the runs stored for this machine: choosing one opens it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from configurator.bench.results import STATUS_LABELS
from configurator.core.i18n import fill
from configurator.store.bench_results import RunSummary
from configurator.ui.bench.fmt import device_names, suite_names
from configurator.ui.i18n import translate


def run_title(run: RunSummary) -> str:
    status = translate("bench", STATUS_LABELS.get(run.status, run.status))
    suite = suite_names().get(run.suite, run.suite)
    device = device_names().get(run.device, run.device)
    return (fill(translate("BenchmarkTab", "Run {id} · {time} · {suite} on {device} · {status} · {n} results"),
                 id=str(run.id), time=run.started_at.strftime("%Y-%m-%d %H:%M"), suite=suite, device=device,
                 status=status, n=str(run.results)))


class RunList(QWidget):
    """``open_requested(run_id)``: the user chose a stored run."""

    open_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.runs: list[RunSummary] = []
        self.label = QLabel()
        self.combo = QComboBox()
        self.combo.setObjectName("benchRuns")
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(24)
        self.combo.activated.connect(self._activated)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label)
        row.addWidget(self.combo, 1)
        self.label.setBuddy(self.combo)

    def retranslate(self) -> None:
        self.label.setText(translate("BenchmarkTab", "Stored &runs:"))
        self.combo.setToolTip(translate("BenchmarkTab", "The runs stored for this machine, newest first; choose "
                                                        "one to open it"))
        self.set_runs(self.runs, self.current())

    def set_runs(self, runs: list[RunSummary], current: int | None) -> None:
        self.runs = list(runs)
        self.combo.blockSignals(True)
        self.combo.clear()
        if not runs:
            self.combo.addItem(translate("BenchmarkTab", "(none stored yet)"), None)
        for run in runs:
            self.combo.addItem(run_title(run), run.id)
        i = self.combo.findData(current) if current is not None else -1
        self.combo.setCurrentIndex(max(0, i))
        self.combo.setEnabled(bool(runs))
        view = self.combo.view()
        view.setMinimumWidth(min(view.sizeHintForColumn(0) + 24, 900))
        self.combo.blockSignals(False)

    def current(self) -> int | None:
        data = self.combo.currentData()
        return int(data) if data is not None else None

    def select(self, run_id: int | None) -> None:
        i = self.combo.findData(run_id) if run_id is not None else -1
        if i >= 0:
            self.combo.blockSignals(True)
            self.combo.setCurrentIndex(i)
            self.combo.blockSignals(False)

    def set_running(self, running: bool) -> None:
        self.combo.setEnabled(bool(self.runs) and not running)

    def _activated(self, index: int) -> None:
        data = self.combo.itemData(index)
        if data is not None:
            self.open_requested.emit(int(data))



