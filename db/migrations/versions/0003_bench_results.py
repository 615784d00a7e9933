"""benchmark runs and results

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bench_runs",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("suite", sa.String(32), nullable=False),
        sa.Column("device", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("python", sa.Text(), nullable=True),
        sa.Column("fingerprint", sa.JSON(), nullable=False),
        sa.Column("machine", sa.String(64), nullable=False),
        sa.Column("build_id", sa.Integer(), sa.ForeignKey("builds.id", ondelete="SET NULL"), nullable=True),
    )
    op.create_index("ix_bench_runs_machine", "bench_runs", ["machine"])
    op.create_table(
        "bench_results",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("run_id", sa.Integer(), sa.ForeignKey("bench_runs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("workload", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("value", sa.Float(), nullable=True),
        sa.Column("unit", sa.String(32), nullable=True),
        sa.Column("median", sa.Float(), nullable=True),
        sa.Column("iqr", sa.Float(), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
    )
    op.create_index("ix_bench_results_run_id", "bench_results", ["run_id"])


def downgrade() -> None:
    op.drop_index("ix_bench_results_run_id", "bench_results")
    op.drop_table("bench_results")
    op.drop_index("ix_bench_runs_machine", "bench_runs")
    op.drop_table("bench_runs")
