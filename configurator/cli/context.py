"""What every sub-command shares: the global options, the :class:`Cli` a handler is given (language,
database, fake GPUs, messages, the exit-code contract) and the output helpers (tables, JSON).

At module level it imports only the standard library, the i18n helpers and :mod:`.rounding`: the
sub-command groups import this module, never each other and never :mod:`configurator.cli.entry`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

from configurator.cli.rounding import tidy
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.i18n import Translate, normalise, system_language, translator_for

if TYPE_CHECKING:
    from configurator.store.database import Store

    Subcommands = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    Subcommands = argparse._SubParsersAction  # what add_subparsers() returns: a group's register() is given one

EXIT_OK = 0  # done; for check/suggest/doctor: nothing wrong found
EXIT_FINDINGS = 1  # it ran, and found errors (check), no build (suggest), failed checks (doctor), a failed suite
EXIT_BAD_INPUT = 2  # unusable input or database: one line per problem on stderr, nothing written
EXIT_INTERRUPTED = 130  # Ctrl-C

MAX_FAKE_GPUS = 64
MAX_PROBLEM_LINES = 100  # input problems printed on stderr; the rest are counted (--json lists them all)


# -- global options -----------------------------------------------------------------------------
# Accepted before the sub-command (on the top-level parser) and after it (on every sub-command's
# parser, through argparse's parents=). After the sub-command their default is SUPPRESS, so an
# option not given there leaves the top-level value alone; given in both places, the later one
# (the one after the sub-command) wins.

GLOBAL_OPTIONS_TITLE = "global options (also accepted before the sub-command)"


def add_global_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *, suppress: bool) -> None:
    default = argparse.SUPPRESS if suppress else None
    parser.add_argument("--db", default=default,
                        help="database file (default: CONFIGURATOR_DB or the per-user data dir)")
    parser.add_argument("--lang", default=default, help="en or zh_CN (default: the system language)")
    parser.add_argument("--fake-gpus", type=int, default=default, metavar="N",
                        help="simulate N NVIDIA GPUs (demos, screenshots)")


def _global_options_parent() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    add_global_options(parent.add_argument_group(GLOBAL_OPTIONS_TITLE), suppress=True)
    return parent


GLOBAL_OPTIONS = _global_options_parent()


def add_command(sub: Subcommands, name: str, **kwargs: Any) -> argparse.ArgumentParser:
    """A sub-command's parser (``sub.add_parser``) that also takes the global options. Every parser a
    group adds, nested ones included, is made with this (tests/cli/test_cli_globals.py walks the tree)."""
    from configurator.cli.help import command_kwargs

    return sub.add_parser(name, parents=[GLOBAL_OPTIONS], **command_kwargs(kwargs))


# -- the handler's context ----------------------------------------------------------------------
class Cli:
    """What a sub-command's handler ``func(cli) -> exit code`` is given."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.lang = normalise(args.lang) or system_language()
        self._translate: Translate | None = translator_for(self.lang)
        self._told: set[str] = set()  # notices already on stderr (a command may open the database twice)
        self._told_parts: set[tuple[str, str]] = set()

    # -- language --------------------------------------------------------------------------------
    def check_lang(self) -> None:
        """``--lang`` that names no language the app has (zh, zh-CN, en_US … are accepted): one line, exit 2."""
        from configurator.i18n import LANGUAGES

        given = getattr(self.args, "lang", None)
        if given is not None and normalise(given) is None:
            self.fail([("--lang", self.say(QT_TRANSLATE_NOOP("cli", "must be one of {choices}, not {got!r}"),
                                           choices=", ".join(LANGUAGES), got=given))])

    @property
    def translator(self) -> Translate | None:
        """The translator of ``--lang`` (None: English), for ``Message.render`` and core's ``to_json``."""
        return self._translate

    def translate(self, context: str, text: str) -> str:
        return self._translate(context, text) if self._translate else text

    def render(self, message: Message) -> str:
        return message.render(self._translate)

    def say(self, template: str, **params: Any) -> str:
        return self.render(Message("cli", template, params))

    # -- output ----------------------------------------------------------------------------------
    def warn(self, text: str) -> None:
        print(text, file=sys.stderr)

    def tell(self, message: Message) -> None:
        """A notice on stderr (a recovered database, damaged rows skipped), once however often it comes up."""
        text = self.render(message)
        if text not in self._told:
            self._told.add(text)
            self.warn(text)

    def tell_unreadable(self, unreadable: Sequence[Any]) -> None:
        """One line naming the parts that could not be read (store.repository.Unreadable), each named once."""
        from configurator.store.repository import unreadable_message

        named = {u.id: u for u in unreadable if ("part", u.id) not in self._told_parts}
        if named:
            self._told_parts.update(("part", i) for i in named)
            self.warn(self.render(unreadable_message(list(named.values()))))

    def file_problem(self, path: str, exc: OSError) -> str:
        """Why a file could not be written, in a line: a symbolic link (never followed), a folder, the OS's reason."""
        import errno

        if exc.errno == errno.ELOOP:
            return self.say(QT_TRANSLATE_NOOP("cli", "{path} is a symbolic link; give the file itself"), path=path)
        if exc.errno == errno.EISDIR:
            return self.say(QT_TRANSLATE_NOOP("cli", "{path} is a folder; give a file name"), path=path)
        return exc.strerror or str(exc)

    def fail(self, errors: list[tuple[str, str]], code: int = EXIT_BAD_INPUT) -> NoReturn:
        """Report input problems: one line each on stderr, a JSON document with --json (every problem).
        On stderr the first MAX_PROBLEM_LINES of them, then one line with how many more (a CSV with 10,000 bad
        rows is 101 lines, not 100,000; ``--json`` has them all)."""
        shown = errors if len(errors) <= MAX_PROBLEM_LINES + 1 else errors[:MAX_PROBLEM_LINES]
        for path, message in shown:
            self.warn(f"{path}: {message}" if path else message)
        if len(shown) < len(errors):
            more = len(errors) - len(shown)
            self.warn(self.say(QT_TRANSLATE_NOOP("cli", "… and {n} more problems (--json lists them all)"), n=more)
                      if hasattr(self.args, "json") else
                      self.say(QT_TRANSLATE_NOOP("cli", "… and {n} more problems"), n=more))
        if getattr(self.args, "json", False):
            print(json.dumps({"ok": False, "errors": [{"path": p, "message": m} for p, m in errors]},
                             ensure_ascii=False, allow_nan=False))
        raise SystemExit(code)

    def emit_json(self, doc: Any, *, rounded: bool = True) -> None:
        """One JSON document on stdout, its numbers rounded to what they mean (configurator.cli.rounding);
        ``rounded=False`` for data printed as it was published (round what is computed before).
        NaN and infinity are not JSON: a result holding one is a bug where it was computed, so this
        raises (ValueError) rather than print a document other programs cannot read."""
        print(json.dumps(tidy(doc) if rounded else doc, ensure_ascii=False, indent=2, allow_nan=False))

    def emit_json_line(self, doc: Any) -> None:
        """One JSON document on one line (a stream of them: ``monitor --json``), flushed."""
        print(json.dumps(tidy(doc), ensure_ascii=False, allow_nan=False), flush=True)

    def emit_json_array(self, items: Iterable[dict[str, Any]]) -> None:
        """A JSON array written item by item as the items come (``parts list --json``)."""
        json_array((tidy(item) for item in items), sys.stdout)

    # -- fake GPUs -------------------------------------------------------------------------------
    @property
    def fake_gpus(self) -> int | None:
        """``--fake-gpus N``: N simulated NVIDIA GPUs instead of NVML (None: the real driver)."""
        value: int | None = getattr(self.args, "fake_gpus", None)
        return value

    def fake_gpus_problems(self) -> list[tuple[str, str]]:
        fake = self.fake_gpus
        if fake is not None and not 0 <= fake <= MAX_FAKE_GPUS:
            return [("--fake-gpus", self.say(QT_TRANSLATE_NOOP("cli", "must be between 0 and 64, not {got}"),
                                             got=fake))]
        return []

    # -- store -----------------------------------------------------------------------------------
    def db_location(self) -> tuple[Path, bool]:
        """The database file and whether it is the app's own default (paths.db_location); an empty
        ``--db`` or ``CONFIGURATOR_DB`` is one line and exit 2."""
        from configurator.paths import EmptyDbPathError, db_location

        try:
            return db_location(getattr(self.args, "db", None))
        except EmptyDbPathError as exc:
            self.fail([(exc.source, self.say(QT_TRANSLATE_NOOP(
                "cli", "is empty; give the database file's name, or leave it out for the default")))])

    def open_store(self, writable: bool = False) -> Store:
        """The database, or one line on stderr and exit 2 (locked, disk full, not ours, newer …).

        A read-only database opens read-only (reading commands work); with ``writable`` (a command
        that saves) it is refused up front with the reason. Only ``writable`` checks for another
        program's write lock: a reading command reads at once, under WAL, while another process
        writes. Damaged rows are named on stderr.
        """
        from configurator.store.database import StoreError, open_store
        from configurator.store.seed import seed_store

        path, owned = self.db_location()
        try:
            # Only the app's own default location may have a non-SQLite file kept aside; a file named with
            # --db or CONFIGURATOR_DB is the user's and is never renamed unless it is a damaged database.
            # The shipped catalogue and measurements go in as the database opens (only when they changed).
            store = open_store(path, owned=owned, write=writable, seed=seed_store)
        except StoreError as exc:
            self.fail([("db", self.render(exc.message))], code=EXIT_BAD_INPUT)
        if store.recovered is not None:
            self.tell(store.recovered.message())
        for notice in store.notices:
            self.tell(notice)
        if writable and store.read_only and store.read_only_reason is not None:
            reason = self.render(store.read_only_reason)
            store.close()
            self.fail([("db", reason)], code=EXIT_BAD_INPUT)
        return store


# -- tables -------------------------------------------------------------------------------------
def text_width(text: str) -> int:
    """Columns ``text`` takes on a terminal (CJK characters take two)."""
    if text.isascii():
        return len(text)
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def table_lines(rows: Iterable[list[str]], sample: int = 500) -> Iterator[str]:
    """The lines of a table, the header first, as the rows come: the column widths are those of the
    header and the first ``sample`` rows (a wider cell later only pushes its own line)."""
    it = iter(rows)
    first = list(itertools.islice(it, sample + 1))
    if not first:
        return
    widths = [max(text_width(r[i]) for r in first) for i in range(len(first[0]))]

    def fmt(r: list[str]) -> str:
        return "  ".join(c.ljust(widths[i]) if c.isascii() else c + " " * max(widths[i] - text_width(c), 0)
                         for i, c in enumerate(r)).rstrip()

    yield fmt(first[0])
    yield "  ".join("-" * w for w in widths)
    for r in itertools.chain(first[1:], it):
        yield fmt(r)


def table(rows: list[list[str]]) -> str:
    return "\n".join(table_lines(rows, sample=len(rows)))


# -- streamed JSON ------------------------------------------------------------------------------
def _dumps_item(d: dict[str, Any]) -> str:
    """json.dumps(d, ensure_ascii=False, indent=2) for an object inside an array, indented by two
    more spaces, with its plain values encoded in one call of the C encoder (the indenting encoder is
    pure Python, and half of `parts list --json` with 100k parts)."""
    keys = list(d)
    values = list(d.values())
    nested = [isinstance(v, (list, dict)) and bool(v) for v in values]
    flat = json.dumps([*keys, *(0 if n else v for v, n in zip(values, nested, strict=True))],
                      ensure_ascii=False, separators=("\0", ": "), allow_nan=False)[1:-1].split("\0")
    n = len(keys)
    lines = []
    for i in range(n):
        text = json.dumps(values[i], ensure_ascii=False, indent=2, allow_nan=False).replace("\n", "\n    ") \
            if nested[i] else flat[n + i]
        lines.append(f"    {flat[i]}: {text}")
    return "{\n" + ",\n".join(lines) + "\n  }" if lines else "{}"


def json_array(items: Iterable[dict[str, Any]], out: IO[str]) -> None:
    """Write a JSON array item by item, exactly as json.dumps(list, indent=2) would print it."""
    first = True
    for item in items:
        out.write(("[\n  " if first else ",\n  ") + _dumps_item(item))
        first = False
    out.write("[]\n" if first else "\n]\n")


def qt_for_pdf(cli: Cli) -> Any:
    """What writing a PDF needs without a display: an offscreen QApplication (fonts and painting) and the
    translators for ``--lang``. Keep the returned object until the PDF is written: the translators live
    as long as it (a temporary one was collected at once, and the sheet came out in English)."""
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # works on a server with no display
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from configurator.ui.i18n import LanguageManager

    app = QApplication.instance() or QApplication(["configurator"])
    languages = LanguageManager(QSettings())
    languages.install(cli.lang)
    return app, languages
