"""Parts as CSV: export every part, import a user's file all-or-nothing.

Every row is validated; every bad row is reported with its line number; nothing is written unless
all rows are good. New ids become custom parts; a catalogue part's row may change only its price
and price date; a custom part's row replaces it. A part's name is at most 200 characters and its
id at most 128 (core/parts.py's limits, the columns' sizes). A row may leave a field that has a default
empty (core/parts.py says which: price_date is then the day of the import, source empty). When the first
column is ``id``, a row whose first cell starts with ``#`` is a comment (a template's marks) and is skipped.

The file is streamed: rows are validated one by one and written in batches (executemany) into
one transaction, which is rolled back if any row is bad, so memory stays bounded with a shop's
100,000-row file. Reading and writing the text is in csvfile.py.

Every row goes one way: its cells are turned into the fields' types (:class:`_Cells`), and the part is
validated by the one schema the records are declared with (core/parts.py, core/schema.py), which names
every bad field. A shop's file lists the same model many times: a cell's text is converted once per
column and file (``MEMO``), and the stored JSON of a row's specs once per distinct set of spec cells.
"""

from __future__ import annotations

import contextlib
import json
import math
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any, Literal, Union

from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.parts import (
    CATEGORIES,
    PART_TYPES,
    STORE_FIELDS,
    AnyPart,
    FieldError,
    PartValidationError,
    parse_text_value,
    part_from_dict,
    part_to_dict,
)
from configurator.store.catalogue import ROW_FIELDS, specs_of
from configurator.store.csvfile import (
    COMMENT,
    INT_LIMIT,
    MAX_DIGITS,
    CsvImportError,
    RowError,
    atomic_text_writer,
    csv_columns,
    csv_message,
    detect_encoding,
    export_cell,
    export_csv,
    file_error,
    has_surrogate,
    iter_records,
    read_rows,
    unguard_formula,
    write_atomic,
)
from configurator.store.repository import PartsRepository, Unreadable

__all__ = ["CsvImportError", "ImportResult", "RowError", "atomic_text_writer", "csv_columns", "export_cell",
           "export_csv", "import_csv", "read_rows", "write_atomic"]

BATCH = 1000


@dataclass
class ImportResult:
    added: list[str] = field(default_factory=list)
    prices_updated: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)


def _base_type(tp: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        return _base_type(inner[0])
    if origin is Literal:
        return str
    return origin or tp


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
            errors.append(RowError(line, FieldError(key, csv_message(_MSG_TOO_BIG, digits=f"{digits:,}"))))
            return _BAD
    value = parse_text_value(text, hint)
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and abs(value) >= INT_LIMIT:
        errors.append(RowError(line, FieldError(key, csv_message(_MSG_OUT_OF_RANGE))))
        return _BAD
    if isinstance(value, float) and not math.isfinite(value):
        errors.append(RowError(line, FieldError(key, csv_message(_MSG_NOT_FINITE, got=text.strip()))))
        return _BAD
    if base is list and not isinstance(value, str) and has_surrogate(value):
        errors.append(RowError(line, FieldError(key, csv_message(_MSG_SURROGATE))))
        return _BAD
    return value


class _RollbackError(Exception):
    pass


MEMO = 4096  # distinct texts remembered per column (specs repeat across a shop's rows; ids and names do not)
SPEC_CACHE = 4096  # distinct sets of spec cells whose stored JSON is remembered, per file
_UNIQUE = frozenset({"id", "name"})  # not worth remembering


_SKIPPED = frozenset({"", "category", *STORE_FIELDS})  # cells the import does not read (the store's flags)


class _Cells:
    """A row's cells as the values of its category's fields: each text converted once per column (``MEMO``)."""

    def __init__(self) -> None:
        # per category: column -> (the field's annotation, its texts already converted; None: not remembered)
        self.columns: dict[str, dict[str, tuple[Any, dict[str, Any] | None]]] = {
            cat: {name: (hint, None if name in _UNIQUE else {}) for name, hint in typing.get_type_hints(cls).items()}
            for cat, cls in PART_TYPES.items()}

    def convert(self, category: str, cells: dict[str, str], line: int, errors: list[RowError]) -> dict[str, Any] | None:
        """The row's mapping for validation (an unknown column's text as it is: validation names it), or None
        after adding a problem a cell's text has to ``errors``."""
        columns = self.columns[category]
        data: dict[str, Any] = {"category": category}
        n_errors = len(errors)
        skipped = _SKIPPED
        for key, text in cells.items():
            if key in skipped:
                continue
            column = columns.get(key)
            if column is None:
                if not text.isspace():
                    data[key] = text
                continue
            hint, memo = column
            if memo is None:
                if text.isspace():
                    continue
                value = _convert(key, text, hint, line, errors)
            else:
                value = memo.get(text, _BAD)
                if value is _BAD:
                    if text.isspace():
                        continue
                    value = _convert(key, text, hint, line, errors)
                    if value is not _BAD and len(memo) < MEMO:
                        memo[text] = value
                if type(value) is list:
                    value = _copied(value)  # every part its own list
            if value is not _BAD:
                data[key] = value
        return data if len(errors) == n_errors else None


def _copied(value: list[Any]) -> list[Any]:
    return [dict(v) if type(v) is dict else v for v in value]


class _Importer:
    """One streaming pass: validate each row, look up and write batches inside one transaction."""

    def __init__(self, repo: PartsRepository, con: Any):
        self.repo = repo
        self.con = con
        self.errors: list[RowError] = []
        self.result = ImportResult()
        self.seen: dict[str, int] = {}
        self.pending: list[tuple[int, AnyPart]] = []
        self.specs: dict[str, str] = {}  # a pending part's id -> its stored specs (JSON)
        self.now = datetime.now()
        self.rows = 0
        self.cells = _Cells()
        self.spec_json: dict[tuple[str, ...], str] = {}

    def row(self, line: int, cells: dict[str, str], extra: int) -> None:
        self.rows += 1
        errors = self.errors
        if extra:
            errors.append(RowError(line, FieldError("row", csv_message(QT_TRANSLATE_NOOP(
                "csv", "has {n} more cells than the header has columns"), n=extra))))
            return
        for key, text in cells.items():
            if "\0" in text:
                errors.append(RowError(line, FieldError(key or "row", csv_message(_MSG_NUL))))
                return
        category = cells.get("category", "").strip()
        if category not in PART_TYPES:
            errors.append(RowError(line, FieldError("category", csv_message(QT_TRANSLATE_NOOP(
                "csv", "must be one of {choices}, not {got!r}"), choices=", ".join(CATEGORIES),
                got=category))))
            return
        data = self.cells.convert(category, cells, line, errors)
        if data is None:
            return
        try:
            part = part_from_dict(data, category)
        except PartValidationError as exc:
            errors.extend(RowError(line, e) for e in exc.errors)
            return
        if part.id in self.seen:
            self.errors.append(RowError(line, FieldError("id", csv_message(QT_TRANSLATE_NOOP(
                "csv", "{id} is already on line {other}"), id=part.id, other=self.seen[part.id]))))
            return
        # The stored specs: the same spec cells make the same JSON (the row's own fields are not in it).
        spec_key = (category, *(f"{k}\0{t}" for k, t in cells.items() if k not in ROW_FIELDS))
        encoded = self.spec_json.get(spec_key)
        if encoded is None:
            encoded = json.dumps(specs_of(part))
            if len(self.spec_json) < SPEC_CACHE:
                self.spec_json[spec_key] = encoded
        self.specs[part.id] = encoded
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
                continue
            if isinstance(old, Unreadable) or old.custom:
                if not isinstance(old, Unreadable) and old.category != part.category:
                    errors.append(RowError(line, FieldError("category", csv_message(QT_TRANSLATE_NOOP(
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
                    errors.append(RowError(line, FieldError(differing[0] if differing else "id", csv_message(
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
        specs, self.specs = self.specs, {}
        if not errors:  # after the first bad row nothing more is written: it will all be rolled back
            self.repo.write_import_batch(self.con, new_parts, price_updates, replaced, self.now,
                                         lambda p: specs[p.id])


def _header_errors(header: list[str]) -> list[RowError]:
    errors: list[RowError] = []
    known = set(csv_columns()) | set(STORE_FIELDS)
    for name in header:
        if name and name not in known:
            errors.append(RowError(1, FieldError(name, csv_message(QT_TRANSLATE_NOOP(
                "csv", "is not a part field (see `configurator parts export` for the columns)")))))
    for required in ("id", "category"):
        if required not in header:
            errors.append(RowError(1, FieldError(required, csv_message(QT_TRANSLATE_NOOP(
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
        raise file_error(0, QT_TRANSLATE_NOOP("csv", "cannot be read: {error}"),
                          error=exc.strerror or str(exc)) from exc
    try:
        return _import_stream(stream, repo)
    except OSError as exc:
        raise file_error(0, QT_TRANSLATE_NOOP("csv", "cannot be read: {error}"),
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
    # A template's comment rows ("# required · …"): skipped where no id could start so (the first column is id).
    comments = bool(header) and header[0] == "id"
    try:
        with repo.store.begin_write() as con, _bulk_cache(con):
            importer = _Importer(repo, con)
            for item in records:
                if isinstance(item, RowError):
                    importer.errors.append(item)
                    break
                line, rec = item
                joined = "".join(rec)
                if not joined or joined.isspace():  # no cell has anything but white space
                    continue
                if comments and rec[0].lstrip().startswith(COMMENT):
                    continue
                importer.row(line, {h: c for h, c in zip(header, rec, strict=False) if c}, max(0, len(rec) - width))
            importer.flush()
            if importer.errors:
                raise _RollbackError
            if not importer.rows:
                raise CsvImportError([RowError(1, FieldError("file", csv_message(QT_TRANSLATE_NOOP(
                    "csv", "has a header but no parts"))))])
    except _RollbackError:
        raise CsvImportError(importer.errors) from None
    except (DBAPIError, SQLAlchemyError) as exc:
        raise CsvImportError([RowError(0, FieldError("database", csv_message(QT_TRANSLATE_NOOP(
            "csv", "cannot be written ({error}); nothing was imported"),
            error=_db_reason(exc))))]) from exc
    return importer.result


def _db_reason(exc: Exception) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig) if orig is not None else str(exc).splitlines()[0]
