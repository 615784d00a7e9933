"""The user's cloud price overrides (BUD-3), kept in the ``meta`` table so a newer shipped table
(db/cloud_prices.toml) never replaces them: one row per GPU class, key ``cloud_price:<class>``,
value ``{"cny_per_gpu_hour", "date"}``."""

from __future__ import annotations

import datetime
import json
from typing import TYPE_CHECKING

from sqlalchemy import select

from configurator.core.cloud import CloudPrice, CloudPriceError, check_override, load_cloud_prices, with_overrides
from configurator.store.tables import MetaRow

if TYPE_CHECKING:
    from configurator.store.database import Store

PREFIX = "cloud_price:"


def overrides(store: Store) -> dict[str, tuple[float, str]]:
    """The user's prices by GPU class; a damaged row is skipped (the shipped price applies)."""
    out: dict[str, tuple[float, str]] = {}
    with store.session() as s:
        for row in s.scalars(select(MetaRow).where(MetaRow.key.startswith(PREFIX))):
            try:
                value = json.loads(row.value)
                out[row.key[len(PREFIX):]] = (check_override(value["cny_per_gpu_hour"]), str(value["date"]))
            except (ValueError, KeyError, TypeError, CloudPriceError):
                continue
    return out


def cloud_prices(store: Store) -> list[CloudPrice]:
    """The shipped table with the user's prices in place of the shipped ones."""
    return with_overrides(load_cloud_prices(), overrides(store))


def set_price(store: Store, gpu_class: str, cny_per_gpu_hour: float, today: datetime.date | None = None) -> None:
    """Raises :class:`CloudPriceError` for an unknown class or a price out of range."""
    if gpu_class not in {p.gpu_class for p in load_cloud_prices()}:
        raise CloudPriceError(f"no GPU class {gpu_class!r}")
    price = check_override(cny_per_gpu_hour)
    value = json.dumps({"cny_per_gpu_hour": price, "date": (today or datetime.date.today()).isoformat()})
    with store.session() as s, s.begin():
        row = s.get(MetaRow, PREFIX + gpu_class)
        if row is None:
            s.add(MetaRow(key=PREFIX + gpu_class, value=value))
        else:
            row.value = value


def reset_price(store: Store, gpu_class: str) -> bool:
    """Back to the shipped price; False when there was no override."""
    with store.session() as s, s.begin():
        row = s.get(MetaRow, PREFIX + gpu_class)
        if row is None:
            return False
        s.delete(row)
        return True
