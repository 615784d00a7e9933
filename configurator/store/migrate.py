"""Alembic, configured in code with an absolute script location (no alembic.ini).

Every upgrade runs in ONE SQLite transaction: pysqlite (Python's sqlite3 module)
only opens a transaction before DML, so Alembic's CREATE TABLE statements would
otherwise commit one by one and a kill between them leaves a file that never
opens again. :func:`transactional_engine` applies SQLAlchemy's documented recipe
(the driver in autocommit mode, and our own ``BEGIN IMMEDIATE`` when SQLAlchemy
begins), so SQLite's transactional DDL makes the whole upgrade all or nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine

from configurator.paths import MIGRATIONS_DIR

if TYPE_CHECKING:
    from alembic.config import Config


def alembic_config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    return cfg


def heads() -> list[str]:
    from alembic.script import ScriptDirectory

    return list(ScriptDirectory.from_config(alembic_config()).get_heads())


def revisions() -> list[str]:
    """Every revision id in db/migrations/versions, oldest first."""
    from alembic.script import ScriptDirectory

    return [s.revision for s in reversed(list(ScriptDirectory.from_config(alembic_config()).walk_revisions()))]


def transactional_engine(path: Path, busy_timeout_s: float = 5.0) -> Engine:
    """An engine whose transactions are real SQLite transactions, DDL included."""
    engine = create_engine(f"sqlite:///{path}", future=True, connect_args={"timeout": busy_timeout_s})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: object) -> None:
        dbapi_connection.isolation_level = None  # pysqlite emits no BEGIN/COMMIT of its own
        cur = dbapi_connection.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_s * 1000)}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")  # take the write lock now, not half-way

    return engine


def upgrade_to_head(
    engine: Engine,
    prepare: Callable[[Connection], None] | None = None,
    finish: Callable[[Connection], None] | None = None,
) -> None:
    """Upgrade in one transaction: ``prepare`` (clear leftovers), Alembic, ``finish`` (stamp)."""
    from alembic import command

    cfg = alembic_config()
    with engine.begin() as connection:
        if prepare is not None:
            prepare(connection)
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")
        if finish is not None:
            finish(connection)
