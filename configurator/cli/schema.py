"""`configurator schema build|part CATEGORY`: the JSON Schema of a build file or of one category's part, from
the declarations the files are read with (core/schema_build.py, core/parts.py through core/schema.py)."""

from __future__ import annotations

from typing import Any

from configurator.cli.context import EXIT_OK, Cli, Subcommands, add_command, table
from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.parts import CATEGORIES


def _type(prop: dict[str, Any]) -> str:
    if "enum" in prop:
        return " | ".join(map(str, prop["enum"]))
    if "const" in prop:
        return str(prop["const"])
    if "$ref" in prop:
        return "{" + str(prop["$ref"]).rsplit("/", 1)[-1] + "}"
    if "anyOf" in prop:
        return " | ".join(_type(p) for p in prop["anyOf"])
    if prop.get("type") == "array":
        return f"[{_type(prop.get('items', {}))}]"
    return str(prop.get("type", "any"))


def _bounds(prop: dict[str, Any]) -> str:
    for alt in prop.get("anyOf", [prop]):
        words = [f"{sign} {alt[k]:,}" for k, sign in (("exclusiveMinimum", ">"), ("minimum", ">="),
                                                      ("maximum", "<="), ("exclusiveMaximum", "<"))
                 if k in alt]
        words += [f"<= {alt[k]:,} {what}" for k, what in (("maxLength", "chars"), ("maxItems", "items")) if k in alt]
        if words:
            return ", ".join(words)
    return ""


TYPE_WIDTH = 48  # a terminal of 120 columns keeps the table on one screen width


def _wrapped(kind: str) -> list[str]:
    """A type's text in lines of at most TYPE_WIDTH characters, broken between the choices of a list
    (``ubuntu-24.04 | ubuntu-22.04 | …``); a single word longer than that keeps its line."""
    out: list[str] = []
    for choice in kind.split(" | "):
        if out and len(out[-1]) + 3 + len(choice) <= TYPE_WIDTH:
            out[-1] += " | " + choice
        else:
            out.append(choice if not out else "| " + choice)
    return out


def _rows(cli: Cli, doc: dict[str, Any]) -> list[list[str]]:
    """One line per key of every object of the schema (``parts[].qty``), its type, bounds, unit and default."""
    head = [cli.translate("cli", t) for t in (
        QT_TRANSLATE_NOOP("cli", "Key"), QT_TRANSLATE_NOOP("cli", "Type"), QT_TRANSLATE_NOOP("cli", "Bounds"),
        QT_TRANSLATE_NOOP("cli", "Unit"), QT_TRANSLATE_NOOP("cli", "Default"))]
    required_word = cli.translate("cli", QT_TRANSLATE_NOOP("cli", "required"))
    lines = [head]
    defs = doc.get("$defs", {})

    def walk(obj: dict[str, Any], prefix: str, seen: tuple[str, ...]) -> None:
        required = set(obj.get("required", ()))
        for name, prop in obj.get("properties", {}).items():
            default = repr(prop["default"]) if "default" in prop else "—"
            kind, *more = _wrapped(_type(prop))
            lines.append([prefix + name, kind, _bounds(prop), prop.get("x-unit", ""),
                          required_word if name in required else default])
            lines.extend(["", m, "", "", ""] for m in more)  # a long choice list goes on under itself
            alts = [prop, prop.get("items", {}), *prop.get("anyOf", [])]
            for alt in alts:
                ref = alt.get("$ref", "").rsplit("/", 1)[-1]
                if ref and ref not in seen:
                    inner = "[]." if alt is prop.get("items") else "."
                    walk(defs[ref], prefix + name + inner, (*seen, ref))

    walk(doc, "", ())
    return lines


def _show(cli: Cli, doc: dict[str, Any]) -> int:
    if cli.args.json:
        cli.emit_json(doc, rounded=False)
        return EXIT_OK
    print(table(_rows(cli, doc)))
    return EXIT_OK


def cmd_schema_build(cli: Cli) -> int:
    from configurator.core.schema_build import build_json_schema

    return _show(cli, build_json_schema())


def cmd_schema_part(cli: Cli) -> int:
    from configurator.core.parts import part_json_schema

    return _show(cli, part_json_schema(cli.args.category))


def register(sub: Subcommands) -> None:
    s = add_command(sub, "schema", help="the JSON Schema of a build file or a part: every key, type and bound")
    ssub = s.add_subparsers(dest="schema_command", required=True)
    sb = add_command(ssub, "build", help="the keys of a build file (configurator.build/1)")
    sb.add_argument("--json", action="store_true", help="the JSON Schema itself")
    sb.set_defaults(func=cmd_schema_build)
    sp = add_command(ssub, "part", help="the fields of one category's part (a CSV column or a JSON key each)")
    sp.add_argument("category", choices=CATEGORIES, help="the part category")
    sp.add_argument("--json", action="store_true", help="the JSON Schema itself")
    sp.set_defaults(func=cmd_schema_part)
