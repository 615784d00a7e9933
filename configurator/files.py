"""Writing the user's files: one way for every file the app writes (build sheets, reports, CSV and JSON
exports, build files, benchmark results).

- A symbolic link is never followed: writing ``link.pdf`` that points at ``victim.txt`` would replace the
  victim's contents (Qt's QSaveFile, and ``open(path, "w")``, write through a link). It is refused with
  :class:`SymlinkError` (an OSError, ``errno.ELOOP``), and the link and its target are left as they are.
- Atomically: the contents go to a temporary file in the same folder, flushed to disk, which then
  replaces the target in one step (``os.replace``), so a failure (a full disk, a crash) never leaves
  half a file and never touches the file that was there.
- With the mode a new file gets from ``open``: 0666 less the umask (``mkstemp`` alone makes 0600).

Standard library only: the benchmark's ``--no-store --out`` runs where only torch is installed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any


class SymlinkError(OSError):
    """The path to write is a symbolic link (never followed)."""

    def __init__(self, path: str | os.PathLike[str]):
        super().__init__(errno.ELOOP, "is a symbolic link", str(path))


def refuse_link(path: str | os.PathLike[str]) -> None:
    """Raise SymlinkError if ``path`` is a symbolic link (a dangling one too), IsADirectoryError for a folder."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode):
        raise SymlinkError(path)
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))


def _umask() -> int:
    try:  # Linux: read it without changing it (os.umask sets it, for every thread)
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike[str], binary: bool = False, encoding: str = "utf-8"
                  ) -> Iterator[IO[Any]]:
    """A file object for ``path``'s new contents; on leaving the block they replace ``path`` in one step
    (see the module's docstring). Raises SymlinkError for a symbolic link, OSError when it cannot be written;
    then nothing is left behind and ``path`` is unchanged."""
    target = Path(path)
    refuse_link(target)
    folder = target.parent
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding=encoding, newline="")) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        refuse_link(target)  # made a link while the contents were written
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_atomic(path: str | os.PathLike[str], data: str | bytes, encoding: str = "utf-8") -> Path:
    """Write ``data`` (text or bytes) to ``path`` with :func:`atomic_writer`."""
    with atomic_writer(path, binary=isinstance(data, bytes), encoding=encoding) as f:
        f.write(data)
    return Path(path)


__all__ = ["SymlinkError", "atomic_writer", "refuse_link", "write_atomic"]
