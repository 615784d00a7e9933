"""The packaging files agree with each other and with the code (no PyInstaller needed).

packaging/configurator.spec, the .desktop file, the AppStream metainfo, the icon set,
``app_icon()``, the benchmark worker's environment in the frozen app, and the spec's list of
worker modules against what the worker really imports.
"""

from __future__ import annotations

import ast
import configparser
import importlib.util
import os
import re
import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import configurator
from configurator.bench import runner
from configurator.paths import worker_source_dir
from configurator.ui.icons import APP_ID, ICON_SIZES, app_icon, icon_png

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"
SPEC = PACKAGING / "configurator.spec"
DESKTOP = PACKAGING / "linux" / f"{APP_ID}.desktop"
METAINFO = PACKAGING / "linux" / f"{APP_ID}.metainfo.xml"
ICONS = ROOT / "resources" / "icons"


def spec_value(name: str) -> Any:
    """A literal assigned at the top level of the spec (it is Python, run by PyInstaller)."""
    for node in ast.parse(SPEC.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{SPEC.name} assigns no {name}")


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(DESKTOP, encoding="utf-8")
    return parser["Desktop Entry"]


def test_spec_names_match_the_app() -> None:
    assert spec_value("APP_NAME") == "configurator"
    assert spec_value("APP_ID") == APP_ID


def test_desktop_file() -> None:
    entry = desktop_entry()
    for key in ("Type", "Name", "Name[zh_CN]", "GenericName", "GenericName[zh_CN]", "Comment", "Comment[zh_CN]",
                "Exec", "Icon", "Terminal", "Categories", "Keywords", "StartupWMClass"):
        assert entry.get(key), key
    assert entry["Type"] == "Application"
    assert entry["Icon"] == APP_ID == DESKTOP.stem
    assert entry["Exec"].split()[0] == spec_value("APP_NAME")
    assert entry["Terminal"] == "false"
    assert {"Development", "Science"} <= set(entry["Categories"].rstrip(";").split(";"))
    assert entry["Categories"].endswith(";") and entry["Keywords"].endswith(";")


def test_metainfo() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == DESKTOP.stem
    assert root.findtext("metadata_license") == "CC0-1.0"
    assert root.findtext("project_license") == "MIT"
    assert root.findtext("name") == desktop_entry()["Name"]
    assert root.findtext("summary")
    assert root.find("description/p") is not None
    launchable = root.find("launchable")
    assert launchable is not None and launchable.get("type") == "desktop-id"
    assert launchable.text == DESKTOP.name
    assert root.findtext("provides/binary") == spec_value("APP_NAME")
    assert root.find("content_rating") is not None
    releases = root.findall("releases/release")
    assert releases and releases[0].get("version") == configurator.__version__
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", releases[0].get("date") or "")


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_icon_set() -> None:
    assert (ICONS / "configurator.svg").is_file()
    assert set(ICON_SIZES) >= {16, 24, 32, 48, 64, 128, 256, 512}
    for size in ICON_SIZES:
        png = icon_png(size, ICONS)
        assert png == ICONS / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        assert png_size(png) == (size, size)
    ico = (PACKAGING / "windows" / "configurator.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind) == (0, 1) and count >= 5
    dims = {ico[6 + 16 * i] or 256 for i in range(count)}
    assert {16, 32, 48, 256} <= dims


def _max_channel_difference(a, b) -> int:  # type: ignore[no-untyped-def]
    """The largest difference of one channel (alpha, red, green, blue) between two ARGB32 images."""
    import numpy as np

    def channels(image):  # type: ignore[no-untyped-def]
        rows = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(image.height(), image.bytesPerLine())
        return rows[:, : image.width() * 4].astype(np.int16)

    return int(np.abs(channels(a) - channels(b)).max())


def test_app_icon_is_crisp_at_every_size(qapp) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage

    icon = app_icon()
    assert not icon.isNull()
    for size in ICON_SIZES:  # the rendered PNGs (16 px is drawn on the pixel grid), not re-rendered
        got = icon.pixmap(size, size).toImage().convertToFormat(QImage.Format.Format_ARGB32)
        want = QImage(str(icon_png(size))).convertToFormat(QImage.Format.Format_ARGB32)
        assert got.size().toTuple() == (size, size)
        # Qt's image readers and scalers round differently on other CPUs (one step of one channel
        # on an AMD EPYC host): a crisp icon is one whose every pixel is within a few steps of the PNG.
        assert _max_channel_difference(got, want) <= 3, size
    for size in (20, 40, 96):  # fractional scales: drawn from the SVG at that size
        pixmap = icon.pixmap(size, size)
        assert pixmap.size().toTuple() == (size, size)
        assert pixmap.toImage().pixelColor(size // 2, size // 2).alpha() == 255


def test_app_icon_without_files_is_empty(qapp, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert app_icon(tmp_path).isNull()


def test_child_env_from_a_source_checkout() -> None:
    assert worker_source_dir() is None
    env = runner.child_env({"PYTHONPATH": "/user/lib", "LD_LIBRARY_PATH": "/opt/lib"})
    assert env["PYTHONPATH"] == os.pathsep.join([runner.PACKAGE_ROOT, "/user/lib"])
    assert env["LD_LIBRARY_PATH"] == "/opt/lib"


def test_child_env_in_the_frozen_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    bundle = tmp_path / "configurator" / "_internal"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    assert worker_source_dir() == bundle / "worker_src"
    # What PyInstaller's bootloader and the PySide6 runtime hook put in the app's environment:
    env = runner.child_env({
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": "/user/lib",
        "LD_LIBRARY_PATH": os.pathsep.join([str(bundle), "/opt/lib"]),
        "LD_LIBRARY_PATH_ORIG": "/opt/lib",
        "QT_PLUGIN_PATH": str(bundle / "PySide6" / "Qt" / "plugins"),
        "QML2_IMPORT_PATH": str(bundle / "PySide6" / "Qt" / "qml"),
        "_PYI_ARCHIVE_FILE": str(bundle.parent / "configurator"),
        "_PYI_PARENT_PROCESS_LEVEL": "1",
        "QT_QPA_PLATFORM": "offscreen",
    })
    assert env["PYTHONPATH"] == os.pathsep.join([str(bundle / "worker_src"), "/user/lib"])
    assert runner.PACKAGE_ROOT not in env["PYTHONPATH"].split(os.pathsep)
    assert env["LD_LIBRARY_PATH"] == "/opt/lib"
    assert env["PATH"] == "/usr/bin:/bin"
    for gone in ("LD_LIBRARY_PATH_ORIG", "QT_PLUGIN_PATH", "QML2_IMPORT_PATH", "_PYI_ARCHIVE_FILE",
                 "_PYI_PARENT_PROCESS_LEVEL", "QT_QPA_PLATFORM"):
        assert gone not in env, gone
    assert env["PYTHONIOENCODING"] == "utf-8"
    # Started without a library path of its own: the bundle's is taken out, not left behind.
    env = runner.child_env({"LD_LIBRARY_PATH": str(bundle)})
    assert "LD_LIBRARY_PATH" not in env
    assert env["PYTHONPATH"] == str(bundle / "worker_src")


def module_file(name: str) -> Path | None:
    path = ROOT.joinpath(*name.split("."))
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return path.with_suffix(".py") if path.with_suffix(".py").is_file() else None


def worker_closure(root: str = "configurator.bench.worker") -> set[str]:
    """The configurator modules the worker can import: import statements anywhere (also inside
    functions), parent packages, and strings naming a module (importlib, ``-m`` for torchrun)."""
    seen: set[str] = set()
    todo = [root]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        parts = name.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]
        path = module_file(name)
        assert path is not None, name
        package = name if path.name == "__init__.py" else ".".join(parts[:-1])
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            found: list[str] = []
            if isinstance(node, ast.Import):
                found = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the package, up level - 1
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                found = [base] + [f"{base}.{a.name}" for a in node.names]
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and re.fullmatch(r"configurator(\.\w+)+", node.value)):
                found = [node.value]
            todo += [m for m in found if m.split(".")[0] == "configurator" and module_file(m) is not None]
    return seen


def test_spec_ships_every_module_the_worker_imports() -> None:
    listed = set(spec_value("WORKER_MODULES"))
    needed = worker_closure()
    assert {"configurator.bench.workloads.compute", "configurator.bench.ddp_child"} <= needed  # found by name
    assert needed - listed == set(), "add these to WORKER_MODULES in packaging/configurator.spec"
    assert listed - needed == set(), "the worker no longer imports these: remove them from WORKER_MODULES"
    assert all(module_file(m) is not None for m in listed)


def test_worker_imports_no_third_party_package_but_torch() -> None:
    """The worker's source runs under the user's interpreter, which has torch (and maybe torchvision and
    transformers) but nothing else the bundle carries: the standard library, configurator and those only."""
    allowed = set(sys.stdlib_module_names) | {"configurator", "__future__", "torch", "torchvision", "transformers"}
    for name in spec_value("WORKER_MODULES"):
        path = module_file(name)
        assert path is not None
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Import):
                tops = {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level:
                tops = {(node.module or "").split(".")[0]}
            else:
                continue
            assert tops <= allowed, f"{name} imports {tops - allowed} at its top level"


def test_entry_runs_only_benchmark_modules(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("packaging_entry", PACKAGING / "entry.py")
    assert spec is not None and spec.loader is not None
    entry = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(entry)
    assert entry.run_module("os", []) == 2
    assert "configurator.bench." in capsys.readouterr().err


def test_the_bundle_excludes_no_runtime_dependency() -> None:
    """A dependency in pyproject.toml that the spec's EXCLUDES keeps out would fail the packaged app at its
    first use (pydantic did: every part is validated through it at the first start)."""
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    names = {re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0].strip().lower().replace("-", "_") for d in deps}
    excluded = {e.lower() for e in spec_value("EXCLUDES") if "." not in e}  # whole packages, not a submodule
    names |= {"pyside6", "pynvml"}  # the import names of PySide6-Essentials and nvidia-ml-py
    assert names & excluded == set(), "packaging/configurator.spec excludes what the app imports"
