"""A card per GPU, one for the host, one per remote host: current values and a rolling plot."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QPointF, QRect, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPen, QRegion
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from configurator.monitor.remote import RemoteSample, RemoteTarget
from configurator.monitor.ring import History
from configurator.monitor.snapshot import GpuSample, HostSample, reason_names
from configurator.ui.i18n import translate
from configurator.ui.monitor.fmt import fill, gib, na, num, percent, rate
from configurator.ui.monitor.plots import COLOURS, RollingPlot
from configurator.ui.theme import Colours, colours, series_colour


def reason_text(name: str) -> str:
    return {
        "gpu_idle": translate("Monitor", "idle"),
        "applications_clocks": translate("Monitor", "application clocks"),
        "sw_power_cap": translate("Monitor", "power cap"),
        "hw_slowdown": translate("Monitor", "hardware slowdown"),
        "sync_boost": translate("Monitor", "sync boost"),
        "sw_thermal": translate("Monitor", "thermal (software)"),
        "hw_thermal": translate("Monitor", "thermal (hardware)"),
        "hw_power_brake": translate("Monitor", "power brake"),
        "display_clocks": translate("Monitor", "display clocks"),
    }.get(name, name)


SWATCH_W = 16  # room for a plot-colour swatch before a name
_DIGITS_AS_ZERO = str.maketrans("123456789", "000000000")


class Cell:
    """One name or value of a card: text (and colour) kept here, painted by the card's ValuesPanel."""

    def __init__(self, panel: ValuesPanel, row: int, is_name: bool):
        self.panel = panel
        self.row = row
        self.is_name = is_name
        self._text = ""
        self.colour: str | None = None  # a colour of the theme's (``Colours`` field), or a colour name
        self.swatch: str | None = None  # a name's plot colour (one of COLOURS): the card's legend
        self._fitted: tuple[str, int, str] | None = None  # (text, width, what fits): eliding is not free
        self._advance: tuple[str, int] | None = None  # (the text with its digits as 0, its width in pixels)

    def text(self) -> str:
        return self._text

    def setText(self, text: str, colour: str | None = None) -> None:  # QLabel's spelling, so callers need not care
        """``colour``: a field of the theme's colours (``"warning"``), read when painted, or a colour name."""
        colour = colour or None
        if text != self._text or colour != self.colour:
            self._text = text
            self.colour = colour
            self.panel.changed(self)

    def forget_width(self) -> None:
        """After a font change."""
        self._fitted = self._advance = None

    def fitted(self, fm: QFontMetrics, width: int, tabular: bool = False) -> str:
        """The text, elided only when it does not fit (measuring is cheaper than eliding; with
        ``tabular`` digits, a value that changed only in its digits is as wide as before)."""
        if self._fitted is None or self._fitted[:2] != (self._text, width):
            text = self._text
            shape = text.translate(_DIGITS_AS_ZERO) if tabular else text
            if self._advance is None or self._advance[0] != shape:
                self._advance = (shape, fm.horizontalAdvance(text))
            if self._advance[1] > width:
                text = fm.elidedText(text, Qt.TextElideMode.ElideRight, width)
            self._fitted = (self._text, width, text)
        return self._fitted[2]


class ValuesPanel(QWidget):
    """The name/value rows of a card, painted by one widget, in two columns.

    Twenty QLabels per card re-laid out the whole Monitor tab on every change (each
    setText invalidates the layouts up to the scroll area). Here a changed value
    repaints only its own cell: the names, and values that stayed the same, are not
    drawn again. The cells' rectangles are worked out once per width and font.
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.rows: list[tuple[Cell, Cell]] = []
        self._name_w: int | None = None
        self._rects: tuple[int, list[tuple[QRect, QRect]]] | None = None  # (width, per row (name, value))
        self._pens: tuple[Colours, QBrush, tuple[QColor, QColor], dict[str, QColor]] | None = None
        self._font: tuple[QFont, QFontMetrics, float, bool] | None = None
        # The values changed since the last paint: when the paint is for exactly them (the usual
        # case), only they are visited, not every cell of the card.
        self._pending: dict[Cell, QRect] = {}
        self._pending_region = QRegion()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)  # the card beneath need not repaint with it

    def changed(self, cell: Cell) -> None:
        if cell.is_name:
            self._name_w = None  # a (re)translated name: measure the column again
            self._rects = None
            self.updateGeometry()
            self.update()
        else:
            rect = self._cell_rects()[cell.row][1]
            if cell not in self._pending:
                self._pending[cell] = rect
                self._pending_region += rect
            self.update(rect)

    def add_row(self) -> tuple[Cell, Cell]:
        i = len(self.rows)
        row = (Cell(self, i, True), Cell(self, i, False))
        self.rows.append(row)
        self._rects = None
        self.setFixedHeight(self._line() * ((len(self.rows) + 1) // 2) + 2)
        return row

    def _line(self) -> int:
        return self.fontMetrics().height() + 1

    def _name_width(self) -> int:
        if self._name_w is None:
            fm = self.fontMetrics()
            self._name_w = max((fm.horizontalAdvance(n.text()) + (SWATCH_W if n.swatch else 0)
                                for n, _v in self.rows), default=0) + 10
        return self._name_w

    def _cell_rects(self) -> list[tuple[QRect, QRect]]:
        """Per row, the rectangles of its name and its value (two rows to a line)."""
        width = self.width()
        if self._rects is None or self._rects[0] != width:
            half = width // 2
            name_w = max(90, min(half // 2, self._name_width()))
            line = self._line()
            rects = []
            for i in range(len(self.rows)):
                x, y = (i % 2) * half, (i // 2) * line
                rects.append((QRect(x, y, name_w, line), QRect(x + name_w, y, half - name_w, line)))
            self._rects = (width, rects)
        return self._rects[1]

    def minimumSizeHint(self) -> QSize:
        # Room for the widest typical value ("34.9 GiB of 48.0 GiB (72 %)") in each of the two columns.
        value_w = self.fontMetrics().horizontalAdvance("1,888 MHz / 10,501 MHz ·") + 6
        return QSize(2 * (self._name_width() + value_w), self._line() * ((len(self.rows) + 1) // 2) + 2)

    def sizeHint(self) -> QSize:
        return self.minimumSizeHint()

    def _colours(self) -> tuple[Colours, QBrush, tuple[QColor, QColor], dict[str, QColor]]:
        """(the scheme, the background, (names', values') colours, colours by name): made once
        a palette (a PaletteChange forgets them)."""
        if self._pens is None:
            palette = self.palette()
            c = colours(palette)
            self._pens = (c, QBrush(palette.window()), (QColor(c.muted_text), palette.windowText().color()), {})
        return self._pens

    def _colour(self, name: str) -> QColor:
        c, _background, _plain, named = self._colours()
        colour = named.get(name)
        if colour is None:
            semantic = getattr(c, name, None)
            colour = named[name] = QColor(semantic if isinstance(semantic, str) else name)
        return colour

    def paintEvent(self, event: QPaintEvent) -> None:
        region = event.region()  # the changed cells, not their bounding box
        if self._pending and region == self._pending_region:
            cells = list(self._pending.items())
        else:
            cells = [(cell, rect) for row, rects in zip(self.rows, self._cell_rects(), strict=True)
                     for cell, rect in zip(row, rects, strict=True) if region.intersects(rect)]
        self._pending, self._pending_region = {}, QRegion()
        p = QPainter(self)
        font, fm, baseline, tabular = self._text_font()
        p.setFont(font)
        c, background, plain, _named = self._colours()
        p.fillRect(event.rect(), background)
        for cell, rect in cells:
            if cell.swatch is not None:
                y = rect.center().y()
                p.setPen(QPen(self._colour(series_colour(cell.swatch, c)), 2))
                p.drawLine(rect.left() + 1, y, rect.left() + SWATCH_W - 5, y)
                rect = rect.adjusted(SWATCH_W, 0, 0, 0)
            p.setPen(self._colour(cell.colour) if cell.colour is not None else plain[not cell.is_name])
            # At its baseline, as drawText(rect, AlignVCenter) would put it, without the line
            # layout that form does (the text is already elided to fit).
            width = rect.width() - (4 if cell.is_name else 6)
            p.drawText(QPointF(rect.left(), rect.top() + baseline), cell.fitted(fm, width, tabular))
        p.end()

    def _text_font(self) -> tuple[QFont, QFontMetrics, float, bool]:
        """(font, its metrics, the baseline's offset in a line, whether its digits share one
        width), made once a font. The font is told not to shape text that needs no shaping
        (Latin, digits, Han): a third of the cost of drawing a value."""
        if self._font is None:
            font = QFont(self.font())
            font.setStyleStrategy(QFont.StyleStrategy.PreferNoShaping)
            fm = QFontMetrics(font)
            baseline = (self._line() - fm.height()) / 2 + fm.ascent()
            tabular = len({fm.horizontalAdvance(d) for d in "0123456789"}) == 1
            self._font = (font, fm, baseline, tabular)
        return self._font

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._pens = None
        if event.type() == QEvent.Type.FontChange:
            self._font = None
            self._name_w = None
            self._rects = None
            for cells in self.rows:
                for cell in cells:
                    cell.forget_width()
            self.setFixedHeight(self._line() * ((len(self.rows) + 1) // 2) + 2)
        super().changeEvent(event)


class Card(QFrame):
    """Title, a grid of name/value rows, a plot."""

    def __init__(self, parent: QWidget | None = None, legend: bool = False):
        super().__init__(parent)
        self._scheme = colours(self.palette())
        self.setObjectName("monitorCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.state = QLabel()
        self.state.setWordWrap(True)
        self.state.hide()
        self.panel = ValuesPanel()
        self.panel.setObjectName("values")
        self.names: dict[str, Cell] = {}
        self.values: dict[str, Cell] = {}
        self._inputs: dict[str, tuple[object, ...]] = {}
        self.plot = RollingPlot(self, legend=legend)
        self.vbox = QVBoxLayout(self)
        self.vbox.setContentsMargins(8, 6, 8, 6)
        self.vbox.setSpacing(3)
        self.vbox.addWidget(self.title)
        self.vbox.addWidget(self.state)
        self.vbox.addWidget(self.panel)
        self.vbox.addWidget(self.plot, 1)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            c = colours(self.palette())
            if c is not self._scheme:
                self._scheme = c
                self.retranslate()  # titles and states carry colours: written again in the new scheme
        super().changeEvent(event)

    def retranslate(self) -> None:
        """Texts in the current language (and colours of the current scheme)."""

    def faint(self) -> str:
        return colours(self.palette()).faint_text

    def row(self, key: str) -> None:
        self.names[key], self.values[key] = self.panel.add_row()

    def plot_line(self, row: str, series: str, colour: str) -> None:
        """A line of the plot (``series`` in the history), its colour shown beside row ``row``'s name."""
        self.plot.curve(series, "", colour)
        self.names[row].swatch = colour

    def set_title(self, text: str) -> None:
        """Rich text is re-parsed and re-laid out on every setText: only when it changed."""
        if self.title.text() != text:
            self.title.setText(text)

    def set(self, key: str, text: str, colour: str | None = None) -> None:
        self.values[key].setText(text, colour)

    def new_inputs(self, key: str, *inputs: object) -> bool:
        """Whether what a row is made from differs from last time (and remember it): a row
        whose numbers stayed the same is not formatted again. ``retranslate`` forgets them."""
        if self._inputs.get(key) == inputs:
            return False
        self._inputs[key] = inputs
        return True

    def set_state(self, text: str | None) -> None:
        """A line in the error colour under the title (None: hidden)."""
        if text:
            if self.state.text() != text:
                self.state.setText(text)
            style = f"color: {colours(self.palette()).error}; font-weight: bold;"
            if self.state.styleSheet() != style:
                self.state.setStyleSheet(style)
        if self.state.isHidden() == bool(text):
            self.state.setVisible(bool(text))


class GpuCard(Card):
    ROWS = ("util", "vram", "temp", "power", "fan", "clocks", "pcie", "pcie_rate", "throttle", "ecc")

    def __init__(self, gpu_id: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.gpu_id = gpu_id
        self.setObjectName(f"gpuCard_{gpu_id}")
        for key in self.ROWS:
            self.row(key)
        self.sample: GpuSample | None = None
        self.plot_line("util", f"gpu{gpu_id}.util", COLOURS[0])
        self.plot_line("vram", f"gpu{gpu_id}.mem", COLOURS[1])
        self.retranslate()

    def retranslate(self) -> None:
        self._inputs.clear()  # every row in the new language (or scheme)
        labels = {
            "util": translate("Monitor", "Utilisation"), "vram": translate("Monitor", "VRAM"),
            "temp": translate("Monitor", "Temperature"), "power": translate("Monitor", "Power"),
            "fan": translate("Monitor", "Fan"), "clocks": translate("Monitor", "Clocks SM / memory"),
            "pcie": translate("Monitor", "PCIe link"), "pcie_rate": translate("Monitor", "PCIe rx / tx"),
            "throttle": translate("Monitor", "Slowed by"), "ecc": translate("Monitor", "ECC errors"),
        }
        for key, text in labels.items():
            self.names[key].setText(text)
        if self.sample is not None:
            self.show_sample(self.sample)

    def show_sample(self, g: GpuSample) -> None:
        self.sample = g
        if self.new_inputs("title", g.id, g.name, g.uuid, g.mig_parent is not None):
            kind = translate("Monitor", "MIG device") if g.mig_parent is not None else translate("Monitor", "GPU")
            self.set_title(f"<b>{html.escape(kind)} {html.escape(g.id)}</b> · {html.escape(g.name)}"
                           f"<br><span style='color:{self.faint()}; font-size:small'>{html.escape(g.uuid)}</span>")
        if self.new_inputs("state", g.lost):
            self.set_state(translate("Monitor", "Lost: the GPU stopped answering. The monitor retries; "
                                                "the other GPUs go on.") if g.lost else None)
        if self.new_inputs("util", g.utilization_gpu_percent, g.utilization_memory_percent):
            self.set("util", fill(translate("Monitor", "{gpu} (memory {mem})"),
                                  gpu=percent(g.utilization_gpu_percent), mem=percent(g.utilization_memory_percent))
                     if g.utilization_gpu_percent is not None else na())
        if self.new_inputs("vram", g.memory_used_bytes, g.memory_total_bytes):
            self.set("vram", na() if g.memory_used_bytes is None else fill(
                translate("Monitor", "{used} of {total} ({percent})"), used=gib(g.memory_used_bytes),
                total=gib(g.memory_total_bytes), percent=percent(g.memory_percent)))
        if self.new_inputs("temp", g.temperature_c):
            self.set("temp", num(g.temperature_c, "°C"))
        if self.new_inputs("power", g.power_w, g.power_limit_w):
            power = num(g.power_w, "W")
            self.set("power", power if g.power_w is None or g.power_limit_w is None else fill(
                translate("Monitor", "{power} of {limit}"), power=power, limit=num(g.power_limit_w, "W")))
        if self.new_inputs("fan", g.fan_percent):
            self.set("fan", percent(g.fan_percent))
        if self.new_inputs("clocks", g.sm_clock_mhz, g.memory_clock_mhz):
            self.set("clocks", na() if g.sm_clock_mhz is None else
                     f"{num(g.sm_clock_mhz, 'MHz')} / {num(g.memory_clock_mhz, 'MHz')}")
        if self.new_inputs("pcie", g.pcie_gen, g.pcie_width, g.pcie_gen_max, g.pcie_width_max):
            if g.pcie_gen is None:
                self.set("pcie", na())
            else:
                link = f"Gen{g.pcie_gen} x{g.pcie_width if g.pcie_width is not None else '?'}"
                top = f"Gen{g.pcie_gen_max} x{g.pcie_width_max}" if g.pcie_gen_max is not None else na()
                text = fill(translate("Monitor", "{link} (max {max})"), link=link, max=top)
                # Amber when the link runs below what card and slot can do (a PCIe bottleneck suspect).
                self.set("pcie", text, "warning" if g.pcie_below_max else None)
        if self.new_inputs("pcie_rate", g.pcie_rx_bytes_per_s, g.pcie_tx_bytes_per_s):
            self.set("pcie_rate", na() if g.pcie_rx_bytes_per_s is None else
                     f"{rate(g.pcie_rx_bytes_per_s)} / {rate(g.pcie_tx_bytes_per_s)}")
        if self.new_inputs("throttle", g.throttle_reasons):
            names = [n for n in reason_names(g.throttle_reasons) if n != "gpu_idle"]
            self.set("throttle", na() if g.throttle_reasons is None else
                     (", ".join(reason_text(n) for n in names) if names else translate("Monitor", "nothing")))
        if self.new_inputs("ecc", g.ecc_uncorrected):
            self.set("ecc", na() if g.ecc_uncorrected is None else str(g.ecc_uncorrected))


class HostCard(Card):
    ROWS = ("cpu", "cores", "iowait", "load", "ram", "swap", "disk", "net", "training", "workers", "this_app")

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("hostCard")
        for key in self.ROWS:
            self.row(key)
        self.sample: HostSample | None = None
        self.plot_line("cpu", "host.cpu", COLOURS[0])
        self.plot_line("ram", "host.mem", COLOURS[1])
        self.plot_line("iowait", "host.iowait", COLOURS[3])
        self.retranslate()

    def retranslate(self) -> None:
        labels = {
            "cpu": translate("Monitor", "CPU (all cores)"), "cores": translate("Monitor", "Per core"),
            "iowait": translate("Monitor", "I/O wait"), "load": translate("Monitor", "Load 1 / 5 / 15 min"),
            "ram": translate("Monitor", "RAM"), "swap": translate("Monitor", "Swap"),
            "disk": translate("Monitor", "Disk read / write"), "net": translate("Monitor", "Network in / out"),
            "training": translate("Monitor", "Training process"), "workers": translate("Monitor", "DataLoader workers"),
            "this_app": translate("Monitor", "This app"),
        }
        for key, text in labels.items():
            self.names[key].setText(text)
        if self.sample is not None:
            self.show_sample(self.sample)

    def show_sample(self, h: HostSample) -> None:
        self.sample = h
        host = translate("Monitor", "Host")
        self.set_title(f"<b>{html.escape(host)}</b> · {html.escape(h.hostname)}")
        self.set("cpu", percent(h.cpu_percent))
        cores = h.per_cpu_percent
        self.set("cores", na() if not cores else fill(
            translate("Monitor", "{n} cores, {low}–{high} %"), n=len(cores), low=f"{min(cores):.0f}",
            high=f"{max(cores):.0f}"))
        self.set("iowait", percent(h.iowait_percent))
        self.set("load", na() if h.load_1m is None else f"{h.load_1m:.2f} / {h.load_5m:.2f} / {h.load_15m:.2f}")
        self.set("ram", na() if h.memory_used_bytes is None else fill(
            translate("Monitor", "{used} of {total} ({percent})"), used=gib(h.memory_used_bytes),
            total=gib(h.memory_total_bytes), percent=percent(h.memory_percent)))
        self.set("swap", na() if h.swap_used_bytes is None else fill(
            translate("Monitor", "{used} of {total}"), used=gib(h.swap_used_bytes), total=gib(h.swap_total_bytes)))
        self.set("disk", f"{rate(h.disk_read_bytes_per_s)} / {rate(h.disk_write_bytes_per_s)}")
        self.set("net", f"{rate(h.net_rx_bytes_per_s)} / {rate(h.net_tx_bytes_per_s)}")
        t = h.training
        if t is None:
            self.set("training", translate("Monitor", "none on a GPU"))
            self.set("workers", na())
        else:
            self.set("training", fill(translate("Monitor", "{name} (PID {pid}), {cpu} of a core"),
                                      name=t.name, pid=t.pid, cpu=percent(t.cpu_percent)))
            self.set("workers", fill(translate("Monitor", "{n}, {cpu} of a core each on average"), n=t.workers,
                                     cpu=percent(sum(t.workers_cpu_percent) / t.workers if t.workers else None)))


class RemoteCard(Card):
    def __init__(self, target: RemoteTarget, parent: QWidget | None = None):
        super().__init__(parent, legend=True)  # its GPUs come and go with the scrapes: a legend names them
        self.target = target
        self.setObjectName("remoteCard")
        self.row("cpu")
        self.row("ram")
        self.gpu_labels = QLabel()
        self.gpu_labels.setTextFormat(Qt.TextFormat.RichText)
        self.gpu_labels.setWordWrap(True)
        self.vbox.insertWidget(3, self.gpu_labels)
        self.remove = QPushButton()
        self.remove.setObjectName("removeRemote")
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.remove)
        self.vbox.removeWidget(self.title)
        self.vbox.insertLayout(0, head)
        self.plot.curve("host.cpu", "CPU %", COLOURS[0])
        self.retranslate()

    @property
    def history(self) -> History:
        return self.target.history

    def retranslate(self) -> None:
        self.names["cpu"].setText(translate("Monitor", "CPU (all cores)"))
        self.names["ram"].setText(translate("Monitor", "RAM"))
        self.remove.setText(translate("Monitor", "Remove"))
        self.remove.setToolTip(translate("Monitor", "Stop watching this host"))
        self.show_sample(self.target.latest)

    def show_sample(self, s: RemoteSample | None) -> None:
        url = html.escape(self.target.url)
        if s is None:
            remote = translate("Monitor", "Remote")
            self.set_title(f"<b>{html.escape(remote)}</b> · {url}")
        else:
            kinds = ", ".join(s.kinds)
            self.set_title(f"<b>{html.escape(s.hostname)}</b> · "
                           f"<span style='color:{self.faint()}'>{url} ({kinds})</span>")
        err = self.target.error
        if err is None:
            self.set_state(None)
        else:
            self.set_state(fill(translate("Monitor", "{error} · {n} failed tries; the next in {seconds} s"),
                                error=err.render(translate), n=self.target.failures,
                                seconds=f"{self.target.backoff_s:.0f}"))
        if s is None:
            self.set("cpu", na())
            self.set("ram", na())
            self.gpu_labels.setText(translate("Monitor", "No data yet: the host has not answered.")
                                    if self.target.failures else translate("Monitor", "Waiting for the first scrape…"))
            return
        self.set("cpu", percent(s.cpu_percent) if s.cpu_percent is not None else
                 translate("Monitor", "n/a (needs two scrapes)") if "node" in s.kinds else na())
        self.set("ram", na() if s.memory_used_bytes is None else fill(
            translate("Monitor", "{used} of {total} ({percent})"), used=gib(s.memory_used_bytes),
            total=gib(s.memory_total_bytes), percent=percent(s.memory_percent)))
        rows = []
        for i, g in enumerate(s.gpus):
            self.plot.curve(f"gpu{g.id}.util", f"GPU {g.id} %", COLOURS[(i + 1) % len(COLOURS)])
            rows.append(fill(translate("Monitor", "GPU {gpu} {name}: {util} busy, VRAM {mem}, {temp}, {power}"),
                             gpu=html.escape(g.id), name=html.escape(g.name), util=percent(g.utilization_percent),
                             mem=percent(g.memory_percent), temp=num(g.temperature_c, "°C"), power=num(g.power_w, "W")))
        self.gpu_labels.setText("<br>".join(rows) if rows else translate("Monitor", "No GPU metrics on this page."))
