"""The throughput model's detectors and diffusion pipelines against the published vision measurements, held out one
source at a time, and their peak memory against the planner's memory estimate.

Rows: db/measurements' families det-train, det-infer, diffusion-infer (and diffusion-train when rows come). Each is
predicted by the throughput model (throughput.rate with the shipped fit's parameters, which are fitted to the other
families' rows only, so no vision row enters them) of the row's model at its image size, batch, precision and
denoising steps, without the shipped vision calibration (vision.VISION_CALIBRATION); then, leave-one-source-out,
multiplied by the family's calibration fitted to the *other* origins' rows alone (the geometric mean of their
measured / predicted): a held-out row never informs its own prediction. Coverage is the share of held-out measured
values inside the range the other origins' residuals give (validation.ratio_band): the narrowest of the 10th-90th,
5th-95th, 2.5th-97.5th percentiles and the extremes whose coverage reaches 80 % (validation.holding_band, as the
planner's other families).

Rows the model does not state: models the catalogue lacks (ResNet-101 detectors), GPUs it lacks, and runtimes it
does not model for these workloads (torch.compile'd pipelines): listed with the reason, never dropped silently.
A detector's training rows ran data parallel over 8 V100s with NVLink: their per-GPU rate is one GPU's (DDP's
all-reduce of 35-45 M fp32 gradients, 0.2 GB, over NVLink takes about 2 ms of a 200 ms iteration).
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from configurator.core import measurements as ms
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import throughput as tp
from configurator.core.estimate import validation as val
from configurator.core.model_specs import KNOWN_MODELS, ModelSpec
from configurator.core.parts import Gpu
from configurator.core.vision import calibration

# The software whose rows the model states: eager PyTorch under the detection frameworks and diffusers.
STATED_FRAMEWORKS = ("pytorch", "detectron2", "mmdetection", "diffusers")


def steps_of(m: ms.Measurement) -> int:
    for f in m.flags:
        if f.startswith("steps-"):
            return int(f.removeprefix("steps-"))
    return 0


def spec_for(m: ms.Measurement) -> ModelSpec | None:
    """The catalogue's model at the row's image size (square) and, generating, its denoising steps."""
    spec = KNOWN_MODELS.get(m.model)
    if spec is None:
        return None
    if spec.unet is not None:
        size = m.image_size or spec.image_size
        return dataclasses.replace(spec, image_size=size, image_width=size,
                                   steps=steps_of(m) if m.task == "inference" else 0)
    return spec  # detectors run at their catalogue size (800 × 1333: the rows' short side 800, long side ≤ 1333)


def case_for(m: ms.Measurement) -> tp.Case | None:
    spec = spec_for(m)
    if spec is None or m.precision is None:
        return None
    task = "train" if m.task == "train" else "infer"
    # attention as the planner runs a UNet (fused, throughput.cases): lambda-diffusers' rows ran PyTorch 1.13's
    # math attention (no xformers), yet counting its materialised scores (4 passes over heads × T² per attention)
    # predicted them 1.3-1.6x too slow against the fused rows of the other sources (held-out median 33 % against 12 %)
    return tp.Case(spec, task, m.precision, m.batch_size or 1, 1, runtime="pytorch", optimizer="sgd",
                   attention="sdpa")


def reason(m: ms.Measurement, gpus: Mapping[str, Gpu]) -> str | None:
    """Why the model does not state a vision row (None: it does)."""
    gaps = []
    if m.framework not in STATED_FRAMEWORKS:
        gaps.append(f"runtime {m.framework}")
    if KNOWN_MODELS.get(m.model) is None:
        gaps.append(f"model {m.model}")
    if m.gpu not in gpus:
        gaps.append(f"GPU {m.gpu}")
    if m.precision is None:
        gaps.append("precision not stated")
    return "; ".join(gaps) or None


def raw_rate(m: ms.Measurement, gpu: Gpu, theta: Sequence[float]) -> float:
    """Images/s per GPU the model predicts for a row without the shipped vision calibration."""
    c = case_for(m)
    assert c is not None
    return tp.rate(c, tp.gpu_hw(gpu), theta) / calibration(c.spec, c.task)


def population(rows: Sequence[ms.Measurement]) -> list[ms.Measurement]:
    return [m for m in ms.published(rows) if m.family in ms.VISION_FAMILIES and not m.is_ratio]


def factors(rows: Sequence[ms.Measurement], gpus: Mapping[str, Gpu], theta: Sequence[float]) -> dict[str, float]:
    """Per family, the geometric mean of measured / predicted (uncalibrated) over ``rows``."""
    logs: dict[str, list[float]] = {}
    for m in rows:
        logs.setdefault(m.family, []).append(math.log(m.images_per_second / raw_rate(m, gpus[m.gpu], theta)))
    return {fam: math.exp(statistics.fmean(v)) for fam, v in logs.items()}


@dataclass(frozen=True)
class MemoryCheck:
    m: ms.Measurement
    low: float  # the planner's range, GiB
    estimate: float
    high: float

    @property
    def inside(self) -> bool:
        return self.low <= (self.m.peak_memory_gb or 0.0) <= self.high


def leave_one_source_out(rows: Sequence[ms.Measurement] | None = None, gpus: Mapping[str, Gpu] | None = None,
                         theta: Sequence[float] | None = None) -> val.Result:
    """Each origin's vision rows predicted with the family calibration fitted to the other origins (see the module)."""
    data = population(fitting.shipped() if rows is None else rows)
    specs = fitting.measured_gpus() if gpus is None else gpus
    th = list(fitting.fit_for().theta if theta is None else theta)

    def fitter(train: Sequence[ms.Measurement]) -> val.Predictor:
        f = factors(train, specs, th)
        return lambda m: raw_rate(m, specs[m.gpu], th) * f.get(m.family, 1.0)

    held, refused = val.hold_out_origins(data, fitter, lambda m: reason(m, specs))
    held = [val.Held(h.m, h.m.images_per_second, h.predicted) for h in held]

    tails = {fam: val.holding_band([h for h in held if h.m.family == fam], lambda h: h.m.origin)[0]
             for fam in ms.VISION_FAMILIES}

    def band(h: val.Held) -> tuple[float, float] | None:
        return val.ratio_band([o.ratio for o in held if o.m.family == h.m.family and o.m.origin != h.m.origin],
                              tails[h.m.family])

    return val.Result(tuple(held), tuple(refused), val.summarise(held, refused, band, ms.VISION_FAMILIES))


def memory_checks(rows: Sequence[ms.Measurement] | None = None) -> list[MemoryCheck]:
    """Each stated vision row with a published peak memory beside the planner's range for its workload on one GPU
    (estimate/memory.vram_per_gpu: low, estimate, high in GiB). The sources measure differently (detectron2 and
    MMDetection: max_memory_allocated, no CUDA context; lambda-diffusers: memory_reserved): each row's note."""
    from configurator.core.build import Workload
    from configurator.core.estimate.memory import vram_per_gpu

    gib = float(2**30)
    out = []
    gpus = fitting.measured_gpus()
    for m in population(fitting.shipped() if rows is None else rows):
        if m.peak_memory_gb is None or reason(m, gpus) is not None or m.precision is None:
            continue
        extra = {"image_size": m.image_size, "steps": steps_of(m)} if m.family == ms.DIFFUSION_INFER else {}
        w = Workload(model=m.model, task="train" if m.task == "train" else "infer", precision=m.precision,
                     batch_size=m.batch_size or 1, **extra)  # type: ignore[arg-type]
        v = vram_per_gpu(w, 1)
        mid = (v.weights + v.gradients + v.optimizer + v.activations + v.context) / gib
        out.append(MemoryCheck(m, v.low / gib, mid, v.high / gib))
    return out
