"""Test set-up: offscreen Qt, a private home for settings and data, a fresh database each."""

from __future__ import annotations

import importlib.util
import os
import tempfile
import threading
from pathlib import Path

# Before Qt or platformdirs are imported anywhere.
os.environ["QT_QPA_PLATFORM"] = "offscreen"
_HOME = Path(tempfile.mkdtemp(prefix="configurator-tests-"))
os.environ["XDG_CONFIG_HOME"] = str(_HOME / "config")
os.environ["XDG_DATA_HOME"] = str(_HOME / "data")
os.environ.pop("CONFIGURATOR_DB", None)
for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(var, None)
os.environ["LANG"] = "C.UTF-8"

import pytest  # noqa: E402

from configurator.store.database import Store, open_store  # noqa: E402
from configurator.store.repository import PartsRepository  # noqa: E402


def pytest_addoption(parser: pytest.Parser) -> None:
    if importlib.util.find_spec("pytestqt") is None:  # the headless step: pyproject's qt_api is pytest-qt's
        parser.addini("qt_api", "the Qt binding pytest-qt uses (pytest-qt is not installed here)")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "configurator.db"


@pytest.fixture
def store(db_path: Path):  # type: ignore[no-untyped-def]
    s = open_store(db_path)
    yield s
    s.close()


@pytest.fixture
def repo(store: Store) -> PartsRepository:
    return PartsRepository(store)


@pytest.fixture(autouse=True)
def no_leftover_threads():  # type: ignore[no-untyped-def]
    """A test that leaves a thread running fails."""
    before = set(threading.enumerate())
    yield
    left = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    for t in left:
        t.join(timeout=5)
    left = [t.name for t in left if t.is_alive()]
    assert not left, f"threads left running: {left}"
