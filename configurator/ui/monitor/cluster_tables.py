"""The cluster overview's two tables: one row per node (its GPUs, their utilisation, memory, power,
temperature, and the host's CPU and I/O wait) and one per job (the GPUs one Slurm job or Kubernetes
pod holds across nodes, with GPU-6 and DIST-1 judged over them). A metric a node does not export
shows as n/a, never 0; a total over some of a node's GPUs says over how many."""

from __future__ import annotations

import html
from collections import Counter

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from configurator.core.i18n import fill
from configurator.core.units import GIB
from configurator.monitor.cluster import ClusterNode, ClusterSnapshot, job_to_dict
from configurator.ui.i18n import translate
from configurator.ui.monitor.fmt import na, num, percent
from configurator.ui.theme import colours

Cell = tuple[str, str | None, str]  # text, colour (a Colours field name) or None, tooltip


def _spread(values: list[float]) -> str:
    """Mean, and the range when there is more than one: "62 % (35–95)"."""
    mean = sum(values) / len(values)
    if len(values) == 1:
        return percent(mean)
    return f"{percent(mean)} ({min(values):.0f}–{max(values):.0f})"


def _partial(text: str, known: int, total: int) -> str:
    if known == total:
        return text
    return fill(translate("Monitor", "{value} ({known} of {total} GPUs)"), value=text, known=known, total=total)


def node_cells(node: ClusterNode, jobs: list[str]) -> list[Cell]:
    """The overview's row for a node."""
    missing = translate("Monitor", "Not exported by this node's exporters")
    live = [g for g in node.gpus if not g.lost]
    lost = len(node.gpus) - len(live)
    models = Counter(g.name for g in node.gpus)
    count = str(len(node.gpus)) if not lost else fill(translate("Monitor", "{n} ({lost} lost)"),
                                                      n=len(node.gpus), lost=lost)
    gpus: Cell = (count, "error" if lost else None, "\n".join(f"{n} × {m}" for m, n in models.items()))
    utils = [g.utilization_gpu_percent for g in live if g.utilization_gpu_percent is not None]
    util: Cell = (_spread(utils), None, translate("Monitor", "Mean over the node's GPUs (lowest–highest)")) \
        if utils else (na(), None, missing)
    mem = [(g.memory_used_bytes, g.memory_total_bytes) for g in live
           if g.memory_used_bytes is not None and g.memory_total_bytes]
    memory: Cell = (_partial(fill(translate("Monitor", "{used} of {total}"),
                                  used=num(sum(u for u, _t in mem) / GIB, "GiB", 1),
                                  total=num(sum(t for _u, t in mem) / GIB, "GiB", 0)), len(mem), len(live)),
                    None, "") if mem else (na(), None, missing)
    watts = [g.power_w for g in live if g.power_w is not None]
    power: Cell = (_partial(num(sum(watts), "W"), len(watts), len(live)), None,
                   translate("Monitor", "The node's GPUs together")) if watts else (na(), None, missing)
    temps = [g.temperature_c for g in live if g.temperature_c is not None]
    temp: Cell = (fill(translate("Monitor", "max {t}"), t=num(max(temps), "°C")), None,
                  translate("Monitor", "The hottest of the node's GPUs")) if temps else (na(), None, missing)
    h = node.host
    cpu: Cell = (percent(h.cpu_percent), None, "" if h.cpu_percent is not None else
                 translate("Monitor", "Needs node_exporter (or this app's exporter) on the node"))
    iowait: Cell = (percent(h.iowait_percent), "warning" if (h.iowait_percent or 0) >= 10 else None,
                    "" if h.iowait_percent is not None else
                    translate("Monitor", "Needs node_exporter (or this app's exporter) on the node"))
    name: Cell = (node.hostname, None, fill(translate("Monitor", "Seen through: {exporters}"),
                                            exporters=", ".join(node.exporters) or na()))
    return [name, gpus, util, memory, power, temp, cpu, iowait, (", ".join(jobs) or "—", None, "")]


class _Section(QWidget):
    """A heading, a read-only table, and a line shown instead of the table when it is empty."""

    MAX_ROWS = 8  # shown without scrolling; the heat map below gets the rest of the height

    def __init__(self, name: str, columns: int, text_columns: tuple[int, ...], parent: QWidget | None = None):
        super().__init__(parent)
        self.text_columns = text_columns  # left-aligned; the others are numbers (right-aligned)
        self.heading = QLabel()
        self.table = QTableWidget(0, columns)
        self.table.setObjectName(name)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.empty = QLabel()
        self.empty.setObjectName(f"{name}Empty")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.heading)
        layout.addWidget(self.table)
        layout.addWidget(self.empty)
        self._rows: list[list[Cell]] = []
        self.stale = False

    def set_rows(self, rows: list[list[Cell]]) -> None:
        self._rows = rows
        self.stale = False
        self._fill()

    def _fill(self) -> None:
        c = colours(self.palette())
        self.table.setRowCount(len(self._rows))
        for r, row in enumerate(self._rows):
            for col, (text, colour, tip) in enumerate(row):
                item = self.table.item(r, col)
                if item is None:
                    item = QTableWidgetItem()
                    self.table.setItem(r, col, item)
                item.setText(text)
                item.setToolTip(tip)
                shade = c.faint_text if self.stale else getattr(c, colour) if colour else None
                item.setForeground(QBrush(QColor(shade)) if shade else QBrush())
                item.setTextAlignment((Qt.AlignmentFlag.AlignLeft if col in self.text_columns else
                                       Qt.AlignmentFlag.AlignRight) | Qt.AlignmentFlag.AlignVCenter)
        self.table.setVisible(bool(self._rows))
        self.empty.setVisible(not self._rows)
        self._fit()

    def _fit(self) -> None:
        """As tall as its rows (up to MAX_ROWS, then it scrolls)."""
        t = self.table
        t.resizeRowsToContents()
        rows = min(len(self._rows), self.MAX_ROWS)
        height = t.horizontalHeader().height() + 2 * t.frameWidth() + sum(t.rowHeight(r) for r in range(rows))
        if rows < len(self._rows):
            height += t.rowHeight(0) // 2  # half a row more: it says there is more to scroll to
        elif t.horizontalScrollBar().isVisible():
            height += t.horizontalScrollBar().height()
        t.setFixedHeight(max(height, t.horizontalHeader().height() + 2 * t.frameWidth()))

    def mark_stale(self, stale: bool) -> None:
        """Numbers from an older refresh (the server stopped answering): greyed out."""
        if stale != self.stale:
            self.stale = stale
            self._fill()

    def restyle(self) -> None:
        self._fill()


class NodesTable(_Section):
    """``open_node(hostname)``: the user double-clicked (or pressed Enter on) a node."""

    open_node = Signal(str)
    HEADERS = 9

    def __init__(self, parent: QWidget | None = None):
        super().__init__("clusterNodes", self.HEADERS, (0, 8), parent)
        self.hostnames: list[str] = []
        self.snapshot: ClusterSnapshot | None = None
        self.table.activated.connect(lambda index: self.open_node.emit(self.hostnames[index.row()]))
        self.table.setToolTip("")

    def retranslate(self) -> None:
        self.heading.setText("<b>" + html.escape(translate("Monitor", "Nodes")) + "</b> · " + html.escape(
            translate("Monitor", "double-click a node for its GPUs' cards")))
        self.table.setHorizontalHeaderLabels([
            translate("Monitor", "Node"), translate("Monitor", "GPUs"), translate("Monitor", "GPU utilisation"),
            translate("Monitor", "GPU memory"), translate("Monitor", "GPU power"),
            translate("Monitor", "GPU temperature"), translate("Monitor", "Host CPU"), translate("Monitor", "I/O wait"),
            translate("Monitor", "Jobs")])
        self.empty.setText(translate("Monitor", "No nodes yet."))
        stale = self.stale
        self.show_snapshot(self.snapshot)
        self.mark_stale(stale)

    def show_snapshot(self, snap: ClusterSnapshot | None) -> None:
        self.snapshot = snap
        if snap is None:
            self.hostnames = []
            self.set_rows([])
            return
        jobs_of: dict[str, list[str]] = {}
        for j in snap.jobs:
            for host in j.nodes:
                jobs_of.setdefault(host, []).append(j.name)
        self.hostnames = [n.hostname for n in snap.nodes]
        self.set_rows([node_cells(n, jobs_of.get(n.hostname, [])) for n in snap.nodes])


class JobsTable(_Section):
    HEADERS = 6

    def __init__(self, parent: QWidget | None = None):
        super().__init__("clusterJobs", self.HEADERS, (0, 1, 2, 5), parent)
        self.snapshot: ClusterSnapshot | None = None

    def retranslate(self) -> None:
        self.heading.setText("<b>" + html.escape(translate("Monitor", "Jobs")) + "</b> · " + html.escape(translate(
            "Monitor", "GPUs grouped by Slurm job or Kubernetes pod; GPU-6 and DIST-1 judged over each job")))
        self.table.setHorizontalHeaderLabels([
            translate("Monitor", "Job"), translate("Monitor", "Kind"), translate("Monitor", "Nodes"),
            translate("Monitor", "GPUs"), translate("Monitor", "GPU utilisation"), translate("Monitor", "Verdict")])
        self.empty.setText(translate(
            "Monitor", "No job labels on these GPUs. DCGM exporter's HPC job mapping (hpc_job), a Slurm exporter's "
                       "job id or Kubernetes pod labels group the GPUs by job here."))
        self.show_snapshot(self.snapshot)

    def show_snapshot(self, snap: ClusterSnapshot | None) -> None:
        self.snapshot = snap
        if snap is None:
            self.set_rows([])
            return
        kinds = {"slurm": translate("Monitor", "Slurm job"), "kubernetes": translate("Monitor", "Kubernetes pod"),
                 "process": translate("Monitor", "Process")}
        rows: list[list[Cell]] = []
        for j in snap.jobs:
            d = job_to_dict(j, snap, lambda m: m.render(translate))
            utils = [u for u in (d["utilization_gpu_percent_min"], d["utilization_gpu_percent_max"]) if u is not None]
            util = na() if d["utilization_gpu_percent"] is None else (
                percent(d["utilization_gpu_percent"]) if len(j.gpus) == 1 else
                f"{percent(d['utilization_gpu_percent'])} ({min(utils):.0f}–{max(utils):.0f})")
            if j.alerts:
                verdict: Cell = ("; ".join(f"{a.rule}: {a.title.render(translate)}" for a in j.alerts), "warning",
                                 "\n\n".join(f"{a.rule} ({a.source}): {a.message.render(translate)}" for a in j.alerts))
            else:
                verdict = (translate("Monitor", "OK"), "ok", translate(
                    "Monitor", "Neither GPU-6 (GPUs waiting for data) nor DIST-1 (GPUs out of step) over the window"))
            gpus = ", ".join(f"{h}/{g}" for h, g in j.gpus)
            rows.append([(j.name, None, j.id), (kinds.get(j.kind, j.kind), None, j.label or ""),
                         (", ".join(j.nodes), None, ""), (str(len(j.gpus)), None, gpus), (util, None, ""), verdict])
        self.set_rows(rows)
