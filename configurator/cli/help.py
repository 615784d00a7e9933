"""The command line's help and argparse's own messages in the user's language.

argparse formats help from the strings the groups give it (``help=``, ``description=``, group titles)
and its own words (``usage:``, ``options``, ``show this help message and exit``, its error messages).
:class:`HelpFormatter` translates each of them as it is formatted, in the context ``cli-help``; the
sub-commands' one-line help is translated where the sub-command is added (context.add_command),
because argparse lists those lines without passing them through the formatter's public methods.

The language is chosen before the parser is built (:func:`set_language` from ``--lang`` in argv or the
environment), so ``configurator --lang zh_CN --help`` is Chinese throughout.

lupdate only extracts marked strings: the marked copies of every help text live in
:mod:`configurator.cli.help_texts`, generated from the parser (``python -m configurator.cli.help_texts``,
run by ``make translations``; tests/test_cli_help_language.py fails when it is out of date).
"""

from __future__ import annotations

import argparse
import copy
import re
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from configurator.i18n import Translate, normalise, system_language, translator_for

CONTEXT = "cli-help"

# argparse's own words (Python 3.11-3.13), translated like the help texts.
ARGPARSE_WORDS = ("usage: ", "options", "positional arguments", "show this help message and exit")
# argparse's error messages, as regular expressions over the formatted English, with their template in
# the help context ({0}, {1}: the captured parts). Anything else stays English (argparse's own text).
ARGPARSE_ERRORS: tuple[tuple[str, str], ...] = (
    (r"the following arguments are required: (.+)", "the following arguments are required: {0}"),
    (r"unrecognized arguments: (.+)", "unrecognized arguments: {0}"),
    (r"argument (\S+): invalid choice: (.+?) \(choose from (.+)\)", "argument {0}: invalid choice: {1} (choose "
                                                                    "from {2})"),
    (r"argument (\S+): invalid (\S+) value: (.+)", "argument {0}: invalid {1} value: {2}"),
    (r"argument (\S+): expected one argument", "argument {0}: expected one argument"),
    (r"argument (\S+): expected at least one argument", "argument {0}: expected at least one argument"),
    (r"argument (\S+): not allowed with argument (\S+)", "argument {0}: not allowed with argument {1}"),
    (r"ambiguous option: (\S+) could match (.+)", "ambiguous option: {0} could match {1}"),
    (r"one of the arguments (.+) is required", "one of the arguments {0} is required"),
)

_language: dict[str, Translate | None] = {"translate": None}
_recorded: set[str] = set()  # every sub-command help and description given to add_command (help_texts)


def language_in(argv: Sequence[str]) -> str:
    """The language ``--lang`` names in argv (the last one; ``--lang=x`` too), else the system's."""
    lang: str | None = None
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
        elif arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
        elif arg == "--":
            break
    return normalise(lang) or system_language()


def set_language(argv: Sequence[str]) -> None:
    """Choose the help's language before the parser is built."""
    _language["translate"] = translator_for(language_in(argv))


def translated(text: str) -> str:
    translate = _language["translate"]
    return translate(CONTEXT, text) if translate is not None and text else text


def command_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    """A sub-command's ``help`` and ``description``, translated (and noted for help_texts)."""
    out = dict(kwargs)
    for key in ("help", "description"):
        text = out.get(key)
        if isinstance(text, str) and text is not argparse.SUPPRESS:
            _recorded.add(text)
            out[key] = translated(text)
    return out


def recorded() -> Iterable[str]:
    return sorted(_recorded)


def error_message(message: str) -> str:
    """argparse's error message in the chosen language (its known forms; others as they are)."""
    if _language["translate"] is None:
        return message
    for pattern, template in ARGPARSE_ERRORS:
        m = re.fullmatch(pattern, message)
        if m is not None:
            return translated(template).format(*m.groups())
    return message


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, translating each text as it is laid out (public formatter methods only)."""

    def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                  groups: Iterable[argparse._MutuallyExclusiveGroup], prefix: str | None = None) -> None:
        if prefix is None:
            prefix = translated("usage: ")
        super().add_usage(usage, actions, groups, prefix)

    def start_section(self, heading: str | None) -> None:
        super().start_section(translated(heading) if heading else heading)

    def add_text(self, text: str | None) -> None:
        if text is not None and text is not argparse.SUPPRESS:
            text = translated(text)
        super().add_text(text)

    def add_argument(self, action: argparse.Action) -> None:
        text = action.help
        if text and text is not argparse.SUPPRESS:
            action = copy.copy(action)
            action.help = translated(text)
        super().add_argument(action)


class _Recorder(HelpFormatter):
    """Collects every text the formatter is given, and the sub-commands' parsers to visit next."""

    texts: ClassVar[set[str]] = set()
    children: ClassVar[list[argparse.ArgumentParser]] = []

    def start_section(self, heading: str | None) -> None:
        if heading:
            self.texts.add(heading)
        super().start_section(heading)

    def add_text(self, text: str | None) -> None:
        if text and text is not argparse.SUPPRESS:
            self.texts.add(text)
        super().add_text(text)

    def add_argument(self, action: argparse.Action) -> None:
        if action.help and action.help is not argparse.SUPPRESS:
            self.texts.add(action.help)
        if isinstance(action.choices, dict):  # a sub-command action: name -> parser
            self.children.extend(p for p in action.choices.values() if isinstance(p, argparse.ArgumentParser))
        super().add_argument(action)


def help_texts(parser: argparse.ArgumentParser) -> list[str]:
    """Every text ``--help`` of ``parser`` and its sub-commands shows (English: set no language first)."""
    _Recorder.texts = set(ARGPARSE_WORDS) | {t for _p, t in ARGPARSE_ERRORS} | set(recorded())
    _Recorder.children = [parser]
    seen: set[int] = set()
    while _Recorder.children:
        p = _Recorder.children.pop()
        if id(p) in seen:
            continue
        seen.add(id(p))
        p.formatter_class = _Recorder
        try:
            p.format_help()
        finally:
            p.formatter_class = HelpFormatter
    return sorted(_Recorder.texts)
