"""The shipped parts catalogue (db/catalogue/*.toml) and its sync into the database.

A newer catalogue adds parts and updates specs, names, sources and the
catalogue price, but never overwrites a price the user edited, a custom part,
a saved build or any history. Sync runs only when the shipped files changed
(their digest is kept in the ``meta`` table), so a warm start does not parse
them. A damaged row (found when the database was opened: ``Store.damaged_rows``)
is left as it is and counted as ``kept_damaged``: the sync never loads it, so it
cannot crash on it.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from configurator.core.catalogue import load_catalogue, shipped_files
from configurator.core.parts import AnyPart, part_to_dict
from configurator.paths import CATALOGUE_DIR
from configurator.store.tables import MetaRow, PartRow, PriceHistoryRow

if TYPE_CHECKING:
    from configurator.store.database import Store

DIGEST_KEY = "catalogue_digest"
ROW_FIELDS = ("id", "category", "name", "price_cny", "price_date", "source", "custom", "user_edited")


def catalogue_digest(directory: Path = CATALOGUE_DIR) -> str:
    h = hashlib.sha256()
    for f in shipped_files(directory):
        h.update(f.name.encode())
        h.update(b"\0")
        h.update(f.read_bytes())
    return h.hexdigest()


def specs_of(part: AnyPart) -> dict[str, Any]:
    d = part_to_dict(part)
    return {k: v for k, v in d.items() if k not in ROW_FIELDS}


def damaged_part_ids(store: Store) -> set[str]:
    """Parts rows found damaged when the database was opened (reads skip them; loading them would raise)."""
    return {r.id for r in store.damaged_rows if r.table == "parts"}


def sync_catalogue(store: Store, directory: Path = CATALOGUE_DIR, force: bool = False) -> dict[str, int]:
    digest = catalogue_digest(directory)
    with store.session() as s:
        meta = s.get(MetaRow, DIGEST_KEY)
        seeded = s.scalar(select(PartRow.id).where(PartRow.custom.is_(False)).limit(1)) is not None
        if meta is not None and meta.value == digest and seeded and not force:
            return {}
    parts = load_catalogue(directory)
    now = datetime.now()
    counts = {"added": 0, "updated": 0, "kept_user_price": 0, "kept_custom": 0, "kept_damaged": 0}
    with store.session() as s, s.begin():
        damaged = damaged_part_ids(store)
        existing = {r.id: r for r in s.scalars(select(PartRow))}  # the damaged rows left out (Store.skipped)
        for part in parts:
            if part.id in damaged:
                counts["kept_damaged"] += 1
                continue
            row = existing.get(part.id)
            specs = specs_of(part)
            if row is None:
                s.add(
                    PartRow(
                        id=part.id,
                        category=part.category,
                        name=part.name,
                        specs=specs,
                        price_cny=part.price_cny,
                        price_date=part.price_date,
                        source=part.source,
                        user_edited=False,
                        custom=False,
                        catalogue_price_cny=part.price_cny,
                        catalogue_price_date=part.price_date,
                        updated_at=now,
                    )
                )
                s.add(PriceHistoryRow(part_id=part.id, price_cny=part.price_cny,
                                      price_date=part.price_date, origin="catalogue", recorded_at=now))
                counts["added"] += 1
                continue
            if row.custom:
                counts["kept_custom"] += 1
                continue
            changed = (row.name, row.specs, row.source, row.category) != (
                part.name, specs, part.source, part.category)
            price_changed = (row.catalogue_price_cny, row.catalogue_price_date) != (
                part.price_cny, part.price_date)
            if changed:
                row.name, row.specs, row.source, row.category = part.name, specs, part.source, part.category
            if price_changed:
                row.catalogue_price_cny = part.price_cny
                row.catalogue_price_date = part.price_date
                s.add(PriceHistoryRow(part_id=part.id, price_cny=part.price_cny,
                                      price_date=part.price_date, origin="catalogue", recorded_at=now))
                if row.user_edited:
                    counts["kept_user_price"] += 1
                else:
                    row.price_cny, row.price_date = part.price_cny, part.price_date
            if changed or price_changed:
                row.updated_at = now
                counts["updated"] += 1
        meta = s.get(MetaRow, DIGEST_KEY)
        if meta is None:
            s.add(MetaRow(key=DIGEST_KEY, value=digest))
        else:
            meta.value = digest
    return counts
