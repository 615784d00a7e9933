"""What several command groups read: the parts catalogue from the database and build files (every
failure one line and exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from configurator.cli.context import Cli
from configurator.core.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from configurator.core.build import Build
    from configurator.core.parts import AnyPart
    from configurator.store.database import Store
    from configurator.store.repository import Unreadable


def load_catalogue(cli: Cli) -> dict[str, AnyPart]:
    store = cli.open_store()
    try:
        return catalogue_from(cli, store)
    finally:
        store.close()


def catalogue_from(cli: Cli, store: Store) -> dict[str, AnyPart]:
    """The parts in an open database (a row it cannot read named on stderr, the rest kept)."""
    from configurator.store.repository import PartsRepository

    unreadable: list[Unreadable] = []
    try:
        return {p.id: p for p in PartsRepository(store).list_parts(unreadable=unreadable)}
    finally:
        cli.tell_unreadable(unreadable)


def load_suggest_candidates(cli: Cli, alternatives: int) -> dict[str, AnyPart]:
    """The parts suggest can pick from: one record per distinct specification (the ``alternatives``
    + 1 cheapest for GPUs), not every listing (see PartsRepository.cheapest_of_each_spec)."""
    from configurator.store.repository import PartsRepository

    store = cli.open_store()
    unreadable: list[Unreadable] = []
    try:
        return {p.id: p for p in PartsRepository(store).cheapest_of_each_spec(alternatives + 1, unreadable)}
    finally:
        store.close()
        cli.tell_unreadable(unreadable)


def read_build_bytes(cli: Cli, path: Path) -> bytes:
    """At most MAX_BUILD_FILE_BYTES + 1 bytes of a regular file: never blocks on a FIFO, never reads a
    device or a folder; every failure is one line and exit 2."""
    import os
    import stat

    from configurator.core.build import MAX_BUILD_FILE_BYTES

    too_big = cli.say(QT_TRANSLATE_NOOP("build", "is too large: a build file may be at most {limit:,} bytes"),
                      limit=MAX_BUILD_FILE_BYTES)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except IsADirectoryError:
        cli.fail([(str(path), cli.say(QT_TRANSLATE_NOOP("cli", "is a folder, not a build file")))])
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        cli.fail([(str(path), (exc.strerror if isinstance(exc, OSError) else None) or str(exc))])
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            cli.fail([(str(path), cli.say(QT_TRANSLATE_NOOP("cli", "is a folder, not a build file")))])
        if not stat.S_ISREG(info.st_mode):
            cli.fail([(str(path), cli.say(QT_TRANSLATE_NOOP("cli", "is not a regular file")))])
        if info.st_size > MAX_BUILD_FILE_BYTES:
            cli.fail([(str(path), too_big)])
        with os.fdopen(os.dup(fd), "rb") as f:
            raw = f.read(MAX_BUILD_FILE_BYTES + 1)
    except OSError as exc:
        cli.fail([(str(path), exc.strerror or str(exc))])
    finally:
        os.close(fd)
    if len(raw) > MAX_BUILD_FILE_BYTES:  # it grew while we looked
        cli.fail([(str(path), too_big)])
    return raw


def read_build_file(cli: Cli, path: Path, catalogue: dict[str, AnyPart]) -> Build:
    from configurator.core.build import BuildError, BuildFileError, load_build_json, parse_build

    raw = read_build_bytes(cli, path)
    try:
        data = load_build_json(raw)
    except BuildFileError as exc:  # paths: "" (the file) or "line:column"
        cli.fail([(f"{path}:{e.path}" if e.path else str(path), e.message.render(cli.translator))
                  for e in exc.errors])
    try:
        return parse_build(data, catalogue)
    except BuildError as exc:
        cli.fail([(e.path or str(path), e.message.render(cli.translator)) for e in exc.errors])
