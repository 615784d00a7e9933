"""The planner's results: the verdict, the ratio bars, the estimates, the findings, the PCIe map and
the throughput chart beside the guides' tiers. It shows what the engine found; it judges nothing.

The chart (pyqtgraph) is made when it first has a bar to draw: the app's first window, an empty build
before the guides' tiers are worked out, does not wait for pyqtgraph to load (a quarter of a second)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QLabel,
    QSizePolicy,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from configurator.core.build import Build, Workload, resolve
from configurator.core.cluster_estimates import CLUSTER_KEYS
from configurator.core.engine import Report, break_even
from configurator.core.estimate.cluster import INTERCONNECTS
from configurator.core.findings import ESTIMATE_LABELS, Estimate, source_text
from configurator.core.i18n import fill
from configurator.core.numbers import unit_text
from configurator.core.parts import AnyPart
from configurator.core.presets import Preset, tier_label
from configurator.core.sheet import Sheet, main_throughput, round_ticks, throughput_chart, tick_text
from configurator.core.verdict import verdict
from configurator.ui.i18n import translate
from configurator.ui.planner.estimate_words import (
    WHOLE_NUMBERS,
    estimate_label,
    range_text,
    serving_estimates,
    serving_heading,
    unit_words,
    value_text,
)
from configurator.ui.planner.widgets import FindingsTree, PcieMap, RatioBar
from configurator.ui.theme import Colours, colours, style_plot

if TYPE_CHECKING:
    import pyqtgraph as pg

SHOWN_ESTIMATES = ("throughput_one_gpu", "throughput_total", "throughput_batch", "scaling_efficiency",
                   "prefill_tokens_per_s", "throughput_cpu", "largest_batch", "throughput_per_kcny")
ESTIMATES_HEIGHT, ESTIMATES_HEIGHT_SERVING = 205, 340  # px


def _set_text(label: QLabel, text: str) -> None:
    """Only relayout a label whose text really changed."""
    if label.text() != text:
        label.setText(text)


class _ChartHint(QLabel):
    """Stands where the chart will be, asking for the room a ``pg.PlotWidget`` asks for, so the panes
    keep their sizes when the chart takes its place."""

    def __init__(self) -> None:
        super().__init__()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:
        return QSize(600, 480)

    def hasHeightForWidth(self) -> bool:  # its wrapped text does not decide the pane's height
        return False


class ResultsPanel(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("plannerResults")
        self._chart_key: object = None
        self._estimates_html = ""
        v = QVBoxLayout(self)
        v.setContentsMargins(6, 0, 0, 0)
        self.verdict = QLabel()
        self.verdict.setObjectName("verdict")
        self.verdict.setWordWrap(True)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        v.addWidget(self.verdict)
        bars = QGridLayout()
        self.bars = {k: RatioBar() for k in ("price", "power", "vram", "ram")}
        for i, key in enumerate(("price", "power", "vram", "ram")):
            self.bars[key].setObjectName(f"bar_{key}")
            bars.addWidget(self.bars[key], i // 2, i % 2)
        v.addLayout(bars)
        # A text browser, not a word-wrapped label: its layout stays inside it, so an edit
        # does not re-lay out the whole tab (that alone cost most of a frame).
        self.estimates_label = QTextBrowser()
        self.estimates_label.setObjectName("estimates")
        self.estimates_label.setFrameShape(QTextBrowser.Shape.NoFrame)
        self.estimates_label.setFixedHeight(ESTIMATES_HEIGHT)
        self.estimates_label.viewport().setAutoFillBackground(False)
        v.addWidget(self.estimates_label)
        lower = QSplitter(Qt.Orientation.Vertical)
        self.findings = FindingsTree()
        lower.addWidget(self.findings)
        bottom = QSplitter(Qt.Orientation.Horizontal)
        self.pcie_map = PcieMap()
        self.pcie_box = QGroupBox()
        QVBoxLayout(self.pcie_box).addWidget(self.pcie_map)
        self._scheme = colours(self.palette())
        self.chart: pg.PlotWidget | None = None  # made by _ensure_chart, once there is a bar to draw
        self.chart_box = QGroupBox()
        self.chart_hint = _ChartHint()
        self.chart_hint.setObjectName("chartHint")
        self.chart_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.chart_hint.setWordWrap(True)
        self.chart_hint.setEnabled(False)  # muted, as the PCIe map's hint
        self._chart_layout = QVBoxLayout(self.chart_box)
        self._chart_layout.addWidget(self.chart_hint)
        bottom.addWidget(self.pcie_box)
        bottom.addWidget(self.chart_box)
        lower.addWidget(bottom)
        lower.setStretchFactor(0, 3)
        lower.setStretchFactor(1, 2)
        v.addWidget(lower, 1)

    def show_report(self, build: Build, report: Report, sheet: Sheet, catalogue: dict[str, AnyPart],
                    tiers: list[Preset]) -> None:
        self.findings.show_findings(list(report.findings))
        said = verdict(report, catalogue, translate)
        c = self._scheme
        colour = {"empty": c.text, "error": c.error,
                  "incomplete": c.warning, "warning": c.warning, "ok": c.ok}[said.level]
        _set_text(self.verdict, f"<b style='color:{colour}'>{_escape(said.text)}</b>")
        self.verdict.setProperty("level", said.level)
        self._show_bars(sheet)
        self.pcie_map.set_layout(resolve(build, catalogue).board, sheet.seats)
        self._show_estimates(report)
        self._show_chart(build, report, catalogue, tiers)

    def forget_chart(self) -> None:
        self._chart_key = None

    def show_checking(self) -> None:
        """What stands before the first report (the app's start-up checks the build once the window is painted):
        the verdict says the build is being checked, the bars have their titles and no figures."""
        checking = translate("Planner", "Checking the build…")
        _set_text(self.verdict, f"<span style='color:{self._scheme.muted_text}'>{_escape(checking)}</span>")
        self.verdict.setProperty("level", "checking")
        titles = _bar_titles()
        for key, widget in self.bars.items():
            widget.set_values(titles[key], "…", None)

    def _show_bars(self, sheet: Sheet) -> None:
        titles = _bar_titles()
        by_key = {b.key: b for b in sheet.bars}
        for key, widget in self.bars.items():
            bar = by_key.get(key)
            if bar is None:
                widget.set_values(titles[key], translate("Planner", "n/a"), None)
                continue
            if key == "price":
                text = f"¥{bar.value:,.0f}" + (f" / ¥{bar.limit:,.0f}" if bar.limit else "")
            else:
                text = f"{bar.value:,.1f} {bar.unit}" + (f" / {bar.limit:,.0f} {bar.unit}" if bar.limit else "")
            widget.set_values(titles[key], text, bar.ratio)

    def _show_estimates(self, report: Report) -> None:
        muted = self._scheme.muted_text
        w = report.build.workload
        serving = w is not None and w.serving and not report.workload_errors
        if serving:
            # a serving workload: its load's figures (the single-stream throughput rows are not its)
            assert w is not None
            rows = self._serving_rows(report, w, muted)
        else:
            rows = self._throughput_rows(report, muted)
        # five figures, each saying how it was made: room for them without scrolling (the findings give it up)
        self.estimates_label.setFixedHeight(ESTIMATES_HEIGHT_SERVING if serving else ESTIMATES_HEIGHT)
        rows += self._cluster_rows(report, muted)
        months = break_even(report)
        if months is not None:
            label = translate("Planner", "Break-even against renting")
            unit = translate("Planner", "months")
            rows.append(f"<tr><td>{label}</td><td><b>{months.numbers['months']:.1f} {unit}</b></td>"
                        f"<td style='padding-left:10px;color:{muted}'>{months.rule} · "
                        f"{source_text(months.source, translate)}</td></tr>")
        html = ("<table cellspacing='0' cellpadding='1'>" + "".join(rows) + "</table>" if rows else
                translate("Planner", "Add a GPU or CPU and a workload to see throughput estimates."))
        if html != self._estimates_html:
            self._estimates_html = html
            self.estimates_label.setHtml(html)

    def _throughput_rows(self, report: Report, muted: str) -> list[str]:
        rows = []
        labels = {k: translate("estimates", ESTIMATE_LABELS[k]) for k in SHOWN_ESTIMATES}
        for e in report.estimates:
            if e.key not in labels or e.value is None:
                continue
            value = _value(e, muted)
            how = _escape(e.how.render(translate))
            if e.calibration is not None:  # this machine's benchmark of the same hardware corrects it
                value += (f"<br><span style='color:{self._scheme.accent}'>×{e.calibration.factor:.2f} → "
                          f"{e.calibration.value:,.1f}</span>")
                how = f"{_escape(e.calibration.how.render(translate))} {how}"
            rows.append(_row(labels[e.key], value, how, muted))
        return rows

    def _serving_rows(self, report: Report, w: Workload, muted: str) -> list[str]:
        """The serving figures (most requests in flight, output tokens/s, requests/s, TTFT, TPOT), each with its
        range, under the load they are at; or why there are none (no GPU, no room for the KV cache)."""
        shown = serving_estimates(report.estimates)
        if not shown:
            return []
        rows = [f"<tr><td colspan='3'><b>{_escape(serving_heading(w))}</b></td></tr>"]
        for e in shown:
            value = "—" if e.value is None else _value(e, muted)
            rows.append(_row(_escape(estimate_label(e.key)), value, _escape(e.how.render(translate)), muted))
        return rows

    def _cluster_rows(self, report: Report, muted: str) -> list[str]:
        """The build as one node of a cluster (CLU-1): a heading and its four figures."""
        shown = [e for e in report.estimates if e.key in CLUSTER_KEYS and e.value is not None]
        c = report.build.cluster
        if not shown or c is None:
            return []
        title = fill(translate("Planner", "Cluster: {n} nodes over {network}"),
                 n=c.nodes, network=INTERCONNECTS[c.interconnect].name)
        rows = [f"<tr><td colspan='3' style='padding-top:6px'><b>{_escape(title)}</b></td></tr>"]
        for e in shown:
            rows.append(_row(translate("estimates", ESTIMATE_LABELS[e.key]), _value(e, muted),
                             _escape(e.how.render(translate)), muted))
        return rows

    def _ensure_chart(self) -> pg.PlotWidget:
        if self.chart is None:
            import pyqtgraph as pg

            self.chart = pg.PlotWidget()
            self.chart.setObjectName("throughputChart")
            style_plot(self.chart, self._scheme, background=False)  # on the window's colour
            self.chart.setMouseEnabled(x=False, y=False)
            self.chart.hideButtons()
            self.chart.setMenuEnabled(False)
            self.chart.getPlotItem().showGrid(y=True, alpha=0.25)
            self._chart_layout.addWidget(self.chart)
        return self.chart

    def _show_chart(self, build: Build, report: Report, catalogue: dict[str, AnyPart], tiers: list[Preset]) -> None:
        if build.workload is None or report.workload_errors:
            self._clear_chart()
            return
        key = (build.workload, build.name, main_throughput(report), len(tiers))
        if key == self._chart_key:
            return
        self._chart_key = key
        points, unit = throughput_chart(build, catalogue, report, tiers)
        if not any(p.value > 0 for p in points):  # no estimate yet, and no tier to stand beside
            self._clear_chart()
            self._chart_key = key
            return
        import pyqtgraph as pg

        chart = self._ensure_chart()
        self.chart_hint.hide()
        chart.show()
        plot = chart.getPlotItem()
        plot.clear()
        xs = list(range(len(points)))
        heights = [p.value for p in points]
        c = self._scheme
        brushes = [pg.mkBrush(c.accent if p.this_build else c.neutral_fill) for p in points]
        plot.addItem(pg.BarGraphItem(x=xs, height=heights, width=0.6, brushes=brushes))
        names = [translate("Planner", "This build") if p.this_build else tier_label(p.label, translate, short=True)
                 for p in points]
        plot.getAxis("bottom").setTicks([list(zip(xs, names, strict=True))])
        ticks = round_ticks(max(heights, default=0.0))
        left = plot.getAxis("left")
        left.enableAutoSIPrefix(False)
        left.setTicks([[(v, tick_text(v, ticks)) for v in ticks]])
        plot.setYRange(0, ticks[-1], padding=0.02)
        plot.setLabel("left", unit_text(unit, translate))
        plot.setTitle(translate("Planner", "Estimated throughput beside the guides' tiers (same workload)"),
                      size="9pt", color=c.plot_foreground)

    def _clear_chart(self) -> None:
        self._chart_key = None
        if self.chart is not None:
            self.chart.clear()
            self.chart.hide()
        self.chart_hint.show()

    def retranslate(self) -> None:
        self.pcie_box.setTitle(translate("Planner", "PCIe map"))
        self.chart_box.setTitle(translate("Planner", "Throughput"))
        self.chart_hint.setText(translate("Planner", "Add a GPU or CPU and a workload to compare its throughput "
                                                     "with the guides' tiers."))
        self._chart_key = None
        self.findings.retranslate()

    def restyle(self, scheme: Colours) -> None:
        """The chart in the colours of the window's new scheme (the planner tab calls it on a theme
        change, then shows the report again)."""
        self._scheme = scheme
        if self.chart is not None:
            style_plot(self.chart, self._scheme, background=False)
        self._chart_key = None


def _bar_titles() -> dict[str, str]:
    return {"price": translate("Planner", "Price against budget"),
            "power": translate("Planner", "Peak power against the PSU"),
            "vram": translate("Planner", "VRAM need per GPU against capacity"),
            "ram": translate("Planner", "RAM need against installed")}


def _value(e: Estimate, muted: str) -> str:
    """An estimate's figure as the table shows it: shares in %, prices in ¥, else the unit and the likely range."""
    assert e.value is not None
    if e.key in ("scaling_efficiency", "cluster_scaling_efficiency"):
        return f"{e.value:.0%}"
    if e.key in WHOLE_NUMBERS:
        value = f"{int(e.value):,} {unit_words(e.unit)}"
    elif e.unit == "CNY":
        return f"¥{e.value:,.0f}"
    else:
        value = f"{value_text(e.value)} {unit_words(e.unit)}"
    span = range_text(e)
    if span is not None:  # the cross-validated range
        value += f"<br><span style='font-weight:normal;color:{muted}'>{span}</span>"
    return value


def _row(label: str, value: str, how: str, muted: str) -> str:
    return (f"<tr><td style='padding-right:10px'>{label}</td><td><b>{value}</b></td>"
            f"<td style='padding-left:10px;color:{muted}'>{how}</td></tr>")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
