"""What every workload gets: the device, its parameters, timing with the device's sync,
and the settings it must record."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from configurator.bench.protocol import Emitter
from configurator.bench.stats import Timing, measure


class Skip(Exception):  # noqa: N818 - a control-flow signal, not an error
    """A workload (or one of its rows) does not apply here; ``text`` is a translatable template."""

    def __init__(self, text: str, **params: Any):
        super().__init__(text.format(**params))
        self.text = text
        self.params = params


def is_oom(exc: BaseException) -> bool:
    name = type(exc).__name__
    if name in ("OutOfMemoryError", "MemoryError"):
        return True
    text = str(exc).lower()
    return isinstance(exc, RuntimeError) and ("out of memory" in text or "can't allocate memory" in text)


@dataclass
class Context:
    job: str
    torch: Any
    device: str  # cpu | cuda | mps (resolved)
    params: dict[str, Any]
    emit: Emitter
    fingerprint: dict[str, Any] = field(default_factory=dict)
    # Energy of each timed window since the last :meth:`energy_details` (configurator.bench.energy).
    readings: list[Any] = field(default_factory=list)
    meter: Any = None

    def sync(self) -> None:
        if self.device == "cuda":
            self.torch.cuda.synchronize()
        elif self.device == "mps":
            self.torch.mps.synchronize()

    def measure(self, step: Any, **overrides: Any) -> Timing:
        opts: dict[str, Any] = {k: self.params[k] for k in ("min_time", "min_reps", "warmup") if k in self.params}
        opts.update(overrides)
        meter = self.energy_meter()
        meter.start()
        timing = measure(step, sync=self.sync, **opts)
        reading = meter.stop()
        if reading is not None:
            self.readings.append(reading)
        return timing

    def energy_meter(self) -> Any:
        if self.meter is None:
            from configurator.bench.energy import EnergyMeter

            index, uuid = 0, None
            if self.device == "cuda":
                index = self.torch.cuda.current_device()
                props = self.torch.cuda.get_device_properties(index)
                uuid = str(getattr(props, "uuid", "") or "") or None
            self.meter = EnergyMeter(self.device, gpu_index=index, gpu_uuid=uuid)
        return self.meter

    def energy_details(self, rate: float | None, unit: str) -> dict[str, Any]:
        """``{"energy": ...}`` for a result row: the timed windows since the last call (None: not measurable)."""
        from configurator.bench.energy import Reading

        got, self.readings = self.readings, []
        if not got:
            return {"energy": None}
        total = Reading(sum(r.joules for r in got), sum(r.seconds for r in got), got[0].method)
        return {"energy": total.details(rate, unit)}

    def reset_peak_memory(self) -> None:
        """Start a workload's peak-memory count (CUDA's caching allocator; nothing elsewhere)."""
        if self.device == "cuda":
            self.torch.cuda.reset_peak_memory_stats()

    def peak_memory_details(self) -> dict[str, Any]:
        """CUDA's peak allocated memory since :meth:`reset_peak_memory` (``torch.cuda.max_memory_allocated``);
        on other devices none (n/a)."""
        if self.device != "cuda":
            return {"peak_memory_bytes": None}
        peak = int(self.torch.cuda.max_memory_allocated())
        return {"peak_memory_bytes": peak, "peak_memory_gib": round(peak / 1024**3, 3)}

    def settings(self, **extra: Any) -> dict[str, Any]:
        t = self.torch
        s: dict[str, Any] = {
            "device": self.device,
            "threads": t.get_num_threads(),
            "torch": t.__version__,
            "tf32_matmul": bool(t.backends.cuda.matmul.allow_tf32),
            "tf32_cudnn": bool(t.backends.cudnn.allow_tf32),
            "float32_matmul_precision": t.get_float32_matmul_precision(),
        }
        for key in ("min_time", "min_reps", "warmup"):
            if key in self.params:
                s[key] = self.params[key]
        if hasattr(os, "getloadavg"):  # a busy machine explains a slow figure
            s["load_avg_1m"] = round(os.getloadavg()[0], 2)
        s.update(extra)
        return s

    def gpu_capability(self) -> tuple[int, int] | None:
        if self.device != "cuda":
            return None
        cap: tuple[int, int] = self.torch.cuda.get_device_capability()
        return cap


def timing_details(t: Timing) -> dict[str, Any]:
    return {"reps": t.count, "warmup": t.warmup, "steps_per_sample": t.steps_per_sample,
            "seconds": [round(s, 6) for s in t.seconds[:200]]}


# Grandchildren (torchrun) started by a workload: the worker stops them when it is stopped.
CHILDREN: list[Any] = []


def stop_children() -> None:
    import signal

    for proc in CHILDREN:
        if proc.poll() is None:
            try:
                if hasattr(os, "killpg"):
                    os.killpg(proc.pid, signal.SIGKILL)
                else:
                    proc.kill()
            except OSError:
                pass


class WorkloadError(Exception):
    """A workload failed for a reason it can say in words: ``text`` is a translatable template (context
    "bench") that the worker reports as the job's error."""

    def __init__(self, text: str, **params: Any):
        super().__init__(text.format(**params))
        self.text = text
        self.params = params
