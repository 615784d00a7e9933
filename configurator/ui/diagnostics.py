"""Logs, uncaught exceptions and the About box.

The log is a rotating file in the per-user log directory; Qt's own messages go there
too. An exception nobody caught is written to the log and shown to the user in a
dialog (with the log's path) instead of a silent crash.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
import traceback
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from types import TracebackType

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, QtMsgType, QUrl, qInstallMessageHandler, qVersion
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QMessageBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from configurator import __version__
from configurator.core.i18n import fill
from configurator.ui.i18n import translate

log = logging.getLogger("configurator")

_QT_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}


def log_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_log_dir("configurator", appauthor=False))


def setup_logging(folder: Path | None = None) -> Path:
    """Log to ``configurator.log`` (1 MB × 5 files) and route Qt's messages there."""
    folder = folder or log_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "configurator.log"
    handler = logging.handlers.RotatingFileHandler(path, maxBytes=1_000_000, backupCount=5, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    qt_log = logging.getLogger("qt")

    def on_qt_message(kind: QtMsgType, _context: object, text: str) -> None:
        qt_log.log(_QT_LEVELS.get(kind, logging.WARNING), text)

    qInstallMessageHandler(on_qt_message)
    return path


class ErrorNotice:
    """One non-modal dialog for unexpected errors, however many there are.

    The first error opens it; while it is open, each further one (the same or another) is
    counted in it and added to its details rather than opening a dialog of its own, so an error
    that repeats every redraw cannot bury the window under dialogs (or stop a button from being
    clicked). Once the user closes it, the next error opens it again."""

    MAX_KINDS = 20  # distinct errors kept in the details

    def __init__(self, log_path: Path, parent: Callable[[], QWidget | None]):
        self.log_path = log_path
        self.parent = parent
        self.box: QMessageBox | None = None
        self.count = 0
        self.kinds: dict[str, str] = {}  # first line → its traceback, oldest first

    def show(self, error: BaseException, details: str) -> None:
        if QApplication.instance() is None:
            return
        self.count += 1
        summary = str(error) or type(error).__name__
        if summary not in self.kinds and len(self.kinds) < self.MAX_KINDS:
            self.kinds[summary] = details
        if self.box is None:
            self.box = QMessageBox(QMessageBox.Icon.Critical, translate("Diagnostics", "Something went wrong"), "",
                                   QMessageBox.StandardButton.Ok, self.parent())
            self.box.setObjectName("errorDialog")
            self.box.setModal(False)
            self.box.setWindowModality(Qt.WindowModality.NonModal)
            self.box.finished.connect(self._closed)
            self.box.show()  # not open(): that makes it window-modal
        text = fill(translate("Diagnostics", "An unexpected error occurred: {error}. Your data is safe; the "
                                             "details are in {log}. Please include that file if you report "
                                             "the problem."), error=next(iter(self.kinds)), log=str(self.log_path))
        if self.count > 1:
            text += "\n\n" + fill(translate("Diagnostics", "It has happened {n} times since this notice opened "
                                                            "({kinds} different errors)."),
                                  n=str(self.count), kinds=str(len(self.kinds)))
        self.box.setText(text)
        self.box.setDetailedText("\n".join(self.kinds.values()))

    def _closed(self) -> None:
        if self.box is not None:
            self.box.deleteLater()
        self.box = None
        self.count = 0
        self.kinds = {}


def install_excepthook(log_path: Path, parent: Callable[[], QWidget | None]) -> ErrorNotice:
    """Uncaught exceptions: logged, then shown in one notice (see ErrorNotice); the app keeps running."""
    notice = ErrorNotice(log_path, parent)

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, value, tb)
            return
        details = "".join(traceback.format_exception(kind, value, tb))
        log.error("uncaught exception\n%s", details)
        notice.show(value, details)

    sys.excepthook = hook
    return notice


def versions(driver: str | None) -> dict[str, str]:
    """What About shows. torch is looked up, not imported (that would take seconds)."""

    def dist(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return translate("Diagnostics", "not installed")

    return {
        "Configurator": __version__,
        "Python": sys.version.split()[0],
        "Qt": qVersion(),
        "PySide6": pyside_version,
        "PyTorch": dist("torch"),
        translate("Diagnostics", "NVIDIA driver"): driver or translate("Diagnostics", "none found"),
    }


def about_text(driver: str | None, database: Path, log_path: Path | None) -> str:
    rows = "".join(f"<tr><td style='padding-right:12px'>{k}</td><td><b>{v}</b></td></tr>"
                   for k, v in versions(driver).items())
    intro = translate("Diagnostics", "Plan, watch and measure a PyTorch machine. The rules come from two Chinese "
                                     "guides, numbered in the rules catalogue; part specifications from vendors' "
                                     "spec pages.")
    where = fill(translate("Diagnostics", "Database: {db}"), db=str(database))
    logs = fill(translate("Diagnostics", "Log: {log}"), log=str(log_path)) if log_path else ""
    return f"<p>{intro}</p><table>{rows}</table><p>{where}<br>{logs}</p>"


def rules_catalogue_dialog(parent: QWidget | None = None) -> QDialog:
    """The rules catalogue in the user's language (ID, source, severities, title), with a link to the
    shipped docs/rules.md, which says what each rule checks and why."""
    from configurator.core.rules import catalogue
    from configurator.paths import RULES_DOC

    dialog = QDialog(parent)
    dialog.setObjectName("rulesCatalogue")
    dialog.setWindowTitle(translate("Diagnostics", "Rules catalogue"))
    dialog.resize(820, 640)
    view = QTextBrowser(dialog)
    view.setObjectName("rulesCatalogueText")
    view.setOpenExternalLinks(True)
    full = QUrl.fromLocalFile(str(RULES_DOC)).toString() if RULES_DOC.is_file() else None
    view.setMarkdown(catalogue.summary_markdown(translate, full))
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(view)
    layout.addWidget(buttons)
    return dialog


WELCOME_KEY = "ui/welcomed"


def welcome_text() -> str:
    return translate(
        "Diagnostics",
        "<h3>Welcome to Configurator</h3>"
        "<p><b>Planner</b> — before buying: pick parts, set a budget and a workload, and see the guides' rules "
        "(with their IDs) and the estimates update as you edit. Start from a preset or let Suggest find a build; "
        "export a PDF build sheet.</p>"
        "<p><b>Monitor</b> — while training: your GPUs (NVML) and the host, with alerts that name the likely "
        "bottleneck, recordings and a Prometheus exporter.</p>"
        "<p><b>Benchmark</b> — after assembling: one click measures the machine in child processes and compares "
        "it with earlier runs, the guides' figures and the planner's estimate.</p>"
        "<p><b>Parts</b> — the catalogue with every specification and its source; edit prices or add your own "
        "parts.</p>")
