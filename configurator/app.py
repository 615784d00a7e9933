"""Composition root: opens the store, builds the services, starts Qt."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from configurator.paths import default_db_path
from configurator.store.database import Store, StoreError, open_store
from configurator.store.repository import PartsRepository
from configurator.ui.diagnostics import WELCOME_KEY, install_excepthook, setup_logging, welcome_text
from configurator.ui.i18n import LanguageManager, translate
from configurator.ui.main_window import MainWindow
from configurator.ui.pyside_workaround import protect_singletons
from configurator.ui.tasks import TaskRunner

log = logging.getLogger(__name__)


@dataclass
class Services:
    store: Store
    parts: PartsRepository
    settings: QSettings
    languages: LanguageManager
    tasks: TaskRunner
    notices: list[tuple[str, str]]  # (title, text) to show once the window is up
    fake_gpus: int | None = None
    # Run at shutdown (and by tests): stop samplers, cancel runs, close servers.
    cleanups: list[Callable[[], None]] = field(default_factory=list)
    driver_version: Callable[[], str | None] = lambda: None  # the NVIDIA driver, once NVML reported it
    log_path: Path | None = None

    def close(self) -> None:
        while self.cleanups:
            self.cleanups.pop()()
        self.tasks.wait()
        self.store.close()


TabTitle = Callable[[], str]


def make_settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "configurator", "configurator")


def build_services(args: argparse.Namespace, settings: QSettings | None = None) -> Services:
    # PySide6 6.12.0 on Python 3.11 loses a reference to None/True on every call; without this
    # the app aborts after minutes of live plots (see the module).
    protect_singletons()
    settings = settings or make_settings()
    languages = LanguageManager(settings)
    languages.install(languages.initial(getattr(args, "lang", None)))
    notices: list[tuple[str, str]] = []
    path = default_db_path(getattr(args, "db", None))
    try:
        store = open_store(path)
    except StoreError as exc:
        # The database cannot be created where asked (read-only folder, full disk …):
        # keep working on a temporary one and say so.
        fallback = Path(tempfile.mkdtemp(prefix="configurator-")) / "configurator.db"
        store = open_store(fallback)
        notices.append((translate("App", "Database not available"),
                        exc.message.render(translate) + "\n\n" + translate(
                            "App", "The app is using a temporary database at {path} for now: changes made "
                                   "in this session will not be kept.").replace("{path}", str(fallback))))
    if store.recovered is not None:
        notices.append((translate("App", "Database repaired"), store.recovered.message().render(translate)))
    return Services(store, PartsRepository(store), settings, languages, TaskRunner(), notices,
                    fake_gpus=getattr(args, "fake_gpus", None))


def build_tabs(services: Services) -> list[tuple[QWidget, TabTitle]]:
    """The feature tabs after Parts, each with a function giving its (translated) title.

    Each feature adds one block here: build its services, register their cleanup,
    append its widget.
    """
    tabs: list[tuple[QWidget, TabTitle]] = []

    # Planner: the engine checks the build as it is edited; builds are saved in the database.
    from configurator.store.bench_results import BenchResultsRepository
    from configurator.store.repository import BuildsRepository
    from configurator.ui.planner.tab import PlannerTab

    planner = PlannerTab(services.parts, BuildsRepository(services.store), services.settings,
                         runs_for_build=BenchResultsRepository(services.store).runs_for_build)
    tabs.append((planner, lambda: translate("MainWindow", "Planner")))

    # Monitor: sampler thread (real NVML, or --fake-gpus N) → history, alerts, exporter, recorder.
    from configurator.monitor.service import MonitorService
    from configurator.store.recordings import RecordingsRepository
    from configurator.ui.monitor import MonitorTab
    try:
        interval = min(60.0, max(0.1, float(str(services.settings.value("monitor/interval", 1.0)))))
    except (TypeError, ValueError):
        interval = 1.0
    monitor = MonitorService.create(services.fake_gpus, interval_s=interval)
    monitor.start()
    services.cleanups.append(monitor.stop)

    def driver_version() -> str | None:
        snap = monitor.latest
        return snap.nvml.driver_version if snap is not None else None

    services.driver_version = driver_version
    monitor_tab = MonitorTab(monitor, RecordingsRepository(services.store), services.settings, services.tasks)
    services.cleanups.append(monitor_tab.shutdown)
    tabs.append((monitor_tab, lambda: translate("MainWindow", "Monitor")))

    # Benchmark: suites run in child processes (QProcess); results stored per machine.
    from configurator.core.measured import estimate_measurement
    from configurator.ui.bench import BenchmarkTab, QtSuiteRunner

    bench_runner = QtSuiteRunner()
    services.cleanups.append(bench_runner.shutdown)
    def estimate_for(fingerprint: dict[str, Any], row: Any) -> tuple[float, str, str] | None:
        """The planner's estimate for a measured result, on the hardware the run detected."""
        found = estimate_measurement(planner.catalogue, fingerprint, row.name, row.settings)
        if found is None:
            return None
        value, unit, how = found
        return value, unit, how.render(translate)

    bench_tab = BenchmarkTab(bench_runner, services.tasks, services.settings,
                             BenchResultsRepository(services.store), BuildsRepository(services.store),
                             estimate_for=estimate_for)
    tabs.append((bench_tab, lambda: translate("MainWindow", "Benchmark")))
    return tabs


def build_window(services: Services) -> MainWindow:
    window = MainWindow(services.store, services.parts, services.settings, services.languages, services.tasks,
                        build_tabs(services))
    window.about_info = lambda: (services.driver_version(), services.log_path)
    return window


def run_gui(args: argparse.Namespace) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setOrganizationName("configurator")
    app.setApplicationName("configurator")
    app.setApplicationDisplayName("Configurator")
    from configurator.ui.icons import APP_ID, app_icon

    app.setWindowIcon(app_icon())
    app.setDesktopFileName(APP_ID)  # Wayland matches the window to the .desktop file (and its icon) by this
    log_path = setup_logging()
    services = build_services(args)
    services.log_path = log_path
    window = build_window(services)
    install_excepthook(log_path, lambda: window)
    window.show()
    for title, text in services.notices:
        log.warning("%s: %s", title, text)
        QMessageBox.warning(window, title, text)
    if not services.settings.value(WELCOME_KEY, False, type=bool):
        services.settings.setValue(WELCOME_KEY, True)
        box = QMessageBox(QMessageBox.Icon.Information, translate("App", "Welcome"), welcome_text(),
                          QMessageBox.StandardButton.Ok, window)
        box.open()
    log.info("ready")
    if os.environ.get("CONFIGURATOR_QUIT_WHEN_SHOWN"):  # start-up benchmark: quit once painted
        app.processEvents()
        window.repaint()
        services.close()
        return 0
    code = app.exec()
    services.close()
    return int(code)
