"""The entry point: the parser (every group's sub-commands under the global options), ``main`` and
the GUI's start when no sub-command is given."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from configurator.cli import advisor, bench, cloud, measurements, models, monitor, parts, planner, schema
from configurator.cli.context import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK, Cli, add_global_options
from configurator.cli.help import HelpFormatter, error_message, set_language

# The sub-command groups, in the order `configurator --help` lists them: each module's
# register(sub) adds its parsers (with context.add_command) whose defaults set func(cli) -> exit code.
GROUPS = (parts, planner, bench, monitor, measurements, models, cloud, advisor, schema)


class _Parser(argparse.ArgumentParser):
    """argparse that keeps the contract: one line on stderr, exit 2, JSON with --json."""

    argv: Sequence[str] = ()  # what main() is parsing (not always sys.argv: tests call main(argv))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)  # help in the language of --lang
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        message = error_message(" ".join(message.split()))  # one line, whatever argparse wrapped
        if len(message) > 300:  # argparse quotes the bad value whole: a 5,000-digit number, say
            message = message[:299] + "…"
        print(f"{self.prog}: {message}", file=sys.stderr)
        if "--json" in _Parser.argv:
            print(json.dumps({"ok": False, "errors": [{"path": "argv", "message": message}]}, ensure_ascii=False,
                             allow_nan=False))
        raise SystemExit(EXIT_BAD_INPUT)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="configurator", description="Plan, watch and measure a PyTorch machine.")
    add_global_options(p, suppress=False)  # before the sub-command; after it, see context.add_command
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    for group in GROUPS:
        group.register(sub)
    return p


# What the GUI imports that does not need Qt. Imported before PySide6, because once PySide6 is
# loaded its import hook reads the source of every module imported after it (its __feature__
# check): importing these first made start-up 0.3 s quicker.
GUI_MODULES_WITHOUT_QT = (
    "sqlalchemy.dialects.sqlite", "configurator.store.repository", "configurator.store.bench_results",
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
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C at any point (parsing, opening the database, starting up): 130
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _escape_unencodable_output()
    _Parser.argv = argv
    set_language(argv)  # before the parser is built: its help is in the chosen language
    args = build_parser().parse_args(argv)
    cli = Cli(args)
    cli.check_lang()  # --lang xx: exit 2 now, not English quietly
    cli.db_location()  # an empty --db or CONFIGURATOR_DB: exit 2 now, not the default database quietly
    if args.command is None:
        _import_before_qt()
        from configurator.app import run_gui

        return run_gui(args)
    try:
        code: int = args.func(cli)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `configurator parts list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as exc:
        # A write the database refused (read-only, disk full, locked): one line, exit 2. Looked up,
        # not imported: `bench --no-store` runs where SQLAlchemy is not installed.
        database = sys.modules.get("configurator.store.database")
        if database is not None and isinstance(exc, database.StoreError):
            cli.fail([("db", cli.render(exc.message))], code=EXIT_BAD_INPUT)
        # The cloud price table (db/cloud_prices.toml, which a user may edit) holding what is no price.
        cloud = sys.modules.get("configurator.core.cloud")
        if cloud is not None and isinstance(exc, cloud.CloudPriceError):
            cli.fail([("cloud_prices", cli.render(exc.message))], code=EXIT_BAD_INPUT)
        raise
    return code


def main_gui() -> int:
    return main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
