"""The recordings index in the database."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from configurator.store.database import Store
from configurator.store.recordings import RecordingsRepository


def test_start_mark_finish_list_delete(store: Store, tmp_path: Path) -> None:
    repo = RecordingsRepository(store)
    path = tmp_path / "运行.csv"
    rid = repo.start(path, "box", 0.5, started_at=datetime(2026, 1, 2, 3, 4, 5))
    repo.add_marker(rid, {"time": "2026-01-02T03:05:00", "label": "lr 1e-4 → 3e-4"})
    repo.add_marker(rid, {"time": "2026-01-02T03:06:00", "label": "epoch 2"})
    rec = repo.get(rid)
    assert rec is not None and rec.stopped_at is None and [m["label"] for m in rec.markers] == ["lr 1e-4 → 3e-4",
                                                                                                 "epoch 2"]
    repo.finish(rid, rows=120, gpus=4)
    rec = repo.get(rid)
    assert rec is not None and rec.rows == 120 and rec.gpus == 4 and rec.stopped_at is not None
    assert rec.path == path.resolve() and len(rec.markers) == 2 and not rec.exists
    other = repo.start(tmp_path / "b.csv", "box", 1.0)
    assert [r.id for r in repo.list()] == [other, rid]
    repo.set_note(rid, "baseline")
    assert repo.get(rid).note == "baseline"  # type: ignore[union-attr]
    repo.delete(rid)
    assert repo.get(rid) is None and [r.id for r in repo.list()] == [other]
