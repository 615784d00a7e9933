"""Estimators: the figures a practitioner can check by hand."""

from __future__ import annotations

import pytest
from planner_kit import CATALOGUE

from configurator.core.build import Workload
from configurator.core.estimate import throughput as tp
from configurator.core.estimate.memory import GIB, host_ram, largest_batch, vram_per_gpu
from configurator.core.parts import Gpu


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
    # LLaMA-7B inference in FP16: 6.74e9 × 2 B = 12.6 GiB of weights.
    v = vram_per_gpu(Workload(model="llama-7b", task="infer", precision="fp16", batch_size=1), 1)
    assert v.weights / GIB == pytest.approx(6.74e9 * 2 / GIB)
    assert v.gradients == 0 and v.optimizer == 0 and v.kv_cache > 0
    # AdamW training in FP32: 4 + 4 + 8 = 16 bytes per parameter before activations.
    t = vram_per_gpu(Workload(model="gpt2", task="train", batch_size=1), 1)
    assert (t.weights + t.gradients + t.optimizer) == pytest.approx(124e6 * 16)
    # ZeRO-3 over 4 GPUs divides all three.
    z = vram_per_gpu(Workload(model="gpt2", task="train", batch_size=1, sharding="zero3"), 4)
    assert (z.weights + z.gradients + z.optimizer) == pytest.approx(124e6 * 16 / 4)
    ckpt = vram_per_gpu(Workload(model="gpt2", task="train", batch_size=8, grad_checkpointing=True), 1)
    full = vram_per_gpu(Workload(model="gpt2", task="train", batch_size=8), 1)
    assert ckpt.activations < full.activations / 5


def test_largest_batch_fits_and_one_more_does_not() -> None:
    w = Workload(model="resnet50", task="train", precision="amp")
    b = largest_batch(w, 1, 24)
    fits = vram_per_gpu(w, 1, batch=b).total
    over = vram_per_gpu(w, 1, batch=b + 1).total
    assert fits <= 24 * GIB * 0.95 < over


def test_ram_guide_formula_example() -> None:
    est = host_ram(Workload(model="gpt2-xl", task="train", batch_size=32), 1)
    assert est.guide_gib == pytest.approx(1558e6 * 32 * 4 * 1.2 / GIB, rel=0.001)  # ≈ 223 GiB (230 GB)
    assert est.first_principles_gib < est.guide_gib / 5
