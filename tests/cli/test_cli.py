"""The command-line contract, run in-process (main) and, for start-up paths, as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from configurator.store.catalogue import load_catalogue
from tests.cli_run import run

N_PARTS = len(load_catalogue())


def test_parts_list_json_is_an_array_of_show_objects(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--db", str(db_path), "parts", "list", "--json")
    assert code == 0
    parts = json.loads(out)
    assert len(parts) == N_PARTS
    one = next(p for p in parts if p["id"] == "nvidia-rtx-3090")
    code, out, _ = run(capsys, "--db", str(db_path), "parts", "show", "nvidia-rtx-3090", "--json")
    assert code == 0 and json.loads(out) == one
    assert (one["vram_gb"], one["board_power_w"], one["nvlink"]) == (24, 350, True)
    for p in parts:
        assert {"id", "category", "name", "price_cny", "source"} <= set(p)
        assert isinstance(p["price_cny"], int)


def test_category_filter(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--db", str(db_path), "parts", "list", "--category", "motherboard", "--json")
    boards = json.loads(out)
    assert code == 0 and boards and {b["category"] for b in boards} == {"motherboard"}
    slot = boards[0]["pcie_slots"][0]
    assert set(slot) == {"name", "position", "physical_lanes", "electrical_lanes", "gen", "from", "shares_with",
                         "socket"}
    m2 = boards[0]["m2_slots"][0]
    assert set(m2) == {"name", "gen", "lanes", "from", "shares_with", "slot_lanes_when_used", "socket"}


def test_human_list_has_units(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--db", str(db_path), "parts", "list", "--category", "gpu")
    assert code == 0 and "VRAM (GiB)" in out and "Board power (W)" in out and "nvidia-rtx-3090" in out


def test_unknown_part_is_exit_2_with_json_errors(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "--db", str(db_path), "parts", "show", "nvidia-rtx-9090", "--json")
    assert code == 2
    assert json.loads(out) == {"ok": False, "errors": [{"path": "id", "message": err.strip().split(": ", 1)[1]}]}
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bad_category_and_bad_option(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run(capsys, "--db", str(db_path), "parts", "list", "--category", "fans")
    assert code == 2 and "--category" in err
    code, _, err = run(capsys, "parts", "lst")
    assert code == 2 and "Traceback" not in err


def test_import_reports_each_bad_row(capsys, db_path: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    csv = tmp_path / "零件.csv"
    csv.write_text("id,category,name,brand,price_cny,price_date,source,watts,efficiency,form_factor,pcie_8pin,"
                   "connector_12v2x6,eps_8pin\n"
                   "a-psu,psu,A,B,100,2026-11,https://x.cn/a/psu,abc,Gold,ATX,2,0,1\n"
                   "b-psu,psu,B,B,100,2026-13-45,https://x.cn/b/psu,500,Gold,ATX,2,0,1\n", encoding="utf-8")
    code, out, err = run(capsys, "--db", str(db_path), "parts", "import", str(csv), "--json")
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"{csv}:2: watts") and ":3: price_date" in lines[1]
    assert [e["path"] for e in json.loads(out)["errors"]] == [f"{csv}:2", f"{csv}:3"]


def test_export_import_under_chinese_folder(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "我的 配置"
    folder.mkdir()
    db = folder / "库.db"
    csv = folder / "导出.csv"
    assert run(capsys, "--db", str(db), "parts", "export", str(csv))[0] == 0
    code, out, _ = run(capsys, "--db", str(db), "parts", "import", str(csv), "--json")
    assert code == 0 and len(json.loads(out)["unchanged"]) == N_PARTS


@pytest.mark.full_env  # Chinese output or a PDF: PySide6
def test_chinese_output(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--db", str(db_path), "--lang", "zh_CN", "parts", "list", "--category", "gpu")
    assert code == 0 and "显存 (GiB)" in out and "显卡" in out


def _cli(env_db: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CONFIGURATOR_DB": str(env_db)}
    return subprocess.run([sys.executable, "-m", "configurator", *argv], capture_output=True, text=True,
                          env=env, timeout=120)


def test_corrupt_database_cli_says_where_the_old_file_went(tmp_path: Path) -> None:
    # The app's own default database (a file the user named is theirs: test_cli_files.py).
    db = tmp_path / "数据" / "configurator" / "configurator.db"
    db.parent.mkdir(parents=True)
    db.write_bytes(os.urandom(20000))
    env = {k: v for k, v in os.environ.items() if k != "CONFIGURATOR_DB"}
    proc = subprocess.run([sys.executable, "-m", "configurator", "parts", "list", "--json"], capture_output=True,
                          text=True, env={**env, "XDG_DATA_HOME": str(tmp_path / "数据")}, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads(proc.stdout)) == N_PARTS
    line = proc.stderr.strip()
    assert len(line.splitlines()) == 1 and ".corrupt-" in line and "Traceback" not in line
    kept = [p for p in db.parent.iterdir() if ".corrupt-" in p.name]
    assert kept and str(kept[0]) in line


@pytest.mark.parametrize("argv", [("parts", "list"), ("parts", "show", "nvidia-rtx-3090")])
def test_cli_never_imports_qt_in_english(tmp_path: Path, argv: tuple[str, ...]) -> None:
    code = ("import sys; from configurator.cli.entry import main; rc = main(sys.argv[1:]); "
            "assert 'PySide6' not in sys.modules and 'alembic' not in sys.modules or rc; print('clean')")
    db = tmp_path / "c.db"
    _cli(db, "parts", "list")  # first start: creates (alembic is fine there)
    proc = subprocess.run([sys.executable, "-c", code, "--db", str(db), "--lang", "en", *argv],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().endswith("clean")


def test_measurements_list_shows_the_published_figures_with_their_sources(tmp_path: Path) -> None:
    proc = _cli(tmp_path / "c.db", "--lang", "en", "measurements", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    published = [r for r in rows if r["source_url"]]
    assert len(published) >= 60 and all(r["source_url"].startswith("https://") for r in published)
    assert len({r["gpu"] for r in published}) >= 12
    proc = _cli(tmp_path / "c.db", "--lang", "en", "measurements", "list", "--gpu", "nvidia-rtx-3090",
                "--family", "cnn-train")
    assert proc.returncode == 0, proc.stderr
    assert "513 images/s" in proc.stdout and "lambdal/deeplearning-benchmark" in proc.stdout
    assert "REF-1" in proc.stdout  # the guide's figure beside the current ones
    assert "8 published measurements" in proc.stdout


def test_parts_list_prints_every_record_as_before(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The table `parts list` prints (read field by field) is the table of the part records themselves."""
    from configurator.cli.context import table_lines
    from configurator.core.parts import CATEGORIES, FIELD_LABELS, SUMMARY_FIELDS
    from configurator.store.database import open_store
    from configurator.store.repository import PartsRepository
    from configurator.store.seed import seed_store

    code, out, _ = run(capsys, "--db", str(db_path), "--lang", "en", "parts", "list")
    assert code == 0
    store = open_store(db_path, seed=seed_store)
    try:
        repo = PartsRepository(store)
        for cat in CATEGORIES:
            parts = repo.list_parts(cat)
            fields = SUMMARY_FIELDS[cat]

            def cell(v: object) -> str:
                if isinstance(v, bool):
                    return "✓" if v else "✗"
                if v is None:
                    return "—"
                if isinstance(v, float):
                    return f"{v:g}"
                if isinstance(v, list):
                    return ", ".join(cell(x) for x in v)
                return str(v)

            rows = [[p.id, p.name, *(cell(getattr(p, f)) for f in fields), f"{p.price_cny:,}"] for p in parts]
            head = [f"{FIELD_LABELS[f][0]} ({FIELD_LABELS[f][1]})" if FIELD_LABELS[f][1] else FIELD_LABELS[f][0]
                    for f in ("id", "name", *fields, "price_cny")]
            lines = list(table_lines([head, *rows]))
            assert "\n".join(lines) in out, cat
    finally:
        store.close()
    assert f"{N_PARTS} parts." in out


def test_parts_template_gpu_filled_in_one_row_imports_back(capsys, db_path: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import csv as csvmod
    import io

    path = tmp_path / "my-gpus.csv"
    code, out, _ = run(capsys, "--db", str(db_path), "parts", "template", "gpu", "--out", str(path), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["required"][:4] == ["id", "category", "name", "price_cny"] and "cooling" not in doc["required"]
    header, marks, example = csvmod.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline=""))
    assert marks[0].startswith("#") and example[0] == doc["example"]
    # The user edits the example row into their own card: a new id, a name, a price, and empties the rest.
    row = dict(zip(header, example, strict=True))
    keep = set(doc["required"])
    mine = {k: (v if k in keep else "") for k, v in row.items()}
    mine.update(id="my-rtx-card-used", name="My card (used)", price_cny="3999", source="bought from a colleague")
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        csvmod.writer(f).writerows([header, marks, [mine[h] for h in header]])
    code, out, err = run(capsys, "--db", str(db_path), "parts", "import", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)["added"] == ["my-rtx-card-used"]
    code, out, _ = run(capsys, "--db", str(db_path), "parts", "show", "my-rtx-card-used", "--json")
    shown = json.loads(out)
    assert shown["custom"] is True and shown["source"] == "bought from a colleague" and shown["cooling"] == "open_air"
    assert shown["vram_gb"] == int(row["vram_gb"])


def test_parts_template_without_out_prints_the_csv(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--db", str(db_path), "parts", "template", "storage")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("id,category,name,price_cny,kind") and lines[1].startswith('"# required')
    code, _, err = run(capsys, "--db", str(db_path), "parts", "template", "fan")
    assert code == 2 and "must be one of" in err


def test_parts_show_names_choice_values_in_words(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--db", str(db_path), "parts", "show", "nvidia-rtx-3090")
    assert code == 0 and "Open-air (axial fans)" in out and "PCIe card" in out and "open_air" not in out
    assert "Used-market price" in out and "used_market" not in out
    code, out, _ = run(capsys, "--db", str(db_path), "parts", "show", "nvidia-rtx-3090", "--json")
    assert json.loads(out)["cooling"] == "open_air"  # JSON keeps the keys
