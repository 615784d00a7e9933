"""Fitted parameters kept between runs of the same code and data.

A fit of the shipped measurements on the shipped GPU specs comes out the same in every process: the parameters
of the fit, of each leave-one-GPU-out refit and of each leave-one-source-out refit. Working them out takes about
half a second a process, which every `configurator check`, `suggest` and PDF paid, and the app once it had its
first GPU to estimate. They are kept in ``fits.json`` in the user's cache folder and read back.

What is kept, and when it is used:

- only fits whose rows are the shipped measurements (the very records :func:`fit.shipped` read) on the shipped GPU
  specs (:func:`fit.measured_gpus`); a caller's own rows or parts are fitted afresh;
- under a context: a digest of every file a fit rests on (db/measurements, db/catalogue, db/models and the source
  of configurator/core) and of the Python and numpy versions. A changed file or version finds the file's entries
  under another context, drops them and fits again. Where the source cannot be read (the frozen app), nothing is
  kept;
- each entry keyed by the training rows' ids, the GPUs' ids and the starting parameters. Its values are the
  floats themselves (JSON writes a float so that it reads back exactly): a fit read back is the same to the bit.

A cache file that cannot be read or does not parse is ignored and replaced; a folder that cannot be written costs
the time the file would have saved, nothing else (logged at debug level). The file is written as each new fit is
kept (a cold run writes it a few dozen times, a few milliseconds each), through a temporary file renamed over it,
so a process that is killed keeps what it fitted. ``CONFIGURATOR_FIT_CACHE=0`` turns it off (the speed benchmarks
time the fits themselves).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from configurator.paths import APP_NAME, DB_DIR

log = logging.getLogger(__name__)

FILE_NAME = "fits.json"
FORMAT = 1
# What a fit rests on, besides the code: the published rows, the GPUs' specs, the models' shapes
DATA_DIRS = ("measurements", "catalogue", "models")
CORE_DIR = Path(__file__).resolve().parents[1]

Entry = tuple[tuple[float, ...], tuple[float, ...]]


def cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def _files_digest() -> str | None:
    """A digest of the files and versions a fit rests on, or None where the source cannot be read."""
    h = hashlib.sha256(f"{FORMAT}|{sys.version}|".encode())
    try:
        import numpy

        h.update(numpy.__version__.encode())
        sources = sorted(CORE_DIR.rglob("*.py"))
        if not sources:
            return None
        data = sorted(p for d in DATA_DIRS for p in (DB_DIR / d).rglob("*") if p.is_file())
        for root, paths in ((CORE_DIR, sources), (DB_DIR, data)):
            for path in paths:
                h.update(f"{path.relative_to(root)}\0".encode())
                h.update(path.read_bytes())
                h.update(b"\0")
    except (OSError, ValueError, ImportError) as exc:
        log.debug("no fit cache: %s", exc)
        return None
    return h.hexdigest()


class ThetaCache:
    """The kept fits of one context, loaded from ``folder`` when first asked, written back as each is kept."""

    def __init__(self, folder: Path | None = None):
        self._folder = folder
        self._lock = threading.Lock()
        self._loaded = False
        self._context: str | None = None
        self._entries: dict[str, Entry] = {}
        self._dirty = False
        self._bypass = 0

    @property
    def enabled(self) -> bool:
        return os.environ.get("CONFIGURATOR_FIT_CACHE", "1") != "0" and self._bypass == 0

    def key(self, row_ids: Sequence[str], gpu_ids: Sequence[str], theta0: Sequence[float] | None) -> str:
        start = "prior" if theta0 is None else ",".join(repr(float(t)) for t in theta0)
        text = "|".join((",".join(row_ids), ",".join(sorted(gpu_ids)), start))
        return hashlib.sha256(text.encode()).hexdigest()

    def get(self, key: str) -> Entry | None:
        with self._lock:
            self._load()
            return self._entries.get(key) if self._context is not None else None

    def put(self, key: str, entry: Entry) -> None:
        """Keep a fit, in memory and on disk at once (a process that is killed keeps what it fitted)."""
        with self._lock:
            self._load()
            if self._context is None:
                return
            self._entries[key] = entry
            self._dirty = True
        self.write()

    @contextlib.contextmanager
    def bypassed(self) -> Iterator[None]:
        """Fit afresh, neither reading nor keeping (what the speed benchmarks time)."""
        self._bypass += 1
        try:
            yield
        finally:
            self._bypass -= 1

    def _path(self) -> Path:
        return (self._folder or cache_dir()) / FILE_NAME

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        self._context = _files_digest()
        if self._context is None:
            return
        try:
            doc = json.loads(self._path().read_text(encoding="utf-8"))
            if doc.get("format") != FORMAT or doc.get("context") != self._context:
                return  # another version's fits: fitted again, and replaced when this process ends
            for key, (theta, fitted) in doc["fits"].items():
                self._entries[str(key)] = (tuple(float(t) for t in theta), tuple(float(f) for f in fitted))
        except FileNotFoundError:
            pass
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
            log.debug("fit cache %s not read: %s", self._path(), exc)
            self._entries.clear()

    def write(self) -> None:
        """Write the kept fits, if any is new; a failure is logged, never raised."""
        with self._lock:
            if not self._dirty or self._context is None:
                return
            doc = {"format": FORMAT, "context": self._context,
                   "fits": {k: [list(theta), list(fitted)] for k, (theta, fitted) in self._entries.items()}}
            self._dirty = False
        path = self._path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".fits-", suffix=".tmp", dir=path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(doc, f, allow_nan=False)
                os.replace(tmp, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except (OSError, ValueError) as exc:
            log.debug("fit cache %s not written: %s", path, exc)


CACHE = ThetaCache()
