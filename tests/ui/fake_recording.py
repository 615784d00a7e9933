"""A monitor recording of a training run: an RTX 3060 from the fake NVML, read by the real NVML
backend, and a fake host, written by the monitor's own CsvRecorder."""

from __future__ import annotations

from pathlib import Path

from configurator.monitor import fake_nvml
from configurator.monitor.nvml import NvmlBackend
from configurator.monitor.recorder import CsvRecorder
from configurator.monitor.snapshot import HostSample, NvmlStatus, Snapshot, TrainingProcess

GiB = 1024**3


def record(path: Path, seconds: int = 30, util: float = 95.0) -> Path:
    now = [1000.0]
    gpu = fake_nvml.FakeGpu(name="NVIDIA GeForce RTX 3060", memory_total=12 * GiB, power_limit_w=170.0,
                            base_util=util, swing=2.0, memory_fraction=0.6,
                            processes=[fake_nvml.FakeProcess(pid=4242, used_memory=8 * GiB, name="python train.py")])
    backend = NvmlBackend(fake_nvml.FakeNvml(fake_nvml.Scenario([gpu]), clock=lambda: now[0]))
    backend.start()
    rec = CsvRecorder(path)
    for i in range(seconds):
        _status, gpus = backend.sample(slow=True)
        host = HostSample("box", cpu_percent=35.0, iowait_percent=1.0,
                          training=TrainingProcess(4242, "python train.py", 50.0, 4, (40.0,) * 4))
        rec(Snapshot(1_764_000_000.0 + i, i, host, NvmlStatus(True), gpus))
        now[0] += 1.0
    rec.close()
    backend.close()
    return path
