"""The throughput model fitted to the published measurements: its error, ranking, ranges and EST-1."""

from __future__ import annotations

import dataclasses
import json
import statistics

import pytest
from planner_kit import CATALOGUE, Kit, finding, rules

from configurator.core import measurements as ms
from configurator.core.build import Workload
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import throughput as tp
from configurator.core.parts import Cpu, Gpu


@pytest.fixture(scope="module")
def fit() -> fitting.Fit:
    return fitting.fit_for()


def test_the_guides_rows_do_not_enter_the_fit(fit: fitting.Fit) -> None:
    assert fit.rows and not any(m.is_guide for m in fit.rows)
    assert len(fit.rows) >= 110


def test_the_fit_reproduces_its_training_data_within_its_stated_error(fit: fitting.Fit) -> None:
    for fam in ("cnn-train", "bert-train", "llm-prefill", "llm-decode"):
        errors = [abs(p / fitting.stream_value(m) - 1) for m, p in zip(fit.rows, fit.fitted, strict=True)
                  if m.family == fam]
        fe = fit.family(fam)
        assert fe is not None
        assert statistics.median(errors) <= fe.median + 0.02  # in-sample no worse than cross-validated


# Leave-one-GPU-out levels reached (bench prints the table); a regression fails. The aims are
# median ≤ 15 %, worst ≤ 35 %, ≥ 90 % pairs in order. Missed, and why: llm-prefill's median and worst, TensorRT-LLM's
# first-token rows (tensorrt-llm.csv) run their GEMMs faster than the shared GEMM efficiency allows (the model has no
# GEMM efficiency per inference runtime yet); llm-decode's, rows of a runtime or weight format measured on one GPU
# only (optimum's transformers rows on one A100, AutoAWQ's on one RTX 4090) are predicted from their priors when
# that GPU is held out, and the H200's only rows are TensorRT-LLM's FP8 batch-512 70B decode over two GPUs;
# gpt-train's worst, torchtune's RTX A6000 rows, whose table states the 4090's recipe but twice its memory
# (activation checkpointing off?). Leave-one-source-out (validation.py) judges these rows too.
REACHED = {"cnn-train": (0.105, 0.34), "bert-train": (0.15, 0.37), "llm-prefill": (0.18, 0.42),
           "llm-decode": (0.13, 0.83), "gpt-train": (0.11, 0.48)}
MIN_GPUS = {"gpt-train": 4}


@pytest.mark.parametrize("family", sorted(REACHED))
def test_leave_one_gpu_out_error(fit: fitting.Fit, family: str) -> None:
    fe = fit.family(family)
    assert fe is not None and fe.gpus >= MIN_GPUS.get(family, 5)
    median, worst = REACHED[family]
    assert fe.median <= median and fe.worst <= worst


def test_ranking_pairs_in_measured_order(fit: fitting.Fit) -> None:
    assert fit.pairs >= 300
    assert fit.pairs_in_order / fit.pairs >= 0.90


def test_ranking_of_the_cards_the_old_calibration_got_wrong() -> None:
    f = fitting.factors_for()
    w = Workload(model="resnet50", task="train", precision="amp", batch_size=256)

    def r50(gid: str) -> float:
        g = CATALOGUE[gid]
        assert isinstance(g, Gpu)
        return tp.single_gpu(g, w, f).samples_per_s

    # measured (Lambda): 4090 1301, 6000 Ada 1146, 3090 905, H100 PCIe 1866
    assert r50("nvidia-rtx-6000-ada") < 1.3 * r50("nvidia-rtx-4090")
    assert r50("nvidia-rtx-3090") < r50("nvidia-rtx-4090") < r50("nvidia-h100-pcie")
    assert 0.7 < r50("nvidia-h100-pcie") / 1866 < 1.4


def test_7b_int4_decode_on_a_5090_is_far_above_25_and_above_any_cpu() -> None:
    f = fitting.factors_for()
    w = Workload(model="llama-7b", task="infer", precision="int4")
    g = CATALOGUE["nvidia-rtx-5090"]
    assert isinstance(g, Gpu)
    gpu = tp.single_gpu(g, w, f).headline(w)
    assert gpu > 150
    for cpu in (p for p in CATALOGUE.values() if isinstance(p, Cpu)):
        bandwidth = cpu.memory_channels * (cpu.memory_max_mts or 3200) * 1e6 * 8 * cpu.max_sockets
        assert tp.cpu_only(cpu, cpu.max_sockets, bandwidth, w, f).headline(w) < gpu / 2


def test_one_stream_is_not_multiplied_by_the_gpu_count(kit: Kit) -> None:
    """Two GPUs decode twice the streams (the machine's tokens/s, summed over the batch, doubles); one stream
    alone is no faster on them."""
    w = Workload(model="llama-7b", task="infer", precision="int4", batch_size=4)
    one = kit.check(*kit.standard(), workload=w)
    two = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 2)), workload=w)
    a, b = one.estimate("throughput_total"), two.estimate("throughput_total")
    assert a is not None and b is not None and a.value and b.value
    assert b.value == pytest.approx(2 * a.value, rel=0.01)
    batch_one, batch_two = one.estimate("throughput_batch"), two.estimate("throughput_batch")
    assert batch_one is not None and batch_two is not None and batch_one.value and batch_two.value
    assert batch_two.value == pytest.approx(2 * batch_one.value, rel=0.01)
    stream = batch_one.inputs["one_stream_tokens_per_s"]
    assert batch_two.inputs["one_stream_tokens_per_s"] == stream
    assert batch_one.value > 2 * stream  # four streams share each read of the weights


def test_check_json_estimates_carry_their_range_and_basis(kit: Kit) -> None:
    w = Workload(model="resnet50", task="train", precision="amp")
    out = json.loads(json.dumps(kit.check(*kit.standard(), workload=w).to_json()))
    keys = {e["key"]: e for e in out["estimates"]}
    for key in ("throughput_one_gpu", "throughput_total", "throughput_cpu"):
        e = keys[key]
        assert e["low"] <= e["value"] <= e["high"], key
        assert "basis" in e and e["basis"]["matched"] is not None
    basis = keys["throughput_one_gpu"]["basis"]
    assert basis["family"] == "cnn-train" and basis["measurements"] >= 20
    assert 0 < basis["cv_median_error"] <= basis["cv_p90_error"]
    assert [m["id"] for m in basis["matched"]] == ["lambda-resnet50-train-amp-rtx-3090-x1"]
    assert "likely" in keys["throughput_one_gpu"]["how"] and "measurements of this family" in \
        keys["throughput_one_gpu"]["how"]


def test_est1_for_the_3090_resnet50_build(kit: Kit) -> None:
    w = Workload(model="resnet50", task="train", precision="fp32")
    report = kit.check(*kit.standard(), workload=w)
    f = finding(report, "EST-1", "info")
    assert f is not None
    assert f.numbers["guide"] == 230 and f.numbers["published"] == 513
    text = f.message.render()
    assert "PyTorch 1.12.1" in text and "synthetic" in text and "real" in text


def test_no_est1_where_there_is_no_guide_figure_or_the_guide_agrees(kit: Kit) -> None:
    w = Workload(model="resnet50", task="train", precision="fp32")
    assert "EST-1" not in rules(kit.check(*kit.standard(gpu="nvidia-rtx-4090"), workload=w))
    rows = ms.load()
    agreeing = [dataclasses.replace(m, value=505.0) if m.id == "REF-1-1x-fp32" else m for m in rows]
    from configurator.core.engine import check

    report = check(kit.build(*kit.standard(), workload=w), kit.catalogue, agreeing)
    assert "EST-1" not in rules(report)


def test_the_fit_is_memoised_and_a_check_is_fast(kit: Kit) -> None:
    import time

    assert fitting.fit_for() is fitting.fit_for()
    w = Workload(model="gpt2-medium", task="train", precision="amp")
    build = kit.build(*kit.standard(), workload=w)
    from configurator.core.engine import check

    check(build, kit.catalogue)
    start = time.perf_counter()
    for _ in range(20):
        check(build, kit.catalogue)
    assert (time.perf_counter() - start) / 20 < 0.02  # 2 ms on a quiet machine; generous for shared CI


def test_gpt_training_rests_on_llm_foundry_rows_and_not_on_transformer_xl(fit: fitting.Fit) -> None:
    used = {m.model for m in fit.rows if m.family == "gpt-train"}
    assert "transformer-xl-base" not in used and {"mpt-7b", "mpt-1b"} <= used
    # the Transformer-XL rows are still published data (listed, matched beside estimates)
    assert any(m.model == "transformer-xl-base" for m in fitting.shipped())
    # sharded over 8 GPUs in one node: each GPU's share, updating an eighth of the optimizer states
    row = next(m for m in fit.rows if m.model == "mpt-7b" and m.gpu == "nvidia-a100-80gb-sxm")
    case = fitting.case_for(row)
    assert case is not None and case.shards == 8 and case.runtime == "fused" and case.attention == "flash"


def test_fused_attention_training_is_faster_than_eager_and_near_the_measured_mfu() -> None:
    """A GPT-2-class model trained with SDPA runs the fitted 'fused' runtime; eager attention
    materialises the scores and is slower. On an A100 80 GB SXM, MPT-1B at 2048 tokens measured
    20,513 tokens/s per GPU (llm-foundry); a 1.3B GPT at the same settings lands within the
    family's error of it."""
    f = fitting.factors_for()
    g = CATALOGUE["nvidia-a100-80gb-sxm"]
    assert isinstance(g, Gpu)
    sdpa = Workload(model="gpt2-xl", task="train", precision="bf16", batch_size=8, seq_len=1024)
    eager = dataclasses.replace(sdpa, attention="eager")
    assert tp.planner_cases(sdpa)["main"].runtime == "fused"
    assert tp.planner_cases(eager)["main"].runtime == "pytorch"
    fast = tp.single_gpu(g, sdpa, f).samples_per_s * 1024  # sequences/s → tokens/s
    slow = tp.single_gpu(g, eager, f).samples_per_s * 1024
    assert fast > 1.2 * slow
    # GPT-2 XL (1.56B) at 1024 tokens: 6·N FLOPs per token at 35-60 % of 312 TFLOPS ≈ 12k-20k tokens/s
    assert 10_000 < fast < 22_000


def _gpu(gid: str) -> Gpu:
    g = CATALOGUE[gid]
    assert isinstance(g, Gpu)
    return g


def test_nchw_fp16_convolutions_pay_for_layout_transposes_and_tf32_does_not(fit: fitting.Fit) -> None:
    """PyTorch's default NCHW costs FP16 tensor-core convolutions a transpose in and out (DLE trains AMP
    in NHWC: 2470 img/s on an A100 where Lambda's NCHW run gets 1582); TF32 convolutions do not pay it."""
    hw = tp.gpu_hw(_gpu("nvidia-h100-sxm"))
    spec = fitting.model_spec("resnet50")
    assert spec is not None
    amp = tp.Case(spec, "train", "amp", 256)
    tf32 = tp.Case(spec, "train", "tf32", 256)
    nhwc = dataclasses.replace(amp, layout="nhwc")
    assert tp.rate(nhwc, hw, fit.theta) > 1.2 * tp.rate(amp, hw, fit.theta)
    assert tp.rate(dataclasses.replace(tf32, layout="nhwc"), hw, fit.theta) == tp.rate(tf32, hw, fit.theta)
    dle = next(m for m in fit.rows if m.id == "nvidia-resnet50-train-amp-a100-80gb-sxm-x1")
    lam = next(m for m in fit.rows if m.id == "lambda-resnet50-train-amp-a100-80gb-sxm-x1")
    assert (c := fitting.case_for(dle)) is not None and c.layout == "nhwc"
    assert (c := fitting.case_for(lam)) is not None and c.layout == "nchw"
    a100 = _gpu("nvidia-a100-80gb-sxm")
    assert fitting.predict_row(dle, a100, fit.theta) > 1.15 * fitting.predict_row(lam, a100, fit.theta)


def test_llama_cpp_gemms_accumulate_in_fp16_at_the_geforce_double_rate(fit: fitting.Fit) -> None:
    """The catalogue's tensor figure is FP32 accumulate, which GeForce boards run at half rate; llama.cpp's
    cuBLAS GEMMs accumulate in FP16 (4 × the FP32 shader rate on GA10x/AD10x SMs): the 4090's measured
    9382 tokens/s FP16 prefill of LLaMA-3-8B is ≈ 150 TFLOPS, above its 165 FP32-accumulate peak × any
    plausible efficiency."""
    g4090, a100 = tp.gpu_hw(_gpu("nvidia-rtx-4090")), tp.gpu_hw(_gpu("nvidia-a100-80gb-pcie"))
    assert g4090.fp16_tensor and g4090.fp16_acc16_tensor == pytest.approx(2 * g4090.fp16_tensor, rel=0.01)
    assert a100.fp16_acc16_tensor == a100.fp16_tensor  # data-centre SMs accumulate in FP32 at full rate
    row = next(r for r in fit.cv if r.m.id == "xiongjiedai-llama-3-8b-prefill-fp16-rtx-4090-x1")
    assert abs(row.error) < 0.3  # held out: the 4090 was not in the fit that predicted it


def test_quantised_prompt_processing_is_slower_than_fp16_where_compute_is_plentiful(fit: fitting.Fit) -> None:
    """llama.cpp multiplies quantised weights in prompt processing by dequantising them to FP16 first
    (measured on a 4090: q4_k_m 7139 tokens/s against FP16's 9382); decode reads fewer bytes and is faster."""
    hw = tp.gpu_hw(_gpu("nvidia-rtx-4090"))
    spec = fitting.model_spec("llama-3-8b")
    assert spec is not None
    pre = tp.Case(spec, "prefill", "fp16", 1, 512, runtime="llama.cpp", lm_head=True)
    q4 = dataclasses.replace(pre, precision="q4_k_m")
    assert tp.rate(q4, hw, fit.theta) < 0.95 * tp.rate(pre, hw, fit.theta)
    dec = dataclasses.replace(pre, task="decode", seq=256)
    assert tp.rate(dataclasses.replace(dec, precision="q4_k_m"), hw, fit.theta) > 2 * tp.rate(dec, hw, fit.theta)


def _row(fit: fitting.Fit, row_id: str) -> fitting.CvRow:
    return next(r for r in fit.cv if r.m.id == row_id)


def test_rows_of_2019_containers_run_on_pytorch_of_2019_and_the_planner_never_does(fit: fitting.Fit) -> None:
    """DLE's BERT tables ran in NGC pytorch:19.07 (PyTorch 1.x with APEX): their own runtime, so that they
    do not pull current PyTorch's parameters; the planner estimates current software only."""
    old = [m for m in fit.rows if "pytorch:19.07" in (m.runtime or "")]
    assert len(old) == 5 and all((c := fitting.case_for(m)) is not None and c.runtime == "pytorch-2019"
                                 for m in old)
    lam = next(m for m in fit.rows if m.id == "lambda-bert-large-train-amp-a100-80gb-sxm-x1")
    assert (c := fitting.case_for(lam)) is not None and c.runtime == "pytorch"
    for model, task in (("bert-large", "train"), ("resnet50", "train"), ("gpt2", "train"), ("llama-7b", "infer")):
        w = Workload(model=model, task=task, precision="amp" if task == "train" else "int4")
        assert all(c.runtime != "pytorch-2019" for c in tp.planner_cases(w).values())


def test_the_2019_optimizer_steps_each_tensor_and_accumulation_amortises_it(fit: fitting.Fit) -> None:
    """A 2019 SQuAD fine-tuning step (batch 8) pays for an optimizer that steps each of BERT-large's ~390
    parameter tensors; LAMB pre-training steps it once per accumulation window, which costs nothing per
    micro-batch. Held out, the V100's five BERT rows are within the aim's 35 %."""
    spec = fitting.model_spec("bert-large")
    assert spec is not None
    hw = tp.gpu_hw(_gpu("nvidia-tesla-v100-sxm2-32gb"))
    old = tp.Case(spec, "train", "amp", 8, 384, runtime="pytorch-2019")
    now = dataclasses.replace(old, runtime="pytorch")
    accumulated = dataclasses.replace(old, accumulation=1024)
    tensors = 16 * spec.layers + 8
    assert tp.work(old)[2] - tp.work(now)[2] == tp.OPT_KERNELS_PER_TENSOR_2019 * tensors - 20
    assert tp.work(accumulated)[2] < tp.work(now)[2] and tp.work(accumulated)[1] < tp.work(old)[1]
    assert tp.rate(old, hw, fit.theta) < 0.85 * tp.rate(now, hw, fit.theta)
    assert tp.rate(accumulated, hw, fit.theta) > tp.rate(old, hw, fit.theta)
    v100 = [r for r in fit.cv if r.m.gpu == "nvidia-tesla-v100-sxm2-32gb" and r.m.family == ms.BERT_TRAIN]
    assert len(v100) == 5 and max(abs(r.error) for r in v100) < 0.35


def test_2019_eager_attention_moves_the_scores_more_often() -> None:
    """PyTorch of 2019 scaled, masked, softmaxed and dropped out the attention scores in separate kernels:
    at sequence length 512 that traffic is a large share of a BERT step; fused attention moves none."""
    spec = fitting.model_spec("bert-large")
    assert spec is not None
    now = tp.Case(spec, "train", "amp", 8, 512, runtime="pytorch")
    old = dataclasses.replace(now, runtime="pytorch-2019")
    fused = dataclasses.replace(now, attention="sdpa")
    assert tp.work(old)[1] > tp.work(now)[1] > tp.work(fused)[1]
    scores = spec.layers * spec.heads * 512 * 512 * 8  # score elements of one step, 2 B each
    assert tp.work(old)[1] - tp.work(now)[1] == pytest.approx(scores * (45 - 15), rel=1e-9)


def test_dec_2023_quantised_prompts_pay_a_cost_per_matrix_multiplication(fit: fitting.Fit) -> None:
    """llama.cpp's Dec-2023 q4_0 prompts took 33–63 ms longer than FP16 on every card, the HBM cards
    included: a fixed cost per dequantised matrix multiplication (224 for LLaMA-2 7B's 494-token prompt, plus
    the head), which later runtimes do not have. Held out, the A100 and H100 q4_0 rows are within 35 %."""
    spec = fitting.model_spec("llama-2-7b")
    assert spec is not None
    pre = tp.Case(spec, "prefill", "q4_0", 1, 494, runtime="llama.cpp-2023", lm_head=True)
    overhead = [t for t in tp.terms(pre, tp.gpu_hw(_gpu("nvidia-a100-80gb-pcie")))
                if t.params == ((tp.INDEX["dequant.llama.cpp-2023"], 1.0),)]
    assert [t.a for t in overhead] == [7 * 32 + 1]
    later = dataclasses.replace(pre, runtime="llama.cpp")
    assert not any(i == tp.INDEX["dequant.llama.cpp-2023"] for t in tp.terms(later, tp.gpu_hw(
        _gpu("nvidia-a100-80gb-pcie"))) for i, _s in t.params)
    for gid in ("a100-80gb-pcie", "h100-pcie"):
        assert abs(_row(fit, f"xiongjiedai-llama-2-7b-prefill-q4_0-{gid}-x1").error) < 0.35


def test_llama_cpp_since_2024_computes_the_prompts_head_for_its_last_token_only() -> None:
    """Since March 2024 llama.cpp's last layer keeps only the tokens whose logits are asked for (the last
    one in prompt processing): LLaMA-3-8B's 128k-word head then costs one token's GEMV, not 512 tokens'."""
    spec = fitting.model_spec("llama-3-8b")
    assert spec is not None
    now = tp.Case(spec, "prefill", "fp16", 1, 512, runtime="llama.cpp", lm_head=True)
    old = dataclasses.replace(now, runtime="llama.cpp-2023")
    head = 2 * spec.vocab * spec.hidden
    assert tp.work(old)[0] - tp.work(now)[0] == pytest.approx(511 * head, rel=1e-9)
    q4, q4_old = dataclasses.replace(now, precision="q4_k_m"), dataclasses.replace(old, precision="q4_k_m")
    # the head is not dequantised to an FP16 copy for one token
    assert tp.work(q4_old)[1] - tp.work(q4)[1] == pytest.approx(spec.vocab * spec.hidden * 4.0, rel=1e-9)

