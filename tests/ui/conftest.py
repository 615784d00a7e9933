from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from dialogs import forget_unsaved
from PySide6.QtCore import QSettings

from configurator.app import Services, build_services, build_window


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
def window(qtbot, services: Services):  # type: ignore[no-untyped-def]
    w = build_window(services)
    w.show()
    qtbot.waitExposed(w)
    yield w
    # Closed here rather than by qtbot.addWidget (pytest-qt closes those before fixtures end): a
    # build the test left modified would ask Save / Discard / Cancel.
    forget_unsaved(w)
    w.close()
