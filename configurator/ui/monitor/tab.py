"""The Monitor tab.

Gets its service (sampler, alerts, exporter, recorder), the recordings index,
settings and the task runner through its constructor. Redraws after a new
snapshot, at most 10 times a second, never while hidden; "Pause" freezes the
plots while sampling, alerts and recording go on.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from configurator.core.i18n import fill
from configurator.monitor.alerts import AlertEvent
from configurator.monitor.service import MonitorService
from configurator.monitor.snapshot import Snapshot
from configurator.store.recordings import RecordingsRepository
from configurator.ui.i18n import translate
from configurator.ui.monitor.alerts_model import AlertsModel
from configurator.ui.monitor.bridge import SnapshotBridge
from configurator.ui.monitor.cards import Card, RemoteCard
from configurator.ui.monitor.cards_area import CardsArea
from configurator.ui.monitor.cluster_view import ClusterView
from configurator.ui.monitor.exporter_controls import ExporterControls
from configurator.ui.monitor.fmt import gib, na, seconds
from configurator.ui.monitor.recording import RecordingControls
from configurator.ui.monitor.recordings_list import RecordingsList
from configurator.ui.monitor.remote_hosts import RemoteHosts
from configurator.ui.monitor.values_panel import Cell
from configurator.ui.tasks import TaskRunner
from configurator.ui.theme import banner_style, colours, on_theme_change

WINDOWS_S = (60, 300, 900, 3600, 6 * 3600, 24 * 3600)
MIN_REDRAW_MS = 100  # at most 10 redraws a second


class MonitorTab(QWidget):
    """``notification``: (title, text) of an alert the desktop should show (the main window's tray icon)."""

    notification = Signal(str, str)

    def __init__(self, service: MonitorService, recordings: RecordingsRepository, settings: QSettings,
                 tasks: TaskRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("MonitorTab")
        self.service = service
        self.recordings = recordings
        self.settings = settings
        self.tasks = tasks
        self.latest: Snapshot | None = None
        self.paused = False
        self._dirty = False
        self._last_redraw = 0.0

        self._build()
        # A child of the tab: Qt's connection to the tab's slot holds the tab, a cycle Python's collector
        # cannot see, which kept the tab (its plots, their menus) alive after the window was destroyed.
        self.bridge = SnapshotBridge(self._on_snapshot, self)
        self.bridge.alerts.connect(self._on_alerts, Qt.ConnectionType.QueuedConnection)
        service.sampler.subscribe(self.bridge.push)
        service.on_alerts(self.bridge.push_alerts)

        self._redraw_timer = QTimer(self)
        self._redraw_timer.setSingleShot(True)
        self._redraw_timer.timeout.connect(self.redraw)
        self.retranslate()
        on_theme_change(self.restyle)
        self.remote_hosts.restore()
        self.cluster.restore()
        if service.latest is not None:
            self._on_snapshot(service.latest)

    # -- layout ------------------------------------------------------------------------------------
    def _build(self) -> None:
        row1 = self._make_controls()
        row2 = self._make_sharing()
        self.status = QLabel()
        self.status.setObjectName("monitorStatus")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.status.hide()

        self.bottom = QTabWidget()
        self.bottom.setObjectName("monitorBottom")
        self.bottom.addTab(self._make_processes(), "")
        self.bottom.addTab(self._make_alerts(), "")
        self.recordings_list = RecordingsList(self.recordings, self.settings, self.tasks)
        self.bottom.addTab(self.recordings_list, "")
        self.recorder.recorded.connect(self.recordings_list.refresh)

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.cards)
        split.addWidget(self.bottom)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        split.setSizes([640, 180])

        # This machine, and a cluster through its Prometheus server (ui/monitor/cluster_view.py)
        local = QWidget()
        self.cluster = ClusterView(self.settings, self.tasks)
        self.sources = QTabWidget()
        self.sources.setObjectName("monitorSources")
        self.sources.addTab(local, "")
        self.sources.addTab(self.cluster, "")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        outer.addWidget(self.sources)
        layout = QVBoxLayout(local)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row1)
        layout.addLayout(row2)
        layout.addWidget(self.status)
        layout.addWidget(split, 1)
        self._update_empty_states()

    def _make_controls(self) -> QHBoxLayout:
        """The first row: the plots' time window, the sampling interval, pause, and the recording controls."""
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
        self.recorder = RecordingControls(
            self.service, self.recordings, self.settings,
            lambda: self.latest.host.hostname if self.latest else self.service.host.hostname)

        row1 = QHBoxLayout()
        widgets: list[QWidget] = [self.window_label, self.window_combo, self.interval_label, self.interval,
                                  self.pause_button]
        for w in widgets:
            row1.addWidget(w)
        row1.addSpacing(16)
        row1.addWidget(self.recorder, 1)
        return row1


    def _make_sharing(self) -> QHBoxLayout:
        """The GPU cards (made here: the remote hosts add theirs), the Prometheus exporter and the remote hosts."""
        self.cards = CardsArea()
        self.cards.exposed.connect(self._exposed)
        self.exporter = ExporterControls(self.service.exporter, self.settings)
        self.remote_hosts = RemoteHosts(self.cards, self.settings, self.tasks, lambda: self.service.sampler.interval_s)
        self.remote_hosts.scraped.connect(self._exposed)
        row2 = QHBoxLayout()
        row2.addWidget(self.exporter, 1)
        row2.addWidget(self.remote_hosts, 1)
        return row2


    def _make_processes(self) -> QWidget:
        """The GPU processes' table, or what its emptiness means."""
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
        return processes_page


    def _make_alerts(self) -> QWidget:
        """The alerts' table, or what its emptiness means."""
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
        return alerts_page


    def _exposed(self) -> None:
        self._dirty = True
        self._schedule()

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
        self.recorder.retranslate()
        self.exporter.retranslate()
        self.remote_hosts.retranslate()
        self.sources.setTabText(0, translate("Monitor", "This machine"))
        self.sources.setTabText(1, translate("Monitor", "Cluster (Prometheus)"))
        self.bottom.setTabText(0, translate("Monitor", "GPU processes"))
        self.bottom.setTabText(2, translate("Monitor", "Recordings"))
        self.recordings_list.retranslate()
        self._update_alerts_title()
        self.processes.setHorizontalHeaderLabels([
            translate("Monitor", "GPU"), translate("Monitor", "PID"), translate("Monitor", "Process"),
            translate("Monitor", "User"), translate("Monitor", "GPU memory")])
        self.cards.retranslate()
        self._update_empty_states()
        self.alerts_model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 5)
        self.alerts_model.set_alerts(self.alerts_model.alerts)
        if self.latest is not None:
            self._show_status(self.latest)
            self._show_own_cpu(self.latest)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def restyle(self) -> None:
        """Style sheets and rich text in the colours of the palette's scheme (light or dark)."""
        if self.latest is not None:
            self._show_status(self.latest)

    def _update_pause_text(self) -> None:
        self.pause_button.setText(translate("Monitor", "Resume") if self.paused else translate("Monitor", "Pause"))
        self.pause_button.setToolTip(translate(
            "Monitor", "Freeze the plots; sampling, alerts and recording go on"))

    def _update_alerts_title(self) -> None:
        n = len(self.service.alerts.active)
        text = translate("Monitor", "Alerts")
        self.bottom.setTabText(1, f"{text} ({n})" if n else text)

    def _update_empty_states(self) -> None:
        if self.cards.gpu_cards:
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
        cards = self.cards
        area = cards.visible_area()
        on_screen: list[Card] = []
        if cards.on_screen(cards.host_card, area):
            cards.host_card.show_sample(snap.host)
            on_screen.append(cards.host_card)
        added = False
        for g in snap.gpus:
            card, new = cards.gpu_card(g.id)
            if new:
                card.show_sample(g)  # filled before it is laid out, so it never shows empty
                added = True
            elif cards.on_screen(card, area):
                card.show_sample(g)
                on_screen.append(card)
        if added:
            cards.layout_cards()
        for remote in cards.remotes:
            if cards.on_screen(remote, area):
                remote.show_sample(remote.target.latest)
                on_screen.append(remote)
        self._show_processes(snap)
        if not self.paused:
            window = self.window_s
            for shown in on_screen:
                if cards.on_screen(shown.plot, area):
                    history = shown.history if isinstance(shown, RemoteCard) else self.service.history
                    shown.plot.redraw(history, window, snap.time)

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
        return self.cards.host_card.values["this_app"]

    def _show_own_cpu(self, snap: Snapshot) -> None:
        own = snap.host.own_cpu_percent
        ms = f"{snap.sample_cost_s * 1000:.1f}"
        if own is None:  # the first sample, right after the start
            text = fill(translate("Monitor", "{cpu}; sample took {ms} ms"), cpu=na(), ms=ms)
        else:
            text = fill(translate("Monitor", "{cpu} of a core; sample took {ms} ms"), cpu=f"{own:.1f} %", ms=ms)
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
        self.remote_hosts.interval_changed()

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
                self.notification.emit(f"{e.alert.rule}: {e.alert.title.render(translate)}",
                                       e.alert.message.render(translate))


    # -- shutdown ----------------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Stop timers, finish a recording, stop the exporter; the service's owner stops the sampler."""
        self._redraw_timer.stop()
        self.remote_hosts.stop()
        self.cluster.stop()
        self.service.sampler.unsubscribe(self.bridge.push)
        self.service.off_alerts(self.bridge.push_alerts)
        if self.recorder.recording:
            self.recorder.stop_recording()
        self.service.exporter.stop()
