"""Where the shipped data lives, and where the user's data goes.

In a wheel, ``db/``, ``resources/`` and ``docs/rules.md`` are force-included under
``configurator/_data/``; in a source checkout they sit beside the package. The
PyInstaller bundle (packaging/configurator.spec) puts them at ``configurator/_data/``
under ``sys._MEIPASS`` too, where the frozen modules' ``__file__`` points.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

_PKG = Path(__file__).resolve().parent
APP_NAME = "configurator"


def _data_root() -> Path:
    bundled = _PKG / "_data"
    if (bundled / "db").is_dir():
        return bundled
    return _PKG.parent


DATA_ROOT = _data_root()
DB_DIR = DATA_ROOT / "db"
CATALOGUE_DIR = DB_DIR / "catalogue"
MIGRATIONS_DIR = DB_DIR / "migrations"
MEASUREMENTS_DIR = DB_DIR / "measurements"
RESOURCES_DIR = DATA_ROOT / "resources"
TRANSLATIONS_DIR = RESOURCES_DIR / "translations"
RULES_DOC = DATA_ROOT / "docs" / "rules.md"  # the rules catalogue (generated: make docs)


def is_frozen() -> bool:
    """Running as the PyInstaller bundle (packaging/configurator.spec)."""
    return bool(getattr(sys, "frozen", False))


def worker_source_dir() -> Path | None:
    """In the frozen app: the folder holding the benchmark worker as plain ``.py`` source.

    The worker runs under the user's own Python (where torch is), which cannot import from
    the bundle's archive; ``child_env`` puts this folder on its ``PYTHONPATH``. ``None``
    when not frozen (the worker then runs from the package itself).
    """
    if not is_frozen():
        return None
    base = getattr(sys, "_MEIPASS", None)
    return Path(base if base else Path(sys.executable).resolve().parent) / "worker_src"


def user_data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


class EmptyDbPathError(ValueError):
    """``--db ""`` or ``CONFIGURATOR_DB=""``: a database path given, but empty (``source`` says which)."""

    def __init__(self, source: str):
        self.source = source
        super().__init__(f"{source} is empty")


def db_location(explicit: str | os.PathLike[str] | None = None) -> tuple[Path, bool]:
    """The database file and whether it is the app's own: ``--db PATH`` wins, then ``CONFIGURATOR_DB``
    (both the user's: a file there that is not a database is never set aside), then ``configurator.db`` in
    the per-user data dir (``owned``: the app's own, set aside if damaged). An empty path, given by either,
    raises EmptyDbPathError rather than quietly meaning the default."""
    if explicit is not None:
        if not os.fspath(explicit):
            raise EmptyDbPathError("--db")
        return Path(explicit).expanduser(), False
    env = os.environ.get("CONFIGURATOR_DB")
    if env is not None:
        if not env:
            raise EmptyDbPathError("CONFIGURATOR_DB")
        return Path(env).expanduser(), False
    return user_data_dir() / "configurator.db", True


def default_db_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``--db PATH`` wins, then ``CONFIGURATOR_DB``, then the per-user data dir (see db_location)."""
    return db_location(explicit)[0]
