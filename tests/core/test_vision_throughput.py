"""The throughput model's detectors and diffusion pipelines against the published vision rows, leave-one-source-out
(configurator/core/estimate/vision_validation.py)."""

from __future__ import annotations

import math

import pytest

from configurator.core import measurements as ms
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import vision_validation as vv
from configurator.core.vision import VISION_CALIBRATION

FAMILY_KEY = {ms.DET_TRAIN: ("det", "train"), ms.DET_INFER: ("det", "infer"),
              ms.DIFFUSION_INFER: ("diffusion", "infer")}


@pytest.fixture(scope="module")
def loso() -> object:
    return vv.leave_one_source_out()


def test_vision_rows_shipped_from_several_origins() -> None:
    rows = vv.population(fitting.shipped())
    assert len(rows) >= 30
    assert len({m.origin for m in rows}) >= 3
    assert all(m.source_url and "/blob/" in m.source_url for m in rows)


def test_held_out_median_within_aim(loso: object) -> None:
    fams = loso.families  # type: ignore[attr-defined]
    for fam in FAMILY_KEY:
        r = fams[fam]
        assert r.rows >= 10 and r.origins >= 2, fam
        assert r.median <= 0.20, (fam, r.median)


def test_held_out_coverage_recorded(loso: object) -> None:
    # the aim is 80 %; reached by none of the families yet (the report names it): held here so it cannot fall further
    fams = loso.families  # type: ignore[attr-defined]
    assert fams[ms.DET_TRAIN].coverage >= 0.6
    assert fams[ms.DET_INFER].coverage >= 0.6
    assert fams[ms.DIFFUSION_INFER].coverage >= 0.45


def test_shipped_calibration_is_the_fit_to_all_rows() -> None:
    gpus = fitting.measured_gpus()
    stated = [m for m in vv.population(fitting.shipped()) if vv.reason(m, gpus) is None]
    fitted = vv.factors(stated, gpus, fitting.fit_for().theta)
    for fam, key in FAMILY_KEY.items():
        assert math.isclose(VISION_CALIBRATION[key], fitted[fam], rel_tol=0.01), (fam, fitted[fam])


def test_unstated_rows_give_a_reason(loso: object) -> None:
    reasons = {n.m.id: n.reason for n in loso.not_stated}  # type: ignore[attr-defined]
    assert reasons["d2zoo-fasterrcnn-resnet101-fpn-3x-train"] == "model fasterrcnn-resnet101-fpn"
    assert reasons["fal-sd15-unet-sdpa-compile"] == "runtime torch-compile"


def test_seconds_units_become_images_per_second() -> None:
    rows = {m.id: m for m in fitting.shipped()}
    assert rows["d2zoo-fasterrcnn-resnet50-fpn-1x-train"].images_per_second == pytest.approx(2 / 0.210)
    assert rows["d2zoo-fasterrcnn-resnet50-fpn-1x-infer"].per_gpu_value == pytest.approx(1 / 0.038)
    assert rows["lambda-sd-h100-pcie-fp16-b8"].images_per_second == pytest.approx(8 / 4.97)


def test_bad_vision_rows_refused() -> None:
    head = ",".join(ms.COLUMNS)
    good = ("x,o,sd15-unet,inference,diffusion-infer,fp16,1,,,,512,g,1,,,diffusers,,,steps-50,,1.5,s/image,,"
            "https://github.com/a/b/blob/0/R.md,t,2023-01,n")
    assert ms.parse_csv(f"{head}\n{good}\n")[0].images_per_second == pytest.approx(1 / 1.5)
    with pytest.raises(ms.MeasurementError, match="steps-N"):
        ms.parse_csv(f"{head}\n{good.replace('steps-50', '')}\n")
    with pytest.raises(ms.MeasurementError, match="task"):
        ms.parse_csv(f"{head}\n{good.replace('inference', 'train', 1)}\n")
    with pytest.raises(ms.MeasurementError, match="batch_size"):
        ms.parse_csv(f"{head}\n{good.replace(',1,,,,512', ',,,,,512').replace('s/image', 's/iter')}\n")
