"""Every throughput, scaling and memory estimate of check carries a likely range around its value (issue 28):
each estimate key of a few builds is classified, and the ranged ones satisfy low ≤ value ≤ high."""

from __future__ import annotations

import dataclasses

import pytest
from planner_kit import CATALOGUE, Kit

from configurator.core.build import Cluster, Workload
from configurator.core.engine import Report, check
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import validation as val

# Estimates that are not throughput or memory figures, or carry no value: what they are, not a range.
UNRANGED = {
    "peak_power_w", "training_draw_w",  # the power model's figures (its own PSU margins)
    "cluster_price_cny", "cluster_power_w",  # n × this build's price and draw
    "largest_batch",  # a count read at the high end of the VRAM range
    "throughput_not_estimated",  # no value: a model whose compute no source states
}

WORKLOADS = [
    Workload(model="resnet50", task="train", precision="amp"),
    Workload(model="llama-2-7b", task="train", precision="bf16", finetune="lora"),
    Workload(model="llama-3.1-8b", task="infer", precision="int4", runtime="vllm"),
    Workload(model="bert-base", task="infer", precision="fp16"),
]


def _reports() -> list[Report]:
    kit = Kit(dict(CATALOGUE))
    out = []
    for w in WORKLOADS:
        for gpu in ("nvidia-rtx-3090", ("nvidia-rtx-3090", 2)):
            build = kit.build(*kit.standard(gpu=gpu), workload=w, budget=60000)  # type: ignore[arg-type]
            out.append(check(build, kit.catalogue))
            out.append(check(dataclasses.replace(build, cluster=Cluster(3, "25gbe")), kit.catalogue))
    return out


REPORTS = _reports()


def test_every_estimate_key_is_ranged_or_named_as_unranged() -> None:
    seen = set()
    for report in REPORTS:
        for e in report.to_json()["estimates"]:
            seen.add(e["key"])
            if e["key"] in UNRANGED or e["value"] is None:
                continue
            assert e["low"] is not None and e["high"] is not None, e["key"]
            assert e["low"] <= e["value"] <= e["high"], (e["key"], e["low"], e["value"], e["high"])
            assert e["basis"] is not None, e["key"]
    # the builds reach every kind of estimate the brief names
    for key in ("throughput_one_gpu", "throughput_total", "throughput_batch", "throughput_per_kcny",
                "prefill_tokens_per_s", "scaling_efficiency", "cluster_throughput", "cluster_scaling_efficiency",
                "throughput_cpu", "vram_per_gpu_gib", "ram_first_principles_gib", "ram_guide_formula_gib"):
        assert key in seen, key


def test_a_range_is_a_range_where_the_model_is_uncertain() -> None:
    """Ranged estimates that rest on a model (not a count) are not a point: low < high."""
    for report in REPORTS:
        for e in report.to_json()["estimates"]:
            if e["key"] in ("throughput_one_gpu", "throughput_total", "scaling_efficiency", "vram_per_gpu_gib",
                            "ram_first_principles_gib") and e["value"]:
                assert e["low"] < e["high"], e["key"]


def test_scaling_range_rests_on_published_multi_gpu_pairs() -> None:
    band = val.scaling_band(fitting.fit_for())
    assert band is not None and band.pairs >= 5 and band.origins >= 2
    pairs = val.scaling_pairs(fitting.shipped(), fitting.fit_for(), fitting.measured_gpus())
    ratios = [measured / predicted for _m, measured, predicted in pairs]
    assert band.low_ratio == pytest.approx(min(min(ratios), 1.0))
    assert band.high_ratio == pytest.approx(max(max(ratios), 1.0))
    for m, measured, predicted in pairs:
        assert m.gpu_count > 1 and 0 < measured <= 1.05 and 0 < predicted <= 1, m.id


def test_two_gpu_training_total_carries_the_scaling_range() -> None:
    kit = Kit(dict(CATALOGUE))
    w = WORKLOADS[0]
    two = check(kit.build(*kit.standard(gpu=("nvidia-rtx-3090", 2)), workload=w), kit.catalogue)
    one, total, eff = (two.estimate(k) for k in ("throughput_one_gpu", "throughput_total", "scaling_efficiency"))
    assert one and total and eff and one.low and one.high and eff.low and eff.high
    assert total.low == pytest.approx(one.low * 2 * eff.low, rel=0.02)
    assert total.high == pytest.approx(one.high * 2 * eff.high, rel=0.02)
