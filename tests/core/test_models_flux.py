"""FLUX.1 [dev] / [schnell] in the catalogue (#36 item 4): the layout read from Black Forest Labs' configs, compute
and parameters from it against diffusers' own model (counted on the meta device, figures in db/models/diffusion.toml),
one transformer pass per step, LoRA on train_dreambooth_lora_flux.py's projections, and the engine's images/s and
VRAM with ranges."""

from __future__ import annotations

import pytest
from planner_kit import CATALOGUE, Kit

from configurator.core.build import Workload
from configurator.core.estimate.memory import vram_per_gpu
from configurator.core.model_specs import KNOWN_MODELS, FluxLayout
from configurator.core.units import GIB
from configurator.core.vision import flux_lora_projections, flux_macs, flux_params, unet_lora_params, vae_macs


def _layout(rid: str) -> FluxLayout:
    layout = KNOWN_MODELS[rid].unet
    assert isinstance(layout, FluxLayout)
    return layout


def test_the_layout_is_black_forest_labs_config() -> None:
    dev, schnell = _layout("flux1-dev"), _layout("flux1-schnell")
    assert (dev.double, dev.single, dev.hidden, dev.context_dim, dev.in_channels) == (19, 38, 3072, 4096, 64)
    assert dev.guidance and not schnell.guidance
    assert (dev.context_tokens, schnell.context_tokens) == (512, 256)  # BFL's load_t5(max_length=...)
    assert dev.latent_channels == 16 and dev.passes == 1  # guidance-distilled: no classifier-free guidance pass


def test_compute_and_parameters_match_diffusers_counted_on_the_meta_device() -> None:
    dev = _layout("flux1-dev")
    assert flux_macs(dev, 1024, 1024) == pytest.approx(37192.33e9, rel=1e-5)  # torch.utils.flop_counter
    assert vae_macs(dev, 1024, 1024, decoder=True) == pytest.approx(5236.10e9, rel=1e-5)
    assert flux_params(dev) == pytest.approx(KNOWN_MODELS["flux1-dev"].params, rel=0.002)  # biases, norms left out
    # four times the pixels: four times the projections, the joint attention's T² sixteen times (5.6x in all)
    assert 5 < flux_macs(dev, 2048, 2048) / flux_macs(dev, 1024, 1024) < 6


def test_inference_runs_one_pass_per_step_and_the_vae_once() -> None:
    spec = Workload("flux1-schnell", "infer", precision="bf16", steps=4).spec()
    lay = _layout("flux1-schnell")
    expected = 2 * (4 * flux_macs(lay, 1024, 1024) + vae_macs(lay, 1024, 1024, decoder=True)
                    + spec.text_gmacs * 1e9)
    assert spec.forward_flops_per_sample(1) == pytest.approx(expected)


def test_lora_adapts_the_default_projections_and_needs_far_less_than_a_full_fine_tune() -> None:
    dev = _layout("flux1-dev")
    d = dev.hidden
    # per double block 8 d × d attention projections and two 4x MLPs per stream; per single block Q, K, V
    assert len(flux_lora_projections(dev)) == 19 * 12 + 38 * 3
    assert unet_lora_params(dev, 16) == pytest.approx(16 * (19 * (8 * 2 * d + 4 * 5 * d) + 38 * 3 * 2 * d))
    lora = vram_per_gpu(Workload("flux1-dev", "train", precision="bf16", finetune="lora", batch_size=1), 1)
    full = vram_per_gpu(Workload("flux1-dev", "train", precision="bf16", batch_size=1), 1)
    assert lora.optimizer < 0.01 * full.optimizer
    assert full.total - lora.total > 100 * GIB  # AdamW's states and the gradients of 11.9 B parameters
    assert lora.low < lora.total < lora.high


@pytest.mark.parametrize("w", [
    Workload("flux1-dev", "infer", precision="bf16", batch_size=1, steps=28),
    Workload("flux1-schnell", "infer", precision="bf16", batch_size=1, steps=4),
    Workload("flux1-dev", "train", precision="bf16", finetune="lora", batch_size=1),
], ids=lambda w: f"{w.model}-{w.task}")
def test_flux_gives_images_per_second_and_vram_with_ranges(w: Workload) -> None:
    kit = Kit(dict(CATALOGUE))
    report = kit.check(*kit.standard(gpu="nvidia-a100-80gb-pcie"), workload=w)
    es = {e.key: e for e in report.estimates}
    assert "throughput_not_estimated" not in es
    t, v = es["throughput_one_gpu"], es["vram_per_gpu_gib"]
    # a figure below 1 img/s keeps three significant digits (FLUX.1 [dev]'s 28 steps on an A100: ≈ 0.07 img/s)
    assert t.unit == "img/s" and 0 < t.low < t.value < t.high  # type: ignore[attr-defined,operator]
    # the range rests on the published diffusion rows, each source held out in turn (not "no measurements")
    family = "diffusion-train" if w.task == "train" else "diffusion-infer"
    assert t.basis is not None and t.basis["family"] == family and t.basis["origins"] >= 2  # type: ignore[attr-defined]
    assert "published measurements of this family" in t.how.render()  # type: ignore[attr-defined]
    # PWR-4 says it per kilowatt, not "4.5e-05 img/s per watt", and its number keeps its digits
    pwr = next(f for f in report.findings if f.rule == "PWR-4")
    text = pwr.message.render()
    assert "per kilowatt" in text and "e-0" not in text and pwr.numbers["per_watt"] > 0
    assert v.low < v.value < v.high  # type: ignore[attr-defined]
    if w.task == "infer":  # 16-bit weights of the transformer, T5-XXL, CLIP-L and the VAE: about 31 GiB
        assert 30 < v.value < 40  # type: ignore[attr-defined]


def test_a_diffusion_workload_without_steps_runs_its_pipelines_default() -> None:
    # FluxPipeline's num_inference_steps 28, the schnell sampler's 4, the Stable Diffusion pipelines' 50
    assert [Workload(m, "infer", precision="bf16").spec().steps
            for m in ("flux1-dev", "flux1-schnell", "sd15-unet", "sdxl-unet")] == [28, 4, 50, 50]
    assert Workload("flux1-schnell", "infer", precision="bf16", steps=8).spec().steps == 8
    assert Workload("flux1-dev", "train", precision="bf16").spec().steps == 0  # training samples no steps
