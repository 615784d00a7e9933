"""Batches counted as the machine runs them, and quantisation as a format (issue 36, items 1 and 2)."""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from configurator.core import measurements as ms
from configurator.core.build import FORMAT, BuildError, Workload, parse_build
from configurator.core.engine import Report
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import throughput as tp
from configurator.core.estimate.memory import vram_per_gpu
from tests.core.planner_kit import CATALOGUE, Kit

# The case: a 7B custom transformer (32 layers, hidden 4096), int4, batch 8, one RTX 4090.
SEVEN_B = Workload("custom", "infer", "int4", batch_size=8, family="transformer", params=7e9, layers=32, hidden=4096,
                   heads=32, vocab=32000)


def _value(report: Report, key: str) -> float:
    e = report.estimate(key)
    assert e is not None and e.value is not None, key
    return float(e.value)


def test_the_batch_of_eight_is_counted_as_the_machine_runs_it(kit: Kit) -> None:
    r8 = kit.check(("nvidia-rtx-4090", 1), workload=SEVEN_B)
    r1 = kit.check(("nvidia-rtx-4090", 1), workload=dataclasses.replace(SEVEN_B, batch_size=1))
    batch = r8.estimate("throughput_batch")
    assert batch is not None and batch.low is not None and batch.high is not None
    one_stream = batch.inputs["one_stream_tokens_per_s"]
    total = _value(r8, "throughput_total")
    # the machine's tokens/s summed over the batch: at least one GPU's batch figure, several times one stream
    assert total >= _value(r8, "throughput_batch") >= 5 * one_stream
    assert one_stream == pytest.approx(_value(r1, "throughput_total"), rel=0.01)
    # what Suggest ranks by follows it
    assert _value(r8, "throughput_per_kcny") == pytest.approx(total / r8.total_cny * 1000, rel=0.01)
    assert _value(r8, "throughput_per_kcny") > 5 * _value(r1, "throughput_per_kcny")
    # prefill of the batch's 512-token prompts together: no slower than one prompt, and compute-bound already
    pre8, pre1 = r8.estimate("prefill_tokens_per_s"), r1.estimate("prefill_tokens_per_s")
    assert pre8 is not None and pre1 is not None and pre8.value and pre1.value
    assert pre8.value >= pre1.value and pre8.inputs["bound"] == "compute" and pre8.inputs["batch"] == 8


def test_prefill_grows_with_the_batch_until_compute_bound(kit: Kit) -> None:
    """Short prompts (64 tokens) read the weights once per step for the whole batch: the rate grows with the
    batch while the weights' traffic dominates, then flattens at the compute bound."""
    gpu = kit.catalogue["nvidia-rtx-4090"]
    f = fitting.factors_for()
    rates, bounds = [], []
    for b in (1, 2, 4, 8, 16, 32, 64):
        t = tp.single_gpu(gpu, dataclasses.replace(SEVEN_B, batch_size=b, seq_len=64), f)
        rates.append(t.tokens_per_s or 0.0)
        bounds.append(t.prefill_bound)
    assert all(b >= a for a, b in itertools.pairwise(rates))
    assert rates[1] > 1.3 * rates[0] and bounds[0] != "compute"
    assert bounds[-1] == "compute" and rates[-1] < 1.05 * rates[-2]  # flat once compute-bound


def test_decode_reads_the_weights_once_per_step_and_the_kv_cache_per_sequence() -> None:
    spec = SEVEN_B.spec()
    one = tp.Case(spec, "decode", "fp16", 1, 1, runtime="vllm", lm_head=True)
    c1 = tp.llm_cases(one, 1, 512, 256)["batch"]
    c8 = tp.llm_cases(one, 8, 512, 256)["batch"]
    assert c8.seq == c1.seq == 512 + 128  # the mean context of the generation
    f1, b1, _k = tp.work(c1)
    f8, b8, _k = tp.work(c8)
    kv = 2 * spec.layers * c1.seq * tp.kv_hidden(spec) * 2.0
    assert f8 == pytest.approx(8 * f1)  # FLOPs per token
    assert b8 - b1 == pytest.approx(7 * kv)  # the weights once, each sequence's KV cache


@pytest.fixture(scope="module")
def quant_reports() -> dict[str, Report]:
    kit = Kit(dict(CATALOGUE))
    return {q: kit.check(("nvidia-rtx-4090", 1), workload=Workload("llama-2-7b", "infer", quant=q))
            for q in ("awq", "bnb-nf4", "gguf-q4_k_m")}


def test_the_same_model_decodes_at_different_rates_per_format(quant_reports: dict[str, Report]) -> None:
    rates = {}
    for q, r in quant_reports.items():
        e = r.estimate("throughput_one_gpu")
        assert e is not None and e.value and e.low is not None and e.high is not None
        assert e.low <= e.value <= e.high
        assert e.inputs["quant"] == q and e.inputs["quant_kernel"]
        # the measured basis: the published rows of this format's kernel held out by GPU
        assert e.basis is not None and e.basis["format_rows"] >= 3 and e.basis["format_origins"], q
        assert e.basis["format_cv_median_error"] is not None
        rates[q] = e.value
    assert rates["bnb-nf4"] < 0.5 * rates["awq"]  # bitsandbytes' per-projection cost (optimum's table)
    assert abs(rates["awq"] / rates["gguf-q4_k_m"] - 1) > 0.01  # AutoAWQ's fused modules against llama.cpp
    awq = quant_reports["awq"].estimate("throughput_one_gpu")
    assert awq is not None and awq.basis is not None
    assert any(m["id"].startswith("autoawq-llama-2-7b") for m in awq.basis["matched"])


def test_memory_follows_the_format() -> None:
    w = Workload("llama-2-7b", "infer", batch_size=1)
    weights = {q: vram_per_gpu(dataclasses.replace(w, quant=q), 1).weights for q in
               ("gguf-q8_0", "gguf-q4_k_m", "awq", "bnb-nf4")}
    params = w.spec().params
    assert weights["gguf-q8_0"] == pytest.approx(params * 8.5 / 8)  # GGUF quantises the head too
    assert weights["gguf-q4_k_m"] == pytest.approx(params * 4.85 / 8)
    linear = params - 2 * 32000 * 4096  # Llama 2 7B: embeddings and head, 32,000 × 4,096 each, stay 16-bit
    assert weights["awq"] == pytest.approx(linear * (4 + 20 / 128) / 8 + 2 * 32000 * 4096 * 2.0, rel=0.01)
    assert weights["bnb-nf4"] < weights["awq"]  # 4.127 against 4.156 bits per weight
    fp16 = vram_per_gpu(dataclasses.replace(w, precision="fp16"), 1)
    awq = vram_per_gpu(dataclasses.replace(w, quant="awq"), 1)
    assert awq.kv_cache == pytest.approx(fp16.kv_cache)  # the KV cache stays 16-bit


def _doc(gpu: str, **workload: Any) -> dict[str, Any]:
    return {"format": FORMAT, "parts": [{"id": gpu}], "workload": {"model": "llama-3.1-8b", **workload}}


@pytest.mark.parametrize(("gpu", "workload", "path", "words"), [
    ("nvidia-rtx-3090", {"task": "infer", "precision": "fp8"}, "workload.precision", "FP8"),
    ("nvidia-rtx-3090", {"task": "train", "precision": "fp8"}, "workload.precision", "compute capability 8.9"),
    ("nvidia-rtx-4090", {"task": "infer", "quant": "q4"}, "workload.quant", "must be one of"),
    ("nvidia-rtx-4090", {"task": "infer", "quant": "awq", "runtime": "llama.cpp"}, "workload.quant",
     "cannot run awq"),
    ("nvidia-rtx-3090", {"task": "infer", "quant": "fp8-w8a8"}, "workload.quant", "8.9"),
    ("nvidia-rtx-2080-ti", {"task": "infer", "quant": "torchao-int4"}, "workload.quant", "8.0"),
    ("nvidia-rtx-4090", {"task": "infer", "quant": "awq", "precision": "int8"}, "workload.precision", "int4"),
    ("nvidia-rtx-4090", {"task": "train", "quant": "awq"}, "workload.quant", "inference only"),
])
def test_bad_quant_or_fp8_input_names_the_field(kit: Kit, gpu: str, workload: dict[str, Any], path: str,
                                                words: str) -> None:
    with pytest.raises(BuildError) as exc:
        parse_build(_doc(gpu, **workload), kit.catalogue)
    assert [e.path for e in exc.value.errors] == [path]
    assert words in exc.value.errors[0].message.render()


def test_fp8_on_a_card_without_it_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from configurator.cli.entry import main

    path = tmp_path / "fp8.json"
    path.write_text(json.dumps(_doc("nvidia-rtx-3090", task="infer", precision="fp8")), encoding="utf-8")
    try:
        code = main(["--db", str(tmp_path / "c.db"), "check", str(path)])
    except SystemExit as exc:
        code = int(exc.code or 0)
    _out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and "workload.precision" in lines[0] and "RTX 3090" in lines[0]


@pytest.mark.parametrize("gpu", ["nvidia-rtx-4090", "nvidia-h100-pcie"])
def test_fp8_where_the_card_has_it_is_estimated(kit: Kit, gpu: str) -> None:
    for task, extra in (("infer", {}), ("train", {"finetune": "lora", "batch_size": 1, "seq_len": 1024})):
        build = parse_build(_doc(gpu, task=task, precision="fp8", **extra), kit.catalogue)
        assert build.workload is not None
        r = kit.check((gpu, 1), workload=build.workload)
        assert r.ok or not r.workload_errors
        e = r.estimate("throughput_one_gpu")
        assert e is not None and e.value and e.low is not None and e.high is not None
    # FP8 tensor cores: prompts of a compute-bound prefill run faster than in fp16 on the same runtime
    f = fitting.factors_for()
    card = kit.catalogue[gpu]
    w = Workload("llama-3.1-8b", "infer", "fp8", runtime="vllm", batch_size=8)
    fp8 = tp.single_gpu(card, w, f).tokens_per_s or 0.0
    fp16 = tp.single_gpu(card, dataclasses.replace(w, precision="fp16"), f).tokens_per_s or 0.0
    assert fp8 > 1.3 * fp16


def _row(**kw: Any) -> ms.Measurement:
    base = next(m for m in fitting.shipped() if m.origin == "hf-optimum-gptq")
    return dataclasses.replace(base, **kw)


def test_published_rows_map_to_their_format_and_kernel() -> None:
    marlin = _row(flags=("group-128", "gptq-marlin"), precision="gptq")
    c = fitting.case_for(marlin)
    assert c is not None and c.kernel == "marlin" and tp.format_key(c) == "marlin"
    assert c.bits == pytest.approx(4 + 20 / 128)
    exl = fitting.case_for(_row(flags=("group-128", "gptq-exllamav2"), precision="gptq"))
    assert exl is not None and tp.format_key(exl) == "gptq"
    fp4 = fitting.case_for(_row(flags=(), precision="bnb-fp4"))
    assert fp4 is not None and tp.format_key(fp4) == "nf4"
    awq = [m for m in fitting.shipped() if m.origin == "autoawq" and m.task == "decode" and "awq-gemv" in m.flags]
    c_awq = fitting.case_for(awq[0])
    assert c_awq is not None and c_awq.runtime == "autoawq" and tp.format_key(c_awq) == "awq-gemv"
    gguf = next(m for m in fitting.shipped() if m.precision == "q4_k_m" and m.task == "decode")
    c_gguf = fitting.case_for(gguf)
    assert c_gguf is not None and tp.format_key(c_gguf) == "q4_k_m"
    fit = fitting.fit_for()
    fitted = {tp.format_key(c) for m in fit.rows if (c := fitting.case_for(m)) is not None}
    assert {"awq", "awq-gemv", "gptq", "marlin", "nf4", "exl2", "q4_k_m", "q4_0", "int4", "int8"} <= fitted
