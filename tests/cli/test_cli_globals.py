"""The global options (--db, --lang, --fake-gpus) before the sub-command and after it, and what
happens when one is given in both places (the later, after the sub-command, wins)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from configurator.cli.context import GLOBAL_OPTIONS
from configurator.cli.entry import build_parser
from tests.cli_run import run

ENGLISH = "parts. Prices are street-price estimates in CNY"
CHINESE = "价格为人民币市场参考价"


def sub_parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
                ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    for action in parser._actions:  # argparse has no public walk of its sub-commands
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield (*path, name), child
                yield from sub_parsers(child, (*path, name))


def test_every_sub_command_takes_the_global_options() -> None:
    wanted = {opt for a in GLOBAL_OPTIONS._actions for opt in a.option_strings}
    assert wanted == {"--db", "--lang", "--fake-gpus"}
    found = list(sub_parsers(build_parser()))
    assert len(found) >= 14  # parts list/show/import/export, check, suggest, …, measurements list
    for path, parser in found:
        options = {opt for a in parser._actions for opt in a.option_strings}
        assert wanted <= options, f"`configurator {' '.join(path)}` lacks {wanted - options}"


@pytest.mark.parametrize("where", ["before", "after", "between"])
def test_db_in_any_position(capsys, tmp_path: Path, where: str) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "数据" / "parts.db"
    db.parent.mkdir()
    argv = {"before": ["--db", str(db), "parts", "list", "--json"],
            "after": ["parts", "list", "--json", "--db", str(db)],
            "between": ["parts", "--db", str(db), "list", "--json"]}[where]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert db.exists() and len(json.loads(out)) > 100


def test_db_given_twice_the_later_wins(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    code, _, err = run(capsys, "--db", str(first), "parts", "list", "--json", "--db", str(second))
    assert code == 0, err
    assert second.exists() and not first.exists()


@pytest.mark.full_env  # Chinese output or a PDF: PySide6
@pytest.mark.parametrize("where", ["before", "after"])
def test_lang_in_either_position(capsys, db_path: Path, where: str) -> None:  # type: ignore[no-untyped-def]
    args = ["parts", "list", "--category", "psu"]
    argv = ["--lang", "zh_CN", "--db", str(db_path), *args] if where == "before" \
        else [*args, "--lang", "zh_CN", "--db", str(db_path)]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and CHINESE in out and ENGLISH not in out


@pytest.mark.full_env  # Chinese output or a PDF: PySide6
def test_lang_given_twice_the_later_wins(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--lang", "zh_CN", "--db", str(db_path), "parts", "list", "--category", "psu",
                       "--lang", "en")
    assert code == 0 and ENGLISH in out and CHINESE not in out
    code, out, _ = run(capsys, "--lang", "en", "--db", str(db_path), "parts", "list", "--category", "psu",
                       "--lang", "zh_CN")
    assert code == 0 and CHINESE in out


def monitor_gpus(capsys, *argv: str) -> int:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    return len(json.loads(out)["gpus"])


def test_fake_gpus_in_either_position(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    once = ["--once", "--json", "--interval", "0.05"]
    assert monitor_gpus(capsys, "--db", str(db_path), "--fake-gpus", "2", "monitor", *once) == 2
    assert monitor_gpus(capsys, "--db", str(db_path), "monitor", "--fake-gpus", "2", *once) == 2
    assert monitor_gpus(capsys, "--db", str(db_path), "monitor", *once, "--fake-gpus", "3") == 3


def test_fake_gpus_given_twice_the_later_wins(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert monitor_gpus(capsys, "--db", str(db_path), "--fake-gpus", "1", "monitor", "--fake-gpus", "4",
                        "--once", "--json", "--interval", "0.05") == 4


@pytest.mark.parametrize("argv", [
    ["--fake-gpus", "65", "monitor", "--once", "--json"],
    ["monitor", "--once", "--json", "--fake-gpus", "65"],
    ["--fake-gpus", "2", "monitor", "--once", "--json", "--fake-gpus", "-1"],
])
def test_a_bad_fake_gpus_is_refused_in_either_position(capsys, db_path: Path, argv: list[str]) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "--db", str(db_path), *argv)
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert json.loads(out)["errors"][0]["path"] == "--fake-gpus"


def test_a_bad_global_value_after_the_sub_command_is_one_line(capsys, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "monitor", "--once", "--json", "--fake-gpus", "two")
    assert code == 2 and err.startswith("configurator monitor: ") and "--fake-gpus" in err
    assert len(err.strip().splitlines()) == 1 and json.loads(out)["ok"] is False


def test_not_given_after_the_sub_command_keeps_the_value_before() -> None:
    """The sub-command's copy of an option defaults to nothing (SUPPRESS), not None."""
    args = build_parser().parse_args(["--db", "x.db", "--lang", "zh_CN", "--fake-gpus", "2", "monitor", "--once"])
    assert (args.db, args.lang, args.fake_gpus) == ("x.db", "zh_CN", 2)
    args = build_parser().parse_args(["parts", "list"])
    assert (args.db, args.lang, args.fake_gpus) == (None, None, None)
