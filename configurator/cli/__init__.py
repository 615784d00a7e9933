"""The command line: ``configurator`` with no arguments starts the GUI; sub-commands work headless.

The contract (docs/cli.md, DESIGN.md): bad input never prints a traceback, it prints one line per
problem on stderr and exits 2; with ``--json`` stdout also gets
``{"ok": false, "errors": [{"path", "message"}]}``. Exit codes are in :mod:`configurator.cli.context`.

Modules, each importing only those below it (an import-linter ``layers`` contract in pyproject.toml):

``entry``
    ``main()``: builds the parser from :data:`entry.GROUPS`, runs the chosen handler, starts the GUI
    when no sub-command is given.
``parts``, ``planner``, ``bench``, ``monitor``, ``measurements``
    one sub-command group each (``parts …``; ``check``, ``suggest``, ``presets``, ``export-pdf``;
    ``bench``, ``doctor``; ``monitor``; ``measurements …``). Groups never import each other.
``context``
    what the groups share: the global options, :class:`~configurator.cli.context.Cli` (``--lang``,
    ``--db``, ``--fake-gpus``, ``say``/``warn``/``fail``, ``emit_json``), the exit codes, tables.
``rounding``
    how the numbers of every JSON document are rounded, by quantity (watts, GiB, prices …).

Adding a sub-command group (say ``cluster``):

1. Create ``configurator/cli/cluster.py`` with ``register(sub: Subcommands) -> None`` that adds its
   parsers with ``context.add_command(sub, "cluster", help=...)`` (never ``sub.add_parser``: that
   one would not take the global options after the sub-command), nested ones likewise
   (``csub = c.add_subparsers(dest="cluster_command", required=True)`` then
   ``add_command(csub, "status", ...)``), and sets ``func=cmd_…`` with ``set_defaults``. A handler
   takes the :class:`Cli` and returns an exit code (``EXIT_OK``, ``EXIT_FINDINGS``; bad input:
   ``cli.fail([(path, message)])``, which exits 2). Import heavy modules inside the handler, so
   other commands do not pay for them; print JSON with ``cli.emit_json`` (rounded, never NaN).
2. Add the module to ``GROUPS`` in ``entry.py`` (its place there is its place in ``--help``) and to
   the groups' layer of the ``layers`` contract in pyproject.toml.
3. Document every sub-command and option in docs/cli.md (tests/cli/test_cli_docs.py fails otherwise);
   a new float key in its JSON declares its display precision (core/schema_precision.py;
   tests/cli/test_cli_json_numbers.py fails on an undeclared one).
"""

from configurator.cli.entry import main, main_gui

__all__ = ["main", "main_gui"]
