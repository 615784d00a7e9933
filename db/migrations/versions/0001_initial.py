"""parts, builds, price history, meta

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parts",
        sa.Column("id", sa.String(128), primary_key=True),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("specs", sa.JSON(), nullable=False),
        sa.Column("price_cny", sa.Integer(), nullable=False),
        sa.Column("price_date", sa.String(10), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("user_edited", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("custom", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("catalogue_price_cny", sa.Integer(), nullable=True),
        sa.Column("catalogue_price_date", sa.String(10), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_parts_category", "parts", ["category"])
    op.create_table(
        "builds",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "price_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("part_id", sa.String(128), sa.ForeignKey("parts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("price_cny", sa.Integer(), nullable=False),
        sa.Column("price_date", sa.String(10), nullable=False),
        sa.Column("origin", sa.String(16), nullable=False),
        sa.Column("recorded_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_price_history_part_id", "price_history", ["part_id"])
    op.create_table(
        "meta",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("meta")
    op.drop_index("ix_price_history_part_id", "price_history")
    op.drop_table("price_history")
    op.drop_table("builds")
    op.drop_index("ix_parts_category", "parts")
    op.drop_table("parts")
