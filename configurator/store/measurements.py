"""Measurements in the database: the shipped published ones and this machine's benchmark results.

The shipped rows (db/measurements/*.csv, parsed and validated by :mod:`configurator.core.measurements`)
are loaded the way the catalogue is: at start, only when the shipped files' digest (kept in ``meta``)
changed, and then all shipped rows are replaced in one transaction. This machine's rows
(``provenance`` "local") are written when a benchmark run is saved and deleted with it; a new
version's measurements never touch them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import delete, func, literal_column, select
from sqlalchemy.orm import Session

from configurator.core import calibration as cal
from configurator.core import measurements as ms
from configurator.paths import MEASUREMENTS_DIR
from configurator.store.database import Store
from configurator.store.tables import MeasurementRow, MetaRow

DIGEST_KEY = "measurements_digest"
SHIPPED, LOCAL = "shipped", "local"


def measurements_digest(directory: Path = MEASUREMENTS_DIR) -> str:
    h = hashlib.sha256()
    for f in sorted(directory.glob("*.csv")):
        h.update(f.name.encode())
        h.update(b"\0")
        h.update(f.read_bytes())
    return h.hexdigest()


def _shipped_row(m: ms.Measurement) -> MeasurementRow:
    record = {**m.__dict__, "flags": list(m.flags)}
    return MeasurementRow(id=m.id, provenance=SHIPPED, family=m.family, model=m.model, task=m.task,
                          precision=m.precision, gpu=m.gpu, gpu_count=m.gpu_count, cpu=m.cpu, device="cuda",
                          value=m.value, unit=m.unit, measured_on=m.source_date, machine=None, run_id=None,
                          record=record)


def sync_measurements(store: Store, directory: Path = MEASUREMENTS_DIR, force: bool = False) -> dict[str, int]:
    """Load the shipped measurements when they changed: ``{"shipped": n}``, or ``{}`` when nothing changed.
    Raises :class:`configurator.core.measurements.MeasurementError` for a malformed shipped file (nothing
    is changed then)."""
    digest = measurements_digest(directory)
    with store.session() as s:
        meta = s.get(MetaRow, DIGEST_KEY)
        have = s.scalar(select(func.count()).select_from(MeasurementRow)
                        .where(MeasurementRow.provenance == SHIPPED)) or 0
        if meta is not None and meta.value == digest and have and not force:
            return {}
    rows = ms.load(directory)
    with store.session() as s, s.begin():
        s.execute(delete(MeasurementRow).where(MeasurementRow.provenance == SHIPPED))
        s.add_all(_shipped_row(m) for m in rows)
        meta = s.get(MetaRow, DIGEST_KEY)
        if meta is None:
            s.add(MetaRow(key=DIGEST_KEY, value=digest))
        else:
            meta.value = digest
    return {"shipped": len(rows)}


def _measurement(record: dict[str, Any]) -> ms.Measurement | None:
    try:
        return ms.Measurement(**{**record, "flags": tuple(record.get("flags") or ())})
    except TypeError:  # a record of another version's fields: skipped, the next sync replaces it
        return None


def _local(row: MeasurementRow) -> cal.LocalMeasurement | None:
    r = row.record if isinstance(row.record, dict) else {}
    try:
        return cal.LocalMeasurement(
            id=row.id, run_id=row.run_id, workload=str(r["workload"]), device=str(row.device), value=row.value,
            unit=row.unit, date=row.measured_on or "", machine=row.machine or "", software=str(r.get("software", "")),
            hardware_name=str(r.get("hardware_name", "")), settings=dict(r.get("settings") or {}),
            fingerprint=dict(r.get("fingerprint") or {}),
            peak_memory_gib=r.get("peak_memory_gib") if isinstance(r.get("peak_memory_gib"), int | float) else None)
    except (KeyError, TypeError, ValueError):
        return None


def add_local(session: Session, run_id: int, rows: Sequence[Any], fingerprint: dict[str, Any], machine: str,
              started_at: datetime) -> int:
    """In the caller's transaction: this run's results that are measurements of this machine's hardware
    (``rows`` are :class:`configurator.bench.results.RowResult`)."""
    n = 0
    for r in rows:
        m = cal.from_result(run_id, r.name, r.status, r.value, r.unit, r.settings, r.details, fingerprint,
                            machine, started_at)
        if m is None:
            continue
        record = m.to_json()
        session.add(MeasurementRow(
            id=m.id, provenance=LOCAL, family=m.family, model=m.workload.split("-")[0], task=None,
            precision=str(m.settings.get("dtype") or m.settings.get("amp") or "") or None,
            gpu=None, gpu_count=1 if m.device == "cuda" else None,
            cpu=m.hardware_name if m.device == "cpu" else None, device=m.device, value=m.value, unit=m.unit,
            measured_on=m.date, machine=machine, run_id=run_id, record=record))
        n += 1
    return n


class MeasurementsRepository:
    def __init__(self, store: Store):
        self.store = store

    def shipped(self) -> list[ms.Measurement]:
        with self.store.session() as s:
            records = list(s.scalars(select(MeasurementRow.record).where(MeasurementRow.provenance == SHIPPED)
                                     .order_by(literal_column("rowid"))))  # the files' order
        return [m for m in (_measurement(r) for r in records if isinstance(r, dict)) if m is not None]

    def for_gpu(self, gpu_id: str) -> list[ms.Measurement]:
        """The shipped measurements of one catalogue GPU (any GPU count), in the files' order."""
        with self.store.session() as s:
            records = list(s.scalars(select(MeasurementRow.record).where(
                MeasurementRow.provenance == SHIPPED, MeasurementRow.gpu == gpu_id).order_by(literal_column("rowid"))))
        return [m for m in (_measurement(r) for r in records if isinstance(r, dict)) if m is not None]

    def local(self, device: str | None = None) -> list[cal.LocalMeasurement]:
        """This machine's measurements, newest run first."""
        stmt = select(MeasurementRow).where(MeasurementRow.provenance == LOCAL)
        if device is not None:
            stmt = stmt.where(MeasurementRow.device == device)
        with self.store.session() as s:
            rows = list(s.scalars(stmt.order_by(MeasurementRow.measured_on.desc(), MeasurementRow.run_id.desc())))
        return [m for m in (_local(r) for r in rows) if m is not None]
