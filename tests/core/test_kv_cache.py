"""A workload's KV cache precision (``kv_cache``: 16-bit or fp8): an FP8 cache holds about twice the sequences
in the same memory, a large decode batch reads half the cache bytes per step, inference's VRAM counts half the
cache; the key is refused where it does not apply (training, a model with no KV cache, a runtime without an FP8
cache, TensorRT-LLM on a card without FP8) in one line naming ``workload.kv_cache``."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from cli_run import run

from configurator.core.build import BuildError, Workload, build_to_dict, parse_build, read_workload
from configurator.core.engine import check
from configurator.core.estimate import throughput as tp
from configurator.core.estimate.memory.inference import inference_vram
from configurator.core.sheet import workload_summary
from tests.core.planner_kit import CATALOGUE

LOAD = {"model": "llama-3.1-8b", "task": "serve", "precision": "bf16", "concurrency": 256, "prompt_tokens": 512,
        "output_tokens": 256}


def _doc(gpu: str = "nvidia-rtx-4090", **workload: Any) -> dict[str, Any]:
    return {"format": "configurator.build/1", "parts": [{"id": gpu}],
            "workload": {k: v for k, v in {**LOAD, **workload}.items() if v is not None}}


def _estimates(**workload: Any) -> dict[str, Any]:
    report = check(parse_build(_doc(**workload), CATALOGUE), CATALOGUE)
    return {e.key: e for e in report.estimates}


def test_an_fp8_cache_holds_about_twice_the_sequences() -> None:
    """llama-3.1-8b on one RTX 4090 at 512 prompt + 256 output tokens: the same KV budget at 64 KiB a token
    instead of 128 KiB (8 KV heads × 128 wide × 32 layers × 2 × 1 B)."""
    b16 = _estimates()["serving_max_concurrency"]
    fp8 = _estimates(kv_cache="fp8")["serving_max_concurrency"]
    assert b16.basis["kv_bytes_per_token"] == 128 * 1024 and fp8.basis["kv_bytes_per_token"] == 64 * 1024
    assert b16.basis["kv_cache_dtype"] == "16-bit" and fp8.basis["kv_cache_dtype"] == "fp8"
    assert fp8.value == pytest.approx(2 * b16.value, abs=1.5)  # each rounded to a whole sequence
    assert fp8.low > b16.low and fp8.high > b16.high
    assert fp8.inputs["kv_cache_dtype"] == "fp8" and "kv_cache_dtype" not in b16.inputs
    assert "FP8 KV cache" in fp8.how.render() and "1 B per GPU" in fp8.how.render()
    # more sequences decoded together: more output tokens/s at 256 clients (the cache, not the clients, limits)
    assert _estimates(kv_cache="fp8")["serving_output_tokens_per_s"].value > \
        _estimates()["serving_output_tokens_per_s"].value
    # "16-bit" is the default: the same figures as no key
    assert _estimates(kv_cache="16-bit")["serving_max_concurrency"].value == b16.value


def test_decode_at_a_large_batch_is_faster_with_an_fp8_cache() -> None:
    """256 streams generating 4,096 tokens (a mean context of 2,048): the cache a step reads (64 GiB at 16 bits)
    is four times the 15 GiB of weights, so halving it shortens the step by a third or more; one stream alone
    hardly changes."""
    w = Workload("llama-3.1-8b", "infer", precision="bf16", runtime="vllm", batch_size=256, seq_len=4096)
    hw = tp.gpu_hw(CATALOGUE["nvidia-h100-sxm"])
    f = tp.Factors()
    cases16 = tp.planner_cases(w)
    cases8 = tp.planner_cases(replace(w, kv_cache="fp8"))
    assert cases16["batch"].kv_bytes == 2.0 and cases8["batch"].kv_bytes == 1.0
    t16, t8 = (tp.step_time(c["batch"], hw, f.theta())[0] for c in (cases16, cases8))
    assert 1.25 < t16 / t8 < 2.0  # the 15 GiB of weights and the FLOPs do not shrink
    one16, one8 = (tp.step_time(c["main"], hw, f.theta())[0] for c in (cases16, cases8))
    assert 1.0 < one16 / one8 < 1.2


def test_inference_vram_counts_half_the_cache() -> None:
    w = Workload("llama-3.1-8b", "infer", precision="bf16", runtime="vllm", batch_size=16, seq_len=2048)
    spec = w.spec()
    v16 = inference_vram(w, spec, 1, 16, False)
    v8 = inference_vram(replace(w, kv_cache="fp8"), spec, 1, 16, False)
    # 16 × 2,048 tokens × 128 KiB = 4 GiB at 16 bits, 2 GiB in FP8
    assert v16.kv_cache == 4 * 2**30 and v8.kv_cache == 2 * 2**30
    assert 2 * 2**30 <= v16.total - v8.total < 2.5 * 2**30  # the cache's 2 GiB and its allocator margin
    est = _estimates(task="infer", concurrency=None, prompt_tokens=None, output_tokens=None, runtime="vllm",
                     batch_size=16, seq_len=2048, kv_cache="fp8")
    vram = est["vram_per_gpu_gib"]
    assert vram.inputs["kv_cache"] == pytest.approx(2.0) and vram.inputs["kv_cache_dtype"] == "fp8"
    assert "FP8 KV cache: 2.00 GiB" in vram.how.render()
    assert est["throughput_batch"].inputs["kv_cache_dtype"] == "fp8"


def test_fp8_cache_makes_plain_inference_default_to_vllm() -> None:
    w, errors = read_workload({"model": "llama-3.1-8b", "task": "infer", "kv_cache": "fp8"})
    assert not errors and w is not None and w.kv_cache == "fp8" and w.effective_runtime == "vllm"
    w16, _ = read_workload({"model": "llama-3.1-8b", "task": "infer", "kv_cache": "16-bit"})
    assert w16 is not None and w16.kv_cache is None and w16.effective_runtime == "llama.cpp"


@pytest.mark.parametrize(("workload", "words"), [
    ({"task": "train", "concurrency": None, "prompt_tokens": None, "output_tokens": None}, "inference and serving"),
    ({"model": "resnet50", "task": "infer", "concurrency": None, "prompt_tokens": None, "output_tokens": None},
     "decoder"),
    ({"model": "bert-base", "task": "infer", "concurrency": None, "prompt_tokens": None, "output_tokens": None},
     "decoder"),
    ({"kv_cache": "int4"}, "16-bit, fp8"),
    ({"task": "infer", "runtime": "llama.cpp", "concurrency": None, "prompt_tokens": None, "output_tokens": None},
     "llama.cpp has no FP8 KV cache"),
    ({"task": "infer", "quant": "gguf-q4_k_m", "concurrency": None, "prompt_tokens": None, "output_tokens": None},
     "llama.cpp has no FP8 KV cache"),
])
def test_bad_kv_cache_is_one_line_naming_the_field(workload: dict[str, Any], words: str) -> None:
    with pytest.raises(BuildError) as info:
        parse_build(_doc(**{"kv_cache": "fp8", **workload}), CATALOGUE)
    assert [e.path for e in info.value.errors] == ["workload.kv_cache"]
    assert words in info.value.errors[0].render()


def test_tensorrt_llm_fp8_cache_needs_compute_capability_8_9() -> None:
    with pytest.raises(BuildError) as info:
        parse_build(_doc("nvidia-rtx-3090", kv_cache="fp8", runtime="tensorrt-llm"), CATALOGUE)
    assert [e.path for e in info.value.errors] == ["workload.kv_cache"]
    assert "8.9" in info.value.errors[0].render()
    assert parse_build(_doc("nvidia-rtx-4090", kv_cache="fp8", runtime="tensorrt-llm"), CATALOGUE).workload
    assert parse_build(_doc("nvidia-rtx-3090", kv_cache="fp8"), CATALOGUE).workload  # vLLM: no stated limit


def test_the_key_round_trips_and_the_sheet_states_fp8() -> None:
    b = parse_build(_doc(kv_cache="fp8"), CATALOGUE)
    doc = build_to_dict(b)
    assert doc["workload"]["kv_cache"] == "fp8" and parse_build(doc, CATALOGUE) == b
    assert "kv_cache" not in build_to_dict(parse_build(_doc(kv_cache="16-bit"), CATALOGUE))["workload"]
    assert b.workload is not None
    rows = dict(workload_summary(b.workload))
    value = rows["kv_cache"]
    assert "FP8" in (value if isinstance(value, str) else value.render())
    assert "kv_cache" not in dict(workload_summary(replace(b.workload, kv_cache=None)))


def test_cli_refuses_kv_cache_on_training_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps(_doc(task="train", concurrency=None, prompt_tokens=None, output_tokens=None,
                                    kv_cache="fp8")), encoding="utf-8")
    code, out, err = run(capsys, "--lang", "en", "check", str(path))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("workload.kv_cache: ")


def test_schema_declares_kv_cache(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema", "build", "--json")
    assert code == 0
    entry = json.loads(out)["$defs"]["WorkloadEntry"]["properties"]["kv_cache"]
    assert "fp8" in json.dumps(entry) and "16-bit" in json.dumps(entry)
    code, out, _ = run(capsys, "--lang", "en", "schema", "build")
    assert code == 0 and "workload.kv_cache" in out and "16-bit | fp8" in out
