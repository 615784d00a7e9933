"""The tab's three pyqtgraph charts: throughput per result (log scale, each bar labelled with
its unit, with earlier runs and the guides' references marked), matmul TFLOPS per shape,
and the data-parallel scaling curve."""

from __future__ import annotations

import math
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt

from configurator.bench.references import SCALING_REFERENCE, references_for
from configurator.bench.results import RunRecord
from configurator.bench.suites import ROW_LABELS
from configurator.core.i18n import fill
from configurator.ui.bench.fmt import render, value_with_unit
from configurator.ui.i18n import translate
from configurator.ui.theme import Colours, colours, series_colour, style_plot

THROUGHPUT_UNITS = ("img/s", "tokens/s", "samples/s", "GB/s", "TFLOPS")
DTYPE_COLOURS = {"fp32": "#1f77b4", "tf32": "#9467bd", "fp16": "#ff7f0e", "bf16": "#2ca02c"}  # light series names


def _plot(title: str) -> pg.PlotWidget:
    w = pg.PlotWidget()
    c = colours(w.palette())
    style_plot(w, c)
    w.setTitle(title, color=c.text, size="10pt")
    w.showGrid(x=True, y=True, alpha=0.25)
    w.setMenuEnabled(False)
    w.setMouseEnabled(x=False, y=False)
    w.hideButtons()
    w.setMinimumSize(120, 60)
    return w


def _reset(w: pg.PlotWidget) -> Colours:
    """Empty the chart and colour it for the palette's scheme (charts are drawn again on a change)."""
    c = colours(w.palette())
    style_plot(w, c)
    w.clear()
    for axis in ("left", "bottom"):
        w.getAxis(axis).setTicks(None)
        w.getAxis(axis).setLabel("")
    w.getViewBox().invertY(False)
    return c


def _empty(w: pg.PlotWidget, text: str, c: Colours) -> None:
    item = pg.TextItem(text, color=c.muted_text, anchor=(0.5, 0.5))
    if len(text) > 60:  # a reason, not a caption: wrapped inside the plot
        item.setTextWidth(max(200, int(w.width() * 0.8)))
    w.addItem(item)
    item.setPos(0.5, 0.5)
    w.setXRange(0, 1)
    w.setYRange(0, 1)
    w.getAxis("left").setTicks([[]])
    w.getAxis("bottom").setTicks([[]])


class ThroughputChart:
    def __init__(self) -> None:
        self.widget = _plot("")

    def update(self, record: RunRecord | None, earlier: dict[str, float]) -> None:
        w = self.widget
        c = _reset(w)
        w.setTitle(translate("BenchmarkTab", "Throughput (log scale; ● earlier runs here, ◆ guide reference)"),
                   color=c.text, size="10pt")
        rows = [r for r in (record.rows if record else []) if r.status == "ok" and (r.shown_value or 0) > 0
                and r.unit in THROUGHPUT_UNITS]
        if not rows:
            _empty(w, translate("BenchmarkTab", "No throughput results yet"), c)
            return
        logs = [math.log10(r.value or 1) for r in rows]
        device = record.resolved_device if record else None
        refs = [(i, ref) for i, r in enumerate(rows)  # a GPU's figure is never set beside a CPU's result
                for ref in references_for(r.name, r.settings, str(r.settings.get("device") or device or "cpu"))]
        points = logs + [math.log10(v) for n, v in earlier.items() if v > 0 and any(r.name == n for r in rows)] + \
            [math.log10(ref.value) for _i, ref in refs]
        lo = math.floor(min(points)) - 0.3
        hi = math.ceil(max(points)) + 0.6
        ys = list(range(len(rows)))
        w.addItem(pg.BarGraphItem(x0=[lo] * len(rows), y=ys, height=0.6, width=[v - lo for v in logs],
                                  brush="#4c78a8", pen=pg.mkPen("#2b4a6f")))
        for y, r, v in zip(ys, rows, logs, strict=True):
            unstable = r.unstable() is not None  # not a fact: marked as the table marks it
            text = ("≈ " if unstable else "") + value_with_unit(r.value, r.unit)
            label = pg.TextItem(text, color=c.warning if unstable else c.text, anchor=(0, 0.5))
            prev_v = earlier.get(r.name)
            right = max(v, math.log10(prev_v)) if prev_v and prev_v > 0 else v
            label.setPos(right + 0.06, y)
            w.addItem(label)
        prev = [(ys[i], math.log10(earlier[r.name])) for i, r in enumerate(rows) if earlier.get(r.name)]
        if prev:
            w.addItem(pg.ScatterPlotItem(x=[p[1] for p in prev], y=[p[0] for p in prev], symbol="o", size=9,
                                         brush=c.neutral_fill, pen=pg.mkPen(c.plot_foreground)))
        if refs:
            w.addItem(pg.ScatterPlotItem(x=[math.log10(ref.value) for _i, ref in refs], y=[ys[i] for i, _ in refs],
                                         symbol="d", size=11, brush=c.error_fill, pen=pg.mkPen(c.plot_background)))
        w.getAxis("left").setTicks([[(y, translate("bench", ROW_LABELS.get(r.name, r.name)))
                                     for y, r in zip(ys, rows, strict=True)]])
        ticks = [(float(e), _decade(e)) for e in range(math.ceil(lo), math.floor(hi) + 1)]
        w.getAxis("bottom").setTicks([ticks])
        w.setXRange(lo, hi, padding=0)
        w.setYRange(-0.7, len(rows) - 0.3, padding=0)
        w.getViewBox().invertY(True)


def _decade(e: int) -> str:
    v = 10.0 ** e
    if v >= 1e6:
        return f"{v / 1e6:g}M"
    if v >= 1e3:
        return f"{v / 1e3:g}k"
    return f"{v:g}"


class MatmulChart:
    def __init__(self) -> None:
        self.widget = _plot("")

    def update(self, record: RunRecord | None) -> None:
        w = self.widget
        c = _reset(w)
        w.setTitle(translate("BenchmarkTab", "Matmul TFLOPS per shape (line: median, ○: best)"), color=c.text,
                   size="10pt")
        rows = [r for r in (record.rows if record else []) if r.name.startswith("matmul-") and r.status == "ok"
                and r.details.get("shapes")]
        if not rows:
            _empty(w, translate("BenchmarkTab", "No matmul results yet"), c)
            return
        shapes: list[str] = []
        for r in rows:
            for s in r.details["shapes"]:
                key = f"{s['m']}×{s['n']}×{s['k']}"
                if key not in shapes:
                    shapes.append(key)
        legend = w.addLegend(offset=(10, 5), labelTextColor=c.text)
        top = 0.0
        for r in rows:
            dtype = str(r.settings.get("dtype") or r.name.split("-", 1)[1])
            colour = series_colour(DTYPE_COLOURS.get(dtype, c.plot_foreground), c)
            xs = [shapes.index(f"{s['m']}×{s['n']}×{s['k']}") for s in r.details["shapes"]]
            med = [float(s["median"]) for s in r.details["shapes"]]
            best = [float(s["best"]) for s in r.details["shapes"]]
            top = max(top, *best)
            w.plot(xs, med, pen=pg.mkPen(colour, width=2), symbol="s", symbolSize=7, symbolBrush=colour,
                   name=dtype.upper())
            w.addItem(pg.ScatterPlotItem(x=xs, y=best, symbol="o", size=8, brush=None, pen=pg.mkPen(colour)))
        legend.setParentItem(w.getPlotItem().getViewBox())
        w.getAxis("bottom").setTicks([list(enumerate(shapes))])
        w.getAxis("left").enableAutoSIPrefix(False)  # "TFLOPS (x0.001)" on a CPU said nothing useful
        w.getAxis("left").setLabel("TFLOPS")
        w.setXRange(-0.5, len(shapes) - 0.5, padding=0)
        w.setYRange(0, top * 1.15 or 1, padding=0)


class ScalingChart:
    def __init__(self) -> None:
        self.widget = _plot("")

    def update(self, record: RunRecord | None) -> None:
        w = self.widget
        c = _reset(w)
        row = record.row("ddp-scaling") if record else None
        runs: list[dict[str, Any]] = row.details.get("runs", []) if row and row.status == "ok" else []
        on_gpu = bool(record and record.resolved_device == "cuda")
        w.setTitle(translate("BenchmarkTab", "DDP scaling: speed-up over one process") + (
            "" if on_gpu or not runs else " " + translate("BenchmarkTab", "(CPU: the processes share the cores, "
                                                                          "so the ideal is 1×)")),
                   color=c.text, size="10pt")
        if not runs:
            _empty(w, translate("BenchmarkTab", "No scaling results yet"), c)
            return
        impossible = row.not_measured() if row is not None else None
        if impossible is not None:  # speed-ups above ideal are not plotted as if measured
            _empty(w, fill(translate("BenchmarkTab", "Not measured: {reason}"), reason=render(impossible)), c)
            return
        xs = [int(r["processes"]) for r in runs]
        ys = [float(r["speedup"]) for r in runs]
        ideal = [float(r["ideal_speedup"]) for r in runs]
        legend = w.addLegend(offset=(10, 5), labelTextColor=c.text)
        w.plot(xs, ideal, pen=pg.mkPen(c.axis, width=1, style=Qt.PenStyle.DashLine),
               name=translate("BenchmarkTab", "ideal"))
        measured = c.series[0]
        w.plot(xs, ys, pen=pg.mkPen(measured, width=2), symbol="o", symbolBrush=measured,
               name=translate("BenchmarkTab", "measured"))
        for x, y, r in zip(xs, ys, runs, strict=True):
            t = pg.TextItem(f"{y:.2f}× ({100 * float(r['efficiency']):.0f} %)", color=c.text, anchor=(0.5, 1.2))
            t.setPos(x, y)
            w.addItem(t)
        top = max(ys + ideal)
        xmax = max(xs)
        if on_gpu:
            ref = SCALING_REFERENCE
            w.addItem(pg.ScatterPlotItem(x=[ref["processes"], ref["processes"]], y=[ref["theoretical"],
                                         ref["measured"]], symbol="d", size=11, brush=c.error_fill))
            t = pg.TextItem(translate("BenchmarkTab", "PCI-5: 4× RTX 3090, 3.5× measured / 3.7× theoretical"),
                            color=c.error, anchor=(1, 1))
            t.setPos(ref["processes"], ref["measured"])
            w.addItem(t)
            top, xmax = max(top, 3.8), max(xmax, 4)
        legend.setParentItem(w.getPlotItem().getViewBox())
        w.getAxis("bottom").setTicks([[(x, str(x)) for x in range(1, xmax + 1)]])
        w.getAxis("bottom").setLabel(translate("BenchmarkTab", "processes"))
        w.getAxis("left").setLabel(translate("BenchmarkTab", "speed-up (×)"))
        w.setXRange(0.7, xmax + 0.3, padding=0)
        w.setYRange(0, top * 1.25, padding=0)
