"""A rolling time plot over a History ring: a pyqtgraph PlotItem (axes, view box, legend)
whose series are painted by one light item.

The x axis is time relative to the newest sample ("seconds/minutes/hours ago"),
so its range only changes when the user picks another window: a redraw moves
the curves, not the axes, and the axes (with the grid they draw) and the legend
are cached as pixmaps.

Why not one ``PlotDataItem`` per series: its pipeline (bounds, display dataset,
geometry changes, scene re-indexing) cost more than everything else in a redraw,
and with eight GPUs the Monitor tab spent over 1 % of a core on it. ``Traces``
does what the tab needs from it, for all series of a plot at once:

- clip to view: only the samples inside the window are read from the ring;
- beyond the ring's full-resolution hour, the per-bucket minimum and maximum;
- peak downsampling: beyond two points per pixel column the samples are reduced
  to each column's minimum and maximum, so a one-second spike stays visible in a
  24-hour window;
- gaps: a missing sample (NaN) breaks the line instead of joining its neighbours;
- a fixed bounding rectangle (the window), so a redraw is one repaint of the
  plot area.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView, QWidget

from configurator.core.i18n import fill
from configurator.monitor.ring import History
from configurator.ui.i18n import translate
from configurator.ui.monitor.traces import Series, Traces, peak_downsample
from configurator.ui.theme import LIGHT, colours, on_theme_change, style_plot

# Looked up once: a Qt enum member read from its class runs Python code (enum descriptors) every time.
_INTERSECT = Qt.ClipOperation.IntersectClip

# The series' colours as named in the light scheme; plots draw them with series_colour().
COLOURS = list(LIGHT.series)


def time_unit(window_s: float) -> tuple[float, str]:
    """Seconds per axis unit, and its (translated) name, for a window."""
    if window_s <= 300:
        return 1.0, translate("Monitor", "s")
    if window_s <= 6 * 3600:
        return 60.0, translate("Monitor", "min")
    return 3600.0, translate("Monitor", "h")


class AgoAxis(pg.AxisItem):  # type: ignore[misc]
    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        return [f"{v:g}" if v else "0" for v in values]


class RollingPlot(pg.PlotWidget):  # type: ignore[misc]
    """``legend=False``: the card shows which colour is which (swatches beside its value names),
    which keeps the curves uncovered and saves the legend's items a repaint. ``y_unit`` names the
    y axis's unit (every line the Monitor plots is a percentage)."""

    def __init__(self, parent: QWidget | None = None, y_max: float = 100.0, height: int = 110,
                 legend: bool = True, y_unit: str = "%"):
        super().__init__(parent=parent, axisItems={"bottom": AgoAxis(orientation="bottom")})
        self.setMinimumHeight(height)
        self.setMaximumHeight(height + 60)
        item = self.getPlotItem()
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        item.setMenuEnabled(False)
        view = item.getViewBox()
        view.disableAutoRange()
        self.y_max = y_max
        # 5 % above and below: a line at 0 or at the top stays a few pixels clear of the axes'
        # pixels, which a redraw does not repaint (see _redraw_area).
        self.setYRange(0, y_max, padding=0.05)
        self.legend = item.addLegend(offset=(4, 2), labelTextSize="7pt", verSpacing=-8,
                                     labelTextColor=colours(self.palette()).plot_foreground) if legend else None
        self.traces = Traces()
        item.addItem(self.traces)
        self.curves: dict[str, Series] = {}
        for axis in ("left", "bottom"):  # ticks outwards: the axes end where the view box begins
            item.getAxis(axis).setStyle(tickFont=self.font(), tickLength=4)
        item.getAxis("left").setLabel(y_unit)
        self._colours = colours(self.palette())
        style_plot(self, self._colours)
        # The axes and the legend only change with the window or the language: cache them as
        # pixmaps. The grid is drawn into the view's cached background (drawBackground), so a
        # redraw repaints the lines and blits the rest.
        for cached in (item.getAxis("left"), item.getAxis("bottom"), self.legend):
            if cached is not None:
                cached.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        view.sigResized.connect(self._grid_changed)
        view.sigRangeChanged.connect(self._grid_changed)
        self._window: tuple[float, str] | None = None
        # A redraw repaints the view box less the pixels it shares with the axes (_redraw_area);
        # no line is drawn there, and without Qt's 2-pixel margin for antialiasing the axes stay
        # out of the repaint (each item painted is a trip into Python, and the axes are two of
        # the plot's items).
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing, True)
        self._area: QRect | None = None  # that area in viewport pixels, while the size and range hold
        self._shown: _Shown | None = None  # what the lines show, while a redraw may just extend them
        on_theme_change(self.restyle)

    def _grid_changed(self, *_args: object) -> None:
        self._area = None
        self.resetCachedContent()
        self.viewport().update()

    def _redraw_area(self) -> QRect:
        """The view box in viewport pixels, less the pixels the axes share with it; lines are
        clipped to it, so nothing outside it ever needs repainting."""
        if self._area is None:
            item = self.getPlotItem()
            view = item.getViewBox()
            scene = view.sceneBoundingRect()
            area = self.mapFromScene(scene).boundingRect()
            left = self.mapFromScene(item.getAxis("left").sceneBoundingRect()).boundingRect()
            bottom = self.mapFromScene(item.getAxis("bottom").sceneBoundingRect()).boundingRect()
            area.setLeft(max(area.left(), left.right() + 1))
            # Qt looks for items one pixel around the repainted area: keep two rows from the axis.
            area.setBottom(min(area.bottom(), bottom.top() - 2))
            self._area = area
            (x0, x1), (y0, y1) = view.viewRange()
            if scene.width() > 0 and scene.height() > 0:
                first = self.mapToScene(area.topLeft())
                below = self.mapToScene(area.bottomRight() + QPoint(1, 1))
                x = x0 + (first.x() - scene.left()) * (x1 - x0) / scene.width()
                y = y0 + (scene.bottom() - below.y()) * (y1 - y0) / scene.height()
                self.traces.clip = QRectF(x, y, x1 - x, y1 - y)
        return self._area

    def restyle(self) -> None:
        """Colours for the palette's scheme: background, axes, grid (cached: drawn again), lines."""
        c = colours(self.palette())
        # (pyqtgraph's close() lets go of the plot item: a closed plot has nothing left to colour)
        if c == self._colours or self.getPlotItem() is None:
            return
        self._colours = c
        style_plot(self, c)
        for s in self.curves.values():
            s.restyle(c)
        item = self.getPlotItem()
        for cached in (item.getAxis("left"), item.getAxis("bottom"), self.legend):
            if cached is not None:
                cached.update()
        if self.legend is not None:
            self.legend.setLabelTextColor(c.plot_foreground)  # for labels added from now on
            for sample, label in self.legend.items:  # and those shown (their text drawn again)
                sample.update()
                label.setText(label.text, color=c.plot_foreground)
        self.traces.update()
        self._grid_changed()

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        """The background with the grid: drawn once into the view's cache for a full repaint,
        not on every redraw."""
        super().drawBackground(painter, rect)
        item = self.getPlotItem()
        view = item.getViewBox()
        (x0, x1), (y0, y1) = view.viewRange()
        area = view.sceneBoundingRect()
        if area.width() < 2 or area.height() < 2:
            return
        painter.save()
        grid = (QColor(self._colours.grid_major), QColor(self._colours.grid_minor))
        for axis, lo, hi, size in (("bottom", x0, x1, area.width()), ("left", y0, y1, area.height())):
            levels = item.getAxis(axis).tickValues(lo, hi, size)
            for level, (_spacing, values) in enumerate(levels[:2]):
                painter.setPen(QPen(grid[level], 0))
                for v in values:
                    if axis == "bottom":
                        x = view.mapViewToScene(QPointF(v, y0)).x()
                        painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()))
                    else:
                        y = view.mapViewToScene(QPointF(x0, v)).y()
                        painter.drawLine(QPointF(area.left(), y), QPointF(area.right(), y))
        painter.restore()

    def curve(self, key: str, name: str, colour: str) -> Series:
        s = self.curves.get(key)
        if s is None:
            s = self.curves[key] = Series(colour, self.traces, self._colours)
            self._shown = None
            self.traces.series.append(s)
            if self.legend is not None:
                s.legend_item = pg.PlotDataItem(pen=s.pen, name=name)
                self.legend.addItem(s.legend_item, name)
        return s

    def set_window(self, window_s: float) -> None:
        scale, unit = time_unit(window_s)
        if self._window != (window_s, unit):
            self._window = (window_s, unit)
            width = window_s / scale
            self.setXRange(-width, 0, padding=0)
            pad = self.y_max * 0.05
            self.traces.set_rect(QRectF(-width, -pad, width, self.y_max + 2 * pad))
            self.getPlotItem().getAxis("bottom").setLabel(fill(translate("Monitor", "{unit} ago"), unit=unit))

    def redraw(self, history: History, window_s: float, now: float) -> None:
        self.set_window(window_s)
        scale, _unit = time_unit(window_s)
        area = self._redraw_area()
        columns = max(1, area.width())
        if window_s > history.full_seconds:
            self._shown = None
            for key, s in self.curves.items():
                # Beyond the full-resolution hour the ring keeps per-bucket min/mean/max: draw the
                # min-max envelope, so a spike of one second still shows in a 24-hour window.
                t, lo, _mean, hi = history.aggregate(key, window_s, now)
                t, y = np.repeat(t, 2), np.column_stack((lo, hi)).ravel()
                s.set(*peak_downsample(t, y, columns))
        elif not self._extend(history, window_s, now, columns):
            # The lines of a plot share their times: read once, placed once.
            t, ys = history.columns(list(self.curves), window_s, now)
            for i, s in enumerate(self.curves.values()):
                s.set(*peak_downsample(t, ys[:, i], columns))
            # Drawn sample by sample (not reduced to the columns' peaks): later redraws may
            # just add the newest samples.
            self._shown = _Shown(history, history.generation, window_s, columns, deque(t.tolist()),
                                 float(t[-1]) if len(t) else -math.inf) if len(t) <= 2 * columns else None
        self.traces.set_now(now, scale)
        # The data area marked here and now: an item's update() goes through the scene's queued
        # dirty-item pass, one event (and one window repaint) per plot; this way every card's
        # plot and values are painted in one pass.
        self.viewport().update(area)

    def _extend(self, history: History, window_s: float, now: float, columns: int) -> bool:
        """Bring the lines up to date by adding the samples since the last redraw and dropping
        those that left the window, rather than reading and placing the whole window again.
        False where that would not draw what a full redraw draws: another ring or window, the
        ring resized (another interval), the plot resized, a new line, more samples than a
        redraw normally finds, or more than two a pixel column (then they are reduced to peaks)."""
        shown = self._shown
        if (shown is None or shown.history is not history or shown.generation != history.generation
                or shown.window_s != window_s or shown.columns != columns):
            return False
        new = history.rows_after(list(self.curves), shown.last_t, limit=8)
        if new is None:
            return False
        cut = now - window_s
        times = shown.times
        for t, values in new:
            times.append(t)
            for s, v in zip(self.curves.values(), values, strict=True):
                s.extend(t, v)
        while times and times[0] < cut:
            times.popleft()
        if new:
            shown.last_t = new[-1][0]
        if len(times) > 2 * columns:
            return False
        for s in self.curves.values():
            s.trim(cut)
        return True


@dataclass
class _Shown:
    """What a plot's lines were made from, for RollingPlot._extend."""

    history: History
    generation: int
    window_s: float
    columns: int
    times: deque[float]  # of the samples in the window, oldest first
    last_t: float  # of the newest sample drawn
