"""The engine's estimates, one function per kind of figure (core/engine/): which ones a build gets and in
what order (the order ``check --json`` lists them in, which users' scripts and the planner's table read)."""

from __future__ import annotations

import pytest
from planner_kit import CATALOGUE, Kit

from configurator.core.build import Workload

POWER = ["peak_power_w", "training_draw_w"]
MEMORY = ["vram_per_gpu_gib", "largest_batch", "ram_first_principles_gib", "ram_guide_formula_gib"]
RESNET_TRAIN = Workload("resnet50", "train", "amp")
LLAMA_INFER = Workload("llama-3.1-8b", "infer", "bf16", batch_size=4)
LLAMA_SERVE = Workload("llama-3.1-8b", "infer", "bf16", concurrency=32, prompt_tokens=512, output_tokens=256,
                       runtime="vllm")


def _keys(*parts: str | tuple[str, int], workload: Workload | None) -> list[str]:
    kit = Kit(dict(CATALOGUE))
    return [e.key for e in kit.check(*parts, workload=workload).estimates]


@pytest.mark.parametrize(("gpus", "workload", "expected"), [
    (2, None, POWER),
    (2, RESNET_TRAIN, [*POWER, *MEMORY, "throughput_one_gpu", "scaling_efficiency", "throughput_total",
                       "throughput_per_kcny", "throughput_cpu"]),
    (1, RESNET_TRAIN, [*POWER, *MEMORY, "throughput_one_gpu", "throughput_total", "throughput_per_kcny",
                       "throughput_cpu"]),
    (2, LLAMA_INFER, [*POWER, *MEMORY, "throughput_one_gpu", "prefill_tokens_per_s", "throughput_batch",
                      "throughput_total", "throughput_per_kcny", "throughput_cpu"]),
    # serving: its load's figures in place of the throughputs (one stream decoding alone, a batch of one
    # prefilled, the largest batch that fits and the CPU alone are not what a server under load does; its batch is
    # the runtime's), and its draw while serving, not while training
    (1, LLAMA_SERVE, ["peak_power_w", "serving_draw_w", "vram_per_gpu_gib", "ram_first_principles_gib",
                      "ram_guide_formula_gib", "serving_max_concurrency", "serving_output_tokens_per_s",
                      "serving_requests_per_s", "serving_ttft_ms", "serving_tpot_ms"]),
    # does not fit in 24 GiB (FIT-1): one sentence in place of every throughput, the CPU's included
    (1, Workload("llama-3.1-70b", "train", "bf16"), [*POWER, *MEMORY, "throughput_not_estimated"]),
])
def test_a_build_gets_its_estimates_in_order(gpus: int, workload: Workload | None, expected: list[str]) -> None:
    kit = Kit(dict(CATALOGUE))
    assert _keys(*kit.standard(gpu=("nvidia-rtx-3090", gpus)), workload=workload) == expected


def test_a_cpu_alone_gets_ram_and_the_cpu_throughput() -> None:
    kit = Kit(dict(CATALOGUE))
    parts = kit.standard(gpu=None)
    assert _keys(*parts, workload=RESNET_TRAIN) == [*POWER, "ram_first_principles_gib", "ram_guide_formula_gib",
                                                    "throughput_cpu"]


def test_the_total_is_one_gpu_times_the_scaling_and_its_price_share() -> None:
    kit = Kit(dict(CATALOGUE))
    report = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 2)), workload=RESNET_TRAIN)
    one, eff, total, per = (report.estimate(k) for k in ("throughput_one_gpu", "scaling_efficiency",
                                                         "throughput_total", "throughput_per_kcny"))
    assert one and eff and total and per and one.value and eff.value and total.value and per.value
    assert total.value == pytest.approx(one.value * 2 * eff.value, rel=2e-3)  # both rounded as shown
    assert per.value == pytest.approx(total.value / report.total_cny * 1000, rel=1e-3)
    assert total.low is not None and total.high is not None and total.low <= total.value <= total.high


@pytest.mark.parametrize(("value", "shown"), [(5433.71, 5433.7), (50.912, 50.9), (4.5923, 4.59), (0.031234, 0.0312),
                                              (0.000451234, 0.000451), (0.0, 0.0)])
def test_a_throughput_keeps_three_significant_digits(value: float, shown: float) -> None:
    """FLUX.1-dev's ≈ 0.03 img/s is not rounded to 0.0 beside a range of 0.01–0.06."""
    from configurator.core.engine import throughput_figure

    assert throughput_figure(value) == shown


def test_a_figure_under_one_image_a_second_and_its_range_keep_their_digits() -> None:
    from configurator.core.numbers import range_text, value_text

    assert value_text(0.031234) == "0.0312" and value_text(138.2) == "138" and value_text(54.44) == "54.4"
    assert range_text(0.0156, 0.0624) == "0.0156–0.0624" and range_text(93.8, 302.9) == "94–303"
    assert range_text(3.61, 8.19) == "3.61–8.19" and range_text(52.4, 77.0, whole=True) == "52–77"
    assert range_text(None, 1.0) is None
    assert range_text(256, 256, whole=True) is None and range_text(255.6, 256.4, whole=True) is None  # one figure


def test_flux_on_one_a100_has_a_nonzero_figure_inside_its_range() -> None:
    kit = Kit(dict(CATALOGUE))
    report = kit.check(("nvidia-a100-80gb-pcie", 1), workload=Workload("flux1-dev", "infer", "bf16"))
    total = report.estimate("throughput_total")
    assert total is not None and total.value and total.low is not None and total.high is not None
    assert 0 < total.low < total.value < total.high < 1
    assert total.value == float(f"{total.value:.3g}")  # three significant digits, not one decimal
