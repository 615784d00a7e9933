"""DETR (#36): its saved tensors, weights, gradients and AdamW states against transformers' own model on the CPU
(benchmarks/memory_counts.measure_detr), its layout's MACs against torch.utils.flop_counter, and the frozen
ResNet-50 layout of the torchvision detectors against PyTorch (memory.detection_saved)."""

from __future__ import annotations

import pytest

from configurator.core.estimate.memory import detection_saved, frozen_backbone_params
from configurator.core.model_specs import KNOWN_MODELS


def test_frozen_backbone_params_are_the_stem_and_layer1() -> None:
    import dataclasses

    spec = KNOWN_MODELS["detr-resnet-50"]
    # conv1 7 × 7 × 3 × 64 and layer1's convolutions (212,992), FrozenBatchNorm2d's buffers not parameters
    assert frozen_backbone_params(spec) == 9408 + 212992
    trained_bn = dataclasses.replace(spec, frozen_bn=False)
    assert frozen_backbone_params(trained_bn) == 9408 + 212992 + 128 + 2816  # + BatchNorm weight and bias
    assert frozen_backbone_params(dataclasses.replace(spec, trainable_stages=5)) == 0.0


def test_frozen_layout_saves_less_than_the_trained_one() -> None:
    import dataclasses

    spec = dataclasses.replace(KNOWN_MODELS["fasterrcnn-resnet50-fpn"], trainable_stages=3, frozen_bn=True)
    frozen = detection_saved(spec, 2, "fp32").activations
    trained = detection_saved(KNOWN_MODELS["fasterrcnn-resnet50-fpn"], 2, "fp32").activations
    assert 0.3 < frozen / trained < 0.45  # 0.38 at 800 × 1,333 (the RoI heads weigh more at 160 px: 0.61)


@pytest.mark.full_env
def test_detr_memory_against_transformers() -> None:
    from benchmarks.memory_counts import measure_detr

    for row in measure_detr(1, 160, 224, 91).rows:
        assert row.estimated == pytest.approx(row.measured, rel=0.15), row


@pytest.mark.full_env
def test_detr_macs_against_flop_counter() -> None:
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    from benchmarks.memory_counts import detr_model
    from configurator.core.vision import detr_macs

    model = detr_model(91).eval()
    x = torch.rand(1, 3, 160, 224)
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        model(pixel_values=x, pixel_mask=torch.ones(1, 160, 224, dtype=torch.long))
    # the backbone is scaled from torchvision's 224 × 224 count, not laid out per convolution: within 5 %
    assert detr_macs(160, 224, 91) == pytest.approx(counter.get_total_flops() / 2, rel=0.05)


@pytest.mark.full_env
def test_torchvision_frozen_layout_against_pytorch() -> None:
    from benchmarks.memory_counts import measure_detection

    for row in measure_detection("fasterrcnn", 1, 160, 256, 21, 3, True).rows:
        assert row.estimated == pytest.approx(row.measured, rel=0.05), row
