from __future__ import annotations

import os
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from configurator.store import database
from configurator.store.catalogue import load_catalogue, sync_catalogue
from configurator.store.database import SCHEMA_HEAD, backup_copy, open_store
from configurator.store.migrate import heads
from configurator.store.repository import BuildsRepository, PartsRepository
from configurator.store.seed import seed_store


def test_migrations_have_one_head_and_it_is_the_declared_one() -> None:
    assert heads() == [SCHEMA_HEAD]


def test_first_start_creates_seeds_and_uses_wal(db_path: Path) -> None:
    store = open_store(db_path, seed=seed_store)
    try:
        n = len(load_catalogue())
        assert store.catalogue_changes["added"] == n
        assert len(PartsRepository(store).list_parts()) == n
        con = sqlite3.connect(db_path)
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert con.execute("SELECT version_num FROM alembic_version").fetchone()[0] == SCHEMA_HEAD
        con.close()
    finally:
        store.close()


def test_warm_start_does_not_resync(store, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    store.close()
    again = open_store(db_path, seed=seed_store)
    try:
        assert again.catalogue_changes == {}
        assert again.recovered is None and again.backup is None
    finally:
        again.close()


def _corrupt_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if ".corrupt-" in p.name)


def test_random_bytes_are_kept_aside_and_a_fresh_db_is_made(tmp_path: Path) -> None:
    path = tmp_path / "configurator.db"
    path.write_bytes(os.urandom(64 * 1024))
    (tmp_path / "configurator.db-wal").write_bytes(b"wal junk")
    (tmp_path / "configurator.db-shm").write_bytes(b"shm junk")
    # at our own path: a file that is not SQLite is ours to keep aside
    store = open_store(path, owned=True, seed=seed_store)
    try:
        rec = store.recovered
        assert rec is not None
        assert rec.moved_to.exists() and rec.moved_to.name.startswith("configurator.db.corrupt-")
        assert {p.name.rsplit(".corrupt-", 1)[1][15:] for p in _corrupt_files(tmp_path)} == {"", "-wal", "-shm"}
        assert str(rec.moved_to) in rec.message().render()
        assert len(PartsRepository(store).list_parts()) == len(load_catalogue())
    finally:
        store.close()


def test_damaged_pages_fail_the_integrity_check(store, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    store.close()
    con = sqlite3.connect(db_path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(db_path.read_bytes())
    page = 4096
    for i in range(2 * page + 100, min(len(data), 8 * page), 7):  # keep the header, wreck table pages
        data[i] = (data[i] * 31 + 7) % 256
    db_path.write_bytes(bytes(data))
    again = open_store(db_path, seed=seed_store)
    try:
        assert again.recovered is not None
        assert again.recovered.moved_to.exists()
    finally:
        again.close()


def test_unwritable_folder_is_a_clear_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(database.StoreError) as info:
        open_store(blocker / "sub" / "configurator.db", seed=seed_store)
    assert str(blocker) in str(info.value)


def test_backup_before_migrating_an_existing_database(store, db_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    store.close()
    calls = []
    monkeypatch.setattr(database, "SCHEMA_HEAD", "9999")
    monkeypatch.setattr("configurator.store.migrate.upgrade_to_head", lambda engine, **kw: calls.append(engine))
    again = open_store(db_path, seed=seed_store)
    try:
        assert calls, "a stored revision other than the head runs the migrations"
        assert again.backup is not None and again.backup.exists()
        con = sqlite3.connect(again.backup)
        assert con.execute("SELECT count(*) FROM parts").fetchone()[0] == len(load_catalogue())
        con.close()
    finally:
        again.close()


def test_backup_copy_is_consistent(store, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    PartsRepository(store).set_price("nvidia-rtx-3090", 5555)
    copy = backup_copy(db_path, "test")
    con = sqlite3.connect(copy)
    assert con.execute("SELECT price_cny FROM parts WHERE id='nvidia-rtx-3090'").fetchone()[0] == 5555
    con.close()


def test_chinese_folder_name(tmp_path: Path) -> None:
    path = tmp_path / "深度学习 配置" / "数据库.db"
    store = open_store(path, seed=seed_store)
    try:
        assert PartsRepository(store).get("nvidia-rtx-3090") is not None
    finally:
        store.close()


def _edited_catalogue(tmp_path: Path) -> Path:
    from configurator.paths import CATALOGUE_DIR

    new = tmp_path / "catalogue"
    shutil.copytree(CATALOGUE_DIR, new)
    gpu = new / "gpu.toml"
    text = gpu.read_text(encoding="utf-8")
    text = text.replace('id = "nvidia-rtx-3090"', 'id = "nvidia-rtx-3090"\nlaunch_year = 2099', 1) \
        if "launch_year" not in text.split('id = "nvidia-rtx-3090"')[1].split("[[part]]")[0] else text
    text += '''
[[part]]
id = "nvidia-rtx-9999"
name = "NVIDIA GeForce RTX 9999"
brand = "NVIDIA"
price_cny = 99999
price_date = "2027-01"
source = "https://www.nvidia.com/en-us/geforce/graphics-cards/rtx-9999/"
vendor = "nvidia"
architecture = "Future"
compute_capability = "12.0"
form_factor = "pcie"
vram_gb = 64
vram_type = "GDDR8"
memory_bandwidth_gbs = 3000.0
fp32_tflops = 200.0
tensor_cores = true
fp16_tensor_tflops = 800.0
board_power_w = 700
pcie_gen = 6
pcie_lanes = 16
slot_width = 4.0
length_mm = 340
cooling = "active"
nvlink = false
'''
    # New catalogue prices for two parts.
    for pid, price in (("nvidia-rtx-4090", 11111), ("nvidia-rtx-3090", 22222)):
        head, rest = text.split(f'id = "{pid}"', 1)
        block, tail = [*rest.split("[[part]]", 1), ""][:2]
        block = re.sub(r"price_cny = \d+", f"price_cny = {price}", block, count=1)
        text = head + f'id = "{pid}"' + block + ("[[part]]" + tail if tail else "")
    gpu.write_text(text, encoding="utf-8")
    return new


def test_newer_catalogue_keeps_user_prices_custom_parts_builds_and_history(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    parts = PartsRepository(store)
    parts.set_price("nvidia-rtx-3090", 4999, "2026-11-20")
    custom = parts.add_custom({
        "category": "psu", "id": "my-old-psu", "name": "My old 650 W", "brand": "Mine", "price_cny": 0,
        "price_date": "2026-11", "source": "https://example.com/my/psu", "watts": 650,
        "efficiency": "80 PLUS Bronze", "form_factor": "ATX", "pcie_8pin": 2, "connector_12v2x6": 0,
        "eps_8pin": 1})
    builds = BuildsRepository(store)
    build_id = builds.save("Two 3090s", {"format": "configurator.build/1", "parts": [{"id": "nvidia-rtx-3090"}]})
    history_before = parts.price_history("nvidia-rtx-3090")

    changes = sync_catalogue(store, _edited_catalogue(tmp_path))

    assert changes["added"] == 1 and changes["kept_user_price"] == 1
    rtx3090 = parts.get("nvidia-rtx-3090")
    assert rtx3090 is not None and rtx3090.price_cny == 4999 and rtx3090.user_edited
    assert parts.catalogue_price("nvidia-rtx-3090") == (22222, "2026-11")
    rtx4090 = parts.get("nvidia-rtx-4090")
    assert rtx4090 is not None and rtx4090.price_cny == 11111  # not edited: follows the catalogue
    assert parts.get("nvidia-rtx-9999") is not None
    assert parts.get("my-old-psu") == custom
    saved = builds.get(build_id)
    assert saved is not None and saved.name == "Two 3090s"
    history_after = parts.price_history("nvidia-rtx-3090")
    assert history_after[: len(history_before)] == history_before
    assert [p.price_cny for p in history_after[len(history_before):]] == [22222]
    # Going back to the catalogue price is one click.
    assert parts.reset_price("nvidia-rtx-3090").price_cny == 22222


def test_emptied_parts_table_is_reseeded_at_next_start(store, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    store.close()
    con = sqlite3.connect(db_path)
    con.execute("DELETE FROM price_history")
    con.execute("DELETE FROM parts")
    con.commit()
    con.close()
    again = open_store(db_path, seed=seed_store)
    try:
        assert len(PartsRepository(again).list_parts()) == len(load_catalogue())
    finally:
        again.close()


def test_real_migration_from_the_first_schema_keeps_data_and_takes_a_copy(tmp_path: Path) -> None:
    from old_schema import database_at

    path = tmp_path / "old.db"
    database_at(path, "0001")
    con = sqlite3.connect(path)
    con.execute("INSERT INTO builds (name, data, created_at, updated_at) VALUES "
                "('我的配置', '{\"format\": \"configurator.build/1\", \"parts\": []}', '2026-01-01', '2026-01-01')")
    con.commit()
    con.close()

    store = open_store(path, seed=seed_store)
    try:
        assert store.backup is not None and "rev0001" in store.backup.name
        assert BuildsRepository(store).list()[0].name == "我的配置"
        con = sqlite3.connect(path)
        assert con.execute("SELECT version_num FROM alembic_version").fetchone()[0] == SCHEMA_HEAD
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"recordings", "bench_runs", "bench_results"} <= tables
        con.close()
    finally:
        store.close()
