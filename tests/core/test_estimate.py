"""Estimators: the figures a practitioner can check by hand."""

from __future__ import annotations

import pytest
from planner_kit import CATALOGUE

from configurator.core.build import Workload
from configurator.core.estimate import throughput as tp
from configurator.core.estimate.memory import host_ram, largest_batch, verdict, vram_per_gpu
from configurator.core.parts import Gpu
from configurator.core.units import GIB

# Parameter counts of the catalogue (db/models): counted from each model's config.json by
# configurator.core.models.config_params (GPT-2 124,439,808; GPT-2 XL 1,557,611,200; LLaMA-7B 6,738,415,616).
GPT2 = 124_439_808
GPT2_XL = 1_557_611_200
LLAMA_7B = 6_738_415_616


def test_no_branch_on_names_same_specs_same_estimate() -> None:
    w = Workload(model="resnet50", task="train", precision="amp")
    a = CATALOGUE["nvidia-rtx-3090"]
    assert isinstance(a, Gpu)
    import dataclasses

    b = dataclasses.replace(a, id="someone-else", name="Something else")
    assert tp.single_gpu(a, w, tp.FACTORS) == tp.single_gpu(b, w, tp.FACTORS)


def test_throughput_grows_with_compute_and_bandwidth() -> None:
    w = Workload(model="resnet50", task="train", precision="amp")
    g = CATALOGUE["nvidia-rtx-4090"]
    h = CATALOGUE["nvidia-rtx-3090"]
    assert isinstance(g, Gpu) and isinstance(h, Gpu)
    assert tp.single_gpu(g, w, tp.FACTORS).samples_per_s > tp.single_gpu(h, w, tp.FACTORS).samples_per_s
    decode = Workload(model="gpt2", task="infer", batch_size=1)
    assert tp.single_gpu(g, decode, tp.FACTORS).decode_tokens_per_s > tp.single_gpu(
        h, decode, tp.FACTORS).decode_tokens_per_s


def test_scaling_is_below_linear_and_pcie_scales_worse_than_nvlink() -> None:
    f = tp.FACTORS
    g = CATALOGUE["nvidia-rtx-3090"]
    assert isinstance(g, Gpu)
    grad = 355e6 * 4
    nv = tp.scaling(2, 0.2, grad, tp.link_bytes_per_s(g, None, None, True), f)
    pcie3x8 = tp.scaling(2, 0.2, grad, tp.link_bytes_per_s(g, 3, 8, False), f)
    assert 1 < pcie3x8 < nv < 2
    resnet50_grad = 25.56e6 * 4
    four = tp.scaling(4, 0.2, resnet50_grad, tp.link_bytes_per_s(g, None, None, True), f)
    assert four == pytest.approx(3.5, rel=0.06)  # PCI-5: 4× RTX 3090 measured 3.5×


def test_vram_breakdown_by_hand() -> None:
    # LLaMA-7B inference in FP16: 6,738,415,616 parameters (counted from its config.json) × 2 B = 12.6 GiB.
    v = vram_per_gpu(Workload(model="llama-7b", task="infer", precision="fp16", batch_size=1), 1)
    assert v.weights / GIB == pytest.approx(LLAMA_7B * 2 / GIB)
    assert v.gradients == 0 and v.optimizer == 0 and v.kv_cache > 0
    # AdamW training in FP32: 4 + 4 + 8 = 16 bytes per parameter before activations.
    t = vram_per_gpu(Workload(model="gpt2", task="train", batch_size=1), 1)
    assert (t.weights + t.gradients + t.optimizer) == pytest.approx(GPT2 * 16)
    # ZeRO-3 over 4 GPUs divides all three.
    z = vram_per_gpu(Workload(model="gpt2", task="train", batch_size=1, sharding="zero3"), 4)
    assert (z.weights + z.gradients + z.optimizer) == pytest.approx(GPT2 * 16 / 4)
    ckpt = vram_per_gpu(Workload(model="gpt2", task="train", batch_size=8, grad_checkpointing=True), 1)
    full = vram_per_gpu(Workload(model="gpt2", task="train", batch_size=8), 1)
    assert ckpt.activations + ckpt.recompute < full.activations / 3
    assert v.low < v.total < v.high


def test_optimizers_and_offload() -> None:
    p = GPT2
    per = {o: vram_per_gpu(Workload(model="gpt2", task="train", batch_size=1, optimizer=o), 1).optimizer / p
           for o in ("adamw", "sgd", "sgd_nomomentum", "adamw8bit")}
    assert per["adamw"] == 8 and per["sgd"] == 4 and per["sgd_nomomentum"] == 0
    assert per["adamw8bit"] == pytest.approx(2, rel=0.01)
    off = Workload(model="gpt2-xl", task="train", precision="amp", batch_size=1, offload="optimizer")
    v = vram_per_gpu(off, 1)
    assert v.optimizer == 0 and v.offloaded == pytest.approx(GPT2_XL * 8)
    ram = host_ram(off, 1)
    assert ram.parts["offloaded_optimizer"] == pytest.approx(GPT2_XL * 8 / GIB, abs=0.01)


def test_lora_and_qlora_train_a_fraction() -> None:
    full = vram_per_gpu(Workload(model="llama-7b", task="train", precision="amp", batch_size=1, seq_len=512), 1)
    lora = vram_per_gpu(Workload(model="llama-7b", task="train", precision="amp", batch_size=1, seq_len=512,
                                 finetune="lora"), 1)
    qlora = vram_per_gpu(Workload(model="llama-7b", task="train", precision="amp", batch_size=1, seq_len=512,
                                  finetune="qlora"), 1)
    adapters = 32 * 4 * 2 * 16 * 4096  # layers × (q, k, v, o) × (A + B) × rank 16 × hidden
    assert lora.gradients == pytest.approx(adapters * 4)
    assert lora.weights == pytest.approx(LLAMA_7B * 2 + adapters * 4)
    assert qlora.weights < lora.weights / 3
    assert full.total / GIB > 100 and qlora.total / GIB < 12


def test_tensor_parallel_7b_inference_fits_four_12gb_cards() -> None:
    one = vram_per_gpu(Workload(model="llama-7b", task="infer", precision="bf16"), 1)
    four = vram_per_gpu(Workload(model="llama-7b", task="infer", precision="bf16", parallel="tensor"), 4)
    pipe = vram_per_gpu(Workload(model="llama-7b", task="infer", precision="bf16", parallel="pipeline"), 4)
    assert verdict(one, 12) == "does_not_fit"
    assert verdict(four, 12) == "fits" and verdict(pipe, 12) == "fits"


def test_display_gpu_costs_half_to_one_gib() -> None:
    w = Workload(model="resnet50", task="train", precision="amp")
    plain, shown = vram_per_gpu(w, 1), vram_per_gpu(w, 1, display_gpu=True)
    assert shown.total - plain.total == pytest.approx(0.75 * GIB)
    assert shown.high - plain.high == pytest.approx(1.0 * GIB)
    assert largest_batch(w, 1, 8, display_gpu=True) < largest_batch(w, 1, 8)


def test_issue_figures_gpt2_small_and_bert_large() -> None:
    gpt2 = vram_per_gpu(Workload(model="gpt2", task="train", precision="amp", batch_size=16, seq_len=1024), 1)
    assert gpt2.low / GIB < 20.5 < gpt2.high / GIB  # the issue: shown as 7.8 GiB, needs about 20
    assert gpt2.logits / GIB > 6  # bf16 logits held + two fp32 gradients of b × s × 50257
    eager = vram_per_gpu(Workload(model="bert-large", task="train", batch_size=4, seq_len=512,
                                  attention="eager"), 1)
    sdpa = vram_per_gpu(Workload(model="bert-large", task="train", batch_size=4, seq_len=512), 1)
    assert eager.total > sdpa.total + 3 * GIB  # 24 layers × b·a·s² × (softmax + dropout output + mask)


def test_verdict_is_three_way_and_fit_1_errs_only_below_the_low_end() -> None:
    v = vram_per_gpu(Workload(model="gpt2", task="train", precision="amp", batch_size=16, seq_len=1024), 1)
    assert verdict(v, v.high / GIB + 0.01) == "fits"
    assert verdict(v, (v.low + v.high) / 2 / GIB) == "tight"
    assert verdict(v, v.low / GIB - 0.01) == "does_not_fit"


def test_largest_batch_fits_and_one_more_does_not() -> None:
    w = Workload(model="resnet50", task="train", precision="amp")
    b = largest_batch(w, 1, 24)
    assert b > 0
    assert verdict(vram_per_gpu(w, 1, batch=b), 24) == "fits"
    assert verdict(vram_per_gpu(w, 1, batch=b + 1), 24) != "fits"


def test_ram_guide_formula_example() -> None:
    est = host_ram(Workload(model="gpt2-xl", task="train", batch_size=32), 1)
    assert est.guide_gib == pytest.approx(GPT2_XL * 32 * 4 * 1.2 / GIB, rel=0.001)  # ≈ 223 GiB (230 GB)
    assert est.first_principles_gib < est.guide_gib / 5


def test_memory_options_round_trip_and_bad_values_fail() -> None:
    from configurator.core.build import FORMAT, BuildError, build_to_dict, parse_build

    doc = {"format": FORMAT, "parts": [], "options": {"display_gpu": True},
           "workload": {"model": "llama-7b", "task": "train", "precision": "amp", "finetune": "qlora",
                        "lora_rank": 8, "offload": "optimizer", "attention": "eager", "grad_checkpointing": True}}
    build = parse_build(doc, {})
    assert build.options.display_gpu and build.workload is not None and build.workload.finetune == "qlora"
    assert build_to_dict(build) == doc
    infer = {"format": FORMAT, "parts": [], "workload": {"model": "llama-7b", "task": "infer", "parallel": "tensor"}}
    assert build_to_dict(parse_build(infer, {})) == infer
    bad = {"format": FORMAT, "parts": [], "options": {"display_gpu": "yes"},
           "workload": {"model": "resnet50", "task": "train", "finetune": "lora", "offload": "disk",
                        "parallel": "tensor", "lora_rank": 0, "attention": "flash"}}
    with pytest.raises(BuildError) as err:
        parse_build(bad, {})
    paths = {e.path for e in err.value.errors}
    assert paths == {"options.display_gpu", "workload.finetune", "workload.offload", "workload.parallel",
                     "workload.lora_rank", "workload.attention"}
