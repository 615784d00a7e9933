"""Energy a workload used, measured in the benchmark worker (standard library, pynvml where installed).

- CUDA: the GPU's NVML total energy counter (``nvmlDeviceGetTotalEnergyConsumption``, millijoules since
  the driver loaded; Volta and later) of the GPU torch runs on, read before and after the timed window;
  method ``nvml-energy-counter``.
- CUDA on a GPU without the counter (before Volta: a GTX 10 series, a P100): the GPU's power draw
  (``nvmlDeviceGetPowerUsage``) sampled every 0.1 s through the window on a thread of its own and
  integrated (trapezoids); method ``nvml-power-integrated``.
- CPU: the package counters of Linux's powercap interface (RAPL, :class:`configurator.host.rapl.Rapl`)
  where they are readable (often root only); method ``rapl-package``. They count the whole package
  (all cores, other processes too), which the result says.
- Otherwise nothing: the result says n/a, never a guess.

Joules per sample is the window's mean power divided by the workload's median rate (img/s, tokens/s,
TFLOPS, GB/s), so one "sample" is the unit of work of that rate: an image, a token, a TFLOP, a GB.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from configurator.host.rapl import Rapl

NVML = "nvml-energy-counter"
NVML_POWER = "nvml-power-integrated"
RAPL = "rapl-package"
METHODS = (NVML, NVML_POWER, RAPL)
POWER_INTERVAL_S = 0.1  # how often the power draw is sampled where there is no energy counter
# The unit of work in a rate's unit: joules per sample are joules per one of these.
PER = {"img/s": "image", "images/s": "image", "tokens/s": "token", "sequences/s": "sequence",
       "TFLOPS": "TFLOP", "GB/s": "GB"}


@dataclass(frozen=True)
class Reading:
    joules: float
    seconds: float
    method: str

    @property
    def mean_w(self) -> float:
        return self.joules / self.seconds if self.seconds > 0 else 0.0

    def details(self, rate: float | None, unit: str) -> dict[str, Any]:
        """The ``details["energy"]`` of a result row measured at ``rate`` ``unit``."""
        per = PER.get(unit)
        jps = self.mean_w / rate if rate and rate > 0 and per is not None else None
        return {"joules": round(self.joules, 3), "seconds": round(self.seconds, 3), "mean_w": round(self.mean_w, 2),
                "method": self.method, "joules_per_sample": None if jps is None else float(f"{jps:.4g}"),
                "per": per}


class _Nvml:
    """The energy counter of one GPU; None from :meth:`read` when there is none."""

    def __init__(self, lib: Any, index: int, uuid: str | None):
        self.lib = lib
        lib.nvmlInit()
        handle = None
        if uuid:
            for i in range(lib.nvmlDeviceGetCount()):
                h = lib.nvmlDeviceGetHandleByIndex(i)
                got = lib.nvmlDeviceGetUUID(h)
                got = got.decode() if isinstance(got, bytes) else str(got)
                if got.lower().removeprefix("gpu-") == uuid.lower().removeprefix("gpu-"):
                    handle = h
                    break
        self.handle = handle if handle is not None else lib.nvmlDeviceGetHandleByIndex(index)

    def read(self) -> float | None:
        try:
            return float(self.lib.nvmlDeviceGetTotalEnergyConsumption(self.handle)) / 1000.0
        except self.lib.NVMLError:
            return None

    def power_w(self) -> float | None:
        try:
            return float(self.lib.nvmlDeviceGetPowerUsage(self.handle)) / 1000.0
        except self.lib.NVMLError:
            return None

    def close(self) -> None:
        with contextlib.suppress(self.lib.NVMLError):
            self.lib.nvmlShutdown()


class _PowerIntegral:
    """Joules from a power reading sampled on a thread between :meth:`begin` and :meth:`end`: the
    trapezoids between successive readings (a reading that fails is skipped)."""

    def __init__(self, power_w: Callable[[], float | None], clock: Callable[[], float],
                 interval_s: float = POWER_INTERVAL_S):
        self.power_w, self.clock, self.interval_s = power_w, clock, interval_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._joules = 0.0
        self._last: tuple[float, float] | None = None
        self._first_t: float | None = None

    @property
    def seconds(self) -> float:
        """The time the integral covers: its first reading to its last (the window's own clock may start a
        little later, after the sampling thread started: on a busy machine, tens of milliseconds)."""
        if self._first_t is None or self._last is None:
            return 0.0
        return self._last[1] - self._first_t

    def _sample(self) -> None:
        p, t = self.power_w(), self.clock()
        if p is None:
            return
        if self._first_t is None:
            self._first_t = t
        if self._last is not None:
            p0, t0 = self._last
            self._joules += (p0 + p) / 2 * max(t - t0, 0.0)
        self._last = (p, t)

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            self._sample()

    def begin(self) -> None:
        self._joules, self._last, self._first_t = 0.0, None, None
        self._sample()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="power-integral", daemon=True)
        self._thread.start()

    def end(self) -> float | None:
        """The joules since :meth:`begin` (None where power could not be read twice)."""
        if self._thread is None:
            return None
        self._stop.set()
        self._thread.join()
        self._thread = None
        self._sample()
        return self._joules if self._last is not None and self._joules > 0 else None


def _pynvml() -> Any:
    try:
        import pynvml
    except ImportError:
        return None
    return pynvml


class EnergyMeter:
    """``start()`` before a workload's timed window, ``stop()`` after it: a :class:`Reading` or None."""

    def __init__(self, device: str, *, gpu_index: int = 0, gpu_uuid: str | None = None, nvml: Any = None,
                 rapl_root: Path = Path("/sys/class/powercap"), clock: Callable[[], float] = time.monotonic):
        self.device = device
        self.clock = clock
        self.method: str | None = None
        self._read: Callable[[], float | None] | None = None
        self._close: Callable[[], None] = lambda: None
        self._start: tuple[float, float] | None = None
        self._integral: _PowerIntegral | None = None
        if device == "cuda":
            lib = nvml if nvml is not None else _pynvml()
            if lib is not None:
                try:
                    counter = _Nvml(lib, gpu_index, gpu_uuid)
                except Exception:  # no driver, no library, no such GPU: no reading
                    counter = None
                if counter is not None and counter.read() is not None:
                    self._read, self._close, self.method = counter.read, counter.close, NVML
                elif counter is not None and counter.power_w() is not None:  # no counter (before Volta)
                    self._integral = _PowerIntegral(counter.power_w, clock)
                    self._close, self.method = counter.close, NVML_POWER
                elif counter is not None:
                    counter.close()
        elif device == "cpu":
            rapl = Rapl(rapl_root)
            if rapl.available and rapl.read() is not None:
                self._read, self.method = rapl.read, RAPL

    @property
    def available(self) -> bool:
        return self._read is not None or self._integral is not None

    def start(self) -> None:
        if self._integral is not None:
            self._integral.begin()
            self._start = (0.0, self.clock())
        elif self._read is not None:
            j = self._read()
            self._start = None if j is None else (j, self.clock())

    def stop(self) -> Reading | None:
        if self._start is None or self.method is None:
            return None
        j0, t0 = self._start
        self._start = None
        if self._integral is not None:
            joules = self._integral.end()
            return None if joules is None else Reading(joules, self._integral.seconds, self.method)
        j = self._read() if self._read is not None else None
        if j is None or j < j0:
            return None
        return Reading(j - j0, self.clock() - t0, self.method)

    def close(self) -> None:
        self._close()
