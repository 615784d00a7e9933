"""The memory options of a training recipe (#28): each moves the VRAM and host-RAM estimate in the right
direction by the amount its layout says. Headless (no torch): tests/core/test_memory_vs_pytorch.py holds the
same terms against PyTorch's own counts."""

from __future__ import annotations

import dataclasses

import pytest
from planner_kit import Kit

from configurator.core.build import Workload
from configurator.core.estimate.memory import (
    CE_CHUNKS,
    OPTIMIZER_BYTES,
    expert_params,
    host_ram,
    largest_param,
    lora_params,
    transformer_params,
    transformer_saved,
    verdict,
    vram_per_gpu,
)
from configurator.core.model_specs import KNOWN_MODELS, ModelSpec
from configurator.core.units import GIB

P7 = KNOWN_MODELS["llama-7b"].params  # 6.738e9, computed from its config


def _w(**kw: object) -> Workload:
    base: dict[str, object] = {"model": "llama-7b", "task": "train", "precision": "bf16", "batch_size": 1,
                               "seq_len": 2048}
    return Workload(**{**base, **kw})  # type: ignore[arg-type]


def test_optimizer_state_precision() -> None:
    """adamw in a bf16 run: fp32 states + fp32 master (12 B); adamw-bf16: two bf16 states, no master (4 B);
    8-bit: two bytes and the block constants, no master."""
    per = {o: vram_per_gpu(_w(optimizer=o), 1).optimizer / P7 for o in OPTIMIZER_BYTES}
    assert per["adamw"] == pytest.approx(12.0)
    assert per["adamw-bf16"] == pytest.approx(4.0)
    assert per["adamw8bit"] == pytest.approx(2.0 + 8 / 2048)
    assert per["paged-adamw8bit"] == per["adamw8bit"]
    assert per["sgd"] == pytest.approx(8.0)  # momentum + master
    # an AMP run keeps fp32 weights: no master copy to add, states as the optimizer makes them
    amp = vram_per_gpu(_w(precision="amp", optimizer="adamw-bf16"), 1)
    assert amp.optimizer / P7 == pytest.approx(4.0)


def test_paged_states_can_page_out() -> None:
    w = _w(optimizer="paged-adamw8bit")
    paged, plain = vram_per_gpu(w, 1), vram_per_gpu(_w(optimizer="adamw8bit"), 1)
    assert paged.pageable == pytest.approx(paged.optimizer) and plain.pageable == 0
    assert paged.total == pytest.approx(plain.total) and paged.high == pytest.approx(plain.high)
    # the low end: paged out (before the published residuals widen both ranges)
    assert paged.low_unwidened == pytest.approx(plain.low_unwidened - paged.optimizer)
    assert paged.low < plain.low
    ram = host_ram(w, 2)
    assert ram.parts["paged_optimizer"] == pytest.approx(2 * paged.optimizer / GIB, abs=0.01)
    assert "paged_optimizer" not in host_ram(_w(optimizer="adamw8bit"), 2).parts


def test_optimizer_in_backward_keeps_one_gradient() -> None:
    full = vram_per_gpu(_w(optimizer="adamw-bf16"), 1)
    fused = vram_per_gpu(_w(optimizer="adamw-bf16", optimizer_in_backward=True), 1)
    spec = KNOWN_MODELS["llama-7b"]
    assert full.gradients == pytest.approx(P7 * 2)
    assert fused.gradients == pytest.approx(largest_param(spec) * 2) == pytest.approx(32000 * 4096 * 2)
    assert fused.optimizer == full.optimizer and fused.activations == full.activations
    # LoRA: the largest adapter matrix
    lora = vram_per_gpu(_w(finetune="lora", optimizer_in_backward=True), 1)
    assert lora.gradients == pytest.approx(4096 * 16 * 4.0)
    # sharded gradients stay sharded
    z2 = vram_per_gpu(_w(optimizer_in_backward=True, sharding="zero2"), 4)
    assert z2.gradients == pytest.approx(fused.gradients / 4)


def test_chunked_cross_entropy_drops_the_vocabulary_wide_tensors() -> None:
    plain = vram_per_gpu(_w(batch_size=4), 1)
    chunked = vram_per_gpu(_w(batch_size=4, chunked_ce=True), 1)
    t, v = 4 * 2048, 32000
    assert plain.activations - chunked.activations == pytest.approx(4.0 * v * t)  # no log-softmax saved
    assert chunked.logits == pytest.approx(plain.logits / CE_CHUNKS + 4.0 * v * t / CE_CHUNKS)
    assert chunked.total < plain.total
    # an encoder has no LM loss to chunk: the option changes nothing
    bert = Workload(model="bert-base", task="train", batch_size=8)
    assert vram_per_gpu(dataclasses.replace(bert, chunked_ce=True), 1).total == vram_per_gpu(bert, 1).total


def test_the_recipes_that_fit_a_bf16_full_fine_tune() -> None:
    """adamw-bf16 + optimizer in backward + chunked CE: the torchtune single-device recipe shape. It needs
    about 0.4× what a bf16 AdamW run with fp32 states and master weights needs."""
    default = vram_per_gpu(_w(), 1)
    lean = vram_per_gpu(_w(optimizer="adamw-bf16", optimizer_in_backward=True, chunked_ce=True), 1)
    assert lean.total < 0.45 * default.total
    assert default.total / GIB > 100
    assert lean.gradients < default.gradients / 50 and lean.optimizer == default.optimizer / 3
    # with checkpointing it fits an 80 GB card with room to spare even at the high end
    lean_ckpt = vram_per_gpu(_w(optimizer="adamw-bf16", optimizer_in_backward=True, chunked_ce=True,
                                grad_checkpointing=True), 1)
    assert verdict(lean_ckpt, 80) == "fits" and verdict(default, 80) == "does_not_fit"


def test_activation_offload_moves_the_saved_tensors_to_host_ram() -> None:
    plain = vram_per_gpu(_w(batch_size=4), 1)
    off = vram_per_gpu(_w(batch_size=4, offload="activations"), 1)
    loss = 4.0 * 32000 * 4 * 2048
    assert off.host_activations == pytest.approx(plain.activations - loss)
    assert off.activations < plain.activations / 10  # one layer's (of 32) and the loss's log-softmax
    both = vram_per_gpu(_w(batch_size=4, offload="all"), 1)
    assert both.optimizer == 0 and both.offloaded > 0 and both.host_activations == off.host_activations
    ram_plain, ram_off = host_ram(_w(batch_size=4), 2), host_ram(_w(batch_size=4, offload="activations"), 2)
    assert ram_off.parts["offloaded_activations"] == pytest.approx(2 * off.host_activations / GIB, abs=0.01)
    assert ram_off.first_principles_gib > ram_plain.first_principles_gib


def test_lora_frozen_base_saves_less_and_trains_only_adapters() -> None:
    spec = KNOWN_MODELS["llama-7b"]
    full = transformer_saved(spec, 1, 2048, "bf16")
    # adapters in the base's dtype (torchtune): the frozen norms keep input and rstd only, the frozen
    # projections save no input, the MLP's down projection's input goes
    same = transformer_saved(spec, 1, 2048, "bf16", frozen=True, adapter_bytes=2.0, lora_rank=16)
    assert 0.6 * full.activations < same.activations < 0.9 * full.activations
    # peft's fp32 adapters on a bf16 base cast x once per adapter (4 × 4 B × h a token and layer): about what
    # full fine-tuning saves (measured on a tiny LLaMA: -1 %)
    peft = transformer_saved(spec, 1, 2048, "bf16", frozen=True, adapter_bytes=4.0, lora_rank=16)
    assert peft.activations == pytest.approx(full.activations, rel=0.1)
    gqa = dataclasses.replace(spec, kv_heads=8)
    assert lora_params(gqa, 16) < lora_params(spec, 16) == pytest.approx(32 * 16 * 4 * 2 * 4096)
    w = _w(finetune="lora")
    v = vram_per_gpu(w, 1)
    assert v.gradients == pytest.approx(lora_params(spec, 16) * 4)
    assert v.optimizer == pytest.approx(lora_params(spec, 16) * 8)
    q = vram_per_gpu(_w(finetune="qlora"), 1)
    assert q.weights < v.weights / 3


def test_gqa_kv_cache_uses_the_kv_heads() -> None:
    w = Workload(model="llama-7b", task="infer", precision="bf16", batch_size=1, seq_len=4096)
    mha = vram_per_gpu(w, 1)
    gqa_w = Workload(model="llama-7b", task="infer", precision="bf16", batch_size=2, seq_len=4096)
    object.__setattr__(gqa_w, "_spec", dataclasses.replace(KNOWN_MODELS["llama-7b"], kv_heads=8))
    gqa = vram_per_gpu(gqa_w, 1)
    assert mha.kv_cache == pytest.approx(2 * 32 * 4096 * 4096 * 2)
    assert gqa.kv_cache == pytest.approx(2 * mha.kv_cache / 4)  # twice the batch, a quarter of the heads


@dataclasses.dataclass(frozen=True)
class _MoeSpec(ModelSpec):
    """ModelSpec with the expert fields the model catalogue adds (branch models)."""

    experts: int = 0
    experts_per_token: int = 0


def _mixtral() -> _MoeSpec:
    # Mixtral-8x7B's config.json (hidden 4096, 32 layers, 32 heads, 8 KV heads, MLP 14336, vocab 32000,
    # 8 experts, 2 per token): https://huggingface.co/mistralai/Mixtral-8x7B-v0.1/blob/main/config.json
    base = KNOWN_MODELS["llama-7b"]
    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
    fields.update(name="mixtral-8x7b", params=0.0, kv_heads=8, intermediate=14336, experts=8, experts_per_token=2)
    spec = _MoeSpec(**fields)
    linear, other = transformer_params(spec)
    return dataclasses.replace(spec, params=linear + other)


def test_moe_all_experts_resident_activations_of_the_routed_ones() -> None:
    moe = _mixtral()
    assert moe.params / 1e9 == pytest.approx(46.7, rel=0.01)  # Mixtral's published 46.7B
    dense = dataclasses.replace(moe, experts=0, experts_per_token=0)
    assert expert_params(moe) == pytest.approx(32 * 8 * 3 * 4096 * 14336)
    assert expert_params(dense) == 0
    one, two = transformer_saved(dense, 1, 1024, "bf16"), transformer_saved(moe, 1, 1024, "bf16")
    mlp = 4 * 2.0 * 14336 * 1024 * 32  # SwiGLU saves 4 e·i per token and layer
    assert two.activations - one.activations == pytest.approx(mlp + 32 * 1024 * (8 * 4 + 2 * 12 + 2 * 2 * 4096))
    # inference, expert parallel over 4 GPUs: the experts spread, attention and embeddings on every GPU
    w = Workload(model="llama-7b", task="infer", precision="bf16", parallel="expert")
    object.__setattr__(w, "_spec", moe)
    v = vram_per_gpu(w, 4)
    assert v.weights == pytest.approx(((moe.params - expert_params(moe)) + expert_params(moe) / 4) * 2)


def test_host_ram_loads_in_the_run_dtype_once_per_process() -> None:
    """bf16: a bf16 host copy per DDP process; AMP: fp32; FSDP / ZeRO-3: rank 0 loads one copy; llama.cpp
    memory-maps one copy; transformers' generate loads one per process."""
    def weights(**kw: object) -> float:
        n = int(kw.pop("n", 2))  # type: ignore[call-overload]
        return host_ram(_w(**kw), n).parts["weights"] * GIB / P7

    assert weights() == pytest.approx(2 * 2, rel=0.01)
    assert weights(precision="amp") == pytest.approx(2 * 4, rel=0.01)
    assert weights(sharding="fsdp") == pytest.approx(2, rel=0.01)
    assert weights(sharding="zero2") == pytest.approx(4, rel=0.01)
    assert weights(finetune="qlora") == pytest.approx(4, rel=0.01)  # the bf16 checkpoint, quantised on the GPU
    infer = Workload(model="llama-7b", task="infer", precision="int4")
    assert host_ram(infer, 2).parts["weights"] * GIB / P7 == pytest.approx(0.5, rel=0.01)
    hf = Workload(model="llama-7b", task="infer", precision="bf16", runtime="transformers")
    assert host_ram(hf, 2).parts["weights"] * GIB / P7 == pytest.approx(4, rel=0.01)


def test_check_json_has_the_vram_range_at_the_top_level(kit: Kit) -> None:
    w = _w(model="gpt2", batch_size=4, seq_len=1024, optimizer="paged-adamw8bit", optimizer_in_backward=True,
           chunked_ce=True)
    report = kit.check(*kit.standard(), workload=w)
    est = report.estimate("vram_per_gpu_gib")
    assert est is not None and est.low is not None and est.high is not None
    assert est.low < est.value < est.high
    doc = est.to_json()
    assert doc["low"] == est.low and doc["high"] == est.high
    assert doc["inputs"]["low"] == pytest.approx(est.low, abs=0.01)
    how = doc["how"]
    assert "Optimizer in backward" in how and "Chunked cross-entropy" in how and "Paged optimizer" in how
    v = vram_per_gpu(w, 1)
    assert verdict(v, 24) == "fits"


def test_vram_ranges_hold_against_published_peak_memory() -> None:
    """The published fine-tuning peaks (torchtune's README tables): PUBLISHED_RATIO is their 10th–90th
    percentile of measured / estimate (rounded outwards), at least 80 % of them fall inside [low, high], and
    held out one at a time at least 80 % still do."""
    from benchmarks.memory_published import compare, fitted_ratio
    from configurator.core.estimate.memory import PUBLISHED_RATIO

    rows = compare()
    assert len(rows) >= 10
    lo, hi, held_out = fitted_ratio(compare(widen=False))
    assert PUBLISHED_RATIO[0] == pytest.approx(lo, abs=0.01) and PUBLISHED_RATIO[0] <= lo
    assert PUBLISHED_RATIO[1] == pytest.approx(hi, abs=0.01) and PUBLISHED_RATIO[1] >= hi
    assert sum(r.inside for r in rows) / len(rows) >= 0.8
    assert held_out >= 0.8
    # the paged optimizer's low end: the same 8B recipe peaks at 18.9 GiB on a 24 GB card (states paged out)
    # and 37.4 GiB on a 48 GB one
    paged = {r.id: r for r in rows}["torchtune-llama-3.1-8b-full-rtx-4090"]
    assert paged.inside and paged.low_gib < 0.6 * paged.estimate_gib
