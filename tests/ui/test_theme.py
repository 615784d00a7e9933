"""Light and dark: the scheme the app picks, its palette, and widgets that follow a live switch."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication

from configurator.app import Services, build_services, build_window
from configurator.ui.main_window import MainWindow
from configurator.ui.monitor import MonitorTab
from configurator.ui.planner.tab import PlannerTab
from configurator.ui.theme import DARK, ENV_VAR, LIGHT, ThemeManager, colours, requested_scheme, setup_theme


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

    m.apply("dark")
    qapp.processEvents()
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

    m.apply("light")
    qapp.processEvents()
    assert plot.backgroundBrush().color() == QColor(LIGHT.plot_background) == plot_corner()
    assert name_cell_ink(panel.grab().toImage(), panel.width(), line) < 0.45
    assert axis.textPen().color() == QColor(LIGHT.plot_foreground)
