"""The index of monitor recordings (the CSV files themselves live where the user put them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select

from configurator.store.database import Store
from configurator.store.tables import RecordingRow


@dataclass(frozen=True)
class Recording:
    id: int
    path: Path
    hostname: str
    started_at: datetime
    stopped_at: datetime | None
    interval_s: float
    gpus: int
    rows: int
    markers: tuple[dict[str, Any], ...]
    note: str | None

    @property
    def exists(self) -> bool:
        return self.path.exists()


def _recording(row: RecordingRow) -> Recording:
    return Recording(row.id, Path(row.path), row.hostname, row.started_at, row.stopped_at, row.interval_s,
                     row.gpus, row.rows, tuple(row.markers or ()), row.note)


class RecordingsRepository:
    def __init__(self, store: Store):
        self.store = store

    def start(self, path: str | Path, hostname: str, interval_s: float, started_at: datetime | None = None,
              note: str | None = None) -> int:
        with self.store.session() as s, s.begin():
            row = RecordingRow(path=str(Path(path).resolve()), hostname=hostname,
                               started_at=started_at or datetime.now(), interval_s=float(interval_s),
                               gpus=0, rows=0, markers=[], note=note)
            s.add(row)
            s.flush()
            return int(row.id)

    def add_marker(self, recording_id: int, marker: dict[str, Any]) -> None:
        with self.store.session() as s, s.begin():
            row = s.get(RecordingRow, recording_id)
            if row is None:
                raise KeyError(recording_id)
            row.markers = [*(row.markers or []), dict(marker)]  # a new list, so the JSON column is saved

    def finish(self, recording_id: int, *, rows: int, gpus: int, markers: list[dict[str, Any]] | None = None,
               stopped_at: datetime | None = None) -> None:
        with self.store.session() as s, s.begin():
            row = s.get(RecordingRow, recording_id)
            if row is None:
                raise KeyError(recording_id)
            row.stopped_at = stopped_at or datetime.now()
            row.rows = rows
            row.gpus = gpus
            if markers is not None:
                row.markers = [dict(m) for m in markers]

    def get(self, recording_id: int) -> Recording | None:
        with self.store.session() as s:
            row = s.get(RecordingRow, recording_id)
            return None if row is None else _recording(row)

    def list(self, limit: int | None = None) -> list[Recording]:
        with self.store.session() as s:
            q = select(RecordingRow).order_by(RecordingRow.started_at.desc(), RecordingRow.id.desc())
            if limit is not None:
                q = q.limit(limit)
            return [_recording(r) for r in s.scalars(q)]

    def set_note(self, recording_id: int, note: str | None) -> None:
        with self.store.session() as s, s.begin():
            row = s.get(RecordingRow, recording_id)
            if row is None:
                raise KeyError(recording_id)
            row.note = note

    def delete(self, recording_id: int) -> None:
        """Forget a recording; the CSV file is left where it is."""
        with self.store.session() as s, s.begin():
            row = s.get(RecordingRow, recording_id)
            if row is not None:
                s.delete(row)
