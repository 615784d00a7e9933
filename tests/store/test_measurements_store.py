"""Measurements in the database: shipped rows loaded like the catalogue, this machine's rows kept apart."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

from configurator.bench.results import RowResult, RunRecord
from configurator.core import measurements as ms
from configurator.paths import MEASUREMENTS_DIR
from configurator.store.bench_results import BenchResultsRepository
from configurator.store.database import SCHEMA_HEAD, Store, open_store
from configurator.store.measurements import MeasurementsRepository, sync_measurements
from configurator.store.seed import seed_store

FP = {"cpu": "AMD Ryzen 9 5950X 16-Core Processor", "cpu_mhz": 3400, "torch": "2.5.1", "cuda": "12.4",
      "gpus": [{"name": "NVIDIA GeForce RTX 3090", "memory_gib": 24.0}]}


def run(when: datetime, status: str = "finished") -> RunRecord:
    r = RunRecord("quick", "auto", "/py", when, resolved_device="cuda", finished_at=when + timedelta(seconds=60),
                  status=status, fingerprint=FP, machine="m1")
    energy = {"joules": 1200.0, "seconds": 4.0, "mean_w": 300.0, "method": "nvml-energy-counter",
              "joules_per_sample": 0.6, "per": "image"}
    r.rows = [
        RowResult("resnet50-train", "resnet50", "ok", 500.0, "img/s", 500.0, 5.0,
                  {"device": "cuda", "batch": 64, "image": 224, "amp": "bf16", "torch": "2.5.1"},
                  {"peak_memory_bytes": 9 * 1024**3, "energy": energy}),
        RowResult("matmul-bf16", "matmul", "ok", 140.0, "TFLOPS", 138.0, 1.0, {"device": "cuda", "dtype": "bf16"},
                  {"energy": None, "peak_memory_bytes": 3 * 1024**2}),
        RowResult("dataloader-warm", "dataloader", "ok", 900.0, "img/s", 900.0, 9.0, {"device": "cpu"}, {}),
        RowResult("gpt2-decode", "gpt2", "failed"),
    ]
    return r


def test_first_start_loads_the_shipped_measurements_in_file_order(db_path: Path) -> None:
    store = open_store(db_path, seed=seed_store)  # a new database (the store fixture's is a copy of one made before)
    try:
        shipped = MeasurementsRepository(store).shipped()
        assert shipped == ms.load()  # every field survives the round trip
        assert store.measurement_changes == {"shipped": len(shipped)}
        assert MeasurementsRepository(store).local() == []
    finally:
        store.close()


def test_warm_start_does_not_resync_and_a_new_version_keeps_this_machines_rows(store: Store, db_path: Path,
                                                                               tmp_path: Path) -> None:
    BenchResultsRepository(store).save(run(datetime(2026, 12, 1, 9)))
    store.close()
    again = open_store(db_path, seed=seed_store)
    try:
        assert again.measurement_changes == {}
        newer = tmp_path / "measurements"
        shutil.copytree(MEASUREMENTS_DIR, newer)
        csv = newer / "published.csv"
        lines = csv.read_text(encoding="utf-8").splitlines(keepends=True)
        csv.write_text("".join(lines[:-1]), encoding="utf-8")  # the new version drops its last row
        assert sync_measurements(again, newer) == {"shipped": len(ms.load()) - 1}
        repo = MeasurementsRepository(again)
        assert len(repo.shipped()) == len(ms.load()) - 1
        assert sorted(m.workload for m in repo.local()) == ["matmul-bf16", "resnet50-train"]
    finally:
        again.close()


def test_a_saved_run_stores_its_measurements_energy_and_peak_memory_and_deleting_it_removes_them(
        store: Store, db_path: Path) -> None:
    results = BenchResultsRepository(store)
    run_id = results.save(run(datetime(2026, 12, 1, 9)))
    results.save(run(datetime(2026, 12, 1, 10), status="cancelled"))  # a cancelled run measures nothing here
    local = MeasurementsRepository(store).local()
    assert sorted(m.workload for m in local) == ["matmul-bf16", "resnet50-train"]  # not DataLoader, not a failure
    resnet = next(m for m in local if m.workload == "resnet50-train")
    assert resnet.run_id == run_id and resnet.date == "2026-12-01" and resnet.software == "torch 2.5.1, CUDA 12.4"
    assert resnet.hardware_name == "NVIDIA GeForce RTX 3090" and resnet.fingerprint == FP
    con = sqlite3.connect(db_path)
    got = con.execute("SELECT energy_j, energy_method, joules_per_sample, peak_memory_bytes FROM bench_results "
                      "WHERE run_id = ? AND workload = 'resnet50-train'", (run_id,)).fetchone()
    assert got == (1200.0, "nvml-energy-counter", 0.6, 9 * 1024**3)
    assert con.execute("SELECT energy_j, energy_method FROM bench_results WHERE workload = 'matmul-bf16' "
                       "AND run_id = ?", (run_id,)).fetchone() == (None, None)
    con.close()
    back = results.get(run_id)
    assert back is not None and back.rows[0].peak_memory_bytes == 9 * 1024**3
    assert back.rows[0].to_json()["joules_per_sample"] == 0.6
    results.delete(run_id)
    assert MeasurementsRepository(store).local() == []


def test_migration_from_0004_keeps_benchmark_runs_and_adds_the_measurements(tmp_path: Path) -> None:
    from old_schema import database_at

    path = tmp_path / "旧.db"
    database_at(path, "0004")
    con = sqlite3.connect(path)
    con.execute("INSERT INTO bench_runs (started_at, suite, device, status, fingerprint, machine) VALUES "
                "('2026-11-30 10:00:00', 'quick', 'cpu', 'finished', '{}', 'm1')")
    con.execute("INSERT INTO bench_results (run_id, workload, status, value, unit, settings, details) VALUES "
                "(1, 'resnet18-train', 'ok', 12.5, 'img/s', '{}', '{}')")
    con.commit()
    con.close()
    store = open_store(path, seed=seed_store)
    try:
        got = BenchResultsRepository(store).get(1)
        assert got is not None and got.rows[0].value == 12.5 and got.rows[0].energy is None
        assert got.rows[0].to_json()["peak_memory_gib"] is None
        assert len(MeasurementsRepository(store).shipped()) == len(ms.load())
        con = sqlite3.connect(path)
        assert con.execute("SELECT version_num FROM alembic_version").fetchone()[0] == SCHEMA_HEAD
        con.close()
    finally:
        store.close()
