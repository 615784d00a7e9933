"""A shop's file: many listings of the same models. Each listing is stored as the full validator
reads it, a bad one among identical ones is named, and names and ids have a length limit."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import text

from configurator.core.parts import MAX_ID, MAX_NAME, part_from_dict, part_to_dict
from configurator.store.catalogue import specs_of
from configurator.store.csvio import CsvImportError, export_csv, import_csv
from configurator.store.repository import PartsRepository


def listings(repo: PartsRepository, copies: int) -> list:  # type: ignore[type-arg]
    """``copies`` listings of every catalogue part: new ids, names and prices, the same specs."""
    base = repo.list_parts()
    return [replace(p, id=f"{p.id}-shop{i}", name=f"{p.name} (shop {i})", price_cny=p.price_cny + i, custom=False)
            for i in range(copies) for p in base]


def stored_specs(repo: PartsRepository) -> dict[str, str]:
    with repo.store.engine.connect() as con:
        return {r[0]: r[1] for r in con.execute(text("SELECT id, specs FROM parts WHERE custom = 1"))}


def test_repeated_listings_are_stored_as_the_full_validator_reads_each_row(
        repo: PartsRepository, tmp_path: Path) -> None:
    parts = listings(repo, 3)
    path = tmp_path / "shop.csv"
    export_csv(parts, path)
    result = import_csv(path, repo)
    assert sorted(result.added) == sorted(p.id for p in parts)
    # What part_from_dict makes of each row (the slow path every message comes from).
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    specs = stored_specs(repo)
    for row, part in zip(rows, parts, strict=True):
        expected = part_from_dict({k: v for k, v in part_to_dict(part).items() if k not in ("custom", "user_edited")})
        got = repo.get(row["id"])
        assert got == replace(expected, custom=True)
        assert json.loads(specs[part.id]) == specs_of(expected)
        assert specs[part.id] == json.dumps(specs_of(expected))  # the same text as one row alone gives


def test_a_bad_listing_among_identical_ones_is_named_and_nothing_is_imported(
        repo: PartsRepository, tmp_path: Path) -> None:
    parts = listings(repo, 2)
    path = tmp_path / "shop.csv"
    export_csv(parts, path)
    lines = path.read_text(encoding="utf-8-sig").splitlines(keepends=True)
    # The last listing repeats an earlier one's specs; its own cells are bad (id, date).
    last = lines[-1].split(",")
    bad_id = "Not An Id"
    lines[-1] = ",".join([bad_id, *last[1:5], "2026-13", *last[6:]])
    path.write_text("".join(lines), encoding="utf-8")
    before = len(repo.list_parts())
    with pytest.raises(CsvImportError) as info:
        import_csv(path, repo)
    errors = {(e.line, e.error.path) for e in info.value.errors}
    assert errors == {(len(lines), "id"), (len(lines), "price_date")}
    assert bad_id in str(info.value) and "2026-13" in str(info.value)
    assert len(repo.list_parts()) == before


def test_a_listing_of_a_catalogue_part_still_only_updates_its_price(repo: PartsRepository, tmp_path: Path) -> None:
    catalogue = repo.list_parts()
    shop = listings(repo, 2)
    target = catalogue[0]
    path = tmp_path / "shop.csv"
    export_csv([*shop, replace(target, price_cny=target.price_cny + 100)], path)
    result = import_csv(path, repo)
    assert result.prices_updated == [target.id]
    got = repo.get(target.id)
    assert got is not None and got.price_cny == target.price_cny + 100 and not got.custom


@pytest.mark.parametrize(("field", "limit"), [("name", MAX_NAME), ("id", MAX_ID)])
def test_names_and_ids_have_a_length_limit(repo: PartsRepository, tmp_path: Path, field: str, limit: int) -> None:
    base = listings(repo, 1)[0]
    def value(n: int) -> str:
        return "a" * n if field == "id" else "名" * n

    fits = replace(base, **{field: value(limit)})
    long = replace(base, **{"id": "another-id", field: value(limit + 1)})
    path = tmp_path / "long.csv"
    export_csv([fits, long], path)
    with pytest.raises(CsvImportError) as info:
        import_csv(path, repo)
    assert [(e.line, e.error.path) for e in info.value.errors] == [(3, field)]
    message = str(info.value)
    assert len(message.splitlines()) == 1 and f"at most {limit}" in message and f"{limit + 1:,}" in message
    export_csv([fits], path)
    assert import_csv(path, repo).added == [fits.id]
