"""docs/cli.md is the command-line contract: every sub-command, option and choice the parser has is
on it, so the page cannot fall behind the code."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path

from configurator.cli.entry import build_parser

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
             ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:  # argparse has no public walk of its sub-commands
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from commands(child, (*path, name))


def mentioned(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def test_every_sub_command_option_and_choice_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = []
    found = list(commands(build_parser()))
    assert len(found) > 15
    for path, parser in found:
        name = " ".join(path)
        if path and f"configurator {name}" not in text:
            missing.append(f"`configurator {name}`")
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            for option in action.option_strings:
                if not mentioned(option, text):
                    missing.append(f"{option} of `configurator {name}`".replace("  ", " "))
            for choice in action.choices or ():
                if not mentioned(str(choice), text):
                    missing.append(f"{choice!r} for {action.option_strings} of `configurator {name}`")
    assert not missing, "docs/cli.md does not mention: " + "; ".join(missing)


def test_the_documented_exit_codes_are_the_ones_the_code_uses() -> None:
    from configurator.cli import context

    text = DOC.read_text(encoding="utf-8")
    for code in (context.EXIT_OK, context.EXIT_FINDINGS, context.EXIT_BAD_INPUT, context.EXIT_INTERRUPTED):
        assert f"| `{code}` |" in text
