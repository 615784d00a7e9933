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

    def sync(self) -> None:
        if self.device == "cuda":
            self.torch.cuda.synchronize()
        elif self.device == "mps":
            self.torch.mps.synchronize()

    def measure(self, step: Any, **overrides: Any) -> Timing:
        opts: dict[str, Any] = {k: self.params[k] for k in ("min_time", "min_reps", "warmup") if k in self.params}
        opts.update(overrides)
        return measure(step, sync=self.sync, **opts)

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
