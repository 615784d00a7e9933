"""Helpers: time whole commands, take medians, print a ratio table."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence


def time_command(argv: Sequence[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    # Bytecode may be written, as where the app is installed (a wheel compiles it): with
    # PYTHONDONTWRITEBYTECODE set, an editable install recompiles its own modules on every start.
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.run(list(argv), env={**base, **(env or {})}, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return elapsed


def median_iqr(samples: Sequence[float]) -> tuple[float, float]:
    q = statistics.quantiles(samples, n=4) if len(samples) >= 2 else [samples[0]] * 3
    return statistics.median(samples), q[2] - q[0]


def python() -> str:
    return sys.executable


def report(title: str, baseline_name: str, rows: list[tuple[str, list[float]]], baseline: list[float]) -> None:
    base, base_iqr = median_iqr(baseline)
    print(f"\n== {title} ==")
    print(f"{'measurement':<48} {'median':>10} {'IQR':>9} {'ratio':>8}")
    print(f"{baseline_name + ' (baseline)':<48} {base * 1000:>8.1f}ms {base_iqr * 1000:>7.1f}ms {1.0:>7.2f}x")
    for name, samples in rows:
        med, iqr = median_iqr(samples)
        print(f"{name:<48} {med * 1000:>8.1f}ms {iqr * 1000:>7.1f}ms {med / base:>7.2f}x")
