"""A database file at an older schema revision, made by the real migrations (for upgrade tests)."""

from __future__ import annotations

from pathlib import Path


def database_at(path: Path, revision: str) -> None:
    from alembic import command

    from configurator.store.database import make_engine
    from configurator.store.migrate import alembic_config

    engine = make_engine(path)
    cfg = alembic_config()
    try:
        with engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, revision)
    finally:
        engine.dispose()
