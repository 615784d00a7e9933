"""Reading and writing parts and builds. Every database write goes through here."""

from __future__ import annotations

import contextlib
import heapq
import json
import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any, Protocol

from sqlalchemy import Text, func, literal_column, or_, select, type_coerce
from sqlalchemy.engine import Connection

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import (
    AnyPart,
    FieldError,
    PartValidationError,
    part_from_dict,
    part_from_trusted,
)
from configurator.core.search import Term, parse_search
from configurator.store.catalogue import specs_of
from configurator.store.database import Store
from configurator.store.tables import BuildRow, PartRow, PriceHistoryRow

log = logging.getLogger(__name__)

PARTS = PartRow.__table__
_HISTORY = PriceHistoryRow.__table__
# The specs column as its stored text: SQLAlchemy's JSON type decodes it while fetching, so one row
# whose JSON is damaged would make the whole query raise before any of our code sees it.
SPECS_TEXT = type_coerce(PARTS.c.specs, Text).label("specs")
ROW_COLUMNS = (PARTS.c.id, PARTS.c.category, PARTS.c.name, PARTS.c.price_cny, PARTS.c.price_date,
               PARTS.c.source, SPECS_TEXT, PARTS.c.custom, PARTS.c.user_edited)
PARTS_ROWID: Any = literal_column("parts.rowid")
BATCH = 1000
_EXISTING = ("SELECT id, category, name, price_cny, price_date, source, specs, custom, user_edited"
             " FROM parts WHERE id IN")


class RepositoryError(ValueError):
    def __init__(self, message: Message):
        self.message = message
        super().__init__(message.render())


class ImportRow(Protocol):
    """What an import writes of a new part (a part record)."""

    @property
    def id(self) -> str: ...
    @property
    def category(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def price_cny(self) -> int: ...
    @property
    def price_date(self) -> str: ...
    @property
    def source(self) -> str: ...


@dataclass(frozen=True)
class Unreadable:
    """A part row the database holds but that cannot be turned into a part (damaged or invalid)."""

    id: str
    reason: str


def _row_dict(row: Any) -> dict[str, Any]:
    """A flat part mapping from a parts row (ORM object or a row of ROW_COLUMNS).

    Raises ValueError (json.JSONDecodeError included) when the specs are not a JSON object.
    """
    specs = row.specs
    if isinstance(specs, (str, bytes)):
        specs = json.loads(specs)
    if not isinstance(specs, dict):
        raise ValueError(f"specs are a {type(specs).__name__}, not an object")
    d: dict[str, Any] = {
        "id": row.id,
        "category": row.category,
        "name": row.name,
        "price_cny": row.price_cny,
        "price_date": row.price_date,
        "source": row.source,
    }
    d.update(specs)
    d["custom"] = bool(row.custom)
    d["user_edited"] = bool(row.user_edited)
    return d


def decode_row(row: Any) -> AnyPart | Unreadable:
    try:
        return part_from_trusted(_row_dict(row))
    except PartValidationError as exc:
        return Unreadable(str(row.id), str(exc))
    except (ValueError, TypeError, RecursionError) as exc:  # damaged JSON, a wrong type
        return Unreadable(str(row.id), f"{type(exc).__name__}: {exc}")


def row_to_part(row: Any, unreadable: list[Unreadable] | None = None) -> AnyPart | None:
    got = decode_row(row)
    if isinstance(got, Unreadable):
        # INFO: the log keeps the reason; the user is told once, by the caller (unreadable_message).
        log.info("part %s in the database cannot be read and was skipped: %s", got.id, got.reason)
        if unreadable is not None:
            unreadable.append(got)
        return None
    return got


def unreadable_message(unreadable: Sequence[Unreadable], limit: int = 10) -> Message:
    """'3 parts could not be read and are not shown: a, b, c' (the first ``limit`` ids)."""
    ids = ", ".join(u.id for u in unreadable[:limit])
    if len(unreadable) > limit:
        ids += ", …"
    return Message("store", QT_TRANSLATE_NOOP(
        "store", "{n} parts in the database could not be read and are left out: {ids}"),
        {"n": len(unreadable), "ids": ids})


@dataclass(frozen=True)
class PartQuery:
    """What the Parts tab shows: a category, search words, and an order (a field, up or down)."""

    category: str | None = None
    words: tuple[str, ...] = ()
    sort: str = "name"
    descending: bool = False


_ROW_SORT = {"id", "category", "name", "price_cny", "price_date"}


def readable(store: Store, stmt: Any) -> Any:
    """``stmt`` without the parts rows found damaged at open (``Store.skipped``): named once there, and a
    value that is not UTF-8 would end the query that fetched it."""
    skip = store.skipped("parts")
    return stmt.where(PARTS_ROWID.not_in(skip)) if skip else stmt


def skip_sql(store: Store) -> str:
    """``readable`` for plain SQL: `` AND rowid NOT IN (…)`` or nothing."""
    skip = store.skipped("parts")
    return f" AND rowid NOT IN ({', '.join(map(str, skip))})" if skip else ""


def query_where(stmt: Any, q: PartQuery, category_words: dict[str, set[str]] | None = None) -> Any:
    """Filter by category and by every search term (core.search): a number matches the size fields it
    can name (VRAM, capacity, watts, cores) or a whole number in the name ("4090"); "24gb", "850w", "2tb"
    only those fields; "nvlink", "ecc"... the capability; "gen4" the PCIe generation; any other word the
    id, name, category or price, or one of the spec values (not the keys)."""
    if q.category:
        stmt = stmt.where(PARTS.c.category == q.category)
    if q.words:
        for term in parse_search(" ".join(q.words)):
            cond = _term_condition(term)
            cats = (category_words or {}).get(term.word)
            if cats:
                cond = or_(cond, PARTS.c.category.in_(sorted(cats)))
            stmt = stmt.where(cond)
    return stmt


def _spec(field: str) -> Any:
    return func.json_extract(SPECS_TEXT, "$." + field)


def _in_text(text: str) -> Any:
    """A cheap test first: the specs' text holds ``text`` (a key, a number), before SQLite parses the JSON."""
    return func.instr(SPECS_TEXT, text) > 0


def _term_condition(term: Term) -> Any:
    if term.kind == "number":
        value = int(term.value) if term.value.is_integer() else term.value
        conds = [_in_text(str(value)) & or_(*[_spec(f) == value for f in term.fields])]
        if term.in_name:  # a whole number in the name: "4090" in "RTX 4090 D", not "24" in "RTX 2400"
            name = func.lower(PARTS.c.name)
            n = term.word
            conds += [name == n, name.op("GLOB")(f"{n}[^0-9.]*"), name.op("GLOB")(f"*[^0-9.]{n}"),
                      name.op("GLOB")(f"*[^0-9.]{n}[^0-9.]*")]
        return or_(*conds)
    if term.kind == "flag":
        return _in_text(f'"{term.fields[0]}"') & (_spec(term.fields[0]) == 1)
    if term.kind == "gen":
        gen = int(term.value)
        slots = func.json_each(SPECS_TEXT, "$.pcie_slots").table_valued("value").alias("slot")
        in_slots = select(1).select_from(slots).where(func.json_extract(slots.c.value, "$.gen") == gen)
        return _in_text('gen"') & or_(_spec("pcie_gen") == gen, in_slots.exists())
    word = term.word
    row_text = func.lower(PARTS.c.id + " " + PARTS.c.name + " " + PARTS.c.category + " "
                          + func.cast(PARTS.c.price_cny, Text))
    like = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    each = func.json_each(SPECS_TEXT).table_valued("value").alias("v")
    in_specs = select(1).select_from(each).where(func.lower(each.c.value).like(like, escape="\\"))
    return or_(row_text.like(like, escape="\\"), func.lower(SPECS_TEXT).like(like, escape="\\") & in_specs.exists())


def order_by_query(q: PartQuery) -> list[Any]:
    if q.sort in _ROW_SORT:
        col: Any = PARTS.c[q.sort]
    else:
        col = func.json_extract(SPECS_TEXT, "$." + q.sort) if q.sort.isidentifier() else PARTS.c.name
    if q.sort in ("name", "id", "category", "price_date") or not q.sort.isidentifier():
        col = func.lower(col)
    if q.descending:
        return [col.desc(), PARTS.c.id.desc()]
    return [col.asc(), PARTS.c.id.asc()]


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
    def iter_parts(self, category: str | None = None, unreadable: list[Unreadable] | None = None,
                   batch: int = BATCH) -> Iterator[AnyPart]:
        """Every readable part, by category then id, read in batches (bounded memory).

        A row that cannot be read (damaged JSON, fails validation) is logged, added to
        ``unreadable`` and skipped: one bad row never stops the rest.
        """
        stmt = readable(self.store, select(*ROW_COLUMNS).order_by(PARTS.c.category, PARTS.c.id))
        if category:
            stmt = stmt.where(PARTS.c.category == category)
        with self.store.engine.connect() as con:
            result = con.execution_options(yield_per=batch).execute(stmt)
            for rows in result.partitions(batch):
                for row in rows:
                    part = row_to_part(row, unreadable)
                    if part is not None:
                        yield part

    def list_parts(self, category: str | None = None, unreadable: list[Unreadable] | None = None
                   ) -> list[AnyPart]:
        return list(self.iter_parts(category, unreadable))

    def cheapest_of_each_spec(self, gpu_listings: int, unreadable: list[Unreadable] | None = None
                              ) -> list[AnyPart]:
        """Suggest's candidates: of the parts with the same category and the same stored specifications
        (names, ids and prices aside), only the cheapest, or for GPUs the ``gpu_listings`` cheapest (by
        price, then id). Suggest's pruning keeps at most that many parts of one profile, and a profile
        is coarser than the specifications, so it keeps the same parts from these as from every part:
        a shop's 100,000 listings of a few hundred products become a few thousand records. The
        specifications are compared as stored text (no JSON is parsed, so a damaged row is simply its
        own group and is skipped with a note, as in iter_parts)."""
        def need(category: str) -> int:
            return max(1, gpu_listings) if category == "gpu" else 1

        cheapest: dict[tuple[str, str], list[tuple[int, str]]] = {}  # (category, specs) → (price, id)
        with self.store.engine.connect() as con:
            for category, specs, price, part_id in con.execute(readable(self.store, select(
                    PARTS.c.category, SPECS_TEXT, PARTS.c.price_cny, PARTS.c.id))):
                listed = cheapest.setdefault((category, specs), [])
                listed.append((price, part_id))
                if len(listed) > 4 * need(category):  # bounded memory: trim to the cheapest now and then
                    listed[:] = heapq.nsmallest(need(category), listed)
            ids = sorted(part_id for (category, _specs), listed in cheapest.items()
                         for _price, part_id in heapq.nsmallest(need(category), listed))
            rows = [row for start in range(0, len(ids), BATCH) for row in con.execute(
                select(*ROW_COLUMNS).where(PARTS.c.id.in_(ids[start:start + BATCH])))]
        rows.sort(key=lambda r: (r.category, r.id))
        return [part for row in rows if (part := row_to_part(row, unreadable)) is not None]

    def get(self, part_id: str, unreadable: list[Unreadable] | None = None) -> AnyPart | None:
        with self.store.engine.connect() as con:
            row = con.execute(readable(self.store, select(*ROW_COLUMNS).where(PARTS.c.id == part_id))).first()
        return row_to_part(row, unreadable) if row is not None else None

    def count(self, query: PartQuery | None = None, category_words: dict[str, set[str]] | None = None) -> int:
        stmt = query_where(readable(self.store, select(func.count()).select_from(PARTS)), query or PartQuery(),
                            category_words)
        with self.store.engine.connect() as con:
            return int(con.execute(stmt).scalar_one())

    def counts_by_category(self) -> dict[str, int]:
        stmt = readable(self.store, select(PARTS.c.category, func.count())).group_by(PARTS.c.category)
        with self.store.engine.connect() as con:
            return {str(c): int(n) for c, n in con.execute(stmt)}

    def page(self, query: PartQuery, offset: int, limit: int,
             category_words: dict[str, set[str]] | None = None) -> list[Any]:
        """Raw rows (ROW_COLUMNS) of one page of a query, in its order; decode them with decode_row."""
        stmt = query_where(readable(self.store, select(*ROW_COLUMNS)), query, category_words).order_by(
            *order_by_query(query))
        stmt = stmt.offset(offset).limit(limit)
        with self.store.engine.connect() as con:
            return list(con.execute(stmt))

    def position(self, query: PartQuery, part_id: str,
                 category_words: dict[str, set[str]] | None = None) -> int | None:
        """Where a part is in a query's order (0-based), or None if the query leaves it out."""
        rank = func.row_number().over(order_by=order_by_query(query)).label("rank")
        inner = query_where(readable(self.store, select(PARTS.c.id, rank)), query, category_words).subquery()
        with self.store.engine.connect() as con:
            got = con.execute(select(inner.c.rank).where(inner.c.id == part_id)).scalar()
        return None if got is None else int(got) - 1

    def damaged_ids(self) -> list[str]:
        """Ids of the parts rows found damaged when the database was opened (``Store.damaged_rows``) and of
        those whose specs are not valid JSON now (found by SQLite, without reading every part)."""
        stmt = readable(self.store, select(PARTS.c.id).where(func.json_valid(SPECS_TEXT) == 0))
        with self.store.engine.connect() as con:
            now = {str(r[0]) for r in con.execute(stmt)}
        return sorted(now | {r.id for r in self.store.damaged_rows if r.table == "parts"})

    def existing(self, ids: Iterable[str], con: Connection | None = None) -> dict[str, AnyPart | Unreadable]:
        """The stored parts among ``ids`` (for an import: what each row would change)."""
        ids = list(ids)
        out: dict[str, AnyPart | Unreadable] = {}
        with contextlib.ExitStack() as stack:
            if con is None:
                con = stack.enter_context(self.store.engine.connect())
            for i in range(0, len(ids), 500):
                chunk = ids[i:i + 500]
                # Plain SQL: compiling an IN of 500 bound values costs more than running it.
                rows = con.exec_driver_sql(f"{_EXISTING} ({', '.join('?' * len(chunk))}){skip_sql(self.store)}",
                                           tuple(chunk))
                for row in rows:
                    out[str(row.id)] = decode_row(row)
        wanted = set(ids)
        for damaged in self.store.damaged_rows:  # there, but unreadable: an import replaces it
            if damaged.table == "parts" and damaged.id in wanted:
                out[damaged.id] = Unreadable(damaged.id, "damaged")
        return out

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

    def write_import_batch(self, con: Connection, new_parts: Sequence[ImportRow], price_updates: Sequence[AnyPart],
                           replaced: Sequence[AnyPart], now: datetime,
                           encode: Callable[[Any], str] | None = None) -> None:
        """One batch of an import inside the caller's transaction: plain executemany, no ORM objects.

        ``encode`` gives a part's specs column (JSON text); by default ``json.dumps(specs_of(part))``."""
        encode = encode or _encode_specs
        stamp = now.strftime("%Y-%m-%d %H:%M:%S.%f")  # SQLAlchemy's SQLite DATETIME text
        if new_parts:
            con.exec_driver_sql(
                "INSERT INTO parts (id, category, name, specs, price_cny, price_date, source, user_edited, custom,"
                " catalogue_price_cny, catalogue_price_date, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 1,"
                " NULL, NULL, ?)",
                [(p.id, p.category, p.name, encode(p), p.price_cny, p.price_date, p.source, stamp)
                 for p in new_parts])
        if replaced:
            con.exec_driver_sql(
                "UPDATE parts SET name = ?, specs = ?, source = ?, price_cny = ?, price_date = ?, updated_at = ?"
                " WHERE id = ?",
                [(p.name, encode(p), p.source, p.price_cny, p.price_date, stamp, p.id)
                 for p in replaced])
        if price_updates:
            con.exec_driver_sql(
                "UPDATE parts SET price_cny = ?, price_date = ?, updated_at = ?, user_edited = 1 WHERE id = ?",
                [(p.price_cny, p.price_date, stamp, p.id) for p in price_updates])
        history = [*new_parts, *replaced, *price_updates]
        if history:
            con.exec_driver_sql(
                "INSERT INTO price_history (part_id, price_cny, price_date, origin, recorded_at)"
                " VALUES (?, ?, ?, 'import', ?)",
                [(p.id, p.price_cny, p.price_date, stamp) for p in history])


def _encode_specs(part: Any) -> str:
    return json.dumps(specs_of(part))


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
