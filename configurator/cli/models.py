"""`configurator models list|show`: the model catalogue (db/models) a build file's workload.model names."""

from __future__ import annotations

from typing import Any

from configurator.cli.context import EXIT_BAD_INPUT, EXIT_OK, Cli, Subcommands, add_command, table
from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.models import ConfigError, ModelRecord, catalogue


def _records(cli: Cli) -> dict[str, ModelRecord]:
    try:
        return catalogue()
    except ConfigError as exc:
        cli.fail([(f"{exc.path}: {exc.field_name}" if exc.field_name else exc.path, cli.render(exc.message))])


def _count(n: float | None) -> str:
    if n is None:
        return "—"
    return f"{n / 1e9:.2f} B" if n >= 1e9 else f"{n / 1e6:.1f} M"


def cmd_models_list(cli: Cli) -> int:
    records = _records(cli)
    if cli.args.json:
        cli.emit_json([r.to_json() for r in records.values()])
        return EXIT_OK
    head = [cli.translate("cli", t) for t in ("ID", "Name", "Family", "Params", "Active", "Layers", "Hidden",
                                              "Heads/KV", "Context", "Source")]
    lines = [head]
    for r in records.values():
        s = r.spec
        heads = f"{s.heads}/{s.kv_heads or s.heads}" if s.heads else "—"
        lines.append([r.id, r.name, s.family, _count(s.params), _count(s.active_params) if s.experts else "—",
                      str(s.layers or "—"), str(s.hidden or "—"), heads, f"{s.context:,}" if s.context else "—",
                      r.source.removeprefix("https://")[:60]])
    print(table(lines))
    print("\n" + cli.say(QT_TRANSLATE_NOOP(
        "cli", "{n} models; `configurator models show ID` gives every field, its source and what is unverified."),
        n=len(records)))
    return EXIT_OK


def cmd_models_show(cli: Cli) -> int:
    records = _records(cli)
    rec = records.get(cli.args.id)
    if rec is None:
        cli.fail([("id", cli.say(QT_TRANSLATE_NOOP(
            "cli", "no model {id!r} in the catalogue (`configurator models list` shows the ids)"),
            id=cli.args.id))], code=EXIT_BAD_INPUT)
    doc: dict[str, Any] = rec.to_json()
    doc["config"] = dict(rec.config)
    if cli.args.json:
        cli.emit_json(doc)
        return EXIT_OK
    for key, value in doc.items():
        if key == "config":
            continue
        if isinstance(value, list):
            value = ", ".join(value) or "—"
        elif isinstance(value, float) and value.is_integer():
            value = f"{int(value):,}"
        print(f"{key:24} {'—' if value is None else value}")
    if rec.config:
        print(cli.translate("cli", "config.json keys:"))
        for key, value in rec.config.items():
            print(f"  {key:22} {value}")
    return EXIT_OK


def register(sub: Subcommands) -> None:
    m = add_command(sub, "models", help="the model catalogue: architectures a workload may name")
    msub = m.add_subparsers(dest="models_command", required=True)
    ml = add_command(msub, "list", help="list the models (size, layers, heads, context, source)")
    ml.add_argument("--json", action="store_true")
    ml.set_defaults(func=cmd_models_list)
    ms = add_command(msub, "show", help="every field of one model, its source and its unverified fields")
    ms.add_argument("id", help="a model id from `models list`")
    ms.add_argument("--json", action="store_true")
    ms.set_defaults(func=cmd_models_show)
