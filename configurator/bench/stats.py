"""Timing loops and robust statistics (standard library only).

Every workload times its steps with :func:`measure`: warm-up steps are run and
thrown away, the device is synchronised before each clock read, and steps are
repeated until both a minimum time and a minimum count are reached.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass


def quartiles(samples: Sequence[float]) -> tuple[float, float, float]:
    """(Q1, median, Q3), inclusive method; a single sample is its own quartiles."""
    if not samples:
        raise ValueError("no samples")
    if len(samples) == 1:
        v = float(samples[0])
        return v, v, v
    q1, q2, q3 = statistics.quantiles(samples, n=4, method="inclusive")
    return q1, q2, q3


def median_iqr(samples: Sequence[float]) -> tuple[float, float]:
    q1, med, q3 = quartiles(samples)
    return med, q3 - q1


@dataclass(frozen=True)
class Timing:
    """Seconds per step of each timed repetition (warm-up excluded)."""

    seconds: tuple[float, ...]
    warmup: int
    steps_per_sample: int = 1

    @property
    def count(self) -> int:
        return len(self.seconds)

    @property
    def total(self) -> float:
        return sum(self.seconds) * self.steps_per_sample

    def rates(self, work_per_step: float) -> list[float]:
        """Throughput of each sample (work per second)."""
        return [work_per_step / s for s in self.seconds if s > 0]

    def rate_stats(self, work_per_step: float) -> tuple[float, float, float]:
        """(best, median, IQR) of the per-sample throughput."""
        rates = self.rates(work_per_step)
        med, iqr = median_iqr(rates)
        return max(rates), med, iqr


def measure(
    step: Callable[[], object],
    *,
    sync: Callable[[], None] = lambda: None,
    warmup: int = 2,
    min_time: float = 1.0,
    min_reps: int = 5,
    max_reps: int = 10_000,
    max_time: float | None = None,
    steps_per_sample: int = 1,
    setup: Callable[[], object] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Timing:
    """Time ``step``: ``warmup`` untimed calls, then samples of ``steps_per_sample`` calls each
    until at least ``min_time`` seconds and ``min_reps`` samples (stopping at ``max_reps`` or,
    once ``min_reps`` are in, at ``max_time``). ``setup`` runs untimed before every sample
    (and before every warm-up step)."""
    if min_reps < 1 or steps_per_sample < 1:
        raise ValueError("min_reps and steps_per_sample must be at least 1")
    for _ in range(warmup):
        if setup is not None:
            setup()
        step()
    sync()
    samples: list[float] = []
    spent = 0.0
    while len(samples) < max_reps:
        if setup is not None:
            setup()
        sync()
        t0 = clock()
        for _ in range(steps_per_sample):
            step()
        sync()
        dt = clock() - t0
        samples.append(dt / steps_per_sample)
        spent += dt
        if len(samples) >= min_reps and (spent >= min_time or (max_time is not None and spent >= max_time)):
            break
    return Timing(tuple(samples), warmup, steps_per_sample)


def calibrate(step: Callable[[], object], sync: Callable[[], None], target_s: float,
              clock: Callable[[], float] = time.perf_counter, limit: int = 1 << 16) -> int:
    """How many steps make one sample last about ``target_s`` (at least 1)."""
    sync()
    t0 = clock()
    step()
    sync()
    one = max(clock() - t0, 1e-9)
    return max(1, min(limit, int(target_s / one)))
