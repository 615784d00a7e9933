"""Reading what a listing prints, without building every part record.

`parts list` shows a few fields of every part: with 100,000 parts, building 100,000 records (and
their validation fallback) was most of its time. Here a row's specs are parsed once and only the
listed fields are read; a row whose stored data would not make its record as it is (damaged JSON,
an unknown or a missing field, a value of the wrong type: what ``part_from_trusted`` would hand to full
validation) goes the
record's way instead (``decode_row``), so what is listed and what is named unreadable are the same
as when every record was built."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from configurator.core.parts import PART_TYPES, RECORD_SHAPES, fits_record
from configurator.store.database import Store
from configurator.store.repository import PARTS, ROW_COLUMNS, Unreadable, row_to_part, skip_sql

BATCH = 2000
_ROW_KEYS = frozenset({"id", "name", "price_cny", "price_date", "source", "custom", "user_edited"})


@dataclass(frozen=True, slots=True)
class Listed:
    """One part as a listing shows it: its id, name, flags, price and the asked-for fields' values."""

    id: str
    name: str
    custom: bool
    user_edited: bool
    price_cny: int
    values: tuple[Any, ...]


def iter_listed(store: Store, category: str, fields: Sequence[str], unreadable: list[Unreadable] | None = None,
                batch: int = BATCH) -> Iterator[Listed]:
    """The parts of one category by id, each with the values of ``fields``, read in batches."""
    shape = RECORD_SHAPES[category]
    record = PART_TYPES[category]
    spec_fields = shape.fields - _ROW_KEYS
    required = shape.required - _ROW_KEYS
    defaults = shape.defaults
    loads = json.loads
    with store.engine.connect() as con:
        # Plain SQL, only the columns shown: a row object per part costs more than the query.
        cur = con.exec_driver_sql(
            "SELECT id, name, custom, user_edited, price_cny, CAST(specs AS TEXT) FROM parts WHERE category = ?"
            f"{skip_sql(store)} ORDER BY id", (category,))
        while rows := cur.fetchmany(batch):
            for pid, name, custom, edited, price, text in rows:
                specs: Any = None
                with contextlib.suppress(ValueError, TypeError, RecursionError):
                    specs = loads(text)
                if (isinstance(specs, dict) and specs.keys() <= spec_fields and required <= specs.keys()
                        and "category" not in specs and type(name) is str and type(price) is int
                        and fits_record(record, specs)):
                    yield Listed(pid, name, bool(custom), bool(edited), price,
                                 tuple([specs[f] if f in specs else defaults.get(f) for f in fields]))
                    continue
                # The record's own way (full validation), or named as unreadable.
                row = con.execute(select(*ROW_COLUMNS).where(PARTS.c.id == pid)).first()
                part = row_to_part(row, unreadable) if row is not None else None
                if part is not None:
                    yield Listed(part.id, part.name, part.custom, part.user_edited, part.price_cny,
                                 tuple(getattr(part, f) for f in fields))

__all__ = ["Listed", "iter_listed"]
