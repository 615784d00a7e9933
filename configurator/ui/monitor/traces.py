"""The lines of a rolling plot: ``Series`` keeps one line's unbroken runs, ``Traces`` paints every
series of one plot (see :mod:`configurator.ui.monitor.plots` for why it is not one
``PlotDataItem`` per series); peak downsampling and breaking lines at gaps."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF, QTransform
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from configurator.ui.theme import LIGHT, Colours, series_colour

# Looked up once: a Qt enum member read from its class runs Python code (enum descriptors) every time.
_INTERSECT = Qt.ClipOperation.IntersectClip
F64 = npt.NDArray[np.float64]


def peak_downsample(x: F64, y: F64, columns: int) -> tuple[F64, F64]:
    """At most two points per column: each column's minimum and maximum (NaN only if all are).

    Like pyqtgraph's "peak" mode: the envelope of the data survives, so short spikes
    and dips stay visible however long the window.
    """
    n = len(x)
    if columns <= 0 or n <= 2 * columns:
        return x, y
    ds = -(-n // columns)  # samples per column
    m = n // ds
    start = n - m * ds  # drop the oldest remainder, keep the newest samples whole
    ys = y[start:].reshape(m, ds)
    lo, hi = np.fmin.reduce(ys, axis=1), np.fmax.reduce(ys, axis=1)
    xs = x[start::ds][:m]
    out_x = np.repeat(xs, 2)
    out_y = np.empty(2 * m)
    out_y[0::2], out_y[1::2] = lo, hi
    return out_x, out_y


class Series:
    """One named line of a plot: the unbroken runs it draws, in (time, value) coordinates (the
    plot's ``Traces`` maps time to the x axis when painting). ``getData`` gives what is drawn."""

    def __init__(self, colour: str, traces: Traces, c: Colours = LIGHT):
        self.colour = colour
        self.traces = traces
        self.pen: QPen = pg.mkPen(series_colour(colour, c), width=1)
        # Stands in for the line in a legend (which draws a sample from ``opts['pen']``); only
        # plots with a legend make one.
        self.legend_item: pg.PlotDataItem | None = None
        self.lines: list[QPolygonF] = []
        # The newest run while it is still open (the next sample may extend it), and its length:
        # it is among ``lines`` from its second point on.
        self._tail: QPolygonF | None = None
        self._tail_n = 0

    def getData(self) -> tuple[F64, F64]:
        """The points drawn, x in the axis's units (0 is now), a NaN between unbroken runs."""
        now, scale = self.traces.now, self.traces.scale
        parts: list[F64] = []
        for line in self.lines:
            if parts:
                parts.append(np.full((1, 2), np.nan))
            parts.append(pg.functions.ndarray_from_qpolygonf(line).copy())
        if not parts:
            return np.empty(0), np.empty(0)
        points = np.concatenate(parts)
        return (points[:, 0] - now) / scale, points[:, 1]

    def restyle(self, c: Colours) -> None:
        self.pen.setColor(QColor(series_colour(self.colour, c)))
        if self.legend_item is not None:
            self.legend_item.setPen(self.pen)

    def set(self, t: F64, y: F64) -> None:
        """Everything anew: times and values (NaN: a gap), oldest first. The newest run stays
        open for ``extend``."""
        self.lines = polylines(t, y)
        self._tail, self._tail_n = None, 0
        if len(y) and math.isfinite(y[-1]):
            if len(y) >= 2 and math.isfinite(y[-2]):  # the last run has two points or more: it is drawn
                self._tail = self.lines[-1]
                self._tail_n = self._tail.size()
            else:  # a lone point, not drawn until the next sample joins it
                self._tail = QPolygonF()
                self._tail.append(QPointF(t[-1], y[-1]))
                self._tail_n = 1

    def extend(self, t: float, y: float) -> None:
        """One newer sample: it extends the open run, or (NaN) closes it."""
        if y != y:  # NaN: a gap
            self._tail, self._tail_n = None, 0
            return
        if self._tail is None:
            self._tail, self._tail_n = QPolygonF(), 0
        self._tail.append(QPointF(t, y))
        self._tail_n += 1
        if self._tail_n == 2:
            self.lines.append(self._tail)

    def trim(self, cut: float) -> None:
        """Drop the points older than ``cut`` (they left the window); a run left with fewer
        than two points is no longer drawn, as ``polylines`` would not draw it."""
        while self.lines:
            first = self.lines[0]
            n = first.size()
            k = 0
            while k < n and first.at(k).x() < cut:
                k += 1
            if k == 0:
                return
            if n - k >= 2:
                first.remove(0, k)
                if first is self._tail:
                    self._tail_n = n - k
                return
            del self.lines[0]
            if first is self._tail:
                first.remove(0, k)
                self._tail_n = n - k
        if self._tail_n == 1 and self._tail is not None and self._tail.at(0).x() < cut:
            self._tail.clear()
            self._tail_n = 0


def polylines(x: F64, y: F64) -> list[QPolygonF]:
    """The line through the points, broken at each gap (NaN): one polygon per unbroken run
    (filled from numpy in place; a lone point between gaps draws nothing, as in pyqtgraph)."""
    finite = np.isfinite(y)
    if finite.all():
        runs = [(0, len(y))] if len(y) >= 2 else []
    else:
        edges = np.flatnonzero(np.diff(np.concatenate(([0], finite.view(np.int8), [0]))))
        runs = [(int(a), int(b)) for a, b in zip(edges[0::2], edges[1::2], strict=True) if b - a >= 2]
    out = []
    for a, b in runs:
        poly = pg.functions.create_qpolygonf(b - a)
        points = pg.functions.ndarray_from_qpolygonf(poly)
        points[:, 0] = x[a:b]
        points[:, 1] = y[a:b]
        out.append(poly)
    return out


class Traces(pg.GraphicsObject):  # type: ignore[misc]
    """Paints every series of one plot; its rectangle is the plot's window.

    The series keep their points in (time, value): a redraw that only adds the newest sample
    appends it and drops what left the window, and ``now``/``scale`` (in ``data_transform``)
    map time onto the x axis (seconds, minutes or hours ago) when painting."""

    def __init__(self) -> None:
        super().__init__()
        self.series: list[Series] = []
        self._rect = QRectF()
        self.clip = QRectF()  # where lines may be drawn (view coordinates); empty: anywhere
        self.now = 0.0
        self.scale = 1.0
        self.data_transform = QTransform()

    def set_now(self, now: float, scale: float) -> None:
        self.now, self.scale = now, scale
        self.data_transform = QTransform(1.0 / scale, 0.0, 0.0, 1.0, -now / scale, 0.0)

    def set_rect(self, rect: QRectF) -> None:
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, p: QPainter, _option: QStyleOptionGraphicsItem | None, _widget: QWidget | None = None) -> None:
        if not self.clip.isEmpty():
            p.setClipRect(self.clip, _INTERSECT)
        p.setTransform(self.data_transform, True)
        for s in self.series:
            if s.lines:
                p.setPen(s.pen)
                for line in s.lines:
                    p.drawPolyline(line)
