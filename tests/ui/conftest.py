from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from configurator.app import Services, build_services, build_window
from configurator.ui.main_window import MainWindow


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def services(qapp, db_path: Path, settings: QSettings):  # type: ignore[no-untyped-def]
    s = build_services(argparse.Namespace(db=str(db_path), lang="en"), settings)
    yield s
    s.languages.install("en")
    s.close()


@pytest.fixture
def window(qtbot, services: Services) -> MainWindow:  # type: ignore[no-untyped-def]
    w = build_window(services)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w
