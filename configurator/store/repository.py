"""Reading and writing parts and builds. Every database write goes through here."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from sqlalchemy import select

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import (
    AnyPart,
    FieldError,
    PartValidationError,
    part_from_dict,
    part_from_trusted,
)
from configurator.store.catalogue import specs_of
from configurator.store.database import Store
from configurator.store.models import BuildRow, PartRow, PriceHistoryRow

log = logging.getLogger(__name__)


class RepositoryError(ValueError):
    def __init__(self, message: Message):
        self.message = message
        super().__init__(message.render())


def _row_dict(row: PartRow) -> dict[str, Any]:
    d: dict[str, Any] = {
        "id": row.id,
        "category": row.category,
        "name": row.name,
        "price_cny": row.price_cny,
        "price_date": row.price_date,
        "source": row.source,
    }
    d.update(row.specs)
    d["custom"] = bool(row.custom)
    d["user_edited"] = bool(row.user_edited)
    return d


def row_to_part(row: PartRow) -> AnyPart | None:
    try:
        return part_from_trusted(_row_dict(row))
    except PartValidationError as exc:
        log.warning("part %s in the database is invalid and was skipped: %s", row.id, exc)
        return None


@dataclass(frozen=True)
class PricePoint:
    price_cny: int
    price_date: str
    origin: str
    recorded_at: datetime


@dataclass(frozen=True)
class SavedBuild:
    id: int
    name: str
    data: dict[str, Any]
    created_at: datetime
    updated_at: datetime


def today() -> str:
    return date.today().isoformat()


class PartsRepository:
    def __init__(self, store: Store):
        self.store = store

    # -- reading -------------------------------------------------------------
    def list_parts(self, category: str | None = None) -> list[AnyPart]:
        stmt = select(PartRow).order_by(PartRow.category, PartRow.id)
        if category:
            stmt = stmt.where(PartRow.category == category)
        with self.store.session() as s:
            rows = list(s.scalars(stmt))
        return [p for p in (row_to_part(r) for r in rows) if p is not None]

    def get(self, part_id: str) -> AnyPart | None:
        with self.store.session() as s:
            row = s.get(PartRow, part_id)
            return row_to_part(row) if row else None

    def catalogue_price(self, part_id: str) -> tuple[int, str] | None:
        with self.store.session() as s:
            row = s.get(PartRow, part_id)
            if row is None or row.catalogue_price_cny is None or row.catalogue_price_date is None:
                return None
            return row.catalogue_price_cny, row.catalogue_price_date

    def price_history(self, part_id: str) -> list[PricePoint]:
        stmt = (
            select(PriceHistoryRow)
            .where(PriceHistoryRow.part_id == part_id)
            .order_by(PriceHistoryRow.recorded_at, PriceHistoryRow.id)
        )
        with self.store.session() as s:
            return [PricePoint(r.price_cny, r.price_date, r.origin, r.recorded_at) for r in s.scalars(stmt)]

    # -- writing -------------------------------------------------------------
    def set_price(self, part_id: str, price_cny: int, price_date: str | None = None,
                  origin: str = "user") -> AnyPart:
        if isinstance(price_cny, bool) or not isinstance(price_cny, int) or price_cny < 0:
            raise RepositoryError(Message("store", QT_TRANSLATE_NOOP(
                "store", "A price must be a whole number of yuan, zero or more.")))
        when = price_date or today()
        now = datetime.now()
        with self.store.session() as s, s.begin():
            row = self._row(s, part_id)
            row.price_cny, row.price_date = price_cny, when
            row.user_edited = not row.custom
            row.updated_at = now
            s.add(PriceHistoryRow(part_id=part_id, price_cny=price_cny, price_date=when,
                                  origin=origin, recorded_at=now))
            part = row_to_part(row)
        assert part is not None
        return part

    def reset_price(self, part_id: str) -> AnyPart:
        """Go back to the shipped catalogue's price (catalogue parts only)."""
        now = datetime.now()
        with self.store.session() as s, s.begin():
            row = self._row(s, part_id)
            if row.custom or row.catalogue_price_cny is None or row.catalogue_price_date is None:
                raise RepositoryError(Message("store", QT_TRANSLATE_NOOP(
                    "store", "{id} is a custom part: it has no catalogue price."), {"id": part_id}))
            row.price_cny, row.price_date = row.catalogue_price_cny, row.catalogue_price_date
            row.user_edited = False
            row.updated_at = now
            s.add(PriceHistoryRow(part_id=part_id, price_cny=row.price_cny, price_date=row.price_date,
                                  origin="reset", recorded_at=now))
            part = row_to_part(row)
        assert part is not None
        return part

    def add_custom(self, data: dict[str, Any]) -> AnyPart:
        """Validate and add a user's own part; raises PartValidationError or RepositoryError."""
        data = {k: v for k, v in data.items() if k not in ("custom", "user_edited")}
        part = part_from_dict(data)
        now = datetime.now()
        with self.store.session() as s, s.begin():
            if s.get(PartRow, part.id) is not None:
                raise PartValidationError([FieldError("id", Message("store", QT_TRANSLATE_NOOP(
                    "store", "a part with the id {id} already exists"), {"id": part.id}))])
            s.add(self._new_row(part, now, custom=True))
            s.add(PriceHistoryRow(part_id=part.id, price_cny=part.price_cny, price_date=part.price_date,
                                  origin="user", recorded_at=now))
        return replace(part, custom=True)

    def delete_custom(self, part_id: str) -> None:
        with self.store.session() as s, s.begin():
            row = self._row(s, part_id)
            if not row.custom:
                raise RepositoryError(Message("store", QT_TRANSLATE_NOOP(
                    "store", "{id} comes from the catalogue and cannot be deleted."), {"id": part_id}))
            s.delete(row)

    @staticmethod
    def _new_row(part: AnyPart, now: datetime, custom: bool) -> PartRow:
        return PartRow(
            id=part.id, category=part.category, name=part.name, specs=specs_of(part),
            price_cny=part.price_cny, price_date=part.price_date, source=part.source,
            user_edited=False, custom=custom,
            catalogue_price_cny=None if custom else part.price_cny,
            catalogue_price_date=None if custom else part.price_date,
            updated_at=now,
        )

    @staticmethod
    def _row(s: Any, part_id: str) -> PartRow:
        row: PartRow | None = s.get(PartRow, part_id)
        if row is None:
            raise RepositoryError(Message("store", QT_TRANSLATE_NOOP(
                "store", "There is no part with the id {id}."), {"id": part_id}))
        return row

    def apply_import(self, new_parts: list[AnyPart], price_updates: list[AnyPart],
                     replaced: list[AnyPart]) -> None:
        """Write a validated CSV import in one transaction (all or nothing)."""
        now = datetime.now()
        with self.store.session() as s, s.begin():
            for part in new_parts:
                s.add(self._new_row(part, now, custom=True))
                s.add(PriceHistoryRow(part_id=part.id, price_cny=part.price_cny,
                                      price_date=part.price_date, origin="import", recorded_at=now))
            for part in replaced:
                row = self._row(s, part.id)
                row.name, row.specs, row.source = part.name, specs_of(part), part.source
                row.price_cny, row.price_date, row.updated_at = part.price_cny, part.price_date, now
                s.add(PriceHistoryRow(part_id=part.id, price_cny=part.price_cny,
                                      price_date=part.price_date, origin="import", recorded_at=now))
            for part in price_updates:
                row = self._row(s, part.id)
                row.price_cny, row.price_date, row.updated_at = part.price_cny, part.price_date, now
                row.user_edited = True
                s.add(PriceHistoryRow(part_id=part.id, price_cny=part.price_cny,
                                      price_date=part.price_date, origin="import", recorded_at=now))


class BuildsRepository:
    def __init__(self, store: Store):
        self.store = store

    def save(self, name: str, data: dict[str, Any], build_id: int | None = None) -> int:
        now = datetime.now()
        with self.store.session() as s, s.begin():
            if build_id is not None:
                row = s.get(BuildRow, build_id)
                if row is None:
                    raise RepositoryError(Message("store", QT_TRANSLATE_NOOP(
                        "store", "The saved build {id} no longer exists."), {"id": build_id}))
                row.name, row.data, row.updated_at = name, data, now
                return row.id
            row = BuildRow(name=name, data=data, created_at=now, updated_at=now)
            s.add(row)
            s.flush()
            return row.id

    def list(self) -> list[SavedBuild]:
        with self.store.session() as s:
            rows = s.scalars(select(BuildRow).order_by(BuildRow.updated_at.desc()))
            return [SavedBuild(r.id, r.name, r.data, r.created_at, r.updated_at) for r in rows]

    def get(self, build_id: int) -> SavedBuild | None:
        with self.store.session() as s:
            r = s.get(BuildRow, build_id)
            return SavedBuild(r.id, r.name, r.data, r.created_at, r.updated_at) if r else None

    def delete(self, build_id: int) -> None:
        with self.store.session() as s, s.begin():
            r = s.get(BuildRow, build_id)
            if r is not None:
                s.delete(r)
