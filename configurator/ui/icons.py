"""The app icon, crisp at every size and device pixel ratio.

The icon is the SVG (``resources/icons/configurator.svg``, drawn by Qt's SVG icon engine at
whatever size is asked for, e.g. 20 px for 16 px at 125 %) plus the rendered PNGs of the
hicolor set, which that engine returns as they are when the size matches exactly (the 16 px
one is drawn separately on the pixel grid). ``packaging/make_icons.py`` makes the PNGs.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtGui import QIcon

from configurator.paths import RESOURCES_DIR

APP_ID = "io.github.configurator.Configurator"  # the .desktop file's and the AppStream id
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def icons_dir() -> Path:
    return RESOURCES_DIR / "icons"


def icon_png(size: int, folder: Path | None = None) -> Path:
    return (folder or icons_dir()) / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"


def app_icon(folder: Path | None = None) -> QIcon:
    """The app's icon; an empty QIcon when its files are missing."""
    folder = folder or icons_dir()
    icon = QIcon()
    svg = folder / "configurator.svg"
    if svg.is_file():
        icon.addFile(str(svg))  # first: the SVG engine serves every size, added PNGs where they match exactly
    for size in ICON_SIZES:
        png = icon_png(size, folder)
        if png.is_file():
            icon.addFile(str(png), QSize(size, size))
    return icon
