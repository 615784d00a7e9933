"""Every GPU's utilisation over a window as a heat map: one row per GPU (grouped by node), one
column per step of the Prometheus range query, a colour bar from 0 to 100 %.

Drawn with pyqtgraph's public API: an ``ImageItem`` in a ``PlotItem`` (time on the x axis, in
units "ago" like the rolling plots; node and GPU names as the left axis's ticks) and a
``ColorBarItem``. A step the server has no sample for (NaN) stays transparent, so a gap or a
GPU that came later shows as the plot's background, not as 0 %.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QRectF
from PySide6.QtWidgets import QWidget

from configurator.core.i18n import fill
from configurator.monitor.cluster import UtilHistory
from configurator.ui.i18n import translate
from configurator.ui.monitor.plots import time_unit
from configurator.ui.theme import colours, on_theme_change, style_plot

COLOUR_MAP = "viridis"  # perceptually uniform, readable in light and dark, and for colour-blind eyes
ROW_HEIGHT_PX = 16


class HeatMap(pg.PlotWidget):  # type: ignore[misc]
    """``show_history``: draw a :class:`UtilHistory`; ``rows``/``image_data``: what is drawn (for tests)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("clusterHeatMap")
        self.setMinimumHeight(160)
        item = self.getPlotItem()
        item.setMenuEnabled(False)
        item.hideButtons()
        item.setMouseEnabled(x=False, y=False)
        item.invertY(True)  # the first node's first GPU at the top, as the overview lists them
        item.showGrid(x=False, y=False)
        self.image = pg.ImageItem()
        item.addItem(self.image)
        self.bar = pg.ColorBarItem(values=(0, 100), colorMap=pg.colormap.get(COLOUR_MAP), interactive=False,
                                   width=14, label="%")
        self.bar.setImageItem(self.image, insert_in=item)
        self.separators: list[pg.InfiniteLine] = []  # between nodes
        self.empty = pg.TextItem(anchor=(0.5, 0.5))
        item.addItem(self.empty, ignoreBounds=True)
        self.rows: list[tuple[str, str]] = []
        self.image_data: npt.NDArray[np.float64] = np.empty((0, 0))
        self.history: UtilHistory | None = None
        self.window_s = 300.0
        self.restyle()
        on_theme_change(self.restyle)

    # -- texts and colours ---------------------------------------------------------------------
    def retranslate(self) -> None:
        self.getPlotItem().setTitle(translate("Monitor", "GPU utilisation over the window"), size="10pt",
                                    color=colours(self.palette()).plot_foreground)
        _scale, unit = time_unit(self.window_s)
        self.getPlotItem().getAxis("bottom").setLabel(fill(translate("Monitor", "{unit} ago"), unit=unit))
        self._show_empty_text()

    def restyle(self) -> None:
        if self.getPlotItem() is None:  # closed (pyqtgraph's close() lets go of the plot item)
            return
        c = colours(self.palette())
        style_plot(self, c)
        self.bar.axis.setPen(c.axis)
        self.bar.axis.setTextPen(c.plot_foreground)
        self.empty.setColor(c.muted_text)
        self.retranslate()
        if self.history is not None:  # the separators in the new background colour
            self.show_history(self.history, self.window_s)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange and getattr(self, "bar", None) is not None:
            self.retranslate()  # (pyqtgraph's constructor may send one before ours ran)
        super().changeEvent(event)

    # -- drawing -------------------------------------------------------------------------------
    def show_history(self, history: UtilHistory | None, window_s: float) -> None:
        """Draw ``history`` (None: nothing yet) over the last ``window_s``."""
        self.history = history
        self.window_s = window_s
        scale, unit = time_unit(window_s)
        item = self.getPlotItem()
        item.getAxis("bottom").setLabel(fill(translate("Monitor", "{unit} ago"), unit=unit))
        width = window_s / scale
        rows, data = history.rows() if history is not None else ([], np.empty((0, 0)))
        self.rows, self.image_data = rows, data
        left = item.getAxis("left")
        if not rows or data.shape[1] == 0 or history is None:
            self.image.clear()
            self._separate([])
            left.setTicks([[]])
            item.setXRange(-width, 0, padding=0)
            item.setYRange(0, 1, padding=0)
            self._show_empty_text()
            return
        self.empty.hide()
        step = history.step_s / scale
        end = history.times[-1]
        x0 = (history.times[0] - end) / scale - step / 2
        # col-major image[x, y]: columns of time along x, one GPU per y
        self.image.setImage(data.T, autoLevels=False, levels=(0, 100))
        self.image.setRect(QRectF(x0, 0, step * data.shape[1], len(rows)))
        left.setTicks([[(i + 0.5, self._row_label(rows, i)) for i in range(len(rows))]])
        self._separate([i for i in range(1, len(rows)) if rows[i][0] != rows[i - 1][0]])
        item.setXRange(-width, 0, padding=0)
        item.setYRange(0, len(rows), padding=0)
        self.setMinimumHeight(min(600, 70 + ROW_HEIGHT_PX * len(rows)))

    def _separate(self, at: list[int]) -> None:
        """A line in the background colour between one node's rows and the next's."""
        pen = pg.mkPen(colours(self.palette()).plot_background, width=3)
        while len(self.separators) > len(at):
            self.getPlotItem().removeItem(self.separators.pop())
        while len(self.separators) < len(at):
            line = pg.InfiniteLine(angle=0, movable=False)
            self.getPlotItem().addItem(line, ignoreBounds=True)
            self.separators.append(line)
        for line, y in zip(self.separators, at, strict=True):
            line.setPen(pen)
            line.setPos(y)

    def labels(self) -> list[str]:
        """The left axis's names of the rows, top to bottom."""
        return [self._row_label(self.rows, i) for i in range(len(self.rows))]

    @staticmethod
    def _row_label(rows: list[tuple[str, str]], i: int) -> str:
        host, gpu = rows[i]
        text = fill(translate("Monitor", "GPU {gpu}"), gpu=gpu)
        # the node's name on its first GPU's row only: the rows below it are its other GPUs
        return f"{host} · {text}" if i == 0 or rows[i - 1][0] != host else text

    def _show_empty_text(self) -> None:
        if self.rows and self.image_data.size:
            return
        self.empty.setText(translate("Monitor", "No GPU utilisation in this window yet") if self.history is not None
                           else translate("Monitor", "Waiting for the server's history…"))
        width = self.window_s / time_unit(self.window_s)[0]
        self.empty.setPos(-width / 2, 0.5)
        self.empty.show()
