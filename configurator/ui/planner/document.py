"""The build being edited, with undo and redo. Every edit replaces the whole (immutable) Build."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from configurator.core.build import Build


class _SetBuild(QUndoCommand):
    def __init__(self, doc: PlannerDocument, before: Build, after: Build, text: str):
        super().__init__(text)
        self.doc, self.before, self.after = doc, before, after

    def redo(self) -> None:
        self.doc._apply(self.after)

    def undo(self) -> None:
        self.doc._apply(self.before)


class PlannerDocument(QObject):
    changed = Signal(object)  # Build

    def __init__(self, build: Build, parent: QObject | None = None):
        super().__init__(parent)
        self.build = build
        self.saved_id: int | None = None
        self.undo_stack = QUndoStack(self)

    def edit(self, build: Build, text: str) -> None:
        if build != self.build:
            self.undo_stack.push(_SetBuild(self, self.build, build, text))

    def replace(self, build: Build, saved_id: int | None = None) -> None:
        """A new document (open, preset, import): not undoable into the previous one's edits."""
        self.undo_stack.clear()
        self.saved_id = saved_id
        self._apply(build)

    def _apply(self, build: Build) -> None:
        self.build = build
        self.changed.emit(build)
