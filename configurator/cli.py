"""Command line. No arguments starts the GUI; sub-commands work headless.

Contract (DESIGN.md): bad input never prints a traceback, it prints one line
per problem on stderr and exits 2; with ``--json`` stdout also gets
``{"ok": false, "errors": [{"path", "message"}]}``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.i18n import Translate, normalise, system_language, translator_for

if TYPE_CHECKING:
    from configurator.store.database import Store

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_BAD_INPUT = 2


class Cli:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.lang = normalise(args.lang) or system_language()
        self._translate: Translate | None = translator_for(self.lang)

    # -- output helpers ------------------------------------------------------
    def translate(self, context: str, text: str) -> str:
        return self._translate(context, text) if self._translate else text

    def render(self, message: Message) -> str:
        return message.render(self._translate)

    def say(self, template: str, **params: Any) -> str:
        return self.render(Message("cli", template, params))

    def warn(self, text: str) -> None:
        print(text, file=sys.stderr)

    def fail(self, errors: list[tuple[str, str]], code: int = EXIT_BAD_INPUT) -> NoReturn:
        """Report input problems: one line each on stderr, a JSON document with --json."""
        for path, message in errors:
            self.warn(f"{path}: {message}" if path else message)
        if getattr(self.args, "json", False):
            print(json.dumps({"ok": False, "errors": [{"path": p, "message": m} for p, m in errors]},
                             ensure_ascii=False, allow_nan=False))
        raise SystemExit(code)

    def emit_json(self, doc: Any) -> None:
        """One JSON document on stdout. NaN and infinity are not JSON: a result holding one is a bug where it
        was computed, so this raises (ValueError) rather than print a document other programs cannot read."""
        print(json.dumps(doc, ensure_ascii=False, indent=2, allow_nan=False))

    # -- store -----------------------------------------------------------------
    def open_store(self, writable: bool = False) -> Store:
        """The database, or one line on stderr and exit 2 (locked, disk full, not ours, newer …).

        A read-only database opens read-only (reading commands work); with ``writable`` (a command
        that saves) it is refused up front with the reason. Damaged rows are named on stderr.
        """
        from configurator.paths import default_db_path
        from configurator.store.database import StoreError, open_store

        path = default_db_path(self.args.db)
        try:
            # Our own location (default or CONFIGURATOR_DB) may have a non-SQLite file kept aside;
            # a file named with --db is the user's and is never renamed unless it is a damaged database.
            store = open_store(path, owned=not self.args.db)
        except StoreError as exc:
            self.fail([("db", self.render(exc.message))], code=EXIT_BAD_INPUT)
        if store.recovered is not None:
            self.warn(self.render(store.recovered.message()))
        for notice in store.notices:
            self.warn(self.render(notice))
        if writable and store.read_only and store.read_only_reason is not None:
            reason = self.render(store.read_only_reason)
            store.close()
            self.fail([("db", reason)], code=EXIT_BAD_INPUT)
        return store


def _label(cli: Cli, name: str) -> str:
    from configurator.core.parts import FIELD_LABELS

    label, unit = FIELD_LABELS.get(name, (name, ""))
    text = cli.translate("parts", label)
    return f"{text} ({cli.translate('parts', unit)})" if unit else text


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):
        return ", ".join(_fmt(v) for v in value)
    return str(value)


def _width(text: str) -> int:
    if text.isascii():
        return len(text)
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _table_lines(rows: Iterable[list[str]], sample: int = 500) -> Iterator[str]:
    """The lines of a table, the header first, as the rows come: the column widths are those of the
    header and the first ``sample`` rows (a wider cell later only pushes its own line)."""
    it = iter(rows)
    first = list(itertools.islice(it, sample + 1))
    if not first:
        return
    widths = [max(_width(r[i]) for r in first) for i in range(len(first[0]))]

    def fmt(r: list[str]) -> str:
        return "  ".join(c + " " * max(widths[i] - _width(c), 0) for i, c in enumerate(r)).rstrip()

    yield fmt(first[0])
    yield "  ".join("-" * w for w in widths)
    for r in itertools.chain(first[1:], it):
        yield fmt(r)


def _table(rows: list[list[str]]) -> str:
    return "\n".join(_table_lines(rows, sample=len(rows)))


def _dumps_item(d: dict[str, Any]) -> str:
    """json.dumps(d, ensure_ascii=False, indent=2) for an object inside an array, indented by two
    more spaces, with its plain values encoded in one call of the C encoder (the indenting encoder is
    pure Python, and half of `parts list --json` with 100k parts)."""
    keys = list(d)
    values = list(d.values())
    nested = [isinstance(v, (list, dict)) and bool(v) for v in values]
    flat = json.dumps([*keys, *(0 if n else v for v, n in zip(values, nested, strict=True))],
                      ensure_ascii=False, separators=("\0", ": "))[1:-1].split("\0")
    n = len(keys)
    lines = []
    for i in range(n):
        text = json.dumps(values[i], ensure_ascii=False, indent=2).replace("\n", "\n    ") if nested[i] \
            else flat[n + i]
        lines.append(f"    {flat[i]}: {text}")
    return "{\n" + ",\n".join(lines) + "\n  }" if lines else "{}"


def _json_array(items: Iterable[dict[str, Any]], out: IO[str]) -> None:
    """Write a JSON array item by item, exactly as json.dumps(list, indent=2) would print it."""
    first = True
    for item in items:
        out.write(("[\n  " if first else ",\n  ") + _dumps_item(item))
        first = False
    out.write("[]\n" if first else "\n]\n")


def _report_unreadable(cli: Cli, unreadable: list[Any]) -> None:
    from configurator.store.repository import unreadable_message

    if unreadable:
        cli.warn(cli.render(unreadable_message(unreadable)))
        for u in unreadable[:10]:
            cli.warn(f"  {u.id}: {u.reason}")


def _part_rows(head: list[str], parts: Iterable[Any], fields: Sequence[str], seen: list[int]
               ) -> Iterator[list[str]]:
    yield head
    for p in parts:
        seen[0] += 1
        mark = " *" if p.custom else (" ✎" if p.user_edited else "")
        yield [p.id, p.name, *(_fmt(getattr(p, f)) for f in fields), f"{p.price_cny:,}{mark}"]


def cmd_parts_list(cli: Cli) -> int:
    from configurator.core.parts import CATEGORIES, CATEGORY_LABELS, SUMMARY_FIELDS, part_to_dict
    from configurator.store.repository import PartsRepository, Unreadable

    category = cli.args.category
    if category is not None and category not in CATEGORIES:
        cli.fail([("--category", cli.say(QT_TRANSLATE_NOOP("cli", "must be one of {choices}, not {got!r}"),
                                         choices=", ".join(CATEGORIES), got=category))])
    store = cli.open_store()
    unreadable: list[Unreadable] = []
    out = sys.stdout
    try:
        repo = PartsRepository(store)
        # Streamed: parts are read in batches and printed as they come, never all held at once.
        if cli.args.json:
            _json_array((part_to_dict(p) for p in repo.iter_parts(category, unreadable)), out)
            _report_unreadable(cli, unreadable)
            return EXIT_OK
        counts = repo.counts_by_category()
        shown = 0
        for cat in CATEGORIES if category is None else (category,):
            if not counts.get(cat):
                continue
            group = repo.iter_parts(cat, unreadable)
            fields = SUMMARY_FIELDS[cat]
            head = [_label(cli, "id"), _label(cli, "name"), *(_label(cli, f) for f in fields),
                    _label(cli, "price_cny")]
            out.write(f"\n{cli.translate('parts', CATEGORY_LABELS[cat])} ({counts.get(cat, 0)})\n")
            seen = [0]
            for line in _table_lines(_part_rows(head, group, fields, seen)):
                out.write(line + "\n")
            shown += seen[0]
    finally:
        store.close()
    print("\n" + cli.say(QT_TRANSLATE_NOOP(
        "cli", "{n} parts. Prices are street-price estimates in CNY; * custom part, ✎ price edited by you."),
        n=shown))
    _report_unreadable(cli, unreadable)
    return EXIT_OK


def cmd_parts_show(cli: Cli) -> int:
    from configurator.core.parts import CATEGORY_LABELS, part_to_dict
    from configurator.store.repository import PartsRepository

    store = cli.open_store()
    try:
        part = PartsRepository(store).get(cli.args.id)
    finally:
        store.close()
    if part is None:
        cli.fail([("id", cli.say(QT_TRANSLATE_NOOP(
            "cli", "no part {id!r}; `configurator parts list` shows the ids"), id=cli.args.id))])
    d = part_to_dict(part)
    if cli.args.json:
        cli.emit_json(d)
        return EXIT_OK
    print(f"{part.name}  [{cli.translate('parts', CATEGORY_LABELS[part.category])}]")
    rows = [[cli.translate("cli", "Field"), cli.translate("cli", "Value")]]
    for key, value in d.items():
        if key in ("pcie_slots", "m2_slots", "notes", "source"):
            continue
        rows.append([_label(cli, key), _fmt(value)])
    print(_table(rows))
    import textwrap

    print(f"\n{_label(cli, 'source')}: {part.source}")
    if part.notes:
        print(f"\n{_label(cli, 'notes')}:")
        print(textwrap.fill(part.notes, width=100, initial_indent="  ", subsequent_indent="  "))
    for key in ("pcie_slots", "m2_slots"):
        slots = d.get(key)
        if slots:
            print(f"\n{_label(cli, key)}")
            for slot in slots:
                shares = f"  ↔ {', '.join(slot['shares_with'])}" if slot["shares_with"] else ""
                size = f"x{slot['physical_lanes']} (x{slot['electrical_lanes']})" if "physical_lanes" in slot \
                    else f"x{slot['lanes']}"
                print(f"  {slot['name']:<12} {size:<10} Gen{slot['gen']}  {slot['from']}{shares}")
    return EXIT_OK


def cmd_parts_import(cli: Cli) -> int:
    from configurator.store.csvio import CsvImportError, import_csv
    from configurator.store.repository import PartsRepository

    path = Path(cli.args.file)
    store = cli.open_store(writable=True)
    try:
        result = import_csv(path, PartsRepository(store), encoding=getattr(cli.args, "encoding", None))
    except CsvImportError as exc:
        cli.fail([(f"{path}:{e.line}" if e.line else str(path), e.error.render(cli._translate))
                  for e in exc.errors])
    finally:
        store.close()
    summary = {
        "ok": True, "added": result.added, "prices_updated": result.prices_updated,
        "replaced": result.replaced, "unchanged": result.unchanged,
    }
    if cli.args.json:
        cli.emit_json(summary)
    else:
        print(cli.say(QT_TRANSLATE_NOOP(
            "cli", "Imported {path}: {added} new custom parts, {prices} prices updated, {replaced} custom "
            "parts replaced, {unchanged} unchanged."), path=str(path), added=len(result.added),
            prices=len(result.prices_updated), replaced=len(result.replaced), unchanged=len(result.unchanged)))
    return EXIT_OK


def cmd_parts_export(cli: Cli) -> int:
    from configurator.store.csvio import export_csv
    from configurator.store.repository import PartsRepository

    path = Path(cli.args.file)
    store = cli.open_store()
    try:
        parts = PartsRepository(store).list_parts(cli.args.category)
    finally:
        store.close()
    try:
        n = export_csv(parts, path)
    except OSError as exc:
        cli.fail([(str(path), exc.strerror or str(exc))])
    if cli.args.json:
        cli.emit_json({"ok": True, "path": str(path), "parts": n})
    else:
        print(cli.say(QT_TRANSLATE_NOOP("cli", "Wrote {n} parts to {path}."), n=n, path=str(path)))
    return EXIT_OK


class _Parser(argparse.ArgumentParser):
    """argparse that keeps the contract: one line on stderr, exit 2, JSON with --json."""

    argv: Sequence[str] = ()  # what main() is parsing (not always sys.argv: tests call main(argv))

    def error(self, message: str) -> NoReturn:
        message = " ".join(message.split())  # one line, whatever argparse wrapped
        if len(message) > 300:  # argparse quotes the bad value whole: a 5,000-digit number, say
            message = message[:299] + "…"
        print(f"{self.prog}: {message}", file=sys.stderr)
        if "--json" in _Parser.argv:
            print(json.dumps({"ok": False, "errors": [{"path": "argv", "message": message}]}, ensure_ascii=False,
                             allow_nan=False))
        raise SystemExit(EXIT_BAD_INPUT)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="configurator", description="Plan, watch and measure a PyTorch machine.")
    p.add_argument("--db", help="database file (default: CONFIGURATOR_DB or the per-user data dir)")
    p.add_argument("--lang", help="en or zh_CN (default: the system language)")
    p.add_argument("--fake-gpus", type=int, default=None, metavar="N",
                   help="simulate N NVIDIA GPUs (demos, screenshots)")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    parts = sub.add_parser("parts", help="the parts catalogue")
    psub = parts.add_subparsers(dest="parts_command", required=True, parser_class=_Parser)
    pl = psub.add_parser("list", help="list parts")
    pl.add_argument("--category", help="gpu, cpu, motherboard, memory, storage, psu, case, cooler or platform")
    pl.add_argument("--json", action="store_true")
    pl.set_defaults(func=cmd_parts_list)
    ps = psub.add_parser("show", help="every spec of one part")
    ps.add_argument("id")
    ps.add_argument("--json", action="store_true")
    ps.set_defaults(func=cmd_parts_show)
    pi = psub.add_parser("import", help="add or update parts from a CSV (UTF-8 or GB18030)")
    pi.add_argument("file")
    pi.add_argument("--encoding", help="read the file as this encoding (e.g. latin-1, cp1252) instead of detecting "
                    "UTF-8 or GB18030")
    pi.add_argument("--json", action="store_true")
    pi.set_defaults(func=cmd_parts_import)
    pe = psub.add_parser("export", help="write every part to a CSV (UTF-8 with BOM)")
    pe.add_argument("file")
    pe.add_argument("--category")
    pe.add_argument("--json", action="store_true")
    pe.set_defaults(func=cmd_parts_export)

    # Other features register their sub-commands here, one line each:
    # register(sub) adds parsers whose defaults set func(cli) -> exit code.
    from configurator.cli_planner import register as register_planner

    register_planner(sub)
    from configurator.cli_bench import register as register_bench
    register_bench(sub)
    from configurator.cli_monitor import register as register_monitor
    register_monitor(sub)
    from configurator.cli_measurements import register as register_measurements
    register_measurements(sub)
    from configurator.cli_cloud import register as register_cloud
    register_cloud(sub)
    return p


# What the GUI imports that does not need Qt. Imported before PySide6, because once PySide6 is
# loaded its import hook reads the source of every module imported after it (its __feature__
# check): importing these first made start-up 0.3 s quicker.
GUI_MODULES_WITHOUT_QT = (
    "numpy", "sqlalchemy.dialects.sqlite", "configurator.store.repository", "configurator.store.bench_results",
    "configurator.core.engine", "configurator.core.presets", "configurator.core.sheet",
)


def _import_before_qt() -> None:
    import importlib

    for name in GUI_MODULES_WITHOUT_QT:
        importlib.import_module(name)


def _escape_unencodable_output() -> None:
    """Text the terminal cannot encode (a lone surrogate from an undecodable file name, Chinese on an ASCII
    terminal) is printed as a backslash escape instead of ending the command with a traceback."""
    import contextlib

    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # a closed or detached stream
                reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _escape_unencodable_output()
    _Parser.argv = argv
    args = build_parser().parse_args(argv)
    if args.command is None:
        _import_before_qt()
        from configurator.app import run_gui

        return run_gui(args)
    cli = Cli(args)
    try:
        code: int = args.func(cli)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `configurator parts list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as exc:
        # A write the database refused (read-only, disk full, locked): one line, exit 2. Looked up,
        # not imported: `bench --no-store` runs where SQLAlchemy is not installed.
        database = sys.modules.get("configurator.store.database")
        if database is not None and isinstance(exc, database.StoreError):
            cli.fail([("db", cli.render(exc.message))], code=EXIT_BAD_INPUT)
        raise
    return code


def main_gui() -> int:
    return main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
