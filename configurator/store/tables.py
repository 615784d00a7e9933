"""SQLAlchemy 2.0 typed mappings. The schema itself is made by Alembic (db/migrations)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class PartRow(Base):
    __tablename__ = "parts"

    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    category: Mapped[str] = mapped_column(String(16), index=True)
    name: Mapped[str] = mapped_column(String(200))
    specs: Mapped[dict[str, Any]] = mapped_column(JSON)
    price_cny: Mapped[int] = mapped_column(Integer)
    price_date: Mapped[str] = mapped_column(String(10))
    source: Mapped[str] = mapped_column(Text)
    user_edited: Mapped[bool] = mapped_column(Boolean, default=False)
    custom: Mapped[bool] = mapped_column(Boolean, default=False)
    # The shipped catalogue's own price, kept so "reset to catalogue price" works
    # and so a catalogue update can refresh it without touching the user's price.
    catalogue_price_cny: Mapped[int | None] = mapped_column(Integer, nullable=True)
    catalogue_price_date: Mapped[str | None] = mapped_column(String(10), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class BuildRow(Base):
    __tablename__ = "builds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(200))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class PriceHistoryRow(Base):
    __tablename__ = "price_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    part_id: Mapped[str] = mapped_column(ForeignKey("parts.id", ondelete="CASCADE"), index=True)
    price_cny: Mapped[int] = mapped_column(Integer)
    price_date: Mapped[str] = mapped_column(String(10))
    origin: Mapped[str] = mapped_column(String(16))  # catalogue | user | import
    recorded_at: Mapped[datetime] = mapped_column(DateTime)


class MetaRow(Base):
    __tablename__ = "meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class RecordingRow(Base):
    """A monitor recording: the CSV file itself lives at ``path``; this is its index entry."""

    __tablename__ = "recordings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    path: Mapped[str] = mapped_column(Text)
    hostname: Mapped[str] = mapped_column(String(255))
    started_at: Mapped[datetime] = mapped_column(DateTime)
    stopped_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    interval_s: Mapped[float] = mapped_column(Float)
    gpus: Mapped[int] = mapped_column(Integer, default=0)
    rows: Mapped[int] = mapped_column(Integer, default=0)
    markers: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)  # [{"time", "label"}]
    note: Mapped[str | None] = mapped_column(Text, nullable=True)


class BenchRunRow(Base):
    """One benchmark suite run; ``machine`` is a hash of the hardware fingerprint (history per machine)."""

    __tablename__ = "bench_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    started_at: Mapped[datetime] = mapped_column(DateTime)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    suite: Mapped[str] = mapped_column(String(32))
    device: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))  # running | finished | cancelled | failed
    python: Mapped[str | None] = mapped_column(Text, nullable=True)
    fingerprint: Mapped[dict[str, Any]] = mapped_column(JSON)
    machine: Mapped[str] = mapped_column(String(64), index=True)
    build_id: Mapped[int | None] = mapped_column(ForeignKey("builds.id", ondelete="SET NULL"), nullable=True)


class BenchResultRow(Base):
    __tablename__ = "bench_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("bench_runs.id", ondelete="CASCADE"), index=True)
    workload: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))  # ok | failed | timeout | cancelled | skipped
    value: Mapped[float | None] = mapped_column(Float, nullable=True)
    unit: Mapped[str | None] = mapped_column(String(32), nullable=True)
    median: Mapped[float | None] = mapped_column(Float, nullable=True)
    iqr: Mapped[float | None] = mapped_column(Float, nullable=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    # How busy the machine was before and during the workload (configurator.bench.load); None: not recorded.
    load: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # Energy over the timed window (configurator.bench.energy) and how it was measured; None: not measurable.
    energy_j: Mapped[float | None] = mapped_column(Float, nullable=True)
    energy_s: Mapped[float | None] = mapped_column(Float, nullable=True)
    energy_method: Mapped[str | None] = mapped_column(String(32), nullable=True)
    joules_per_sample: Mapped[float | None] = mapped_column(Float, nullable=True)
    peak_memory_bytes: Mapped[int | None] = mapped_column(Integer, nullable=True)  # CUDA max_memory_allocated


class MeasurementRow(Base):
    """A measurement: a shipped published figure (``provenance`` "shipped", from db/measurements) or
    one of this machine's benchmark results ("local", with its run). ``record`` holds every field."""

    __tablename__ = "measurements"

    id: Mapped[str] = mapped_column(String(200), primary_key=True)
    provenance: Mapped[str] = mapped_column(String(16), index=True)  # shipped | local
    family: Mapped[str] = mapped_column(String(32))
    model: Mapped[str] = mapped_column(String(64))
    task: Mapped[str | None] = mapped_column(String(16), nullable=True)
    precision: Mapped[str | None] = mapped_column(String(16), nullable=True)
    gpu: Mapped[str | None] = mapped_column(String(128), nullable=True)
    gpu_count: Mapped[int | None] = mapped_column(Integer, nullable=True)
    cpu: Mapped[str | None] = mapped_column(Text, nullable=True)
    device: Mapped[str | None] = mapped_column(String(16), nullable=True)
    value: Mapped[float] = mapped_column(Float)
    unit: Mapped[str] = mapped_column(String(64))
    measured_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    machine: Mapped[str | None] = mapped_column(String(64), nullable=True)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("bench_runs.id", ondelete="CASCADE"), nullable=True,
                                               index=True)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
