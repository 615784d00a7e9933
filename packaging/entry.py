"""Entry point of the packaged app (PyInstaller): the ``configurator`` command, GUI and CLI.

``configurator`` with no sub-command starts the GUI, anything else is the command line
(:func:`configurator.cli.entry.main`). ``configurator -m configurator.bench.MODULE ...`` runs a
benchmark module in this process, so that a benchmark started with no interpreter chosen
(``sys.executable`` is this program when frozen) reports cleanly that torch is missing
instead of starting a second GUI. The benchmarks themselves run under the user's Python,
from the plain source the bundle carries in ``worker_src`` (see ``configurator.paths``).
"""

from __future__ import annotations

import runpy
import sys

RUNNABLE_PREFIX = "configurator.bench."


def run_module(name: str, args: list[str]) -> int:
    if not name.startswith(RUNNABLE_PREFIX):
        print(f"configurator: -m runs only {RUNNABLE_PREFIX}* modules in the packaged app, not {name!r}",
              file=sys.stderr)
        return 2
    sys.argv = [name, *args]
    runpy.run_module(name, run_name="__main__", alter_sys=True)
    return 0


def main() -> int:
    if len(sys.argv) >= 3 and sys.argv[1] == "-m":
        return run_module(sys.argv[2], sys.argv[3:])
    from configurator.cli.entry import main as cli_main

    return cli_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
