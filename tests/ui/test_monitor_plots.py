"""The rolling plots: what a long window shows, and what it costs to redraw."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QEvent, QObject, QRect
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QWidget

from configurator.monitor.ring import History
from configurator.ui.monitor.plots import COLOURS, RollingPlot
from configurator.ui.monitor.traces import peak_downsample, polylines


def shown_plot(qtbot, size: tuple[int, int], *keys: str, **kwargs: object) -> RollingPlot:  # type: ignore[no-untyped-def]
    """A plot of ``size`` on screen, with a line for each of ``keys``."""
    plot = RollingPlot(**kwargs)  # type: ignore[arg-type]
    qtbot.addWidget(plot)
    plot.resize(*size)
    plot.show()
    qtbot.waitExposed(plot)
    for key in keys:
        plot.curve(key, key, COLOURS[0])
    return plot


def test_peak_downsampling_keeps_spikes_dips_and_gaps() -> None:
    x = np.arange(10_000, dtype=float)
    y = np.full(10_000, 50.0)
    y[1234] = 99.0  # a one-sample spike
    y[8765] = 1.0  # and a dip
    y[5000:5300] = np.nan  # the GPU was lost for a while
    dx, dy = peak_downsample(x, y, 100)
    assert len(dx) <= 200 and len(dx) == len(dy)
    assert np.nanmax(dy) == 99.0 and np.nanmin(dy) == 1.0
    assert np.isnan(dy).any()  # the gap stays a gap, not a line across it
    assert dx[-1] >= 9_900  # the newest samples are kept whole
    short_x, short_y = peak_downsample(x[:150], y[:150], 100)  # fewer than two a column: unchanged
    assert np.array_equal(short_x, x[:150]) and np.array_equal(short_y, y[:150])


def test_long_window_shows_a_one_second_spike_and_short_one_clips(qtbot) -> None:  # type: ignore[no-untyped-def]
    plot = RollingPlot()
    qtbot.addWidget(plot)
    plot.resize(600, 140)
    plot.show()
    curve = plot.curve("gpu0.util", "busy %", COLOURS[0])
    assert plot.getPlotItem().getAxis("left").labelText == "%"  # the y axis names its unit
    history = History(1.0, full_seconds=600, total_seconds=6 * 3600)
    n = 5 * 3600
    for i in range(n):
        history.append(float(i), {"gpu0.util": 97.0 if i == 3000 else 20.0})
    now = float(n - 1)

    plot.redraw(history, 6 * 3600, now)  # hours: min/max buckets, reduced to the plot's width
    x, y = curve.getData()
    assert len(x) <= 2 * max(1, int(plot.getPlotItem().getViewBox().width())) + 2
    assert y.max() == pytest.approx(97.0) and y.min() == pytest.approx(20.0)

    plot.redraw(history, 60, now)  # one minute: full resolution, only what is in the window
    x, y = curve.getData()
    assert len(x) == 61 and x.min() >= -60 and x.max() == 0
    assert math.isclose(float(y[-1]), 20.0)


def test_a_gap_breaks_the_line_and_the_pixels_show_it(qtbot) -> None:  # type: ignore[no-untyped-def]
    """While a GPU was lost there is no line across its gap, and the line on either side is drawn."""
    x = np.arange(10, dtype=float)
    y = np.array([10, 20, 30, np.nan, np.nan, 40, 50, np.nan, 60, 70], dtype=float)
    runs = [[(p.x(), p.y()) for p in line] for line in polylines(x, y)]
    assert runs == [[(0, 10), (1, 20), (2, 30)], [(5, 40), (6, 50)], [(8, 60), (9, 70)]]
    assert len(polylines(x[:1], y[:1])) == 0 and len(polylines(x[:3], np.full(3, np.nan))) == 0
    assert len(polylines(np.array([0.0, 1.0, 2.0]), np.array([np.nan, 5.0, np.nan]))) == 0  # a lone point

    plot = shown_plot(qtbot, (400, 160), "gpu0.util", height=120)
    history = History(1.0)
    for i in range(60):
        lost = 20 <= i < 40
        history.append(float(i), {"gpu0.util": None if lost else 50.0})
    plot.redraw(history, 60, 59.0)
    image = plot.grab().toImage()
    view = plot.getPlotItem().getViewBox()
    line_y = int(plot.mapFromScene(view.mapViewToScene(pg.Point(0, 50.0))).y())

    def drawn(t: float) -> bool:
        x = int(plot.mapFromScene(view.mapViewToScene(pg.Point(t, 50.0))).x())
        colour = QColor(COLOURS[0])
        return any(abs(image.pixelColor(x, line_y + d).red() - colour.red()) < 40
                   and abs(image.pixelColor(x, line_y + d).blue() - colour.blue()) < 40 for d in (-1, 0, 1))

    assert drawn(-50) and drawn(-10)  # before and after the gap
    assert not drawn(-29)  # in the middle of the gap: nothing


def test_a_redraw_that_adds_samples_draws_what_reading_the_whole_window_draws(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Between two snapshots a redraw adds the newest samples to the lines and drops those that
    left the window, instead of reading the window again; it must draw exactly the same lines
    (gaps, lone points between gaps, two samples at once, another window or interval)."""
    keys = ["a", "b"]
    plot = shown_plot(qtbot, (600, 140), *keys, legend=False)
    history = History(1.0)
    rng = np.random.default_rng(7)
    read_whole = []
    columns = history.columns

    def spied(*args, **kwargs):  # type: ignore[no-untyped-def]
        read_whole.append(1)
        return columns(*args, **kwargs)

    history.columns = spied  # type: ignore[method-assign]

    def same_as_whole(step: int, window: float, now: float) -> None:
        plot.redraw(history, window, now)
        times, values = History.columns(history, keys, window, now)
        for j, k in enumerate(keys):
            drawn = [[(p.x(), p.y()) for p in line] for line in plot.curves[k].lines]
            expected = [[(p.x(), p.y()) for p in line] for line in polylines(times, values[:, j])]
            assert drawn == expected, (step, k)

    t = 1000.0
    for i in range(500):
        for _ in range(2 if i % 11 == 5 else 1):  # now and then two samples between redraws
            # Whole seconds (a sample exactly at the window's edge), then a late sampler's jitter.
            t += 1.0 + (rng.uniform(-0.02, 0.02) if 200 <= i < 350 else 0.0)
            a = None if rng.random() < 0.2 else float(rng.uniform(0, 100))  # gaps, lone points
            # A GPU lost for longer than the window, a lone sample before: it must not come back.
            b = None if i == 148 or 150 <= i < 240 else float(rng.uniform(0, 100))
            history.append(t, {"a": a, "b": b})
        window = 300 if 300 <= i < 320 else 60
        if i == 400:
            history.set_interval(0.5)  # resized: read again
        same_as_whole(i, window, t)
    # A remote host that stops answering: its plot is redrawn with the local time, no new rows,
    # until its samples (a lone one last) have all left the window; then it answers again.
    history.append(t + 1, {"a": None, "b": None})
    history.append(t + 2, {"a": 5.0, "b": 7.0})
    for i in range(80):
        same_as_whole(500 + i, 60, t + 2 + i)
    for i in range(5):
        history.append(t + 83 + i, {"a": 6.0, "b": 8.0})
        same_as_whole(600 + i, 60, t + 83 + i)
    assert len(read_whole) < 50  # the window was read again only when it had to be
    x, y = plot.curves["b"].getData()
    assert x.max() == 0 and x.min() >= -60 and not np.isnan(y[-1])


def test_past_two_samples_a_pixel_column_a_redraw_reduces_to_peaks_as_a_whole_one_does(qtbot) -> None:  # type: ignore[no-untyped-def]
    """At the edge: a window holding one sample more than two a column is drawn as its peaks,
    whether the redraw extends the lines or reads the whole window."""
    plot = shown_plot(qtbot, (200, 140), "a", legend=False)
    columns = plot._redraw_area().width()
    window = 2.0 * columns  # whole seconds: the oldest sample sits on the window's edge
    history = History(1.0)
    for i in range(int(window) + 40):
        history.append(float(i), {"a": float(i % 7)})
        plot.redraw(history, window, float(i))
        times, values = History.columns(history, ["a"], window, float(i))
        expected = polylines(*peak_downsample(times, values[:, 0], columns))
        assert [list(line) for line in plot.curves["a"].lines] == [list(line) for line in expected], i


def test_a_redraw_repaints_the_view_box_through_pyqtgraph_alone(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Stock parts: nothing is laid over pyqtgraph's viewport, and a redraw repaints the view box
    (less the axes' pixels), where the lines are, not the axes around it."""
    plot = shown_plot(qtbot, (500, 140), "a", legend=False)
    history = History(1.0)
    for i in range(30):
        history.append(float(i), {"a": 40.0})
    plot.redraw(history, 60, 29.0)
    assert plot.viewport().findChildren(QWidget) == []
    painted: list[QRect] = []

    class Watch(QObject):
        def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                painted.append(event.rect())  # type: ignore[attr-defined]
            return False

    watch = Watch(plot)
    plot.viewport().installEventFilter(watch)
    plot.viewport().update()
    qtbot.waitUntil(lambda: bool(painted), timeout=2000)  # the first redraw's range and axes, painted
    for _ in range(3):  # and whatever the scene had queued (its dirty-item pass is an event too)
        QApplication.processEvents()
    painted.clear()
    history.append(30.0, {"a": 60.0})
    plot.redraw(history, 60, 30.0)
    qtbot.waitUntil(lambda: bool(painted), timeout=2000)
    view = plot.mapFromScene(plot.getPlotItem().getViewBox().sceneBoundingRect()).boundingRect()
    near = view.adjusted(-2, -2, 2, 2)  # (the view box reaches a pixel past the viewport's edge)
    assert all(near.contains(rect) for rect in painted), (view, painted)
    assert painted[-1].width() < plot.viewport().width()
