"""Fixed-size numpy history: full resolution for the last hour, min/mean/max beyond.

Every metric is a column (float32; a missing value is NaN). Two rings:

* ``full``: one row per sample for ``full_seconds`` (default one hour);
* ``agg``: one row per ``bucket_s`` (default 60 s) bucket with min, mean and
  max, for ``total_seconds`` (default 24 h).

At a 1 s interval with 8 GPUs (about 130 columns) that is about 4 MB. The
sampler thread appends; the GUI thread reads copies; a lock keeps them apart.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from configurator.core.units import GIB
from configurator.monitor.snapshot import Snapshot

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]


def snapshot_values(s: Snapshot) -> dict[str, float | None]:
    """The plotted and recorded numbers of a snapshot, by column name."""
    h = s.host
    t = h.training
    v: dict[str, float | None] = {
        "host.cpu": h.cpu_percent,
        "host.iowait": h.iowait_percent,
        "host.load1": h.load_1m,
        "host.mem": h.memory_percent,
        "host.mem_used_gib": None if h.memory_used_bytes is None else h.memory_used_bytes / GIB,
        "host.swap_used_gib": None if h.swap_used_bytes is None else h.swap_used_bytes / GIB,
        "host.disk_read": h.disk_read_bytes_per_s,
        "host.disk_write": h.disk_write_bytes_per_s,
        "host.net_rx": h.net_rx_bytes_per_s,
        "host.net_tx": h.net_tx_bytes_per_s,
        "host.own_cpu": h.own_cpu_percent,
        "host.train_cpu": None if t is None else t.cpu_percent + sum(t.workers_cpu_percent),
        "host.cpu_energy": h.cpu_energy_j,
        # the training process and its DataLoader workers, as GPU-6's bottleneck reads them
        "host.main_cpu": None if t is None else t.cpu_percent,
        "host.workers": None if t is None else float(t.workers),
        "host.workers_min_cpu": None if t is None or not t.workers_cpu_percent else min(t.workers_cpu_percent),
    }
    for g in s.gpus:
        keys = _GPU_KEYS.get(g.id)
        if keys is None:
            keys = _GPU_KEYS[g.id] = tuple(f"gpu{g.id}.{name}" for name in _GPU_COLUMNS)
        v.update(zip(keys, (
            g.utilization_gpu_percent, g.utilization_memory_percent, g.memory_percent,
            None if g.memory_used_bytes is None else g.memory_used_bytes / GIB, g.temperature_c, g.power_w,
            g.fan_percent, g.sm_clock_mhz, g.pcie_rx_bytes_per_s, g.pcie_tx_bytes_per_s, g.energy_j,
            None if g.throttle_reasons is None else float(g.throttle_reasons), float(len(g.processes)),
            g.pcie_gen, g.pcie_width, g.pcie_gen_max, g.pcie_width_max), strict=True))
    return v


# A GPU's columns, and their names by GPU id: made once, not every sample (the same string
# objects each time also make the ring's "same columns as last time?" check a matter of identity).
_GPU_COLUMNS = ("util", "memutil", "mem", "mem_used_gib", "temp", "power", "fan", "sm_clock", "pcie_rx", "pcie_tx",
                "energy", "throttle", "procs", "pcie_gen", "pcie_width", "pcie_gen_max", "pcie_width_max")
_GPU_KEYS: dict[str, tuple[str, ...]] = {}


class History:
    def __init__(self, interval_s: float = 1.0, *, full_seconds: float = 3600.0, total_seconds: float = 86400.0,
                 bucket_s: float = 60.0, max_rows: int = 72_000):
        if interval_s <= 0:
            raise ValueError("interval must be positive")
        self.full_seconds = full_seconds
        self.total_seconds = total_seconds
        self.bucket_s = bucket_s
        self.max_rows = max_rows
        self.keys: dict[str, int] = {}
        self._last_names: tuple[str, ...] = ()  # the names of the last row appended, and their columns
        self._last_cols: npt.NDArray[np.intp] | None = None
        self._lock = threading.Lock()
        self._version = 0  # counts changes of the rows: appends, resizes
        self.generation = 0  # counts resizes: rows read before one are not where they were
        self._window_cache: tuple[tuple[int, float, float | None], tuple[F64, npt.NDArray[np.intp]]] | None = None
        self.capacity = self._capacity_for(interval_s)
        self._t: F64 = np.full(self.capacity, np.nan)
        self._v: F32 = np.full((self.capacity, 0), np.nan, dtype=np.float32)
        self._head = 0
        self._n = 0
        self.agg_capacity = math.ceil(total_seconds / bucket_s)
        self._at: F64 = np.full(self.agg_capacity, np.nan)
        self._amin: F32 = np.full((self.agg_capacity, 0), np.nan, dtype=np.float32)
        self._amean: F32 = self._amin.copy()
        self._amax: F32 = self._amin.copy()
        self._ahead = 0
        self._an = 0
        # The open bucket: its start, and how many of the newest rows are in it. Its min/mean/max
        # are worked out from those rows when it closes (or is asked for), not on every append.
        self._cur_start: float | None = None
        self._cur_rows = 0

    def _capacity_for(self, interval_s: float) -> int:
        """Rows for ``full_seconds`` (and at least one bucket: the open bucket is read from them)."""
        return max(64, min(self.max_rows, math.ceil(max(self.full_seconds, self.bucket_s) / interval_s) + 1))

    # -- writing -----------------------------------------------------------------------------------------------------
    def _add_columns(self, names: list[str]) -> None:
        k = len(names)
        for name in names:
            self.keys[name] = len(self.keys)

        def grow(a: F32) -> F32:
            return np.concatenate([a, np.full((a.shape[0], k), np.nan, dtype=np.float32)], axis=1)

        self._v, self._amin, self._amean, self._amax = (grow(self._v), grow(self._amin), grow(self._amean),
                                                        grow(self._amax))

    def append(self, t: float, values: Mapping[str, float | None]) -> None:
        names = tuple(values)
        with self._lock:
            if names != self._last_names:  # a GPU came or went: (new) columns for these names
                new = [k for k in names if k not in self.keys]
                if new:
                    self._add_columns(new)
                self._last_names = names
                cols = [self.keys[k] for k in names]
                # None: the row's values are every column in order (the usual case), written as they are
                self._last_cols = None if cols == list(range(len(self.keys))) else np.array(cols, dtype=np.intp)
            start = math.floor(t / self.bucket_s) * self.bucket_s
            if start != self._cur_start:
                if self._cur_start is not None:
                    self._close_bucket()
                self._cur_start, self._cur_rows = start, 0
            row = np.array([math.nan if x is None else x for x in values.values()], dtype=np.float64)
            if self._last_cols is None:
                self._v[self._head] = row
            else:
                self._v[self._head] = np.nan
                self._v[self._head, self._last_cols] = row
            self._t[self._head] = t
            self._head = (self._head + 1) % self.capacity
            self._version += 1
            self._n = min(self._n + 1, self.capacity)
            self._cur_rows += 1

    def _bucket_stats(self, col: int | None = None) -> tuple[F64, F64, F64]:
        """Min, mean and max of each column (or of column ``col`` alone) over the open bucket's
        rows (NaN where it has none)."""
        k = min(self._cur_rows, self._n)
        if k == 0:
            empty = np.full(len(self.keys) if col is None else 1, np.nan)
            return empty, empty.copy(), empty.copy()
        idx = (self._head - k + np.arange(k)) % self.capacity
        rows = (self._v[idx] if col is None else self._v[idx, col:col + 1]).astype(np.float64)
        ok = ~np.isnan(rows)
        count = ok.sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(count > 0, np.where(ok, rows, 0.0).sum(axis=0) / np.maximum(count, 1), np.nan)
        return np.fmin.reduce(rows, axis=0), mean, np.fmax.reduce(rows, axis=0)

    def _close_bucket(self) -> None:
        assert self._cur_start is not None
        i = self._ahead
        self._at[i] = self._cur_start
        self._amin[i], self._amean[i], self._amax[i] = self._bucket_stats()
        self._ahead = (i + 1) % self.agg_capacity
        self._an = min(self._an + 1, self.agg_capacity)

    def set_interval(self, interval_s: float) -> None:
        """Resize the full-resolution ring so it still spans ``full_seconds``; keeps the newest rows."""
        if interval_s <= 0:
            raise ValueError("interval must be positive")
        with self._lock:
            cap = self._capacity_for(interval_s)
            if cap == self.capacity:
                return
            order = self._order()
            keep = order[-cap:]
            t = np.full(cap, np.nan)
            v = np.full((cap, len(self.keys)), np.nan, dtype=np.float32)
            t[:len(keep)] = self._t[keep]
            v[:len(keep)] = self._v[keep]
            self._t, self._v, self.capacity = t, v, cap
            self._version += 1
            self.generation += 1
            self._n = len(keep)
            self._head = self._n % cap

    # -- reading -----------------------------------------------------------------------------------------------------
    def _order(self) -> npt.NDArray[np.intp]:
        return (self._head - self._n + np.arange(self._n)) % self.capacity

    def __len__(self) -> int:
        return self._n

    def series(self, key: str, seconds: float, now: float | None = None) -> tuple[F64, F64]:
        """Times and values of one column over the last ``seconds``: full resolution up to
        ``full_seconds``, bucket means (with the open bucket) beyond."""
        if seconds > self.full_seconds:
            t, _lo, mean, _hi = self.aggregate(key, seconds, now)
            return t, mean
        if key not in self.keys:
            return np.empty(0), np.empty(0)
        t, values = self.columns([key], seconds, now)
        return t, values[:, 0]

    def columns(self, keys: list[str], seconds: float, now: float | None = None) -> tuple[F64, F64]:
        """Times, and the values of several columns side by side (NaN for a key never recorded),
        over the last ``seconds`` at full resolution: one read for a plot's lines."""
        with self._lock:
            if self._n == 0:
                return np.empty(0), np.empty((0, len(keys)))
            t, rows = self._window(min(seconds, self.full_seconds), now)
            out = np.full((len(t), len(keys)), np.nan)
            known = [(i, self.keys[k]) for i, k in enumerate(keys) if k in self.keys]
            if known:
                where = np.array([i for i, _c in known], dtype=np.intp)
                cols = np.array([c for _i, c in known], dtype=np.intp)
                out[:, where] = self._v[rows[:, None], cols]
            return t.copy(), out

    def rows_after(self, keys: list[str], after: float, limit: int) -> list[tuple[float, list[float]]] | None:
        """The rows newer than time ``after``, oldest first: each its time and the values of
        ``keys`` (NaN for a key not recorded), as floats. None if there are more than ``limit``
        (read ``columns`` instead). What a plot adds to its lines since its last redraw: a row
        or two, read without building arrays."""
        with self._lock:
            cols = [self.keys.get(k) for k in keys]
            out: list[tuple[float, list[float]]] = []
            i = self._head
            for _ in range(self._n):
                i = (i - 1) % self.capacity
                t = float(self._t[i])
                if not t > after:
                    break
                if len(out) == limit:
                    return None
                row = self._v[i]
                out.append((t, [math.nan if c is None else float(row[c]) for c in cols]))
            out.reverse()
            return out

    def _window(self, seconds: float, now: float | None) -> tuple[F64, npt.NDArray[np.intp]]:
        """The times, and ring rows, of the last ``seconds``: the same for every column of a
        redraw, so worked out once for them (until the next append)."""
        key = (self._version, seconds, now)
        if self._window_cache is None or self._window_cache[0] != key:
            idx = self._order()
            t = self._t[idx]
            end = t[-1] if now is None else now
            first = int(np.searchsorted(t, end - seconds, side="left"))
            self._window_cache = (key, (t[first:], idx[first:]))
        return self._window_cache[1]

    def aggregate(self, key: str, seconds: float, now: float | None = None) -> tuple[F64, F64, F64, F64]:
        """Bucket mid-times with min, mean and max over the last ``seconds`` (the open bucket last)."""
        with self._lock:
            col = self.keys.get(key)
            empty = np.empty(0)
            if col is None:
                return empty, empty, empty, empty
            idx = (self._ahead - self._an + np.arange(self._an)) % self.agg_capacity
            t = self._at[idx] + self.bucket_s / 2
            lo = self._amin[idx, col].astype(np.float64)
            mean = self._amean[idx, col].astype(np.float64)
            hi = self._amax[idx, col].astype(np.float64)
            if self._cur_start is not None:
                cur_lo, cur_mean, cur_hi = self._bucket_stats(col)
                if not np.isnan(cur_mean[0]):
                    t = np.append(t, self._cur_start + self.bucket_s / 2)
                    lo, mean, hi = np.append(lo, cur_lo), np.append(mean, cur_mean), np.append(hi, cur_hi)
            if len(t) == 0:
                return empty, empty, empty, empty
            last = self._t[(self._head - 1) % self.capacity] if self._n else t[-1]
            end = last if now is None else now
            keep = t >= end - seconds
            return t[keep], lo[keep], mean[keep], hi[keep]

    @property
    def nbytes(self) -> int:
        arrays = (self._t, self._v, self._at, self._amin, self._amean, self._amax)
        return int(sum(a.nbytes for a in arrays))


UNITS = {
    "cpu": "%", "iowait": "%", "load1": "", "mem": "%", "mem_used_gib": "GiB", "swap_used_gib": "GiB",
    "disk_read": "B/s", "disk_write": "B/s", "net_rx": "B/s", "net_tx": "B/s", "own_cpu": "% of a core",
    "train_cpu": "% of a core", "util": "%", "memutil": "%", "temp": "°C", "power": "W", "fan": "%",
    "sm_clock": "MHz", "pcie_rx": "B/s", "pcie_tx": "B/s", "energy": "J", "cpu_energy": "J",
    "throttle": "NVML bitmask", "main_cpu": "% of a core", "workers_min_cpu": "% of a core",
}


def unit_of(key: str) -> str:
    return UNITS.get(key.rsplit(".", 1)[-1], "")
