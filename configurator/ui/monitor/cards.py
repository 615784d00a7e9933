"""A card per GPU, one for the host, one per remote host: current values and a rolling plot."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from configurator.core.i18n import fill
from configurator.monitor.remote import RemoteSample, RemoteTarget
from configurator.monitor.ring import History
from configurator.monitor.snapshot import GpuSample, HostSample, reason_names
from configurator.ui.i18n import translate
from configurator.ui.monitor.fmt import gib, na, num, percent, rate
from configurator.ui.monitor.plots import COLOURS, RollingPlot
from configurator.ui.monitor.values_panel import Cell, ValuesPanel
from configurator.ui.theme import colours, on_theme_change


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


class Card(QFrame):
    """Title, a grid of name/value rows, a plot."""

    def __init__(self, parent: QWidget | None = None, legend: bool = False):
        super().__init__(parent)
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
        on_theme_change(self.retranslate)  # titles and states carry colours: written again in the new scheme

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
