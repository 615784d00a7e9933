"""File dialogs that remember the last folder: each kind of file (``key``) opens where the user
last chose one of its kind, else where any file dialog of the app last went, else the default."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QWidget

LAST_ANY = "dialogs/last_folder"


def _folder_key(key: str) -> str:
    return f"dialogs/{key}/folder"


def last_folder(settings: QSettings, key: str) -> Path | None:
    """The folder a dialog of this kind (or any) last chose a file in, if it still exists."""
    for name in (_folder_key(key), LAST_ANY):
        value = str(settings.value(name, "") or "")
        if value and Path(value).is_dir():
            return Path(value)
    return None


def remember(settings: QSettings, key: str, path: str | Path) -> None:
    folder = str(Path(path).parent)
    settings.setValue(_folder_key(key), folder)
    settings.setValue(LAST_ANY, folder)


def _start(settings: QSettings, key: str, default: str | Path) -> str:
    """Where the dialog opens: the remembered folder (with the default's file name), else the default."""
    default = Path(default)
    folder = last_folder(settings, key)
    if folder is None:
        return str(default)
    return str(folder / default.name) if default.suffix or not default.is_dir() else str(folder)


def _run(parent: QWidget | None, settings: QSettings, key: str, caption: str, default: str | Path,
         filter_: str, save: bool) -> str:
    dialog = QFileDialog(parent, caption, "", filter_)
    dialog.setObjectName(f"fileDialog-{key}")
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave if save else QFileDialog.AcceptMode.AcceptOpen)
    dialog.setFileMode(QFileDialog.FileMode.AnyFile if save else QFileDialog.FileMode.ExistingFile)
    start = Path(_start(settings, key, default))
    if start.is_dir():
        dialog.setDirectory(str(start))
    else:
        dialog.setDirectory(str(start.parent))
        if save:
            dialog.selectFile(start.name)
    if filter_ and save:
        suffix = filter_.split("*.", 1)[1].split(")", 1)[0].split(" ", 1)[0] if "*." in filter_ else ""
        if suffix and suffix != "*":
            dialog.setDefaultSuffix(suffix)
    if not dialog.exec():
        return ""
    files = dialog.selectedFiles()
    if not files:
        return ""
    remember(settings, key, files[0])
    return files[0]


def open_file(parent: QWidget | None, settings: QSettings, key: str, caption: str, default: str | Path,
              filter_: str = "") -> str:
    """The file the user chose to open ("" if none), starting in the folder last used for ``key``."""
    return _run(parent, settings, key, caption, default, filter_, save=False)


def save_file(parent: QWidget | None, settings: QSettings, key: str, caption: str, default: str | Path,
              filter_: str = "") -> str:
    """The file the user chose to save to ("" if none): ``default`` names the file, in the folder last
    used for ``key`` (or ``default``'s own folder the first time)."""
    return _run(parent, settings, key, caption, default, filter_, save=True)
