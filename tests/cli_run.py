"""Running the command line in-process, as the tests do: ``run(capsys, "parts", "list", "--json")``."""

from __future__ import annotations

import pytest

from configurator.cli.entry import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``configurator ARGV``: its exit code (SystemExit included, as the shell would see it), stdout, stderr."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
