"""`parts template`: a CSV a user fills with their own parts. Its comment row is skipped, a row needs only
the required columns, and such a row imports as the record part_from_dict builds."""

from __future__ import annotations

import csv
import dataclasses
import datetime
import io
from pathlib import Path

import pytest

from configurator.core.parts import CATEGORIES, RECORD_SHAPES, parse_text_value, part_from_dict
from configurator.store.csvfile import export_template, template_columns, template_example
from configurator.store.csvio import CsvImportError, import_csv
from configurator.store.repository import PartsRepository


def read(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline="")))


def write(path: Path, rows: list[list[str]]) -> None:
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f, lineterminator="\r\n").writerows(rows)


@pytest.mark.parametrize("category", CATEGORIES)
def test_the_template_marks_exactly_the_required_columns(category: str) -> None:
    cols = template_columns(category)
    required = {c.name for c in cols if c.required}
    assert required == (RECORD_SHAPES[category].required | {"category"})
    assert [c.required for c in cols] == sorted((c.required for c in cols), reverse=True)  # required first
    assert cols[0].name == "id" and cols[0].mark.startswith("#")
    assert all(c.mark.split(" · ")[0].lstrip("# ") == "required" for c in cols if c.required)
    assert all(c.mark.startswith("optional") for c in cols if not c.required)


def test_the_untouched_template_imports_as_no_change(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "gpu-template.csv"
    example = template_example(repo.list_parts("gpu"))
    assert example is not None and not example.custom
    export_template("gpu", path, example)
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM, as `parts export` writes
    result = import_csv(path, repo)
    assert result.unchanged == [example.id] and not result.added and not result.prices_updated


def test_a_filled_row_with_only_the_required_cells_imports_with_the_stated_defaults(
        repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "显卡模板.csv"
    export_template("gpu", path, template_example(repo.list_parts("gpu")))
    header, marks, _example = read(path)
    mine = {"id": "my-used-rtx-3090", "category": "gpu", "name": "RTX 3090 (used, Xianyu)", "price_cny": "5,200",
            "vendor": "nvidia", "vram_gb": "24", "memory_bandwidth_gbs": "936.2", "fp32_tflops": "35.58",
            "tensor_cores": "yes", "board_power_w": "350", "pcie_gen": "4", "pcie_lanes": "16",
            "source": "seller's listing, tested with the VRAM pattern test"}
    required = [name for name, mark in zip(header, marks, strict=True) if "required" in mark]
    assert set(required) <= set(mine)
    write(path, [header, marks, [mine.get(h, "") for h in header]])  # the example replaced by the user's row
    result = import_csv(path, repo)
    assert result.added == ["my-used-rtx-3090"]
    got = repo.get("my-used-rtx-3090")
    assert got is not None and got.custom
    assert (got.cooling, got.nvlink, got.form_factor, got.architecture) == ("open_air", False, "pcie", "")
    assert got.price_cny == 5200 and got.price_date == datetime.date.today().isoformat()
    assert got.source == mine["source"]


def test_a_hash_row_is_a_comment_only_where_the_first_column_is_id(repo: PartsRepository, tmp_path: Path) -> None:
    path = tmp_path / "parts.csv"
    write(path, [["name", "id", "category"], ["# a name", "x", "gpu"]])
    with pytest.raises(CsvImportError) as info:
        import_csv(path, repo)  # validated (and refused), not skipped
    assert {e.error.path for e in info.value.errors} >= {"vendor"}
    write(path, [["id", "category"], ["# only a comment", "gpu"]])
    with pytest.raises(CsvImportError, match="has a header but no parts"):
        import_csv(path, repo)


@pytest.mark.parametrize("category", CATEGORIES)
def test_a_row_of_required_cells_imports_as_the_record_part_from_dict_builds(
        repo: PartsRepository, category: str, tmp_path: Path) -> None:
    """The import reads a row of required cells (every optional cell empty) into the record part_from_dict
    builds from the same cells, and refuses it, naming the field, when one of them is left empty."""
    import csv
    import typing

    from configurator.core.parts import PART_TYPES, part_to_dict
    from configurator.store.csvfile import export_cell

    example = template_example(repo.list_parts(category))
    assert example is not None
    d = part_to_dict(example)
    header = [c.name for c in template_columns(category)]
    required = RECORD_SHAPES[category].required | {"category"}
    rec = [export_cell(d[h]) if h in required else "" for h in header]
    rec[header.index("id")] = "my-own-part"
    hints = typing.get_type_hints(PART_TYPES[category])
    want = part_from_dict({h: (parse_text_value(c, hints[h]) if h in hints else c)
                           for h, c in zip(header, rec, strict=True) if c}, category)
    path = tmp_path / "parts.csv"
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([header, rec])
    assert import_csv(path, repo).added == ["my-own-part"]
    assert repo.get("my-own-part") == dataclasses.replace(want, custom=True)
    name = sorted(required - {"id", "category"})[0]
    gap = [("" if h == name else c) for h, c in zip(header, rec, strict=True)]
    gap[header.index("id")] = "my-other-part"
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([header, gap])
    with pytest.raises(CsvImportError) as info:
        import_csv(path, repo)
    assert [e.render() for e in info.value.errors] == [f"2: {name}: is required"]


def test_the_marks_are_in_the_readers_language() -> None:
    words = {"required": "必填", "optional": "选填", "optional, empty: {default}": "选填，留空为 {default}",
             "the day of the import": "导入当天"}

    def zh(context: str, text: str) -> str:
        assert context == "csv"
        return words.get(text, text)

    cols = {c.name: c.mark for c in template_columns("gpu", zh)}
    assert cols["vram_gb"] == "必填 · GiB" and cols["cooling"].startswith("选填，留空为 open_air")
    assert cols["price_date"].startswith("选填，留空为 导入当天") and cols["brand"] == "选填"
