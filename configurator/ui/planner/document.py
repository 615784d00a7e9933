"""The build being edited, with undo and redo. Every edit replaces the whole (immutable) Build.

The document knows whether it has changes that are not saved (the undo stack's clean state):
the tab marks the build as modified and asks before anything discards it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from configurator.core.build import Build

# the build, the id of the saved build it is (None: not in the app's list), the build file it was opened
# from or last saved to (None: none)
_State = tuple[Build, int | None, Path | None]
# An edit's name in the language shown at the time it is asked for (Undo and Redo show it; View → Language renames)
Words = Callable[[], str]


class _SetBuild(QUndoCommand):
    def __init__(self, doc: PlannerDocument, before: _State, after: _State, words: Words):
        super().__init__(words())
        self.doc, self.before, self.after, self.words = doc, before, after, words

    def redo(self) -> None:
        self.doc._apply(*self.after)

    def undo(self) -> None:
        self.doc._apply(*self.before)


class PlannerDocument(QObject):
    changed = Signal(object)  # Build
    modified_changed = Signal(bool)

    def __init__(self, build: Build, parent: QObject | None = None):
        super().__init__(parent)
        self.build = build
        self.saved_id: int | None = None
        self.path: Path | None = None  # the build file (Save writes it)
        self.undo_stack = QUndoStack(self)
        # a bound method, not a lambda: Qt drops the connection when this document is destroyed
        self.undo_stack.cleanChanged.connect(self._clean_changed)

    def _clean_changed(self, clean: bool) -> None:
        self.modified_changed.emit(not clean)

    @property
    def modified(self) -> bool:
        """Edits since the build was opened, saved or started empty."""
        return not self.undo_stack.isClean()

    def edit(self, build: Build, words: Words) -> None:
        if build != self.build:
            self.undo_stack.push(_SetBuild(self, self._state(), (build, self.saved_id, self.path), words))

    def start_new(self, build: Build, words: Words) -> None:
        """A suggestion or a preset: a new, unsaved build (Save makes a new saved build, never
        overwrites the one that was open), and undo goes back to that one."""
        self.undo_stack.push(_SetBuild(self, self._state(), (build, None, None), words))

    def retranslate(self) -> None:
        """Each edit on the stack named in the language shown now."""
        for i in range(self.undo_stack.count()):
            command = self.undo_stack.command(i)
            if isinstance(command, _SetBuild):
                command.setText(command.words())

    def replace(self, build: Build, saved_id: int | None = None, path: Path | None = None) -> None:
        """Another document (new, open, import): not undoable into the previous one's edits; the
        caller has asked before discarding them."""
        self.undo_stack.clear()
        self._apply(build, saved_id, path)
        self.undo_stack.setClean()

    def _state(self) -> _State:
        return self.build, self.saved_id, self.path

    def mark_saved(self, saved_id: int) -> None:
        self.saved_id = saved_id
        self.undo_stack.setClean()

    def mark_written(self, path: Path) -> None:
        """The build was written to ``path``: Save writes there again; nothing is left unsaved."""
        self.path = path
        self.undo_stack.setClean()

    def _apply(self, build: Build, saved_id: int | None, path: Path | None) -> None:
        self.build = build
        self.saved_id = saved_id
        self.path = path
        self.changed.emit(build)
