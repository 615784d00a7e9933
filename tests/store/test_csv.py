from __future__ import annotations

from pathlib import Path

import pytest

from configurator.store.csvio import CsvImportError, export_csv, import_csv
from configurator.store.repository import PartsRepository

HEADER = ("id,category,name,brand,price_cny,price_date,source,watts,efficiency,form_factor,pcie_8pin,"
          "connector_12v2x6,eps_8pin\n")


def psu_row(pid: str, name: str, watts: str = "850", price: str = "899") -> str:
    url = f"https://www.greatwall.com.cn/psu/{pid}"
    return f"{pid},psu,{name},长城,{price},2026-11,{url},{watts},80 PLUS Gold,ATX,4,1,2\n"


def test_export_then_import_changes_nothing(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "导出" / "parts.csv"
    path.parent.mkdir()
    before = repo.list_parts()
    assert export_csv(before, path) == len(before)
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")  # BOM: Excel reads Chinese correctly
    result = import_csv(path, repo)
    assert len(result.unchanged) == len(before) and not result.added
    assert repo.list_parts() == before


def test_gb18030_file_with_chinese_names(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "电源.csv"
    path.write_bytes((HEADER + psu_row("greatwall-g8-850", "长城 G8 金牌 850W")).encode("gb18030"))
    result = import_csv(path, repo)
    assert result.added == ["greatwall-g8-850"]
    part = repo.get("greatwall-g8-850")
    assert part is not None and part.name == "长城 G8 金牌 850W" and part.custom


def test_semicolons_and_bom(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "parts.csv"
    text = (HEADER + psu_row("greatwall-x-1000", "X 1000", "1000")).replace(",", ";")
    path.write_bytes("\ufeff".encode() + text.encode("utf-8"))
    assert import_csv(path, repo).added == ["greatwall-x-1000"]


def test_every_bad_row_is_reported_and_nothing_is_imported(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(
        HEADER
        + psu_row("good-psu-1", "Good")  # line 2
        + psu_row("bad-psu-1", "Bad watts", watts="lots")  # line 3
        + psu_row("good-psu-2", "Good 2")  # line 4
        + psu_row("bad-psu-2", "Negative price", price="-5")  # line 5
        + psu_row("good-psu-1", "Duplicate"),  # line 6
        encoding="utf-8")
    count = len(repo.list_parts())
    with pytest.raises(CsvImportError) as info:
        import_csv(path, repo)
    by_line = {e.line: e.error.path for e in info.value.errors}
    assert by_line == {3: "watts", 5: "price_cny", 6: "id"}
    assert len(repo.list_parts()) == count
    assert repo.get("good-psu-1") is None


def test_catalogue_part_only_changes_its_price(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "parts.csv"
    export_csv([p for p in repo.list_parts() if p.id == "nvidia-rtx-3090"], path)
    text = path.read_text(encoding="utf-8-sig")
    old = repo.get("nvidia-rtx-3090")
    assert old is not None
    path.write_text(text.replace(f",{old.price_cny},", ",4321,", 1), encoding="utf-8")
    result = import_csv(path, repo)
    assert result.prices_updated == ["nvidia-rtx-3090"]
    new = repo.get("nvidia-rtx-3090")
    assert new is not None and new.price_cny == 4321 and new.user_edited
    path.write_text(text.replace(",24,", ",48,", 1), encoding="utf-8")
    with pytest.raises(CsvImportError) as info:
        import_csv(path, repo)
    assert "vram_gb" in info.value.errors[0].error.render()


def test_unknown_column_and_missing_id_column(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "parts.csv"
    path.write_text("name,category,colour\nX,psu,red\n", encoding="utf-8")
    with pytest.raises(CsvImportError) as info:
        import_csv(path, repo)
    assert {e.error.path for e in info.value.errors} == {"colour", "id"}


def test_binary_garbage_is_a_clear_error(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "parts.csv"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(CsvImportError):
        import_csv(path, repo)
