"""Serving (task serve): KV-cache concurrency, tokens/s, requests/s, TTFT and TPOT with ranges, on one and on
four GPUs; bad serving input is one line naming the field."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from configurator.core.build import BuildError, Workload, parse_build
from configurator.core.engine import check
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import serving as srv
from configurator.core.estimate import throughput as tp
from configurator.core.model_specs import KNOWN_MODELS
from tests.core.planner_kit import CATALOGUE

LOAD = {"model": "llama-3.1-8b", "task": "serve", "precision": "bf16", "concurrency": 64, "prompt_tokens": 512,
        "output_tokens": 256}
KEYS = ("serving_max_concurrency", "serving_output_tokens_per_s", "serving_requests_per_s", "serving_ttft_ms",
        "serving_tpot_ms")


def _doc(qty: int = 1, **workload: Any) -> dict[str, Any]:
    return {"format": "configurator.build/1", "parts": [{"id": "nvidia-rtx-4090", "qty": qty}],
            "workload": {k: v for k, v in {**LOAD, **workload}.items() if v is not None}}


def _serving(qty: int = 1, **workload: Any) -> dict[str, Any]:
    report = check(parse_build(_doc(qty, **workload), CATALOGUE), CATALOGUE)
    return {e.key: e for e in report.estimates if e.key.startswith("serving")}


def test_kv_bytes_per_token_from_the_layers() -> None:
    spec = KNOWN_MODELS["llama-3.1-8b"]
    w = Workload("llama-3.1-8b", "infer", precision="bf16", concurrency=1, prompt_tokens=1, output_tokens=1)
    head_dim = spec.hidden // spec.heads
    assert srv.kv_bytes_per_token(w, 1) == 2 * spec.layers * spec.kv_heads * head_dim * 2 == 128 * 1024
    assert srv.kv_bytes_per_token(w, 4) == 32 * 1024  # K/V heads split over tensor-parallel GPUs


def test_one_gpu_64_concurrent() -> None:
    est = _serving()
    assert set(KEYS) <= set(est)
    for key in KEYS:
        e = est[key]
        assert e.value is not None and e.low is not None and e.high is not None
        assert e.low < e.value < e.high or (key == "serving_max_concurrency" and e.low <= e.value <= e.high)
        assert e.inputs["load"] == "concurrency" and e.inputs["concurrency"] == 64  # the load is in the result
    # 24 GiB less 15 GiB of bf16 weights: room for tens of 768-token sequences, not hundreds
    assert 40 <= est["serving_max_concurrency"].value <= 100
    tok = est["serving_output_tokens_per_s"].value
    assert 600 <= tok <= 2500  # one RTX 4090 at batch 64: weights streamed once per step, ~1 TB/s
    assert est["serving_requests_per_s"].value == pytest.approx(tok / 256, rel=0.01)
    # every sequence gets one token per step: 64 sequences / TPOT ≈ tokens/s
    assert 64 / (est["serving_tpot_ms"].value / 1000) == pytest.approx(tok, rel=0.02)
    assert est["serving_ttft_ms"].value > est["serving_tpot_ms"].value  # a 512-token prompt takes longer than a step
    # the range rests on the published serving runs' held-out residuals (db/measurements: task serve), not on the
    # decode family's: those judge one step, these the whole serving estimate
    basis = est["serving_output_tokens_per_s"].basis
    assert basis is not None and basis["llm-serve"]["range_held_out"] >= 30 and basis["llm-serve"]["origins"] >= 2
    assert "llm-serve-tpot" not in basis  # each estimate names its own family's width
    tpot = est["serving_tpot_ms"].basis
    assert tpot is not None and tpot["llm-serve-tpot"]["range_basis"] is not None and "llm-serve" not in tpot
    ttft = est["serving_ttft_ms"].basis
    assert ttft is not None and ttft["llm-serve-ttft"]["range_basis"] is not None and "decode" not in ttft


def test_four_gpus_tensor_parallel_beats_one() -> None:
    one, four = _serving(), _serving(4, parallel="tensor")
    assert four["serving_max_concurrency"].value > one["serving_max_concurrency"].value
    assert four["serving_output_tokens_per_s"].value > 1.5 * one["serving_output_tokens_per_s"].value
    assert four["serving_tpot_ms"].value < one["serving_tpot_ms"].value
    assert four["serving_ttft_ms"].value < one["serving_ttft_ms"].value
    assert four["serving_max_concurrency"].inputs["tensor_parallel"] == 4
    # four copies (parallel none): the load split, one engine each
    copies = _serving(4)
    assert copies["serving_output_tokens_per_s"].inputs["engines"] == 4


def test_beyond_the_cache_requests_queue() -> None:
    est = _serving(concurrency=400)
    held = est["serving_max_concurrency"].value
    assert est["serving_output_tokens_per_s"].inputs["queued"] == pytest.approx(400 - held, abs=1)
    # closed loop: the queued wait for a slot shows in the time to first token
    assert est["serving_ttft_ms"].value > 5 * _serving()["serving_ttft_ms"].value


def test_request_rate_sets_the_batch_and_saturates() -> None:
    est = _serving(concurrency=None, request_rate=2.0)
    assert est["serving_requests_per_s"].value == pytest.approx(2.0, rel=0.02)
    assert est["serving_requests_per_s"].inputs["load"] == "request_rate"
    cap = est["serving_requests_per_s"].how.render()
    assert "requests/s" in cap
    over = _serving(concurrency=None, request_rate=1000.0)
    assert over["serving_ttft_ms"].value is None and over["serving_ttft_ms"].inputs["saturated"] is True


def test_step_model_is_the_throughput_model() -> None:
    """The decode step is the throughput model's batch case at the mean context (no second model)."""
    w = Workload("llama-3.1-8b", "infer", precision="bf16", concurrency=8, prompt_tokens=512, output_tokens=256)
    gpu = CATALOGUE["nvidia-rtx-4090"]
    f = fitting.factors_for()
    s = srv.estimate(w, tp.gpu_hw(gpu), gpu.vram_gb, 1, f)  # type: ignore[attr-defined]
    one = tp.planner_cases(w, 1, None)["main"]
    t_dec = tp.step_time(tp.llm_cases(one, 8, 512, 256)["batch"], tp.gpu_hw(gpu), f.theta())[0]  # type: ignore[arg-type]
    assert s.tpot_ms.value / 1e3 > t_dec  # the step also runs the starting requests' prompts
    assert s.tpot_ms.value / 1e3 < 2 * t_dec


def test_prefill_first_runs_each_prompt_as_a_step_of_its_own() -> None:
    """Without chunked prefill (vLLM 0.4's default) a prompt is a prefill step of its own: the running sequences wait
    through it (TPOT = t_decode + B/O × t_prefill(P), the weights read again for it) and the TTFT is half a decode
    step and that prefill step."""
    w = Workload("llama-3.1-8b", "infer", precision="bf16", concurrency=8, prompt_tokens=512, output_tokens=256)
    gpu = CATALOGUE["nvidia-rtx-4090"]
    f = fitting.factors_for()
    hw = tp.gpu_hw(gpu)  # type: ignore[arg-type]
    chunked = srv.estimate(w, hw, gpu.vram_gb, 1, f, ranges=False)  # type: ignore[attr-defined]
    first = srv.estimate(w, hw, gpu.vram_gb, 1, f, ranges=False, chunked_prefill=False)  # type: ignore[attr-defined]
    cases = tp.llm_cases(tp.planner_cases(w, 1, None)["main"], 8, 512, 256)
    t_dec = tp.step_time(cases["batch"], hw, f.theta())[0]
    t_pre = tp.step_time(replace(cases["prefill"], batch=1), hw, f.theta())[0]
    assert first.tpot_ms.value / 1e3 == pytest.approx(t_dec + 8 / 256 * t_pre, rel=1e-6)
    # requests arriving spread out (8 clients in step: the span's other end)
    assert first.ttft_spread_ms is not None and chunked.ttft_spread_ms is not None
    assert first.ttft_spread_ms / 1e3 == pytest.approx(t_dec / 2 + t_pre, rel=1e-6)
    # the separate prefill step reads the weights once more: a slower step than the chunked one's
    assert first.tpot_ms.value > chunked.tpot_ms.value


def test_tensorrt_llm_reserves_each_requests_whole_prompt_and_output() -> None:
    """TensorRT-LLM's default scheduler (GUARANTEED_NO_EVICT) reserves P + O for every request it admits: the same
    cache holds (P + O/2) / (P + O) as many sequences as vLLM's blocks taken as a sequence grows."""
    gpu = CATALOGUE["nvidia-h100-sxm"]
    f = fitting.factors_for()
    hw = tp.gpu_hw(gpu)  # type: ignore[arg-type]
    w = Workload("llama-3.1-8b", "infer", precision="bf16", concurrency=500, prompt_tokens=1000, output_tokens=1000)
    kw: dict[str, Any] = {"ranges": False, "max_seqs": 4096}
    vllm = srv.estimate(replace(w, runtime="vllm"), hw, gpu.vram_gb, 1, f, **kw)  # type: ignore[attr-defined]
    trt = srv.estimate(replace(w, runtime="tensorrt-llm"), hw, gpu.vram_gb, 1, f, **kw)  # type: ignore[attr-defined]
    # the same budget over 2,000 tokens a sequence, not 1,500 (TensorRT-LLM keeps 0.9 of the memory left, vLLM
    # 0.9 of the card: the budgets differ a little)
    trt_seq = trt.kv_budget_gib.value / trt.max_concurrency.value
    vllm_seq = vllm.kv_budget_gib.value / vllm.max_concurrency.value
    assert trt_seq / vllm_seq == pytest.approx(2000 / 1500, rel=1e-6)
    assert trt.basis["kv_reserved_per_request"] == "prompt + output"
    # stated otherwise, the reservation follows the statement
    own = srv.estimate(replace(w, runtime="tensorrt-llm"), hw, gpu.vram_gb, 1, f, no_evict=False, **kw)  # type: ignore[attr-defined]
    assert own.max_concurrency.value == pytest.approx(trt.max_concurrency.value * 2000 / 1500, rel=1e-6)


def test_prompts_queue_behind_each_other() -> None:
    """Chunked prefill serves prompts first come first served: one client never waits behind itself; more clients
    (or a higher Poisson rate) wait longer; the open loop is the M/D/1 queue's W = ρS / (2(1 − ρ))."""
    assert srv.prompt_wait(0.4, 0.0, clients=1, think=10.0) == 0.0
    waits = [srv.prompt_wait(0.4, 0.0, clients=n, think=30.0) for n in (2, 10, 50)]
    assert 0 < waits[0] < waits[1] < waits[2]
    # 50 clients each asking 0.4 s of prefill every ~30 s: about two thirds of the engine's time; a wait of the
    # order of the prompt's own prefill, not a runaway queue
    assert 0.1 < waits[2] < 1.0
    assert srv.prompt_wait(0.1, 5.0) == pytest.approx(0.5 * 0.1 / (2 * 0.5))
    assert srv.prompt_wait(0.1, 0.0) == 0.0
    # in the estimate: long prompts at load wait; the same load of short prompts hardly does
    gpu = CATALOGUE["nvidia-rtx-4090"]
    f = fitting.factors_for()
    hw = tp.gpu_hw(gpu)  # type: ignore[arg-type]

    def ttft(p: int, c: int) -> float:
        w = Workload("llama-3.1-8b", "infer", precision="bf16", concurrency=c, prompt_tokens=p, output_tokens=256)
        s = srv.estimate(w, hw, gpu.vram_gb, 1, f, ranges=False)  # type: ignore[attr-defined]
        assert s.ttft_spread_ms is not None
        return s.ttft_spread_ms  # requests arriving spread out

    assert ttft(4000, 8) / ttft(4000, 1) > 1.3
    assert ttft(128, 8) / ttft(128, 1) < 1.3


def test_clients_in_step_bound_a_closed_loops_ttft() -> None:
    """Clients sending identical requests fall into step: the first round's prompts are prefilled in groups of as many
    as a step's STEP_TOKENS hold, and in every later round each group waits for the group before it, then runs its
    own step. That mean TTFT tops the range for a stated concurrency; a request rate (Poisson arrivals) has none."""
    t, c = 0.02, 1e-4
    # one client: its prompt's step alone, the engine idle when it sends
    assert srv.lockstep_ttft(1, 200, 200, 8192, t, c) == pytest.approx(t + 200 * c)
    # 25 prompts of 200 tokens fit one 8,192-token step: one group, the whole step for each
    assert srv.lockstep_ttft(25, 200, 200, 8192, t, c) == pytest.approx(t + 25 * 200 * c)
    # 100 prompts of 1,000: (8,192 - 100) // 1,000 = 8 a step, 13 groups (the last of 4); the first waits for a decode
    # step under way, every later one for the previous group's prefill step
    full, last = t + 8 * 1000 * c, t + 4 * 1000 * c
    chain = (8 * (t + full) + 11 * 8 * (2 * full) + 4 * (full + last)) / 100
    assert srv.lockstep_ttft(100, 1000, 1000, 8192, t, c) == pytest.approx(chain)
    # far below the first round's mean, every prompt behind all those ahead of it (≈ 7 full steps)
    assert chain < 0.4 * (7 * full)
    # 10 prompts of 4,096 (one a step) and 2 output tokens: 10 prefill steps a round against 2 decode steps, so the
    # prompts queue: a request waits out the other 9 steps of the round
    assert srv.lockstep_ttft(10, 4096, 2, 8192, t, c) == pytest.approx(9 * (t + 4096 * c))
    est = _serving(concurrency=32)
    ttft = est["serving_ttft_ms"]
    step, spread = ttft.basis["ttft_lockstep_ms"], ttft.basis["ttft_spread_ms"]
    # the span from the spread-out TTFT to the in-step one, widened at both ends by the residuals' factors; the
    # central value its geometric middle
    widths = ttft.basis["llm-serve-ttft"]
    assert step is not None and step > 2 * spread
    assert ttft.value == pytest.approx((spread * step) ** 0.5, rel=0.01)
    assert ttft.low == pytest.approx(spread * widths["low_ratio"], rel=0.01)
    assert ttft.high == pytest.approx(step * widths["high_ratio"], rel=0.01)
    how = ttft.how.render()
    assert "clients sending identical requests fall into step" in how and "geometric mean" in how
    assert f"{spread:,.0f} ms for requests that arrive spread out" in how
    rate = _serving(concurrency=None, request_rate=2.0)["serving_ttft_ms"]
    assert rate.basis["ttft_lockstep_ms"] is None and "fall into step" not in rate.how.render()
    assert rate.value == pytest.approx(rate.basis["ttft_spread_ms"], rel=0.01)


def _tensor_gemm(c: tp.Case, hw: tp.Hw, theta: list[float]) -> float:
    """The fitted tensor-core and power terms of a step, seconds."""
    import math

    return sum(t.a * math.exp(sum(s * theta[i] for i, s in t.params)) for t in tp.terms(c, hw)
               if tp.is_tensor_term(t) or t.kind == "power")


def test_a_tuned_gemm_rate_only_for_the_named_runtimes_and_never_past_the_roofline() -> None:
    """TensorRT-LLM and vLLM on a Hopper card run a step's GEMMs at the published GEMM benchmark's share of the
    tensor-core peak (serving.GEMM_EFFICIENCY) where that is faster than the fitted rate; any other runtime,
    architecture or format keeps the throughput model's step. No step is faster than its roofline: FLOPs at the full
    tensor-core peak, bytes at the full bandwidth."""
    theta = fitting.factors_for().theta()
    h100, a100 = tp.gpu_hw(CATALOGUE["nvidia-h100-sxm"]), tp.gpu_hw(CATALOGUE["nvidia-a100-80gb-sxm"])  # type: ignore[arg-type]
    spec = KNOWN_MODELS["llama-3.1-8b"]
    tuned_any = False
    for runtime in ("tensorrt-llm", "vllm", "pytorch", "llama.cpp", "transformers"):
        for precision in ("bf16", "fp8", "awq"):
            one = tp.Case(spec, "decode", precision, 1, 1, runtime=runtime, lm_head=True,
                          bits=4.0 if precision == "awq" else None)
            for hw in (h100, a100):
                for c in tp.llm_cases(one, 256, 1024, 512).values():
                    fitted, tuned = tp.step_time(c, hw, theta)[0], srv.step_time(c, hw, theta)[0]
                    eff = srv.gemm_efficiency(c, hw)
                    named = runtime in srv.TUNED_GEMM_RUNTIMES and hw is h100 and precision != "awq"
                    assert (eff is not None) == named, (runtime, precision, hw.arch)
                    if not named:
                        assert tuned == fitted
                        continue
                    assert eff is not None and 0 < eff < 1
                    flops, nbytes, _k = tp.work(c)
                    peak = tp.tensor_peak(c, hw)
                    assert peak
                    # the GEMMs at the published rate, or the fitted one where that is faster; nothing else moves
                    gemm = min(_tensor_gemm(c, hw, theta), flops / (eff * peak))
                    assert tuned == pytest.approx(fitted - _tensor_gemm(c, hw, theta) + gemm, rel=1e-9)
                    assert tuned <= fitted
                    tuned_any = tuned_any or tuned < fitted
                    assert gemm >= flops / peak  # the GEMMs never beyond the tensor cores' peak
                    assert tuned >= max(flops / peak, nbytes / hw.bandwidth)
    assert tuned_any  # the published rate is faster than the fitted one on some step: not a no-op
    # the estimate states the rate it used
    w = Workload("llama-3.1-8b", "infer", precision="fp8", runtime="tensorrt-llm", concurrency=64, prompt_tokens=512,
                 output_tokens=256)
    f = fitting.factors_for()
    assert srv.estimate(w, h100, 80, 1, f).basis["gemm_efficiency"] == pytest.approx(1467 / 1978.8, abs=1e-3)
    assert srv.estimate(w, a100, 80, 1, f).basis["gemm_efficiency"] is None


@pytest.mark.parametrize(("workload", "field"), [
    ({"concurrency": 0}, "workload.concurrency"),
    ({"concurrency": -3}, "workload.concurrency"),
    ({"concurrency": None, "request_rate": 0}, "workload.request_rate"),
    ({"concurrency": None}, "workload.concurrency"),
    ({"request_rate": 2.0}, "workload.request_rate"),
    ({"output_tokens": None}, "workload.output_tokens"),
    ({"runtime": "llama.cpp"}, "workload.runtime"),
    ({"runtime": "transformers"}, "workload.runtime"),
    ({"optimizer": "adamw"}, "workload.optimizer"),
    ({"finetune": "lora"}, "workload.finetune"),
    ({"batch_size": 8}, "workload.batch_size"),
    ({"parallel": "pipeline"}, "workload.parallel"),
    ({"model": "bert-base"}, "workload.task"),
])
def test_bad_serving_input_names_the_field(workload: dict[str, Any], field: str) -> None:
    doc = _doc(**workload)
    with pytest.raises(BuildError) as exc:
        parse_build(doc, CATALOGUE)
    assert [e.path for e in exc.value.errors] == [field]


def test_serving_keys_on_infer_are_refused() -> None:
    doc = _doc(task="infer")
    with pytest.raises(BuildError) as exc:
        parse_build(doc, CATALOGUE)
    assert {e.path for e in exc.value.errors} == {"workload.concurrency", "workload.prompt_tokens",
                                                  "workload.output_tokens"}


def test_round_trip_keeps_task_serve() -> None:
    from configurator.core.build import build_to_dict

    b = parse_build(_doc(), CATALOGUE)
    assert b.workload is not None and b.workload.serving and b.workload.effective_runtime == "vllm"
    assert build_to_dict(b)["workload"]["task"] == "serve"


def _cli(tmp_path: Path, doc: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "b.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "configurator", "check", str(path), "--json"],
                          capture_output=True, text=True, timeout=120, check=False)


def test_cli_check_json_shows_serving(tmp_path: Path) -> None:
    out = _cli(tmp_path, _doc())
    assert out.returncode == 0, out.stderr
    keys = {e["key"]: e for e in json.loads(out.stdout)["estimates"]}
    assert set(KEYS) <= set(keys) and keys["serving_tpot_ms"]["low"] is not None
    bad = _cli(tmp_path, _doc(concurrency=0))
    assert bad.returncode == 2
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and "workload.concurrency" in lines[0]


def test_the_workload_summary_states_the_serving_load_steps_image_size_and_runtime() -> None:
    """What the PDF sheet and the planner show of a workload: a serving one's load and tokens per request (its
    batch is the runtime's, no row for it), a diffusion model's steps and image size, and the runtime the estimate
    runs a UNet in (PyTorch, not the inference default llama.cpp)."""
    from configurator.core.sheet import serving_heading, workload_summary

    def rows(w: Workload) -> dict[str, str]:
        return {k: v if isinstance(v, str) else v.render() for k, v in workload_summary(w)}

    serve = rows(Workload("llama-3.1-8b", "infer", precision="bf16", concurrency=64, prompt_tokens=512,
                          output_tokens=256))
    assert serve["task"] == "Serving (LLM under load)" and serve["load"] == "64 requests in flight"
    assert serve["tokens"] == "512 prompt + 256 output" and "batch" not in serve and "seq_len" not in serve
    assert serve["runtime"] == "vLLM (default)"
    rate = Workload("llama-3.1-8b", "infer", precision="bf16", request_rate=2.5, prompt_tokens=2000,
                    output_tokens=100)
    assert rows(rate)["load"] == "2.5 requests/s (Poisson arrivals)"
    assert serving_heading(rate).render() == ("Serving at 2.5 requests/s (Poisson arrivals), 2,000 prompt + 100 "
                                              "output tokens per request")
    sdxl = rows(Workload("sdxl-unet", "infer", precision="fp16", steps=30, image_size=768))
    assert (sdxl["steps"], sdxl["image"], sdxl["runtime"]) == ("30", "768 px", "PyTorch (eager) (default)")
    assert "seq_len" not in sdxl
    flux = rows(Workload("flux1-dev", "infer", precision="bf16"))
    assert flux["steps"] == "28 (default)" and flux["image"].endswith("px (default)")  # FluxPipeline's 28
    assert "steps" not in rows(Workload("sdxl-unet", "train", precision="fp16"))
    llm = rows(Workload("llama-3.1-8b", "infer", precision="bf16"))
    assert "load" not in llm and "image" not in llm and llm["batch"] == "1" and "seq_len" in llm


def test_a_serving_workload_without_a_precision_serves_16_bit_weights() -> None:
    from configurator.core.build import read_workload

    serve = {"model": "llama-3.1-8b", "task": "serve", "concurrency": 8, "prompt_tokens": 512, "output_tokens": 128}
    assert read_workload(serve)[0].precision == "bf16"  # type: ignore[union-attr]  # vLLM's dtype auto, not fp32
    assert read_workload({**serve, "precision": "fp16"})[0].precision == "fp16"  # type: ignore[union-attr]
    assert read_workload({"model": "llama-3.1-8b", "task": "infer"})[0].precision == "fp32"  # type: ignore[union-attr]


def test_each_sentence_words_its_range_as_the_headline_does() -> None:
    """The explanation's "(low–high)" is the estimate's own rounded range: a TTFT of 498.54 ms is 498.5, shown 498 in
    the headline and in the sentence (it read 499 there when the sentence took the unrounded figure)."""
    from configurator.core.numbers import figure

    formats = {"serving_ttft_ms": 0, "serving_tpot_ms": 1, "serving_output_tokens_per_s": 0,
               "serving_requests_per_s": 2}
    seen = 0
    for clients in range(4, 129, 4):
        for key, digits in formats.items():
            e = _serving(concurrency=clients)[key]
            assert e.low is not None and e.high is not None
            assert f"({figure(e.low, digits)}–{figure(e.high, digits)})" in e.how.render(), (clients, key)
            seen += 1
    assert seen == 32 * 4
