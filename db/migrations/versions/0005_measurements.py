"""measurements in the database (shipped and this machine's); benchmark energy and peak memory

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # One row per measurement: the published ones shipped in db/measurements (provenance "shipped",
    # replaced whenever the shipped files change) and this machine's benchmark results (provenance
    # "local", made when a run is saved, deleted with their run; a catalogue update never touches them).
    op.create_table(
        "measurements",
        sa.Column("id", sa.String(200), primary_key=True),
        sa.Column("provenance", sa.String(16), nullable=False),
        sa.Column("family", sa.String(32), nullable=False),
        sa.Column("model", sa.String(64), nullable=False),
        sa.Column("task", sa.String(16), nullable=True),
        sa.Column("precision", sa.String(16), nullable=True),
        sa.Column("gpu", sa.String(128), nullable=True),
        sa.Column("gpu_count", sa.Integer(), nullable=True),
        sa.Column("cpu", sa.Text(), nullable=True),
        sa.Column("device", sa.String(16), nullable=True),
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("unit", sa.String(64), nullable=False),
        sa.Column("measured_on", sa.String(10), nullable=True),
        sa.Column("machine", sa.String(64), nullable=True),
        sa.Column("run_id", sa.Integer(), sa.ForeignKey("bench_runs.id", ondelete="CASCADE"), nullable=True),
        sa.Column("record", sa.JSON(), nullable=False),
    )
    op.create_index("ix_measurements_provenance", "measurements", ["provenance"])
    op.create_index("ix_measurements_run_id", "measurements", ["run_id"])
    # Energy over the workload's timed window and how it was measured (NULL: not measurable), joules per
    # unit of work (image, token, TFLOP, GB), and CUDA's peak allocated memory during the workload.
    with op.batch_alter_table("bench_results") as batch:
        batch.add_column(sa.Column("energy_j", sa.Float(), nullable=True))
        batch.add_column(sa.Column("energy_s", sa.Float(), nullable=True))
        batch.add_column(sa.Column("energy_method", sa.String(32), nullable=True))
        batch.add_column(sa.Column("joules_per_sample", sa.Float(), nullable=True))
        batch.add_column(sa.Column("peak_memory_bytes", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("bench_results") as batch:
        for c in ("peak_memory_bytes", "joules_per_sample", "energy_method", "energy_s", "energy_j"):
            batch.drop_column(c)
    op.drop_index("ix_measurements_run_id", "measurements")
    op.drop_index("ix_measurements_provenance", "measurements")
    op.drop_table("measurements")
