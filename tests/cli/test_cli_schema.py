"""`configurator schema build|part`: the declarations the files are read with, printed."""

from __future__ import annotations

import dataclasses
import json

import pytest

from configurator.core.parts import CATEGORIES, PART_TYPES, STORE_FIELDS, part_from_dict, part_to_dict
from configurator.store.catalogue import load_catalogue
from tests.cli_run import run


def test_schema_build_json_is_the_build_files_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "schema", "build", "--json")
    doc = json.loads(out)
    assert code == 0 and not err and doc["$id"] == "configurator.build/1"
    assert doc["properties"]["format"] == {"const": "configurator.build/1", "title": "Format", "type": "string"}
    assert doc["$defs"]["WorkloadEntry"]["properties"]["batch_size"]["anyOf"][0]["maximum"] == 65_536


def test_schema_build_table_names_nested_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "schema", "build")
    lines = {line.split()[0]: line for line in out.splitlines()[2:]}
    assert code == 0 and "> 0, <= 64" in lines["parts[].qty"] and "<= 256" in lines["cluster.nodes"]


@pytest.mark.parametrize("category", CATEGORIES)
def test_schema_part_describes_what_part_from_dict_reads(capsys: pytest.CaptureFixture[str], category: str) -> None:
    code, out, _err = run(capsys, "schema", "part", category, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["$id"] == f"configurator.part/{category}"
    example = next(p for p in load_catalogue() if p.category == category)
    given = {k: v for k, v in part_to_dict(example).items() if k not in STORE_FIELDS}
    assert set(given) <= set(doc["properties"]) and set(doc["required"]) <= set(given)
    assert part_from_dict(given).id == example.id
    assert not set(STORE_FIELDS) & set(doc["properties"])
    assert len(doc["properties"]) == len(dataclasses.fields(PART_TYPES[category])) - len(STORE_FIELDS) + 1


def test_schema_part_table_gives_units_and_an_unknown_category_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "schema", "part", "gpu")
    vram = next(line for line in out.splitlines() if line.startswith("vram_gb "))
    assert code == 0 and vram.split()[1:] == ["integer", ">", "0", "GiB", "required"]
    code, _out, err = run(capsys, "schema", "part", "toaster")
    assert code == 2 and "toaster" in err
