"""Detection, instance segmentation and diffusion workloads (#36 item 4): the catalogue's records, compute from
their sources and layouts, and images/s and VRAM with ranges through the engine."""

from __future__ import annotations

import pytest
from planner_kit import CATALOGUE, Kit

from configurator.core.build import FORMAT, BuildError, Workload, parse_build
from configurator.core.model_specs import CFG_PASSES, KNOWN_MODELS
from configurator.core.vision import unet_lora_params, unet_macs, vae_macs

VISION = ("fasterrcnn-resnet50-fpn", "maskrcnn-resnet50-fpn", "retinanet-resnet50-fpn", "yolov8n", "yolov8s",
          "yolov8m", "sd15-unet", "sdxl-unet")


def test_records_carry_their_sources_sizes_and_compute() -> None:
    for rid in VISION:
        spec = KNOWN_MODELS[rid]
        assert spec.compute_known, rid
        assert spec.forward_flops_per_sample(1) > 0, rid
    frcnn = KNOWN_MODELS["fasterrcnn-resnet50-fpn"]
    assert (frcnn.image_size, frcnn.image_width, frcnn.classes) == (800, 1333, 91)
    # torchvision's 134.38 G multiply-accumulates are at 800 × 800: at 800 × 1333 the pixels scale them
    assert frcnn.forward_flops_per_sample(1) == pytest.approx(2 * 134.38e9 * 1333 / 800)
    assert KNOWN_MODELS["yolov8m"].forward_flops_per_sample(1) == pytest.approx(78.9e9)  # ultralytics' FLOPs at 640


def test_unet_compute_from_the_layout_matches_the_counted_figures() -> None:
    """The formula against torch.utils.flop_counter on diffusers' models built from the same configs (counted
    once on the meta device, figures in db/models/diffusion.toml)."""
    sd15 = KNOWN_MODELS["sd15-unet"].unet
    sdxl = KNOWN_MODELS["sdxl-unet"].unet
    assert sd15 is not None and sdxl is not None
    assert unet_macs(sd15, 512, 512) == pytest.approx(401.637e9, rel=1e-3)
    assert unet_macs(sdxl, 1024, 1024) == pytest.approx(3380.618e9, rel=1e-3)
    assert vae_macs(sd15, 512, 512, decoder=True) == pytest.approx(1257.259e9, rel=1e-3)
    assert vae_macs(sd15, 512, 512, decoder=False) == pytest.approx(558.329e9, rel=1e-3)
    # the UNet's cost is the latent's (image / 8): four times the pixels, four times the convolutions and more
    assert unet_macs(sd15, 1024, 1024) > 4 * unet_macs(sd15, 512, 512)


def test_diffusion_inference_counts_every_step_twice_and_the_vae_once() -> None:
    w = Workload("sd15-unet", "infer", precision="fp16", steps=20)
    spec = w.spec()
    sd = spec.unet
    assert sd is not None and spec.steps == 20
    expected = 2 * (20 * CFG_PASSES * unet_macs(sd, 512, 512) + vae_macs(sd, 512, 512, decoder=True)
                    + 123e6 * 77)
    assert spec.forward_flops_per_sample(1) == pytest.approx(expected)
    assert Workload("sd15-unet", "infer").spec().steps == 50  # diffusers' pipelines' num_inference_steps
    assert Workload("sd15-unet", "train").spec().steps == 0


def _estimates(w: Workload, gpu: str = "nvidia-rtx-4090") -> dict[str, object]:
    kit = Kit(dict(CATALOGUE))
    report = kit.check(*kit.standard(gpu=gpu), workload=w)
    return {e.key: e for e in report.estimates}


@pytest.mark.parametrize("w", [
    Workload("fasterrcnn-resnet50-fpn", "train", precision="amp"),
    Workload("maskrcnn-resnet50-fpn", "train", precision="amp"),
    Workload("retinanet-resnet50-fpn", "infer", precision="fp16", batch_size=1),
    Workload("yolov8s", "train", precision="amp"),
    Workload("sd15-unet", "infer", precision="fp16", batch_size=1),
    Workload("sdxl-unet", "train", precision="bf16", finetune="lora", batch_size=1),
], ids=lambda w: f"{w.model}-{w.task}")
def test_detection_segmentation_and_diffusion_give_images_per_second_and_vram_with_ranges(w: Workload) -> None:
    es = _estimates(w)
    assert "throughput_not_estimated" not in es
    t = es["throughput_one_gpu"]
    v = es["vram_per_gpu_gib"]
    assert t.unit == "img/s" and t.low < t.value < t.high  # type: ignore[attr-defined]
    assert v.low < v.value < v.high  # type: ignore[attr-defined]


def test_lora_on_a_unet_needs_far_less_than_dreambooth() -> None:
    """DreamBooth trains the whole UNet (AdamW: weights, gradients, two states); LoRA freezes it in 16 bits and
    trains rank-r adapters on the attention projections."""
    full = _estimates(Workload("sdxl-unet", "train", precision="amp", batch_size=1), "nvidia-h100-pcie")
    lora = _estimates(Workload("sdxl-unet", "train", precision="bf16", finetune="lora", lora_rank=4, batch_size=1),
                      "nvidia-h100-pcie")
    assert lora["vram_per_gpu_gib"].value < full["vram_per_gpu_gib"].value / 2  # type: ignore[attr-defined]
    sdxl = KNOWN_MODELS["sdxl-unet"].unet
    assert sdxl is not None
    assert 1e6 < unet_lora_params(sdxl, 4) < 0.01 * KNOWN_MODELS["sdxl-unet"].params


def test_a_larger_image_costs_more_and_keeps_a_detectors_aspect_ratio() -> None:
    small = Workload("fasterrcnn-resnet50-fpn", "train", image_size=600).spec()
    assert (small.image_size, small.image_width) == (600, 1000)
    big = Workload("fasterrcnn-resnet50-fpn", "train").spec()
    assert big.activation_elements_per_sample(1, False) > 1.5 * small.activation_elements_per_sample(1, False)


def _parse(workload: dict[str, object]) -> None:
    parse_build({"format": FORMAT, "parts": [], "workload": workload}, CATALOGUE)


@pytest.mark.parametrize(("workload", "field"), [
    ({"model": "sd15-unet", "task": "infer", "steps": 0}, "workload.steps"),
    ({"model": "sd15-unet", "task": "train", "steps": 20}, "workload.steps"),
    ({"model": "fasterrcnn-resnet50-fpn", "task": "infer", "steps": 20}, "workload.steps"),
    ({"model": "sd15-unet", "task": "train", "finetune": "qlora"}, "workload.finetune"),
])
def test_bad_steps_name_the_field(workload: dict[str, object], field: str) -> None:
    with pytest.raises(BuildError) as info:
        _parse(workload)
    assert [e.path for e in info.value.errors] == [field]
