"""Render the app icon: hicolor PNGs and the Windows .ico, from the SVGs in resources/icons/.

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/make_icons.py

The generated files are committed; run this after changing an SVG. Sizes up to 24 px come from
``configurator-small.svg`` (fewer, thicker shapes on the pixel grid), the others from
``configurator.svg``. The .ico holds PNG-compressed images (Windows Vista and later), written
here directly so no imaging library is needed.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "resources" / "icons"
APP_ID = "io.github.configurator.Configurator"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
SMALL_MAX = 16  # up to this size the small variant is used
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)


def png_path(size: int, icons: Path = ICONS) -> Path:
    return icons / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"


def source_for(size: int, icons: Path = ICONS) -> Path:
    small = icons / "configurator-small.svg"
    return small if size <= SMALL_MAX and small.is_file() else icons / "configurator.svg"


def render(svg: Path, size: int) -> bytes:
    """The SVG drawn at size × size on a transparent background, as PNG bytes."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"{svg}: not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.convertToFormat(QImage.Format.Format_ARGB32).save(buffer, "PNG"):
        raise SystemExit("could not encode a PNG")
    buffer.close()
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """An .ico file holding the given PNGs (size → PNG bytes); 256 is written as 0 in the directory."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    entries, blobs = b"", b""
    for size in sizes:
        blob = pngs[size]
        dim = 0 if size >= 256 else size
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset)
        offset += len(blob)
        blobs += blob
    return header + entries + blobs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--icons", type=Path, default=ICONS, help="folder with the SVGs; PNGs go to its hicolor/")
    ap.add_argument("--ico", type=Path, default=ROOT / "packaging" / "windows" / "configurator.ico")
    args = ap.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    rendered: dict[int, bytes] = {}
    for size in SIZES:
        rendered[size] = render(source_for(size, args.icons), size)
        out = png_path(size, args.icons)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(rendered[size])
        print(f"{out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}  {len(rendered[size]):>6} bytes")
    args.ico.parent.mkdir(parents=True, exist_ok=True)
    args.ico.write_bytes(ico_bytes({s: rendered[s] for s in ICO_SIZES}))
    print(f"{args.ico.relative_to(ROOT) if args.ico.is_relative_to(ROOT) else args.ico}  "
          f"{args.ico.stat().st_size:>6} bytes ({', '.join(map(str, ICO_SIZES))} px)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
