"""The throughput model's detectors and diffusion pipelines against the published vision measurements, held out one
source at a time, and their peak memory against the planner's memory estimate.

Rows: db/measurements' families det-train, det-infer, diffusion-infer and diffusion-train. Each is
predicted by the throughput model (throughput.rate with the shipped fit's parameters, which are fitted to the other
families' rows only, so no vision row enters them) of the row's model at its image size, batch, precision and
denoising steps, without the shipped vision calibration (vision.VISION_CALIBRATION); then, leave-one-source-out,
multiplied by the family's calibration fitted to the *other* origins' rows alone (the geometric mean of their
measured / predicted): a held-out row never informs its own prediction.

Ranges (:attr:`VisionResult.widths`, the basis named as the planner names it: validation.LOSO / POOLED), as the
fitted families' (validation.widths): a family's own held-out residuals where its stated rows come from at least
MIN_OWN_ORIGINS origins (each held-out origin's range then rests on two other publications, not on one other
publication's offset) and their cross-validated coverage reaches 80 %; otherwise, as validation's POOLED fallback, the
held-out residuals of every family, the fitted families' leave-one-source-out (validation.loso_for) and the vision
families' here: how far the model has been off on a publication it was not fitted to. Either way each row is judged
against a range from the *other* origins' residuals only (validation.cross_coverage / cross_coverage_pooled), the
narrowest of the 10th-90th, 5th-95th, 2.5th-97.5th percentiles and the extremes whose coverage reaches 80 %. Coverage
is the share of held-out measured values inside that range; make bench prints it beside the range's width.

Training rows (diffusion-train) are predicted as full fine-tunes without checkpointing (case_for), whatever LoRA,
QLoRA or gradient checkpointing a row states: LoRA's frozen base skips the weight gradients (a third of the step's
FLOPs), its optimizer steps only the adapters (throughput.work.trained_params) and each adapted projection adds the
adapters' kernels (QLoRA: the NF4 weights dequantised on every pass); stated as run, the held-out median is 37 %
against 5 % (coverage 67 % against 83 %) on the shipped rows, every LoRA row measured slower than the step: they are
whole-run times (data loading, validation images and checkpoints inside) that err slow. A row flagged cached-latents
trained on latents and text embeddings computed beforehand: its step leaves out the VAE encoder and the text encoders
(ModelSpec.cached_latents).

Rows the model does not state: models the catalogue lacks (ResNet-101 detectors), GPUs it lacks, runtimes it
does not model for these workloads (torch.compile'd pipelines), and rows flagged as a run's anomaly (NOT_STATED_FLAGS:
lambda-diffusers' RTX A6000 at batch 8 and 16, whose time per image rises with the batch where every other card of
the sweep, and the same card with xformers, gets faster; the row's note gives the figures): listed with the reason,
never dropped silently.

Peak memory (:func:`memory_checks`): each row with a published peak beside the planner's memory estimate of its
workload, like for like by the row's mem-* flag (measurements.MEMORY_FLAGS): allocated (torch.cuda.
max_memory_allocated: detectron2, MMDetection) against the estimate's tensors alone, without the CUDA context and the
caching allocator's margin; reserved (torch.cuda.memory_reserved: lambda-diffusers) against the tensors with the
allocator's margin (memory.FRAGMENTATION), without the context; device (nvidia-smi) against the whole range. A
pipeline run under PyTorch 1.x without xformers (no fused attention in diffusers then) is estimated with its
attention scores written out (attention "eager"). Detectors train at a short side drawn from 640-800
(MIN_SIZE_TRAIN), at most 1333 long: the peak is the largest draw's, the catalogue's 800 × 1333.
A detector's training rows ran data parallel over 8 V100s with NVLink: their per-GPU rate is one GPU's (DDP's
all-reduce of 35-45 M fp32 gradients, 0.2 GB, over NVLink takes about 2 ms of a 200 ms iteration).
"""

from __future__ import annotations

import dataclasses
import math
import re
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from configurator.core import measurements as ms
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import memory as mem
from configurator.core.estimate import throughput as tp
from configurator.core.estimate import validation as val
from configurator.core.estimate.memory import VramBreakdown
from configurator.core.model_specs import KNOWN_MODELS, FluxLayout, ModelSpec
from configurator.core.parts import Gpu
from configurator.core.vision import calibration

# The software whose rows the model states: eager PyTorch under the detection frameworks, diffusers and MosaicML's
# Composer trainer (diffusers' UNet in eager PyTorch).
STATED_FRAMEWORKS = ("pytorch", "detectron2", "mmdetection", "diffusers", "composer")
# Rows kept in the dataset but not validated, by flag: why (the row's note gives the evidence).
NOT_STATED_FLAGS: dict[str, str] = {
    "slows-with-batch": "time per image rises with the batch on this card alone in this run (cause not stated)",
}
# A training row whose source trained on VAE latents and text embeddings computed beforehand (the step runs
# neither encoder: ModelSpec.cached_latents).
CACHED_LATENTS = "cached-latents"
# A family's own held-out residuals give its range only from this many origins up (else the pooled residuals).
MIN_OWN_ORIGINS = 3


def numbered(m: ms.Measurement, kind: str) -> int:
    """The N of the row's flag ``kind-N`` (steps, height, context); 0 without one."""
    for f in m.flags:
        if f.startswith(f"{kind}-"):
            return int(f.removeprefix(f"{kind}-"))
    return 0


def steps_of(m: ms.Measurement) -> int:
    return numbered(m, "steps")


def spec_for(m: ms.Measurement) -> ModelSpec | None:
    """The catalogue's model at the row's image size (image_size the width; the flag height-N, else square), with the
    row's text tokens (context-N: a Flux run's T5 max_sequence_length) and, generating, its denoising steps."""
    spec = KNOWN_MODELS.get(m.model)
    if spec is None:
        return None
    if spec.unet is not None:
        width = m.image_size or spec.image_size
        height = numbered(m, "height") or width
        unet = spec.unet
        if isinstance(unet, FluxLayout) and numbered(m, "context"):
            unet = dataclasses.replace(unet, context_tokens=numbered(m, "context"))
        return dataclasses.replace(spec, image_size=height, image_width=width, unet=unet,
                                   steps=steps_of(m) if m.task == "inference" else 0,
                                   cached_latents=m.task == "train" and CACHED_LATENTS in m.flags)
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
    gaps.extend(f"{f}: {NOT_STATED_FLAGS[f]}" for f in m.flags if f in NOT_STATED_FLAGS)
    return "; ".join(gaps) or None


def raw_rate(m: ms.Measurement, gpu: Gpu, theta: Sequence[float]) -> float:
    """Images/s per GPU the model predicts for a row without the shipped vision calibration."""
    c = case_for(m)
    assert c is not None
    return tp.rate(c, tp.gpu_hw(gpu), theta) / calibration(c.spec, c.task)


def population(rows: Sequence[ms.Measurement]) -> list[ms.Measurement]:
    return [m for m in ms.published(rows) if m.family in ms.VISION_FAMILIES and not m.is_ratio]


def group(m: ms.Measurement) -> str:
    """The calibration group of a row: its family; for a Flux-class transformer's pipeline call the family with
    ":flux" (its own factor, vision.VISION_CALIBRATION's "flux" key: its step is a few large GEMMs, not the UNet's
    many small kernels). Training rows keep one group, UNet and Flux together: their uncalibrated measured /
    predicted scatter about 1 alike (the shipped rows: UNets 0.64-1.04, Flux 0.98-1.61), so
    the data show no separate Flux offset, and split they would rest on one or two origins each."""
    spec = KNOWN_MODELS.get(m.model)
    flux = spec is not None and isinstance(spec.unet, FluxLayout) and m.family != ms.DIFFUSION_TRAIN
    return f"{m.family}:flux" if flux else m.family


def factors(rows: Sequence[ms.Measurement], gpus: Mapping[str, Gpu], theta: Sequence[float]) -> dict[str, float]:
    """Per calibration group (:func:`group`), the geometric mean of measured / predicted (uncalibrated) over
    ``rows``."""
    logs: dict[str, list[float]] = {}
    for m in rows:
        logs.setdefault(group(m), []).append(math.log(m.images_per_second / raw_rate(m, gpus[m.gpu], theta)))
    return {fam: math.exp(statistics.fmean(v)) for fam, v in logs.items()}


@dataclass(frozen=True)
class VisionResult(val.Result):
    """The held-out rows, the rows not stated, per family the error and coverage, and the range each family's
    estimates get (validation.Width: its factors, the basis, the tail and its cross-validated coverage)."""

    widths: Mapping[str, val.Width] = field(default_factory=dict)


Band = Callable[[val.Held], tuple[float, float] | None]


def ranges(held: Sequence[val.Held], others: Sequence[val.Held]) -> tuple[dict[str, val.Width], dict[str, Band]]:
    """Per vision family its range (see the module: own residuals from MIN_OWN_ORIGINS origins when they hold 80 %,
    else every family's pooled) and the range each held-out row is judged against (from the other origins' rows)."""
    everyone = [*others, *held]
    widths: dict[str, val.Width] = {}
    bands: dict[str, Band] = {}
    for fam in ms.VISION_FAMILIES:
        own = [h for h in held if h.m.family == fam]
        origins = len({h.m.origin for h in own})
        if not own:
            continue
        cov: float | None = None
        pool, basis, tail = everyone, val.POOLED, val.TAILS[-1]
        if origins >= MIN_OWN_ORIGINS:
            tail, _stretch, cov = val.holding_band(own, lambda h: h.m.origin)
            pool, basis = own, val.LOSO
        if cov is None or cov < val.TARGET_COVERAGE:
            pooled_tail, pooled_cov = val.pooled_band(own, everyone)
            if cov is None or (pooled_cov is not None and pooled_cov > cov):
                pool, basis, tail, cov = everyone, val.POOLED, pooled_tail, pooled_cov
        b = val.ratio_band([h.ratio for h in pool], tail)
        assert b is not None
        widths[fam] = val.Width(fam, b[0], b[1], basis, len(pool), origins,
                                statistics.median(abs(h.error) for h in own), tail, 1.0, cov)

        def band(h: val.Held, pool: Sequence[val.Held] = pool, tail: float = tail) -> tuple[float, float] | None:
            return val.ratio_band([o.ratio for o in pool if o.m.origin != h.m.origin], tail)

        bands[fam] = band
    return widths, bands


def leave_one_source_out(rows: Sequence[ms.Measurement] | None = None, gpus: Mapping[str, Gpu] | None = None,
                         theta: Sequence[float] | None = None, others: Sequence[val.Held] | None = None
                         ) -> VisionResult:
    """Each origin's vision rows predicted with the family calibration fitted to the other origins, and the ranges
    (see the module); ``others``: the fitted families' held-out rows for the pooled ranges (default: the shipped
    fit's leave-one-source-out, validation.loso_for)."""
    data = population(fitting.shipped() if rows is None else rows)
    specs = fitting.measured_gpus() if gpus is None else gpus
    th = list(fitting.fit_for().theta if theta is None else theta)

    def fitter(train: Sequence[ms.Measurement]) -> val.Predictor:
        f = factors(train, specs, th)
        return lambda m: raw_rate(m, specs[m.gpu], th) * f.get(group(m), 1.0)

    held, refused = val.hold_out_origins(data, fitter, lambda m: reason(m, specs))
    held = [val.Held(h.m, h.m.images_per_second, h.predicted) for h in held]
    # the fitted families' throughput residuals: serving's (latencies, loads) are another quantity
    pool = [h for h in (val.loso_for(fitting.fit_for()).held if others is None else others)
            if h.m.family not in ms.SERVE_FAMILIES]
    widths, bands = ranges(held, pool)

    def band(h: val.Held) -> tuple[float, float] | None:
        return bands[h.m.family](h) if h.m.family in bands else None

    return VisionResult(tuple(held), tuple(refused), val.summarise(held, refused, band, ms.VISION_FAMILIES), widths)


# ---------------------------------------------------------------------------------------------
# peak memory


@dataclass(frozen=True)
class MemoryCheck:
    m: ms.Measurement
    quantity: str  # what the published figure is and the estimate is compared as: allocated | reserved | device
    attention: str  # the attention the estimate assumed (eager: scores written out)
    low: float  # the planner's range of that quantity, GiB
    estimate: float
    high: float

    @property
    def inside(self) -> bool:
        return self.low <= (self.m.peak_memory_gb or 0.0) <= self.high


def attention_of(m: ms.Measurement) -> str:
    """"eager" for a diffusion pipeline run under PyTorch 1.x without xformers (diffusers had no fused attention
    then: PyTorch's scaled_dot_product_attention came with 2.0), else "sdpa"."""
    major = re.search(r"PyTorch (\d+)\.", m.framework_version or "")
    fused = any(f in ("xformers", "sdpa", "flash-attn") for f in m.flags)
    old = major is not None and int(major.group(1)) < 2
    return "eager" if m.family in (ms.DIFFUSION_INFER, ms.DIFFUSION_TRAIN) and old and not fused else "sdpa"


def compared(v: VramBreakdown, quantity: str, train: bool) -> tuple[float, float, float]:
    """(low, estimate, high) in bytes of the quantity a source measured, from the planner's estimate ``v``:
    device, the whole range; reserved, without the CUDA context (the caching allocator's segments: the tensors
    with its margin, memory.FRAGMENTATION); allocated, the tensors alone (the saved tensors within
    ACTIVATION_ERROR). Training widens to memory.PUBLISHED_RATIO × the estimate, as the planner's range does."""
    if quantity == "device":
        return v.low, v.total, v.high
    exact = v.weights + v.gradients + v.optimizer
    dynamic = v.activations + v.autocast_copies + v.logits + v.recompute + v.kv_cache
    frag = mem.FRAGMENTATION if quantity == "reserved" else (0.0, 0.0, 0.0)
    low = exact - v.pageable + dynamic * (1 - mem.ACTIVATION_ERROR) * (1 + frag[0])
    mid = exact + dynamic * (1 + frag[1])
    high = exact + dynamic * (1 + mem.ACTIVATION_ERROR) * (1 + frag[2])
    if train:
        low, high = min(low, mid * mem.PUBLISHED_RATIO[0]), max(high, mid * mem.PUBLISHED_RATIO[1])
    return low, mid, high


def memory_checks(rows: Sequence[ms.Measurement] | None = None) -> list[MemoryCheck]:
    """Each stated vision row with a published peak memory beside the planner's estimate for its workload on one
    GPU (memory.vram_per_gpu), compared as the quantity the row measured (see the module); GiB."""
    from configurator.core.build import Workload

    gib = float(2**30)
    out = []
    gpus = fitting.measured_gpus()
    for m in population(fitting.shipped() if rows is None else rows):
        quantity = ms.memory_kind(m)
        if m.peak_memory_gb is None or quantity is None or reason(m, gpus) is not None or m.precision is None:
            continue
        extra = {"image_size": m.image_size, "steps": steps_of(m)} if m.family == ms.DIFFUSION_INFER else {}
        attention = attention_of(m)
        w = Workload(model=m.model, task="train" if m.task == "train" else "infer", precision=m.precision,
                     batch_size=m.batch_size or 1, attention=attention, **extra)  # type: ignore[arg-type]
        low, mid, high = compared(mem.vram_per_gpu(w, 1), quantity, m.task == "train")
        out.append(MemoryCheck(m, quantity, attention, low / gib, mid / gib, high / gib))
    return out
