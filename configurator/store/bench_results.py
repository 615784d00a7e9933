"""Benchmark runs and results: saving a run, history per machine, linking a run to a build."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from configurator.bench.load import impossible_reason
from configurator.bench.results import RowResult, RunRecord
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.store.database import Store
from configurator.store.measurements import add_local
from configurator.store.repository import RepositoryError
from configurator.store.tables import BenchResultRow, BenchRunRow, BuildRow, MeasurementRow


@dataclass(frozen=True)
class RunSummary:
    id: int
    started_at: datetime
    finished_at: datetime | None
    suite: str
    device: str
    status: str
    machine: str
    build_id: int | None
    results: int


@dataclass(frozen=True)
class HistoryPoint:
    run_id: int
    started_at: datetime
    value: float
    unit: str | None
    settings: dict[str, Any]


def _row_result(r: BenchResultRow) -> RowResult:
    kept = (r.details or {}).get("error_message")  # the message itself, so it shows in the reader's language
    if isinstance(kept, dict) and isinstance(kept.get("template"), str):
        params = kept.get("params")
        params = params if isinstance(params, dict) else {}
        error: Message | None = Message(str(kept.get("context") or "bench"), kept["template"], params)
    else:
        error = Message("bench", "{error}", {"error": r.error}) if r.error else None
    return RowResult(r.workload, str(r.details.get("job", "")) if r.details else "", r.status, r.value, r.unit,
                     r.median, r.iqr, dict(r.settings or {}), dict(r.details or {}), error,
                     load=dict(r.load) if isinstance(r.load, dict) else None)


def _error_message(r: RowResult) -> dict[str, Any]:
    """The row's error as its template and parameters (plain ones only), for reading back translated."""
    e = r.error
    if e is None or not all(isinstance(v, str | int | float | bool) or v is None for v in e.params.values()):
        return {}
    return {"error_message": {"context": e.context, "template": e.template, "params": dict(e.params)}}


class BenchResultsRepository:
    def __init__(self, store: Store):
        self.store = store

    def save(self, record: RunRecord, build_id: int | None = None) -> int:
        """Store a finished (or cancelled/failed) run with its rows; sets ``record.run_id``."""
        build_id = build_id if build_id is not None else record.build_id
        with self.store.session() as s, s.begin():
            if build_id is not None and s.get(BuildRow, build_id) is None:
                raise RepositoryError(Message("store", QT_TRANSLATE_NOOP(
                    "store", "The saved build {id} no longer exists."), {"id": build_id}))
            run = BenchRunRow(started_at=record.started_at, finished_at=record.finished_at or datetime.now(),
                              suite=record.suite, device=record.resolved_device or record.device,
                              status=record.status if record.status != "running" else "failed",
                              python=record.python, fingerprint=record.fingerprint, machine=record.machine or "-",
                              build_id=build_id)
            s.add(run)
            s.flush()
            for r in record.rows:
                energy = r.energy
                s.add(BenchResultRow(run_id=run.id, workload=r.name, status=r.status, value=r.value, unit=r.unit,
                                     median=r.median, iqr=r.iqr, settings=r.settings,
                                     details={**r.details, "job": r.job, **_error_message(r)}, error=r.error_text(),
                                     load=r.load, energy_j=energy["joules"] if energy else None,
                                     energy_s=energy.get("seconds") if energy else None,
                                     energy_method=energy.get("method") if energy else None,
                                     joules_per_sample=r.joules_per_sample, peak_memory_bytes=r.peak_memory_bytes))
            if run.status == "finished":  # this machine's hardware, measured (a cancelled run's rows too few)
                add_local(s, run.id, record.rows, record.fingerprint, record.machine or "-", record.started_at)
            run_id = run.id
        record.run_id, record.build_id = run_id, build_id
        return run_id

    def runs(self, machine: str | None = None, limit: int = 100) -> list[RunSummary]:
        stmt = select(BenchRunRow).order_by(BenchRunRow.started_at.desc(), BenchRunRow.id.desc()).limit(limit)
        if machine is not None:
            stmt = stmt.where(BenchRunRow.machine == machine)
        with self.store.session() as s:
            rows = list(s.scalars(stmt))
            counts = {r.id: 0 for r in rows}
            if counts:
                for rid in s.scalars(select(BenchResultRow.run_id).where(BenchResultRow.run_id.in_(counts))):
                    counts[rid] += 1
            return [RunSummary(r.id, r.started_at, r.finished_at, r.suite, r.device, r.status, r.machine,
                               r.build_id, counts[r.id]) for r in rows]

    def get(self, run_id: int) -> RunRecord | None:
        with self.store.session() as s:
            run = s.get(BenchRunRow, run_id)
            if run is None:
                return None
            results = list(s.scalars(select(BenchResultRow).where(BenchResultRow.run_id == run_id)
                                     .order_by(BenchResultRow.id)))
            rec = RunRecord(run.suite, run.device, run.python or "", run.started_at, resolved_device=run.device,
                            finished_at=run.finished_at, status=run.status, fingerprint=dict(run.fingerprint or {}),
                            machine=run.machine, rows=[_row_result(r) for r in results], run_id=run.id,
                            build_id=run.build_id)
        for row in rec.rows:
            row.details.pop("job", None)
            row.details.pop("error_message", None)
        return rec

    def history(self, machine: str, workload: str, before: datetime | None = None,
                limit: int = 50) -> list[HistoryPoint]:
        """Earlier successful values of one result row on one machine, oldest first: from finished
        runs only (a cancelled or failed run is no earlier run to compare with)."""
        stmt = (select(BenchResultRow, BenchRunRow.started_at)
                .join(BenchRunRow, BenchRunRow.id == BenchResultRow.run_id)
                .where(BenchRunRow.machine == machine, BenchRunRow.status == "finished",
                       BenchResultRow.workload == workload,
                       BenchResultRow.status == "ok", BenchResultRow.value.is_not(None))
                .order_by(BenchRunRow.started_at.desc(), BenchRunRow.id.desc()).limit(limit))
        if before is not None:
            stmt = stmt.where(BenchRunRow.started_at < before)
        with self.store.session() as s:
            # a value that cannot be true (more than ideal scaling, a spread wider than the median) is no
            # earlier result to compare with
            got = [HistoryPoint(r.run_id, started, float(r.value), r.unit, dict(r.settings or {}))
                   for r, started in s.execute(stmt) if r.value is not None
                   and impossible_reason(workload, r.median, r.iqr, dict(r.details or {})) is None]
        return list(reversed(got))

    def link_build(self, run_id: int, build_id: int | None) -> None:
        with self.store.session() as s, s.begin():
            run = s.get(BenchRunRow, run_id)
            if run is None:
                raise RepositoryError(Message("store", QT_TRANSLATE_NOOP(
                    "store", "There is no benchmark run {id}."), {"id": run_id}))
            if build_id is not None and s.get(BuildRow, build_id) is None:
                raise RepositoryError(Message("store", QT_TRANSLATE_NOOP(
                    "store", "The saved build {id} no longer exists."), {"id": build_id}))
            run.build_id = build_id

    def runs_for_build(self, build_id: int) -> list[RunRecord]:
        """Runs linked to a saved build, newest first (the build sheet includes them)."""
        with self.store.session() as s:
            ids = list(s.scalars(select(BenchRunRow.id).where(BenchRunRow.build_id == build_id)
                                 .order_by(BenchRunRow.started_at.desc())))
        return [r for r in (self.get(i) for i in ids) if r is not None]

    def delete(self, run_id: int) -> None:
        with self.store.session() as s, s.begin():
            run = s.get(BenchRunRow, run_id)
            if run is not None:
                for m in s.scalars(select(MeasurementRow).where(MeasurementRow.run_id == run_id)):
                    s.delete(m)
                for r in s.scalars(select(BenchResultRow).where(BenchResultRow.run_id == run_id)):
                    s.delete(r)
                s.delete(run)
