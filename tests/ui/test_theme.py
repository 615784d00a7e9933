"""Light and dark: the scheme the app picks, its palette, and widgets that follow a live switch."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication, QWidget

import configurator.ui
from configurator.app import Services, build_services, build_window
from configurator.monitor.snapshot import GpuSample
from configurator.ui.main_window import MainWindow
from configurator.ui.monitor import MonitorTab
from configurator.ui.monitor.cards import GpuCard
from configurator.ui.monitor.heatmap import HeatMap
from configurator.ui.planner.tab import PlannerTab
from configurator.ui.theme import (
    DARK,
    ENV_VAR,
    LIGHT,
    Colours,
    ThemeManager,
    colours,
    on_theme_change,
    requested_scheme,
    setup_theme,
)


@pytest.fixture
def managers(qapp) -> Iterator[list[ThemeManager]]:  # type: ignore[no-untyped-def]
    """Theme managers made by a test; afterwards the app has the platform's look again."""
    made: list[ThemeManager] = []
    yield made
    for m in made:
        m.reset()
    qapp.processEvents()
    assert not colours().dark


def manager(qapp: QApplication, managers: list[ThemeManager], override: str | None) -> ThemeManager:
    m = ThemeManager(qapp, override)
    managers.append(m)
    return m


def lightness(colour: QColor) -> float:
    return colour.lightnessF()


def test_scheme_from_override_system_and_palette() -> None:
    unknown, dark, light = Qt.ColorScheme.Unknown, Qt.ColorScheme.Dark, Qt.ColorScheme.Light
    assert requested_scheme("dark", light, False) == "dark"
    assert requested_scheme(" Light ", dark, True) == "light"
    assert requested_scheme(None, dark, False) == "dark"
    assert requested_scheme("auto", light, True) == "light"
    assert requested_scheme("purple", dark, False) == "dark"  # not a scheme: the system's
    assert requested_scheme(None, unknown, False) == "light"  # nothing known: light
    assert requested_scheme("", unknown, True) == "dark"  # … unless the platform's palette is dark


def test_dark_override_gives_a_dark_palette_and_light_text(qapp, managers, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(ENV_VAR, "dark")
    m = setup_theme(qapp)
    managers.append(m)
    qapp.processEvents()
    pal = qapp.palette()
    assert m.scheme == "dark"
    assert lightness(pal.color(QPalette.ColorRole.Window)) < 0.3
    assert lightness(pal.color(QPalette.ColorRole.Base)) < 0.3
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        assert lightness(pal.color(role)) > 0.8
    assert colours() is DARK


def test_light_override_gives_a_light_palette_and_dark_text(qapp, managers, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(ENV_VAR, "light")
    m = setup_theme(qapp)
    managers.append(m)
    assert m.scheme == "light"
    pal = qapp.palette()
    assert lightness(pal.color(QPalette.ColorRole.Window)) > 0.7
    assert lightness(pal.color(QPalette.ColorRole.WindowText)) < 0.3
    assert colours() is LIGHT


def test_unknown_scheme_is_light(qapp, managers, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert qapp.styleHints().colorScheme() == Qt.ColorScheme.Unknown  # offscreen reports none
    m = setup_theme(qapp)
    managers.append(m)
    assert m.scheme == "light" and not m.fusion and colours() is LIGHT


def test_switching_back_restores_the_platform_look(qapp, managers) -> None:  # type: ignore[no-untyped-def]
    style = qapp.style().name()
    before = qapp.palette().color(QPalette.ColorRole.Window)
    m = manager(qapp, managers, None)
    assert m.apply("dark") == "dark" and m.fusion
    assert m.apply("light") == "light" and not m.fusion
    assert qapp.style().name() == style and qapp.palette().color(QPalette.ColorRole.Window) == before


def test_severity_colours_read_on_both_backgrounds() -> None:
    def luminance(name: str) -> float:
        c = QColor(name)
        channels = []
        for v in (c.redF(), c.greenF(), c.blueF()):
            channels.append(v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4)
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]

    def contrast(a: str, b: str) -> float:
        la, lb = sorted((luminance(a), luminance(b)), reverse=True)
        return (la + 0.05) / (lb + 0.05)

    for c, window in ((LIGHT, "#efefef"), (DARK, "#323232")):
        for fg in (c.error, c.warning, c.ok, c.info, c.text, c.muted_text):
            assert contrast(fg, window) >= 4.0, (c.dark, fg)
            assert contrast(fg, c.plot_background) >= 4.0, (c.dark, fg)
        assert contrast(c.warning_fg, c.warning_bg) >= 4.5 and contrast(c.error_fg, c.error_bg) >= 4.5
        assert contrast(c.plot_foreground, c.plot_background) >= 4.5
    assert len(DARK.series) == len(LIGHT.series)


class Probe(QWidget):
    """A widget that follows the theme the one way, noting the scheme of its palette each time."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[Colours] = []
        on_theme_change(self.restyle)

    def restyle(self) -> None:
        self.seen.append(colours(self.palette()))


def test_a_switch_is_announced_once_when_every_widget_has_its_palette(qtbot, qapp, managers) -> None:  # type: ignore[no-untyped-def]
    m = manager(qapp, managers, None)
    m.apply("light")
    probe, later = Probe(), Probe()
    qtbot.addWidget(probe)
    qtbot.addWidget(later)
    m.apply("dark")  # Fusion and its palette: a style and a palette set, one notice
    assert probe.seen == [DARK] and later.seen == [DARK]  # without a turn of the event loop
    m.apply("dark")
    m.apply()  # nothing forced: the scheme shown stays (offscreen reports none)
    assert probe.seen == [DARK]
    m.apply("light")
    assert probe.seen == [DARK, LIGHT] and later.seen == [DARK, LIGHT]
    later.deleteLater()
    qapp.processEvents()  # a deleted widget is no longer called
    m.apply("dark")
    assert probe.seen == [DARK, LIGHT, DARK]


def _gpu(uuid: str) -> GpuSample:
    return GpuSample(0, "0", "RTX 3090", uuid, utilization_gpu_percent=40.0, memory_used_bytes=2 << 30,
                     memory_total_bytes=24 << 30, temperature_c=61.0, power_w=200.0, power_limit_w=350.0)


def _card_colours(card: GpuCard) -> dict[str, object]:
    """What the card computed from its palette: the plot's background, axes and lines, the
    title's faint UUID, the value names' colour."""
    plot = card.plot
    axis = plot.getPlotItem().getAxis("left")
    uuid = re.search(r"color:(#[0-9a-f]{6})[^>]*>GPU-5", card.title.text())
    return {
        "background": plot.backgroundBrush().color().name(),
        "axis": axis.pen().color().name(),
        "ticks": axis.textPen().color().name(),
        "lines": [s.pen.color().name() for s in plot.curves.values()],
        "uuid": uuid.group(1) if uuid else None,
        "names": card.names["util"].palette().color(QPalette.ColorRole.WindowText).name(),
    }


def _expected_card(c: Colours) -> dict[str, object]:
    return {"background": c.plot_background, "axis": c.axis, "ticks": c.plot_foreground,
            "lines": list(c.series[:2]), "uuid": c.faint_text, "names": c.muted_text}


def test_switching_restyles_cards_plots_and_the_heat_map(qtbot, qapp, managers) -> None:  # type: ignore[no-untyped-def]
    m = manager(qapp, managers, None)
    m.apply("light")
    card = GpuCard("0")
    qtbot.addWidget(card)
    card.show_sample(_gpu("GPU-5"))
    heat = HeatMap()
    qtbot.addWidget(heat)
    bar_axis = heat.bar.axis
    assert _card_colours(card) == _expected_card(LIGHT)

    for c in (DARK, LIGHT, DARK):
        m.apply("dark" if c.dark else "light")
        assert _card_colours(card) == _expected_card(c)
        assert heat.backgroundBrush().color().name() == c.plot_background
        assert heat.getPlotItem().getAxis("bottom").textPen().color().name() == c.plot_foreground
        assert (bar_axis.pen().color().name(), bar_axis.textPen().color().name()) == (c.axis, c.plot_foreground)
        assert heat.empty.color.name() == c.muted_text


def test_no_widget_follows_the_palette_its_own_way() -> None:
    """Theme changes reach widgets through on_theme_change only (theme.py's docstring)."""
    root = Path(configurator.ui.__file__).parent
    own = [str(p.relative_to(root)) for p in sorted(root.rglob("*.py"))
           if p.name != "theme.py" and re.search(r"QEvent\.Type\.(PaletteChange|StyleChange|ApplicationPaletteChange)",
                                                 p.read_text(encoding="utf-8"))]
    assert own == []


@pytest.fixture
def monitor_services(qapp, db_path: Path, settings: QSettings) -> Iterator[Services]:  # type: ignore[no-untyped-def]
    s = build_services(argparse.Namespace(db=str(db_path), lang="en", fake_gpus=2), settings)
    yield s
    s.close()


def name_cell_ink(image: QImage, width: int, height: int) -> float:
    """The lightness of the text in the top-left name cell that differs most from its background."""
    background = lightness(image.pixelColor(width - 2, height - 2))
    best = background
    for x in range(18, min(width, 90)):  # past the swatch
        for y in range(height):
            v = lightness(image.pixelColor(x, y))
            if abs(v - background) > abs(best - background):
                best = v
    return best


def test_live_switch_repaints_plots_cards_and_planner(qtbot, qapp, managers, monitor_services) -> None:  # type: ignore[no-untyped-def]
    m = manager(qapp, managers, None)
    m.apply("light")
    window: MainWindow = build_window(monitor_services)
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    qtbot.waitExposed(window)
    tab = next(t for t, _title in window.extra_tabs if isinstance(t, MonitorTab))
    tab.service.sampler.set_interval(0.05)
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: len(tab.cards.gpu_cards) == 2 and tab.latest is not None
                    and tab.cards.host_card.sample is tab.latest.host, timeout=5000)
    card = tab.cards.gpu_cards["0"]
    plot, panel = card.plot, card.panel
    line = panel.fontMetrics().height() + 1

    def plot_corner() -> QColor:
        return plot.grab().toImage().pixelColor(1, plot.height() - 2)

    assert plot.backgroundBrush().color() == QColor(LIGHT.plot_background) == plot_corner()
    light_ink = name_cell_ink(panel.grab().toImage(), panel.width(), line)
    assert light_ink < 0.45  # dark grey names on a light card
    assert LIGHT.faint_text in card.title.text()

    m.apply("dark")  # restyled when it returns (on_theme_change)
    assert plot.backgroundBrush().color() == QColor(DARK.plot_background) == plot_corner()
    assert plot._colours is DARK and all(s.pen.color() == QColor(DARK.series[i])
                                         for i, s in enumerate(plot.curves.values()))
    assert lightness(panel.palette().color(QPalette.ColorRole.Window)) < 0.3
    image = panel.grab().toImage()
    assert lightness(image.pixelColor(panel.width() - 2, line - 2)) < 0.3  # the card is dark …
    assert name_cell_ink(image, panel.width(), line) > 0.6  # … and its names light
    assert DARK.faint_text in card.title.text()

    planner = window.tabs.widget(0)
    assert isinstance(planner, PlannerTab)
    axis = planner.chart.getPlotItem().getAxis("left")
    assert axis.textPen().color() == QColor(DARK.plot_foreground)

    m.apply("light")  # restyled when it returns (on_theme_change)
    assert plot.backgroundBrush().color() == QColor(LIGHT.plot_background) == plot_corner()
    assert name_cell_ink(panel.grab().toImage(), panel.width(), line) < 0.45
    assert axis.textPen().color() == QColor(LIGHT.plot_foreground)
