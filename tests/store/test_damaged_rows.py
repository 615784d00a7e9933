"""A damaged row of any table (a value SQLite stores but the app cannot read: the wrong type, JSON that is not
valid or holds a number too large for a float, a timestamp that is not one, text that is not UTF-8) is named once
and skipped by every read; never a traceback, and it stays in the file for recovery."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_run import run

from configurator.store.bench_results import BenchResultsRepository
from configurator.store.database import open_store
from configurator.store.listing import iter_listed
from configurator.store.measurements import MeasurementsRepository
from configurator.store.recordings import RecordingsRepository
from configurator.store.repository import BuildsRepository, PartsRepository, Unreadable
from configurator.store.seed import seed_store

GPU = "nvidia-rtx-3090"
BUILD = {"format": "configurator.build/1", "name": "This machine", "parts": [{"id": GPU, "qty": 1}]}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("seeded") / "c.db"
    store = open_store(path, seed=seed_store)
    BuildsRepository(store).save("This machine", BUILD)
    store.close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return path


@pytest.fixture
def db(seeded: Path, tmp_path: Path) -> Path:
    path = tmp_path / "c.db"
    shutil.copy(seeded, path)
    return path


def damage(path: Path, sql: str) -> None:
    con = sqlite3.connect(path)
    con.execute(sql)
    con.commit()
    con.close()


def stored(path: Path, sql: str) -> object:
    con = sqlite3.connect(path)
    con.text_factory = bytes
    try:
        return con.execute(sql).fetchone()
    finally:
        con.close()


# Damage that SQLite stores without complaint, found when the database is opened.
AT_OPEN = {
    "build data not JSON": ("UPDATE builds SET data = '{bad'", "builds", "1"),
    "build data a BLOB": ("UPDATE builds SET data = x'ff00'", "builds", "1"),
    "build data JSON but not an object": ("UPDATE builds SET data = '[1, 2]'", "builds", "1"),
    "build created_at not a date": ("UPDATE builds SET created_at = 'garbage'", "builds", "1"),
    "build updated_at a number": ("UPDATE builds SET updated_at = 99999", "builds", "1"),
    "build name a BLOB": ("UPDATE builds SET name = x'ff'", "builds", "1"),
    "part price not a number": (f"UPDATE parts SET price_cny = 'abc' WHERE id = '{GPU}'", "parts", GPU),
    "part name a BLOB": (f"UPDATE parts SET name = x'ff' WHERE id = '{GPU}'", "parts", GPU),
    "part specs not UTF-8": (f"UPDATE parts SET specs = CAST(x'7b22ff223a317d' AS TEXT) WHERE id = '{GPU}'",
                             "parts", GPU),
    "measurement record not JSON": ("UPDATE measurements SET record = '{bad' WHERE rowid = 1", "measurements", None),
    "measurement record with 1e999": ("UPDATE measurements SET record = '{\"value\": 1e999}' WHERE rowid = 1",
                                      "measurements", None),
    "measurement value infinite": ("UPDATE measurements SET value = 1e999 WHERE rowid = 1", "measurements", None),
}


def read_everything(path: Path) -> tuple[list[str], list[Unreadable]]:
    """Open the database and read every table the way the app does; the notices, and the parts not read."""
    store = open_store(path, seed=seed_store)
    unreadable: list[Unreadable] = []
    try:
        parts = PartsRepository(store)
        parts.list_parts(unreadable=unreadable)
        parts.cheapest_of_each_spec(3)
        parts.get(GPU)
        for category in ("gpu", "cpu", "memory"):
            list(iter_listed(store, category, ("name",), []))
        builds = BuildsRepository(store)
        for b in builds.list():
            builds.get(b.id)
        MeasurementsRepository(store).shipped()
        MeasurementsRepository(store).local()
        RecordingsRepository(store).list()
        BenchResultsRepository(store).runs()
        return [m.render() for m in store.notices], unreadable
    finally:
        store.close()


@pytest.mark.parametrize("case", list(AT_OPEN))
def test_a_damaged_row_is_named_once_at_open_skipped_by_every_read_and_kept(db: Path, case: str) -> None:
    sql, table, row_id = AT_OPEN[case]
    damage(db, sql)
    before = stored(db, f"SELECT count(*) FROM {table}")
    notices, unreadable = read_everything(db)
    assert len(notices) == 1 and "1 damaged entries" in notices[0] and table in notices[0]
    if row_id is not None:
        assert f"{table} {row_id}" in notices[0]
    assert unreadable == []  # named at open, not a second time by the reads
    assert stored(db, f"SELECT count(*) FROM {table}") == before  # nothing deleted
    if table == "builds":
        store = open_store(db, seed=seed_store)
        try:
            assert BuildsRepository(store).list() == [] and BuildsRepository(store).get(1) is None
        finally:
            store.close()


# Damage inside a part's specs (valid JSON, the wrong values): found by the part's record as it is read.
WHEN_READ = {
    "vram_gb a string": """'"vram_gb": "24"'""",
    "vram_gb an object": """'"vram_gb": {"a": 1}'""",
    "vram_gb too large for a float": """'"vram_gb": 1e999'""",
    "bandwidth too large for a float": None,
}


@pytest.mark.parametrize("case", list(WHEN_READ))
def test_a_part_with_damaged_specs_is_named_once_when_read(db: Path, case: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    replacement = WHEN_READ[case]
    if replacement is None:
        damage(db, f"UPDATE parts SET specs = json_set(specs, '$.memory_bandwidth_gbs', json('1e999'))"
                   f" WHERE id = '{GPU}'")
    else:
        damage(db, f"""UPDATE parts SET specs = replace(specs, '"vram_gb": 24', {replacement}) WHERE id = '{GPU}'""")
    notices, unreadable = read_everything(db)
    assert notices == [] and [u.id for u in unreadable] == [GPU]
    for argv in (("parts", "list"), ("parts", "list", "--json"), ("parts", "show", GPU, "--json")):
        code, out, err = run(capsys, "--db", str(db), "--lang", "en", *argv)
        assert err.count(GPU) == 1 and len(err.splitlines()) == 1, (argv, err)
        assert code == (2 if "show" in argv else 0), (argv, err)
        if "--json" in argv:
            json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} in the JSON output"))


def test_cli_detect_save_over_a_damaged_this_machine_row(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    damage(db, "UPDATE builds SET data = '{bad' WHERE name = 'This machine'")
    for _ in range(2):
        code, _out, err = run(capsys, "--db", str(db), "--lang", "en", "detect", "--fake-gpus", "1", "--save",
                              "--json")
        assert code == 0, err
        assert err.count("damaged entries") == 1 and err.count("builds 1") == 1  # once, though opened twice
    assert stored(db, "SELECT data FROM builds WHERE id = 1") == (b"{bad",)  # kept for recovery


def test_cli_measurements_list_skips_a_damaged_record(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    damage(db, "UPDATE measurements SET record = '{bad' WHERE rowid = 1")
    for extra in ((), ("--json",)):
        code, _out, err = run(capsys, "--db", str(db), "--lang", "en", "measurements", "list", *extra)
        assert code == 0 and len(err.splitlines()) == 1 and "measurements" in err, err


def test_cli_check_with_a_damaged_part_names_it(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    damage(db, f"""UPDATE parts SET specs = replace(specs, '"vram_gb": 24', '"vram_gb": "24"') WHERE id = '{GPU}'""")
    build = tmp_path / "b.json"
    build.write_text(json.dumps({"format": "configurator.build/1", "name": "x", "parts": [{"id": GPU}]}))
    code, _out, err = run(capsys, "--db", str(db), "--lang", "en", "check", str(build), "--json")
    assert code == 2 and "could not be read" in err and GPU in err, err
