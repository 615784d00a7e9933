"""Alembic environment. Configured in code by configurator.store.migrate (no alembic.ini).

The connection comes in an open transaction (migrate.upgrade_to_head), so every
migration and the version stamp commit together or not at all.
"""

from alembic import context

from configurator.store.tables import Base

config = context.config
connection = config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,
    compare_type=True,
    transactional_ddl=True,
)
with context.begin_transaction():
    context.run_migrations()
