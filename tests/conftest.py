"""Test set-up: offscreen Qt, a private home for settings and data, a fresh database each (a copy of one
seeded per session), and the split of the suite between `make test`'s two environments."""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
import threading
from pathlib import Path

# Before Qt or platformdirs are imported anywhere.
os.environ["QT_QPA_PLATFORM"] = "offscreen"
_HOME = Path(tempfile.mkdtemp(prefix="configurator-tests-"))
os.environ["XDG_CONFIG_HOME"] = str(_HOME / "config")
os.environ["XDG_DATA_HOME"] = str(_HOME / "data")
os.environ["XDG_CACHE_HOME"] = str(_HOME / "cache")  # the kept fits (core/estimate/theta_cache.py), per session
os.environ.pop("CONFIGURATOR_DB", None)
for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(var, None)
os.environ["LANG"] = "C.UTF-8"

import pytest  # noqa: E402

from configurator.store.database import Store, open_store  # noqa: E402
from configurator.store.repository import PartsRepository  # noqa: E402
from configurator.store.seed import seed_store  # noqa: E402


def pytest_addoption(parser: pytest.Parser) -> None:
    if importlib.util.find_spec("pytestqt") is None:  # the headless step: pyproject's qt_api is pytest-qt's
        parser.addini("qt_api", "the Qt binding pytest-qt uses (pytest-qt is not installed here)")


TESTS = Path(__file__).resolve().parent
# The layers that must work without Qt or torch: their tests run in the headless step (`make
# test-headless`, an environment without PySide6, pyqtgraph and torch), all but those marked full_env.
QT_FREE = ("core", "store", "monitor", "bench", "cli")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test runs once per `make test`: a test of a Qt-free layer is marked ``headless`` (run by the
    headless step, left out of the main suite by ``-m "not headless"``) unless it is marked ``full_env``
    (it needs torch or PySide6, so it runs in the main suite). A headless test that imports either fails
    there with an ImportError: the mark is never missing silently."""
    for item in items:
        parts = item.path.relative_to(TESTS).parts
        if len(parts) > 1 and parts[0] in QT_FREE and item.get_closest_marker("full_env") is None:
            item.add_marker(pytest.mark.headless)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where a test's database goes; nothing is there yet (see ``seeded_db`` for one made)."""
    return tmp_path / "configurator.db"


@pytest.fixture(scope="session")
def seeded_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database as the app's start makes a new one (schema, catalogue, published measurements), made once
    per session (a third of a second) and copied for each test that wants one (a few milliseconds)."""
    path = tmp_path_factory.mktemp("template") / "configurator.db"
    open_store(path, seed=seed_store).close()
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name], "the template left a -wal or -shm"
    return path


@pytest.fixture
def seeded_db(db_path: Path, seeded_template: Path) -> Path:
    """``db_path`` holding a new seeded database, as the first start leaves it."""
    shutil.copyfile(seeded_template, db_path)
    return db_path


@pytest.fixture
def store(seeded_db: Path):  # type: ignore[no-untyped-def]
    s = open_store(seeded_db, seed=seed_store)
    yield s
    s.close()


@pytest.fixture
def repo(store: Store) -> PartsRepository:
    return PartsRepository(store)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """``item.failed_call``: the test itself failed (teardown checks that would only repeat it step aside)."""
    report = yield
    if report.when == "call":
        item.failed_call = report.failed  # type: ignore[attr-defined]
    return report


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
