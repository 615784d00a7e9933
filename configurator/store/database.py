"""Opening the database safely.

``open_store(path)``:

1. checks the file with ``PRAGMA integrity_check``; a file that is not a
   database or fails the check is renamed ``<name>.corrupt-<YYYYmmdd-HHMMSS>``
   together with its ``-wal``/``-shm`` files (never deleted) and a fresh
   database is made; the caller is told through ``Store.recovered``;
2. turns on WAL and foreign keys;
3. migrates to the Alembic head (importing Alembic only when the stored
   revision is not the head), after copying an existing database aside;
4. seeds or updates the shipped catalogue (only when it changed).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message

# The newest migration in db/migrations/versions; a test asserts it is Alembic's one head.
SCHEMA_HEAD = "0003"

_SIDE_FILES = ("-wal", "-shm", "-journal")


class StoreError(RuntimeError):
    """The database cannot be opened or created at all (e.g. the folder is read-only)."""

    def __init__(self, message: Message):
        self.message = message
        super().__init__(message.render())


@dataclass(frozen=True)
class Recovery:
    """What happened to a damaged database file."""

    original: Path
    moved_to: Path
    moved_files: tuple[Path, ...]
    reason: str

    def message(self) -> Message:
        return Message(
            "store",
            QT_TRANSLATE_NOOP(
                "store",
                "The database {original} was damaged ({reason}). It was kept as {moved_to} "
                "and a fresh database was created. Your saved builds and edited prices are in "
                "the old file; it can be opened with any SQLite tool.",
            ),
            {"original": str(self.original), "moved_to": str(self.moved_to), "reason": self.reason},
        )


@dataclass
class Store:
    path: Path
    engine: Engine
    session_factory: sessionmaker[Session]
    recovered: Recovery | None = None
    backup: Path | None = None
    catalogue_changes: dict[str, int] = field(default_factory=dict)

    def session(self) -> Session:
        return self.session_factory()

    def close(self) -> None:
        self.engine.dispose()


def check_integrity(path: Path) -> str | None:
    """``None`` if the file is a healthy SQLite database, else the reason it is not."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    try:
        # Read-only: a read-write open of a damaged file lets SQLite delete its -wal/-shm,
        # which must be kept aside with it.
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error as exc:
        return str(exc)
    try:
        rows = con.execute("PRAGMA integrity_check").fetchall()
        if rows != [("ok",)]:
            return "; ".join(str(r[0]) for r in rows[:3])
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    finally:
        con.close()
    return None


def quarantine(path: Path, reason: str, now: datetime | None = None) -> Recovery:
    """Rename a damaged database and its side files; never delete anything."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    moved = [target]
    os.replace(path, target)
    for suffix in _SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.exists():
            dest = target.with_name(target.name + suffix)
            os.replace(side, dest)
            moved.append(dest)
    return Recovery(path, target, tuple(moved), reason)


def stored_revision(path: Path) -> str | None:
    if not path.exists() or path.stat().st_size == 0:
        return None
    con = sqlite3.connect(str(path))
    try:
        has = con.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='alembic_version'"
        ).fetchone()
        if not has:
            return None
        row = con.execute("SELECT version_num FROM alembic_version").fetchone()
        return row[0] if row else None
    finally:
        con.close()


def backup_copy(path: Path, label: str) -> Path:
    """A consistent copy (SQLite backup API, WAL included) beside the database."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    dest = path.with_name(f"{path.name}.backup-{label}-{stamp}")
    src = sqlite3.connect(str(path))
    try:
        dst = sqlite3.connect(str(dest))
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    return dest


def _on_connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def make_engine(path: Path) -> Engine:
    engine = create_engine(f"sqlite:///{path}", future=True)
    event.listen(engine, "connect", _on_connect)
    return engine


def open_store(
    path: Path,
    *,
    seed: bool = True,
    progress: Callable[[str], None] | None = None,
) -> Store:
    """Open (creating, repairing, migrating and seeding as needed) the database at ``path``."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(
            Message(
                "store",
                QT_TRANSLATE_NOOP("store", "Cannot create the folder for the database {path}: {error}"),
                {"path": str(path.parent), "error": exc.strerror or str(exc)},
            )
        ) from exc

    recovered: Recovery | None = None
    reason = check_integrity(path)
    if reason is not None:
        recovered = quarantine(path, reason)

    revision = stored_revision(path)
    backup: Path | None = None
    if revision != SCHEMA_HEAD:
        existing = path.exists() and path.stat().st_size > 0 and revision is not None
        if existing:
            backup = backup_copy(path, f"rev{revision}")
        from configurator.store.migrate import upgrade_to_head

        engine = make_engine(path)
        if progress:
            progress("migrating")
        try:
            upgrade_to_head(engine)
        except Exception as exc:
            engine.dispose()
            raise StoreError(
                Message(
                    "store",
                    QT_TRANSLATE_NOOP(
                        "store", "Could not prepare the database {path}: {error}. A copy is at {backup}."
                    ),
                    {"path": str(path), "error": str(exc), "backup": str(backup)},
                )
            ) from exc
    else:
        engine = make_engine(path)

    try:
        with engine.connect() as con:
            con.exec_driver_sql("SELECT 1")
    except Exception as exc:  # read-only folder, locked file …
        engine.dispose()
        raise StoreError(
            Message(
                "store",
                QT_TRANSLATE_NOOP("store", "Cannot open the database {path}: {error}"),
                {"path": str(path), "error": str(exc)},
            )
        ) from exc

    store = Store(path, engine, sessionmaker(engine, expire_on_commit=False), recovered, backup)
    if seed:
        from configurator.store.catalogue import sync_catalogue

        store.catalogue_changes = sync_catalogue(store)
    return store
