"""Test helpers for dialogs the code under test opens, and windows a test leaves with unsaved edits."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from configurator.ui.main_window import MainWindow


def forget_unsaved(w: MainWindow) -> None:
    """Before a test's window is closed: a build it left modified would ask Save / Discard / Cancel."""
    for tab, _title in w.extra_tabs:
        if getattr(tab, "doc", None) is not None:
            tab.doc.undo_stack.setClean()


def answer_next_dialog(button: QMessageBox.StandardButton) -> list[str]:
    """Click ``button`` of the next modal dialog (a QMessageBox.exec() the code under test opens);
    the returned list gets the dialog's text."""
    seen: list[str] = []

    def click() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, click)
            return
        seen.append(box.text())
        box.button(button).click()

    QTimer.singleShot(0, click)
    return seen


def answer_file_dialog(path: Path) -> None:
    """Choose ``path`` in the next file dialog the code under test opens (the app's are Qt's own)."""

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            QTimer.singleShot(10, answer)
            return
        dialog.selectFile(str(path))
        dialog.accept()

    QTimer.singleShot(0, answer)
