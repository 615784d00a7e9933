"""The Monitor tab's recording controls: record every sample to a CSV file (indexed in the
database), add markers while it records, and a line saying where it records or what went wrong."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from configurator.core.i18n import fill
from configurator.monitor.service import MonitorService
from configurator.paths import user_data_dir
from configurator.store.recordings import RecordingsRepository
from configurator.ui.files import save_file
from configurator.ui.i18n import translate
from configurator.ui.theme import colours, on_theme_change


class RecordingControls(QWidget):
    """``hostname``: the name the recording is indexed under (the latest sample's host); ``recorded``:
    a recording was started or stopped (the index changed)."""

    recorded = Signal()

    def __init__(self, service: MonitorService, recordings: RecordingsRepository, settings: QSettings,
                 hostname: Callable[[], str], parent: QWidget | None = None):
        super().__init__(parent)
        self.settings = settings
        self.service = service
        self.recordings = recordings
        self.hostname = hostname
        self.recording_id: int | None = None
        self._error = False
        self.record_button = QPushButton()
        self.record_button.setObjectName("recordButton")
        self.record_button.setCheckable(True)
        self.record_button.clicked.connect(self._record_clicked)
        self.marker_edit = QLineEdit()
        self.marker_edit.setObjectName("markerEdit")
        self.marker_edit.returnPressed.connect(self._marker_clicked)
        self.marker_button = QPushButton()
        self.marker_button.setObjectName("markerButton")
        self.marker_button.clicked.connect(self._marker_clicked)
        self.record_state = QLabel()
        self.record_state.setObjectName("recordState")
        self.record_state.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for w in (self.record_button, self.marker_edit, self.marker_button):
            row.addWidget(w)
        row.addWidget(self.record_state, 1)
        on_theme_change(self.restyle)

    def retranslate(self) -> None:
        self.record_button.setText(translate("Monitor", "Stop recording") if self.recording
                                   else translate("Monitor", "Record…"))
        self.record_button.setToolTip(translate("Monitor", "Write every sample to a CSV file, indexed in the database"))
        self.marker_edit.setPlaceholderText(translate("Monitor", "Marker, e.g. “lr 3e-4”"))
        self.marker_button.setText(translate("Monitor", "Add marker"))
        self.marker_button.setToolTip(translate("Monitor", "Mark this moment in the recording"))
        self.marker_edit.setEnabled(self.recording)
        self.marker_button.setEnabled(self.recording)
        if self.recording and self.service.recorder is not None:
            self._set_text(fill(translate("Monitor", "Recording to {path}"), path=str(self.service.recorder.path)))

    def restyle(self) -> None:
        if self.record_state.styleSheet():
            self._set_text(self.record_state.text(), self._error)

    @property
    def recording(self) -> bool:
        return self.recording_id is not None

    def _record_clicked(self) -> None:
        if self.recording:
            self.stop_recording()
            return
        folder = user_data_dir() / "recordings"
        folder.mkdir(parents=True, exist_ok=True)
        default = folder / datetime.now().strftime("monitor-%Y%m%d-%H%M%S.csv")
        path = save_file(self, self.settings, "recording", translate("Monitor", "Record to CSV"), default,
                         translate("Monitor", "CSV files (*.csv)"))
        if path:
            self.start_recording(Path(path))
        else:
            self.record_button.setChecked(False)

    def start_recording(self, path: Path) -> bool:
        try:
            rec = self.service.start_recording(path)
        except OSError as exc:
            self.record_button.setChecked(False)
            self._set_text(fill(translate("Monitor", "Cannot record to {path}: {error}"),
                                path=str(path), error=exc.strerror or str(exc)), error=True)
            return False
        self.recording_id = self.recordings.start(rec.path, self.hostname(), rec.interval_s, rec.started_at)
        self.record_button.setChecked(True)
        self.retranslate()
        self.recorded.emit()
        return True

    def add_marker(self, label: str) -> bool:
        rec = self.service.recorder
        if rec is None or self.recording_id is None or not label.strip():
            return False
        marker = rec.mark(label.strip())
        self.recordings.add_marker(self.recording_id, marker)
        self._set_text(fill(translate("Monitor", "Marker “{label}” added at {time}"),
                            label=marker["label"], time=marker["time"][11:]))
        return True

    def stop_recording(self) -> None:
        rec = self.service.stop_recording()
        if rec is not None and self.recording_id is not None:
            self.recordings.finish(self.recording_id, rows=rec.rows, gpus=rec.gpus, markers=rec.markers,
                                   stopped_at=rec.stopped_at)
            self._set_text(fill(translate("Monitor", "Recorded {rows} samples to {path}"),
                                rows=rec.rows, path=str(rec.path)))
        self.recording_id = None
        self.record_button.setChecked(False)
        self.retranslate()
        self.recorded.emit()

    def _marker_clicked(self) -> None:
        if self.add_marker(self.marker_edit.text()):
            self.marker_edit.clear()

    def _set_text(self, text: str, error: bool = False) -> None:
        self.record_state.setText(text)
        self._error = error
        c = colours(self.palette())
        self.record_state.setStyleSheet(f"color: {c.error if error else c.muted_text};")
