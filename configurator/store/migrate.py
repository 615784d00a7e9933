"""Alembic, configured in code with an absolute script location (no alembic.ini)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy.engine import Engine

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


def upgrade_to_head(engine: Engine) -> None:
    from alembic import command

    cfg = alembic_config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")
