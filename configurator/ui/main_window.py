"""The main window: menus, tabs and the status bar. Gets everything through its constructor."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QIcon,
    QKeySequence,
    QPaintEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
    QMessageBox,
    QStyle,
    QSystemTrayIcon,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from configurator.core.i18n import fill
from configurator.i18n import LANGUAGES
from configurator.store.csvio import CsvImportError, ImportResult, export_csv, import_csv
from configurator.store.database import Store
from configurator.store.repository import PartsRepository
from configurator.ui.files import open_file, save_file
from configurator.ui.i18n import LanguageManager, translate
from configurator.ui.parts import PartsBrowser
from configurator.ui.tasks import TaskRunner
from configurator.ui.theme import CHOICES as THEME_CHOICES
from configurator.ui.theme import ENV_VAR as THEME_ENV
from configurator.ui.theme import SETTINGS_KEY as THEME_KEY
from configurator.ui.theme import ThemeManager, theme_manager
from configurator.ui.wheel_guard import install_wheel_guard

TabTitle = Callable[[], str]
TabFactory = Callable[[], QWidget]


class PendingTab(QWidget):
    """Stands in for a tab that is built after the window is first painted (or when opened first)."""

    def __init__(self, factory: TabFactory):
        super().__init__()
        self.factory = factory
        self.label = QLabel()
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        QVBoxLayout(self).addWidget(self.label)
        self.label.setText(translate("MainWindow", "Loading…"))


def _modified(tab: QWidget) -> bool:
    """Whether a tab holds a document with unsaved changes (the planner's build)."""
    doc = getattr(tab, "doc", None)
    return bool(doc is not None and doc.modified)


class MainWindow(QMainWindow):
    """``extra_tabs``: (widget, title) pairs, or (factory, title): a factory's tab is built by
    :meth:`finish_startup` (which the app runs once the window has been painted) or when the
    user opens it, whichever comes first; start-up then costs only the tab that is shown."""

    first_painted = Signal()

    def __init__(
        self,
        store: Store,
        parts: PartsRepository,
        settings: QSettings,
        languages: LanguageManager,
        tasks: TaskRunner,
        extra_tabs: Sequence[tuple[QWidget | TabFactory, TabTitle]] = (),
        defer: bool = False,
    ):
        super().__init__()
        self.setObjectName("MainWindow")
        self.store = store
        self.parts = parts
        self.settings = settings
        self.languages = languages
        self.tasks = tasks
        self.setAcceptDrops(True)
        # (NVIDIA driver version, log file) for Help → About; the composition root fills it in.
        self.about_info: Callable[[], tuple[str | None, Path | None]] = lambda: (None, None)

        # Desktop notifications (the monitor's alerts) go through one tray icon, where the desktop has one.
        self.tray: QSystemTrayIcon | None = None
        if QSystemTrayIcon.isSystemTrayAvailable():
            icon = QApplication.windowIcon()
            if icon.isNull():
                icon = self.style().standardIcon(QStyle.StandardPixmap.SP_ComputerIcon)
            self.tray = QSystemTrayIcon(icon, self)
            self.tray.show()

        self.tabs = QTabWidget()
        self.tabs.setObjectName("mainTabs")
        self.parts_browser = PartsBrowser(parts, settings, load=not defer, tasks=tasks)
        self.extra_tabs: list[tuple[QWidget, TabTitle]] = []
        self._painted = False
        self.after_startup: list[Callable[[], None]] = []  # run by finish_startup, after the pending tabs
        self.after_paint: list[Callable[[], None]] = []  # run by finish_startup first, before them
        for page, title in extra_tabs:
            widget = page if isinstance(page, QWidget) else PendingTab(page)
            self.extra_tabs.append((widget, title))
            self.tabs.addTab(widget, "")
            self._connect_tab(widget)
        self.tabs.addTab(self.parts_browser, "")
        self.tabs.currentChanged.connect(self._tab_changed)
        self.setCentralWidget(self.tabs)

        self._parts_dirty = False
        self.parts_browser.detail.price_changed.connect(self._mark_parts_dirty)
        # The database's file name (its path in the tooltip): a long path left the status messages no room.
        self.db_label = QLabel()
        self.db_label.setObjectName("databaseLabel")
        self.statusBar().addPermanentWidget(self.db_label)
        # The Parts tab's line (how many parts it lists) belongs to that tab: shown only while it is open.
        self._parts_status = ""
        self.parts_browser.status_message.connect(self._parts_status_changed)

        self._build_menus()
        for widget, _title in self.extra_tabs:
            self._add_file_actions(widget)
        install_wheel_guard()  # app-wide: the wheel changes a combo or spin box only while it has the focus
        self._apply_saved_theme()
        self.retranslate()
        geometry = settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1400, 860)

    # -- menus -----------------------------------------------------------------
    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("")
        # the planner's build actions (Open/Save a build file on Ctrl+O/Ctrl+S …) go first: _add_file_actions
        self.file_actions_end = self.file_menu.addSeparator()
        self.import_action = QAction(self)
        self.import_action.setObjectName("importPartsCsv")
        self.import_action.setShortcut(QKeySequence("Ctrl+I"))
        self.import_action.triggered.connect(self.import_parts_dialog)
        self.export_action = QAction(self)
        self.export_action.setObjectName("exportPartsCsv")
        self.export_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_action.triggered.connect(self.export_parts_dialog)
        self.quit_action = QAction(self)
        self.quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        self.quit_action.triggered.connect(self.close)
        self.file_menu.addAction(self.import_action)
        self.file_menu.addAction(self.export_action)
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.quit_action)

        self.view_menu = bar.addMenu("")
        self.language_menu = self.view_menu.addMenu("")
        group = QActionGroup(self)
        group.setExclusive(True)
        self.language_actions: dict[str, QAction] = {}
        for code, name in LANGUAGES.items():
            action = QAction(name, self, checkable=True)
            action.setData(code)
            action.setChecked(code == self.languages.current)
            action.triggered.connect(lambda _checked=False, c=code: self.set_language(c))
            group.addAction(action)
            self.language_menu.addAction(action)
            self.language_actions[code] = action

        self.theme_menu = self.view_menu.addMenu("")
        self.theme_menu.setObjectName("themeMenu")
        themes = QActionGroup(self)
        themes.setExclusive(True)
        self.theme_actions: dict[str, QAction] = {}
        for choice in THEME_CHOICES:
            action = QAction(self, checkable=True)
            action.setObjectName(f"theme_{choice}")
            action.setData(choice)
            action.triggered.connect(lambda _checked=False, c=choice: self.set_theme(c))
            themes.addAction(action)
            self.theme_menu.addAction(action)
            self.theme_actions[choice] = action

        self.help_menu = bar.addMenu("")
        self.about_action = QAction(self)
        self.about_action.triggered.connect(self.show_about)
        self.help_menu.addAction(self.about_action)

    def _add_file_actions(self, widget: QWidget) -> None:
        """A tab's document actions (the planner's New, Open…, Save …) at the top of the File menu."""
        actions = getattr(widget, "file_actions", None)
        if actions is None:
            return
        for action in actions():
            if action is None:
                self.file_menu.insertSeparator(self.file_actions_end)
            else:
                self.file_menu.insertAction(self.file_actions_end, action)

    # -- colour scheme -------------------------------------------------------------------
    def _apply_saved_theme(self) -> None:
        """The scheme chosen in View → Colour scheme last time (CONFIGURATOR_THEME, where set, wins)."""
        choice = str(self.settings.value(THEME_KEY, "system") or "system")
        manager = theme_manager()
        if manager is None or os.environ.get(THEME_ENV, "").strip().lower() in ("light", "dark"):
            return
        if choice in THEME_CHOICES and choice != manager.choice:
            manager.choose(choice)

    def theme_choice(self) -> str:
        manager = theme_manager()
        if manager is not None:
            return manager.choice
        return str(self.settings.value(THEME_KEY, "system") or "system")

    def set_theme(self, choice: str) -> None:
        """View → Colour scheme: light, dark or the system's, now and at the next start."""
        self.settings.setValue(THEME_KEY, choice)
        manager = theme_manager()
        if manager is None:  # the app made one at start; a window made without (a test) makes its own
            app = QApplication.instance()
            assert isinstance(app, QApplication)
            manager = ThemeManager(app)
        manager.choose(choice)
        self._check_theme()

    def _check_theme(self) -> None:
        current = self.theme_choice()
        for choice, action in self.theme_actions.items():
            action.setChecked(choice == current)

    def retranslate(self) -> None:
        # "[*]": Qt shows it as "*" while the window is marked modified (a build with unsaved changes). The
        # application's display name ("Configurator") follows the title where the platform adds it.
        self.setWindowTitle(translate("MainWindow", "Plan, watch and measure a PyTorch machine") + "[*]")
        for i in range(len(self.extra_tabs)):
            self._set_tab_title(i)
        self.tabs.setTabText(self.tabs.indexOf(self.parts_browser), translate("MainWindow", "Parts"))
        self.file_menu.setTitle(translate("MainWindow", "&File"))
        self.import_action.setText(translate("MainWindow", "&Import parts from CSV…"))
        self.theme_menu.setTitle(translate("MainWindow", "&Colour scheme"))
        theme_names = {"system": translate("MainWindow", "Follow the &system"),
                       "light": translate("MainWindow", "&Light"), "dark": translate("MainWindow", "&Dark")}
        for choice, action in self.theme_actions.items():
            action.setText(theme_names[choice])
        self._check_theme()
        self.export_action.setText(translate("MainWindow", "&Export parts to CSV…"))
        self.quit_action.setText(translate("MainWindow", "&Quit"))
        self.view_menu.setTitle(translate("MainWindow", "&View"))
        self.language_menu.setTitle(translate("MainWindow", "&Language"))
        self.help_menu.setTitle(translate("MainWindow", "&Help"))
        self.about_action.setText(translate("MainWindow", "&About Configurator"))
        self.db_label.setText(fill(translate("MainWindow", "Database: {path}"), path=self.store.path.name))
        self.db_label.setToolTip(str(self.store.path))
        for code, action in self.language_actions.items():
            action.setChecked(code == self.languages.current)

    def _set_tab_title(self, index: int) -> None:
        widget, title = self.extra_tabs[index]
        self.tabs.setTabText(index, title() + (" *" if _modified(widget) else ""))

    def _modified_changed(self, widget: QWidget, _now_modified: bool) -> None:
        for i, (w, _title) in enumerate(self.extra_tabs):
            if w is widget:
                self._set_tab_title(i)
        self.setWindowModified(any(_modified(w) for w, _t in self.extra_tabs))

    def _connect_tab(self, widget: QWidget) -> None:
        if hasattr(widget, "status_message"):
            widget.status_message.connect(lambda text: self.statusBar().showMessage(text, 15000))
        if hasattr(widget, "notification"):
            widget.notification.connect(self.notify)
        if hasattr(widget, "modified_changed"):
            widget.modified_changed.connect(lambda modified, w=widget: self._modified_changed(w, modified))

    # -- tabs built after the first paint ---------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            QTimer.singleShot(0, self.first_painted.emit)  # once this whole paint has been flushed

    def pending(self) -> bool:
        return any(isinstance(w, PendingTab) for w, _t in self.extra_tabs)

    def build_tab(self, index: int) -> QWidget:
        """The real widget of extra tab ``index``, built now if it was pending."""
        widget, title = self.extra_tabs[index]
        if not isinstance(widget, PendingTab):
            return widget
        real = widget.factory()
        self.extra_tabs[index] = (real, title)
        current = self.tabs.currentIndex()
        self.tabs.blockSignals(True)
        self.tabs.removeTab(index)
        self.tabs.insertTab(index, real, title())
        self.tabs.setCurrentIndex(current)
        self.tabs.blockSignals(False)
        widget.deleteLater()
        self._connect_tab(real)
        self._add_file_actions(real)
        return real

    def finish_startup(self) -> None:
        """Run what waited for the first paint (the planner's first check), build the pending tabs and the Parts
        tab's rows, then run what waited for them (e.g. the planner's presets)."""
        while (step := self._next_startup_step()) is not None:
            step()

    def finish_startup_stepwise(self, done: Callable[[], None]) -> None:
        """:meth:`finish_startup` one step per turn of the event loop (the app's start-up), so that the window
        answers a click or a key between them: each step is one tab built or one piece of work (a few tenths of a
        second at most). ``done`` once every step has run."""
        step = self._next_startup_step()
        if step is None:
            done()
            return
        step()
        QTimer.singleShot(0, self, lambda: self.finish_startup_stepwise(done))

    def _next_startup_step(self) -> Callable[[], object] | None:
        if self.after_paint:
            return self.after_paint.pop(0)
        for i, (widget, _title) in enumerate(self.extra_tabs):
            if isinstance(widget, PendingTab):
                return functools.partial(self.build_tab, i)
        if not self.parts_browser.loaded:
            return self.parts_browser.ensure_loaded
        if self.after_startup:
            return self.after_startup.pop(0)
        return None

    def tab(self, kind: type[QWidget]) -> QWidget:
        """The tab of this class (built if it was pending), made the current tab."""
        for i in range(len(self.extra_tabs)):
            widget, _title = self.extra_tabs[i]
            if isinstance(widget, PendingTab):
                widget = self.build_tab(i)
            if isinstance(widget, kind):
                self.tabs.setCurrentWidget(widget)
                return widget
        raise LookupError(kind.__name__)

    def _parts_status_changed(self, text: str) -> None:
        self._parts_status = text
        if self.tabs.currentWidget() is self.parts_browser:
            self.statusBar().showMessage(text, 0)

    def _tab_changed(self, index: int) -> None:
        """Prices edited in the Parts tab show up in the planner when it is shown again."""
        extra = [w for w, _t in self.extra_tabs]
        if 0 <= index < len(extra) and isinstance(extra[index], PendingTab):
            self.build_tab(index)  # opened before the start-up finished building it
        widget = self.tabs.widget(index)
        if widget is self.parts_browser:
            self.parts_browser.ensure_loaded()
            if self._parts_status:
                self.statusBar().showMessage(self._parts_status, 0)
        elif self._parts_status and self.statusBar().currentMessage() == self._parts_status:
            self.statusBar().clearMessage()
        reload = getattr(widget, "reload_catalogue", None)
        if reload is not None and self._parts_dirty:
            reload()
            self._parts_dirty = False

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _mark_parts_dirty(self, *_args: object) -> None:
        self._parts_dirty = True

    def set_language(self, code: str) -> None:
        if code != self.languages.current:
            self.languages.switch(code)

    # -- import / export ---------------------------------------------------------
    def import_parts_dialog(self) -> None:
        path = open_file(self, self.settings, "parts-csv", translate("MainWindow", "Import parts"), Path.home(),
                         translate("MainWindow", "CSV files (*.csv);;All files (*)"))
        if path:
            self.import_parts(Path(path))

    def import_parts(self, path: Path) -> None:
        self.statusBar().showMessage(fill(translate("MainWindow", "Importing {path}…"), path=str(path)))
        self.tasks.submit(lambda: import_csv(path, self.parts),
                          lambda result: self._imported(path, result),
                          lambda exc, _tb: self._import_failed(path, exc))

    def _imported(self, path: Path, result: ImportResult) -> None:
        touched = result.added or result.replaced or result.prices_updated
        self.parts_browser.reload(select_id=touched[0] if touched else None)
        self._parts_dirty = True
        text = (fill(translate("MainWindow", "Imported {path}: {added} new custom parts, {prices} prices updated, "
                                             "{replaced} custom parts replaced, {unchanged} unchanged."),
                     path=path.name, added=str(len(result.added)), prices=str(len(result.prices_updated)),
                     replaced=str(len(result.replaced)), unchanged=str(len(result.unchanged))))
        self.statusBar().showMessage(text, 15000)
        self.last_import_message = text

    def _import_failed(self, path: Path, exc: BaseException) -> None:
        if isinstance(exc, CsvImportError):
            lines = [fill(translate("MainWindow", "line {line}"), line=str(e.line)) + ": "
                     + e.error.render(translate) for e in exc.errors]
            shown = lines[:30]
            if len(lines) > 30:
                shown.append(fill(translate("MainWindow", "… and {n} more"), n=str(len(lines) - 30)))
            detail = "\n".join(shown)
        else:
            detail = str(exc)
        self.statusBar().showMessage(translate("MainWindow", "Import failed; nothing was changed."), 15000)
        box = QMessageBox(QMessageBox.Icon.Warning, translate("MainWindow", "Import failed"),
                          fill(translate("MainWindow", "{path} was not imported and nothing was changed. "
                                                       "Fix these rows and import it again:"), path=path.name),
                          QMessageBox.StandardButton.Ok, self)
        box.setDetailedText(detail)
        box.setInformativeText(detail if len(detail) < 600 else detail[:600] + "…")
        box.setObjectName("importErrorBox")
        self.last_import_error = detail
        box.open()

    def export_parts_dialog(self) -> None:
        path = save_file(self, self.settings, "parts-csv", translate("MainWindow", "Export parts"),
                         Path.home() / "parts.csv", translate("MainWindow", "CSV files (*.csv)"))
        if path:
            self.export_parts(Path(path))

    def export_parts(self, path: Path) -> None:
        parts = self.parts.list_parts()
        self.tasks.submit(lambda: export_csv(parts, path),
                          lambda n: self.statusBar().showMessage(
                              fill(translate("MainWindow", "Wrote {n} parts to {path}."), n=str(n), path=str(path)),
                              15000),
                          lambda exc, _tb: self._export_failed(path, exc))

    def _export_failed(self, path: Path, exc: BaseException) -> None:
        QMessageBox.warning(
            self, translate("MainWindow", "Export failed"),
            fill(translate("MainWindow", "Could not write {path}: {error}"), path=str(path), error=str(exc)))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls()
        if urls and all(u.toLocalFile().lower().endswith(".csv") for u in urls):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        for url in event.mimeData().urls():
            self.import_parts(Path(url.toLocalFile()))
        event.acceptProposedAction()

    def notify(self, title: str, text: str) -> None:
        """A desktop notification through the tray icon, where the desktop has one."""
        if self.tray is not None and self.tray.supportsMessages():
            self.tray.showMessage(title, text, QIcon(), 10000)

    # -- misc ----------------------------------------------------------------------
    def show_about(self) -> None:
        from configurator.ui.diagnostics import about_text

        driver, log_path = self.about_info()
        box = QMessageBox(QMessageBox.Icon.Information, translate("MainWindow", "About Configurator"),
                          about_text(driver, self.store.path, log_path), QMessageBox.StandardButton.Ok, self)
        box.setObjectName("aboutBox")
        rules = box.addButton(translate("MainWindow", "Rules catalogue…"), QMessageBox.ButtonRole.ActionRole)
        rules.setObjectName("aboutRulesButton")
        rules.clicked.connect(self.show_rules_catalogue)
        box.setEscapeButton(QMessageBox.StandardButton.Ok)  # with two buttons Qt picks none: Esc would not close
        self.last_about = box
        box.open()

    def show_rules_catalogue(self) -> None:
        """Every rule ID the findings cite, in the user's language (About → Rules catalogue)."""
        from configurator.ui.diagnostics import rules_catalogue_dialog

        dialog = rules_catalogue_dialog(self)
        self.last_rules_catalogue = dialog
        dialog.open()

    def closeEvent(self, event: QCloseEvent) -> None:
        for widget, _title in self.extra_tabs:  # a build with unsaved changes: Save / Discard / Cancel
            if hasattr(widget, "maybe_discard") and not widget.maybe_discard():
                event.ignore()
                return
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.parts_browser.save_state()
        self.settings.sync()
        self.tasks.wait(10000)
        if self.tray is not None:
            self.tray.hide()
        self.statusBar().clearMessage()  # and with it the message's timer: a closed window runs none
        super().closeEvent(event)

