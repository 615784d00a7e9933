"""Parts CSV as text: the columns, export (formula-guarded, atomic), and reading a user's file
(encoding detection, separators, line endings) into records with their line numbers.

Import reads UTF-8, UTF-8 with BOM or GB18030 (what Excel on a Chinese Windows writes; only when
the text looks Chinese, so a Latin-1 file is refused rather than read as gibberish), or an encoding
the caller names, with comma, semicolon or tab separators and any line endings (CR-only too).

Export guards against formula injection (OWASP): a text cell that starts with ``= + - @``, a tab
or a CR is written with a leading ``'`` so a spreadsheet shows it as text; numbers are written as
numbers. Import takes the guard off text cells again, so an export imports back unchanged.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import io
import itertools
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from configurator import files
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import (
    CATEGORIES,
    PART_TYPES,
    STORE_FIELDS,
    AnyPart,
    FieldError,
    field_unit,
    part_to_dict,
    spec_field_names,
)
from configurator.files import atomic_writer

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


def export_cell(value: Any) -> str:
    if isinstance(value, str):
        return guard_formula(value)
    return _cell(value)


def atomic_text_writer(path: Path, encoding: str = "utf-8") -> contextlib.AbstractContextManager[IO[str]]:
    """A text file written beside the target, replacing it only once complete; never through a symbolic
    link (configurator.files)."""
    return atomic_writer(path, encoding=encoding)


def write_atomic(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write beside the target, then replace it: a crash never leaves half a file (configurator.files)."""
    files.write_atomic(path, text, encoding)


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
            w.writerow([export_cell(d.get(k)) for k in cols])
            n += 1
    return n


# ---------------------------------------------------------------------------
# A template for a user's own parts: the category's columns, the required ones first, a comment row that
# marks each column (required, or optional and what an empty cell means; its unit; its choices), and one
# example row. The comment row's first cell starts with "#": import skips such a row when the first column is
# ``id`` (no id can start with "#"), and a spreadsheet shows it as an ordinary row to read and delete or keep.

COMMENT = "#"
_T_REQUIRED = QT_TRANSLATE_NOOP("csv", "required")
_T_OPTIONAL = QT_TRANSLATE_NOOP("csv", "optional")
_T_EMPTY_IS = QT_TRANSLATE_NOOP("csv", "optional, empty: {default}")
_T_TODAY = QT_TRANSLATE_NOOP("csv", "the day of the import")
_T_CHOICES = QT_TRANSLATE_NOOP("csv", "one of {choices}")
_T_LIST = QT_TRANSLATE_NOOP("csv", "a list: A; B")
_T_SLOTS = QT_TRANSLATE_NOOP("csv", "a JSON list, as `configurator parts export` writes it")
_T_FIRST = QT_TRANSLATE_NOOP("csv", "{mark} (rows whose first cell starts with # are skipped)")
_T_HINTS = {
    "id": QT_TRANSLATE_NOOP("csv", "lowercase brand-model, e.g. nvidia-rtx-4090-used"),
    "price_cny": QT_TRANSLATE_NOOP("csv", "yuan"),
    "price_date": QT_TRANSLATE_NOOP("csv", "2026-11 or 2026-11-29"),
    "source": QT_TRANSLATE_NOOP("csv", "a spec page's URL, or where the figures come from in words"),
}


@dataclass(frozen=True)
class TemplateColumn:
    name: str
    required: bool
    mark: str  # the comment row's cell (translated)


def _default_text(name: str, default: Any, tr: Any) -> str:
    if name == "price_date":
        return csv_message(_T_EMPTY_IS, default=csv_message(_T_TODAY)).render(tr)
    if default is None or default == "" or default == []:
        return csv_message(_T_OPTIONAL).render(tr)
    if isinstance(default, list):
        default = "; ".join(map(str, default))
    return csv_message(_T_EMPTY_IS, default=_cell(default)).render(tr)


def template_columns(category: str, translate: Any = None) -> list[TemplateColumn]:
    """The template's columns for ``category``: id, category, name, price and the required specs, then the
    optional fields, each with its comment-row mark in the reader's language (``translate``)."""
    import dataclasses
    import typing

    cls = PART_TYPES[category]
    hints = typing.get_type_hints(cls)
    cols: list[TemplateColumn] = []
    fields = [f for f in dataclasses.fields(cls) if f.name not in STORE_FIELDS]
    defaults = {f.name: (f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default)
                for f in fields}
    for f in fields:
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        parts = [csv_message(_T_REQUIRED).render(translate) if required else _default_text(f.name, defaults[f.name],
                                                                                   translate)]
        tp = hints[f.name]
        base = next((a for a in typing.get_args(tp) if a is not type(None)), tp) \
            if type(None) in typing.get_args(tp) else tp
        if typing.get_origin(base) is typing.Literal:
            parts.append(csv_message(_T_CHOICES, choices=", ".join(map(str, typing.get_args(base)))).render(translate))
        elif typing.get_origin(base) is list:
            item = typing.get_args(base)[0]
            parts.append(csv_message(_T_SLOTS if dataclasses.is_dataclass(item) else _T_LIST).render(translate))
        unit = field_unit(category, f.name)
        if unit and f.name != "price_cny":
            parts.append(unit)
        if f.name in _T_HINTS:
            parts.append(csv_message(_T_HINTS[f.name], category=category).render(translate))
        cols.append(TemplateColumn(f.name, required, " · ".join(parts)))
        if f.name == "id":
            cols.append(TemplateColumn("category", True, " · ".join(
                [csv_message(_T_REQUIRED).render(translate), category])))
    first = [c for c in cols if c.required] + [c for c in cols if not c.required]
    head = first[0]
    first[0] = TemplateColumn(head.name, head.required,
                              COMMENT + " " + csv_message(_T_FIRST, mark=head.mark).render(translate))
    return first


def template_example(parts: Iterable[AnyPart]) -> AnyPart | None:
    """The example row's part: the catalogue part of middle price (a typical one; ties by id), else any."""
    pool = sorted(parts, key=lambda p: (p.custom, p.price_cny, p.id))
    shipped = [p for p in pool if not p.custom] or pool
    return shipped[len(shipped) // 2] if shipped else None


def write_template(category: str, out: IO[str], example: AnyPart | None = None, translate: Any = None,
                   bom: bool = True) -> list[TemplateColumn]:
    """Write the template CSV (UTF-8 text; with ``bom`` the byte-order mark Excel needs to read Chinese) to
    ``out``: the header, the comment row and ``example``'s row. Returns the columns."""
    cols = template_columns(category, translate)
    if bom:
        out.write("\ufeff")
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow([c.name for c in cols])
    w.writerow([c.mark for c in cols])
    if example is not None:
        d = part_to_dict(example)
        w.writerow([export_cell(d.get(c.name)) for c in cols])
    return cols


def export_template(category: str, path: Path, example: AnyPart | None = None, translate: Any = None
                    ) -> list[TemplateColumn]:
    """:func:`write_template` into ``path``, atomically."""
    with atomic_text_writer(path) as f:
        return write_template(category, f, example, translate)


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



def csv_message(template: str, **params: Any) -> Message:
    return Message("csv", template, params)


def file_error(line: int, template: str, **params: Any) -> CsvImportError:
    return CsvImportError([RowError(line, FieldError("file", csv_message(template, **params)))])


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
            raise file_error(0, QT_TRANSLATE_NOOP(
                "csv", "unknown encoding {encoding!r}: use one of {choices}"), encoding=encoding,
                choices=", ".join(KNOWN_ENCODINGS)) from None
        name = "utf-8-sig" if name == "utf-8" else name
        bad = _try_decode(path, name)
        if bad is not None:
            raise file_error(bad, QT_TRANSLATE_NOOP(
                "csv", "is not {encoding} text (this line has a byte that is not): check the encoding"),
                encoding=encoding)
        return name
    bad_utf8 = _try_decode(path, "utf-8-sig")
    if bad_utf8 is None:
        return "utf-8-sig"
    chars: dict[str, int] = {}
    if _try_decode(path, "gb18030", chars) is None and _looks_chinese(chars):
        return "gb18030"
    raise file_error(bad_utf8, QT_TRANSLATE_NOOP(
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
    raise file_error(bad, QT_TRANSLATE_NOOP(
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
                yield RowError(line, FieldError("row", csv_message(_MSG_FIELD_LIMIT,
                                                                   limit=csv.field_size_limit() // 1024)))
            else:
                yield RowError(line, FieldError("row", csv_message(_MSG_CSV, error=str(exc))))
            return
        except UnicodeDecodeError:
            yield RowError(reader.line_num + 1, FieldError("file", csv_message(QT_TRANSLATE_NOOP(
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


def has_surrogate(value: Any) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    except (TypeError, ValueError):
        return False
    return False

