"""The Monitor tab.

Gets its service (sampler, alerts, exporter, recorder), the recordings index,
settings and the task runner through its constructor. Redraws after a new
snapshot, at most 10 times a second, never while hidden; "Pause" freezes the
plots while sampling, alerts and recording go on.
"""

from __future__ import annotations

import html
import time
from datetime import datetime
from functools import partial
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QRect, QSettings, Qt, QTimer
from PySide6.QtGui import QHideEvent, QIcon, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStyle,
    QSystemTrayIcon,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from configurator.monitor.alerts import AlertEvent
from configurator.monitor.exporter import AddressError, parse_address
from configurator.monitor.remote import RemoteError, RemoteTarget
from configurator.monitor.service import MonitorService
from configurator.monitor.snapshot import Snapshot
from configurator.paths import user_data_dir
from configurator.store.recordings import RecordingsRepository
from configurator.ui.i18n import translate
from configurator.ui.monitor.alerts_model import AlertsModel
from configurator.ui.monitor.bridge import SnapshotBridge
from configurator.ui.monitor.cards import Card, Cell, GpuCard, HostCard, RemoteCard
from configurator.ui.monitor.fmt import fill, gib, na, seconds
from configurator.ui.tasks import TaskRunner
from configurator.ui.theme import banner_style, colours

WINDOWS_S = (60, 300, 900, 3600, 6 * 3600, 24 * 3600)
MIN_REDRAW_MS = 100  # at most 10 redraws a second
MAX_COLUMNS = 4


class MonitorTab(QWidget):
    def __init__(self, service: MonitorService, recordings: RecordingsRepository, settings: QSettings,
                 tasks: TaskRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("MonitorTab")
        self.service = service
        self.recordings = recordings
        self.settings = settings
        self.tasks = tasks
        self.latest: Snapshot | None = None
        self.redraw_count = 0
        self.paused = False
        self._dirty = False
        self._last_redraw = 0.0
        self.recording_id: int | None = None
        self.notified: list[tuple[str, str]] = []  # what went to the desktop (or would have)
        self.remotes: list[RemoteCard] = []
        self._scraping: set[str] = set()
        self.gpu_cards: dict[str, GpuCard] = {}
        self._record_error = False
        self._scheme = colours(self.palette())

        self._build()
        self.bridge = SnapshotBridge(self._on_snapshot)
        self.bridge.alerts.connect(self._on_alerts, Qt.ConnectionType.QueuedConnection)
        service.sampler.subscribe(self.bridge.push)
        service.on_alerts(self.bridge.push_alerts)

        self._redraw_timer = QTimer(self)
        self._redraw_timer.setSingleShot(True)
        self._redraw_timer.timeout.connect(self.redraw)
        self._remote_timer = QTimer(self)
        self._remote_timer.timeout.connect(self.scrape_remotes)

        self.tray: QSystemTrayIcon | None = None
        if QSystemTrayIcon.isSystemTrayAvailable():
            self.tray = QSystemTrayIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_ComputerIcon), self)
            self.tray.show()

        self.retranslate()
        for url in self._saved_remotes():
            self.add_remote(url, save=False)
        if service.latest is not None:
            self._on_snapshot(service.latest)

    # -- layout ------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.window_label = QLabel()
        self.window_combo = QComboBox()
        self.window_combo.setObjectName("windowCombo")
        for _ in WINDOWS_S:
            self.window_combo.addItem("")
        try:
            window = int(str(self.settings.value("monitor/window", 1)))
        except ValueError:
            window = 1
        self.window_combo.setCurrentIndex(window if 0 <= window < len(WINDOWS_S) else 1)
        self.window_combo.currentIndexChanged.connect(self._window_changed)
        self.interval_label = QLabel()
        self.interval = QDoubleSpinBox()
        self.interval.setObjectName("intervalSpin")
        self.interval.setRange(0.1, 60.0)
        self.interval.setDecimals(1)
        self.interval.setSingleStep(0.5)
        self.interval.setValue(self.service.sampler.interval_s)
        self.interval.valueChanged.connect(self.set_interval)
        self.pause_button = QPushButton()
        self.pause_button.setObjectName("pauseButton")
        self.pause_button.setCheckable(True)
        self.pause_button.toggled.connect(self.set_paused)
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

        row1 = QHBoxLayout()
        widgets: list[QWidget] = [self.window_label, self.window_combo, self.interval_label, self.interval,
                                  self.pause_button]
        for w in widgets:
            row1.addWidget(w)
        row1.addSpacing(16)
        for w in (self.record_button, self.marker_edit, self.marker_button):
            row1.addWidget(w)
        row1.addWidget(self.record_state, 1)

        self.exporter_check = QCheckBox()
        self.exporter_check.setObjectName("exporterCheck")
        self.exporter_check.toggled.connect(self.set_exporter)
        self.exporter_address = QLineEdit(str(self.settings.value("monitor/exporter", "127.0.0.1:9400")))
        self.exporter_address.setObjectName("exporterAddress")
        self.exporter_address.setMaximumWidth(170)
        self.exporter_state = QLabel()
        self.exporter_state.setObjectName("exporterState")
        self.exporter_state.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.remote_edit = QLineEdit()
        self.remote_edit.setObjectName("remoteEdit")
        self.remote_edit.returnPressed.connect(self._add_remote_clicked)
        self.remote_button = QPushButton()
        self.remote_button.setObjectName("remoteButton")
        self.remote_button.clicked.connect(self._add_remote_clicked)
        row2 = QHBoxLayout()
        row2.addWidget(self.exporter_check)
        row2.addWidget(self.exporter_address)
        row2.addWidget(self.exporter_state, 1)
        row2.addWidget(self.remote_edit, 1)
        row2.addWidget(self.remote_button)

        self.status = QLabel()
        self.status.setObjectName("monitorStatus")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.status.hide()

        self.host_card = HostCard()
        self.cards = QWidget()
        self.cards_grid = QGridLayout(self.cards)
        self.cards_grid.setContentsMargins(0, 0, 0, 0)
        self.cards_grid.setSpacing(6)
        self.cards_scroll = QScrollArea()
        self.cards_scroll.setWidgetResizable(True)
        self.cards_scroll.setWidget(self.cards)
        self.cards_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.cards_scroll.verticalScrollBar().valueChanged.connect(self._scrolled)
        self.cards_scroll.viewport().installEventFilter(self)
        self._layout_cards()

        self.processes = QTableWidget(0, 5)
        self.processes.setObjectName("processTable")
        self.processes.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.processes.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.processes.verticalHeader().hide()
        self.processes.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.processes.setSortingEnabled(True)
        self.processes.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self._process_rows: tuple[tuple[str, int, str, str, str], ...] = ()
        self.empty_processes = QLabel()
        self.empty_processes.setObjectName("emptyProcesses")
        self.empty_processes.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_processes.setWordWrap(True)
        processes_page = QWidget()
        pl = QVBoxLayout(processes_page)
        pl.setContentsMargins(0, 0, 0, 0)
        pl.addWidget(self.processes, 1)
        pl.addWidget(self.empty_processes, 1)

        self.alerts_model = AlertsModel(self)
        self.alerts_view = QTableView()
        self.alerts_view.setObjectName("alertsView")
        self.alerts_view.setModel(self.alerts_model)
        self.alerts_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.alerts_view.verticalHeader().hide()
        self.alerts_view.setWordWrap(True)
        header = self.alerts_view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.empty_alerts = QLabel()
        self.empty_alerts.setObjectName("emptyAlerts")
        self.empty_alerts.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_alerts.setWordWrap(True)
        alerts_page = QWidget()
        al = QVBoxLayout(alerts_page)
        al.setContentsMargins(0, 0, 0, 0)
        al.addWidget(self.alerts_view, 1)
        al.addWidget(self.empty_alerts, 1)

        self.bottom = QTabWidget()
        self.bottom.setObjectName("monitorBottom")
        self.bottom.addTab(processes_page, "")
        self.bottom.addTab(alerts_page, "")

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.cards_scroll)
        split.addWidget(self.bottom)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        split.setSizes([640, 180])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(row1)
        layout.addLayout(row2)
        layout.addWidget(self.status)
        layout.addWidget(split, 1)
        self._update_empty_states()

    def _columns(self) -> int:
        width = self.cards_scroll.viewport().width()
        card = max(self.host_card.minimumSizeHint().width(),
                   max((c.minimumSizeHint().width() for c in self.gpu_cards.values()), default=0))
        return max(1, min(MAX_COLUMNS, (width + 6) // (card + 6)))

    def _layout_cards(self) -> None:
        cards: list[QWidget] = [self.host_card, *self.gpu_cards.values(), *self.remotes]
        columns = self._columns()
        self._laid_out = (columns, len(cards))
        for card in cards:
            self.cards_grid.removeWidget(card)
        for i, card in enumerate(cards):
            self.cards_grid.addWidget(card, i // columns, i % columns)
        for c in range(MAX_COLUMNS):
            self.cards_grid.setColumnStretch(c, 1 if c < columns else 0)
        for r in range(self.cards_grid.rowCount()):
            self.cards_grid.setRowStretch(r, 0)
        self.cards_grid.setRowStretch(len(cards) // columns + 1, 1)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._columns() != self._laid_out[0]:
            self._layout_cards()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.cards_scroll.viewport() and event.type() == QEvent.Type.Resize:
            self._dirty = True  # (window or splitter) cards that came into view show the latest values
            self._schedule()
        return super().eventFilter(watched, event)

    # -- translation -------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.window_label.setText(translate("Monitor", "Window:"))
        for i, s in enumerate(WINDOWS_S):
            self.window_combo.setItemText(i, seconds(s))
        self.window_combo.setToolTip(translate(
            "Monitor", "How much history the plots show. Beyond one hour they show one-minute averages."))
        self.interval_label.setText(translate("Monitor", "Every:"))
        self.interval.setSuffix(" " + translate("Monitor", "s"))
        self.interval.setToolTip(translate(
            "Monitor", "Seconds between samples. Temperature, fan and ECC are read every 5 s at most."))
        self._update_pause_text()
        self.retranslate_recording()
        self.record_button.setToolTip(translate("Monitor", "Write every sample to a CSV file, indexed in the database"))
        self.marker_edit.setPlaceholderText(translate("Monitor", "Marker, e.g. “lr 3e-4”"))
        self.marker_button.setText(translate("Monitor", "Add marker"))
        self.marker_button.setToolTip(translate("Monitor", "Mark this moment in the recording"))
        self.exporter_check.setText(translate("Monitor", "Prometheus exporter on"))
        self.exporter_check.setToolTip(translate(
            "Monitor", "Serve /metrics for Prometheus and Grafana (MON-2). 127.0.0.1 is reachable from this "
                       "machine only; 0.0.0.0 from the network."))
        self.remote_edit.setPlaceholderText(translate(
            "Monitor", "Remote /metrics URL (this app, DCGM exporter or node_exporter), e.g. gpu-server:9400"))
        self.remote_button.setText(translate("Monitor", "Add host"))
        self.bottom.setTabText(0, translate("Monitor", "GPU processes"))
        self._update_alerts_title()
        self.processes.setHorizontalHeaderLabels([
            translate("Monitor", "GPU"), translate("Monitor", "PID"), translate("Monitor", "Process"),
            translate("Monitor", "User"), translate("Monitor", "GPU memory")])
        self.host_card.retranslate()
        for card in self.gpu_cards.values():
            card.retranslate()
        for remote in self.remotes:
            remote.retranslate()
        self._update_exporter_state()
        self._update_empty_states()
        self.alerts_model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 5)
        self.alerts_model.set_alerts(self.alerts_model.alerts)
        if self.latest is not None:
            self._show_status(self.latest)
            self._show_own_cpu(self.latest)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.PaletteChange and colours(self.palette()) is not self._scheme:
            self.restyle()
        super().changeEvent(event)

    def restyle(self) -> None:
        """Style sheets and rich text in the colours of the palette's scheme (light or dark)."""
        self._scheme = colours(self.palette())
        if self.latest is not None:
            self._show_status(self.latest)
        if self.record_state.styleSheet():
            self._set_recording_text(self.record_state.text(), self._record_error)
        self._update_exporter_state()
        if self.remote_edit.styleSheet():
            self.remote_edit.setStyleSheet(f"border: 1px solid {self._scheme.error};")

    def _update_pause_text(self) -> None:
        self.pause_button.setText(translate("Monitor", "Resume") if self.paused else translate("Monitor", "Pause"))
        self.pause_button.setToolTip(translate(
            "Monitor", "Freeze the plots; sampling, alerts and recording go on"))

    def _update_alerts_title(self) -> None:
        n = len(self.service.alerts.active)
        text = translate("Monitor", "Alerts")
        self.bottom.setTabText(1, f"{text} ({n})" if n else text)

    def _update_empty_states(self) -> None:
        if self.gpu_cards:
            self.empty_processes.setText(translate(
                "Monitor", "No process is using a GPU. Start a training run and it appears here with its GPU memory."))
        else:
            self.empty_processes.setText(translate("Monitor", "No NVIDIA GPU to list processes for."))
        self.empty_alerts.setText(translate(
            "Monitor", "No alerts. The monitor warns when a GPU waits for data (GPU-6), the GPUs of one job drift "
                       "apart (DIST-1), VRAM is nearly full (OOM-1), a GPU throttles or is lost (MON-1)."))
        self.processes.setVisible(bool(self._process_rows))
        self.empty_processes.setVisible(not self._process_rows)
        has_alerts = bool(self.alerts_model.alerts)
        self.alerts_view.setVisible(has_alerts)
        self.empty_alerts.setVisible(not has_alerts)

    # -- snapshots and redrawing -------------------------------------------------------------------
    def _on_snapshot(self, snap: Snapshot) -> None:
        self.latest = snap
        self._dirty = True
        self._schedule(at_once=True)

    def _schedule(self, at_once: bool = False) -> None:
        """A redraw when the last is MIN_REDRAW_MS old; ``at_once`` (a new snapshot): then and
        there if nothing is to be waited for, rather than one timer event later."""
        if not self.isVisible() or self._redraw_timer.isActive():
            return
        wait = MIN_REDRAW_MS - (time.monotonic() - self._last_redraw) * 1000
        if at_once and wait <= 0:
            self.redraw()
        else:
            self._redraw_timer.start(max(0, int(wait)))

    def showEvent(self, event: QShowEvent) -> None:
        """Shown (or the window restored): take the newest snapshot, which the bridge kept
        while the tab was hidden instead of waking the GUI thread for it."""
        super().showEvent(event)
        self.bridge.watching = True
        if self.bridge.latest is not self.latest and self.bridge.latest is not None:
            self.latest = self.bridge.latest
            self._dirty = True
        if self._dirty:
            self._schedule()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self.bridge.watching = False

    def _visible_area(self) -> QRect:
        """The part of the cards' area the scroll view shows, in the cards' coordinates."""
        return QRect(-self.cards.x(), -self.cards.y(), *self.cards_scroll.viewport().size().toTuple())

    def _on_screen(self, widget: QWidget, area: QRect | None = None) -> bool:
        """Whether a card, or a widget in a card, is (partly) scrolled into view."""
        if not widget.isVisible():
            return False
        rect = widget.geometry()
        parent = widget.parentWidget()
        while parent is not None and parent is not self.cards:
            rect.translate(parent.pos())
            parent = parent.parentWidget()
        return rect.intersects(area if area is not None else self._visible_area())

    def _scrolled(self, _value: int) -> None:
        self._dirty = True
        self._schedule()

    @property
    def window_s(self) -> float:
        return float(WINDOWS_S[self.window_combo.currentIndex()])

    def redraw(self) -> None:
        """Show the newest snapshot. Only when visible; the plots not while paused."""
        snap = self.latest
        if snap is None or not self.isVisible():
            return
        self._dirty = False
        self._last_redraw = time.monotonic()
        self._show_status(snap)
        self._show_own_cpu(snap)
        # Only cards on screen take the new values and redraw their plots (formatting, painting
        # and plotting are a redraw's cost); one scrolled out of view catches up when it scrolls,
        # or the window resizes, back into view.
        area = self._visible_area()
        on_screen: list[Card] = []
        if self._on_screen(self.host_card, area):
            self.host_card.show_sample(snap.host)
            on_screen.append(self.host_card)
        added = False
        for g in snap.gpus:
            card = self.gpu_cards.get(g.id)
            if card is None:
                card = self.gpu_cards[g.id] = GpuCard(g.id)
                card.show_sample(g)  # filled before it is laid out, so it never shows empty
                added = True
            elif self._on_screen(card, area):
                card.show_sample(g)
                on_screen.append(card)
        if added:
            self._layout_cards()
        for remote in self.remotes:
            if self._on_screen(remote, area):
                remote.show_sample(remote.target.latest)
                on_screen.append(remote)
        self._show_processes(snap)
        if not self.paused:
            window = self.window_s
            for shown in on_screen:
                if self._on_screen(shown.plot, area):
                    history = shown.history if isinstance(shown, RemoteCard) else self.service.history
                    shown.plot.redraw(history, window, snap.time)
        self.redraw_count += 1  # read by tests and the benchmark (a signal for them cost more to emit)

    def _show_status(self, snap: Snapshot) -> None:
        nvml = snap.nvml
        if not nvml.available:
            kind = nvml.error_kind
            if kind == "no_library":
                text = translate("Monitor", "No NVIDIA driver: the NVML library (libnvidia-ml) was not found, so no "
                                            "GPU can be shown. Install the NVIDIA driver to watch GPUs; the host is "
                                            "monitored below.")
            elif kind == "no_driver":
                text = translate("Monitor", "No NVIDIA driver loaded: the library is installed but the kernel "
                                            "module is not running (check `lsmod | grep nvidia`, Secure Boot, or "
                                            "reboot after installing). The host is monitored below.")
            elif kind == "no_permission":
                text = translate("Monitor", "NVML refused access (insufficient permissions). The host is "
                                            "monitored below.")
            else:
                text = fill(translate("Monitor", "NVML is not available ({error}). The host is monitored below."),
                            error=nvml.error or "?")
            self._set_status(f"<b>{text}</b>", banner_style("warning", colours(self.palette())))
        elif not snap.gpus:
            self._set_status(fill(translate(
                "Monitor", "The NVIDIA driver {version} is loaded but reports no GPU."),
                version=nvml.driver_version or "?"), banner_style("warning", colours(self.palette())))
        else:
            lost = [g.id for g in snap.gpus if g.lost]
            if lost:
                self._set_status(fill(translate(
                    "Monitor", "GPU {gpus} lost; the others are still monitored and the monitor keeps retrying."),
                    gpus=", ".join(lost)), banner_style("error", colours(self.palette())))
            elif not self.status.isHidden():
                self.status.hide()

    def _set_status(self, text: str, style: str) -> None:
        """Set the banner only when it changes: restyling and rich-text layout are not free."""
        if self.status.text() != text:
            self.status.setText(text)
        if self.status.styleSheet() != style:
            self.status.setStyleSheet(style)
        if self.status.isHidden():
            self.status.show()

    @property
    def own_cpu(self) -> Cell:
        """The monitor's own CPU use: a row of the host card. (As a label in the control row it
        made every redraw repaint the whole window: its dirty area joined the cards'.)"""
        return self.host_card.values["this_app"]

    def _show_own_cpu(self, snap: Snapshot) -> None:
        own = snap.host.own_cpu_percent
        text = fill(translate("Monitor", "{cpu} of a core; sample took {ms} ms"),
                    cpu=na() if own is None else f"{own:.1f} %", ms=f"{snap.sample_cost_s * 1000:.1f}")
        self.own_cpu.setText(text)

    def _show_processes(self, snap: Snapshot) -> None:
        rows = tuple(
            (g.id, p.pid, p.name or (translate("Monitor", "(access denied)") if p.access_denied else na()),
             p.user or (translate("Monitor", "(access denied)") if p.access_denied else na()),
             gib(p.gpu_memory_bytes, 2))
            for g in snap.gpus for p in g.processes)
        if rows == self._process_rows:
            return
        self._process_rows = rows
        self.processes.setSortingEnabled(False)
        self.processes.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                item = QTableWidgetItem()
                item.setData(Qt.ItemDataRole.DisplayRole, value)
                if c in (1, 4):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.processes.setItem(r, c, item)
        self.processes.setSortingEnabled(True)
        self._update_empty_states()

    # -- controls ----------------------------------------------------------------------------------
    def _window_changed(self, index: int) -> None:
        self.settings.setValue("monitor/window", index)
        self._dirty = True
        self._schedule()

    def set_interval(self, value: float) -> None:
        self.service.sampler.set_interval(float(value))
        self.settings.setValue("monitor/interval", float(value))
        if self._remote_timer.isActive():
            self._remote_timer.start(self._remote_ms())

    def set_paused(self, paused: bool) -> None:
        self.paused = paused
        if self.pause_button.isChecked() != paused:
            self.pause_button.setChecked(paused)
        self._update_pause_text()
        if not paused:
            self._dirty = True
            self._schedule()

    # -- alerts ------------------------------------------------------------------------------------
    def _on_alerts(self, events: list[AlertEvent]) -> None:
        self.alerts_model.set_alerts(self.service.alerts.all_alerts())
        self._update_alerts_title()
        self._update_empty_states()
        for e in events:
            if e.kind == "raised" and e.alert.severity in ("error", "warning"):
                self.notify(f"{e.alert.rule}: {e.alert.title.render(translate)}", e.alert.message.render(translate))

    def notify(self, title: str, text: str) -> None:
        """A desktop notification through the tray icon where the desktop has one."""
        self.notified.append((title, text))
        if self.tray is not None and self.tray.supportsMessages():
            self.tray.showMessage(title, text, QIcon(), 10000)

    # -- recording ---------------------------------------------------------------------------------
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
        path, _ = QFileDialog.getSaveFileName(self, translate("Monitor", "Record to CSV"), str(default),
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
            self._set_recording_text(fill(translate("Monitor", "Cannot record to {path}: {error}"),
                                          path=str(path), error=exc.strerror or str(exc)), error=True)
            return False
        host = self.latest.host.hostname if self.latest else self.service.host.hostname
        self.recording_id = self.recordings.start(rec.path, host, rec.interval_s, rec.started_at)
        self.record_button.setChecked(True)
        self.retranslate_recording()
        return True

    def add_marker(self, label: str) -> bool:
        rec = self.service.recorder
        if rec is None or self.recording_id is None or not label.strip():
            return False
        marker = rec.mark(label.strip())
        self.recordings.add_marker(self.recording_id, marker)
        self._set_recording_text(fill(translate("Monitor", "Marker “{label}” added at {time}"),
                                      label=marker["label"], time=marker["time"][11:]))
        return True

    def stop_recording(self) -> None:
        rec = self.service.stop_recording()
        if rec is not None and self.recording_id is not None:
            self.recordings.finish(self.recording_id, rows=rec.rows, gpus=rec.gpus, markers=rec.markers,
                                   stopped_at=rec.stopped_at)
            self._set_recording_text(fill(translate("Monitor", "Recorded {rows} samples to {path}"),
                                          rows=rec.rows, path=str(rec.path)))
        self.recording_id = None
        self.record_button.setChecked(False)
        self.retranslate_recording()

    def retranslate_recording(self) -> None:
        self.record_button.setText(translate("Monitor", "Stop recording") if self.recording
                                   else translate("Monitor", "Record…"))
        self.marker_edit.setEnabled(self.recording)
        self.marker_button.setEnabled(self.recording)
        if self.recording and self.service.recorder is not None:
            self._set_recording_text(fill(translate("Monitor", "Recording to {path}"),
                                          path=str(self.service.recorder.path)))

    def _marker_clicked(self) -> None:
        if self.add_marker(self.marker_edit.text()):
            self.marker_edit.clear()

    def _set_recording_text(self, text: str, error: bool = False) -> None:
        self.record_state.setText(text)
        self._record_error = error
        c = colours(self.palette())
        self.record_state.setStyleSheet(f"color: {c.error if error else c.muted_text};")

    # -- exporter ----------------------------------------------------------------------------------
    def set_exporter(self, on: bool) -> None:
        self._exporter_error: str | None = None
        if on:
            try:
                host, port = parse_address(self.exporter_address.text())
                self.service.exporter.start(host, port)
                self.settings.setValue("monitor/exporter", self.exporter_address.text().strip())
            except AddressError as exc:
                self._exporter_error = exc.message.render(translate)
            except OSError as exc:
                self._exporter_error = fill(translate("Monitor", "cannot listen on {address}: {error}"),
                                            address=self.exporter_address.text(), error=exc.strerror or str(exc))
            if self._exporter_error is not None:
                self.exporter_check.blockSignals(True)
                self.exporter_check.setChecked(False)
                self.exporter_check.blockSignals(False)
        else:
            self.service.exporter.stop()
        self.exporter_address.setEnabled(not self.service.exporter.running)
        self._update_exporter_state()

    def _update_exporter_state(self) -> None:
        error = getattr(self, "_exporter_error", None)
        if error:
            self.exporter_state.setText(f"<span style='color:{colours(self.palette()).error}'>{error}</span>")
        elif self.service.exporter.running:
            url = self.service.exporter.url or ""
            text = fill(translate("Monitor", "serving {url}"), url=f"<a href='{url}'>{url}</a>")
            warning = self.service.exporter.warning
            if warning is not None:  # not on loopback: anyone who reaches the port reads the metrics
                text += (f"<br><span style='color:{colours(self.palette()).warning}'>"
                         f"{html.escape(warning.render(translate))}</span>")
            self.exporter_state.setText(text)
            self.exporter_state.setWordWrap(warning is not None)
            self.exporter_state.setOpenExternalLinks(True)
        else:
            self.exporter_state.setText(translate("Monitor", "off"))

    # -- remote hosts ------------------------------------------------------------------------------
    def _saved_remotes(self) -> list[str]:
        value = self.settings.value("monitor/remotes", [])
        if isinstance(value, str):
            return [value] if value else []
        return [str(v) for v in value] if isinstance(value, list) else []

    def _save_remotes(self) -> None:
        self.settings.setValue("monitor/remotes", [r.target.url for r in self.remotes])

    def _remote_ms(self) -> int:
        return int(max(1.0, self.service.sampler.interval_s) * 1000)

    def _add_remote_clicked(self) -> None:
        if self.add_remote(self.remote_edit.text()):
            self.remote_edit.clear()

    def add_remote(self, url: str, save: bool = True) -> RemoteCard | None:
        try:
            target = RemoteTarget(url, timeout=min(3.0, max(0.5, self.service.sampler.interval_s)))
        except RemoteError as exc:
            self.remote_edit.setToolTip(exc.message.render(translate))
            self.remote_edit.setStyleSheet(f"border: 1px solid {colours(self.palette()).error};")
            return None
        self.remote_edit.setStyleSheet("")
        self.remote_edit.setToolTip("")
        if any(r.target.url == target.url for r in self.remotes):
            return None
        card = RemoteCard(target)
        card.remove.clicked.connect(lambda: self.remove_remote(card))
        self.remotes.append(card)
        self._layout_cards()
        if save:
            self._save_remotes()
        if not self._remote_timer.isActive():
            self._remote_timer.start(self._remote_ms())
        self.scrape_remotes()
        return card

    def remove_remote(self, card: RemoteCard) -> None:
        if card in self.remotes:
            self.remotes.remove(card)
            self.cards_grid.removeWidget(card)
            card.deleteLater()
            self._layout_cards()
            self._save_remotes()
        if not self.remotes:
            self._remote_timer.stop()

    def scrape_remotes(self) -> None:
        """Scrape each remote host off the GUI thread; one scrape per host at a time."""
        for card in self.remotes:
            target = card.target
            if target.url in self._scraping or not target.due():
                continue
            self._scraping.add(target.url)
            self.tasks.submit(target.scrape, partial(self._scraped, card), partial(self._scraped, card))

    def _scraped(self, card: RemoteCard, *_result: object) -> None:
        self._scraping.discard(card.target.url)
        if card in self.remotes:
            card.show_sample(card.target.latest)
            self._dirty = True
            self._schedule()

    # -- shutdown ----------------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Stop timers, finish a recording, stop the exporter; the service's owner stops the sampler."""
        self._redraw_timer.stop()
        self._remote_timer.stop()
        self.service.sampler.unsubscribe(self.bridge.push)
        if self.recording:
            self.stop_recording()
        self.service.exporter.stop()
        if self.tray is not None:
            self.tray.hide()
