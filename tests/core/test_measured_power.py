"""PWR-4 (throughput per watt) and BUD-3 (electricity) with the draw measured on the machine: they use
the measured watts (plus the platform, which nothing measures) and say so; without it, the estimate."""

from __future__ import annotations

import pytest
from planner_kit import CATALOGUE, finding

from configurator.core import presets
from configurator.core.build import resolve
from configurator.core.engine import check
from configurator.core.estimate.power import MeasuredPower, estimate_power
from configurator.core.i18n import Message
from configurator.core.measured import power_from_benchmark

BUILD = presets.presets(CATALOGUE)[0].build  # the entry tier: RTX 3060 12 GB, Ryzen 5 5600X, ResNet-50 training
SOURCE = Message("report", "the recording {name}", {"name": "run.csv"})


def test_measured_watts_are_used_and_said() -> None:
    est = check(BUILD, CATALOGUE)
    measured = check(BUILD, CATALOGUE, measured_power=MeasuredPower(180.0, 230.0, cpu=True, source=SOURCE))
    platform = estimate_power(resolve(BUILD, CATALOGUE)).platform_w
    throughput = measured.estimate("throughput_total").value  # type: ignore[union-attr]

    pwr = finding(measured, "PWR-4")
    assert pwr.numbers["draw_measured"] and pwr.numbers["measured_w"] == 180
    assert pwr.numbers["sustained_w"] == 180 + platform
    assert pwr.numbers["per_watt"] == pytest.approx(throughput / (180 + platform), rel=1e-3)
    text = pwr.message.render()
    assert "measured" in text and "run.csv" in text and "GPUs and CPU packages" in text

    bud = finding(measured, "BUD-3")
    assert bud.numbers["draw_measured"] and bud.numbers["draw_w"] == 180 + platform
    assert bud.numbers["electricity_cny_per_month"] == pytest.approx(
        (180 + platform) / 1000 * BUILD.options.hours_per_day * 30 * BUILD.options.electricity_cny_per_kwh, abs=0.1)
    assert "Draw measured: 180 W" in bud.message.render()

    # the estimate, as before, where nothing was measured
    assert not finding(est, "PWR-4").numbers.get("draw_measured") and "measured" not in finding(
        est, "PWR-4").message.render()
    assert not finding(est, "BUD-3").numbers["draw_measured"] and finding(est, "BUD-3").numbers["draw_w"] > 180


def test_without_rapl_the_cpu_is_estimated_at_its_tdp() -> None:
    r = check(BUILD, CATALOGUE, measured_power=MeasuredPower(150.0, cpu=False, source=SOURCE))
    cpu_tdp = CATALOGUE["amd-ryzen-5-5600x"].tdp_w  # type: ignore[attr-defined]
    platform = estimate_power(resolve(BUILD, CATALOGUE)).platform_w
    assert finding(r, "BUD-3").numbers["draw_w"] == 150 + cpu_tdp + platform
    assert "(GPUs, mean over" in finding(r, "PWR-4").message.render()


def test_a_benchmarks_joules_per_sample_times_its_rate_is_watts() -> None:
    m = power_from_benchmark([(800.0, "img/s", 0.25), (5.0, "TFLOPS", 3.0), (100.0, "img/s", None),
                              (300.0, "tokens/s", 0.5)])
    assert m is not None and m.mean_w == pytest.approx(200.0) and not m.cpu
    assert power_from_benchmark([(800.0, "img/s", None)]) is None
