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

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from configurator.core.i18n import fill
from configurator.paths import db_location
from configurator.store.database import Store, StoreError, open_store
from configurator.store.repository import PartsRepository
from configurator.store.seed import seed_store
from configurator.ui.diagnostics import WELCOME_KEY, install_excepthook, setup_logging, welcome_text
from configurator.ui.gui_thread_gc import GuiThreadCollector
from configurator.ui.i18n import LanguageManager, translate
from configurator.ui.main_window import MainWindow, TabFactory, TabTitle
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


def make_settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "configurator", "configurator")


def open_user_store(path: Path, owned: bool) -> tuple[Store, tuple[str, str] | None]:
    """The user's database and at most one notice (one dialog) about it.

    The user's file is never touched when it cannot be used (locked, disk full, made by a newer
    version, not a configurator database …): the app then says so and works on a temporary
    database. A read-only database opens read-only, not a temporary one.
    """
    try:
        store = open_store(path, owned=owned, seed=seed_store)
    except StoreError as exc:
        fallback = Path(tempfile.mkdtemp(prefix="configurator-")) / "configurator.db"
        store = open_store(fallback, seed=seed_store)
        return store, (translate("App", "Database not available"),
                       exc.message.render(translate) + "\n\n" + translate("App", "Your database was not changed.")
                       + " " + fill(translate(
                                "App", "The app is using a temporary database at {path} for now: changes made "
                                       "in this session will not be kept."), path=str(fallback)))
    texts: list[str] = []
    title = ""
    if store.recovered is not None:
        title = translate("App", "Database repaired")
        texts.append(store.recovered.message().render(translate))
    if store.read_only and store.read_only_reason is not None:
        title = title or translate("App", "Database is read-only")
        texts.append(store.read_only_reason.render(translate))
    if store.notices:
        title = title or translate("App", "Database problems")
        texts.extend(m.render(translate) for m in store.notices)
    return store, ((title, "\n\n".join(texts)) if texts else None)


def build_services(args: argparse.Namespace, settings: QSettings | None = None) -> Services:
    settings = settings or make_settings()
    languages = LanguageManager(settings)
    languages.install(languages.initial(getattr(args, "lang", None)))
    notices: list[tuple[str, str]] = []
    path, owned = db_location(getattr(args, "db", None))  # only the default location is the app's own
    store, notice = open_user_store(path, owned=owned)
    if notice is not None:
        notices.append(notice)
    return Services(store, PartsRepository(store), settings, languages, TaskRunner(), notices,
                    fake_gpus=getattr(args, "fake_gpus", None))


def build_tabs(services: Services, defer: bool = False, after_startup: list[Callable[[], None]] | None = None,
               after_paint: list[Callable[[], None]] | None = None) -> list[tuple[QWidget | TabFactory, TabTitle]]:
    """The feature tabs before Parts, each with a function giving its (translated) title.

    Each feature adds one block here: build its services, register their cleanup,
    append its widget. With ``defer`` only the first tab (the one shown at start) is
    built now; the others are factories that the main window calls once it has been
    painted (``MainWindow.finish_startup``), so start-up does not wait for NVML, the
    sampler or the benchmark tab; what else waits for that is appended to ``after_startup``, and what waits for
    the first paint only (run before the pending tabs are built) to ``after_paint``.
    """
    tabs: list[tuple[QWidget | TabFactory, TabTitle]] = []

    # Planner: the engine checks the build as it is edited; builds are saved in the database.
    # Deferred start: its first check and the guides' tier presets (a search over the catalogue) come after the first
    # paint.
    from configurator.store.bench_results import BenchResultsRepository
    from configurator.store.recordings import RecordingsRepository
    from configurator.store.repository import BuildsRepository
    from configurator.ui.planner.tab import PlannerTab
    from configurator.ui.planner.upgrade_evidence import UpgradeSources

    bench_results = BenchResultsRepository(services.store)
    upgrade_sources = UpgradeSources(RecordingsRepository(services.store).list, lambda: bench_results.runs(limit=50),
                                     bench_results.get)
    monitors: list[Any] = []  # the monitor's service, once its tab is built (the benchmarks read its GPU samples)

    def detect_machine(catalogue: dict[str, Any]) -> Any:
        """This machine as catalogue parts: the GPUs as the monitor last sampled them (nothing but its
        sampler calls NVML), the rest from /proc, /sys and DMI (core.detect)."""
        from configurator.core.detect import detect
        from configurator.host.facts import read_facts, sampled_gpus

        snap = monitors[0].latest if monitors else None
        gpus, error = sampled_gpus(snap, translate("Planner", "the monitor has not sampled the GPUs yet"))
        return detect(read_facts(gpus, error), catalogue)

    planner = PlannerTab(services.parts, BuildsRepository(services.store), services.settings,
                         runs_for_build=bench_results.runs_for_build,
                         load_presets=not (defer and after_startup is not None), tasks=services.tasks,
                         upgrade_sources=upgrade_sources, detect_machine=detect_machine)
    if defer and after_startup is not None:
        # the first check right after the paint, the tiers (and the chart's reference bars) once the tabs are built
        (after_paint if after_paint is not None else after_startup).append(planner.check_first)
        after_startup.append(planner.load_presets)
    tabs.append((planner, lambda: translate("MainWindow", "Planner")))

    def monitor() -> QWidget:
        # Sampler thread (real NVML, or --fake-gpus N) → history, alerts, exporter, recorder.
        from configurator.monitor.service import MonitorService
        from configurator.store.recordings import RecordingsRepository
        from configurator.ui.monitor import MonitorTab
        try:
            interval = min(60.0, max(0.1, float(str(services.settings.value("monitor/interval", 1.0)))))
        except (TypeError, ValueError):
            interval = 1.0
        service = MonitorService.create(services.fake_gpus, interval_s=interval)
        service.start()
        monitors.append(service)
        services.cleanups.append(service.stop)

        def driver_version() -> str | None:
            snap = service.latest
            return snap.nvml.driver_version if snap is not None else None

        services.driver_version = driver_version
        tab = MonitorTab(service, RecordingsRepository(services.store), services.settings, services.tasks)
        services.cleanups.append(tab.shutdown)
        return tab

    tabs.append((monitor if defer else monitor(), lambda: translate("MainWindow", "Monitor")))

    def benchmark() -> QWidget:
        # Suites run in child processes (QProcess); results stored per machine.
        from configurator.core.measured import estimate_measurement
        from configurator.ui.bench import BenchmarkTab, QtSuiteRunner

        runner = QtSuiteRunner()
        services.cleanups.append(runner.shutdown)

        def estimate_for(fingerprint: dict[str, Any], row: Any) -> tuple[float, str, str] | None:
            """The planner's estimate for a measured result, on the hardware the run detected."""
            found = estimate_measurement(planner.catalogue, fingerprint, row.name, row.settings)
            if found is None:
                return None
            value, unit, how = found
            return value, unit, how.render(translate)

        def gpus() -> tuple[Any, ...]:
            """The GPUs as the monitor last sampled them (nothing but its sampler calls NVML)."""
            snap = monitors[0].latest if monitors else None
            return snap.gpus if snap is not None else ()

        tab = BenchmarkTab(runner, services.tasks, services.settings, BenchResultsRepository(services.store),
                           BuildsRepository(services.store), estimate_for=estimate_for, gpus=gpus)
        services.cleanups.append(tab.shutdown)
        # Qt owns the runner with the tab: its timers' connections (a lambda holding the runner) are a
        # cycle Python's collector cannot see, which kept the runner, and through its slots the window,
        # alive after the window was destroyed.
        runner.setParent(tab)
        tab.run_saved.connect(planner.reload_local_measurements)  # this machine's benchmarks calibrate it
        return tab

    tabs.append((benchmark if defer else benchmark(), lambda: translate("MainWindow", "Benchmark")))
    return tabs


def build_window(services: Services, defer: bool = False) -> MainWindow:
    """The main window; ``defer``: the app's start-up (see build_tabs), else everything built now."""
    later: list[Callable[[], None]] = []
    painted: list[Callable[[], None]] = []
    window = MainWindow(services.store, services.parts, services.settings, services.languages, services.tasks,
                        build_tabs(services, defer, later, painted), defer=defer)
    window.after_paint.extend(painted)
    window.after_startup.extend(later)
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
    from configurator.ui.theme import setup_theme

    setup_theme(app)  # light or dark as the system says (or CONFIGURATOR_THEME), followed while it runs
    collector = GuiThreadCollector(app)
    collector.start()  # reference cycles (and the widgets in them) are collected in the GUI thread only
    services = build_services(args)
    services.log_path = log_path
    window = build_window(services, defer=True)
    install_excepthook(log_path, lambda: window)
    # CONFIGURATOR_QUIT_WHEN_SHOWN (start-up benchmark, package smoke test): "1" quits once the
    # window is painted, "loaded" once the tabs built after that are done too.
    quit_when = os.environ.get("CONFIGURATOR_QUIT_WHEN_SHOWN", "")

    started: list[bool] = []

    def painted() -> None:
        if started:
            return
        started.append(True)
        log.info("ready")
        if quit_when == "1":
            app.quit()
            return

        def built() -> None:
            log.info("all tabs built")
            if quit_when == "loaded":
                app.quit()

        window.finish_startup_stepwise(built)

    window.first_painted.connect(painted)
    window.show()
    # A window that is not painted (started minimised, on a hidden workspace) still gets its
    # monitor and tabs: the rest of the start-up does not wait for a paint for ever.
    QTimer.singleShot(3000, painted)
    for title, text in services.notices:
        log.warning("%s: %s", title, text)
        QMessageBox.warning(window, title, text)
    if not services.settings.value(WELCOME_KEY, False, type=bool):
        services.settings.setValue(WELCOME_KEY, True)
        box = QMessageBox(QMessageBox.Icon.Information, translate("App", "Welcome"), welcome_text(),
                          QMessageBox.StandardButton.Ok, window)
        box.open()
    code = app.exec()
    services.close()
    return int(code)
