"""Recording snapshots to CSV, one row per sample, with markers.

The column set is fixed when the first snapshot arrives (host columns, then each
GPU's); the header names carry units. The last columns, ``gpuN.name``, hold each
GPU's name (as the driver reports it) in the first row only, so a report can say
which card a row of figures is. A marker goes into the ``marker`` column of the
next row and into :attr:`CsvRecorder.markers` (which the database index keeps).
Rows are flushed as they are written, so a crash loses at most one.
"""

from __future__ import annotations

import csv
import errno
import math
import os
import stat
import threading
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from configurator.monitor.ring import snapshot_values, unit_of
from configurator.monitor.snapshot import Snapshot


def _cell(value: float | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return f"{value:.6g}"


def _open_new(path: Path, overwrite: bool) -> IO[str]:
    """Open ``path`` for writing without following a symbolic link (O_NOFOLLOW; with O_EXCL a link is
    never followed either) and, unless ``overwrite``, without touching a file that exists. Only a regular
    file is written: a FIFO or a device raises OSError."""
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) \
        | getattr(os, "O_NONBLOCK", 0)
    flags |= os.O_TRUNC if overwrite else os.O_EXCL
    if overwrite and path.is_symlink():  # where O_NOFOLLOW is missing (Windows)
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path))
    fd = os.open(path, flags, 0o644)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, os.strerror(errno.EINVAL), str(path))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return open(fd, "w", newline="", encoding="utf-8", closefd=True)
    except BaseException:
        os.close(fd)
        raise


class CsvRecorder:
    """A sampler listener. Open it, subscribe it, ``mark`` while it runs, ``close`` to finish."""

    def __init__(self, path: str | Path, interval_s: float = 1.0, overwrite: bool = True):
        self.path = Path(path)
        self.interval_s = interval_s
        self.started_at = datetime.now()
        self.stopped_at: datetime | None = None
        self.rows = 0
        self.gpus = 0
        self.markers: list[dict[str, Any]] = []
        self._pending: list[str] = []
        self._columns: list[str] | None = None
        self._names: list[str] = []  # each GPU's name, written in the first row
        self._lock = threading.Lock()
        # Raises OSError now (bad folder, no permission), not later in the sampler thread.
        self._file: IO[str] | None = _open_new(self.path, overwrite)
        self._writer = csv.writer(self._file)

    @property
    def closed(self) -> bool:
        return self._file is None

    def mark(self, label: str) -> dict[str, Any]:
        marker = {"time": datetime.now().isoformat(timespec="seconds"), "label": label}
        with self._lock:
            self.markers.append(marker)
            self._pending.append(label)
        return marker

    def __call__(self, snap: Snapshot) -> None:
        values = snapshot_values(snap)
        with self._lock:
            if self._file is None:
                return
            if self._columns is None:
                self._columns = list(values)
                self.gpus = len(snap.gpus)
                header = ["time", "epoch_s", "marker"]
                header += [f"{k} ({unit_of(k)})" if unit_of(k) else k for k in self._columns]
                header += [f"gpu{g.id}.name" for g in snap.gpus]
                self._names = [g.name for g in snap.gpus]
                self._writer.writerow(header)
            marker = "; ".join(self._pending)
            self._pending.clear()
            stamp = datetime.fromtimestamp(snap.time).isoformat(timespec="milliseconds")
            names = self._names if self.rows == 0 else [""] * len(self._names)
            self._writer.writerow([stamp, f"{snap.time:.3f}", marker,
                                   *(_cell(values.get(k)) for k in self._columns), *names])
            self._file.flush()
            self.rows += 1

    def close(self) -> None:
        with self._lock:
            if self._file is not None and self._pending and self._columns is not None:
                # Markers made after the last sample still go into the file, on a row of their own.
                now = datetime.now()
                self._writer.writerow([now.isoformat(timespec="milliseconds"), f"{now.timestamp():.3f}",
                                       "; ".join(self._pending), *([""] * (len(self._columns) + len(self._names)))])
                self._pending.clear()
            if self._file is not None:
                self._file.close()
                self._file = None
                self.stopped_at = datetime.now()
