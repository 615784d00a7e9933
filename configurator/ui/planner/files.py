"""The planner's file actions: new; open and save a build file (the command line's JSON format); open,
save, duplicate and delete a build kept in the app's database; the PDF; and asking before unsaved changes
are discarded (Save / Discard / Cancel)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QInputDialog,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from configurator.core.build import (
    MAX_BUILD_FILE_BYTES,
    Build,
    BuildError,
    Workload,
    build_to_dict,
    load_build_json,
    parse_build,
)
from configurator.core.i18n import fill
from configurator.core.parts import AnyPart
from configurator.core.sheet import build_sheet
from configurator.store.csvio import write_atomic
from configurator.store.repository import BuildsRepository, RepositoryError
from configurator.ui.files import open_file, save_file
from configurator.ui.i18n import translate
from configurator.ui.planner.document import PlannerDocument

EMPTY_BUILD = Build(parts=(), name="", workload=Workload(model="resnet50", task="train", precision="amp"))


class FileActions(QObject):
    """What the planner's File-like actions do to its document; dialogs open over ``widget``."""

    status_message = Signal(str)

    def __init__(self, doc: PlannerDocument, builds: BuildsRepository, widget: QWidget,
                 catalogue: Callable[[], dict[str, AnyPart]],
                 runs_for_build: Callable[[int], list[Any]] | None = None, settings: QSettings | None = None):
        super().__init__(widget)
        self.doc, self.builds, self.widget = doc, builds, widget
        self.settings = settings if settings is not None else QSettings()  # the file dialogs' last folders
        self.catalogue = catalogue
        self.runs_for_build = runs_for_build  # benchmark runs linked to a saved build

    def _say(self, text: str, **params: str) -> None:
        """A status message: ``text`` translated, its ``{key}`` placeholders filled."""
        self.status_message.emit(fill(text, **params))

    def maybe_discard(self) -> bool:
        """True if the build may be replaced: it has no unsaved changes, or the user saved them or
        chose to discard them (Save / Discard / Cancel)."""
        if not self.doc.modified:
            return True
        name = self.doc.build.name or translate("Planner", "Untitled build")
        box = QMessageBox(QMessageBox.Icon.Warning, translate("Planner", "Unsaved changes"),
                          fill(translate("Planner", "“{name}” has changes that are not saved."), name=name),
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self.widget)
        box.setObjectName("unsavedChanges")
        box.setInformativeText(translate("Planner", "Save them before going on?"))
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        answer = box.exec()
        if answer == QMessageBox.StandardButton.Save:  # where it came from: its file, else the app's list
            return self.save_file(self.doc.path) if self.doc.path is not None else self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_build(self) -> None:
        if self.maybe_discard():
            self.doc.replace(EMPTY_BUILD)

    def save(self) -> bool:
        build = self.doc.build
        name = build.name
        if not name:
            name, ok = QInputDialog.getText(self.widget, translate("Planner", "Save build"),
                                            translate("Planner", "Name:"))
            if not ok or not name.strip():
                return False
            name = name.strip()
            build = dataclasses.replace(build, name=name)
            self.doc.edit(build, lambda: translate("Planner", "Rename"))
        try:
            saved_id = self.builds.save(name, build_to_dict(build), self.doc.saved_id)
        except RepositoryError:
            saved_id = self.builds.save(name, build_to_dict(build), None)
        self.doc.mark_saved(saved_id)
        self._say(translate("Planner", "Saved “{name}”."), name=name)
        return True

    def duplicate(self) -> None:
        build = self.doc.build
        name = (build.name or translate("Planner", "Build")) + " " + translate("Planner", "(copy)")
        copy = dataclasses.replace(build, name=name)
        saved_id = self.builds.save(name, build_to_dict(copy))
        self.doc.start_new(copy, lambda: translate("Planner", "Duplicate"))
        self.doc.mark_saved(saved_id)
        self._say(translate("Planner", "Saved “{name}”."), name=name)

    def delete_saved(self) -> None:
        if self.doc.saved_id is None:
            self._say(translate("Planner", "This build is not saved."))
            return
        answer = QMessageBox.question(self.widget, translate("Planner", "Delete build"),
                                      fill(translate("Planner", "Delete the saved build “{name}”?"),
                                           name=self.doc.build.name))
        if answer == QMessageBox.StandardButton.Yes:
            self.builds.delete(self.doc.saved_id)
            self.doc.saved_id = None
            self.doc.undo_stack.resetClean()  # what is on screen is now saved nowhere

    def open_saved_dialog(self) -> None:
        saved = self.builds.list()
        dialog = QDialog(self.widget)
        dialog.setWindowTitle(translate("Planner", "Open a saved build"))
        lst = QListWidget()
        lst.setObjectName("savedBuilds")
        for b in saved:
            item = QListWidgetItem(f"{b.name}  —  {b.updated_at:%Y-%m-%d %H:%M}")
            item.setData(Qt.ItemDataRole.UserRole, b.id)
            lst.addItem(item)
        if not saved:
            lst.addItem(translate("Planner", "No saved builds yet: Save keeps the current one."))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        lst.itemDoubleClicked.connect(lambda _i: dialog.accept())
        layout = QVBoxLayout(dialog)
        layout.addWidget(lst)
        layout.addWidget(buttons)
        dialog.resize(460, 360)
        if dialog.exec() and lst.currentItem() is not None:
            build_id = lst.currentItem().data(Qt.ItemDataRole.UserRole)
            if build_id is not None:
                self.open_saved(int(build_id))

    def open_saved(self, build_id: int) -> bool:
        saved = self.builds.get(build_id)
        if saved is None:
            return False
        try:
            build = parse_build(saved.data, self.catalogue())
        except BuildError as exc:
            self._show_build_errors(saved.name, exc)
            return False
        if not self.maybe_discard():
            return False
        self.doc.replace(build, saved_id=build_id)
        return True

    def import_dialog(self) -> None:
        """Open a build file (Ctrl+O)."""
        path = open_file(self.widget, self.settings, "build-file", translate("Planner", "Open build file"),
                         Path.home(), translate("Planner", "Build files (*.json);;All files (*)"))
        if path:
            self.import_file(Path(path))

    def import_file(self, path: Path) -> bool:
        """Open the build file ``path``: Save writes it back there."""
        try:
            if not path.is_file():  # a folder, a FIFO (which would block), a device
                raise OSError(translate("Planner", "not a regular file"))
            with path.open("rb") as f:  # bounded, as the command line reads it
                raw = f.read(MAX_BUILD_FILE_BYTES + 1)
            build = parse_build(load_build_json(raw), self.catalogue())
        except OSError as exc:
            QMessageBox.warning(self.widget, translate("Planner", "Cannot import"),
                                fill(translate("Planner", "{path} could not be read: {error}"),
                                     path=str(path), error=exc.strerror or str(exc)))
            return False
        except BuildError as exc:
            self._show_build_errors(str(path), exc)
            return False
        if not self.maybe_discard():
            return False
        self.doc.replace(build, path=path)
        self._say(translate("Planner", "Opened {path}."), path=str(path))
        return True

    def _show_build_errors(self, where: str, exc: BuildError) -> None:
        detail = "\n".join(e.render(translate) for e in exc.errors)
        box = QMessageBox(QMessageBox.Icon.Warning, translate("Planner", "Cannot use this build file"),
                          fill(translate("Planner", "{where} has problems; nothing was changed:"), where=where),
                          QMessageBox.StandardButton.Ok, self.widget)
        box.setInformativeText(detail)
        box.setObjectName("buildErrors")
        box.open()

    def export_dialog(self) -> bool:
        """Save the build to a file of the user's choice (Save as…, Ctrl+Shift+S)."""
        default = self.doc.path or Path.home() / f"{self.doc.build.name or 'build'}.json"
        path = save_file(self.widget, self.settings, "build-file", translate("Planner", "Save build file"), default,
                         translate("Planner", "Build files (*.json)"))
        return self.save_file(Path(path)) if path else False

    def save_file(self, path: Path | None = None) -> bool:
        """Save (Ctrl+S): the build to ``path``, else to the file it was opened from or last saved to, else
        to a file the user chooses. The build file is what ``configurator check`` reads."""
        if path is None and self.doc.path is None:
            return self.export_dialog()
        target = path or self.doc.path
        assert target is not None
        if self.export_file(target):
            self.doc.mark_written(target)
            return True
        return False

    def export_file(self, path: Path) -> bool:
        """Write the build as a build file (the document stays as it is: an export, not a save)."""
        text = json.dumps(build_to_dict(self.doc.build), ensure_ascii=False, indent=2) + "\n"
        try:
            write_atomic(path, text)
        except OSError as exc:
            QMessageBox.warning(self.widget, translate("Planner", "Could not save"),
                                fill(translate("Planner", "{path} could not be written: {error}"),
                                     path=str(path), error=exc.strerror or str(exc)))
            return False
        self._say(translate("Planner", "Wrote {path}."), path=str(path))
        return True

    def export_pdf_dialog(self) -> None:
        default = Path.home() / f"{self.doc.build.name or 'build'}.pdf"
        path = save_file(self.widget, self.settings, "build-sheet", translate("Planner", "Export build sheet"),
                         default, translate("Planner", "PDF files (*.pdf)"))
        if path:
            self.export_pdf(Path(path))

    def export_pdf(self, path: Path) -> bool:
        from configurator.ui.pdf import write_sheet_pdf

        sheet = build_sheet(self.doc.build, self.catalogue())
        if self.runs_for_build is not None and self.doc.saved_id is not None:
            runs = self.runs_for_build(self.doc.saved_id)
            if runs:  # the newest linked run, measured results only
                sheet.benchmark = [(r.name, float(r.value), r.unit or "") for r in runs[0].rows
                                   if r.status == "ok" and r.value is not None]
        try:
            write_sheet_pdf(sheet, path)
        except OSError as exc:
            QMessageBox.warning(self.widget, translate("Planner", "Export failed"), str(exc))
            return False
        self._say(translate("Planner", "Wrote {path}."), path=str(path))
        return True
