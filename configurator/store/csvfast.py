"""The CSV import's fast path for good rows.

part_from_dict validates through typing introspection (about 1 ms a row). A row is first tried
against checks compiled once per category, which accept exactly the rows part_from_dict accepts
and build the same record; anything they do not accept outright (a bad value, a field of the
wrong category, a missing one) goes to part_from_dict, so the messages stay the ones it gives.

A shop's file lists the same model many times (other sellers, other prices): the spec cells of a
row (everything but id, name, price, price date and source) are converted, checked and encoded as
the stored JSON once per distinct text, and reused by every later row with the same text.
"""

from __future__ import annotations

import dataclasses
import json
import math
import operator
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, Union

from configurator.core.parts import (  # the validator's own rules
    _POSITIVE,
    PART_TYPES,
    STORE_FIELDS,
    AnyPart,
    FieldError,
    _check_semantics,
    parse_text_value,
    today_iso,
)
from configurator.store.catalogue import ROW_FIELDS
from configurator.store.csvfile import GUARD, INT_LIMIT, MAX_DIGITS, has_surrogate, unguard_formula

SLOW = object()
LIST_CACHE = 4096  # distinct list-cell texts remembered per field
MEMO = 512  # distinct cell texts remembered per column of one file (specs repeat; ids and names do not)
_SKIP = object()  # a white-space cell: as if empty


class _SlowError(Exception):
    """This row needs the full validator."""


_TRUE_WORDS = {"true", "yes", "1", "y", "是", "有", "√"}
_FALSE_WORDS = {"false", "no", "0", "n", "否", "无", "×"}


def _unwrap(tp: Any) -> Any:
    if typing.get_origin(tp) in (Union, types.UnionType):
        return next(a for a in typing.get_args(tp) if a is not type(None))
    return tp


def _text_converter(name: str, tp: Any) -> Callable[[str], Any]:
    """A function from a CSV cell's text to the value part_from_dict would accept, else _SlowError."""
    tp = _unwrap(tp)
    origin = typing.get_origin(tp)
    positive = name in _POSITIVE
    if origin is Literal:
        choices = frozenset(typing.get_args(tp))

        def lit(text: str) -> Any:
            t = text.strip()
            if t in choices:
                return t
            raise _SlowError
        return lit
    if origin is list:
        hint = tp
        inner = typing.get_args(tp)[0]
        nested = _record_converter(inner) if dataclasses.is_dataclass(inner) else None

        # A shop's file repeats the same few slot lists and tag lists: convert each text once
        # (the records are frozen; every part gets its own list).
        seen: dict[str, list[Any] | None] = {}

        def listed(text: str) -> Any:
            if text in seen:
                got = seen[text]
            else:
                try:
                    got = convert_list(text)
                except _SlowError:
                    got = None
                if len(seen) >= LIST_CACHE:
                    seen.clear()
                seen[text] = got
            if got is None:
                raise _SlowError
            return list(got)

        def convert_list(text: str) -> list[Any]:
            value = parse_text_value(text, hint)
            if not isinstance(value, list) or has_surrogate(value):
                raise _SlowError
            if nested is None:
                if not all(type(v) is str for v in value):
                    raise _SlowError
                return value
            return [nested(v) for v in value]
        return listed
    if tp is str:
        def text_(text: str) -> Any:
            return (unguard_formula(text) if text[0] == GUARD else text).strip()
        return text_
    if tp is bool:
        def boolean(text: str) -> Any:
            low = text.strip().lower()
            if low in _TRUE_WORDS:
                return True
            if low in _FALSE_WORDS:
                return False
            raise _SlowError
        return boolean
    if tp is int:
        def integer(text: str) -> Any:
            if len(text) > MAX_DIGITS:
                raise _SlowError
            try:
                v = int(text)
            except ValueError:
                try:
                    v = int(text.strip().replace(",", "").replace("¥", "").replace("￥", ""))
                except ValueError:
                    raise _SlowError from None
            if v < 0 or (positive and v == 0) or v >= INT_LIMIT:
                raise _SlowError
            return v
        return integer
    if tp is float:
        def number(text: str) -> Any:
            if len(text) > MAX_DIGITS:
                raise _SlowError
            try:
                v = float(text)
            except ValueError:
                try:
                    v = float(text.strip().replace(",", ""))
                except ValueError:
                    raise _SlowError from None
            if not (0 <= v < math.inf) or (positive and v == 0):
                raise _SlowError
            return v
        return number
    raise TypeError(f"unsupported annotation {tp!r}")  # pragma: no cover - programming error


def _record_converter(cls: Any) -> Callable[[Any], Any]:
    """JSON (a slot of a board) to its record, accepting exactly what part_from_dict accepts."""
    hints = typing.get_type_hints(cls)
    renames = {"from": "source"}
    required = frozenset(f.name for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING
                         and f.default_factory is dataclasses.MISSING)
    checks: dict[str, tuple[Any, Any, bool]] = {}
    for name, tp in hints.items():
        base = _unwrap(tp)
        origin = typing.get_origin(base)
        checks[name] = (base if origin is None else origin, typing.get_args(base), name in _POSITIVE)

    def convert(d: Any) -> Any:
        if type(d) is not dict:
            raise _SlowError
        kw: dict[str, Any] = {}
        for key, v in d.items():
            attr = str(renames.get(key, key))
            check = checks.get(attr)
            if check is None:
                raise _SlowError
            base, args, positive = check
            if base is int:
                if type(v) is not int or v < 0 or (positive and v == 0):
                    raise _SlowError
            elif base is str:
                if type(v) is not str:
                    raise _SlowError
            elif base is Literal:
                if v not in args:
                    raise _SlowError
            elif base is list:
                if type(v) is not list or not all(type(x) is str for x in v):
                    raise _SlowError
                v = list(v)
            else:
                raise _SlowError
            kw[attr] = v
        if not required.issubset(kw):
            raise _SlowError
        return cls(**kw)
    return convert


@dataclass(frozen=True)
class _Compiled:
    cls: type[Any]
    converters: dict[str, Callable[[str], Any]]
    required: frozenset[str]
    spec_names: tuple[str, ...]
    plain: bool  # every value is JSON-plain (no slot records)


def _compile(category: str) -> _Compiled:
    cls = PART_TYPES[category]
    hints = typing.get_type_hints(cls)
    converters = {name: _text_converter(name, tp) for name, tp in hints.items() if name != "category"}
    plain = not any(typing.get_origin(_unwrap(tp)) is list and dataclasses.is_dataclass(
        typing.get_args(_unwrap(tp))[0]) for tp in hints.values())
    required = frozenset(f.name for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING
                         and f.default_factory is dataclasses.MISSING)
    spec_names = tuple(f.name for f in dataclasses.fields(cls) if f.name not in ROW_FIELDS)
    return _Compiled(cls, converters, required, spec_names, plain)


_COMPILED: dict[str, _Compiled] = {}


def _compiled(category: str) -> _Compiled:
    got = _COMPILED.get(category)
    if got is None:
        got = _COMPILED[category] = _compile(category)
    return got


def fast_part(category: str, cells: dict[str, str]) -> Any:
    """The part of a good row, or SLOW when the row needs the full validator (and its messages)."""
    comp = _compiled(category)
    converters = comp.converters
    kwargs: dict[str, Any] = {}
    try:
        for key, text in cells.items():
            if not text or key == "category":
                continue
            conv = converters.get(key)
            if conv is None:
                if text.strip() or not key:
                    return SLOW
                continue
            if text.isspace():
                continue
            kwargs[key] = conv(text)
    except _SlowError:
        return SLOW
    if not comp.required.issubset(kwargs):
        return SLOW
    errors: list[FieldError] = []
    _check_semantics(kwargs, errors)
    if errors:
        return SLOW
    try:
        return comp.cls(**kwargs)
    except TypeError:
        return SLOW



Field = tuple[str, Callable[[str], Any], "dict[str, Any] | None"]
Picker = Callable[[list[str]], tuple[str, ...]]

# Cells of a row that are not specs: converted on every row (ids and names do not repeat).
_PER_ROW = frozenset(ROW_FIELDS)
_UNIQUE = frozenset({"id", "name"})  # not worth remembering
SPEC_CACHE = 4096  # distinct spec texts remembered per file (all categories together, about 3 KiB each)


@dataclass(frozen=True)
class _Specs:
    values: dict[str, Any]  # the converted spec fields the row gives
    json: str  # the stored specs column of a part with these values
    need: frozenset[str]  # required fields that the row's own cells must give


class Listing(NamedTuple):
    """A good row as the fast path read it: what an import writes, and the record on demand.

    A new part is written from these fields alone; building the record (40 fields for a GPU) is
    left to the rows that meet a stored part of the same id."""

    id: str
    category: str
    name: str
    price_cny: int
    price_date: str
    source: str
    specs_json: str
    cls: type[Any]
    row: dict[str, Any]  # the row's own fields (id, name, price, price date, source)
    spec: dict[str, Any]  # its spec fields (shared by the rows with the same spec cells)

    def part(self) -> AnyPart:
        kwargs = {k: (list(v) if type(v) is list else v) for d in (self.row, self.spec) for k, v in d.items()}
        return typing.cast(AnyPart, self.cls(**kwargs))


@dataclass
class _Plan:
    """Where a category's fields are in one file's header (the fast path works on the row's list)."""

    comp: _Compiled
    # (field, converter, memo of text -> value): the row's own cells and its spec cells; a memo is
    # None for list fields (each part gets its own list) and for ids and names
    row_fields: tuple[Field, ...]
    row_cells: Picker
    spec_fields: tuple[Field, ...]
    spec_cells: Picker
    others: Picker  # cells that must be empty (other categories' fields, store flags)
    lists: tuple[str, ...]  # spec fields whose values are lists
    specs: dict[str, _Specs] = dataclasses.field(default_factory=dict)  # spec cells' texts -> converted


def _picker(indices: list[int]) -> Picker:
    if len(indices) > 1:
        return operator.itemgetter(*indices)
    return lambda rec: tuple(rec[i] for i in indices)


def _plan(category: str, header: list[str]) -> _Plan:
    comp = _compiled(category)
    fields: dict[bool, list[Field]] = {True: [], False: []}
    cells: dict[bool, list[int]] = {True: [], False: []}
    hints = typing.get_type_hints(comp.cls)
    others: list[int] = []
    lists: list[str] = []
    for i, key in enumerate(header):
        if key == "category":
            continue
        conv = comp.converters.get(key)
        if conv is None or key in STORE_FIELDS:
            others.append(i)
            continue
        listed = typing.get_origin(_unwrap(hints[key])) is list
        if listed:
            lists.append(key)
        per_row = key in _PER_ROW
        fields[per_row].append((key, conv, None if listed or key in _UNIQUE else {}))
        cells[per_row].append(i)
    return _Plan(comp, tuple(fields[True]), _picker(cells[True]), tuple(fields[False]), _picker(cells[False]),
                 _picker(others), tuple(lists))


def _fill(kwargs: dict[str, Any], fields: tuple[Field, ...], texts: tuple[str, ...]) -> None:
    """Convert the cells into ``kwargs`` (an empty or white-space cell is left out); raises _SlowError."""
    for (key, conv, memo), text in zip(fields, texts, strict=True):
        if not text:
            continue
        if memo is None:
            if not text.isspace():
                kwargs[key] = conv(text)
            continue
        value = memo.get(text, SLOW)
        if value is SLOW:
            value = _SKIP if text.isspace() else conv(text)
            if len(memo) < MEMO:
                memo[text] = value
        if value is not _SKIP:
            kwargs[key] = value


# Values _check_semantics has passed once pass again: a shop's file repeats its dates and sources.
_REPEATING = ("price_date", "source")


class FastRows:
    """Good rows of one file straight from their cells, each with its specs' stored JSON.

    ``part`` takes a row with exactly the header's width and no NUL in any cell, and gives the
    listing of the record part_from_dict would build, or None: the row needs the full validator. The header has
    no repeated column names (the cells are read by position).
    """

    def __init__(self, header: list[str]):
        self.header = header
        self.category_at = header.index("category")
        self._plans: dict[str, _Plan] = {}
        self._passed: dict[str, set[Any]] = {k: set() for k in _REPEATING}
        self._remembered = 0

    def part(self, rec: list[str]) -> Listing | None:
        category = rec[self.category_at].strip()
        plan = self._plans.get(category)
        if plan is None:
            if category not in PART_TYPES:
                return None
            plan = self._plans[category] = _plan(category, self.header)
        if any(plan.others(rec)):
            return None
        spec_texts = plan.spec_cells(rec)
        key = "\0".join(spec_texts)  # unambiguous: no cell holds a NUL
        known = plan.specs.get(key)
        row: dict[str, Any] = {}
        spec: dict[str, Any] = {}
        try:
            _fill(row, plan.row_fields, plan.row_cells(rec))
            if known is None:
                _fill(spec, plan.spec_fields, spec_texts)
        except _SlowError:
            return None
        comp = plan.comp
        # The row's own fields a user's part may leave out: their defaults, as the record takes them.
        if "source" not in row:
            row["source"] = ""
        if "price_date" not in row:
            row["price_date"] = today_iso()
        if known is None:
            checked = {**row, **spec}  # no field is in both
            if not comp.required.issubset(checked):
                return None
        else:
            # Each semantic check reads one field: spec values that passed once pass again.
            if not known.need.issubset(row):
                return None
            checked = row
        passed = self._passed
        drop = [k for k in _REPEATING if k in checked and checked[k] in passed[k]]
        errors: list[FieldError] = []
        _check_semantics({k: v for k, v in checked.items() if k not in drop} if drop else checked, errors)
        if errors:
            return None
        if known is None:
            try:
                part = comp.cls(**checked)
            except TypeError:
                return None
            encoded = json.dumps(fast_specs(part))
            if self._remembered < SPEC_CACHE:
                self._remembered += 1
                known = plan.specs[key] = _Specs(
                    {k: (list(v) if type(v) is list else v) for k, v in spec.items()}, encoded,
                    comp.required.difference(spec))
            else:
                known = _Specs(spec, encoded, frozenset())
        for k in _REPEATING:
            passed[k].add(row[k])
        return Listing(row["id"], comp.cls.category, row["name"], row["price_cny"], row["price_date"],
                       row["source"], known.json, comp.cls, row, known.values)


_RECORD_KEYS: dict[type[Any], tuple[tuple[str, str], ...] | None] = {}


def _plain_value(v: Any) -> Any:
    if isinstance(v, list):
        return [_plain_value(x) for x in v]
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        keys = tuple(("from" if f.name == "source" else f.name, f.name) for f in dataclasses.fields(v))
        return {key: _plain_value(getattr(v, attr)) for key, attr in keys}
    return v


def _flat_keys(cls: type[Any]) -> tuple[tuple[str, str], ...] | None:
    """(JSON key, attribute) of a record whose fields are all plain values or lists of them, else None."""
    if cls not in _RECORD_KEYS:
        flat = True
        for tp in typing.get_type_hints(cls).values():
            base = _unwrap(tp)
            inner = typing.get_args(base) if typing.get_origin(base) is list else (base,)
            if any(dataclasses.is_dataclass(t) or (typing.get_origin(t) is not None and typing.get_origin(t)
                   is not Literal) for t in inner):
                flat = False
        _RECORD_KEYS[cls] = tuple(("from" if f.name == "source" else f.name, f.name)
                                  for f in dataclasses.fields(cls)) if flat else None
    return _RECORD_KEYS[cls]


def _flat_record(v: Any) -> Any:
    """A slot record as specs_of writes it."""
    keys = _flat_keys(type(v))
    if keys is None:
        return _plain_value(v)
    return {key: (list(x) if type(x) is list else x) for key, attr in keys for x in (getattr(v, attr),)}


def fast_specs(part: AnyPart) -> dict[str, Any]:
    """specs_of(part) without the generic walk."""
    comp = _compiled(part.category)
    if comp.plain:
        return {name: (list(v) if isinstance(v := getattr(part, name), list) else v) for name in comp.spec_names}
    out: dict[str, Any] = {}
    for name in comp.spec_names:
        v = getattr(part, name)
        if type(v) is list:
            v = [_flat_record(x) if dataclasses.is_dataclass(x) else x for x in v] if v else []
        elif dataclasses.is_dataclass(v):
            v = _plain_value(v)
        out[name] = v
    return out
