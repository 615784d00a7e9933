"""A rolling time plot over a History ring (pyqtgraph, downsampling and clip-to-view on).

The x axis is time relative to the newest sample ("seconds/minutes/hours ago"),
so its range only changes when the user picks another window: a redraw moves
the curves, not the axes, which keeps the cost of a redraw low (no tick layout,
cached axis pictures).
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from configurator.monitor.ring import History
from configurator.ui.i18n import translate

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]


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
    def __init__(self, parent: QWidget | None = None, y_max: float = 100.0, height: int = 110):
        super().__init__(parent=parent, background="w", axisItems={"bottom": AgoAxis(orientation="bottom")})
        self.setMinimumHeight(height)
        self.setMaximumHeight(height + 60)
        item = self.getPlotItem()
        item.setDownsampling(auto=True, mode="peak")
        item.setClipToView(True)
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        item.showGrid(x=True, y=True, alpha=0.15)
        item.setMenuEnabled(False)
        item.getViewBox().disableAutoRange()
        self.y_max = y_max
        self.setYRange(0, y_max, padding=0.02)
        self.legend = item.addLegend(offset=(4, 2), labelTextSize="7pt", verSpacing=-8)
        self.curves: dict[str, pg.PlotDataItem] = {}
        for axis in ("left", "bottom"):
            item.getAxis(axis).setTextPen("#555")
            item.getAxis(axis).setStyle(tickFont=self.font())
        self._window: tuple[float, str] | None = None

    def curve(self, key: str, name: str, colour: str) -> Any:
        c = self.curves.get(key)
        if c is None:
            c = self.plot([], [], pen=pg.mkPen(colour, width=1.5), name=name)
            self.curves[key] = c
        return c

    def set_window(self, window_s: float) -> None:
        scale, unit = time_unit(window_s)
        if self._window != (window_s, unit):
            self._window = (window_s, unit)
            self.setXRange(-window_s / scale, 0, padding=0)
            self.getPlotItem().getAxis("bottom").setLabel(translate("Monitor", "{unit} ago").replace("{unit}", unit))

    def redraw(self, history: History, window_s: float, now: float) -> None:
        self.set_window(window_s)
        scale, _unit = time_unit(window_s)
        for key, c in self.curves.items():
            t, y = history.series(key, window_s, now)
            c.setData((t - now) / scale, y, connect="finite")
