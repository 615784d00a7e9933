"""Reliability pass (#35), repeatable: ``make bench`` with ``--only reliability`` (or
``python -m benchmarks.bench_reliability [SCALE]``). Everything is real: processes killed with SIGKILL,
SQLite's own files, a tmpfs filled to the last byte (as root), a folder made read-only for a process
without the capabilities that override permissions. Prints one table: what was done, how many times, how
many failures (a lost commit, a database that did not reopen, a traceback, an exit code outside the
contract, a link's target changed …), and the first failures in words.

The fast, exact checks of each behaviour are tests (tests/store/test_database_failures.py,
tests/store/test_damaged_rows.py, tests/cli/test_cli_files.py, tests/cli/test_cli_bad_input.py); this is the
bulk pass that found what they check.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BUILD = {"format": "configurator.build/1", "name": "Two 3090s", "budget_cny": 40000,
         "parts": [{"id": "nvidia-rtx-3090", "qty": 2}, {"id": "amd-ryzen-9-5950x"}],
         "options": {"hours_per_day": 8, "cloud_cny_per_month": 8000},
         "workload": {"model": "gpt2", "task": "train", "batch_size": 8, "seq_len": 1024}}
GPU = "nvidia-rtx-3090"


@dataclass
class Row:
    what: str
    count: int = 0
    failures: list[str] = field(default_factory=list)

    def check(self, ok: bool, why: str) -> None:
        self.count += 1
        if not ok:
            self.failures.append(why)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CONFIGURATOR_DB", "PYTHONDONTWRITEBYTECODE")}
    env["QT_QPA_PLATFORM"] = "offscreen"
    return env


def _cli(*argv: str, prefix: tuple[str, ...] = (), timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*prefix, sys.executable, "-m", "configurator", "--lang", "en", *argv],
                          capture_output=True, text=True, env=_env(), timeout=timeout, errors="replace")


def _main(*argv: str) -> tuple[int | None, str, str, BaseException | None]:
    """`configurator ARGV` in this process: (exit code, stdout, stderr, an exception that escaped)."""
    from configurator.cli.entry import main

    out, err = io.StringIO(), io.StringIO()
    code: int | None = None
    escaped: BaseException | None = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["--lang", "en", *argv])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except Exception as exc:  # a traceback the user would see
            escaped = exc
    return code, out.getvalue(), err.getvalue(), escaped


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _seeded(path: Path) -> None:
    from configurator.store.database import open_store
    from configurator.store.repository import BuildsRepository
    from configurator.store.seed import seed_store

    store = open_store(path, seed=seed_store)
    try:
        BuildsRepository(store).save("This machine", BUILD)
    finally:
        store.close()


def old_database(path: Path, revision: str = "0001") -> None:
    """A database as an older version left it (built with Alembic), with a user's build in it (also used by
    tests/store/test_database_failures.py)."""
    from alembic import command

    from configurator.store import database
    from configurator.store.migrate import alembic_config

    engine = database.make_engine(path)
    cfg = alembic_config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)
    engine.dispose()
    con = sqlite3.connect(path)
    con.execute("INSERT INTO builds (name, data, created_at, updated_at) VALUES "
                "('我的配置', '{\"format\": \"configurator.build/1\", \"parts\": []}', '2026-01-01', '2026-01-01')")
    con.commit()
    con.close()


# -- kill -9 during writes -----------------------------------------------------------------------

WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from configurator.store.database import open_store
    from configurator.store.repository import BuildsRepository
    from configurator.store.seed import seed_store
    store = open_store(Path(sys.argv[1]), seed=seed_store)
    repo, i = BuildsRepository(store), int(sys.argv[2])
    while True:
        repo.save(f"kill-{i}", {"format": "configurator.build/1", "parts": [], "pad": "x" * (i % 3000)})
        print(i, flush=True)  # after the commit returned
        i += 1
""")


def kills(folder: Path, n: int, rng: random.Random) -> tuple[Row, int]:
    from configurator.store.database import open_store
    from configurator.store.repository import BuildsRepository
    from configurator.store.seed import seed_store

    row = Row("kill -9 during writes (commits lost, database reopens)")
    db = folder / "kill.db"
    _seeded(db)
    committed: list[int] = []
    for k in range(n):
        child = subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(len(committed) and committed[-1] + 1)],
                                 stdout=subprocess.PIPE, text=True, env=_env())
        assert child.stdout is not None
        with child:
            first = child.stdout.readline()
            if first.strip():
                committed.append(int(first))
            time.sleep(rng.uniform(0.0, 0.3))
            child.send_signal(signal.SIGKILL)
            rest = child.stdout.read()
            child.wait()
        committed.extend(int(x) for x in rest.split())
        try:
            store = open_store(db, seed=seed_store)
        except Exception as exc:
            row.check(False, f"kill {k}: the database did not reopen: {exc}")
            continue
        try:
            names = {b.name for b in BuildsRepository(store).list()}
            lost = [i for i in committed if f"kill-{i}" not in names]
            row.check(not lost and store.recovered is None, f"kill {k}: lost {lost[:5]} recovered={store.recovered}")
        finally:
            store.close()
    return row, len(committed)


# -- interrupted migrations ----------------------------------------------------------------------

KILLER = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    at, seen = int(sys.argv[2]), []
    WRITES = ("CREATE", "DROP", "ALTER", "INSERT", "UPDATE", "DELETE", "PRAGMA APPLICATION_ID")

    @event.listens_for(Engine, "before_cursor_execute")
    def kill_at_nth_write(conn, cursor, statement, *args):
        if statement.lstrip().upper().startswith(WRITES):
            seen.append(statement)
            if len(seen) == at:
                os.kill(os.getpid(), signal.SIGKILL)

    from configurator.store.database import open_store
    open_store(Path(sys.argv[1])).close()
    sys.exit(3)
""")


def migrations(folder: Path) -> Row:
    from configurator.store.database import REVISION_TABLES, SCHEMA_HEAD, open_store
    from configurator.store.repository import BuildsRepository, PartsRepository
    from configurator.store.seed import seed_store

    row = Row("interrupted migrations (first start and upgrades, killed at every write)")
    templates: dict[str | None, Path] = {None: folder / "none.db"}
    for rev in list(REVISION_TABLES)[:-1]:
        templates[rev] = folder / f"rev{rev}.db"
        old_database(templates[rev], rev)
    for rev, template in templates.items():
        for at in range(1, 60):
            db = folder / "migrate.db"
            for p in folder.glob("migrate.db*"):
                p.unlink()
            if rev is not None:
                shutil.copyfile(template, db)
            proc = subprocess.run([sys.executable, "-c", KILLER, str(db), str(at)], capture_output=True, text=True,
                                  env=_env(), timeout=300)
            if proc.returncode == 3:  # it finished before write number `at`: every write was interrupted once
                break
            if proc.returncode != -signal.SIGKILL:
                row.check(False, f"from {rev} at write {at}: exit {proc.returncode} {proc.stderr[-300:]}")
                continue
            try:
                store = open_store(db, seed=seed_store)
            except Exception as exc:
                row.check(False, f"from {rev} killed at write {at}: did not reopen: {exc}")
                continue
            try:
                builds = [b.name for b in BuildsRepository(store).list()]
                ok = (store.recovered is None and PartsRepository(store).get(GPU) is not None
                      and builds == ([] if rev is None else ["我的配置"]))
                con = sqlite3.connect(db)
                ok = ok and con.execute("SELECT version_num FROM alembic_version").fetchone()[0] == SCHEMA_HEAD
                con.close()
                row.check(ok, f"from {rev} killed at write {at}: builds {builds}, recovered {store.recovered}")
            finally:
                store.close()
    return row


# -- locked, full, read-only, newer ------------------------------------------------------------

LOCKER = textwrap.dedent("""
    import sqlite3, sys
    con = sqlite3.connect(sys.argv[1], isolation_level=None)
    con.execute("BEGIN IMMEDIATE")
    con.execute("INSERT INTO meta (key, value) VALUES ('elsewhere', 'writing')")
    print("locked", flush=True)
    sys.stdin.readline()
    con.execute("ROLLBACK")
""")


def _one_line_2(proc: subprocess.CompletedProcess[str]) -> bool:
    return proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def _unprivileged() -> tuple[str, ...] | None:
    if os.geteuid() != 0:
        return ()
    return ("setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--") \
        if shutil.which("setpriv") else None


@contextlib.contextmanager
def _tmpfs(where: Path) -> Iterator[bool]:
    where.mkdir()
    ok = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(where)],
                        capture_output=True).returncode == 0
    try:
        yield ok
    finally:
        if ok:
            subprocess.run(["umount", str(where)], capture_output=True)


def _fill(where: Path, leave_pages: int) -> Path:
    filler = where / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        for size in (1 << 20, 65536, 4096, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size) == size:
                    pass
        os.ftruncate(fd, max(0, os.fstat(fd).st_size - leave_pages * 4096))
    finally:
        os.close(fd)
    return filler


def conditions(folder: Path) -> Row:
    from configurator.store.database import SCHEMA_HEAD, StoreError, _revision_now, open_store
    from configurator.store.seed import seed_store

    row = Row("locked / full / read-only / newer databases (true one-line message, nothing changed)")
    db = folder / "cond.db"
    _seeded(db)
    before = _digest(db)
    # Locked: another process inside a write transaction. Reads go on; writes say who holds it.
    with subprocess.Popen([sys.executable, "-c", LOCKER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True) as child:
        assert child.stdout is not None and child.stdin is not None
        child.stdout.readline()
        for argv in (("parts", "list", "--json"), ("measurements", "list", "--json"), ("cloud-prices", "--json"),
                     ("parts", "show", GPU)):
            proc = _cli("--db", str(db), *argv)
            row.check(proc.returncode == 0, f"locked: {argv} exit {proc.returncode} {proc.stderr[-200:]}")
        proc = _cli("--db", str(db), "cloud-prices", "set", "rtx-3090", "3")
        row.check(_one_line_2(proc) and "locked" in proc.stderr, f"locked write: {proc.stderr[-300:]}")
        child.stdin.write("\n")
        child.stdin.close()
        child.wait()
    row.check(_digest(db) == before, "locked: the file changed")
    # Newer version: refused, no -wal/-shm left.
    newer = folder / "newer" / "c.db"
    newer.parent.mkdir()
    shutil.copyfile(db, newer)
    con = sqlite3.connect(newer)
    con.execute("UPDATE alembic_version SET version_num = '0099'")
    con.commit()
    con.close()
    proc = _cli("--db", str(newer), "parts", "list")
    row.check(_one_line_2(proc) and sorted(p.name for p in newer.parent.iterdir()) == ["c.db"],
              f"newer: {proc.stderr[-200:]} {sorted(p.name for p in newer.parent.iterdir())}")
    # Read-only folder: browse, refuse writes.
    prefix = _unprivileged()
    if prefix is not None:
        ro = folder / "ro"
        ro.mkdir()
        shutil.copyfile(db, ro / "c.db")
        ro.chmod(0o555)
        try:
            for argv in (("parts", "list", "--json"), ("parts", "show", GPU), ("measurements", "list")):
                proc = _cli("--db", str(ro / "c.db"), *argv, prefix=prefix)
                row.check(proc.returncode == 0, f"read-only folder: {argv} exit {proc.returncode} {proc.stderr[-200:]}")
            for argv in (("cloud-prices", "set", "rtx-3090", "3"), ("detect", "--fake-gpus", "1", "--save")):
                proc = _cli("--db", str(ro / "c.db"), *argv, prefix=prefix)
                row.check(_one_line_2(proc) and "read-only" in proc.stderr, f"read-only folder: {argv} {proc.stderr}")
        finally:
            ro.chmod(0o755)
        row.check(sorted(p.name for p in ro.iterdir()) == ["c.db"], "read-only folder: files made")
    # Full disk (root: a tmpfs): a new database and an upgrade, at every 8 pages of free space.
    old = folder / "old.db"
    old_database(old, "0004")
    with _tmpfs(folder / "mnt") as mounted:
        if mounted:
            mnt = folder / "mnt"
            for what in ("new", "upgrade"):
                for pages in range(0, 600, 8):
                    for p in mnt.iterdir():
                        p.unlink()
                    path = mnt / "c.db"
                    if what == "upgrade":
                        shutil.copyfile(old, path)
                    filler = _fill(mnt, pages)
                    try:
                        open_store(path, seed=seed_store).close()
                        break
                    except StoreError as exc:
                        text = exc.message.render()
                        filler.unlink()
                        if what == "new":
                            row.check(not path.exists(), f"full, new database, {pages} pages: a file was left")
                        else:
                            rev = _revision_now(path)
                            true = (("changed" in text and rev == "0004")
                                    or ("was upgraded" in text and rev == SCHEMA_HEAD))
                            row.check(true, f"full, upgrade, {pages} pages: revision {rev}, said: {text}")
    return row


# -- damaged rows -----------------------------------------------------------------------------------

EXTRA_ROWS = (
    "INSERT INTO recordings VALUES (1, '/tmp/r.csv', 'host', '2026-01-01 00:00:00.000000', NULL, 1.0, 1, 10, "
    "'[]', NULL)",
    "INSERT INTO bench_runs VALUES (1, '2026-01-01 00:00:00.000000', NULL, 'quick', 'cuda', 'ok', NULL, '{}', "
    "'m', NULL)",
    "INSERT INTO bench_results (id, run_id, workload, status, value, unit, median, iqr, settings, details) "
    "VALUES (1, 1, 'matmul', 'ok', 1.0, 'TFLOPS', 1.0, 0.1, '{}', '{}')",
)


def damage_kinds() -> list[tuple[str, str]]:
    """(name, SQL) for every kind of damage: each column of each table, each way its type can be wrong."""
    from sqlalchemy import JSON, Boolean, DateTime, Float, Integer

    from configurator.store.tables import Base

    out: list[tuple[str, str]] = []
    for table in Base.metadata.sorted_tables:
        for col in table.columns:
            if col.primary_key or col.foreign_keys:
                continue
            values = ["x'ff00'"]
            kind = col.type
            if isinstance(kind, JSON):
                values += ["'{bad'", "'{\"x\": 1e999}'", "CAST(x'7b22ff223a317d' AS TEXT)",
                           "'{}'" if table.name == "recordings" else "'[1, 2]'"]
            elif isinstance(kind, DateTime):
                values += ["'garbage'", "99999", "'2026-13-45 99:99:99'"]
            elif isinstance(kind, Boolean):
                values += ["2", "'yes'"]
            elif isinstance(kind, Float):
                values += ["'abc'", "1e999"]
            elif isinstance(kind, Integer):
                values += ["'abc'", "1.5"]
            else:
                values += ["CAST(x'ff41' AS TEXT)", "12345"]
            for v in values:
                out.append((f"{table.name}.{col.name} = {v}",
                            f'UPDATE "{table.name}" SET "{col.name}" = {v} '
                            f'WHERE rowid = (SELECT min(rowid) FROM "{table.name}")'))
    return out


def damaged_rows(folder: Path, limit: int | None) -> Row:
    from configurator.store.bench_results import BenchResultsRepository
    from configurator.store.database import open_store
    from configurator.store.listing import iter_listed
    from configurator.store.measurements import MeasurementsRepository
    from configurator.store.recordings import RecordingsRepository
    from configurator.store.repository import BuildsRepository, PartsRepository
    from configurator.store.seed import seed_store

    kinds = damage_kinds()[:limit]
    row = Row(f"damaged rows ({len(kinds)} kinds: every column x wrong type/JSON/date/UTF-8/range)")
    base = folder / "damage-base.db"
    _seeded(base)
    con = sqlite3.connect(base)
    for sql in EXTRA_ROWS:
        con.execute(sql)
    con.commit()
    con.close()
    build = folder / "b.json"
    build.write_text(json.dumps(BUILD), encoding="utf-8")
    for name, sql in kinds:
        db = folder / "damaged.db"
        for p in folder.glob("damaged.db*"):
            p.unlink()
        shutil.copyfile(base, db)
        con = sqlite3.connect(db)
        try:
            con.execute(sql)
            con.commit()
        except sqlite3.Error as exc:  # a constraint refuses it: not a kind SQLite stores
            row.check(True, "")
            row.count -= 1
            print(f"  (not stored: {name}: {exc})")
            continue
        finally:
            con.close()
        try:
            store = open_store(db, seed=seed_store)
            try:
                parts = PartsRepository(store)
                parts.list_parts(unreadable=[])
                parts.cheapest_of_each_spec(3)
                list(iter_listed(store, "gpu", ("name",), []))
                builds = BuildsRepository(store)
                for b in builds.list():
                    builds.get(b.id)
                MeasurementsRepository(store).shipped()
                MeasurementsRepository(store).local()
                RecordingsRepository(store).list()
                BenchResultsRepository(store).runs()
            finally:
                store.close()
        except Exception as exc:
            row.check(False, f"{name}: {type(exc).__name__}: {str(exc)[:200]}")
            continue
        bad = []
        for argv in (("parts", "list", "--json"), ("parts", "list"), ("measurements", "list", "--json"),
                     ("cloud-prices", "--json"), ("check", str(build), "--json")):
            code, out, err, escaped = _main("--db", str(db), *argv)
            if escaped is not None or code not in (0, 1, 2) or "Traceback" in err:
                bad.append(f"{argv[:2]}: exit {code} {type(escaped).__name__ if escaped else ''} {err[-200:]}")
            elif "--json" in argv and code in (0, 1):
                try:
                    json.loads(out, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
                except ValueError as exc:
                    bad.append(f"{argv[:2]}: not JSON ({exc})")
        con = sqlite3.connect(db)
        kept = con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0
        con.close()
        row.check(not bad and kept, f"{name}: {'; '.join(bad)[:400]}")
    return row


# -- fuzzed inputs ----------------------------------------------------------------------------------

JUNK: tuple[Any, ...] = (None, -1, 0, 1e308, -1e308, 2**70, "", "x" * 5000, "中文", [], {}, [1, [2, [3]]], True,
                         "\ud800", 1.5, "nvidia-rtx-3090", {"id": GPU, "qty": 10**9})


def _mutate_json(doc: Any, rng: random.Random) -> Any:
    doc = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 4)):
        paths: list[tuple[Any, Any]] = []

        def walk(node: Any, paths: list[tuple[Any, Any]] = paths) -> None:
            if isinstance(node, dict):
                for k in list(node):
                    paths.append((node, k))
                    walk(node[k])
            elif isinstance(node, list):
                for i in range(len(node)):
                    paths.append((node, i))
                    walk(node[i])
        walk(doc)
        if not paths:
            return copy.deepcopy(rng.choice(JUNK))
        parent, key = rng.choice(paths)
        op = rng.random()
        if op < 0.5:
            parent[key] = copy.deepcopy(rng.choice(JUNK))
        elif op < 0.7 and isinstance(parent, dict):
            del parent[key]
        elif isinstance(parent, dict):
            parent[f"unknown_{rng.randint(0, 99)}"] = copy.deepcopy(rng.choice(JUNK))
    return doc


def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    op = rng.random()
    if op < 0.3 and b:
        del b[rng.randrange(len(b)):]
    elif op < 0.6:
        for _ in range(rng.randint(1, 8)):
            if b:
                b[rng.randrange(len(b))] = rng.randrange(256)
    elif op < 0.8:
        at = rng.randrange(len(b) + 1)
        b[at:at] = rng.choice([b"\x00", b"\xff\xfe", "，".encode("gb18030"), b"\r", b'"', b",,,,", b"1e999", b"nan"])
    else:
        b = bytearray(b"\xef\xbb\xbf" + bytes(b))
    return bytes(b)


def fuzz(folder: Path, n_build: int, n_csv: int, n_toml: int, rng: random.Random) -> list[Row]:
    from configurator.core.cloud import CLOUD_PRICES_FILE, CloudPriceError, load_cloud_prices

    db = folder / "fuzz.db"
    _seeded(db)
    rows = []
    r = Row(f"fuzzed build files -> check --json ({n_build})")
    for i in range(n_build):
        f = folder / "fuzz.json"
        raw = json.dumps(_mutate_json(BUILD, rng), ensure_ascii=False, allow_nan=True).encode("utf-8", "surrogatepass")
        f.write_bytes(_mutate_bytes(raw, rng) if rng.random() < 0.3 else raw)
        code, out, err, escaped = _main("--db", str(db), "check", str(f), "--json")
        ok = escaped is None and code in (0, 1, 2) and "Traceback" not in err
        if ok:
            try:
                json.loads(out, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
            except ValueError:
                ok = False
        r.check(ok, f"build {i}: exit {code} {escaped!r} {err[-200:]}")
    rows.append(r)
    r = Row(f"fuzzed CSVs -> parts import --json ({n_csv})")
    sample = folder / "sample.csv"
    code, _o, err, escaped = _main("--db", str(db), "parts", "export", str(sample), "--category", "psu")
    lines = sample.read_bytes().splitlines(keepends=True)[:6]
    for i in range(n_csv):
        target = folder / "fuzz-import.db"
        shutil.copyfile(db, target)
        f = folder / "fuzz.csv"
        data = b"".join(lines)
        data = data.replace(b"psu", b"psux", 1) if rng.random() < 0.1 else data
        f.write_bytes(_mutate_bytes(data, rng))
        code, out, err, escaped = _main("--db", str(target), "parts", "import", str(f), "--json")
        r.check(escaped is None and code in (0, 2) and "Traceback" not in err,
                f"csv {i}: exit {code} {escaped!r} {err[-200:]}")
        for p in folder.glob("fuzz-import.db*"):
            p.unlink()
    rows.append(r)
    r = Row(f"fuzzed cloud price tables (TOML) -> load ({n_toml})")
    shipped = CLOUD_PRICES_FILE.read_bytes()
    for i in range(n_toml):
        f = folder / "cloud_prices.toml"
        text = shipped
        if rng.random() < 0.5:
            for key in (b"usd_per_gpu_hour = ", b"usd_cny = ", b"gpus = ", b"date = "):
                if rng.random() < 0.3:
                    at = text.find(key, rng.randrange(len(text)))
                    if at >= 0:
                        end = text.find(b"\n", at)
                        text = text[:at + len(key)] + rng.choice(
                            [b"1e-320", b"0", b"-1", b"nan", b"inf", b"1e300", b'"3"', b"[]", b"true", b"5e-324"]) \
                            + text[end:]
        else:
            text = _mutate_bytes(text, rng)
        f.write_bytes(text)
        try:
            prices = load_cloud_prices(f)
            ok = all(0.01 <= p.cny_per_gpu_hour <= 10_000 for p in prices)
            why = f"toml {i}: a price out of range was loaded"
        except CloudPriceError as exc:
            ok = "\n" not in exc.message.render()
            why = f"toml {i}: {exc}"
        except Exception as exc:
            ok, why = False, f"toml {i}: {type(exc).__name__}: {exc}"
        r.check(ok, why)
    rows.append(r)
    return rows


# -- symbolic links at every written path -------------------------------------------------------------

def links(folder: Path) -> Row:
    row = Row("symbolic links at every file the CLI writes (refused, target unchanged)")
    db = folder / "links.db"
    _seeded(db)
    build = folder / "b.json"
    build.write_text(json.dumps(BUILD), encoding="utf-8")
    recording = folder / "rec.csv"
    proc = _cli("--db", str(db), "monitor", "--fake-gpus", "1", "--record", str(recording), "--count", "2",
                "--interval", "0.1")
    victim = folder / "victim.txt"
    victim.write_text("the user's file\n", encoding="utf-8")
    cases: list[tuple[str, Callable[[Path], tuple[str, ...]]]] = [
        (".pdf", lambda link: ("export-pdf", str(build), str(link))),
        (".csv", lambda link: ("parts", "export", str(link), "--category", "psu")),
        (".json", lambda link: ("bench", "--no-store", "--only", "matmul", "--out", str(link))),
        (".csv", lambda link: ("monitor", "--fake-gpus", "1", "--record", str(link), "--count", "1")),
    ]
    if proc.returncode == 0 and recording.exists():
        cases.append((".pdf", lambda link: ("report", str(recording), "--pdf", str(link))))
    for suffix, argv in cases:
        for target in (victim, folder / f"missing{suffix}"):  # to a file, and dangling
            link = folder / f"link{suffix}"
            with contextlib.suppress(FileNotFoundError):
                link.unlink()
            link.symlink_to(target)
            before = victim.read_bytes()
            proc = _cli("--db", str(db), *argv(link))
            ok = (proc.returncode == 2 and "Traceback" not in proc.stderr and link.is_symlink()
                  and victim.read_bytes() == before and not (folder / f"missing{suffix}").exists())
            row.check(ok, f"{argv(link)[:2]} -> {target.name}: exit {proc.returncode} {proc.stderr[-200:]}")
    return row


def run(repeats: int = 7, scale: float = 1.0) -> None:
    """The whole pass; ``scale`` multiplies the counts (1.0: 50 kills, 550 fuzzed inputs)."""
    rng = random.Random(35)
    rows: list[Row] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="configurator-reliability-") as tmp:
        t = Path(tmp)
        for name, step in (
            ("kills", lambda d: kills(d, max(2, int(50 * scale)), rng)),
            ("migrations", migrations),
            ("conditions", conditions),
            ("damaged", lambda d: damaged_rows(d, None if scale >= 1 else max(10, int(100 * scale)))),
            ("fuzz", lambda d: fuzz(d, int(250 * scale), int(200 * scale), int(100 * scale), rng)),
            ("links", links),
        ):
            d = t / name
            d.mkdir()
            t0 = time.perf_counter()
            got = step(d)
            if isinstance(got, tuple):
                got, commits = got
                got.what += f" [{commits:,} commits]"
            rows.extend(got if isinstance(got, list) else [got])
            print(f"  {name}: {time.perf_counter() - t0:.0f} s", flush=True)
    print("\n== reliability pass (#35) ==")
    print(f"{'what':<92} {'how many':>9} {'failures':>9}")
    for r in rows:
        print(f"{r.what:<92} {r.count:>9,} {len(r.failures):>9,}")
    print(f"  ({time.perf_counter() - started:.0f} s)")
    for r in rows:
        for why in r.failures[:5]:
            print(f"  FAIL {r.what[:40]}: {why}")


if __name__ == "__main__":
    run(scale=float(sys.argv[1]) if len(sys.argv) > 1 else 1.0)
