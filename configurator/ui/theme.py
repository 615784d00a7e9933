"""Light and dark: the app follows the system's colour scheme, live.

How the scheme is chosen (:func:`requested_scheme`):

1. ``CONFIGURATOR_THEME=light`` or ``CONFIGURATOR_THEME=dark`` in the environment forces that
   scheme (for screenshots, tests, and desktops that do not report a scheme); ``auto`` or
   unset follows the system. Any other value is ignored (with a warning in the log).
   Without it, the user's choice in View → Colour scheme (light, dark, or follow the system;
   kept in the settings under :data:`SETTINGS_KEY`, :meth:`ThemeManager.choose`).
2. Otherwise Qt's ``QStyleHints.colorScheme()``: ``Dark`` or ``Light``.
3. ``Unknown`` (no platform theme, e.g. plain X11 or offscreen): dark only when the palette
   the platform gave us is already dark, else light.

How it is applied (:class:`ThemeManager`): where the platform style already draws the wanted
scheme (Windows 11, macOS, KDE Breeze, GTK with a dark palette …) its style and palette are
kept; a forced scheme is first asked of the platform (``QStyleHints.setColorScheme``). Where
the platform's palette does not match (Fusion without a platform theme, offscreen, a forced
scheme the platform cannot switch to), the app uses the Fusion style with its own palette
(:func:`make_palette`). ``styleHints().colorSchemeChanged`` re-applies it while the app runs.

How widgets follow it (one way): they never hard-code a colour; they ask :func:`colours` for
the semantic colours of the palette they are drawn with, when they paint or refresh. What they
cache (pyqtgraph backgrounds and pens, style sheets, rich text) they refresh in a slot given to
:func:`on_theme_change` in their constructor, ``on_theme_change(self.restyle)``: it is called
once after each switch between light and dark (:meth:`ThemeManager.apply`, or the system's
scheme changing), when every widget already has the new palette. Widgets do not override
``changeEvent`` for ``QEvent.PaletteChange``; what draws from the palette in ``paintEvent`` or
an item model's ``data()`` needs nothing, Qt repaints it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleOption, QWidget

log = logging.getLogger(__name__)

ENV_VAR = "CONFIGURATOR_THEME"
SETTINGS_KEY = "ui/theme"  # the View menu's choice: "system", "light" or "dark"
CHOICES = ("system", "light", "dark")
Scheme = Literal["light", "dark"]


@dataclass(frozen=True)
class Colours:
    """The UI's semantic colours for one scheme, as ``#rrggbb`` names (for QColor, style sheets,
    rich text and pyqtgraph alike)."""

    dark: bool
    text: str  # text drawn on a plot or on the window outside the palette's reach
    muted_text: str  # secondary text: value names, notes
    faint_text: str  # tertiary text: UUIDs, cleared alerts
    plot_background: str
    plot_foreground: str  # axis tick labels and titles on plots
    axis: str  # axis lines
    grid_major: str
    grid_minor: str
    error: str  # severity colours for text on the window or a plot
    warning: str
    ok: str
    info: str
    error_fill: str  # bars and boxes (white text on them stays readable)
    warning_fill: str
    ok_fill: str
    neutral_fill: str
    on_fill: str  # text on a fill
    accent: str  # "this build" among others
    track: str  # the empty part of a bar
    outline: str  # slot outlines
    warning_bg: str  # banners
    warning_fg: str
    error_bg: str
    error_fg: str
    series: tuple[str, ...]  # plot lines, matching LIGHT.series index by index


LIGHT = Colours(
    dark=False,
    text="#1f2328", muted_text="#555555", faint_text="#6e7781",
    plot_background="#ffffff", plot_foreground="#444444", axis="#888888",
    grid_major="#dedede", grid_minor="#f0f0f0",
    error="#cf222e", warning="#9a6700", ok="#1a7f37", info="#0969da",
    error_fill="#c0392b", warning_fill="#d68910", ok_fill="#27ae60", neutral_fill="#95a5a6", on_fill="#ffffff",
    accent="#2e86c1", track="#dcdcdc", outline="#a0a0a0",
    warning_bg="#fff4e5", warning_fg="#8a4b00", error_bg="#fdecea", error_fg="#b00020",
    series=("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"),
)

DARK = Colours(
    dark=True,
    text="#e6e6e6", muted_text="#b4b4b4", faint_text="#8f8f8f",
    plot_background="#202020", plot_foreground="#c8c8c8", axis="#8a8a8a",
    grid_major="#3e3e3e", grid_minor="#2c2c2c",
    error="#ff7b72", warning="#e3b341", ok="#3fb950", info="#58a6ff",
    error_fill="#da3633", warning_fill="#b7791f", ok_fill="#2e8b47", neutral_fill="#6e7681", on_fill="#ffffff",
    accent="#4a9fd8", track="#4a4a4a", outline="#7a7a7a",
    warning_bg="#3d2f12", warning_fg="#f2cc60", error_bg="#462022", error_fg="#ffa198",
    series=("#4e9fdc", "#ff6b6b", "#5cc85c", "#ffa54f", "#b392f0", "#c9977f", "#f59fd6", "#39d0e0"),
)


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightnessF() < 0.5


_SCHEMES: dict[int, Colours] = {}  # by QPalette.cacheKey(): the monitor asks on every redraw


def colours(palette: QPalette | None = None) -> Colours:
    """The semantic colours for ``palette`` (a widget's), or the application's palette."""
    palette = palette if palette is not None else QGuiApplication.palette()
    key = palette.cacheKey()  # changes whenever the palette's colours do
    c = _SCHEMES.get(key)
    if c is None:
        if len(_SCHEMES) > 256:
            _SCHEMES.clear()
        c = _SCHEMES[key] = DARK if is_dark(palette) else LIGHT
    return c


def series_colour(colour: str, c: Colours) -> str:
    """A plot-line colour (one of ``LIGHT.series``) in the scheme of ``c``; others unchanged."""
    try:
        return c.series[LIGHT.series.index(colour.lower())]
    except ValueError:
        return colour


def banner_style(kind: Literal["warning", "error"], c: Colours) -> str:
    """A style sheet for a status banner."""
    bg, fg = (c.warning_bg, c.warning_fg) if kind == "warning" else (c.error_bg, c.error_fg)
    return f"background: {bg}; color: {fg}; padding: 6px; border-radius: 4px;"


def style_plot(widget: Any, c: Colours, background: bool = True) -> None:
    """Background and axis colours of a ``pg.PlotWidget`` (``background=False``: transparent)."""
    widget.setBackground(c.plot_background if background else None)
    item = widget.getPlotItem()
    for name in ("left", "bottom", "right", "top"):
        axis = item.getAxis(name)
        axis.setPen(c.axis)
        axis.setTextPen(c.plot_foreground)


def make_palette(dark: bool) -> QPalette:
    """The Fusion palette for a scheme (Qt's own Fusion colours, with link colours that read on it)."""
    window = QColor(50, 50, 50) if dark else QColor(239, 239, 239)
    text = QColor(240, 240, 240) if dark else QColor(0, 0, 0)
    base = window.darker(140) if dark else QColor(255, 255, 255)
    disabled_text = QColor(130, 130, 130) if dark else QColor(190, 190, 190)
    placeholder = QColor(text)
    placeholder.setAlpha(128)
    highlight = QColor(48, 140, 198)
    pal = QPalette()
    roles = QPalette.ColorRole
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive, QPalette.ColorGroup.Disabled):
        disabled = group == QPalette.ColorGroup.Disabled
        fg = disabled_text if disabled else text
        pal.setColor(group, roles.Window, window)
        pal.setColor(group, roles.WindowText, fg)
        pal.setColor(group, roles.Base, window if disabled else base)
        pal.setColor(group, roles.AlternateBase, base.lighter(115) if dark else QColor(247, 247, 247))
        pal.setColor(group, roles.Text, fg)
        pal.setColor(group, roles.Button, window)
        pal.setColor(group, roles.ButtonText, fg)
        pal.setColor(group, roles.BrightText, QColor(255, 255, 255))
        pal.setColor(group, roles.Light, window.lighter(150))
        pal.setColor(group, roles.Midlight, window.darker(130).lighter(110))
        pal.setColor(group, roles.Mid, window.darker(130))
        pal.setColor(group, roles.Dark, window.darker(150))
        pal.setColor(group, roles.Shadow, window.darker(150).darker(135))
        pal.setColor(group, roles.Highlight, QColor(145, 145, 145) if disabled else highlight)
        pal.setColor(group, roles.HighlightedText, fg if dark else QColor(255, 255, 255))
        pal.setColor(group, roles.ToolTipBase, QColor(60, 60, 60) if dark else QColor(255, 255, 220))
        pal.setColor(group, roles.ToolTipText, QColor(240, 240, 240) if dark else QColor(0, 0, 0))
        pal.setColor(group, roles.PlaceholderText, placeholder)
        pal.setColor(group, roles.Link, QColor(88, 166, 255) if dark else QColor(0, 0, 255))
        pal.setColor(group, roles.LinkVisited, QColor(188, 140, 255) if dark else QColor(255, 0, 255))
        pal.setColor(group, roles.Accent, highlight)
    return pal


class FusionStyle(QProxyStyle):
    """Fusion, with check boxes and radio buttons that stay visible on a dark palette.

    Fusion outlines an indicator in a shade darker than the window, which on a dark palette
    is all but invisible: an unchecked box (in a form or an item view) cannot be seen. On a
    dark palette this draws a light outline over Fusion's own indicator; on a light one it
    draws nothing more."""

    def __init__(self) -> None:
        super().__init__("Fusion")

    def drawPrimitive(self, element: QStyle.PrimitiveElement, option: QStyleOption, painter: QPainter,
                      widget: QWidget | None = None) -> None:
        super().drawPrimitive(element, option, painter, widget)
        radio = element == QStyle.PrimitiveElement.PE_IndicatorRadioButton
        if not (radio or element == QStyle.PrimitiveElement.PE_IndicatorCheckBox) or not is_dark(option.palette):
            return
        enabled = bool(option.state & QStyle.StateFlag.State_Enabled)
        colour = QColor(option.palette.color(QPalette.ColorRole.Text))
        colour.setAlphaF(0.75 if enabled else 0.35)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(colour, 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        r = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
        side = min(r.width(), r.height())
        r = QRectF(r.center().x() - side / 2, r.center().y() - side / 2, side, side)
        if radio:
            painter.drawEllipse(r)
        else:
            painter.drawRoundedRect(r, 1.5, 1.5)
        painter.restore()


def style_name(style: QStyle) -> str:
    """The style's name (a proxy style's is its base style's)."""
    if isinstance(style, QProxyStyle) and style.baseStyle() is not None:
        return style.baseStyle().name()
    return style.name()


def requested_scheme(override: str | None, system: Qt.ColorScheme, platform_dark: bool) -> Scheme:
    """The scheme to show: the override (``light``/``dark``), else the system's, else the palette's."""
    value = (override or "").strip().lower()
    if value in ("light", "dark"):
        return "dark" if value == "dark" else "light"
    if value not in ("", "auto", "system"):
        log.warning("%s=%r is not light, dark or auto: following the system", ENV_VAR, override)
    if system == Qt.ColorScheme.Dark:
        return "dark"
    if system == Qt.ColorScheme.Light:
        return "light"
    return "dark" if platform_dark else "light"


class ThemeSignal(QObject):
    """The application's one notice of a theme change: :attr:`changed` is emitted once after the
    colours of the application's palette switched between the light and the dark scheme. One
    per application (:func:`theme_signal`); the :class:`ThemeManager` announces through it."""

    changed = Signal()

    def __init__(self, app: QCoreApplication):
        super().__init__(app)
        self.shown = colours()  # the scheme last announced

    def announce(self) -> None:
        """Emit :attr:`changed` if the application's scheme is not the one last announced."""
        # Qt posts the new palette to each window (which hands it to its children): deliver
        # it now, so that every widget has the new palette before its slot runs.
        QCoreApplication.sendPostedEvents(None, QEvent.Type.ApplicationPaletteChange)
        c = colours()
        if c is not self.shown:
            self.shown = c
            self.changed.emit()


_SIGNAL: ThemeSignal | None = None


def theme_signal() -> ThemeSignal:
    """The application's :class:`ThemeSignal` (made on first use)."""
    global _SIGNAL
    if _SIGNAL is None or not shiboken6.isValid(_SIGNAL):
        app = QCoreApplication.instance()
        assert app is not None, "a QApplication first"
        _SIGNAL = ThemeSignal(app)
    return _SIGNAL


def on_theme_change(slot: Callable[[], None]) -> None:
    """Call ``slot`` once after every switch between light and dark (see the module's docstring).

    ``slot`` is a bound method of the widget that restyles: the connection ends with the
    widget (Qt drops it when the widget is deleted, and it does not keep the widget alive)."""
    theme_signal().changed.connect(slot)


class ThemeManager(QObject):
    """Applies a scheme to the application and follows the system's while the app runs; each
    switch is announced once through :func:`theme_signal` (``on_theme_change`` slots)."""

    def __init__(self, app: QApplication, override: str | None = None):
        super().__init__(app)
        self.app = app
        self.override = override
        self.platform_style = style_name(app.style())  # before we change anything
        self.fusion = False  # True while the app uses Fusion with our palette instead of the platform's look
        self.scheme: Scheme | None = None
        self._applying = False
        self._asked = False  # a scheme was requested of the platform
        app.styleHints().colorSchemeChanged.connect(self._system_changed)
        global _MANAGER
        _MANAGER = self

    @property
    def choice(self) -> str:
        """What is asked for: "light", "dark", or "system" (follow the system's scheme)."""
        value = (self.override or "").strip().lower()
        return value if value in ("light", "dark") else "system"

    def choose(self, choice: str) -> Scheme:
        """Show ``choice`` ("light", "dark" or "system") from now on (the View menu); returns what is shown."""
        if choice not in CHOICES:
            raise ValueError(choice)
        self.override = None if choice == "system" else choice
        if choice == "system":
            self._native(None)  # the platform's look first: what it shows is then the system's scheme
            self.scheme = None
        return self.apply()

    def wanted(self) -> Scheme:
        """The override, else the system's scheme; when the system does not say, the platform's
        palette (while our own palette is on, the scheme shown stays)."""
        platform_dark = self.scheme == "dark" if self.fusion else is_dark(self.app.palette())
        return requested_scheme(self.override, self.app.styleHints().colorScheme(), platform_dark)

    def apply(self, scheme: Scheme | None = None) -> Scheme:
        """Show ``scheme`` (default: the override, else the system's); returns what is shown."""
        want = scheme or self.wanted()
        if self._applying or (self.fusion and want == self.scheme):
            return want
        self._applying = True
        try:
            self._native(want if (scheme or self._forced()) else None)
            if is_dark(self.app.palette()) != (want == "dark"):
                # The platform does not draw this scheme: Fusion with our palette.
                if not isinstance(self.app.style(), FusionStyle):
                    self.app.setStyle(FusionStyle())
                self.app.setPalette(make_palette(want == "dark"))
                self.fusion = True
            self.scheme = want
            log.info("colour scheme: %s (%s)", want,
                     "Fusion with the app's palette" if self.fusion
                     else f"{style_name(self.app.style())}, platform palette")
        finally:
            self._applying = False
        theme_signal().announce()
        return want

    def reset(self) -> None:
        """Back to the platform's style and palette; stop following the system (tests)."""
        global _MANAGER
        if _MANAGER is self:
            _MANAGER = None
        self.app.styleHints().colorSchemeChanged.disconnect(self._system_changed)
        self._native(None)
        self.scheme = None
        theme_signal().announce()

    def _forced(self) -> bool:
        return (self.override or "").strip().lower() in ("light", "dark")

    def _native(self, ask: Scheme | None) -> None:
        """The platform's look; ``ask``: request that scheme of the platform (Qt 6.8+), None: the system's."""
        hints = self.app.styleHints()
        if hasattr(hints, "setColorScheme") and (ask is not None or self._asked):
            hints.setColorScheme(Qt.ColorScheme.Dark if ask == "dark" else
                                 Qt.ColorScheme.Light if ask == "light" else Qt.ColorScheme.Unknown)
            self._asked = ask is not None
        if self.fusion:
            if isinstance(self.app.style(), FusionStyle) or style_name(self.app.style()).lower() != \
                    self.platform_style.lower():
                self.app.setStyle(self.platform_style)
            self.app.setPalette(QPalette())  # no roles set: the platform's palette again
            self.fusion = False

    def _system_changed(self, _scheme: Qt.ColorScheme) -> None:
        if not self._forced():
            self.apply()


_MANAGER: ThemeManager | None = None


def theme_manager() -> ThemeManager | None:
    """The application's theme manager (:func:`setup_theme` made it), if any."""
    if _MANAGER is not None and shiboken6.isValid(_MANAGER):
        return _MANAGER
    return None


def setup_theme(app: QApplication) -> ThemeManager:
    """Apply the scheme at start (see the module's docstring) and follow the system's."""
    manager = ThemeManager(app, os.environ.get(ENV_VAR))
    manager.apply()
    return manager
