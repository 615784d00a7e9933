"""The throughput model's detectors and diffusion pipelines against the published vision rows, leave-one-source-out
(configurator/core/estimate/vision_validation.py)."""

from __future__ import annotations

import dataclasses
import math

import pytest

from configurator.core import measurements as ms
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import validation as val
from configurator.core.estimate import vision_validation as vv
from configurator.core.vision import VISION_CALIBRATION

FAMILY_KEY = {ms.DET_TRAIN: ("det", "train"), ms.DET_INFER: ("det", "infer"),
              ms.DIFFUSION_INFER: ("diffusion", "infer")}
GROUP_KEY = {**FAMILY_KEY, f"{ms.DIFFUSION_INFER}:flux": ("flux", "infer"), ms.DIFFUSION_TRAIN: ("diffusion", "train")}


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


def test_held_out_coverage_reaches_aim(loso: object) -> None:
    # every vision family's range holds >= 80 % of its held-out rows (each judged against a range from the other
    # origins' residuals), and the range is no wider than the extremes of the residuals it rests on
    fams = loso.families  # type: ignore[attr-defined]
    widths = loso.widths  # type: ignore[attr-defined]
    for fam in FAMILY_KEY:
        assert fams[fam].coverage >= 0.8, (fam, fams[fam].coverage)
        w = widths[fam]
        assert w.coverage == pytest.approx(fams[fam].coverage), fam
        assert 0.5 < w.low_ratio <= 1.0 <= w.high_ratio < 2.5, (fam, w)
    # the detectors' two origins are too few for their own residuals: the pooled ones, at the 10th-90th percentile
    assert widths[ms.DET_TRAIN].basis == val.POOLED and widths[ms.DET_TRAIN].tail == 0.1
    assert widths[ms.DIFFUSION_INFER].basis == val.POOLED


def test_family_range_needs_three_origins() -> None:
    # a family of two origins whose own residuals would hold every row still takes the pooled range
    def row(i: str, origin: str) -> ms.Measurement:
        line = (f"{i},{origin},sd15-unet,inference,diffusion-infer,fp16,1,,,,512,g,1,,,diffusers,,,steps-50,,1.5,"
                "s/image,,https://github.com/a/b/blob/0/R.md,t,2023-01,n")
        return ms.parse_csv(f"{','.join(ms.COLUMNS)}\n{line}\n")[0]

    held = [val.Held(row("a", "o1"), 1.0, 1.0), val.Held(row("b", "o2"), 1.0, 1.0)]
    others = [val.Held(row(f"x{k}", f"p{k}"), 1.0, r) for k, r in enumerate((0.7, 0.9, 1.0, 1.1, 1.4))]
    widths, _bands = vv.ranges(held, others)
    assert widths[ms.DIFFUSION_INFER].basis == val.POOLED
    third = [*held, val.Held(row("c", "o3"), 1.0, 1.0)]
    widths, _bands = vv.ranges(third, others)
    assert widths[ms.DIFFUSION_INFER].basis == val.LOSO


def test_shipped_calibration_is_the_fit_to_all_rows() -> None:
    gpus = fitting.measured_gpus()
    stated = [m for m in vv.population(fitting.shipped()) if vv.reason(m, gpus) is None]
    fitted = vv.factors(stated, gpus, fitting.fit_for().theta)
    for fam, key in GROUP_KEY.items():
        assert math.isclose(VISION_CALIBRATION[key], fitted[fam], rel_tol=0.01), (fam, fitted[fam])


def test_unstated_rows_give_a_reason(loso: object) -> None:
    reasons = {n.m.id: n.reason for n in loso.not_stated}  # type: ignore[attr-defined]
    assert reasons["d2zoo-fasterrcnn-resnet101-fpn-3x-train"] == "model fasterrcnn-resnet101-fpn"
    assert reasons["fal-sd15-unet-sdpa-compile"] == "runtime torch-compile"
    # the A6000's batch-8/16 rows of lambda-diffusers slow per image as the batch grows (the note gives the figures)
    assert reasons["lambda-sd-rtx-a6000-fp16-b16"].startswith("slows-with-batch")
    assert "lambda-sd-rtx-a6000-fp16-b4" not in reasons


def test_flagged_rows_really_slow_per_image() -> None:
    # the flag is the data's, not the model's: flagged rows take longer per image than the same GPU and precision at
    # batch 4, where every unflagged lambda-diffusers GPU gets faster per image from batch 4 on
    rows = [m for m in fitting.shipped() if m.origin == "lambda-diffusers"]
    per_image = {(m.gpu, m.precision, m.batch_size): 1 / m.images_per_second for m in rows}
    for m in rows:
        if (m.batch_size or 1) > 4:
            slower = 1 / m.images_per_second > per_image[(m.gpu, m.precision, 4)]
            assert slower == ("slows-with-batch" in m.flags), m.id


def test_published_memory_compared_like_for_like() -> None:
    checks = vv.memory_checks()
    kinds = {c.m.origin: c.quantity for c in checks}
    assert kinds == {"detectron2-zoo": "allocated", "mmdet-vs-detectron2": "allocated", "lambda-diffusers": "reserved",
                     "diffusers-torchao": "allocated"}
    # FLUX.1-dev's whole pipeline on an H100 (max_memory_allocated, batch 1-16): the estimate within 4 % of each peak
    # (batch 16: 63.4 against 61.5),
    # 3 of 4 inside the range (batch 1: 33.85 GiB published against 33.2-33.6)
    flux = [c for c in checks if c.m.origin == "diffusers-torchao"]
    assert len(flux) == 4 and sum(c.inside for c in flux) >= 3
    assert all(abs(c.estimate / (c.m.peak_memory_gb or 1) - 1) < 0.04 for c in flux)
    # diffusers 0.11 under PyTorch 1.13 without xformers writes its attention scores out
    assert {c.attention for c in checks if c.m.origin == "lambda-diffusers"} == {"eager"}
    # reached: 22 of 40 (1 of 44 before the comparison was like for like)
    assert len(checks) >= 40
    assert sum(c.inside for c in checks) >= 22
    lam = [c for c in checks if c.m.origin == "lambda-diffusers"]
    assert sum(c.inside for c in lam) >= 17


def test_memory_quantities_ordered() -> None:
    # allocated < reserved < device for the same workload; materialised attention costs memory
    from configurator.core.build import Workload
    from configurator.core.estimate import memory as mem

    w = Workload(model="sd15-unet", task="infer", precision="fp16", batch_size=8, image_size=512, steps=30)
    v = mem.vram_per_gpu(w, 1)
    alloc, res, dev = (vv.compared(v, q, False) for q in ("allocated", "reserved", "device"))
    assert alloc[1] < res[1] < dev[1] and alloc[2] < res[2] < dev[2]
    eager = mem.vram_per_gpu(dataclasses.replace(w, attention="eager"), 1)
    # two 8-head 4096 x 4096 fp16 score tensors per UNet pass, two passes (guidance) per image: 1 GiB an image
    scores = 2 * 2 * 8 * 4096**2 * 2
    assert scores < eager.activations / 8 < 1.2 * scores
    assert (eager.activations - v.activations) / 8 > 0.5 * scores


def test_vision_memory_needs_its_quantity() -> None:
    head = ",".join(ms.COLUMNS)
    good = ("x,o,sd15-unet,inference,diffusion-infer,fp16,1,,,,512,g,1,,,diffusers,,,steps-50;mem-reserved,,1.5,"
            "s/image,3.2,https://github.com/a/b/blob/0/R.md,t,2023-01,n")
    assert ms.memory_kind(ms.parse_csv(f"{head}\n{good}\n")[0]) == "reserved"
    with pytest.raises(ms.MeasurementError, match="mem-allocated"):
        ms.parse_csv(f"{head}\n{good.replace(';mem-reserved', '')}\n")


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


def test_flux_rows_held_out_within_aim(loso: object) -> None:
    # FLUX.1-dev pipelines from two publications, each predicted with the Flux factor fitted to the other alone: the
    # UNets' factor would leave them 2x slow (the reviewer's gap); their own keeps every held-out row within 25 %
    held = [h for h in loso.held if h.m.model == "flux1-dev" and h.m.family == ms.DIFFUSION_INFER]  # type: ignore[attr-defined]
    assert len(held) >= 10 and len({h.m.origin for h in held}) >= 2
    assert all(abs(h.error) <= 0.25 for h in held), [(h.m.id, round(h.error, 2)) for h in held]


def test_non_square_and_context_flags_shape_the_spec() -> None:
    rows = {m.id: m for m in fitting.shipped()}
    spec = vv.spec_for(rows["hfblog-flux-qlora-4090"])
    assert spec is not None and (spec.image_size, spec.image_width) == (768, 512)
    assert spec.unet is not None and spec.unet.context_tokens == 77
    assert spec.steps == 0


def test_diffusion_training_held_out_within_aim(loso: object) -> None:
    # SD 2 base (mosaicml/diffusion), FLUX.1-dev NF4 LoRA (SimpleTuner docs), Flux QLoRA (huggingface/blog) and SD 1.5
    # LoRA (diffusers docs), each origin predicted with the training factor of the other three
    r = loso.families[ms.DIFFUSION_TRAIN]  # type: ignore[attr-defined]
    assert r.rows >= 6 and r.origins >= 4
    assert r.median <= 0.20, r.median
    assert r.coverage >= 0.8, r.coverage
    held = {h.m.id: h for h in loso.held if h.m.family == ms.DIFFUSION_TRAIN}  # type: ignore[attr-defined]
    # the two origins of one-node step rates land within 10 %; the whole-run LoRA times stay the known misses
    for i in ("mosaicml-sd2-base-unet-8xa100-256", "mosaicml-sd2-base-unet-8xa100-512",
              "simpletuner-flux-nf4-lora-4090-512", "simpletuner-flux-nf4-lora-4090-1024"):
        assert abs(held[i].error) <= 0.10, (i, held[i].error)


def test_training_calibration_is_one_group_and_shipped_for_flux_too() -> None:
    rows = {m.id: m for m in fitting.shipped()}
    assert vv.group(rows["hfblog-flux-qlora-4090"]) == ms.DIFFUSION_TRAIN
    assert vv.group(rows["mosaicml-sd2-base-unet-8xa100-512"]) == ms.DIFFUSION_TRAIN
    assert VISION_CALIBRATION[("flux", "train")] == VISION_CALIBRATION[("diffusion", "train")]


def test_cached_latents_drop_the_encoders_from_a_training_step() -> None:
    rows = {m.id: m for m in fitting.shipped()}
    m = rows["mosaicml-sd2-base-unet-8xa100-512"]
    spec = vv.spec_for(m)
    assert spec is not None and spec.cached_latents
    bare = dataclasses.replace(spec, cached_latents=False)
    # the UNet's 3 passes alone with cached latents; the VAE encoder (558 G MACs at 512^2) and OpenCLIP-H otherwise
    assert spec.train_flops_per_sample(False) == pytest.approx(3 * spec.forward_flops_per_sample(1))
    extra = bare.train_flops_per_sample(False) - spec.train_flops_per_sample(False)
    assert 1.1e12 < extra < 1.2e12
    assert vv.spec_for(rows["diffusers-docs-sd15-lora-2080ti"]).cached_latents is False  # type: ignore[union-attr]


def test_a_denoisers_lora_steps_only_its_adapters() -> None:
    """LoRA of a diffusion denoiser: the optimizer reads and writes the adapters' states, not the frozen UNet's
    (860 M parameters of SD 1.5 at AdamW's 28 B each would be 24 GB of traffic a step), and each adapted projection
    adds its adapter's kernels, as a language model's LoRA does."""
    from configurator.core.build import Workload
    from configurator.core.estimate import throughput as tp
    from configurator.core.vision import adapted_projections, calibration, unet_lora_params

    full = tp.planner_cases(Workload("sd15-unet", "train", precision="bf16", batch_size=1), 1, None)["main"]
    lora = dataclasses.replace(full, finetune="lora", lora_rank=16)
    assert full.spec.unet is not None
    assert tp.trained_params(full) == full.spec.params
    assert tp.trained_params(lora) == unet_lora_params(full.spec.unet, 16) < full.spec.params / 100
    f_flops, f_bytes, f_kernels = tp.work(full)
    l_flops, l_bytes, l_kernels = tp.work(lora)
    assert l_flops < f_flops  # no weight gradients for the frozen UNet
    assert f_bytes - l_bytes > 20 * full.spec.params  # the AdamW states of the frozen weights are gone
    assert adapted_projections(full.spec.unet) == 128  # SD 1.5: 16 transformer blocks × 2 attentions × 4
    # the step's work divided by the vision family's calibration factor, as all of it is (vision.vision_scaled)
    assert l_kernels - f_kernels == pytest.approx(3 * tp.LORA_KERNELS * 128 / calibration(full.spec, "train"))
