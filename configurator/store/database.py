"""Opening the database safely: never lose a user's data.

``open_store(path)`` tells apart a *damaged* file from one that merely cannot be
used right now:

- damaged (the SQLite header but a failed ``PRAGMA integrity_check``, or, when
  the path is our own, ``owned=True``, a file that is not SQLite at all): renamed
  ``<name>.corrupt-<YYYYmmdd-HHMMSS>`` together with its ``-wal``/``-shm`` files
  (never deleted), a fresh database is made, the caller is told through
  ``Store.recovered``;
- everything else is a :class:`StoreError` with one clear line and a ``kind``
  (locked by another program, disk full, read-only, not ours, made by a newer
  version …) and the file is left exactly where and as it is;
- a database the app may not write (read-only file, folder or mount) opens
  read-only: ``Store.read_only`` and ``Store.read_only_reason`` say why, and a
  write raises a :class:`StoreError` saying so.

Then it turns on WAL and foreign keys, migrates to the Alembic head in ONE
transaction (importing Alembic only when the stored revision is not the head)
after copying an existing database aside. What ships with the app (the parts catalogue,
the published measurements) is the caller's to put in: ``open_store(path, seed=seed_store)``
(:mod:`configurator.store.seed`; the app's and the command line's start do so), inside the open,
so a failed seeding is a failed open. Damaged rows (a value SQLite stores but the app cannot
read: the wrong type, invalid JSON, a bad timestamp, text that is not UTF-8; the integrity
check passes them) are found at open, named once in ``Store.notices`` and skipped by every
read (``Store.damaged_rows``, ``Store.skipped``), never fatal and never deleted.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine, ExceptionContext
from sqlalchemy.orm import ORMExecuteState, Session, SessionTransaction, sessionmaker
from sqlalchemy.pool import QueuePool

from configurator import __version__
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message

# The newest migration in db/migrations/versions; a test asserts it is Alembic's one head.
SCHEMA_HEAD = "0005"
# Every revision this version knows, oldest first, and the tables each one creates
# (a test checks both against the migration scripts). A stored revision not listed
# here was written by a newer version of the app.
REVISION_TABLES: dict[str, tuple[str, ...]] = {
    "0001": ("parts", "builds", "price_history", "meta"),
    "0002": ("recordings",),
    "0003": ("bench_runs", "bench_results"),
    "0004": (),  # bench_results.load
    "0005": ("measurements",),  # and bench_results' energy and peak memory
}
KNOWN_REVISIONS = tuple(REVISION_TABLES)
# JSON columns whose values (numbers inside included) are checked when a row is read, not at open: a
# part's specs, by its record (core.parts), because a json_tree() walk of 100,000 parts at every open
# costs more than the rest of the check.
VALUES_CHECKED_WHEN_READ = frozenset({("parts", "specs")})
# JSON columns holding an array; the others hold an object.
JSON_ARRAYS = frozenset({("recordings", "markers")})
# In the ``meta`` table: the app version that last wrote the schema.
APP_VERSION_KEY = "schema_app_version"
# PRAGMA application_id of our files ("CFGR").
APPLICATION_ID = 0x43464752

_SIDE_FILES = ("-wal", "-shm", "-journal")
_SQLITE_HEADER = b"SQLite format 3\x00"

# StoreError kinds.
LOCKED, FULL, READ_ONLY, CANNOT_OPEN, NOT_OURS, NEWER, OTHER = (
    "locked", "full", "read_only", "cannot_open", "not_ours", "newer", "other")


class StoreError(RuntimeError):
    """The database cannot be used as asked; ``message`` is one line for the user, ``kind`` what kind."""

    def __init__(self, message: Message, kind: str = OTHER):
        self.message = message
        self.kind = kind
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


# -- the one writer ----------------------------------------------------------------------

WRITER_WAIT_S = 60.0  # how long a save waits for the one before it (a large import takes seconds)


class Writer:
    """The database's one writer, as Picard's and Anki's: one write transaction at a time, in
    this process, whichever thread asks. A write transaction is a session's explicit ``begin()``
    (``with store.session() as s, s.begin():``); it holds the writer until it commits or rolls
    back. Reads (a session without ``begin()``) need no writer and run side by side.

    SQLite lets one connection write at a time anyway; without this, two threads' transactions
    that had both read first could not both write (the second fails at once with "database is
    locked", whatever the busy timeout), and which one failed depended on timing."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._holder = threading.local()

    def acquire(self) -> None:
        if not self._lock.acquire(timeout=WRITER_WAIT_S):
            raise StoreError(_m(QT_TRANSLATE_NOOP(
                "store", "The database is still busy saving something else; nothing was changed. Try again.")),
                LOCKED)
        self._holder.depth = getattr(self._holder, "depth", 0) + 1

    def release(self) -> None:
        self._holder.depth -= 1
        self._lock.release()

    def held(self) -> bool:
        """Whether this thread is inside a write transaction."""
        return getattr(self._holder, "depth", 0) > 0


class StoreSession(Session):
    """A session whose explicit ``begin()`` is a write transaction, through the store's Writer."""

    def begin(self, nested: bool = False) -> SessionTransaction:
        writer: Writer = self.info["writer"]
        if nested or self.in_transaction():
            return super().begin(nested)
        writer.acquire()
        try:
            transaction = super().begin()
        except BaseException:
            writer.release()
            raise
        self.info["writing"] = transaction
        return transaction


@event.listens_for(StoreSession, "after_transaction_end")
def _release_writer(session: Session, transaction: SessionTransaction) -> None:
    if session.info.get("writing") is transaction:
        del session.info["writing"]
        session.info["writer"].release()


def _outside_writer() -> RuntimeError:
    return RuntimeError("a database write outside a write transaction: use "
                        "`with store.session() as s, s.begin():` (configurator.store.database.Writer)")


@event.listens_for(StoreSession, "before_flush")
def _flush_needs_writer(session: Session, _context: object, _instances: object) -> None:
    if (session.new or session.dirty or session.deleted) and "writing" not in session.info:
        raise _outside_writer()


@event.listens_for(StoreSession, "do_orm_execute")
def _dml_needs_writer(state: ORMExecuteState) -> None:
    if (state.is_insert or state.is_update or state.is_delete) and "writing" not in state.session.info:
        raise _outside_writer()


def _sessions(engine: Engine, writer: Writer) -> sessionmaker[Session]:
    return sessionmaker(engine, class_=StoreSession, expire_on_commit=False, info={"writer": writer})


@dataclass(frozen=True)
class DamagedRow:
    """A row whose stored values cannot be read (see ``_damaged_rows``): skipped by every read, kept in the file."""

    table: str
    rowid: int
    id: str  # its primary key as text (escaped where it is not UTF-8)


@event.listens_for(StoreSession, "do_orm_execute")
def _skip_damaged_rows(state: ORMExecuteState) -> None:
    """Every ORM read leaves out the rows found damaged at open (a JSON or DATETIME column's result processor
    would raise on them, and one such row would end the whole query)."""
    skip: dict[str, tuple[int, ...]] = state.session.info.get("skip") or {}
    if not skip or not state.is_select:
        return
    from sqlalchemy import literal_column
    from sqlalchemy.orm import with_loader_criteria

    from configurator.store.tables import Base

    mapped = {getattr(m.local_table, "name", ""): m.class_ for m in Base.registry.mappers}
    state.statement = state.statement.options(*(
        with_loader_criteria(mapped[table], literal_column(f'"{table}".rowid').not_in(rowids))
        for table, rowids in skip.items() if table in mapped))


@dataclass
class Store:
    path: Path
    engine: Engine
    session_factory: sessionmaker[Session]  # StoreSession's, with the store's Writer
    recovered: Recovery | None = None
    backup: Path | None = None
    catalogue_changes: dict[str, int] = field(default_factory=dict)
    measurement_changes: dict[str, int] = field(default_factory=dict)
    read_only: bool = False
    read_only_reason: Message | None = None  # why writes fail, when read_only
    notices: list[Message] = field(default_factory=list)  # damaged rows and the like: tell, carry on
    damaged_rows: list[DamagedRow] = field(default_factory=list)  # skipped by every read, kept in the file

    def session(self) -> Session:
        """Reads: ``with store.session() as s``; writes, through the one writer:
        ``with store.session() as s, s.begin():``."""
        return self.session_factory()

    def skipped(self, table: str) -> tuple[int, ...]:
        """The rowids of ``table``'s damaged rows, which a Core query must leave out (ORM reads do so themselves)."""
        return tuple(r.rowid for r in self.damaged_rows if r.table == table)

    @property
    def writer(self) -> Writer:
        writer: Writer = self.session_factory.kw["info"]["writer"]
        return writer

    @contextlib.contextmanager
    def begin_write(self) -> Iterator[Connection]:
        """A Core connection in a write transaction, through the one writer (bulk imports)."""
        self.writer.acquire()
        try:
            with self.engine.begin() as con:
                yield con
        finally:
            self.writer.release()

    def close(self) -> None:
        self.engine.dispose()


# -- telling errors apart ----------------------------------------------------------------

def _m(template: str, **params: Any) -> Message:
    return Message("store", template, params)


def _sqlite_code(exc: BaseException) -> int | None:
    orig = getattr(exc, "orig", exc)
    code = getattr(orig, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def _out_of_space(path: Path | None) -> bool:
    if path is None:
        return False
    try:
        st = os.statvfs(path if path.is_dir() else path.parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


def error_kind(exc: BaseException, path: Path | None = None) -> str:
    """LOCKED, FULL, READ_ONLY, CANNOT_OPEN or OTHER for a sqlite3/SQLAlchemy/OS error.

    SQLite reports some out-of-space failures as I/O errors (SQLITE_IOERR_SHMSIZE when it
    cannot make the -shm file, a short write): with ``path``, an I/O error on a disk with no
    space left is FULL.
    """
    code = _sqlite_code(exc)
    if code == 10 and _out_of_space(path):  # SQLITE_IOERR
        return FULL
    if code in (5, 6):  # SQLITE_BUSY, SQLITE_LOCKED
        return LOCKED
    if code == 13:  # SQLITE_FULL
        return FULL
    if code in (8, 3):  # SQLITE_READONLY, SQLITE_PERM
        return READ_ONLY
    if code == 14:  # SQLITE_CANTOPEN
        return CANNOT_OPEN
    if isinstance(exc, OSError):
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return FULL
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return READ_ONLY
        return CANNOT_OPEN
    text = str(getattr(exc, "orig", exc)).lower()
    if "disk is full" in text:
        return FULL
    if "locked" in text:
        return LOCKED
    if "readonly" in text or "read-only" in text:
        return READ_ONLY
    return OTHER


def lock_holders(path: Path, limit: int = 3) -> list[tuple[int, str]]:
    """Other processes that have the database (or its side files) open: (pid, name). Cheap: /proc only."""
    targets = {os.path.realpath(str(path) + s) for s in ("", *_SIDE_FILES)}
    me = os.getpid()
    found: list[tuple[int, str]] = []
    proc = Path("/proc")
    if not proc.is_dir():
        return _lock_holders_psutil(targets, me, limit)
    for entry in os.scandir(proc):
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            fds = os.scandir(f"/proc/{entry.name}/fd")
        except OSError:
            continue
        with fds:
            for fd in fds:
                try:
                    target = os.readlink(fd.path)
                except OSError:
                    continue
                if target in targets:
                    try:
                        name = Path(f"/proc/{entry.name}/comm").read_text().strip()
                    except OSError:
                        name = "?"
                    found.append((int(entry.name), name))
                    break
        if len(found) >= limit:
            break
    return found


def _lock_holders_psutil(targets: set[str], me: int, limit: int) -> list[tuple[int, str]]:
    try:
        import psutil
    except ImportError:
        return []
    found: list[tuple[int, str]] = []
    for p in psutil.process_iter(["pid", "name"]):
        if p.pid == me:
            continue
        try:
            if any(f.path in targets for f in p.open_files()):
                found.append((p.pid, p.info["name"] or "?"))
        except (psutil.Error, OSError):
            continue
        if len(found) >= limit:
            break
    return found


def _locked_message(path: Path) -> Message:
    holders = lock_holders(path)
    if holders:
        who = ", ".join(f"{name} ({pid})" for pid, name in holders)
        return _m(QT_TRANSLATE_NOOP(
            "store", "The database {path} is locked by another program: {holders}. Close it and try "
                     "again; nothing was changed."), path=str(path), holders=who)
    return _m(QT_TRANSLATE_NOOP(
        "store", "The database {path} is locked by another program. Close it and try again; nothing "
                 "was changed."), path=str(path))


def _full_message(path: Path) -> Message:
    return _m(QT_TRANSLATE_NOOP(
        "store", "The disk holding the database {path} is full. Free some space and try again; nothing "
                 "was changed."), path=str(path))


def _short_reason(exc: BaseException) -> str:
    """One line of an exception, never an SQL dump."""
    orig = getattr(exc, "orig", None) or exc
    if isinstance(orig, OSError) and orig.strerror:
        return orig.strerror
    text = str(orig).strip().splitlines()
    return text[0] if text else type(orig).__name__


def reason_phrase(exc: BaseException, path: Path | None = None) -> Message | str:
    """A short reason for a failure, to put inside a sentence."""
    kind = error_kind(exc, path)
    if kind == FULL:
        return _m(QT_TRANSLATE_NOOP("store", "the disk is full"))
    if kind == LOCKED:
        return _m(QT_TRANSLATE_NOOP("store", "it is locked by another program"))
    if kind == READ_ONLY:
        return _m(QT_TRANSLATE_NOOP("store", "the file or its folder is read-only"))
    return _short_reason(exc)


def store_error(exc: BaseException, path: Path, doing: str = "open") -> StoreError:
    """The StoreError for an error met while opening, creating or upgrading ``path``."""
    kind = error_kind(exc, path)
    if kind == LOCKED:
        return StoreError(_locked_message(path), LOCKED)
    if kind == FULL:
        return StoreError(_full_message(path), FULL)
    if kind == READ_ONLY:
        return StoreError(_m(QT_TRANSLATE_NOOP(
            "store", "The database {path} cannot be written: the file or its folder is read-only."),
            path=str(path)), READ_ONLY)
    if doing == "upgrade":
        return StoreError(_m(QT_TRANSLATE_NOOP(
            "store", "Could not upgrade the database {path}: {error}. It was not changed."),
            path=str(path), error=_short_reason(exc)), kind)
    if doing == "create":
        return StoreError(_m(QT_TRANSLATE_NOOP("store", "Could not create the database {path}: {error}"),
                             path=str(path), error=_short_reason(exc)), kind)
    return StoreError(_m(QT_TRANSLATE_NOOP("store", "Cannot open the database {path}: {error}"),
                         path=str(path), error=_short_reason(exc)), kind if kind != OTHER else CANNOT_OPEN)


# -- looking at the file without changing it -----------------------------------------------

def read_only_reason(path: Path) -> Message | None:
    """Why the app may not write the database at ``path`` (its folder must exist), or None."""
    folder = path.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return _m(QT_TRANSLATE_NOOP("store", "it is on a read-only disk"))
    except OSError:
        pass
    if path.exists() and not os.access(path, os.W_OK):
        return _m(QT_TRANSLATE_NOOP("store", "the file is read-only"))
    if not os.access(folder, os.W_OK):
        return _m(QT_TRANSLATE_NOOP("store", "the folder is read-only"))
    return None


def _has_content(path: Path) -> bool:
    """The file or its -wal holds something (a new database's pages can live in the -wal alone)."""
    try:
        if path.stat().st_size > 0:
            return True
    except FileNotFoundError:
        return False
    wal = path.with_name(path.name + "-wal")
    return wal.exists() and wal.stat().st_size > 0


def _is_sqlite_file(path: Path) -> bool:
    with open(path, "rb") as f:
        head = f.read(len(_SQLITE_HEADER))
    return head == _SQLITE_HEADER or (head == b"" and _has_content(path))


def _uri(path: Path, immutable: bool) -> str:
    return f"{path.resolve().as_uri()}?{'immutable=1' if immutable else 'mode=ro'}"


def _connect_ro(path: Path, timeout: float, immutable: bool) -> sqlite3.Connection:
    return sqlite3.connect(_uri(path, immutable), uri=True, timeout=timeout, check_same_thread=False)


@dataclass
class _Inspection:
    damaged: str | None = None  # why the file is damaged (quarantine it)
    revision: str | None = None
    tables: set[str] = field(default_factory=set)
    app_version: str | None = None
    application_id: int = 0
    damaged_rows: list[DamagedRow] = field(default_factory=list)
    immutable: bool = False


def _inspect(path: Path, timeout: float, read_only: bool) -> _Inspection:
    """Read-only look at an SQLite file: integrity, revision, tables, damaged JSON.

    Read-only because a read-write open of a damaged file lets SQLite delete its
    -wal/-shm, which must be kept aside with it. On a read-only folder or disk a WAL
    database can only be opened ``immutable`` (SQLite cannot make its -shm there).
    Raises StoreError for anything that is not damage (locked, unreadable …).
    """
    info = _Inspection()
    con: sqlite3.Connection | None = None
    try:
        con = _connect_ro(path, timeout, immutable=False)
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        if con is not None:
            con.close()
            con = None
        # SQLite cannot make the -shm (and -wal) a WAL database needs, on a read-only disk (SQLITE_CANTOPEN)
        # or in a read-only folder (SQLITE_READONLY_DIRECTORY): nobody can be writing it there, so it is read
        # as it is on disk, immutable.
        if read_only and _sqlite_code(exc) in (14, 8):
            try:
                con = _connect_ro(path, timeout, immutable=True)
                info.immutable = True
            except sqlite3.Error as exc2:
                raise store_error(exc2, path) from exc2
        elif _sqlite_code(exc) in (11, 26):  # SQLITE_CORRUPT, SQLITE_NOTADB
            info.damaged = _short_reason(exc)
            return info
        else:
            raise store_error(exc, path) from exc
    try:
        try:
            rows = con.execute("PRAGMA integrity_check").fetchall()
        except sqlite3.DatabaseError as exc:
            if _sqlite_code(exc) in (11, 26):
                info.damaged = _short_reason(exc)
                return info
            raise store_error(exc, path) from exc
        if rows != [("ok",)]:
            info.damaged = "; ".join(str(r[0]) for r in rows[:3])
            return info
        info.tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        info.application_id = con.execute("PRAGMA application_id").fetchone()[0]
        if "alembic_version" in info.tables:
            row = con.execute("SELECT version_num FROM alembic_version").fetchone()
            info.revision = row[0] if row else None
        if "meta" in info.tables:
            with contextlib.suppress(sqlite3.Error):
                row = con.execute("SELECT value FROM meta WHERE key = ?", (APP_VERSION_KEY,)).fetchone()
                info.app_version = row[0] if row else None
        info.damaged_rows = _damaged_rows(con, info.tables)
    except sqlite3.DatabaseError as exc:
        raise store_error(exc, path) from exc
    finally:
        con.close()
    return info


def _utf8_ok(value: bytes | None) -> int:
    try:
        (value or b"").decode("utf-8")
    except UnicodeDecodeError:
        return 0
    return 1


_FINITE = "1.7976931348623157e308"


def _healthy_column(table: str, column: Any) -> tuple[str, bool]:
    """An SQL condition every healthy value of ``column`` meets (what its mapped type's result processor and
    the code reading it expect), and whether the value is text (then its bytes must be UTF-8 too)."""
    from sqlalchemy import JSON, Boolean, DateTime, Float, Integer, String

    c = f'"{column.name}"'
    kind = column.type
    if isinstance(kind, JSON):
        shapes = ["array" if (table, column.name) in JSON_ARRAYS else "object"]
        if column.nullable:  # the JSON type writes None as the text 'null', not SQL NULL
            shapes.append("null")
        cond = (f"typeof({c}) = 'text' AND json_valid({c}) "
                f"AND (CASE WHEN json_valid({c}) THEN json_type({c}) END) IN ({', '.join(map(repr, shapes))})")
        if (table, column.name) not in VALUES_CHECKED_WHEN_READ:  # 1e999 is JSON, but Python reads it as inf
            cond += (f" AND NOT EXISTS (SELECT 1 FROM json_tree(CASE WHEN json_valid({c}) THEN {c} ELSE '0' END)"
                     f" WHERE type = 'real' AND abs(atom) > {_FINITE})")
        text = True
    elif isinstance(kind, DateTime):  # SQLAlchemy's SQLite DATETIME: ISO text, read with fromisoformat
        cond = (f"typeof({c}) = 'text' AND {c} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' "
                f"AND datetime({c}) IS NOT NULL")
        text = True
    elif isinstance(kind, Boolean):
        cond, text = f"typeof({c}) = 'integer' AND {c} IN (0, 1)", False
    elif isinstance(kind, Float):
        cond, text = f"typeof({c}) IN ('integer', 'real') AND abs({c}) <= {_FINITE}", False
    elif isinstance(kind, Integer):
        cond, text = f"typeof({c}) = 'integer'", False
    elif isinstance(kind, String):  # Text too
        cond, text = f"typeof({c}) = 'text'", True
    else:  # pragma: no cover - a column type added to tables.py without a rule here
        raise TypeError(f"no damage check for {table}.{column.name} ({kind!r})")
    if column.nullable:
        cond = f"{c} IS NULL OR ({cond})"
    return f"({cond})", text


def _damaged_rows(con: sqlite3.Connection, tables: Iterable[str]) -> list[DamagedRow]:
    """Rows whose stored values the app cannot read as its schema says: a value of the wrong type (text in a
    number column, a BLOB anywhere), JSON that is not valid or not the object (array) it should be, or that
    holds a number too large for a float, a timestamp that is not one, text that is not UTF-8. SQLite stores
    any of these without complaint (its integrity check passes), and each one would end a query that meets it
    with a traceback. They are found here, at open, and every read skips them (``Store.skip``); they are
    never deleted."""
    from configurator.store.tables import Base

    con.create_function("configurator_utf8_ok", 1, _utf8_ok, deterministic=True)
    present = set(tables)
    bad: list[DamagedRow] = []
    for table in Base.metadata.sorted_tables:
        if table.name not in present:
            continue
        try:
            have = {r[1] for r in con.execute(f'PRAGMA table_info("{table.name}")')}
            checks = [_healthy_column(table.name, col) for col in table.columns if col.name in have]
            conds = [cond for cond, _text in checks]
            texts = [f'ifnull("{col.name}", \'\')' for col, (_c, text) in
                     zip([c for c in table.columns if c.name in have], checks, strict=True) if text]
            if texts:
                conds.append(f"configurator_utf8_ok(CAST({' || '.join(texts)} AS BLOB))")
            key = next(iter(table.primary_key.columns)).name
            sql = (f'SELECT rowid, CAST("{key}" AS BLOB) FROM "{table.name}" '
                   f"WHERE NOT ({' AND '.join(conds)}) ORDER BY rowid")
            for rowid, key_value in con.execute(sql):
                shown = (bytes(key_value).decode("utf-8", "backslashreplace") if key_value is not None
                         else f"rowid {rowid}")
                bad.append(DamagedRow(table.name, int(rowid), shown))
        except sqlite3.OperationalError:  # no JSON1, or a column this revision lacks
            continue
    return bad


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


def backup_copy(path: Path, label: str) -> Path:
    """A consistent copy (SQLite backup API, WAL included) beside the database.

    A copy that cannot be completed (disk full …) is removed and the error raised:
    the database itself is never touched.
    """
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    dest = path.with_name(f"{path.name}.backup-{label}-{stamp}")
    n = 1
    while dest.exists():
        dest = path.with_name(f"{path.name}.backup-{label}-{stamp}-{n}")
        n += 1
    src = sqlite3.connect(str(path))
    try:
        dst = sqlite3.connect(str(dest))
        try:
            src.backup(dst)
        finally:
            dst.close()
    except BaseException:
        for p in (dest, dest.with_name(dest.name + "-journal")):
            with contextlib.suppress(OSError):
                p.unlink()
        raise
    finally:
        src.close()
    return dest


# -- engines -----------------------------------------------------------------------------

def _on_connect(dbapi_connection: sqlite3.Connection, _record: object, busy_ms: int = 5000) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute(f"PRAGMA busy_timeout={busy_ms}")
    cur.close()


def _write_errors(engine: Engine, path: Path, reason: Message | None) -> None:
    """Turn SQLite's write failures (read-only, full, locked) into one clear StoreError."""

    def handle(ctx: ExceptionContext) -> None:
        kind = error_kind(ctx.original_exception, path)
        if kind == READ_ONLY:
            why = reason or reason_phrase(ctx.original_exception, path)
            raise StoreError(_m(QT_TRANSLATE_NOOP(
                "store", "Cannot save to the database {path}: it is read-only ({reason})."),
                path=str(path), reason=why), READ_ONLY) from ctx.original_exception
        if kind == FULL:
            raise StoreError(_m(QT_TRANSLATE_NOOP(
                "store", "Cannot save to the database {path}: the disk is full."), path=str(path)),
                FULL) from ctx.original_exception
        if kind == LOCKED:
            raise StoreError(_locked_message(path), LOCKED) from ctx.original_exception

    event.listen(engine, "handle_error", handle)


def make_engine(path: Path, busy_timeout_s: float = 5.0) -> Engine:
    busy_ms = int(busy_timeout_s * 1000)
    engine = create_engine(f"sqlite:///{path}", future=True, connect_args={"timeout": busy_timeout_s})
    event.listen(engine, "connect", lambda c, r: _on_connect(c, r, busy_ms))
    _write_errors(engine, path, None)
    return engine


def make_read_only_engine(path: Path, immutable: bool, reason: Message | None,
                          busy_timeout_s: float = 5.0) -> Engine:
    uri = _uri(path, immutable)

    def creator() -> sqlite3.Connection:
        con = sqlite3.connect(uri, uri=True, timeout=busy_timeout_s, check_same_thread=False)
        con.execute("PRAGMA foreign_keys=ON")
        return con

    engine = create_engine("sqlite://", creator=creator, future=True, poolclass=QueuePool)
    _write_errors(engine, path, reason)
    return engine


# -- migrating -----------------------------------------------------------------------------

def _ours(info: _Inspection) -> bool:
    known = {t for ts in REVISION_TABLES.values() for t in ts}
    own = known | {"alembic_version", "sqlite_sequence"}
    rest = {t for t in info.tables if not t.startswith(("sqlite_", "_alembic_tmp_"))}
    return (info.application_id == APPLICATION_ID or "alembic_version" in info.tables
            or not rest or rest <= own)


def _prepare(path: Path) -> Callable[[Connection], None]:
    """Before upgrading: drop what a half-made start of an older (non-atomic) version left.

    Only our own tables that belong to revisions after the stored one and are empty;
    anything holding rows stops the upgrade (nothing is dropped then). The stored
    revision is read inside the upgrade's transaction (another process may just have
    made the database).
    """

    def prepare(con: Connection) -> None:
        present = {r[0] for r in con.exec_driver_sql("SELECT name FROM sqlite_master WHERE type='table'")}
        revision = None
        if "alembic_version" in present:
            row = con.exec_driver_sql("SELECT version_num FROM alembic_version").first()
            revision = row[0] if row else None
        expected: set[str] = set()
        if revision is not None:
            for rev, tables in REVISION_TABLES.items():
                expected.update(tables)
                if rev == revision:
                    break
        later = {t for ts in REVISION_TABLES.values() for t in ts} - expected
        leftovers = sorted(t for t in present if t in later or t.startswith("_alembic_tmp_"))
        for table in leftovers:
            if con.exec_driver_sql(f'SELECT 1 FROM "{table}" LIMIT 1').first() is not None:
                raise StoreError(_m(QT_TRANSLATE_NOOP(
                    "store", "The database {path} has a table {table} with rows that its schema "
                             "version does not have; it was not changed."),
                    path=str(path), table=table), OTHER)
        for table in leftovers:
            con.exec_driver_sql(f'DROP TABLE "{table}"')

    return prepare


def _stamp(con: Connection) -> None:
    """In the upgrade's transaction: which app wrote this schema, and that the file is ours."""
    con.exec_driver_sql(f"PRAGMA application_id={APPLICATION_ID}")
    con.exec_driver_sql("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                        (APP_VERSION_KEY, __version__))


def _migrate(path: Path, busy_timeout_s: float) -> None:
    from configurator.store.migrate import transactional_engine, upgrade_to_head

    engine = transactional_engine(path, busy_timeout_s)
    try:
        upgrade_to_head(engine, prepare=_prepare(path), finish=_stamp)
    finally:
        engine.dispose()


def _probe_write_lock(path: Path, timeout: float) -> None:
    """Fail now, clearly, if another program holds the write lock (or the file cannot be written)."""
    con = sqlite3.connect(str(path), timeout=timeout, isolation_level=None)
    try:
        con.execute("BEGIN IMMEDIATE")
        con.execute("ROLLBACK")
    except sqlite3.Error as exc:
        raise store_error(exc, path) from exc
    finally:
        con.close()


# -- opening -------------------------------------------------------------------------------

def _damaged_rows_message(path: Path, rows: list[DamagedRow]) -> Message:
    listed = ", ".join(f"{r.table} {r.id}" for r in rows[:10])
    if len(rows) > 10:
        listed += ", …"
    return _m(QT_TRANSLATE_NOOP(
        "store", "The database {path} has {count} damaged entries (a value of the wrong type, not valid JSON, "
                 "not a date or not UTF-8), which are skipped and kept in the file: {rows}. The rest of the "
                 "database is fine."),
        path=str(path), count=len(rows), rows=listed)


def open_store(
    path: Path,
    *,
    seed: Callable[[Store], None] | None = None,
    progress: Callable[[str], None] | None = None,
    owned: bool = False,
    busy_timeout_s: float = 5.0,
    write: bool = True,
) -> Store:
    """Open (creating, repairing and migrating as needed) the database at ``path``.

    ``seed``: what to put into the database once it is open and writable (the app and the command line pass
    :func:`configurator.store.seed.seed_store`: the shipped catalogue and measurements). It runs inside the
    open: when it raises, the store is closed, a database this open created is removed, and a database it
    upgraded says so (as for any failed open). Without it the database is only opened and migrated.

    ``owned``: the path is the app's own (the default location), so a file there that is not
    SQLite at all is ours to keep aside; at a path the user named (``--db`` or CONFIGURATOR_DB)
    such a file is theirs and is left alone (StoreError NOT_OURS).

    ``write``: the caller means to save something (a writing command, the GUI), so whether
    another program holds the write lock is found out now, with one clear line, rather than at
    the first save. A reader (``write=False``: ``parts list`` and the other read-only commands)
    never asks for the write lock: under WAL it reads at once while another process writes.
    """
    path = Path(path)
    before = _present(path)
    try:
        return _open_store(path, seed=seed, progress=progress, owned=owned, busy_timeout_s=busy_timeout_s,
                           write=write)
    except BaseException:
        _tidy_after_failure(path, before)
        raise


def _present(path: Path) -> frozenset[str]:
    """Which of the database and its side files exist now ("" for the database itself)."""
    try:
        return frozenset(s for s in ("", *_SIDE_FILES) if os.path.lexists(str(path) + s))
    except OSError:  # pragma: no cover - lexists does not raise
        return frozenset()


def _tidy_after_failure(path: Path, before: frozenset[str]) -> None:
    """An open that failed changes nothing on disk: a database file it created (a new database on a full
    disk, a first start interrupted) is removed with its side files, and the -wal/-shm that SQLite makes
    when a WAL database is only looked at (one made by a newer version, another program's) are removed the
    way SQLite removes them itself: a read-write connection closed, which deletes them only when no other
    connection has the file open. Nothing that was there before the open is ever removed."""
    if "" not in before:
        # Not while another process has it open: that one made it (two first starts at once) and is using it.
        if path.is_file() and not path.is_symlink() and not lock_holders(path, limit=1):
            for suffix in ("", *_SIDE_FILES):
                with contextlib.suppress(OSError):
                    os.unlink(str(path) + suffix)
        return
    made = [s for s in ("-wal", "-shm") if s not in before and os.path.lexists(str(path) + s)]
    if not made or read_only_reason(path) is not None:
        return
    with contextlib.suppress(sqlite3.Error, OSError):
        con = sqlite3.connect(str(path), timeout=0.1)
        try:
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            con.close()


def _open_store(path: Path, *, seed: Callable[[Store], None] | None, progress: Callable[[str], None] | None,
                owned: bool, busy_timeout_s: float, write: bool) -> Store:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        kind = error_kind(exc)
        raise StoreError(
            Message(
                "store",
                QT_TRANSLATE_NOOP("store", "Cannot create the folder for the database {path}: {error}"),
                {"path": str(path.parent), "error": exc.strerror or str(exc)},
            ),
            kind if kind in (FULL, READ_ONLY) else CANNOT_OPEN,
        ) from exc
    if path.exists() and not path.is_file():
        raise StoreError(_m(QT_TRANSLATE_NOOP("store", "The database {path} is not a file."), path=str(path)),
                         CANNOT_OPEN)

    ro = read_only_reason(path)
    recovered: Recovery | None = None
    info = _Inspection()
    try:
        exists = _has_content(path)
        sqlite_file = exists and _is_sqlite_file(path)
    except OSError as exc:
        raise store_error(exc, path) from exc
    if exists and not sqlite_file:
        if not owned:
            raise StoreError(_m(QT_TRANSLATE_NOOP(
                "store", "{path} is not a configurator database (it is not an SQLite file). It was left "
                         "as it is; choose another database file."), path=str(path)), NOT_OURS)
        recovered = _quarantine(path, "not an SQLite database")
        exists = False
    elif exists:
        info = _inspect(path, busy_timeout_s, ro is not None)
        if info.damaged is not None:
            recovered = _quarantine(path, info.damaged)
            exists, info = False, _Inspection()

    revision = info.revision
    if exists:
        if revision is not None and revision not in KNOWN_REVISIONS:
            if info.app_version and info.app_version != __version__:  # else: a newer build of this version
                raise StoreError(_m(QT_TRANSLATE_NOOP(
                    "store", "The database {path} was made by configurator {version}; this is {current}, "
                             "which is older. Update configurator to open it; nothing was changed."),
                    path=str(path), version=info.app_version, current=__version__), NEWER)
            raise StoreError(_m(QT_TRANSLATE_NOOP(
                "store", "The database {path} was made by a newer version of configurator; this is "
                         "{current}. Update configurator to open it; nothing was changed."),
                path=str(path), current=__version__), NEWER)
        if not _ours(info):
            raise StoreError(_m(QT_TRANSLATE_NOOP(
                "store", "{path} is an SQLite database of another program, not configurator's. It was "
                         "left as it is; choose another database file."), path=str(path)), NOT_OURS)

    notices: list[Message] = []
    if ro is not None:
        if not exists or revision != SCHEMA_HEAD:
            what = (QT_TRANSLATE_NOOP("store", "The database {path} cannot be created: {reason}.") if not exists
                    else QT_TRANSLATE_NOOP("store", "The database {path} needs an upgrade to this version of "
                                                    "configurator, but {reason}; nothing was changed."))
            raise StoreError(_m(what, path=str(path), reason=ro), READ_ONLY)
        engine = make_read_only_engine(path, info.immutable, ro, busy_timeout_s)
        wal = path.with_name(path.name + "-wal")
        if info.immutable and wal.exists() and wal.stat().st_size > 0:
            notices.append(_m(QT_TRANSLATE_NOOP(
                "store", "The database {path} is on a read-only disk or in a read-only folder with unsaved "
                         "changes in {wal}, which cannot be read from there; copy both files to a writable "
                         "folder to see them."),
                path=str(path), wal=str(wal)))
        store = Store(path, engine, _sessions(engine, Writer()), recovered, None,
                      read_only=True, read_only_reason=_m(QT_TRANSLATE_NOOP(
                          "store", "The database {path} is read-only ({reason}): you can browse and check, "
                                   "but changes cannot be saved."), path=str(path), reason=ro))
        _add_damaged(store, info.damaged_rows)
        store.notices[:0] = notices
        return store

    backup: Path | None = None
    if exists and write:
        _probe_write_lock(path, busy_timeout_s)
    if revision != SCHEMA_HEAD:
        if exists and revision is not None:
            try:
                backup = backup_copy(path, f"rev{revision}")
            except (sqlite3.Error, OSError) as exc:
                raise StoreError(_m(QT_TRANSLATE_NOOP(
                    "store", "Could not copy the database {path} aside before upgrading it ({error}); the "
                             "database was not changed."), path=str(path), error=reason_phrase(exc, path)),
                    error_kind(exc, path)) from exc
        if progress:
            progress("migrating")
        try:
            _migrate(path, busy_timeout_s)
        except BaseException as exc:
            now = _revision_now(path) if exists else None
            if exists and now == SCHEMA_HEAD:  # it failed after the upgrade was committed: say so
                raise _upgraded_but(path, backup, exc) from exc
            if backup is not None and now == revision:
                # The upgrade is one transaction and it rolled back: the database is as it was, so the copy
                # made for it goes (a full disk keeps its space, "nothing was changed" stays true).
                with contextlib.suppress(OSError):
                    backup.unlink()
            if isinstance(exc, StoreError) or not isinstance(exc, Exception):
                raise
            raise store_error(exc, path, "upgrade" if exists else "create") from exc

    try:
        return _finish_open(path, info, recovered, backup, seed, busy_timeout_s)
    except StoreError as exc:
        if exists and revision != SCHEMA_HEAD:  # the upgrade was written: the message must not say otherwise
            raise _upgraded_but(path, backup, exc.__cause__ or exc) from exc
        raise


def _finish_open(path: Path, info: _Inspection, recovered: Recovery | None, backup: Path | None,
                 seed: Callable[[Store], None] | None, busy_timeout_s: float) -> Store:
    """The database is at the schema head: its engine, its damaged rows, then what the caller seeds."""
    engine = make_engine(path, busy_timeout_s)
    try:
        with engine.connect() as con:
            con.exec_driver_sql("SELECT 1")
    except Exception as exc:
        engine.dispose()
        raise store_error(exc, path) from exc

    store = Store(path, engine, _sessions(engine, Writer()), recovered, backup)
    _add_damaged(store, info.damaged_rows)
    if seed is not None:
        try:
            seed(store)
        except BaseException:
            store.close()
            raise
    return store


def _revision_now(path: Path) -> str | None:
    """The schema revision stored in ``path`` now (None when it cannot be read), looked at read-only."""
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=1.0)
    except sqlite3.Error:
        return None
    try:
        row = con.execute("SELECT version_num FROM alembic_version").fetchone()
        return str(row[0]) if row else None
    except sqlite3.Error:
        return None
    finally:
        con.close()


def _upgraded_but(path: Path, backup: Path | None, exc: BaseException) -> StoreError:
    """The upgrade was committed, then opening failed (a full disk while the catalogue was saved …): one true
    line, which says the file was upgraded (and where the copy of the old one is)."""
    reason = reason_phrase(exc, path) if not isinstance(exc, StoreError) else exc.message
    kind = exc.kind if isinstance(exc, StoreError) else error_kind(exc, path)
    if backup is not None:
        return StoreError(_m(QT_TRANSLATE_NOOP(
            "store", "The database {path} was upgraded to this version of configurator (the old one is kept as "
                     "{backup}), but then it could not be opened: {reason}. Your data is in it; try again once "
                     "that is fixed."), path=str(path), backup=str(backup), reason=reason), kind)
    return StoreError(_m(QT_TRANSLATE_NOOP(
        "store", "The database {path} was upgraded to this version of configurator, but then it could not be "
                 "opened: {reason}. Your data is in it; try again once that is fixed."),
        path=str(path), reason=reason), kind)


def _add_damaged(store: Store, rows: list[DamagedRow]) -> None:
    if rows:
        store.damaged_rows = list(rows)
        skip: dict[str, tuple[int, ...]] = {}
        for row in rows:
            skip[row.table] = (*skip.get(row.table, ()), row.rowid)
        store.session_factory.kw["info"]["skip"] = skip
        store.notices.append(_damaged_rows_message(store.path, rows))


def _quarantine(path: Path, reason: str) -> Recovery:
    try:
        return quarantine(path, reason)
    except OSError as exc:
        raise StoreError(_m(QT_TRANSLATE_NOOP(
            "store", "The database {path} is damaged ({reason}) but cannot be moved aside: {error}. It was "
                     "left as it is."), path=str(path), reason=reason, error=exc.strerror or str(exc)),
            error_kind(exc, path)) from exc
