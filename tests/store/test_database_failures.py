"""A database that cannot be used right now is never declared damaged (tracker: "Never lose a user's data").

Everything here is real: a second process holding SQLite's write lock, a full and a
read-only tmpfs mounted for the test (as root; skipped with the reason otherwise),
processes killed between migration statements, bytes overwritten in the file. No
SQLite call is mocked.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.bench_reliability import old_database
from configurator.store import database
from configurator.store.database import (
    APP_VERSION_KEY,
    FULL,
    LOCKED,
    NEWER,
    NOT_OURS,
    READ_ONLY,
    REVISION_TABLES,
    SCHEMA_HEAD,
    Store,
    StoreError,
    open_store,
)
from configurator.store.repository import BuildsRepository, PartsRepository
from configurator.store.seed import seed_store

PART = "nvidia-rtx-3090"


# -- helpers -------------------------------------------------------------------------------

def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _strays(folder: Path) -> list[str]:
    """Files the app must not have made: quarantined copies and backups."""
    return sorted(p.name for p in folder.rglob("*") if ".corrupt-" in p.name or ".backup-" in p.name)


def _cli(db: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CONFIGURATOR_DB"}
    return subprocess.run([sys.executable, "-m", "configurator", "--db", str(db), "--lang", "en", *argv],
                          capture_output=True, text=True, env=env, timeout=120)


def _one_line_exit_2(proc: subprocess.CompletedProcess[str], *words: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    line = proc.stderr.strip()
    assert len(line.splitlines()) == 1 and "Traceback" not in line, proc.stderr
    for w in words:
        assert w in line, line
    return line


def _seeded(path: Path) -> None:
    store = open_store(path, seed=seed_store)
    try:
        BuildsRepository(store).save("Two 3090s", {"format": "configurator.build/1", "parts": [{"id": PART}]})
    finally:
        store.close()


class Mount:
    def __init__(self, where: Path):
        self.where = where

    def remount(self, opts: str) -> None:
        subprocess.run(["mount", "-o", f"remount,{opts}", str(self.where)], check=True, capture_output=True)

    def fill(self, leave_pages: int = 0) -> Path:
        """Fill the file system to the last byte, then give back ``leave_pages`` pages of 4 KiB."""
        filler = self.where / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        try:
            for size in (1 << 20, 65536, 4096, 1):
                try:
                    while os.write(fd, b"\0" * size) == size:
                        pass
                except OSError:
                    pass
            st = os.statvfs(self.where)
            assert st.f_bavail == 0
            if leave_pages:
                os.ftruncate(fd, max(0, os.fstat(fd).st_size - leave_pages * 4096))
        finally:
            os.close(fd)
        return filler

    def others(self) -> list[str]:
        return sorted(p.name for p in self.where.iterdir() if p.name != "filler")


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Mount]:
    """A small real tmpfs for this test, unmounted afterwards (root only; else skipped with why)."""
    where = tmp_path / "mnt"
    where.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip() or proc.returncode}")
    try:
        yield Mount(where)
    finally:
        subprocess.run(["umount", str(where)], check=False, capture_output=True)
        if os.path.ismount(where):
            subprocess.run(["umount", "-l", str(where)], check=False)


# -- locked ---------------------------------------------------------------------------------

LOCKER = textwrap.dedent("""
    import sqlite3, sys
    con = sqlite3.connect(sys.argv[1], isolation_level=None)
    con.execute("BEGIN EXCLUSIVE")
    # A write in progress, not committed: what a long import in the GUI looks like from outside.
    con.execute("INSERT INTO meta (key, value) VALUES ('another process', 'writing')")
    print("locked", flush=True)
    sys.stdin.readline()
    con.execute("ROLLBACK")
""")


@contextlib.contextmanager
def _writer_elsewhere(db: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process inside a write transaction on ``db`` until the block ends (its pipes closed after)."""
    with subprocess.Popen([sys.executable, "-c", LOCKER, str(db)], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None and child.stdin is not None
        try:
            assert child.stdout.readline().strip() == "locked"
            yield child
        finally:
            child.stdin.write("\n")
            child.stdin.close()
            child.wait(timeout=30)


def test_a_database_locked_by_another_process_is_reported_and_left_alone(db_path: Path) -> None:
    _seeded(db_path)
    before = _digest(db_path)
    with _writer_elsewhere(db_path) as child:
        with pytest.raises(StoreError) as info:
            open_store(db_path, busy_timeout_s=0.2, seed=seed_store)
        assert info.value.kind == LOCKED
        text = info.value.message.render()
        assert "locked by another program" in text and f"({child.pid})" in text  # who holds it
        line = _one_line_exit_2(_cli(db_path, "cloud-prices", "set", "rtx-3090", "3"), "locked by another program")
        assert str(db_path) in line
    assert _digest(db_path) == before and _strays(db_path.parent) == []
    again = open_store(db_path, seed=seed_store)
    try:
        assert [b.name for b in BuildsRepository(again).list()] == ["Two 3090s"]
    finally:
        again.close()


def test_reads_do_not_wait_for_another_process_writing(db_path: Path) -> None:
    """Under WAL a reader never needs the write lock: reading commands open without asking for it (#35)."""
    _seeded(db_path)
    with _writer_elsewhere(db_path):
        # the write-lock probe would fail here
        store = open_store(db_path, write=False, busy_timeout_s=0.2, seed=seed_store)
        try:
            assert PartsRepository(store).get(PART) is not None
            assert [b.name for b in BuildsRepository(store).list()] == ["Two 3090s"]
        finally:
            store.close()
        for argv in (("parts", "list", "--json"), ("parts", "show", PART), ("measurements", "list", "--json"),
                     ("cloud-prices", "--json")):
            proc = _cli(db_path, *argv)
            assert proc.returncode == 0 and proc.stderr == "", (argv, proc.stderr[-2000:])
        assert any(p["id"] == PART for p in json.loads(_cli(db_path, "parts", "list", "--json").stdout))
    assert _strays(db_path.parent) == []


def test_reads_in_this_process_do_not_wait_for_a_long_write(store: Store) -> None:
    """The GUI's import holds the one writer for seconds; the Parts tab's reads go on meanwhile and see the
    catalogue as it was until the import commits."""
    import threading

    from configurator.store.tables import MetaRow

    inside, done = threading.Event(), threading.Event()

    def long_import() -> None:
        with store.session() as s, s.begin():
            s.add(MetaRow(key="import", value="half-way"))
            s.flush()
            inside.set()
            assert done.wait(30)

    worker = threading.Thread(target=long_import)
    worker.start()
    try:
        assert inside.wait(30)
        parts = PartsRepository(store)
        assert parts.get(PART) is not None and len(parts.list_parts()) > 10
        with store.session() as s:
            assert s.get(MetaRow, "import") is None  # not committed yet: not seen
    finally:
        done.set()
        worker.join(30)
    with store.session() as s:
        row = s.get(MetaRow, "import")
        assert row is not None and row.value == "half-way"


# -- full disk ------------------------------------------------------------------------------

def test_a_new_database_on_a_full_disk_is_an_error_not_a_corrupt_file(tmpfs: Mount) -> None:
    tmpfs.fill()
    path = tmpfs.where / "configurator.db"
    with pytest.raises(StoreError) as info:
        open_store(path, seed=seed_store)
    assert info.value.kind == FULL and "full" in info.value.message.render()
    _one_line_exit_2(_cli(path, "parts", "list"), "full")
    assert tmpfs.others() == []  # not even a 0-byte file (#35)


def test_a_new_database_that_runs_out_of_space_half_way_leaves_nothing(tmpfs: Mount) -> None:
    """With room for the schema but not the catalogue, or for part of it: the failed first start removes
    the file it made, so the next start (with space) is a clean first start."""
    path = tmpfs.where / "configurator.db"
    failures = 0
    for pages in range(16, 400, 24):
        filler = tmpfs.fill(leave_pages=pages)
        try:
            store = open_store(path, seed=seed_store)
        except StoreError as exc:
            assert exc.kind == FULL, exc
            assert tmpfs.others() == [], (pages, tmpfs.others())
            failures += 1
            filler.unlink()
            continue
        store.close()
        break
    else:
        pytest.fail("no first start succeeded with 1.5 MiB free")
    assert failures >= 2  # the sweep did pass through the half-way failures
    filler.unlink()
    store = open_store(path, seed=seed_store)
    try:
        assert PartsRepository(store).get(PART) is not None
    finally:
        store.close()


def test_a_full_disk_after_the_upgrade_was_written_says_so_truly(tmpfs: Mount, tmp_path: Path) -> None:
    """Free space enough for the copy and the upgrade but not for what follows (the catalogue): the message
    says the file was upgraded and where the copy is, never "nothing was changed" (#35). Where the upgrade
    itself fails, the file is as it was and the copy made for it is gone."""
    template = tmp_path / "old.db"
    old_database(template, "0004")
    path = tmpfs.where / "configurator.db"
    seen = {"not changed": 0, "upgraded": 0}
    for pages in range(0, 400, 12):
        for p in tmpfs.where.iterdir():
            p.unlink()
        path.write_bytes(template.read_bytes())
        filler = tmpfs.fill(leave_pages=pages)
        try:
            open_store(path, seed=seed_store).close()
        except StoreError as exc:
            assert exc.kind == FULL, exc
            text = exc.message.render()
            filler.unlink()  # room to read what is in the file now
            revision = database._revision_now(path)
            if revision == "0004":
                assert ("not changed" in text or "nothing was changed" in text) and _strays(tmpfs.where) == [], \
                    (pages, text)
                seen["not changed"] += 1
            else:
                assert revision == SCHEMA_HEAD, (pages, revision)
                assert "was upgraded" in text and "changed" not in text, (pages, text)
                backups = [p for p in tmpfs.where.iterdir() if ".backup-rev0004-" in p.name]
                assert len(backups) == 1 and str(backups[0]) in text
                seen["upgraded"] += 1
            continue
        break
    else:
        pytest.fail("the upgrade never succeeded with 1.5 MiB free")
    assert seen["not changed"] and seen["upgraded"], seen
    store = open_store(path, seed=seed_store)
    try:
        assert [b.name for b in BuildsRepository(store).list()] == ["我的配置"]
    finally:
        store.close()


def test_a_full_disk_stops_the_upgrade_before_it_touches_the_database(tmpfs: Mount) -> None:
    path = tmpfs.where / "configurator.db"
    old_database(path)
    before = _digest(path)
    filler = tmpfs.fill()
    with pytest.raises(StoreError) as info:  # SQLite cannot even make the -shm to read it
        open_store(path, seed=seed_store)
    assert info.value.kind == FULL and "is full" in info.value.message.render()
    _one_line_exit_2(_cli(path, "parts", "list"), "is full")
    # With its -shm already there (another reader has it open) it can be read: the copy fails.
    filler.unlink()
    reader = sqlite3.connect(path)
    reader.execute("SELECT count(*) FROM builds").fetchone()
    try:
        filler = tmpfs.fill()
        with pytest.raises(StoreError) as info:
            open_store(path, seed=seed_store)
        assert info.value.kind == FULL
        text = info.value.message.render()
        assert "aside before upgrading" in text and "the disk is full" in text
    finally:
        reader.close()
    assert _digest(path) == before and _strays(tmpfs.where) == []  # the half-made copy is gone too
    filler.unlink()
    store = open_store(path, seed=seed_store)
    try:
        assert store.backup is not None and store.backup.exists()
        assert [b.name for b in BuildsRepository(store).list()] == ["我的配置"]
    finally:
        store.close()


def test_a_write_on_a_full_disk_says_so(tmpfs: Mount) -> None:
    path = tmpfs.where / "configurator.db"
    _seeded(path)
    store = open_store(path, seed=seed_store)
    try:
        tmpfs.fill()
        builds = BuildsRepository(store)
        with pytest.raises(StoreError) as info:
            for i in range(200):  # the -wal's free pages may take a few writes to run out
                builds.save(f"build {i}", {"format": "configurator.build/1", "parts": [], "pad": "x" * 4000})
        assert info.value.kind == FULL and "the disk is full" in info.value.message.render()
        assert builds.list()[0].name == "Two 3090s"
    finally:
        store.close()
    assert _strays(tmpfs.where) == []


# -- read-only ------------------------------------------------------------------------------

def test_a_read_only_mount_opens_read_only(tmpfs: Mount) -> None:
    path = tmpfs.where / "configurator.db"
    _seeded(path)
    (tmpfs.where / "empty.db").write_bytes(b"")
    before = _digest(path)
    tmpfs.remount("ro")
    store = open_store(path, seed=seed_store)
    try:
        assert store.read_only and store.read_only_reason is not None
        assert "read-only disk" in store.read_only_reason.render()
        parts = PartsRepository(store)
        assert parts.get(PART) is not None and len(parts.list_parts()) > 10
        assert [b.name for b in BuildsRepository(store).list()] == ["Two 3090s"]
        with pytest.raises(StoreError) as info:
            parts.set_price(PART, 1234)
        assert info.value.kind == READ_ONLY
        assert str(info.value) == f"Cannot save to the database {path}: it is read-only (it is on a read-only disk)."
    finally:
        store.close()
    proc = _cli(path, "parts", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    assert any(p["id"] == PART for p in json.loads(proc.stdout))
    # Nothing else is wrong with a 0-byte file here but it cannot become a new database: say so.
    with pytest.raises(StoreError) as info:
        open_store(tmpfs.where / "empty.db", seed=seed_store)
    assert info.value.kind == READ_ONLY and "cannot be created" in info.value.message.render()
    _one_line_exit_2(_cli(tmpfs.where / "new.db", "parts", "list"), "read-only")
    assert _digest(path) == before and _strays(tmpfs.where) == []


def _unprivileged() -> list[str]:
    """A command prefix under which file permissions apply: as root, without the capabilities that override
    them (root ignores a folder's missing w bit); as anyone else, nothing."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: a read-only folder cannot be made read-only for this test")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]


def test_a_database_in_a_read_only_folder_can_be_browsed(db_path: Path) -> None:
    """SQLite cannot make the -shm a WAL database needs in a read-only folder (SQLITE_READONLY_DIRECTORY):
    the database is read as it is, immutable; reading commands work and writing ones say why not (#35)."""
    _seeded(db_path)
    folder = db_path.parent
    before = _digest(db_path)
    env = {k: v for k, v in os.environ.items() if k != "CONFIGURATOR_DB"}

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*_unprivileged(), sys.executable, "-m", "configurator", "--db", str(db_path),
                               "--lang", "en", *argv], capture_output=True, text=True, env=env, timeout=120)

    folder.chmod(0o555)
    try:
        probe = subprocess.run([*_unprivileged(), sys.executable, "-c",
                                f"open({str(folder / 'probe')!r}, 'w')"], capture_output=True, text=True)
        if probe.returncode == 0:
            pytest.skip("the folder could still be written (a file system that ignores permissions)")
        proc = run("parts", "list", "--json")
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr[-2000:]
        assert any(p["id"] == PART for p in json.loads(proc.stdout))
        assert run("parts", "show", PART).returncode == 0
        for argv in (("cloud-prices", "set", "rtx-3090", "3"), ("detect", "--fake-gpus", "1", "--save")):
            _one_line_exit_2(run(*argv), "read-only", "folder")
    finally:
        folder.chmod(0o755)
    assert _digest(db_path) == before and sorted(p.name for p in folder.iterdir()) == [db_path.name]


def test_a_read_only_bind_mount_of_an_older_database_is_not_upgraded(tmpfs: Mount, tmp_path: Path) -> None:
    path = tmpfs.where / "old.db"
    old_database(path)
    view = tmp_path / "view"
    view.mkdir()
    subprocess.run(["mount", "--bind", str(tmpfs.where), str(view)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(view)], check=True)
        with pytest.raises(StoreError) as info:
            open_store(view / "old.db", seed=seed_store)
        assert info.value.kind == READ_ONLY and "needs an upgrade" in info.value.message.render()
    finally:
        subprocess.run(["umount", str(view)], check=True)
    assert _strays(tmpfs.where) == []


# -- killed while migrating -----------------------------------------------------------------

KILLER = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    at, seen = int(sys.argv[2]), []
    WRITES = ("CREATE", "DROP", "ALTER", "INSERT", "UPDATE", "PRAGMA APPLICATION_ID")

    @event.listens_for(Engine, "before_cursor_execute")
    def kill_at_nth_write(conn, cursor, statement, *args):
        if statement.lstrip().upper().startswith(WRITES):
            seen.append(statement)
            if len(seen) == at:
                os.kill(os.getpid(), signal.SIGKILL)

    from configurator.store.database import open_store
    open_store(Path(sys.argv[1])).close()
    print(len(seen))
    sys.exit(3)
""")


def _tables(path: Path) -> set[str]:
    con = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        con.close()


def _kill_at(path: Path, n: int) -> None:
    proc = subprocess.run([sys.executable, "-c", KILLER, str(path), str(n)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == -signal.SIGKILL, f"not killed at write {n}: {proc.stdout} {proc.stderr[-2000:]}"


# A first start writes 17 statements (7 tables, 4 indexes, the version row and its updates, the stamp).
@pytest.mark.parametrize("n", [1, 2, 6, 9, 13, 17])
def test_killed_during_the_first_start_the_next_start_succeeds(db_path: Path, n: int) -> None:
    _kill_at(db_path, n)
    assert _tables(db_path) == set()  # one transaction: nothing of it was committed
    store = open_store(db_path, seed=seed_store)
    try:
        assert store.recovered is None
        assert PartsRepository(store).get(PART) is not None
    finally:
        store.close()
    con = sqlite3.connect(db_path)
    assert con.execute("SELECT version_num FROM alembic_version").fetchone()[0] == SCHEMA_HEAD
    con.close()


# From 0001: two tables and their indexes, two version updates, the stamp: 9 statements.
@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_killed_during_an_upgrade_the_next_start_succeeds_with_the_rows(db_path: Path, n: int) -> None:
    old_database(db_path, "0001")
    _kill_at(db_path, n)
    assert _tables(db_path) == {"alembic_version", *REVISION_TABLES["0001"]}  # all or nothing
    con = sqlite3.connect(db_path)
    assert con.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0001"
    con.close()
    store = open_store(db_path, seed=seed_store)
    try:
        assert [b.name for b in BuildsRepository(store).list()] == ["我的配置"]
        assert store.recovered is None
    finally:
        store.close()


def test_a_half_made_first_start_of_an_older_version_is_redone(db_path: Path) -> None:
    """What the old, statement-by-statement migrations left when killed: tables, no version row."""
    old_database(db_path, "0001")
    con = sqlite3.connect(db_path)
    con.execute("DELETE FROM builds")
    con.execute("DELETE FROM alembic_version")
    con.execute("DROP TABLE meta")
    con.commit()
    con.close()
    store = open_store(db_path, seed=seed_store)
    try:
        assert store.backup is None  # nothing of the user's to copy
        assert PartsRepository(store).get(PART) is not None
    finally:
        store.close()


def test_a_half_made_upgrade_of_an_older_version_is_redone(db_path: Path) -> None:
    old_database(db_path, "0001")
    con = sqlite3.connect(db_path)
    con.execute("CREATE TABLE recordings (id INTEGER PRIMARY KEY)")  # 0002's table, its version not stamped
    con.commit()
    con.close()
    store = open_store(db_path, seed=seed_store)
    try:
        assert [b.name for b in BuildsRepository(store).list()] == ["我的配置"]
    finally:
        store.close()


def test_revision_tables_match_the_migrations(tmp_path: Path) -> None:
    from alembic import command

    from configurator.store.migrate import alembic_config, revisions

    assert revisions() == list(REVISION_TABLES)
    path = tmp_path / "steps.db"
    engine = database.make_engine(path)
    cfg = alembic_config()
    had: set[str] = {"alembic_version"}
    try:
        for rev, tables in REVISION_TABLES.items():
            with engine.begin() as connection:
                cfg.attributes["connection"] = connection
                command.upgrade(cfg, rev)
                now = {r[0] for r in connection.exec_driver_sql("SELECT name FROM sqlite_master WHERE type='table'")}
            assert now - had == set(tables), rev
            had = now
    finally:
        engine.dispose()


# -- damaged values, newer and foreign files ------------------------------------------------

def _overwrite_a_byte_of_the_specs(path: Path, part_id: str) -> None:
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (specs,) = con.execute("SELECT specs FROM parts WHERE id = ?", (part_id,)).fetchone()
    con.close()
    data = bytearray(path.read_bytes())
    needle = specs.encode()
    at = data.find(needle)
    assert at >= 0 and data.find(needle, at + 1) == -1
    data[at] = ord("#")  # '{' -> '#': the record stays well-formed, the JSON does not
    path.write_bytes(bytes(data))
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    con.close()


def test_a_damaged_json_value_is_named_not_fatal(db_path: Path) -> None:
    from configurator.store.catalogue import sync_catalogue

    _seeded(db_path)
    _overwrite_a_byte_of_the_specs(db_path, PART)
    store = open_store(db_path, seed=seed_store)
    try:
        assert [(r.table, r.id) for r in store.damaged_rows] == [("parts", PART)]
        assert any(PART in m.render() for m in store.notices)
        # A catalogue update passes over the damaged row instead of crashing on it.
        assert sync_catalogue(store, force=True)["kept_damaged"] == 1
    finally:
        store.close()
    assert _strays(db_path.parent) == []


def _stamp_newer(path: Path, version: str | None) -> None:
    con = sqlite3.connect(path)
    con.execute("UPDATE alembic_version SET version_num = '0099'")
    if version is None:
        con.execute("DELETE FROM meta WHERE key = ?", (APP_VERSION_KEY,))
    else:
        con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (APP_VERSION_KEY, version))
    con.commit()
    con.close()


def test_a_database_from_a_newer_version_says_so_and_makes_no_copies(db_path: Path) -> None:
    _seeded(db_path)
    _stamp_newer(db_path, "9.9")
    before = _digest(db_path)
    for _ in range(2):
        with pytest.raises(StoreError) as info:
            open_store(db_path, seed=seed_store)
        assert info.value.kind == NEWER
        assert "made by configurator 9.9" in info.value.message.render() and "older" in info.value.message.render()
    _one_line_exit_2(_cli(db_path, "parts", "list"), "configurator 9.9")
    _one_line_exit_2(_cli(db_path, "parts", "list"), "configurator 9.9")
    assert _digest(db_path) == before and _strays(db_path.parent) == []
    assert sorted(p.name for p in db_path.parent.iterdir()) == [db_path.name]  # no -wal, no -shm (#35)
    _stamp_newer(db_path, None)
    with pytest.raises(StoreError) as info:
        open_store(db_path, seed=seed_store)
    assert "a newer version of configurator" in info.value.message.render()


def test_a_json_file_given_as_db_is_not_renamed(tmp_path: Path) -> None:
    build = tmp_path / "mybuild.json"
    build.write_text(json.dumps({"format": "configurator.build/1", "parts": []}), encoding="utf-8")
    before = _digest(build)
    with pytest.raises(StoreError) as info:
        open_store(build, seed=seed_store)
    assert info.value.kind == NOT_OURS
    proc = _cli(build, "parts", "list", "--json")
    _one_line_exit_2(proc, "not a configurator database")
    assert json.loads(proc.stdout)["ok"] is False
    assert _digest(build) == before and sorted(p.name for p in tmp_path.iterdir()) == ["mybuild.json"]


def test_another_programs_sqlite_database_is_left_alone(tmp_path: Path) -> None:
    other = tmp_path / "places.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
    con.commit()
    con.close()
    before = _digest(other)
    with pytest.raises(StoreError) as info:
        open_store(other, owned=True, seed=seed_store)
    assert info.value.kind == NOT_OURS and "another program" in info.value.message.render()
    assert _digest(other) == before and _strays(tmp_path) == []
    # A WAL database of another program: looked at, refused, and no -wal/-shm of ours left beside it.
    con = sqlite3.connect(other)
    con.execute("PRAGMA journal_mode=WAL")
    con.close()
    before = _digest(other)
    with pytest.raises(StoreError):
        open_store(other, owned=True, seed=seed_store)
    assert _digest(other) == before and sorted(p.name for p in tmp_path.iterdir()) == [other.name]


def test_a_zero_byte_file_is_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    store = open_store(path, seed=seed_store)
    try:
        assert store.recovered is None and store.backup is None
        assert PartsRepository(store).get(PART) is not None
    finally:
        store.close()


# -- the GUI's composition root ------------------------------------------------------------

@pytest.mark.full_env  # the GUI's composition root imports PySide6
def test_gui_opens_a_read_only_database_read_only_with_one_notice(tmpfs: Mount) -> None:
    from configurator.app import open_user_store

    path = tmpfs.where / "configurator.db"
    _seeded(path)
    tmpfs.remount("ro")
    store, notice = open_user_store(path, owned=False)
    try:
        assert store.path == path and store.read_only
        assert notice is not None and notice[0] == "Database is read-only" and "read-only disk" in notice[1]
    finally:
        store.close()


@pytest.mark.full_env  # the GUI's composition root imports PySide6
def test_gui_uses_a_temporary_database_when_locked_and_says_so(db_path: Path) -> None:
    from configurator.app import open_user_store

    _seeded(db_path)
    before = _digest(db_path)
    with _writer_elsewhere(db_path):
        store, notice = open_user_store(db_path, owned=False)
        try:
            assert store.path != db_path
            assert notice is not None and notice[0] == "Database not available"
            assert "locked by another program" in notice[1] and str(store.path) in notice[1]
            assert "was not changed" in notice[1]
        finally:
            store.close()
    assert _digest(db_path) == before and _strays(db_path.parent) == []


@pytest.mark.full_env  # the GUI's composition root imports PySide6
def test_gui_names_a_damaged_row_in_one_notice(db_path: Path) -> None:
    from configurator.app import open_user_store

    _seeded(db_path)
    _overwrite_a_byte_of_the_specs(db_path, PART)
    store, notice = open_user_store(db_path, owned=False)
    try:
        assert store.path == db_path
        assert notice is not None and notice[0] == "Database problems" and PART in notice[1]
    finally:
        store.close()
