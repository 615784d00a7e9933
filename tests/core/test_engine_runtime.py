"""The runtime stated beside every throughput estimate; tensor-parallel builds; runtimes refused for a
precision they cannot run (issue 28)."""

from __future__ import annotations

import json

import pytest

from configurator.core.build import FORMAT, BuildError, Workload, parse_build
from tests.core.planner_kit import Kit


def _throughput(report_json: dict, key: str) -> dict:  # type: ignore[type-arg]
    return next(e for e in report_json["estimates"] if e["key"] == key)


def test_runtime_is_stated_beside_the_estimates_and_changes_the_decode_rate(kit: Kit) -> None:
    default = json.loads(json.dumps(kit.check(*kit.standard(), workload=Workload("llama-7b", "infer", "fp16"))
                                    .to_json()))
    hf = json.loads(json.dumps(kit.check(*kit.standard(), workload=Workload(
        "llama-7b", "infer", "fp16", runtime="transformers")).to_json()))
    one_default, one_hf = _throughput(default, "throughput_one_gpu"), _throughput(hf, "throughput_one_gpu")
    assert one_default["inputs"]["runtime"] == "llama.cpp" and one_default["inputs"]["runtime_default"] is True
    assert one_hf["inputs"]["runtime"] == "transformers" and one_hf["inputs"]["runtime_default"] is False
    assert "Runtime: llama.cpp (the default" in one_default["how"]
    assert "Runtime: transformers (the build's)" in one_hf["how"]
    assert one_default["value"] > 2 * one_hf["value"]
    for key in ("throughput_total", "prefill_tokens_per_s", "throughput_batch"):
        assert _throughput(hf, key)["inputs"]["runtime"] == "transformers", key


def test_training_states_pytorch_and_torch_compile(kit: Kit) -> None:
    eager = kit.check(*kit.standard(), workload=Workload("gpt2", "train", "amp"))
    compiled = kit.check(*kit.standard(), workload=Workload("gpt2", "train", "amp", runtime="torch-compile"))
    a, b = eager.estimate("throughput_one_gpu"), compiled.estimate("throughput_one_gpu")
    assert a is not None and b is not None
    assert a.inputs["runtime"] == "pytorch" and b.inputs["runtime"] == "torch-compile"
    assert b.value > a.value


def test_two_gpus_in_tensor_parallel_decode_one_stream_faster(kit: Kit) -> None:
    w = Workload("llama-7b", "infer", "fp16", runtime="vllm")
    one = kit.check(*kit.standard(), workload=w)
    split = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 2)), workload=Workload(
        "llama-7b", "infer", "fp16", runtime="vllm", parallel="tensor"))
    replicas = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 2)), workload=w)
    a, b, c = (r.estimate("throughput_total") for r in (one, split, replicas))
    assert a is not None and b is not None and c is not None and a.value and b.value
    assert b.value > 1.3 * a.value and b.inputs["model_gpus"] == 2
    # two copies: the machine decodes twice the streams; one stream alone is no faster
    assert c.value == pytest.approx(2 * a.value, rel=0.01)
    batch_a, batch_c = one.estimate("throughput_batch"), replicas.estimate("throughput_batch")
    assert batch_a is not None and batch_c is not None
    assert batch_c.inputs["one_stream_tokens_per_s"] == batch_a.inputs["one_stream_tokens_per_s"]
    assert "tensor" in b.how.render()


def test_lora_data_parallel_all_reduces_the_adapters_only(kit: Kit) -> None:
    parts = kit.standard(gpu=("nvidia-rtx-3090", 2))
    full = kit.check(*parts, workload=Workload("gpt2-medium", "train", "amp"))
    lora = kit.check(*parts, workload=Workload("gpt2-medium", "train", "amp", finetune="lora"))
    a, b = full.estimate("scaling_efficiency"), lora.estimate("scaling_efficiency")
    assert a is not None and b is not None
    assert b.inputs["grad_gb"] < a.inputs["grad_gb"] / 50
    assert b.value >= a.value


@pytest.mark.parametrize(("runtime", "precision"), [("exllamav2", "fp32"), ("exllamav2", "fp16"),
                                                    ("llama.cpp", "amp"), ("vllm", "amp")])
def test_a_runtime_that_cannot_run_the_precision_is_refused(kit: Kit, runtime: str, precision: str) -> None:
    data = {"format": FORMAT, "parts": [], "workload": {"model": "llama-7b", "task": "infer", "precision": precision,
                                      "runtime": runtime}}
    with pytest.raises(BuildError) as err:
        parse_build(data, kit.catalogue)
    assert [e.path for e in err.value.errors] == ["workload.runtime"]
    assert runtime in err.value.errors[0].message.render() and precision in err.value.errors[0].message.render()


def test_the_default_precision_with_a_quantised_only_runtime_is_refused(kit: Kit) -> None:
    with pytest.raises(BuildError) as err:
        parse_build({"format": FORMAT, "parts": [],
                     "workload": {"model": "llama-7b", "task": "infer", "runtime": "exllamav2"}}, kit.catalogue)
    assert [e.path for e in err.value.errors] == ["workload.runtime"]
    ok = parse_build({"format": FORMAT, "parts": [], "workload": {
        "model": "llama-7b", "task": "infer", "precision": "int4", "runtime": "exllamav2"}}, kit.catalogue)
    assert ok.workload is not None and ok.workload.runtime == "exllamav2"
