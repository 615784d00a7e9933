"""The Parts tab's query, answered as the table needs it.

One scan finds the rows a query matches, in its order, as row numbers (8 bytes a part: 800 kB for
100,000). The count, a page and a part's position are then read from that list; a page is fetched
by its row numbers (primary-key look-ups), so scrolling, jumping to a part or counting never scan
the table again. The scan itself (category, the search's terms, the order) is SQL: see
``repository.query_where`` and ``order_by_query``."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from configurator.store.database import Store
from configurator.store.repository import (
    PARTS,
    PARTS_ROWID,
    ROW_COLUMNS,
    PartQuery,
    order_by_query,
    query_where,
    readable,
)

_ROWID: Any = PARTS_ROWID


def matching_rows(store: Store, query: PartQuery, category_words: dict[str, set[str]] | None = None
                  ) -> array[int]:
    """The row numbers of every part the query matches, in its order (one scan of the table)."""
    stmt = query_where(readable(store, select(_ROWID).select_from(PARTS)), query, category_words).order_by(
        *order_by_query(query))
    out: array[int] = array("q")
    with store.engine.connect() as con:
        result = con.execute(stmt)
        while rows := result.fetchmany(5000):
            out.extend(r[0] for r in rows)
    return out


def rows_at(store: Store, rowids: Sequence[int]) -> list[Any]:
    """The rows (ROW_COLUMNS) of these row numbers, in the order given; a row deleted since is left out."""
    if not rowids:
        return []
    got: dict[int, Any] = {}
    with store.engine.connect() as con:
        for i in range(0, len(rowids), 500):
            chunk = list(rowids[i:i + 500])
            for row in con.execute(select(_ROWID.label("rowid_"), *ROW_COLUMNS).where(_ROWID.in_(chunk))):
                got[int(row.rowid_)] = row
    return [got[r] for r in rowids if r in got]


def rowid_of(store: Store, part_id: str) -> int | None:
    with store.engine.connect() as con:
        got = con.execute(readable(store, select(_ROWID).select_from(PARTS).where(PARTS.c.id == part_id))).scalar()
    return None if got is None else int(got)


__all__ = ["matching_rows", "rowid_of", "rows_at"]
