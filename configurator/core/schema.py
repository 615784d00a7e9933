"""The one schema library the records are declared with (pydantic v2), and what a field's declaration
carries besides its type: its bounds, its display precision and its JSON key.

A record is a frozen dataclass whose fields are annotated with the types below (``Count``, ``Positive``,
``Number`` …, each an ``Annotated`` of the base type, strict, with its bounds), optionally with a
:class:`Precision` (how ``--json`` rounds it) and a :func:`json_key` (its JSON name where that differs from the
attribute). :func:`record` marks it for validation; :class:`Schema` validates a mapping into the record
and turns the library's errors into :class:`Problem` (the path as the project writes it, ``parts[2].qty``,
``pcie_slots[0].from``, and what is wrong), which each caller words in its own translatable messages.

Why pydantic and not msgspec (measured in benchmarks/bench_scale.py): msgspec stops at the first bad
field and reports it as one English sentence; pydantic reports every bad field with a structured error
(kind, location, input, bounds), which is what a row of a shop's CSV or a build file needs to name each
problem in the user's language. msgspec validates a part about 4x faster (on a loaded 2-core machine: 5 µs
against 20 µs a record, 197k against 50k rows/s), but a 100k-row import spends about 140 µs a row on
reading the CSV and writing the database, so the CSV import is not the faster for it.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from annotated_types import Ge, Gt, Le, MaxLen

T = TypeVar("T")


# A field's display precision (Annotated metadata), defined without pydantic so that the command line's
# rounding reads it without importing the library (core/schema_precision.py).
from configurator.core.schema_precision import (  # noqa: E402
    CNY,
    COUNT,
    DECIMAL_1,
    DECLARED,
    FRACTION,
    GHZ,
    MB,
    MHZ,
    MM,
    SIZES,
    TARIFF,
    THROUGHPUT,
    WATTS,
    Precision,
    declare,
)

__all__ = ["CNY", "COUNT", "DECIMAL_1", "DECLARED", "FRACTION", "GHZ", "MB", "MHZ", "MM", "SIZES", "TARIFF",
           "THROUGHPUT", "WATTS", "Count", "Flag", "Number", "Positive", "PositiveNumber", "Precision", "Problem",
           "Schema", "SchemaError", "Text", "Unit", "json_key", "precisions", "record", "units"]

# The markers below are read by pydantic when a Schema is first made, not when a record is declared: a module
# that declares records (core/parts.py, which every command imports) does not import the library.


class _Strict:
    """Strict: JSON's true is not 1, "5" is not 5 (pydantic's ``Strict()``, without importing it here)."""

    def __get_pydantic_core_schema__(self, source: Any, handler: Callable[[Any], Any]) -> Any:
        schema = handler(source)
        schema["strict"] = True
        return schema

    def __repr__(self) -> str:
        return "Strict()"


@dataclass(frozen=True)
class JsonKey:
    """A field's JSON key where it differs from its attribute (``Annotated[..., json_key("from")]``)."""

    name: str


def json_key(name: str) -> JsonKey:
    return JsonKey(name)


@dataclass(frozen=True)
class Unit:
    """The unit a field's number is in, as shown beside it (``GiB``, ``TFLOPS``; ``slots``: translatable in
    the "parts" context)."""

    text: str


def units(cls: type[Any]) -> dict[str, str]:
    """The unit each field of a record declares (fields that declare none are left out)."""
    out: dict[str, str] = {}
    for name, hint in typing.get_type_hints(cls, include_extras=True).items():
        found = _metadata(hint, Unit)
        if found is not None:
            out[name] = found.text
    return out


_STRICT = _Strict()
# Field types: strict, every number finite and not negative.
Text = Annotated[str, _STRICT]
Flag = Annotated[bool, _STRICT]
Count = Annotated[int, _STRICT, Ge(0)]  # a whole number, zero or more
Positive = Annotated[int, _STRICT, Gt(0)]  # a whole number above zero (a zero is a data-entry mistake)
Number = Annotated[float, _STRICT, Ge(0)]  # a finite number, zero or more (an integer is taken)
PositiveNumber = Annotated[float, _STRICT, Gt(0)]


def record(cls: type[T]) -> type[T]:
    """Mark a dataclass as a record the schema validates: unknown keys refused, numbers finite, a field's
    :func:`json_key` its key. The display precision its fields declare is registered for ``--json``
    (:data:`DECLARED`)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    for name, precision in precisions(cls).items():
        declare(name, precision)
    keys = {name: key.name for name, hint in hints.items() if (key := _metadata(hint, JsonKey)) is not None}
    # pydantic's ConfigDict is a TypedDict: a plain dict here (what pydantic.with_config sets)
    config: dict[str, Any] = {"extra": "forbid", "allow_inf_nan": False}
    if keys:
        config["alias_generator"] = lambda name: keys.get(name, name)
    cls.__pydantic_config__ = config  # type: ignore[attr-defined]
    return cls


def precisions(cls: type[Any]) -> dict[str, Precision]:
    """The display precision each field of a record declares (fields that declare none are left out)."""
    out: dict[str, Precision] = {}
    for name, hint in typing.get_type_hints(cls, include_extras=True).items():
        found = _metadata(hint, Precision)
        if found is not None:
            out[name] = found
    return out


def _metadata(hint: Any, kind: type[T]) -> T | None:
    """The first ``kind`` in an annotation's metadata (looking through ``X | None``)."""
    if typing.get_origin(hint) is Annotated:
        for meta in hint.__metadata__:
            if isinstance(meta, kind):
                return meta
        return _metadata(typing.get_args(hint)[0], kind)
    for arg in typing.get_args(hint):
        if arg is not type(None):
            found = _metadata(arg, kind)
            if found is not None:
                return found
    return None


@dataclass(frozen=True)
class Problem:
    """One bad field as the schema found it: its path (``parts[2].qty``), the record type and field it is
    in, what is wrong (``missing``, ``unknown``, ``type``, ``choice``, ``positive``, ``negative``, ``bound``),
    the value given, and the bound or choices."""

    path: str
    loc: tuple[str | int, ...]
    owner: type[Any] | None
    field: str
    kind: str
    got: Any
    expected: Any = None


_KINDS = {
    "missing": "missing", "unexpected_keyword_argument": "unknown", "extra_forbidden": "unknown",
    "literal_error": "choice", "enum": "choice", "greater_than": "positive", "greater_than_equal": "negative",
    "less_than_equal": "bound", "less_than": "bound", "finite_number": "type", "too_long": "bound",
    "string_too_long": "bound",
}


def path_of(loc: tuple[str | int, ...], prefix: str = "") -> str:
    """``("pcie_slots", 0, "from")`` as ``pcie_slots[0].from``."""
    out = prefix
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out = f"{out}.{part}" if out else str(part)
    return out


class Schema(typing.Generic[T]):
    """A record type's validator: ``validate(mapping)`` gives the record, or raises :class:`SchemaError`
    listing every :class:`Problem`."""

    def __init__(self, tp: Any):
        self.type = tp
        self._adapter: Any = None

    @property
    def adapter(self) -> Any:
        """pydantic's validator of the type, made when first used (a command that validates nothing
        imports nothing of the library)."""
        if self._adapter is None:
            from pydantic import TypeAdapter

            self._adapter = TypeAdapter(self.type)
        return self._adapter

    def validate(self, data: Any) -> T:
        from pydantic import ValidationError

        try:
            return typing.cast(T, self.adapter.validate_python(data))
        except ValidationError as exc:
            raise SchemaError([self._problem(e) for e in exc.errors(include_url=False)]) from None

    def json_schema(self) -> dict[str, Any]:
        return typing.cast(dict[str, Any], self.adapter.json_schema(by_alias=True))

    def _problem(self, e: Any) -> Problem:
        loc = tuple(e["loc"])
        owner, field_name, tp = _walk(self.type, loc)
        kind = _KINDS.get(e["type"], "type")
        got = e.get("input")
        expected: Any = None
        if kind == "choice":
            expected = _choices(tp)
        elif kind == "bound":  # as declared (pydantic gives a float field's bound as a float)
            le, most = _metadata(tp, Le), _metadata(tp, MaxLen)
            expected = le.le if le is not None else most.max_length if most is not None else None
        elif kind in ("positive", "negative"):
            expected = next(iter((e.get("ctx") or {}).values()), None)
        elif kind == "type":
            expected = _base(tp)
        return Problem(path_of(loc), loc, owner, field_name, kind, got, expected)


class SchemaError(ValueError):
    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(f"{p.path}: {p.kind}" for p in problems))


def _fields(cls: type[Any]) -> dict[str, tuple[str, Any]]:
    """JSON key -> (attribute, annotation) of a record."""
    got = _FIELDS.get(cls)
    if got is None:
        hints = typing.get_type_hints(cls, include_extras=True)
        got = {}
        for f in dataclasses.fields(cls):
            hint = hints[f.name]
            alias = _alias(hint)
            got[alias or f.name] = (f.name, hint)
        _FIELDS[cls] = got
    return got


_FIELDS: dict[type[Any], dict[str, tuple[str, Any]]] = {}


def _alias(hint: Any) -> str | None:
    key = _metadata(hint, JsonKey)
    return key.name if key is not None else None


def _strip(tp: Any) -> Any:
    """The annotation without Annotated and None (``Annotated[int, ...] | None`` -> int)."""
    while True:
        if typing.get_origin(tp) is Annotated:
            tp = typing.get_args(tp)[0]
            continue
        args = typing.get_args(tp)
        if type(None) in args:
            tp = next(a for a in args if a is not type(None))
            continue
        return tp


def _walk(tp: Any, loc: tuple[str | int, ...]) -> tuple[type[Any] | None, str, Any]:
    """The record a location ends in, the field's name there and its annotation."""
    owner: type[Any] | None = None
    name = ""
    for part in loc:
        tp = _strip(tp)
        if isinstance(part, int):
            args = typing.get_args(tp)
            tp = args[0] if args else Any
            continue
        if dataclasses.is_dataclass(tp) and isinstance(tp, type):
            owner = tp
            name, tp = _fields(tp).get(part, (part, Any))
        else:
            name, tp = part, Any
    return owner, name, tp


def _choices(tp: Any) -> tuple[Any, ...]:
    tp = _strip(tp)
    return typing.get_args(tp) if typing.get_origin(tp) is typing.Literal else ()


def _base(tp: Any) -> Any:
    """What a type error expected: int, float, str, bool, list or a record type."""
    tp = _strip(tp)
    origin = typing.get_origin(tp)
    return origin or tp


def record_keys(cls: type[Any]) -> tuple[str, ...]:
    """The keys a record's mapping may have, in the order they are declared."""
    return tuple(_fields(cls))


def bounds_of(cls: type[Any]) -> dict[str, Any]:
    """Each field's declared upper bound (``Le``), by key."""
    out: dict[str, Any] = {}
    for key, (_name, hint) in _fields(cls).items():
        found = _metadata(hint, Le)
        if found is not None:
            out[key] = found.le
    return out


def int_fields(cls: type[Any]) -> frozenset[str]:
    """The fields of a record that hold whole numbers."""
    return frozenset(f.name for f in dataclasses.fields(cls)
                     if _base(typing.get_type_hints(cls, include_extras=True)[f.name]) is int)


Converter = Callable[[Mapping[str, Any]], Any]
