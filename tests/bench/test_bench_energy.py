"""Energy of a benchmark workload: the NVML energy counter (fake NVML), RAPL, or n/a; and where it goes."""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any

import pytest

from configurator.bench.energy import NVML, NVML_POWER, RAPL, EnergyMeter, Reading
from configurator.bench.protocol import Emitter, decode
from configurator.bench.results import RowResult
from configurator.monitor import fake_nvml


def test_nvml_counter_gives_the_energy_of_the_window_of_the_gpu_torch_uses() -> None:
    now = [100.0]
    scenario = fake_nvml.several(2)
    lib = fake_nvml.FakeNvml(scenario, clock=lambda: now[0])
    second = f"GPU-fa6e{1:04x}-0000-4000-8000-{1:012x}"  # torch's uuid of GPU 1 (NVML lists it second)
    meter = EnergyMeter("cuda", gpu_index=0, gpu_uuid=second.removeprefix("GPU-"), nvml=lib, clock=lambda: now[0])
    assert meter.available and meter.method == NVML
    h = lib.nvmlDeviceGetHandleByIndex(1)
    e0 = lib.nvmlDeviceGetTotalEnergyConsumption(h)
    meter.start()
    now[0] += 10.0
    reading = meter.stop()
    assert reading is not None and reading.seconds == 10.0
    assert reading.joules == pytest.approx((lib.nvmlDeviceGetTotalEnergyConsumption(h) - e0) / 1000, abs=0.01)
    g = scenario.gpus[1]
    assert g.idle_power_w <= reading.mean_w <= g.power_limit_w
    d = reading.details(500.0, "img/s")
    assert d["per"] == "image" and d["joules_per_sample"] == pytest.approx(reading.mean_w / 500.0, rel=1e-3)
    assert reading.details(100.0, "TFLOPS")["per"] == "TFLOP"
    meter.close()


class _PowerReadings(fake_nvml.FakeNvml):
    """The fake NVML, saying when the power draw has been read ``enough`` times in all."""

    def __init__(self, scenario: fake_nvml.Scenario):
        super().__init__(scenario)
        self.enough, self.read_enough = 1 << 30, threading.Event()

    def nvmlDeviceGetPowerUsage(self, handle: Any) -> int:
        watts = super().nvmlDeviceGetPowerUsage(handle)
        if self.count("nvmlDeviceGetPowerUsage") >= self.enough:
            self.read_enough.set()
        return watts


def test_without_the_counter_the_power_draw_is_integrated_and_says_so() -> None:
    """A GPU before Volta has no energy counter: its power draw, sampled through the window, is integrated."""
    old = fake_nvml.several(1)
    old.gpus[0].unsupported.add("nvmlDeviceGetTotalEnergyConsumption")  # a pre-Volta GPU
    old.gpus[0].swing = 0.0  # a steady draw: the integral is power × time, however often it was sampled
    lib = _PowerReadings(old)
    meter = EnergyMeter("cuda", nvml=lib)
    assert meter.available and meter.method == NVML_POWER
    watts = lib.nvmlDeviceGetPowerUsage(lib.nvmlDeviceGetHandleByIndex(0)) / 1000
    meter.start()
    lib.enough = lib.count("nvmlDeviceGetPowerUsage") + 3  # three readings of the window's thread, 0.1 s apart
    assert lib.read_enough.wait(timeout=30)
    reading = meter.stop()
    assert reading is not None and reading.method == NVML_POWER and reading.seconds >= 0.25  # 3 × 0.1 s apart
    assert reading.joules == pytest.approx(watts * reading.seconds, rel=0.02)
    assert lib.calls[("nvmlDeviceGetPowerUsage", 0)] >= 4  # sampled through the window, not only at its ends
    assert reading.details(100.0, "img/s")["method"] == NVML_POWER
    meter.close()


def test_no_counter_and_no_power_is_no_reading_never_a_guess(tmp_path: Path) -> None:
    old = fake_nvml.several(1)
    old.gpus[0].unsupported |= {"nvmlDeviceGetTotalEnergyConsumption", "nvmlDeviceGetPowerUsage"}  # a laptop GPU
    meter = EnergyMeter("cuda", nvml=fake_nvml.FakeNvml(old))
    meter.start()
    assert not meter.available and meter.stop() is None
    assert not EnergyMeter("cuda", nvml=fake_nvml.FakeNvml(fake_nvml.driver_not_loaded())).available
    assert not EnergyMeter("cpu", rapl_root=tmp_path / "no-powercap").available
    assert not EnergyMeter("mps").available


def test_rapl_package_counter_on_the_cpu(tmp_path: Path) -> None:
    pkg = tmp_path / "intel-rapl:0"
    pkg.mkdir()
    (pkg / "name").write_text("package-0\n")
    (pkg / "max_energy_range_uj").write_text("262143328850\n")
    (pkg / "energy_uj").write_text("1000000\n")
    now = [5.0]
    meter = EnergyMeter("cpu", rapl_root=tmp_path, clock=lambda: now[0])
    assert meter.method == RAPL
    meter.start()
    (pkg / "energy_uj").write_text("91000000\n")  # 90 J
    now[0] += 2.0
    r = meter.stop()
    assert r == Reading(pytest.approx(90.0), 2.0, RAPL) and r.mean_w == pytest.approx(45.0)  # type: ignore[arg-type]


@pytest.mark.full_env
def test_a_real_workload_reports_its_energy_and_no_cpu_peak_memory() -> None:
    import torch

    from configurator.bench.workloads import get
    from configurator.bench.workloads.common import Context

    buf = io.StringIO()
    ctx = Context("matmul", torch, "cpu", {"min_time": 0.0, "min_reps": 2, "warmup": 1, "shapes": [[32, 32, 32]],
                                           "dtypes": ["fp32"]}, Emitter(buf))
    lib = fake_nvml.FakeNvml(fake_nvml.several(1))  # the counter a GPU would have, over the real time it took
    ctx.meter = EnergyMeter("cuda", nvml=lib)
    get("matmul")(ctx)
    msg = next(decode(x) for x in buf.getvalue().splitlines() if '"result"' in x)
    row = RowResult(msg["name"], "matmul", "ok", msg["value"], msg["unit"], msg["median"], msg["iqr"],
                    msg["settings"], msg["details"])
    e = row.energy
    assert e is not None and e["method"] == NVML and e["per"] == "TFLOP" and e["joules"] > 0
    assert row.joules_per_sample == pytest.approx(e["mean_w"] / msg["median"], rel=0.01)
    assert row.peak_memory_bytes is None  # a CPU has no allocator count of its tensors: n/a
    doc = row.to_json()
    assert doc["energy_method"] == NVML and doc["joules_per_sample"] == row.joules_per_sample
    assert doc["peak_memory_gib"] is None


@pytest.mark.full_env
def test_the_benchmark_tab_says_how_the_energy_was_measured() -> None:
    from configurator.ui.bench.measured_cells import energy_cell

    energy = {"joules": 900.0, "seconds": 5.0, "mean_w": 180.0, "method": NVML_POWER, "joules_per_sample": 0.9,
              "per": "image"}
    row = RowResult("resnet50-train", "resnet50", "ok", 200.0, "img/s", 200.0, 1.0, {}, {"energy": energy})
    text, tip = energy_cell(row, "cuda")
    assert text == "0.9 J/image · NVML power draw sampled every 0.1 s" and "180 W" in tip
    text, tip = energy_cell(RowResult("resnet50-train", "resnet50", "ok", 200.0, "img/s", 200.0, 1.0, {}, {}), "cuda")
    assert text == "n/a" and "neither an energy counter nor the power draw" in tip
