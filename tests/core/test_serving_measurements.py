"""Published serving-at-load measurements (task serve: db/measurements/tensorrt-llm-serving.csv, sglang-vllm060.csv,
zhjunqin-serving.csv): their validation, and the serving model's leave-one-source-out error on them (serving.py on
the fitted step model; the rows are predicted, never fitted). The guards pin the issue's aims (median <= 20 %,
coverage >= 80 %), which every serving family reaches since the serving step runs its GEMMs at a published GEMM
benchmark's rate on Hopper (serving.GEMM_EFFICIENCY), and each origin's median ratio where it is today, so that a
change making them worse fails."""

from __future__ import annotations

import re
import statistics

import pytest

from configurator.core import measurements as ms
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import validation as val

HEADER = ",".join(ms.COLUMNS)
GOOD = ("vllm-r4-tpot,o,llama-3.1-8b,serve,llm-serve-tpot,bf16,,,214,194,,nvidia-a100-80gb-sxm,1,,,vllm,0.6.0,,"
        "rate-4;sharegpt,real,14.14,ms,,https://github.com/o/r/blob/0/README.md,table,2024-09,")


def _parse(row: str) -> list[ms.Measurement]:
    return ms.parse_csv(HEADER + "\n" + row + "\n", "t.csv")


def test_a_serving_row_parses() -> None:
    (m,) = _parse(GOOD)
    assert (m.task, m.family, m.unit, m.flags) == ("serve", ms.LLM_SERVE_TPOT, "ms", ("rate-4", "sharegpt"))


@pytest.mark.parametrize(("old", "new", "field"), [
    (",ms,", ",tokens/s,", "unit"),  # a latency family in tokens/s
    ("llm-serve-tpot", "llm-decode", "family"),  # task serve with a throughput family
    (",214,194,", ",,194,", "prompt_len"),  # the mean prompt is needed
    ("rate-4;", "", "batch_size"),  # no load stated
    ("rate-4;", "rate-x;", "flags"),
    (",,,214,", ",8,,214,", "batch_size"),  # both a rate and requests in flight
    ("rate-4;", "rate-4;multi-step-0;", "flags"),  # vLLM's scheduler steps: a positive whole number
])
def test_bad_serving_rows_name_the_field(old: str, new: str, field: str) -> None:
    with pytest.raises(ms.MeasurementError, match=field):
        _parse(GOOD.replace(old, new, 1))


def test_an_unpublished_prompt_length_is_kept_and_not_predicted() -> None:
    """A source without the requests' mean prompt (MLPerf's OpenOrca runs): prompt_len empty with the flag
    prompt-unpublished, parsed, then listed as not stated; the flag beside a prompt length is refused."""
    (m,) = _parse(GOOD.replace(",214,194,", ",,194,", 1).replace("rate-4;", "rate-4;prompt-unpublished;", 1))
    assert m.prompt_len is None
    assert "mean prompt length" in (fitting.serve_reason(m, fitting.measured_gpus()) or "")
    with pytest.raises(ms.MeasurementError, match="prompt-unpublished"):
        _parse(GOOD.replace("rate-4;", "rate-4;prompt-unpublished;", 1))
    shipped = [r for r in fitting.shipped() if r.origin == "mlperf-inference-v4.0"]
    assert len(shipped) == 6 and all(ms.PROMPT_UNPUBLISHED in r.flags for r in shipped)


def test_serving_units_are_refused_outside_task_serve() -> None:
    row = GOOD.replace("serve,llm-serve-tpot", "decode,llm-decode")
    with pytest.raises(ms.MeasurementError, match="unit"):
        _parse(row)


def test_the_shipped_serving_rows() -> None:
    rows = [m for m in fitting.shipped() if m.task == "serve"]
    assert len(rows) >= 30
    assert len({m.origin for m in rows}) >= 3
    for m in rows:
        # a file at a commit, or a versioned documentation page (NVIDIA NIM's benchmarking docs 1.0.0)
        assert m.source_url and ("/blob/" in m.source_url or re.search(r"/\d+\.\d+\.\d+/", m.source_url)), m.id
        # the runtime's version, or the build / container that states it (NIM 1.8.0 names no TensorRT-LLM version)
        # (or says it is not stated: DLI's older NIM)
        assert m.framework_version or (m.runtime and re.search(r"\d+\.\d+|not stated", m.runtime)), m.id
        assert (m.prompt_len or ms.PROMPT_UNPUBLISHED in m.flags) and m.gen_len, m.id
    assert {m.family for m in rows} == set(ms.SERVE_FAMILIES)


@pytest.fixture(scope="module")
def widths() -> dict[str, val.Width]:
    """The planner's ranges, from the held-out residuals (each origin held out in turn): computed once per process
    for the shipped fit, shared with the other tests that need them."""
    return val.widths_for(fitting.fit_for())


def test_serving_rows_are_held_out_and_never_fitted() -> None:
    fit = fitting.fit_for()
    assert not any(m.task == "serve" for m in fit.rows)
    assert {m.origin for m in fit.serving} >= {"tensorrt-llm-perf-overview", "sglang-vllm060", "zhjunqin-llm-learning"}
    gpus = fitting.measured_gpus()
    stated = [m for m in fit.serving if val.reason(m, gpus) is None]
    assert len(stated) >= 60
    # TensorRT-LLM's guaranteed_no_evict scheduler is modelled (each request's P + O reserved): its rows are stated
    assert not any("no_evict" in (val.reason(m, gpus) or "") for m in fit.serving)
    assert sum("no-evict" in m.flags for m in stated) >= 5
    # a tensor-parallel row is compared as the whole build's figure, not per GPU
    tp4 = next(m for m in stated if m.id == "sgl060-vllm-llama-3.1-70b-h100-x4-offline-tokens")
    assert fitting.stream_value(tp4) == tp4.value


def test_tpot_meets_the_aims_held_out_by_source(widths: dict[str, val.Width]) -> None:
    w = widths[ms.LLM_SERVE_TPOT]
    # aim: median <= 20 %; 7.0 % with the Hopper GEMMs at the published benchmark's rate (8.3 % before), 8.3 % since
    # vLLM 0.4.1's prefill-first scheduling is modelled (10.4 % before: its rate-5 runs measured 1.34x the
    # chunked-prefill step, 0.94x the prefill-first one)
    assert w.origins >= 2 and w.median <= 0.1
    assert w.coverage is not None and w.coverage >= val.TARGET_COVERAGE


def test_throughput_meets_the_aims_and_ttft_is_judged_held_out_by_source(widths: dict[str, val.Width]) -> None:
    tok = widths[ms.LLM_SERVE]
    # aim: median <= 20 %, coverage >= 80 %. Today 6.6 % / 93 % over 4 origins (12.2 % / 83 % over 3 before NVIDIA
    # NIM's 35 load points and TensorRT-LLM's no-evict reservation; 27.8 % / 96 % before the Hopper GEMMs ran at the
    # published GEMM benchmark's rate)
    assert tok.origins == 4 and tok.median <= 0.1
    assert tok.coverage is not None and tok.coverage >= val.TARGET_COVERAGE
    fit = fitting.fit_for()
    gpus = fitting.measured_gpus()
    ratios: dict[tuple[str, str], list[float]] = {}
    for m in fit.serving:
        if val.reason(m, gpus) is None:
            r = m.value / fitting.predict_serve(m, gpus[m.gpu], fit.theta)
            ratios.setdefault((m.family, m.origin), []).append(r)
            if m.origin == "nvidia-nim-benchmarking" and m.family == ms.LLM_SERVE_TTFT and m.batch_size == 1:
                ratios.setdefault(("one request", m.origin), []).append(r)
    med = {k: statistics.median(r) for k, r in ratios.items()}
    # each origin's median measured / predicted: TensorRT-LLM v1.0 1.02x (0.90x before its scheduler reserved each
    # request's whole prompt and output: GUARANTEED_NO_EVICT, TensorRT-LLM's default), SGLang's vLLM 0.6.0 1.00x,
    # zhjunqin's vLLM 0.4.1 and TensorRT-LLM 0.9 on an RTX 3090 0.93x, NVIDIA NIM 0.99x (0.88-1.03 at every one
    # of its 35 loads, saturated ones included: its KV cache in FP8 and reserved whole)
    assert 0.9 <= med[(ms.LLM_SERVE, "tensorrt-llm-perf-overview")] <= 1.1
    assert 0.9 <= med[(ms.LLM_SERVE, "sglang-vllm060")] <= 1.1
    assert 0.85 <= med[(ms.LLM_SERVE, "zhjunqin-llm-learning")] <= 1.0
    nim = ratios[(ms.LLM_SERVE, "nvidia-nim-benchmarking")] + ratios[(ms.LLM_SERVE_TPOT, "nvidia-nim-benchmarking")]
    assert len(nim) == 70 and min(nim) >= 0.85 and max(nim) <= 1.1
    vllm = [abs(fitting.predict_serve(m, gpus[m.gpu], fit.theta) / m.value - 1) for m in fit.serving
            if m.family == ms.LLM_SERVE and m.framework == "vllm"]
    # vLLM's saturated runs: A100 -19 %, RTX 3090 +12 %, 4x H100 +32 % (its 70B offline run)
    assert vllm and max(vllm) <= 0.33
    # TTFT: median 14.8 % on 37 rows of 3 origins (aim 20 %), coverage 92 %. The engine's TTFT holds with one
    # request in flight (NIM 0.80-1.28x) and in the open-loop vLLM runs (medians 1.09x, 1.05x), but NIM's closed-loop
    # runs of identical requests measure 1.4-4.2x it from 5 requests in flight on, while their tokens/s and TPOT at
    # the same loads hold to 12 %: the clients fall into step. For a stated concurrency the range spans the spread-out
    # TTFT to the mean TTFT of clients in step (serving.lockstep_ttft: groups of prompts, each waiting for the group
    # before it) and the central value is their geometric mean (43 % with the spread-out value alone)
    ttft = widths[ms.LLM_SERVE_TTFT]
    assert ttft.origins == 3 and ttft.rows >= 37 and ttft.median <= 0.2
    assert ttft.coverage is not None and ttft.coverage >= val.TARGET_COVERAGE
    assert min(ratios[("one request", "nvidia-nim-benchmarking")]) >= 0.75
    assert max(ratios[("one request", "nvidia-nim-benchmarking")]) <= 1.3
    assert 0.9 <= med[(ms.LLM_SERVE_TTFT, "sglang-vllm060")] <= 1.15
    assert 0.9 <= med[(ms.LLM_SERVE_TTFT, "zhjunqin-llm-learning")] <= 1.15
    loaded = [m for m in fit.serving if m.origin == "nvidia-nim-benchmarking" and m.family == ms.LLM_SERVE_TTFT
              and (m.batch_size or 0) >= 25]
    assert len(loaded) >= 15
    for m in loaded:
        value, span = fitting.serve_prediction(m, gpus[m.gpu], fit.theta)
        # no span where the clients in step wait no longer than spread-out ones (5000/500 at 50: the prompts queue)
        bottom, top = span or (value, value)
        assert bottom < m.value, m.id
        assert value == pytest.approx((bottom * top) ** 0.5), m.id
        # inside the range (the span's top widened by the held-out factor), the top no more than 4.5x the measured
        # mean (the first round's mean, every prompt behind all those ahead, reached 10x: 1000/1000 at 200), and the
        # central value within 0.8-1.75x of it (1.35-4.2x with the spread-out value)
        assert m.value <= top * ttft.high_ratio * 1.001 and top <= 4.5 * m.value, m.id
        assert 0.8 <= m.value / value <= 1.75, m.id
