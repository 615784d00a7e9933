"""Runtimes, fine-tuning methods and model parallelism in the throughput model (issue 28): each against the
published figure its prior rests on, and in the order the mechanisms imply."""

from __future__ import annotations

import dataclasses

import pytest

from configurator.core import measurements as ms
from configurator.core.build import Workload
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import throughput as tp
from configurator.core.model_specs import KNOWN_MODELS, ModelSpec
from configurator.core.parts import Gpu
from tests.core.planner_kit import CATALOGUE


@pytest.fixture(scope="module")
def f() -> tp.Factors:
    return tp.Factors(fit=fitting.fit_for())


def _gpu(gpu_id: str) -> Gpu:
    g = CATALOGUE[gpu_id]
    assert isinstance(g, Gpu)
    return g


def _llama2_7b() -> ModelSpec:
    spec = fitting.model_spec("llama-2-7b")
    assert spec is not None
    return spec


def test_gpt_fast_figures_on_an_a100_are_the_compiled_and_eager_priors(f: tp.Factors) -> None:
    """gpt-fast's README (commit 0f925b5): LLaMA-2-7B 104.9 tokens/s compiled on one A100-80GB, 168.84 /
    254.02 / 328.43 over 2 / 4 / 8 in tensor parallel over NVLink; the blog's eager start 25.5 tokens/s."""
    a100 = _gpu("nvidia-a100-80gb-sxm")
    hw = tp.gpu_hw(a100)
    nvlink = dataclasses.replace(hw, link=(a100.nvlink_bandwidth_gbs or 600) / 2 * 1e9, link_path="nvlink")
    theta = f.theta()
    compiled = tp.Case(_llama2_7b(), "decode", "fp16", 1, 128, runtime="compiled", lm_head=True)
    assert tp.rate(compiled, hw, theta) == pytest.approx(104.9, rel=0.1)
    # eager: the blog's own eager loop 25.5 tokens/s; optimum's table has transformers' generate faster
    # (LLaMA-2-13B fp16, batch 1: 32.86 tokens/s on the same GPU): the fit sits between the two sources
    eager = dataclasses.replace(compiled, runtime="transformers")
    assert 25.5 < tp.rate(eager, hw, theta) < 25.5 * 1.4
    for n, published in ((2, 168.84), (4, 254.02), (8, 328.43)):
        split = dataclasses.replace(compiled, tensor_parallel=n)
        assert tp.rate(split, nvlink, theta) == pytest.approx(published, rel=0.15), n


@pytest.mark.parametrize("fast", ["torch-compile", "vllm", "llama.cpp", "tensorrt-llm"])
def test_transformers_generate_decodes_far_slower_than_a_fast_runtime(f: tp.Factors, fast: str) -> None:
    g = _gpu("nvidia-a100-80gb-sxm")  # where both were measured (gpt-fast, optimum)
    slow = tp.single_gpu(g, Workload("llama-7b", "infer", "fp16", runtime="transformers"), f)
    quick = tp.single_gpu(g, Workload("llama-7b", "infer", "fp16", runtime=fast), f)
    assert slow.runtime == "transformers" and quick.runtime == fast
    assert quick.decode_tokens_per_s is not None and slow.decode_tokens_per_s is not None
    assert quick.decode_tokens_per_s > 2.5 * slow.decode_tokens_per_s
    assert slow.bound == "overhead"  # HF generate at batch 1: per-operator CPU overhead


def test_bitsandbytes_nf4_is_several_times_slower_than_exllamav2_and_llama_cpp_int4(f: tp.Factors) -> None:
    g = _gpu("nvidia-rtx-3090")
    rate = {rt: tp.single_gpu(g, Workload("llama-7b", "infer", "int4", runtime=rt), f).decode_tokens_per_s or 0.0
            for rt in ("transformers", "exllamav2", "llama.cpp")}
    assert rate["exllamav2"] > 5 * rate["transformers"]
    assert rate["llama.cpp"] > 5 * rate["transformers"]
    # LLM.int8 is slower still than NF4 (bitsandbytes issues 181, 490)
    int8 = tp.single_gpu(g, Workload("llama-7b", "infer", "int8", runtime="transformers"), f).decode_tokens_per_s
    assert int8 is not None and int8 < rate["transformers"]


def test_exllamav2_prior_matches_its_readme_on_a_4090(f: tp.Factors) -> None:
    """exllamav2's README: LLaMA-7B GPTQ 4-bit 128g at 195 tokens/s on an RTX 4090."""
    case = tp.Case(_llama2_7b(), "decode", "gptq", 1, 128, runtime="exllamav2", lm_head=True)
    assert tp.rate(case, tp.gpu_hw(_gpu("nvidia-rtx-4090")), f.theta()) == pytest.approx(195, rel=0.15)


def test_fine_tuning_methods_give_different_speeds_in_the_right_order(f: tp.Factors) -> None:
    g = _gpu("nvidia-a100-80gb-sxm")

    def tokens(**kw: object) -> float:
        w = Workload("llama-7b", "train", "bf16", batch_size=4, seq_len=2048, **kw)  # type: ignore[arg-type]
        return tp.single_gpu(g, w, f).tokens_per_s or 0.0

    full, lora, qlora = tokens(), tokens(finetune="lora"), tokens(finetune="qlora")
    lora_ckpt, full_ckpt = tokens(finetune="lora", grad_checkpointing=True), tokens(grad_checkpointing=True)
    assert len({round(x) for x in (full, lora, qlora, lora_ckpt, full_ckpt)}) == 5
    # LoRA skips the frozen weights' gradient GEMMs: ~4N instead of 6N FLOPs per token
    assert 1.25 < lora / full < 1.6
    assert qlora < lora  # NF4 dequantised in every pass
    assert lora_ckpt < lora and full_ckpt < full  # the recomputed forward
    assert 0.65 < full_ckpt / full < 0.85  # 8N instead of 6N


def test_lora_flops_are_four_n_per_token_plus_adapters() -> None:
    spec = _llama2_7b()
    full = tp.Case(spec, "train", "bf16", 1, 1024, runtime="fused", attention="sdpa", lm_head=True)
    lora = dataclasses.replace(full, finetune="lora")
    n_flops = 2 * (spec.params - 2 * spec.vocab * spec.hidden) + 2 * spec.vocab * spec.hidden
    attention = 4 * spec.layers * 1024 * spec.hidden
    assert tp.work(full)[0] == pytest.approx(1024 * 3 * (n_flops + attention))
    assert tp.work(lora)[0] == pytest.approx(1024 * (2 * n_flops + 3 * attention + 6 * tp.trained_params(lora)))
    ckpt = dataclasses.replace(lora, recompute=True)
    assert tp.work(ckpt)[0] - tp.work(lora)[0] == pytest.approx(1024 * (n_flops + attention))


def test_optimizer_state_precision_and_offload_change_the_step(f: tp.Factors) -> None:
    g = _gpu("nvidia-rtx-4090")

    def run(**kw: object) -> tp.Throughput:
        return tp.single_gpu(g, Workload("gpt2-medium", "train", "bf16", batch_size=1, seq_len=256,
                                         **kw), f)  # type: ignore[arg-type]

    adamw, eight, bf16 = run(), run(optimizer="adamw8bit"), run(optimizer="adamw-bf16")
    assert eight.samples_per_s > adamw.samples_per_s and bf16.samples_per_s > adamw.samples_per_s
    offload = run(offload="optimizer")
    assert offload.samples_per_s < adamw.samples_per_s and offload.bound == "offload"
    fast_host = tp.single_gpu(g, Workload("gpt2-medium", "train", "bf16", batch_size=1, seq_len=256,
                                          offload="optimizer"), f, tp.System(host_bw=400e9))
    assert fast_host.samples_per_s > offload.samples_per_s  # the host step runs at the host memory's bandwidth
    assert run(offload="activations").samples_per_s < adamw.samples_per_s


@pytest.mark.parametrize("n", [2, 4, 8])
def test_tensor_parallel_decodes_faster_than_one_gpu_and_pipeline_does_not(f: tp.Factors, n: int) -> None:
    g = _gpu("nvidia-a100-80gb-pcie")
    w = Workload("llama-7b", "infer", "fp16", runtime="vllm", parallel="tensor")
    one = tp.single_gpu(g, w, f).decode_tokens_per_s or 0.0
    nvlink = tp.single_gpu(g, w, f, tp.System(n, 300e9, "nvlink"))
    pcie = tp.single_gpu(g, w, f, tp.System(n, 25e9, "pcie"))
    host = tp.single_gpu(g, w, f, tp.System(n, 12e9, "host"))
    assert nvlink.model_gpus == n
    assert (nvlink.decode_tokens_per_s or 0) > (pcie.decode_tokens_per_s or 0) > (host.decode_tokens_per_s or 0)
    assert (host.decode_tokens_per_s or 0) > one
    assert (nvlink.decode_tokens_per_s or 0) < n * one  # the per-layer all-reduces and the launches do not split
    pipe = tp.single_gpu(g, dataclasses.replace(w, parallel="pipeline"), f, tp.System(n, 300e9, "nvlink"))
    assert (pipe.decode_tokens_per_s or 0) <= one
    assert (pipe.decode_tokens_per_s or 0) > 0.95 * one


def test_expert_parallel_spreads_a_mixture_of_experts_and_reads_only_routed_experts(f: tp.Factors) -> None:
    # Mixtral 8×7B's config.json: 32 layers, hidden 4096, 32 heads, 8 K/V heads, expert width 14336
    moe = KNOWN_MODELS["mixtral-8x7b"]  # its config.json: 8 experts, 2 per token
    assert (moe.experts, moe.experts_per_token) == (8, 2)
    one = tp.Case(moe, "decode", "fp16", 1, 128, runtime="vllm", lm_head=True)
    dense = dataclasses.replace(one, spec=dataclasses.replace(moe, experts=0, experts_per_token=0))
    assert tp.work(one)[1] < 0.4 * tp.work(dense)[1]  # 2 of 8 experts per token
    assert tp.work(dataclasses.replace(one, batch=64))[1] > 0.9 * tp.work(dense)[1]  # 64 tokens touch all
    hw = dataclasses.replace(tp.gpu_hw(_gpu("nvidia-h100-sxm")), link=450e9, link_path="nvlink")
    split = dataclasses.replace(one, expert_parallel=4)
    assert tp.rate(split, hw, f.theta()) > tp.rate(one, hw, f.theta())
    assert tp.experts(_llama2_7b()) == (0, 0)


def test_data_parallel_lora_all_reduces_the_adapters_only() -> None:
    full = Workload("llama-7b", "train", "bf16")
    lora = dataclasses.replace(full, finetune="lora")
    assert tp.grad_bytes(full) == pytest.approx(6.74e9 * 2, rel=0.01)
    assert tp.grad_bytes(lora) < tp.grad_bytes(full) / 100


def _row(**kw: object) -> ms.Measurement:
    base: dict[str, object] = dict(
        id="x", origin="test", model="llama-2-7b", task="decode", family=ms.LLM_DECODE, precision="fp16",
        batch_size=1, seq_len=None, prompt_len=16, gen_len=256, image_size=None, gpu="nvidia-a100-80gb-sxm",
        gpu_count=1, interconnect=None, cpu=None, framework="vllm", framework_version=None, runtime=None,
        flags=(), data=None, value=100.0, unit="tokens/s", peak_memory_gb=None, source_url=None, source_ref="",
        source_date="2024-06", note="")
    base.update(kw)
    return ms.Measurement(**base)  # type: ignore[arg-type]


def test_case_for_maps_runtime_precision_and_flag_columns() -> None:
    c = fitting.case_for(_row(framework="transformers", precision="int4"))
    assert c is not None and c.runtime == "transformers" and c.precision == "nf4"
    c = fitting.case_for(_row(framework="torch-compile", precision="int8"))
    assert c is not None and c.runtime == "compiled" and c.precision == "int8"
    c = fitting.case_for(_row(framework="exllamav2", precision="exl2", flags=("bpw-4.65",)))
    assert c is not None and c.runtime == "exllamav2" and c.bits == pytest.approx(4.65)
    c = fitting.case_for(_row(framework="vllm", precision="awq", gpu_count=4, flags=("tp-4",),
                              interconnect="nvlink"))
    assert c is not None and c.tensor_parallel == 4
    hw = fitting.hw_for(_row(gpu_count=4, flags=("tp-4",), interconnect="nvlink"), _gpu("nvidia-a100-80gb-sxm"))
    assert hw.link_path == "nvlink" and hw.link and hw.link > 100e9
    train = fitting.case_for(_row(task="train", family=ms.GPT_TRAIN, framework="torchtune", precision="bf16",
                                  seq_len=2048, flags=("qlora", "grad-ckpt", "adamw8bit")))
    assert train is not None and train.finetune == "qlora" and train.recompute and train.optimizer == "adamw8bit"
    # a tensor-parallel decode row is fitted (its stream over 4 GPUs), a plain 4-GPU one is not
    gpus = {"nvidia-a100-80gb-sxm": _gpu("nvidia-a100-80gb-sxm")}
    tp_row = _row(gpu_count=4, flags=("tp-4",), interconnect="nvlink")
    assert fitting.fit_rows([tp_row, _row(id="y", gpu_count=4)], gpus) == [tp_row]


def test_a_runtime_row_moves_its_own_parameters() -> None:
    """A published row of a runtime pulls that runtime's parameters, not llama.cpp's or PyTorch's."""
    base = fitting.fit_for()
    # vLLM has no published rows shipped: two slow ones pull its prediction down, and only its parameters
    rows = [*fitting.shipped(), _row(id="a", framework="vllm", value=40.0),
            _row(id="b", framework="vllm", gpu="nvidia-rtx-4090", value=30.0)]
    refit = fitting.fit(rows, fitting.measured_gpus() | {"nvidia-rtx-4090": _gpu("nvidia-rtx-4090")},
                        cross_validate=False)
    a100 = _gpu("nvidia-a100-80gb-sxm")
    assert fitting.predict_row(_row(), a100, refit.theta) < 0.9 * fitting.predict_row(_row(), a100, base.theta)
    assert refit.value("bw.llama.cpp") == pytest.approx(base.value("bw.llama.cpp"), rel=0.05)
    assert refit.value("launch.transformers") == pytest.approx(base.value("launch.transformers"), rel=0.05)
