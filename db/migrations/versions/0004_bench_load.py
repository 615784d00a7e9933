"""benchmark results record how busy the machine was

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Other processes' CPU and GPU use before and during the workload (configurator.bench.load);
    # NULL for results measured before this was recorded.
    with op.batch_alter_table("bench_results") as batch:
        batch.add_column(sa.Column("load", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("bench_results") as batch:
        batch.drop_column("load")
