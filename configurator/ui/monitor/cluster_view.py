"""The Monitor tab's cluster page: a Prometheus server as a source.

A URL field (remembered in the settings), a state line, and three views of what the server holds:
the overview (one row per node, n/a where a node does not export a metric; the jobs its labels
name, with GPU-6 and DIST-1 judged over each job's GPUs), a heat map of every GPU's utilisation
over the chosen window (one ``query_range``), and a node's cards (double-click a node).

Every query runs off the GUI thread through the task runner, one refresh at a time, each call
bounded by the client's timeout. A server that cannot be reached, a bad URL, a timeout, an empty
answer or an HTML page: the state line says so (and stderr gets one line when it changes), the
last good numbers stay on screen marked as old, and the next refresh tries again. No dialog.
"""

from __future__ import annotations

import sys
import time
from typing import NamedTuple

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message, fill
from configurator.monitor.alerts import Thresholds
from configurator.monitor.cluster import ClusterSnapshot, PrometheusCluster, UtilHistory
from configurator.monitor.prometheus import DEFAULT_TIMEOUT_S, PrometheusError
from configurator.ui.i18n import translate
from configurator.ui.monitor.cluster_node import NodeDetail, NodeSeries
from configurator.ui.monitor.cluster_tables import JobsTable, NodesTable
from configurator.ui.monitor.fmt import seconds
from configurator.ui.monitor.heatmap import HeatMap
from configurator.ui.tasks import TaskRunner
from configurator.ui.theme import banner_style, colours, on_theme_change

WINDOWS_S = (60, 300, 3600, 6 * 3600, 24 * 3600)
DEFAULT_WINDOW = 1  # 5 min
REFRESH_S = 5.0
SETTINGS_URL = "monitor/prometheus"
SETTINGS_WINDOW = "monitor/cluster_window"


class Fetched(NamedTuple):
    """What one refresh read (in the worker thread)."""

    history: UtilHistory
    series: NodeSeries | None  # the node drilled into, if one was
    node: str | None
    snapshot: ClusterSnapshot
    seconds: float
    queries: int  # round trips to the server


class ClusterView(QWidget):
    """``refreshed``: a refresh ended (with numbers or with an error); tests and the benchmark wait on it."""

    refreshed = Signal()

    def __init__(self, settings: QSettings, tasks: TaskRunner, parent: QWidget | None = None, *,
                 refresh_s: float = REFRESH_S, timeout_s: float = DEFAULT_TIMEOUT_S,
                 thresholds: Thresholds | None = None):
        super().__init__(parent)
        self.setObjectName("clusterView")
        self.settings = settings
        self.tasks = tasks
        self.timeout_s = timeout_s
        self.thresholds = thresholds  # GPU-6's and DIST-1's (None: the monitor's defaults)
        self.cluster: PrometheusCluster | None = None
        self.snapshot: ClusterSnapshot | None = None
        self.history: UtilHistory | None = None
        self.error: PrometheusError | None = None
        self.refreshes = 0
        self.fetch_s = 0.0  # wall time of the last refresh's queries
        self.queries = 0  # how many
        self.series: NodeSeries | None = None  # the drilled-into node's lines (VRAM, host), with the history
        self._generation = 0  # a new server or window: answers to older requests are dropped
        self._in_flight = False
        self._again = False  # asked to refresh while one was in flight
        self._last_ok = 0.0
        self._stderr_line = ""
        self._build()
        self.timer = QTimer(self)
        self.timer.setInterval(int(refresh_s * 1000))
        self.timer.timeout.connect(self.refresh)
        self.retranslate()
        on_theme_change(self.restyle)

    # -- layout ------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.url_edit = QLineEdit()
        self.url_edit.setObjectName("prometheusEdit")
        self.url_edit.returnPressed.connect(self._connect_clicked)
        self.connect_button = QPushButton()
        self.connect_button.setObjectName("prometheusConnect")
        self.connect_button.clicked.connect(self._connect_clicked)
        self.forget_button = QPushButton()
        self.forget_button.setObjectName("prometheusForget")
        self.forget_button.clicked.connect(self.forget)
        self.window_label = QLabel()
        self.window_combo = QComboBox()
        self.window_combo.setObjectName("clusterWindow")
        for s in WINDOWS_S:
            self.window_combo.addItem("", s)
        try:
            index = int(str(self.settings.value(SETTINGS_WINDOW, DEFAULT_WINDOW)))
        except ValueError:
            index = DEFAULT_WINDOW
        self.window_combo.setCurrentIndex(index if 0 <= index < len(WINDOWS_S) else DEFAULT_WINDOW)
        self.window_combo.currentIndexChanged.connect(self._window_changed)
        row = QHBoxLayout()
        row.addWidget(self.url_edit, 1)
        row.addWidget(self.connect_button)
        row.addWidget(self.forget_button)
        row.addSpacing(16)
        row.addWidget(self.window_label)
        row.addWidget(self.window_combo)

        self.state = QLabel()
        self.state.setObjectName("clusterState")
        self.state.setWordWrap(True)
        self.state.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.nodes = NodesTable()
        self.nodes.open_node.connect(self.open_node)
        self.jobs = JobsTable()
        self.heatmap = HeatMap()
        self.overview = QWidget()
        ov = QVBoxLayout(self.overview)
        ov.setContentsMargins(0, 0, 0, 0)
        ov.addWidget(self.nodes)
        ov.addWidget(self.jobs)
        ov.addWidget(self.heatmap, 1)
        self.detail = NodeDetail()
        self.detail.back.connect(self.show_overview)
        # Until the server has answered: what this page will show and how to get it, not empty tables and a
        # heat map with no axis to speak of.
        self.empty_page = QLabel()
        self.empty_page.setObjectName("clusterEmpty")
        self.empty_page.setWordWrap(True)
        self.empty_page.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_page.setMargin(40)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.empty_page)
        self.pages.addWidget(self.overview)
        self.pages.addWidget(self.detail)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row)
        layout.addWidget(self.state)
        layout.addWidget(self.pages, 1)

    def retranslate(self) -> None:
        self.url_edit.setPlaceholderText(translate(
            "Monitor", "Prometheus server that scrapes your nodes, e.g. http://prometheus:9090"))
        self.connect_button.setText(translate("Monitor", "Connect"))
        self.connect_button.setToolTip(translate(
            "Monitor", "Read the nodes, GPUs and jobs this Prometheus server holds (remembered for next time)"))
        self.forget_button.setText(translate("Monitor", "Forget"))
        self.forget_button.setToolTip(translate("Monitor", "Stop reading this server and forget its URL"))
        self.window_label.setText(translate("Monitor", "Window:"))
        for i, s in enumerate(WINDOWS_S):
            self.window_combo.setItemText(i, seconds(s))
        self.window_combo.setToolTip(translate(
            "Monitor", "How much history the heat map and the node's plots show, from the server's own storage"))
        self.nodes.retranslate()
        self.jobs.retranslate()
        self.heatmap.retranslate()
        self.detail.retranslate()
        self._show_state()

    def restyle(self) -> None:
        """The state line and the tables' cells in the new scheme (the heat map restyles itself)."""
        self._show_state()
        self.nodes.restyle()
        self.jobs.restyle()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- the server ----------------------------------------------------------------------------
    @property
    def window_s(self) -> float:
        return float(WINDOWS_S[self.window_combo.currentIndex()])

    def restore(self) -> None:
        """Read the server remembered from the last session."""
        url = self.settings.value(SETTINGS_URL, "")
        if isinstance(url, str) and url.strip():
            self.url_edit.setText(url)
            self.set_server(url, save=False)

    def _connect_clicked(self) -> None:
        self.set_server(self.url_edit.text())

    def set_server(self, url: str, save: bool = True) -> bool:
        """Read the cluster at ``url`` from now on; False (and the reason in the state line) for a bad URL."""
        self._generation += 1
        self.snapshot = self.history = None
        self.show_data()
        try:
            self.cluster = PrometheusCluster(url, timeout_s=self.timeout_s, thresholds=self.thresholds)
        except PrometheusError as exc:
            self.cluster = None
            self.timer.stop()
            self._failed(exc)
            return False
        self.error = None
        if save:
            self.settings.setValue(SETTINGS_URL, self.cluster.url)
        self.url_edit.setText(self.cluster.url)
        self.timer.start()
        self._show_state()
        self.refresh()
        return True

    def forget(self) -> None:
        self._generation += 1
        self.timer.stop()
        self.cluster = None
        self.snapshot = self.history = None
        self.error = None
        self.settings.remove(SETTINGS_URL)
        self.url_edit.clear()
        self.show_overview()
        self.show_data()
        self._show_state()

    def refresh(self) -> None:
        """Ask the server again (off the GUI thread); only while shown, one request at a time."""
        cluster = self.cluster
        if cluster is None or not self.isVisible():
            return
        if self._in_flight:
            self._again = True
            return
        self._in_flight = True
        self._again = False
        generation, window = self._generation, self.window_s
        node = self.detail.hostname if self.pages.currentWidget() is self.detail else None

        def fetch() -> Fetched:
            # history first: the snapshot's time is then after the history's last step (the node's plots)
            start, end, before = time.perf_counter(), time.time(), cluster.client.round_trips
            history = cluster.history(window, end=end)
            series = cluster.node_series(node, window, end=end) if node is not None else None
            return Fetched(history, series, node, cluster.snapshot(), time.perf_counter() - start,
                           cluster.client.round_trips - before)

        self.tasks.submit(fetch, lambda result: self._answered(generation, window, result),
                          lambda exc, tb: self._answered(generation, window, None, exc, tb))

    def _answered(self, generation: int, window: float, result: Fetched | None,
                  exc: BaseException | None = None, tb: str = "") -> None:
        self._in_flight = False
        if generation == self._generation:
            if result is not None:
                self.history, self.snapshot, self.fetch_s = result.history, result.snapshot, result.seconds
                self.queries = result.queries
                self.series = result.series if result.node == self.detail.hostname else None
                self.error = None
                self._last_ok = time.time()
                self._stderr("")
                self.show_data(fresh_history=True)
                self._show_state()
            elif isinstance(exc, PrometheusError):
                self._failed(exc)
            else:  # a bug, not the server: the state says so and stderr gets the traceback
                print(tb, file=sys.stderr, end="")
                self._failed(PrometheusError(_message(exc if exc is not None else RuntimeError("?"))))
            self.refreshes += 1
            self.refreshed.emit()
        if self._again or generation != self._generation:
            self.refresh()

    def _failed(self, exc: PrometheusError) -> None:
        self.error = exc
        self._stderr(exc.message.render())
        self._show_state()
        if self.snapshot is not None:
            self.nodes.mark_stale(True)
            self.jobs.mark_stale(True)

    def _stderr(self, line: str) -> None:
        """One line on stderr when the server's state changes (not on every failed refresh)."""
        if line and line != self._stderr_line:
            print(f"configurator: Prometheus: {line}", file=sys.stderr)
        self._stderr_line = line

    # -- showing -------------------------------------------------------------------------------
    def _show_state(self) -> None:
        self._show_empty()
        c = colours(self.palette())
        if self.cluster is None and self.error is None:
            self.state.setStyleSheet("")
            self.state.setText(translate(
                "Monitor", "Add a Prometheus server to watch a cluster: one that scrapes NVIDIA's DCGM exporter, "
                           "node_exporter or this app's exporter (configurator monitor --serve) on every node."))
            return
        if self.error is not None:
            text = self.error.message.render(translate)
            if self.cluster is not None:
                text = fill(translate("Monitor", "{error} · trying again every {seconds} s"), error=text,
                            seconds=f"{self.timer.interval() / 1000:g}")
            if self.snapshot is not None:
                text += " · " + fill(translate("Monitor", "the numbers below are from {time}"),
                                     time=time.strftime("%H:%M:%S", time.localtime(self._last_ok)))
            self.state.setStyleSheet(banner_style("error", c))
            self.state.setText(text)
            return
        self.state.setStyleSheet("")
        snap = self.snapshot
        if snap is None:
            self.state.setText(fill(translate("Monitor", "Asking {url}…"),
                                    url=self.cluster.url if self.cluster is not None else ""))
            return
        gpus = sum(len(n.gpus) for n in snap.nodes)
        self.state.setText(fill(translate(
            "Monitor", "{url}: {nodes} nodes, {gpus} GPUs, {jobs} jobs · updated {time} ({ms} ms for {n} queries)"),
            url=snap.source, nodes=len(snap.nodes), gpus=gpus, jobs=len(snap.jobs),
            time=time.strftime("%H:%M:%S", time.localtime(snap.time)), ms=f"{self.fetch_s * 1000:.0f}", n=self.queries))

    def _show_empty(self) -> None:
        """The empty page's words (before any server, or until the first answer)."""
        self.empty_page.setStyleSheet(f"color: {colours(self.palette()).muted_text}")
        if self.cluster is None:
            self.empty_page.setText(translate(
                "Monitor", "No cluster yet. Enter the address of the Prometheus server that scrapes your nodes "
                           "above and press Connect: its nodes, their GPUs, the jobs on them and a heat map of "
                           "every GPU's utilisation over the window appear here."))
        else:
            self.empty_page.setText(fill(translate(
                "Monitor", "Nothing to show until {url} answers: the line above says how it is going."),
                url=self.cluster.url))

    def show_data(self, fresh_history: bool = False) -> None:
        snap = self.snapshot
        current = self.pages.currentWidget()
        if snap is None and current is not self.detail:
            self.pages.setCurrentWidget(self.empty_page)
        elif snap is not None and current is self.empty_page:
            self.pages.setCurrentWidget(self.overview)
        self.nodes.show_snapshot(snap)
        self.jobs.show_snapshot(snap)
        self.heatmap.show_history(self.history, self.window_s)
        if self.pages.currentWidget() is self.detail:
            node = next((n for n in snap.nodes if n.hostname == self.detail.hostname), None) if snap else None
            if node is None:
                self.show_overview()
            else:
                self.detail.show_node(node, snap.time if snap else 0.0, self.history, self.window_s, fresh_history,
                                      self.series)

    def open_node(self, hostname: str) -> None:
        """The node's cards (from the last snapshot)."""
        snap = self.snapshot
        node = next((n for n in snap.nodes if n.hostname == hostname), None) if snap else None
        if node is None or snap is None:
            return
        self.pages.setCurrentWidget(self.detail)
        self.series = None
        self.detail.show_node(node, snap.time, self.history, self.window_s, fresh_history=True)
        self.refresh()  # the node's VRAM and host lines (one more range query, from now on each refresh)

    def show_overview(self) -> None:
        self.pages.setCurrentWidget(self.overview if self.snapshot is not None else self.empty_page)

    def _window_changed(self, index: int) -> None:
        self.settings.setValue(SETTINGS_WINDOW, index)
        self._generation += 1
        self.heatmap.show_history(None, self.window_s)
        self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self.cluster is not None and time.time() - self._last_ok > self.timer.interval() / 1000:
            self.refresh()

    def stop(self) -> None:
        self.timer.stop()
        self._generation += 1


def _message(exc: BaseException) -> Message:
    return Message("Monitor", QT_TRANSLATE_NOOP("Monitor", "reading the cluster failed: {error}"),
                   {"error": f"{type(exc).__name__}: {exc}"})
