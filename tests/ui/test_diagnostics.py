"""Logs, uncaught exceptions, About and the first-start welcome."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QMessageBox, QPushButton, QTextBrowser

from configurator.ui import diagnostics
from configurator.ui.main_window import MainWindow


def test_log_file_and_uncaught_exceptions_are_shown_not_swallowed(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    old_hook = sys.excepthook
    root = logging.getLogger()
    handlers = list(root.handlers)
    try:
        path = diagnostics.setup_logging(tmp_path / "日志")
        diagnostics.install_excepthook(path, lambda: window)
        try:
            raise ValueError("boom in a slot")
        except ValueError:
            sys.excepthook(*sys.exc_info())  # what Qt does with an exception from a slot
        box = next(b for b in window.findChildren(QMessageBox) if b.objectName() == "errorDialog")
        assert "boom in a slot" in box.text() and str(path) in box.text()
        assert "Traceback" in box.detailedText()
        for h in root.handlers:
            h.flush()
        assert "boom in a slot" in path.read_text(encoding="utf-8")
        box.close()
    finally:
        sys.excepthook = old_hook
        for h in root.handlers:
            if h not in handlers:
                root.removeHandler(h)
                h.close()
        from PySide6.QtCore import qInstallMessageHandler

        qInstallMessageHandler(None)


def test_a_repeating_error_opens_one_notice_with_a_count(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """An error raised on every redraw used to open a modal dialog each time (143 after 45 s)."""
    old_hook = sys.excepthook
    try:
        notice = diagnostics.install_excepthook(tmp_path / "configurator.log", lambda: window)
        for i in range(50):
            try:
                raise TypeError("memoryview: cannot cast view" if i % 10 else "another error")
            except TypeError:
                sys.excepthook(*sys.exc_info())
        boxes = [b for b in window.findChildren(QMessageBox) if b.objectName() == "errorDialog" and b.isVisible()]
        assert len(boxes) == 1 and not boxes[0].isModal()
        box = boxes[0]
        assert "50 times" in box.text() and "2 different errors" in box.text()
        assert "another error" in box.detailedText() and "memoryview" in box.detailedText()
        window.tabs.setCurrentIndex(window.tabs.count() - 1)  # the window still takes input beside it
        box.button(QMessageBox.StandardButton.Ok).click()
        qtbot.waitUntil(lambda: notice.box is None)
        try:
            raise ValueError("later")
        except ValueError:
            sys.excepthook(*sys.exc_info())
        assert notice.box is not None and "later" in notice.box.text() and "times" not in notice.box.text()
        notice.box.close()
    finally:
        sys.excepthook = old_hook


def test_about_shows_versions_and_paths(window: MainWindow, tmp_path: Path) -> None:
    window.about_info = lambda: ("560.35.03", tmp_path / "configurator.log")
    window.show_about()
    text = window.last_about.text()
    assert "560.35.03" in text and "PySide6" in text and "PyTorch" in text and str(window.store.path) in text
    window.last_about.close()
    assert not window.last_about.isVisible()  # closing (Esc, the title bar) works beside the extra button
    assert "none found" in diagnostics.about_text(None, Path("x.db"), None)


def test_about_opens_the_rules_catalogue_in_the_users_language(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    from configurator.paths import RULES_DOC

    window.show_about()
    button = window.last_about.findChild(QPushButton, "aboutRulesButton")
    assert button is not None
    button.click()
    qtbot.waitUntil(lambda: getattr(window, "last_rules_catalogue", None) is not None
                    and window.last_rules_catalogue.isVisible())
    dialog = window.last_rules_catalogue
    view = dialog.findChild(QTextBrowser, "rulesCatalogueText")
    text = view.toPlainText()
    assert "PWR-2" in text and "THERM-1" in text and "The supply covers the estimated peak draw" in text
    assert RULES_DOC.is_file() and QUrl.fromLocalFile(str(RULES_DOC)).toString() in view.toMarkdown()
    dialog.close()
    window.language_actions["zh_CN"].trigger()
    try:
        window.show_rules_catalogue()
        text = window.last_rules_catalogue.findChild(QTextBrowser, "rulesCatalogueText").toPlainText()
        assert "PWR-2" in text and "电源" in text and "预算与成本" in text
        window.last_rules_catalogue.close()
    finally:
        window.language_actions["en"].trigger()


def test_welcome_names_every_tab() -> None:
    text = diagnostics.welcome_text()
    assert all(tab in text for tab in ("Planner", "Monitor", "Benchmark", "Parts"))
