"""``configurator parts list | show | import | export | template``: the parts catalogue."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from configurator.cli.context import EXIT_OK, Cli, Subcommands, add_command, table, table_lines
from configurator.core.i18n import QT_TRANSLATE_NOOP


def register(sub: Subcommands) -> None:
    parts = add_command(sub, "parts", help="the parts catalogue")
    psub = parts.add_subparsers(dest="parts_command", required=True)  # the same contract-keeping parser
    pl = add_command(psub, "list", help="list parts")
    pl.add_argument("--category", help="gpu, cpu, motherboard, memory, storage, psu, case, cooler or platform")
    pl.add_argument("--json", action="store_true")
    pl.set_defaults(func=cmd_parts_list)
    ps = add_command(psub, "show", help="every spec of one part")
    ps.add_argument("id")
    ps.add_argument("--json", action="store_true")
    ps.set_defaults(func=cmd_parts_show)
    pi = add_command(psub, "import", help="add or update parts from a CSV (UTF-8 or GB18030)")
    pi.add_argument("file")
    pi.add_argument("--encoding", help="read the file as this encoding (e.g. latin-1, cp1252) instead of detecting "
                    "UTF-8 or GB18030")
    pi.add_argument("--json", action="store_true")
    pi.set_defaults(func=cmd_parts_import)
    pe = add_command(psub, "export", help="write every part to a CSV (UTF-8 with BOM)")
    pe.add_argument("file")
    pe.add_argument("--category")
    pe.add_argument("--json", action="store_true")
    pe.set_defaults(func=cmd_parts_export)
    pt = add_command(psub, "template", help="write a CSV to fill with your own parts: the required columns "
                     "marked, one example row")
    pt.add_argument("category", help="gpu, cpu, motherboard, memory, storage, psu, case, cooler or platform")
    pt.add_argument("--out", help="the file to write (UTF-8 with BOM, for Excel); without it, the CSV goes to "
                    "standard output")
    pt.add_argument("--json", action="store_true")
    pt.set_defaults(func=cmd_parts_template)


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


def _report_unreadable(cli: Cli, unreadable: list[Any]) -> None:
    cli.tell_unreadable(unreadable)  # one line: each damaged part is named once (the reasons are in the log)


def _part_rows(head: list[str], parts: Iterable[Any], seen: list[int]) -> Iterator[list[str]]:
    """The header, then one row per listed part (store.listing.Listed: the fields' values only)."""
    yield head
    fmt = _fmt
    for p in parts:
        seen[0] += 1
        mark = " *" if p.custom else (" ✎" if p.user_edited else "")
        yield [p.id, p.name, *[v if type(v) is str else fmt(v) for v in p.values], f"{p.price_cny:,}{mark}"]


def cmd_parts_list(cli: Cli) -> int:
    from configurator.core.parts import CATEGORIES, CATEGORY_LABELS, SUMMARY_FIELDS, part_to_dict
    from configurator.store.listing import iter_listed
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
            cli.emit_json_array(part_to_dict(p) for p in repo.iter_parts(category, unreadable))
            _report_unreadable(cli, unreadable)
            return EXIT_OK
        counts = repo.counts_by_category()
        shown = 0
        for cat in CATEGORIES if category is None else (category,):
            if not counts.get(cat):
                continue
            fields = SUMMARY_FIELDS[cat]
            group = iter_listed(store, cat, fields, unreadable)  # the listed fields, not whole records
            head = [_label(cli, "id"), _label(cli, "name"), *(_label(cli, f) for f in fields),
                    _label(cli, "price_cny")]
            out.write(f"\n{cli.translate('parts', CATEGORY_LABELS[cat])} ({counts.get(cat, 0)})\n")
            seen = [0]
            out.writelines(line + "\n" for line in table_lines(_part_rows(head, group, seen)))
            shown += seen[0]
    finally:
        store.close()
    print("\n" + cli.say(QT_TRANSLATE_NOOP(
        "cli", "{n} parts. Prices are street-price estimates in CNY; * custom part, ✎ price edited by you."),
        n=shown))
    _report_unreadable(cli, unreadable)
    return EXIT_OK


def cmd_parts_show(cli: Cli) -> int:
    from configurator.core.parts import CATEGORY_LABELS, part_to_dict, value_label
    from configurator.store.repository import PartsRepository, Unreadable

    store = cli.open_store()
    unreadable: list[Unreadable] = []
    try:
        repo = PartsRepository(store)
        part = repo.get(cli.args.id, unreadable)
        damaged = bool(unreadable) or cli.args.id in repo.damaged_ids()
    finally:
        store.close()
    if part is None and damaged:
        cli.fail([("id", cli.say(QT_TRANSLATE_NOOP(
            "cli", "the part {id!r} is damaged in the database and cannot be read"), id=cli.args.id))])
    if part is None:
        cli.fail([("id", cli.say(QT_TRANSLATE_NOOP(
            "cli", "no part {id!r}; `configurator parts list` shows the ids"), id=cli.args.id))])
    d = part_to_dict(part)
    if cli.args.json:
        cli.emit_json(d)
        return EXIT_OK
    print(f"{part.name}  [{cli.translate('parts', CATEGORY_LABELS[part.category])}]")
    rows = [[cli.translate("cli", "Field"), cli.translate("cli", "Value")]]
    doubt = set(part.unverified)
    mark = cli.translate("cli", "unverified")
    for key, value in d.items():
        if key in ("pcie_slots", "m2_slots", "notes", "source", "unverified"):
            continue
        shown = value_label(key, value, cli.translate) if isinstance(value, str) else _fmt(value)
        rows.append([_label(cli, key), shown + (f"  ({mark})" if key in doubt else "")])
    print(table(rows))
    import textwrap

    print(f"\n{_label(cli, 'source')}: {part.source or '—'}")
    if doubt:
        print("\n" + cli.say(QT_TRANSLATE_NOOP(
            "cli", "Not verified against a vendor source ({n}): {fields}. Check the vendor's figure before relying "
            "on it."), n=len(doubt), fields=", ".join(_label(cli, k) for k in part.unverified)))
    if part.notes:
        print(f"\n{_label(cli, 'notes')}:")
        print(textwrap.fill(part.notes, width=100, initial_indent="  ", subsequent_indent="  "))
    for key in ("pcie_slots", "m2_slots"):
        slots = d.get(key)
        if slots:
            print(f"\n{_label(cli, key)}" + (f"  ({mark})" if key in doubt else ""))
            for slot in slots:
                shares = f"  ↔ {', '.join(slot['shares_with'])}" if slot["shares_with"] else ""
                size = f"x{slot['physical_lanes']} (x{slot['electrical_lanes']})" if "physical_lanes" in slot \
                    else f"x{slot['lanes']}"
                print(f"  {slot['name']:<12} {size:<10} Gen{slot['gen']}  "
                      f"{value_label('source', slot['from'], cli.translate)}{shares}")
    return EXIT_OK


def cmd_parts_import(cli: Cli) -> int:
    from configurator.store.csvio import CsvImportError, import_csv
    from configurator.store.repository import PartsRepository

    path = Path(cli.args.file)
    store = cli.open_store(writable=True)
    try:
        result = import_csv(path, PartsRepository(store), encoding=getattr(cli.args, "encoding", None))
    except CsvImportError as exc:
        cli.fail([(f"{path}:{e.line}" if e.line else str(path), e.error.render(cli.translator))
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
    from configurator.store.repository import PartsRepository, Unreadable

    path = Path(cli.args.file)
    store = cli.open_store()
    unreadable: list[Unreadable] = []
    try:
        parts = PartsRepository(store).list_parts(cli.args.category, unreadable)
    finally:
        store.close()
    _report_unreadable(cli, unreadable)
    try:
        n = export_csv(parts, path)
    except OSError as exc:
        cli.fail([(str(path), cli.file_problem(str(path), exc))])
    if cli.args.json:
        cli.emit_json({"ok": True, "path": str(path), "parts": n})
    else:
        print(cli.say(QT_TRANSLATE_NOOP("cli", "Wrote {n} parts to {path}."), n=n, path=str(path)))
    return EXIT_OK


def cmd_parts_template(cli: Cli) -> int:
    """A CSV for a user's own parts of one category: its columns (required ones first), a comment row that
    marks them, and one example row (a catalogue part of the category as the database holds it, so importing
    the file untouched changes nothing)."""
    from configurator.core.parts import CATEGORIES
    from configurator.store.csvfile import export_template, template_example, write_template
    from configurator.store.repository import PartsRepository

    category = cli.args.category
    if category not in CATEGORIES:
        cli.fail([("category", cli.say(QT_TRANSLATE_NOOP("cli", "must be one of {choices}, not {got!r}"),
                                       choices=", ".join(CATEGORIES), got=category))])
    store = cli.open_store()
    try:
        example = template_example(PartsRepository(store).list_parts(category))
    finally:
        store.close()
    out = cli.args.out
    if out is None:
        cols = write_template(category, sys.stdout, example, cli.translator, bom=False)
        return EXIT_OK
    path = Path(out)
    try:
        cols = export_template(category, path, example, cli.translator)
    except OSError as exc:
        cli.fail([(str(path), cli.file_problem(str(path), exc))])
    required = [c.name for c in cols if c.required]
    if cli.args.json:
        cli.emit_json({"ok": True, "path": str(path), "category": category, "columns": [c.name for c in cols],
                       "required": required, "example": example.id if example is not None else None})
    else:
        print(cli.say(QT_TRANSLATE_NOOP(
            "cli", "Wrote {path}: {n} columns, {required} of them required ({names}), and one example row "
                   "({example}). Fill a row per part, then: configurator parts import {path}"),
            path=str(path), n=len(cols), required=len(required), names=", ".join(required),
            example=example.id if example is not None else "—"))
    return EXIT_OK
