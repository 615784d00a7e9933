"""A node of the cluster, drilled into: the usual cards (the host's and one per GPU) fed from the
Prometheus snapshot, their plots from the server's history (the heat map's range query) plus the
snapshots since, so the app keeps no history of its own beyond what is on screen."""

from __future__ import annotations

import html
import math

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from configurator.core.i18n import fill
from configurator.monitor.cluster import ClusterNode, UtilHistory
from configurator.monitor.ring import History, snapshot_values
from configurator.monitor.snapshot import NvmlStatus, Snapshot
from configurator.ui.i18n import translate
from configurator.ui.monitor.cards import Card
from configurator.ui.monitor.cards_area import CardsArea
from configurator.ui.monitor.fmt import na

NodeSeries = tuple[npt.NDArray[np.float64], dict[str, npt.NDArray[np.float64]]]


def node_history(node: ClusterNode, history: UtilHistory | None, window_s: float,
                 series: NodeSeries | None = None) -> History:
    """A ring with the node's lines over the window from the range queries: its GPUs' utilisation
    (``gpu<id>.util``, the heat map's) and, with ``series`` on the same steps, VRAM and the host's lines."""
    step = history.step_s if history is not None else 5.0
    ring = History(step, full_seconds=max(3600.0, window_s + step), total_seconds=max(86400.0, window_s + step))
    if history is None or node.hostname not in history.hostnames:
        return ring
    i = history.hostnames.index(node.hostname)
    ids = history.gpu_ids[i]
    columns = {f"gpu{g}.util": history.values[i, j] for j, g in enumerate(ids)}
    if series is not None and len(series[0]) == len(history.times):
        columns.update(series[1])
    keys = list(columns)
    table = np.array([columns[k] for k in keys]).T if keys else np.empty((len(history.times), 0))
    for t, row in zip(history.times, table, strict=True):
        ring.append(float(t), {k: None if math.isnan(v) else float(v) for k, v in zip(keys, row, strict=True)})
    return ring


class NodeDetail(QWidget):
    """``back``: the user wants the overview again."""

    back = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("clusterNodeDetail")
        self.back_button = QPushButton()
        self.back_button.setObjectName("clusterBack")
        self.back_button.clicked.connect(self.back.emit)
        self.title = QLabel()
        self.title.setObjectName("clusterNodeTitle")
        self.title.setTextFormat(Qt.TextFormat.RichText)
        head = QHBoxLayout()
        head.addWidget(self.back_button)
        head.addWidget(self.title, 1)
        self.cards = CardsArea()
        self.cards.exposed.connect(self.redraw)
        self.vbox = QVBoxLayout(self)
        self.vbox.setContentsMargins(0, 0, 0, 0)
        self.vbox.addLayout(head)
        self.vbox.addWidget(self.cards, 1)
        self.hostname: str | None = None
        self.node: ClusterNode | None = None
        self.ring: History | None = None
        self._last_t = -math.inf
        self.window_s = 300.0
        self.now = 0.0
        self.retranslate()

    def retranslate(self) -> None:
        self.back_button.setText(translate("Monitor", "← All nodes"))
        self.back_button.setToolTip(translate("Monitor", "Back to the cluster overview"))
        self.cards.retranslate()
        self._show_title()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _show_title(self) -> None:
        node = self.node
        if node is None:
            self.title.setText("")
            return
        exporters = ", ".join(node.exporters) or na()
        self.title.setText(fill(translate("Monitor", "<b>{node}</b> · {n} GPUs · seen through: {exporters}"),
                                node=html.escape(node.hostname), n=len(node.gpus), exporters=html.escape(exporters)))

    def show_node(self, node: ClusterNode, now: float, history: UtilHistory | None, window_s: float,
                  fresh_history: bool, series: NodeSeries | None = None) -> None:
        """Show ``node`` as of ``now``. ``fresh_history``: ``history`` (and the node's ``series``) are new
        (rebuild the plots' ring from them); otherwise the snapshot is appended to the ring the plots draw."""
        if node.hostname != self.hostname:  # another node: its own cards
            self.hostname = node.hostname
            old = self.cards
            self.cards = CardsArea()
            self.cards.exposed.connect(self.redraw)
            self.vbox.replaceWidget(old, self.cards)
            old.deleteLater()
            self.ring = None
            QTimer.singleShot(0, self.redraw)  # once the new cards are laid out: their plots are on screen then
        self.node, self.now, self.window_s = node, now, window_s
        if self.ring is None or fresh_history:
            self.ring = node_history(node, history, window_s, series)
            self._last_t = float(history.times[-1]) if history is not None and len(history.times) else -math.inf
        if now > self._last_t:  # the ring's rows in time order
            self.ring.append(now, snapshot_values(Snapshot(now, 0, node.host, NvmlStatus(True), node.gpus)))
            self._last_t = now
        self._show_title()
        self.redraw()

    def redraw(self) -> None:
        node, ring = self.node, self.ring
        if node is None or ring is None or not self.isVisible():
            return
        cards = self.cards
        cards.host_card.show_sample(node.host)
        for row in ("this_app", "training", "workers"):  # this machine's own: not in what the exporters publish
            cards.host_card.values[row].setText(na())
        added = False
        for g in node.gpus:
            card, new = cards.gpu_card(g.id)
            card.show_sample(g)
            added = added or new
        if added:
            cards.layout_cards()
        area = cards.visible_area()
        shown: list[Card] = [cards.host_card, *cards.gpu_cards.values()]
        for each in shown:
            if cards.on_screen(each.plot, area):
                each.plot.redraw(ring, self.window_s, self.now)
