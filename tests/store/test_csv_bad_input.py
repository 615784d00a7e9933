"""CSV bad input with real files: every case is one clear error (no traceback), nothing half-written."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from configurator.store.csvio import CsvImportError, export_csv, import_csv
from configurator.store.database import open_store
from configurator.store.repository import PartsRepository
from configurator.store.seed import seed_store

HEADER = ("id,category,name,brand,price_cny,price_date,source,watts,efficiency,form_factor,pcie_8pin,"
          "connector_12v2x6,eps_8pin\n")


def psu_row(pid: str, name: str = "PSU", watts: str = "850", price: str = "899") -> str:
    return f"{pid},psu,{name},Brand,{price},2026-11,https://www.example.com/psu/{pid},{watts},80 PLUS Gold,ATX,4,1,2\n"


def errors_of(path: Path, repo: PartsRepository, **kw: str) -> list[str]:
    count = len(repo.list_parts())
    with pytest.raises(CsvImportError) as info:
        import_csv(path, repo, **kw)
    assert len(repo.list_parts()) == count  # nothing written
    return [e.render() for e in info.value.errors]


def test_a_field_over_128_kib_names_its_line_and_the_limit(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "huge.csv"
    path.write_text(HEADER + psu_row("ok-psu-1") + psu_row("big-psu-1", name='"' + "x" * 200_000 + '"'),
                    encoding="utf-8")
    errors = errors_of(path, repo)
    assert len(errors) == 1 and errors[0].startswith("3: row: ") and "128 KiB" in errors[0]


def test_cr_only_line_endings_are_read(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "mac.csv"
    path.write_bytes((HEADER + psu_row("mac-psu-1") + psu_row("mac-psu-2")).replace("\n", "\r").encode())
    assert import_csv(path, repo).added == ["mac-psu-1", "mac-psu-2"]
    bad = tmp_path / "mac-bad.csv"
    bad.write_bytes((HEADER + psu_row("mac-psu-3") + psu_row("mac-psu-4", watts="x")).replace("\n", "\r").encode())
    assert [e.split(": ")[:2] for e in errors_of(bad, repo)] == [["3", "watts"]]


def test_nul_bytes_are_refused_with_their_line(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "nul.csv"
    path.write_bytes((HEADER + psu_row("nul-psu-1") + psu_row("nul-psu-2", name="A\0B")).encode())
    errors = errors_of(path, repo)
    assert len(errors) == 1 and errors[0].startswith("3: name: ") and "NUL" in errors[0]


def test_latin1_is_not_read_as_gb18030(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "latin1.csv"
    path.write_bytes((HEADER + psu_row("be-quiet-1", name="Straight Power Müller édition")).encode("latin-1"))
    errors = errors_of(path, repo)
    assert len(errors) == 1 and "not UTF-8 or GB18030" in errors[0] and errors[0].startswith("2: file: ")
    # Named explicitly, it is read as what it is.
    assert import_csv(path, repo, encoding="latin-1").added == ["be-quiet-1"]
    part = repo.get("be-quiet-1")
    assert part is not None and part.name == "Straight Power Müller édition"
    assert "unknown encoding" in errors_of(path, repo, encoding="klingon")[0]


def test_chinese_gb18030_is_still_detected(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "电源.csv"
    path.write_bytes((HEADER + psu_row("greatwall-g8-850", name="长城 G8 金牌 850W 全模组电源")).encode("gb18030"))
    assert import_csv(path, repo).added == ["greatwall-g8-850"]


@pytest.mark.parametrize("value", ["1" * 5000, "1" + "0" * 309, "9223372036854775808", "1e400", "nan"])
def test_huge_numbers_are_one_clear_error(repo: PartsRepository, tmp_path: Path, value: str) -> None:
    path = tmp_path / "big.csv"
    path.write_text(HEADER + psu_row("huge-psu-1", price=value), encoding="utf-8")
    errors = errors_of(path, repo)
    assert len(errors) == 1 and errors[0].startswith("2: price_cny: "), errors


def test_huge_float_in_a_float_column(repo: PartsRepository, tmp_path: Path) -> None:
    rows = list(repo.list_parts("gpu"))[:1]
    path = tmp_path / "gpu.csv"
    export_csv(rows, path)
    import csv

    with open(path, encoding="utf-8-sig", newline="") as f:
        head, cells = list(csv.reader(f))
    cells[head.index("id")] = "my-gpu-1"
    cells[head.index("fp32_tflops")] = "1" + "0" * 400
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([head, cells])
    errors = errors_of(path, repo)
    assert len(errors) == 1 and "fp32_tflops" in errors[0] and "too large" in errors[0]


def test_lone_surrogates_are_refused(repo: PartsRepository, tmp_path: Path) -> None:
    encoded = tmp_path / "cesu.csv"  # a surrogate encoded as UTF-8 bytes (CESU-8 / WTF-8)
    encoded.write_bytes(HEADER.encode() + psu_row("sur-psu-1", name="A\udc80B").encode("utf-8", "surrogatepass"))
    errors = errors_of(encoded, repo)
    assert len(errors) == 1 and "not UTF-8" in errors[0] and errors[0].startswith("2: ")
    escaped = tmp_path / "escaped.csv"  # an escaped one inside a JSON list cell
    escaped.write_text("id,category,name,brand,price_cny,price_date,source,form_factor,max_gpu_length_mm,"
                       "expansion_slots,board_form_factors\n"
                       'my-case-1,case,Case,B,300,2026-11,https://example.com/case/1,Mid tower,300,7,'
                       '"[""ATX\\ud800""]"\n',
                       encoding="utf-8")
    errors = errors_of(escaped, repo)
    assert len(errors) == 1 and errors[0].startswith("2: board_form_factors: ") and "surrogate" in errors[0]


def test_formula_injection_is_guarded_and_round_trips(repo: PartsRepository, tmp_path: Path) -> None:
    names = ["=HYPERLINK(\"http://x\")", "+1 power", "-5 dB quiet", "@SUM(A1)", "\tTab", "\rCR", "'quoted", "plain"]
    import csv

    path = tmp_path / "in.csv"
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEADER.strip().split(","))
        for i, n in enumerate(names):
            cells = psu_row(f"inj-psu-{i}").strip().split(",")
            cells[2] = n
            w.writerow(cells)
    import_csv(path, repo)
    stored = {repo.get(f"inj-psu-{i}").name for i in range(len(names))}  # type: ignore[union-attr]
    assert stored == {n.strip() for n in names}  # cells are stripped, as before
    out = tmp_path / "out.csv"
    parts = [p for p in repo.list_parts() if p.id.startswith("inj-psu-")]
    export_csv(parts, out)

    with open(out, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        assert not row["name"].startswith(("=", "+", "-", "@", "\t", "\r")), row["name"]
        assert not row["price_cny"].startswith("'")  # numbers stay numbers
    assert {r["name"] for r in rows if r["id"] == "inj-psu-0"} == {"'=HYPERLINK(\"http://x\")"}
    assert {r["name"] for r in rows if r["id"] == "inj-psu-6"} == {"''quoted"}
    result = import_csv(out, repo)  # our own export comes back unchanged
    assert sorted(result.replaced) == sorted(p.id for p in parts)
    assert sorted(repo.list_parts("psu"), key=lambda p: p.id) == sorted(
        [*(p for p in repo.list_parts("psu") if not p.id.startswith("inj-")), *parts], key=lambda p: p.id)


def test_export_keeps_negative_numbers_as_numbers(tmp_path: Path) -> None:
    from configurator.store.csvio import export_cell

    assert export_cell(-5) == "-5" and export_cell(-2.5) == "-2.5" and export_cell("-5") == "'-5"


def test_export_is_atomic(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "parts.csv"
    path.write_text("old", encoding="utf-8")

    def boom():  # type: ignore[no-untyped-def]
        yield repo.list_parts()[0]
        raise RuntimeError("disk gone")

    with pytest.raises(RuntimeError):
        export_csv(boom(), path)
    assert path.read_text(encoding="utf-8") == "old"
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@contextlib.contextmanager
def read_only_mount(folder: Path):  # type: ignore[no-untyped-def]
    """A tmpfs mounted on ``folder``, for the test to fill and then remount read-only."""
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("needs root and mount(8) for a real read-only file system")
    folder.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(folder)],
                      capture_output=True).returncode != 0:
        pytest.skip("mount -t tmpfs is not permitted here (no CAP_SYS_ADMIN)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def test_import_into_a_read_only_database_is_one_clear_error(tmp_path: Path) -> None:
    with read_only_mount(tmp_path / "ro") as folder:
        db = folder / "configurator.db"
        store = open_store(db, seed=seed_store)
        repo = PartsRepository(store)
        before = len(repo.list_parts())
        csv_path = tmp_path / "parts.csv"
        csv_path.write_text(HEADER + psu_row("ro-psu-1") + psu_row("ro-psu-2"), encoding="utf-8")
        store.engine.dispose()  # no file open for writing, so the file system can be made read-only
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        try:
            with pytest.raises(CsvImportError) as info:
                import_csv(csv_path, repo)
            [error] = info.value.errors
            text = error.render()
            assert error.error.path == "database" and "nothing was imported" in text
            assert "readonly" in text or "unable to open" in text, text
        finally:
            store.close()
        subprocess.run(["mount", "-o", "remount,rw", str(folder)], check=True)
        again = open_store(db, seed=seed_store)
        try:
            assert len(PartsRepository(again).list_parts()) == before  # nothing half-written
        finally:
            again.close()
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)


def test_cli_import_into_a_read_only_file_system_is_one_line(tmp_path: Path) -> None:
    with read_only_mount(tmp_path / "ro") as folder:
        db = folder / "configurator.db"
        open_store(db, seed=seed_store).close()
        csv_path = tmp_path / "parts.csv"
        csv_path.write_text(HEADER + psu_row("ro-psu-1"), encoding="utf-8")
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        env = {**os.environ, "CONFIGURATOR_DB": str(db)}
        proc = subprocess.run([sys.executable, "-m", "configurator", "--lang", "en", "parts", "import",
                               str(csv_path)], capture_output=True, text=True, env=env)
        assert proc.returncode == 2, proc.stderr
        assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_cli_reports_every_csv_problem_on_one_line_each(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_bytes((HEADER + psu_row("c-psu-1", price="1" * 5000) + psu_row("c-psu-2", name="x\0y")).encode())
    env = {**os.environ, "CONFIGURATOR_DB": str(tmp_path / "db.sqlite")}
    proc = subprocess.run([sys.executable, "-m", "configurator", "--lang", "en", "parts", "import", str(path)],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"{path}:2: price_cny") and lines[1].startswith(f"{path}:3: name")
