"""Parts as CSV: export every part, import a user's file all-or-nothing.

Import reads UTF-8, UTF-8 with BOM or GB18030 (what Excel on a Chinese
Windows writes), with comma, semicolon or tab separators. Every row is
validated; every bad row is reported with its line number; nothing is written
unless all rows are good. New ids become custom parts; a catalogue part's row
may change only its price and price date; a custom part's row replaces it.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
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
    spec_field_names,
)
from configurator.store.catalogue import specs_of
from configurator.store.repository import PartsRepository

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


def write_atomic(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write beside the target, then replace it: a crash never leaves half a file."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def export_csv(parts: list[AnyPart], path: Path) -> int:
    cols = csv_columns()
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=cols, extrasaction="ignore", lineterminator="\r\n")
    w.writeheader()
    for part in parts:
        d = part_to_dict(part)
        w.writerow({k: _cell(d.get(k)) for k in cols})
    # UTF-8 with BOM so that Excel shows Chinese text correctly.
    write_atomic(path, "\ufeff" + buf.getvalue())
    return len(parts)


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


def decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("gb18030")
    except UnicodeDecodeError as exc:
        raise CsvImportError([RowError(1, FieldError("file", _m(QT_TRANSLATE_NOOP(
            "csv", "is neither UTF-8 nor GB18030 text: save it as CSV UTF-8 and try again"))))]) from exc


def read_rows(text: str) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    first_line = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first_line.count) if first_line else ","

    class Dialect(csv.excel):
        pass

    Dialect.delimiter = delimiter
    dialect = Dialect
    reader = csv.reader(io.StringIO(text), dialect)
    rows: list[tuple[int, dict[str, str]]] = []
    header: list[str] = []
    for rec in reader:
        if not header:
            header = [h.strip() for h in rec]
            continue
        if not any(c.strip() for c in rec):
            continue
        line = reader.line_num
        rows.append((line, {header[i]: c for i, c in enumerate(rec) if i < len(header)}))
        if len(rec) > len(header):
            rows[-1][1]["\0extra"] = str(len(rec) - len(header))
    return header, rows


def import_csv(path: Path, repo: PartsRepository) -> ImportResult:
    """Validate every row; apply all of them in one transaction, or none."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise CsvImportError([RowError(0, FieldError("file", _m(QT_TRANSLATE_NOOP(
            "csv", "cannot be read: {error}"), error=exc.strerror or str(exc))))]) from exc
    header, rows = read_rows(decode(raw))
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
    if errors:
        raise CsvImportError(errors)
    if not rows:
        raise CsvImportError([RowError(1, FieldError("file", _m(QT_TRANSLATE_NOOP(
            "csv", "has a header but no parts"))))])

    existing = {p.id: p for p in repo.list_parts()}
    seen: dict[str, int] = {}
    result = ImportResult()
    new_parts: list[AnyPart] = []
    price_updates: list[AnyPart] = []
    replaced: list[AnyPart] = []
    for line, cells in rows:
        if "\0extra" in cells:
            errors.append(RowError(line, FieldError("row", _m(QT_TRANSLATE_NOOP(
                "csv", "has {n} more cells than the header has columns"), n=int(cells.pop("\0extra"))))))
            continue
        category = cells.get("category", "").strip()
        if category not in PART_TYPES:
            errors.append(RowError(line, FieldError("category", _m(QT_TRANSLATE_NOOP(
                "csv", "must be one of {choices}, not {got!r}"), choices=", ".join(CATEGORIES),
                got=category))))
            continue
        hints = typing.get_type_hints(PART_TYPES[category])
        data: dict[str, Any] = {"category": category}
        for key, text in cells.items():
            if key in ("category", *STORE_FIELDS) or not key or text.strip() == "":
                continue
            data[key] = parse_text_value(text, hints[key]) if key in hints else text
        try:
            part = part_from_dict(data, category)
        except PartValidationError as exc:
            errors.extend(RowError(line, e) for e in exc.errors)
            continue
        if part.id in seen:
            errors.append(RowError(line, FieldError("id", _m(QT_TRANSLATE_NOOP(
                "csv", "{id} is already on line {other}"), id=part.id, other=seen[part.id]))))
            continue
        seen[part.id] = line
        old = existing.get(part.id)
        if old is None:
            new_parts.append(part)
            result.added.append(part.id)
        elif old.custom:
            if old.category != part.category:
                errors.append(RowError(line, FieldError("category", _m(QT_TRANSLATE_NOOP(
                    "csv", "{id} is a {old} part, not a {new}"), id=part.id, old=old.category,
                    new=part.category))))
                continue
            replaced.append(part)
            result.replaced.append(part.id)
        else:
            if specs_of(old) != specs_of(part) or (old.name, old.source, old.category) != (
                    part.name, part.source, part.category):
                differing = sorted(k for k, v in part_to_dict(part).items()
                                   if k not in ("price_cny", "price_date", *STORE_FIELDS)
                                   and part_to_dict(old).get(k) != v)
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
    if errors:
        raise CsvImportError(errors)
    repo.apply_import(new_parts, price_updates, replaced)
    return result
