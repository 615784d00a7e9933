"""The Parts tab's SQL (filter, order, pages) agrees with the search's meaning in Python (core.search)."""

from __future__ import annotations

import itertools

from configurator.core.parts import part_to_dict
from configurator.core.search import parse_search, term_matches
from configurator.store.catalogue import specs_of
from configurator.store.database import Store
from configurator.store.part_pages import matching_rows, rowid_of, rows_at
from configurator.store.repository import PartQuery, PartsRepository

SEARCHES = ["24 nvlink", "3090", "4090", "nvlink", "ecc", "2tb gen5", "gen4", "850w", "16c", "ddr5", "corsair",
            "am5 x670", "noctua", "atx", "zzz", "24 gb", "32", "rtx", "1.5", "sfx"]


def python_ids(repo: PartsRepository, text: str, category: str | None = None) -> set[str]:
    terms = parse_search(text)
    out = set()
    for p in repo.list_parts(category):
        d = part_to_dict(p)
        row = {k: d[k] for k in ("id", "name", "category", "price_cny")}
        if all(term_matches(t, row, specs_of(p)) for t in terms):
            out.add(p.id)
    return out


def sql_ids(store: Store, query: PartQuery) -> list[str]:
    return [r.id for r in rows_at(store, matching_rows(store, query))]


def test_search_in_sql_is_the_search_in_python(store: Store, repo: PartsRepository) -> None:
    for text in SEARCHES:
        got = sql_ids(store, PartQuery(None, tuple(text.split())))
        assert len(got) == len(set(got)) and set(got) == python_ids(repo, text), text
    got = sql_ids(store, PartQuery("gpu", ("24",)))
    assert set(got) == python_ids(repo, "24", "gpu") and got


def test_the_guides_example_finds_the_24_gb_nvlink_cards(store: Store) -> None:
    names = {r.name for r in rows_at(store, matching_rows(store, PartQuery(None, ("24", "nvlink"))))}
    assert names == {"NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 3090 Ti", "NVIDIA RTX A5000"}


ORDERS = [(None, "name"), (None, "price_cny"), ("gpu", "vram_gb"), ("gpu", "fp32_tflops"), ("cpu", "cores"),
          ("storage", "capacity_gb"), (None, "brand"), ("psu", "watts")]


def test_order_and_pages_are_pythons(store: Store, repo: PartsRepository) -> None:
    for (category, sort), descending in itertools.product(ORDERS, (False, True)):
        parts = repo.list_parts(category)

        def key(p: object, sort: str = sort) -> tuple[int, object]:
            v = getattr(p, sort)
            return (0, "") if v is None else (1, v.lower() if sort == "name" else v)

        expected = [p.id for p in sorted(sorted(parts, key=lambda p: p.id, reverse=descending), key=key,
                                         reverse=descending)]
        q = PartQuery(category, (), sort, descending)
        rows = matching_rows(store, q)
        assert sql_ids(store, q) == expected, (category, sort, descending)
        # Any page of it, fetched by row numbers, is that slice; a part's position is its index.
        assert [r.id for r in rows_at(store, rows[7:19])] == expected[7:19]
        target = expected[len(expected) // 2]
        assert list(rows).index(rowid_of(store, target)) == expected.index(target)
    assert rowid_of(store, "no-such-part") is None
