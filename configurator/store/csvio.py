"""Parts as CSV: export every part, import a user's file all-or-nothing.

Import reads UTF-8, UTF-8 with BOM or GB18030 (what Excel on a Chinese
Windows writes; only when the text looks Chinese, so a Latin-1 file is refused
rather than read as gibberish), or an encoding the caller names, with comma,
semicolon or tab separators and any line endings (CR-only too). Every row is
validated; every bad row is reported with its line number; nothing is written
unless all rows are good. New ids become custom parts; a catalogue part's row
may change only its price and price date; a custom part's row replaces it.

The file is streamed: rows are validated one by one and written in batches
(executemany) into one transaction, which is rolled back if any row is bad, so
memory stays bounded with a shop's 100,000-row file.

Export guards against formula injection (OWASP): a text cell that starts with
``= + - @``, a tab or a CR is written with a leading ``'`` so a spreadsheet
shows it as text; numbers are written as numbers. Import takes the guard off
text cells again, so an export imports back unchanged.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import dataclasses
import io
import itertools
import json
import math
import operator
import os
import re
import tempfile
import types
import typing
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any, Literal, Union

from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import (  # the validator's own rules
    _POSITIVE,
    CATEGORIES,
    PART_TYPES,
    STORE_FIELDS,
    AnyPart,
    FieldError,
    PartValidationError,
    _check_semantics,
    parse_text_value,
    part_from_dict,
    part_to_dict,
    spec_field_names,
)
from configurator.store.catalogue import ROW_FIELDS, specs_of
from configurator.store.repository import PartsRepository, Unreadable

HEAD = ["id", "category", "name", "brand", "price_cny", "price_date", "source", "launch_year", "notes"]


def csv_columns() -> list[str]:
    cols = list(HEAD)
    for cat in CATEGORIES:
        for name in spec_field_names(cat):
            if name not in cols and name not in STORE_FIELDS:
                cols.append(name)
    return cols


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
GUARD = "'"
CHUNK = 1 << 20
BATCH = 1000
MAX_DIGITS = 40  # a cell with more digits than this is no price or spec (int() refuses > 4,300)
INT_LIMIT = 2 ** 63  # SQLite's INTEGER


def guard_formula(text: str) -> str:
    """A text cell as a spreadsheet must show it: text, never a formula (OWASP CSV injection)."""
    if text.startswith(FORMULA_START) or text.startswith(GUARD):
        return GUARD + text
    return text


def unguard_formula(text: str) -> str:
    """Undo :func:`guard_formula` (a user's own leading quote before plain text is kept)."""
    if len(text) > 1 and text[0] == GUARD and text[1:].startswith((*FORMULA_START, GUARD)):
        return text[1:]
    return text


def _export_cell(value: Any) -> str:
    if isinstance(value, str):
        return guard_formula(value)
    return _cell(value)


@contextlib.contextmanager
def atomic_text_writer(path: Path, encoding: str = "utf-8") -> Iterator[IO[str]]:
    """A text file written beside the target, replacing it only once complete."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_atomic(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write beside the target, then replace it: a crash never leaves half a file."""
    with atomic_text_writer(path, encoding) as f:
        f.write(text)


def export_csv(parts: Iterable[AnyPart], path: Path) -> int:
    """Write the parts (a list or a stream) atomically; UTF-8 with BOM so that Excel shows Chinese."""
    cols = csv_columns()
    n = 0
    with atomic_text_writer(path) as f:
        f.write("\ufeff")
        w = csv.writer(f, lineterminator="\r\n")
        w.writerow(cols)
        for part in parts:
            d = part_to_dict(part)
            w.writerow([_export_cell(d.get(k)) for k in cols])
            n += 1
    return n


# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RowError:
    line: int
    error: FieldError

    def render(self, translate: Any = None) -> str:
        return f"{self.line}: {self.error.render(translate)}"


class CsvImportError(ValueError):
    def __init__(self, errors: list[RowError]):
        self.errors = errors
        super().__init__("\n".join(e.render() for e in errors))


@dataclass
class ImportResult:
    added: list[str] = field(default_factory=list)
    prices_updated: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)


def _m(template: str, **params: Any) -> Message:
    return Message("csv", template, params)


def _file_error(line: int, template: str, **params: Any) -> CsvImportError:
    return CsvImportError([RowError(line, FieldError("file", _m(template, **params)))])


def _line_at(prefix: bytes) -> int:
    """The 1-based line a byte offset is on (CR-only files count their CRs)."""
    lf = prefix.count(b"\n")
    return 1 + (lf if lf else prefix.count(b"\r"))


_NOT_ASCII = re.compile(r"[^\x00-\x7f]")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")


def _looks_chinese(chars: dict[str, int]) -> bool:
    """Text decoded as GB18030 is Chinese if most of its non-ASCII characters are in GB2312 (the
    common simplified set). Latin-1 text read as GB18030 gives rare ideographs (an accented letter
    and the ASCII letter after it make one GBK-extension character)."""
    total = sum(chars.values())
    if total == 0:
        return True
    common = 0
    cjk = 0
    for ch, n in chars.items():
        try:
            ch.encode("gb2312")
        except UnicodeEncodeError:
            continue
        common += n
        if _CJK.match(ch):
            cjk += n
    return cjk > 0 and common >= 0.9 * total


def _try_decode(path: Path, encoding: str, sample: dict[str, int] | None = None) -> int | None:
    """Stream the file through a strict decoder: None if it all decodes, else the line of the first bad byte."""
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    lf = cr = 0
    with open(path, "rb") as f:
        while True:
            chunk = f.read(CHUNK)
            try:
                text = decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as exc:
                before = chunk[:max(exc.start, 0)]
                lf, cr = lf + before.count(b"\n"), cr + before.count(b"\r")
                return 1 + (lf if lf else cr)
            if sample is not None and len(sample) < 20000:
                for ch in _NOT_ASCII.findall(text):
                    sample[ch] = sample.get(ch, 0) + 1
            if not chunk:
                return None
            lf, cr = lf + chunk.count(b"\n"), cr + chunk.count(b"\r")


KNOWN_ENCODINGS = ("utf-8", "gb18030", "latin-1", "cp1252")


def detect_encoding(path: Path, encoding: str | None = None) -> str:
    """The encoding to read ``path`` with; raises CsvImportError with the first undecodable line."""
    if encoding:
        try:
            name = codecs.lookup(encoding).name
        except LookupError:
            raise _file_error(0, QT_TRANSLATE_NOOP(
                "csv", "unknown encoding {encoding!r}: use one of {choices}"), encoding=encoding,
                choices=", ".join(KNOWN_ENCODINGS)) from None
        name = "utf-8-sig" if name == "utf-8" else name
        bad = _try_decode(path, name)
        if bad is not None:
            raise _file_error(bad, QT_TRANSLATE_NOOP(
                "csv", "is not {encoding} text (this line has a byte that is not): check the encoding"),
                encoding=encoding)
        return name
    bad_utf8 = _try_decode(path, "utf-8-sig")
    if bad_utf8 is None:
        return "utf-8-sig"
    chars: dict[str, int] = {}
    if _try_decode(path, "gb18030", chars) is None and _looks_chinese(chars):
        return "gb18030"
    raise _file_error(bad_utf8, QT_TRANSLATE_NOOP(
        "csv", "the file is not UTF-8 or GB18030 (this line has a byte that is neither): save it as CSV "
        "UTF-8 and try again, or name its encoding (configurator parts import --encoding cp1252)"))


def decode(raw: bytes) -> str:
    """Bytes to text the way import does (UTF-8, then GB18030 when it looks Chinese)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = _line_at(raw[:exc.start])
    try:
        text = raw.decode("gb18030")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        chars: dict[str, int] = {}
        for ch in _NOT_ASCII.findall(text):
            chars[ch] = chars.get(ch, 0) + 1
        if _looks_chinese(chars):
            return text
    raise _file_error(bad, QT_TRANSLATE_NOOP(
        "csv", "the file is not UTF-8 or GB18030 (this line has a byte that is neither): save it as CSV "
        "UTF-8 and try again, or name its encoding (configurator parts import --encoding cp1252)"))


def _dialect(first_line: str) -> type[csv.Dialect]:
    delimiter = max(",;\t", key=first_line.count) if first_line else ","

    class Dialect(csv.excel):
        pass

    Dialect.delimiter = delimiter
    return Dialect


_MSG_FIELD_LIMIT = QT_TRANSLATE_NOOP(
    "csv", "has a cell longer than {limit} KiB, the most a cell may hold (is this a parts CSV?); "
    "nothing after it was read")
_MSG_CSV = QT_TRANSLATE_NOOP("csv", "cannot be read as CSV: {error}; nothing after it was read")


def iter_records(stream: IO[str]) -> Iterator[tuple[int, list[str]] | RowError]:
    """(line, cells) for each non-empty record, or a RowError where the CSV cannot be read (the last item)."""
    head = stream.readline()
    first = re.split(r"\r\n|\r|\n", head, maxsplit=1)[0]
    rest = itertools.chain([head] if head else [], stream)
    reader = csv.reader(rest, _dialect(first))
    while True:
        try:
            rec = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            line = max(reader.line_num, 1)
            if "field larger than field limit" in str(exc):
                yield RowError(line, FieldError("row", _m(_MSG_FIELD_LIMIT, limit=csv.field_size_limit() // 1024)))
            else:
                yield RowError(line, FieldError("row", _m(_MSG_CSV, error=str(exc))))
            return
        except UnicodeDecodeError:
            yield RowError(reader.line_num + 1, FieldError("file", _m(QT_TRANSLATE_NOOP(
                "csv", "this line has a byte the encoding cannot read: check the encoding"))))
            return
        yield reader.line_num, rec


def read_rows(text: str) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    """Header and rows of CSV text in memory (small files, tests)."""
    header: list[str] = []
    rows: list[tuple[int, dict[str, str]]] = []
    for item in iter_records(io.StringIO(text, newline="")):
        if isinstance(item, RowError):
            raise CsvImportError([item])
        line, rec = item
        if not header:
            header = [h.strip() for h in rec]
            continue
        if not any(c.strip() for c in rec):
            continue
        rows.append((line, {header[i]: c for i, c in enumerate(rec) if i < len(header)}))
        if len(rec) > len(header):
            rows[-1][1]["\0extra"] = str(len(rec) - len(header))
    return header, rows


def _base_type(tp: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        return _base_type(inner[0])
    if origin is Literal:
        return str
    return origin or tp


def _has_surrogate(value: Any) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    except (TypeError, ValueError):
        return False
    return False


_MSG_TOO_BIG = QT_TRANSLATE_NOOP("csv", "is too large a number ({digits} digits)")
_MSG_OUT_OF_RANGE = QT_TRANSLATE_NOOP("csv", "is too large a number (at most 9,223,372,036,854,775,807)")
_MSG_NOT_FINITE = QT_TRANSLATE_NOOP("csv", "must be a finite number, not {got!r}")
_MSG_NUL = QT_TRANSLATE_NOOP("csv", "contains a NUL byte (\\0): is this a text file? Save it as CSV UTF-8")
_MSG_SURROGATE = QT_TRANSLATE_NOOP("csv", "contains a lone surrogate (\\ud800–\\udfff), which is not text")
_BAD = object()


def _convert(key: str, text: str, hint: Any, line: int, errors: list[RowError]) -> Any:
    """A cell's text as the field's type, or _BAD after recording why not."""
    base = _base_type(hint)
    if base is str:
        text = unguard_formula(text)
    elif base in (int, float):
        digits = sum(c.isdigit() for c in text) if len(text) > MAX_DIGITS else 0
        if digits > MAX_DIGITS:
            errors.append(RowError(line, FieldError(key, _m(_MSG_TOO_BIG, digits=f"{digits:,}"))))
            return _BAD
    value = parse_text_value(text, hint)
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and abs(value) >= INT_LIMIT:
        errors.append(RowError(line, FieldError(key, _m(_MSG_OUT_OF_RANGE))))
        return _BAD
    if isinstance(value, float) and not math.isfinite(value):
        errors.append(RowError(line, FieldError(key, _m(_MSG_NOT_FINITE, got=text.strip()))))
        return _BAD
    if base is list and not isinstance(value, str) and _has_surrogate(value):
        errors.append(RowError(line, FieldError(key, _m(_MSG_SURROGATE))))
        return _BAD
    return value


class _RollbackError(Exception):
    pass


# -- the fast path for good rows ---------------------------------------------------------------
# part_from_dict validates through typing introspection (about 1 ms a row). A row is first tried
# against checks compiled once per category, which accept exactly the rows part_from_dict accepts
# and build the same record; anything they do not accept outright (a bad value, a field of the
# wrong category, a missing one) goes to part_from_dict, so the messages stay the ones it gives.

_SLOW = object()
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
            if not isinstance(value, list) or _has_surrogate(value):
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


def _fast_part(category: str, cells: dict[str, str]) -> Any:
    """The part of a good row, or _SLOW when the row needs the full validator (and its messages)."""
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
                    return _SLOW
                continue
            if text.isspace():
                continue
            kwargs[key] = conv(text)
    except _SlowError:
        return _SLOW
    if not comp.required.issubset(kwargs):
        return _SLOW
    errors: list[FieldError] = []
    _check_semantics(kwargs, errors)
    if errors:
        return _SLOW
    try:
        return comp.cls(**kwargs)
    except TypeError:
        return _SLOW


@dataclass(frozen=True)
class _Plan:
    """Where a category's fields are in one file's header (the fast path works on the row's list)."""

    comp: _Compiled
    # (field, converter, memo of text -> value) of the cells ``cells`` picks; a memo is None for list
    # fields (each part gets its own list)
    fields: tuple[tuple[str, Callable[[str], Any], dict[str, Any] | None], ...]
    cells: Callable[[list[str]], tuple[str, ...]]
    others: Callable[[list[str]], tuple[str, ...]]  # cells that must be empty (other fields, store flags)


def _picker(indices: list[int]) -> Callable[[list[str]], tuple[str, ...]]:
    if len(indices) > 1:
        return operator.itemgetter(*indices)
    return lambda rec: tuple(rec[i] for i in indices)


def _plan(category: str, header: list[str]) -> _Plan:
    comp = _compiled(category)
    fields: list[tuple[str, Callable[[str], Any], dict[str, Any] | None]] = []
    cells: list[int] = []
    hints = typing.get_type_hints(comp.cls)
    others: list[int] = []
    for i, key in enumerate(header):
        if key == "category":
            continue
        conv = comp.converters.get(key)
        if conv is None or key in STORE_FIELDS:
            others.append(i)
        else:
            listed = typing.get_origin(_unwrap(hints[key])) is list
            fields.append((key, conv, None if listed else {}))
            cells.append(i)
    return _Plan(comp, tuple(fields), _picker(cells), _picker(others))


# Values _check_semantics has passed once pass again: a shop's file repeats its dates and sources.
_REPEATING = ("price_date", "source")


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


class _Importer:
    """One streaming pass: validate each row, look up and write batches inside one transaction."""

    def __init__(self, repo: PartsRepository, con: Any):
        self.repo = repo
        self.con = con
        self.errors: list[RowError] = []
        self.result = ImportResult()
        self.seen: dict[str, int] = {}
        self.pending: list[tuple[int, AnyPart]] = []
        self.now = datetime.now()
        self.rows = 0
        self._hints = {cat: typing.get_type_hints(cls) for cat, cls in PART_TYPES.items()}
        self._plans: dict[str, _Plan] = {}
        self._passed: dict[str, set[Any]] = {k: set() for k in _REPEATING}

    def fast_row(self, line: int, rec: list[str], header: list[str], category_at: int) -> bool:
        """Accept a good row straight from its cells (same record as ``row``); False: use ``row``.

        Only for a header without repeated names and a row with exactly its width and no NUL.
        """
        category = rec[category_at].strip()
        plan = self._plans.get(category)
        if plan is None:
            if category not in PART_TYPES:
                return False
            plan = self._plans[category] = _plan(category, header)
        if any(plan.others(rec)):
            return False
        kwargs: dict[str, Any] = {}
        try:
            for (key, conv, memo), text in zip(plan.fields, plan.cells(rec), strict=True):
                if not text:
                    continue
                if memo is None:
                    if not text.isspace():
                        kwargs[key] = conv(text)
                    continue
                value = memo.get(text, _SLOW)
                if value is _SLOW:
                    value = _SKIP if text.isspace() else conv(text)
                    if len(memo) < MEMO:
                        memo[text] = value
                if value is not _SKIP:
                    kwargs[key] = value
        except _SlowError:
            return False
        comp = plan.comp
        if not comp.required.issubset(kwargs):
            return False
        passed = self._passed
        probe = kwargs
        for k in _REPEATING:
            if kwargs.get(k) in passed[k]:
                if probe is kwargs:
                    probe = dict(kwargs)
                del probe[k]
        errors: list[FieldError] = []
        _check_semantics(probe, errors)
        if errors:
            return False
        try:
            part = comp.cls(**kwargs)
        except TypeError:
            return False
        for k in _REPEATING:
            if k in kwargs:
                passed[k].add(kwargs[k])
        self.rows += 1
        self._accept(line, part)
        return True

    def row(self, line: int, cells: dict[str, str], extra: int) -> None:
        self.rows += 1
        errors = self.errors
        if extra:
            errors.append(RowError(line, FieldError("row", _m(QT_TRANSLATE_NOOP(
                "csv", "has {n} more cells than the header has columns"), n=extra))))
            return
        for key, text in cells.items():
            if "\0" in text:
                errors.append(RowError(line, FieldError(key or "row", _m(_MSG_NUL))))
                return
        category = cells.get("category", "").strip()
        if category not in PART_TYPES:
            errors.append(RowError(line, FieldError("category", _m(QT_TRANSLATE_NOOP(
                "csv", "must be one of {choices}, not {got!r}"), choices=", ".join(CATEGORIES),
                got=category))))
            return
        if not any(k in STORE_FIELDS for k in cells):
            fast = _fast_part(category, cells)
            if fast is not _SLOW:
                self._accept(line, fast)
                return
        hints = self._hints[category]
        data: dict[str, Any] = {"category": category}
        n_errors = len(errors)
        for key, text in cells.items():
            if key in ("category", *STORE_FIELDS) or not key or text.strip() == "":
                continue
            value = _convert(key, text, hints[key], line, errors) if key in hints else text
            if value is not _BAD:
                data[key] = value
        if len(errors) > n_errors:
            return
        try:
            part = part_from_dict(data, category)
        except PartValidationError as exc:
            errors.extend(RowError(line, e) for e in exc.errors)
            return
        self._accept(line, part)

    def _accept(self, line: int, part: AnyPart) -> None:
        if part.id in self.seen:
            self.errors.append(RowError(line, FieldError("id", _m(QT_TRANSLATE_NOOP(
                "csv", "{id} is already on line {other}"), id=part.id, other=self.seen[part.id]))))
            return
        self.seen[part.id] = line
        self.pending.append((line, part))
        if len(self.pending) >= BATCH:
            self.flush()

    def flush(self) -> None:
        pending, self.pending = self.pending, []
        if not pending:
            return
        existing = self.repo.existing([p.id for _l, p in pending], self.con)
        new_parts: list[AnyPart] = []
        price_updates: list[AnyPart] = []
        replaced: list[AnyPart] = []
        result, errors = self.result, self.errors
        for line, part in pending:
            old = existing.get(part.id)
            if old is None:
                new_parts.append(part)
                result.added.append(part.id)
            elif isinstance(old, Unreadable) or old.custom:
                if not isinstance(old, Unreadable) and old.category != part.category:
                    errors.append(RowError(line, FieldError("category", _m(QT_TRANSLATE_NOOP(
                        "csv", "{id} is a {old} part, not a {new}"), id=part.id, old=old.category,
                        new=part.category))))
                    continue
                replaced.append(part)
                result.replaced.append(part.id)
            else:
                if specs_of(old) != specs_of(part) or (old.name, old.source, old.category) != (
                        part.name, part.source, part.category):
                    new_d, old_d = part_to_dict(part), part_to_dict(old)
                    differing = sorted(k for k, v in new_d.items()
                                       if k not in ("price_cny", "price_date", *STORE_FIELDS)
                                       and old_d.get(k) != v)
                    errors.append(RowError(line, FieldError(differing[0] if differing else "id", _m(
                        QT_TRANSLATE_NOOP(
                            "csv", "{id} is a catalogue part: only price_cny and price_date can change "
                            "(changed: {fields}); give your variant a new id to add it as a custom part"),
                        id=part.id, fields=", ".join(differing)))))
                    continue
                if (old.price_cny, old.price_date) != (part.price_cny, part.price_date):
                    price_updates.append(part)
                    result.prices_updated.append(part.id)
                else:
                    result.unchanged.append(part.id)
        if not errors:  # after the first bad row nothing more is written: it will all be rolled back
            self.repo.write_import_batch(self.con, new_parts, price_updates, replaced, self.now, fast_specs)


def _header_errors(header: list[str]) -> list[RowError]:
    errors: list[RowError] = []
    known = set(csv_columns()) | set(STORE_FIELDS)
    for name in header:
        if name and name not in known:
            errors.append(RowError(1, FieldError(name, _m(QT_TRANSLATE_NOOP(
                "csv", "is not a part field (see `configurator parts export` for the columns)")))))
    for required in ("id", "category"):
        if required not in header:
            errors.append(RowError(1, FieldError(required, _m(QT_TRANSLATE_NOOP(
                "csv", "column is missing")))))
    return errors


def import_csv(path: Path, repo: PartsRepository, encoding: str | None = None) -> ImportResult:
    """Validate every row; apply all of them in one transaction, or none.

    Raises CsvImportError listing every bad row (and the file or database problem, if any).
    """
    path = Path(path)
    try:
        enc = detect_encoding(path, encoding)
        stream = open(path, encoding=enc, newline="", errors="strict")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise _file_error(0, QT_TRANSLATE_NOOP("csv", "cannot be read: {error}"),
                          error=exc.strerror or str(exc)) from exc
    try:
        return _import_stream(stream, repo)
    except OSError as exc:
        raise _file_error(0, QT_TRANSLATE_NOOP("csv", "cannot be read: {error}"),
                          error=exc.strerror or str(exc)) from exc
    finally:
        stream.close()


BULK_CACHE_KIB = 32 * 1024


@contextlib.contextmanager
def _bulk_cache(con: Any) -> Iterator[None]:
    """A bigger page cache for this connection while an import writes (SQLite's default is 2 MiB: a
    100,000-row import would spill the id index's pages to the WAL over and over); restored after."""
    before = con.exec_driver_sql("PRAGMA cache_size").scalar()
    con.exec_driver_sql(f"PRAGMA cache_size=-{BULK_CACHE_KIB}")
    try:
        yield
    finally:
        with contextlib.suppress(DBAPIError, SQLAlchemyError):
            con.exec_driver_sql(f"PRAGMA cache_size={int(before)}")


def _import_stream(stream: IO[str], repo: PartsRepository) -> ImportResult:
    records = iter_records(stream)
    header: list[str] = []
    for item in records:
        if isinstance(item, RowError):
            raise CsvImportError([item])
        header = [h.strip() for h in item[1]]
        break
    errors = _header_errors(header)
    if errors:
        raise CsvImportError(errors)
    width = len(header)
    # The fast path reads cells by position: only when no column name repeats (a dict keeps the last).
    category_at = header.index("category") if len(set(header)) == width else -1
    try:
        with repo.store.engine.begin() as con, _bulk_cache(con):
            importer = _Importer(repo, con)
            fast_row = importer.fast_row
            for item in records:
                if isinstance(item, RowError):
                    importer.errors.append(item)
                    break
                line, rec = item
                joined = "".join(rec)
                if not joined or joined.isspace():  # no cell has anything but white space
                    continue
                if (category_at >= 0 and len(rec) == width and "\0" not in joined
                        and fast_row(line, rec, header, category_at)):
                    continue
                importer.row(line, {h: c for h, c in zip(header, rec, strict=False) if c}, max(0, len(rec) - width))
            importer.flush()
            if importer.errors:
                raise _RollbackError
            if not importer.rows:
                raise CsvImportError([RowError(1, FieldError("file", _m(QT_TRANSLATE_NOOP(
                    "csv", "has a header but no parts"))))])
    except _RollbackError:
        raise CsvImportError(importer.errors) from None
    except (DBAPIError, SQLAlchemyError) as exc:
        raise CsvImportError([RowError(0, FieldError("database", _m(QT_TRANSLATE_NOOP(
            "csv", "cannot be written ({error}); nothing was imported"),
            error=_db_reason(exc))))]) from exc
    return importer.result


def _db_reason(exc: Exception) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig) if orig is not None else str(exc).splitlines()[0]
