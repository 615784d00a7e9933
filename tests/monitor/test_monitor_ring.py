"""History rings: full resolution for the last hour, min/mean/max beyond."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from configurator.monitor.ring import History


def test_series_returns_the_window_in_order() -> None:
    h = History(1.0, full_seconds=100)
    for i in range(250):  # wraps around the 101-row ring twice
        h.append(float(i), {"a": float(i), "b": None if i % 2 else float(-i)})
    t, y = h.series("a", 10)
    assert list(t) == [float(i) for i in range(239, 250)] and list(y) == list(t)
    t, y = h.series("a", 100)
    assert len(t) == 101 and t[0] == 149.0
    _t, b = h.series("b", 3)
    assert np.isnan(b[1]) and b[0] == -246.0
    assert h.series("nope", 10)[0].size == 0


def test_aggregates_beyond_the_full_window() -> None:
    h = History(1.0, full_seconds=60, bucket_s=60, total_seconds=3600)
    for i in range(600):  # 10 minutes at 1 s: 10 buckets
        h.append(float(i), {"u": float(i % 60)})
    t, lo, mean, hi = h.aggregate("u", 3600)
    assert len(t) == 10
    assert list(lo) == [0.0] * 10 and list(hi) == [59.0] * 10 and mean[0] == pytest.approx(29.5)
    assert t[0] == 30.0  # bucket mid-time
    # a window longer than full_seconds is served from the aggregates
    t2, y2 = h.series("u", 300)
    assert len(t2) == 5 and y2[-1] == pytest.approx(29.5)


def test_aggregate_ring_keeps_only_total_seconds() -> None:
    h = History(10.0, full_seconds=60, bucket_s=60, total_seconds=600)
    for i in range(0, 3600, 10):
        h.append(float(i), {"u": 1.0})
    t, _lo, _mean, _hi = h.aggregate("u", 10**6)
    assert len(t) == 11  # 10 closed buckets + the open one


def test_open_bucket_is_summarised_from_its_rows() -> None:
    """The bucket still filling shows its min/mean/max so far, gaps (None) left out, a column
    that appeared during it counted from then on; closing it keeps the same figures."""
    h = History(1.0, full_seconds=60, bucket_s=60, total_seconds=3600)
    for i in range(60, 90):
        row: dict[str, float | None] = {"u": None if i % 3 == 0 else float(i)}
        if i >= 80:
            row["v"] = 2.0 * i
        h.append(float(i), row)
    seen = [float(i) for i in range(60, 90) if i % 3]
    t, lo, mean, hi = h.aggregate("u", 3600)
    assert t.tolist() == [90.0] and lo[0] == min(seen) and hi[0] == max(seen)
    assert mean[0] == pytest.approx(sum(seen) / len(seen))
    _t, v_lo, v_mean, v_hi = h.aggregate("v", 3600)
    assert (v_lo[0], v_mean[0], v_hi[0]) == (160.0, pytest.approx(169.0), 178.0)
    h.append(120.0, {"u": 1.0, "v": 1.0})  # closes the bucket
    t, lo, mean, hi = h.aggregate("u", 3600)
    assert t.tolist() == [90.0, 150.0] and lo[0] == min(seen) and mean[0] == pytest.approx(sum(seen) / len(seen))
    assert (lo[1], mean[1], hi[1]) == (1.0, 1.0, 1.0)


def test_new_columns_appear_later() -> None:
    h = History(1.0)
    h.append(0.0, {"a": 1.0})
    h.append(1.0, {"a": 2.0, "gpu1.util": 50.0})
    _t, y = h.series("gpu1.util", 10)
    assert math.isnan(y[0]) and y[1] == 50.0


def test_set_interval_keeps_the_newest_rows() -> None:
    h = History(1.0, full_seconds=100)
    for i in range(100):
        h.append(float(i), {"a": float(i)})
    h.set_interval(10.0)  # capacity shrinks to 64 rows (the minimum)
    t, y = h.series("a", 100)
    assert t[-1] == 99.0 and len(t) == h.capacity == 64 and list(y) == list(t)
    h.append(100.0, {"a": 100.0})
    assert h.series("a", 1)[1].tolist() == [99.0, 100.0]


def test_24h_of_8_gpus_at_1s_fits_in_50_mb() -> None:
    from configurator.monitor.fake_nvml import several
    from configurator.monitor.ring import snapshot_values
    from configurator.monitor.snapshot import GpuSample, HostSample, NvmlStatus, Snapshot

    gpus = tuple(GpuSample(i, str(i), g.name, g.uuid, utilization_gpu_percent=50.0)
                 for i, g in enumerate(several(8).gpus))
    snap = Snapshot(0.0, 1, HostSample("h"), NvmlStatus(True), gpus)
    h = History(1.0)
    h.append(0.0, snapshot_values(snap))
    assert len(h.keys) > 8 * 10
    # Fixed size: the arrays never grow with time, only with columns.
    assert h.nbytes < 50 * 1024**2
    before = h.nbytes
    for i in range(1, 5000):
        h.append(float(i), snapshot_values(snap))
    assert h.nbytes == before


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), min_size=1, max_size=300),
       st.integers(min_value=1, max_value=100))
def test_series_matches_a_naive_list(values: list[float], window: int) -> None:
    h = History(1.0, full_seconds=100)
    for i, v in enumerate(values):
        h.append(float(i), {"x": v})
    t, y = h.series("x", window)
    last = len(values) - 1
    expect = [(float(i), v) for i, v in enumerate(values) if i >= last - window][-h.capacity:]
    assert t.tolist() == [a for a, _b in expect]
    assert y.tolist() == [np.float32(b).item() for _a, b in expect]


def test_columns_side_by_side_match_each_series() -> None:
    """A plot reads its lines in one go: the same times and values as one series at a time."""
    h = History(1.0, full_seconds=120)
    for i in range(200):
        h.append(float(i), {"gpu0.util": float(i % 100), "gpu0.mem": 50.0 if i % 7 else None})
    t, ys = h.columns(["gpu0.util", "gpu0.mem", "gpu9.util"], 60, 199.0)
    for i, key in enumerate(["gpu0.util", "gpu0.mem"]):
        ts, y = h.series(key, 60, 199.0)
        assert np.array_equal(t, ts) and np.array_equal(ys[:, i], y, equal_nan=True)
    assert len(t) == 61 and t[0] == 139.0 and t[-1] == 199.0
    assert np.isnan(ys[:, 2]).all()  # never recorded: a gap, not an error
    assert np.isnan(ys[list(t).index(140.0), 1])  # a missing sample stays missing
    empty_t, empty = History(1.0).columns(["a"], 60)
    assert len(empty_t) == 0 and empty.shape == (0, 1)


def test_rows_after_gives_the_newest_rows_or_none_when_there_are_many() -> None:
    h = History(1.0, full_seconds=60)
    for i in range(100):  # the ring (61 rows) has wrapped
        h.append(float(i), {"a": float(i), "b": None if i % 2 else 2.0 * i})
    rows = h.rows_after(["b", "a", "gone"], 96.0, limit=8)
    assert rows is not None and [t for t, _v in rows] == [97.0, 98.0, 99.0]
    assert rows[1][1][:2] == [196.0, 98.0] and math.isnan(rows[0][1][0]) and math.isnan(rows[0][1][2])
    assert h.rows_after(["a"], 99.0, limit=8) == []
    assert h.rows_after(["a"], 90.0, limit=8) is None  # nine rows: read the window instead
    generation = h.generation
    h.set_interval(0.5)
    assert h.generation == generation + 1  # rows moved: a reader's place in the ring is gone


def test_a_row_is_stored_as_float32_with_none_as_a_gap() -> None:
    h = History(1.0)
    h.append(0.0, {"a": 0.1, "b": None, "c": 3_500_000_123})  # a float, a gap, a large integer (bytes/s)
    h.append(1.0, {"a": None, "b": 7, "c": 1e-3})
    h.append(2.0, {"c": 2.5, "a": 1.0})  # fewer columns, another order: placed by name
    t, values = h.columns(["a", "b", "c"], 60)
    assert list(t) == [0.0, 1.0, 2.0]
    expected = [[np.float32(0.1), np.nan, np.float32(3_500_000_123)], [np.nan, 7.0, np.float32(1e-3)],
                [1.0, np.nan, 2.5]]
    assert np.array_equal(values, np.array(expected, dtype=np.float64), equal_nan=True)


def test_a_source_without_columns_yet_is_a_history_of_gaps() -> None:
    """A remote host that has not answered yet (or answered nothing usable) gives rows without
    columns: appending and reading them must work (it raised "memoryview: cannot cast view with
    zeros in shape or strides" from the plot's redraw, three error dialogs a second)."""
    h = History(1.0)
    for i in range(3):
        h.append(float(i), {})
    rows = h.rows_after(["gpu0.util"], -1.0, limit=8)
    assert rows is not None and [t for t, _v in rows] == [0.0, 1.0, 2.0]
    assert all(math.isnan(v[0]) for _t, v in rows)
    t, values = h.columns(["gpu0.util"], 60)
    assert list(t) == [0.0, 1.0, 2.0] and np.isnan(values).all()
    h.append(3.0, {"gpu0.util": 50.0})  # the host answers: its column starts, earlier rows are gaps
    t, values = h.columns(["gpu0.util"], 60)
    assert list(t) == [0.0, 1.0, 2.0, 3.0] and values[-1, 0] == 50.0 and np.isnan(values[:-1]).all()
