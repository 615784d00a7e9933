"""The planner engine: a build and the catalogue in, findings and estimates out.

One engine serves the planner tab, the PDF sheet and ``configurator check``; the UI never
computes a rule itself. No Qt, no database: the caller hands over the catalogue.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from configurator.core import calibration
from configurator.core.build import Build, Resolved, Workload, gpu_errors, resolve, workload_errors
from configurator.core.cloud import CloudPrice, load_cloud_prices
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import interconnect as ic
from configurator.core.estimate import serving as srv
from configurator.core.estimate import throughput as tp
from configurator.core.estimate import validation
from configurator.core.estimate.memory import (
    ACTIVATION_ERROR,
    CUDA_CONTEXT_GIB,
    DISPLAY_GIB,
    FRAGMENTATION,
    PUBLISHED_RATIO,
    RamEstimate,
    VramBreakdown,
    host_ram,
    host_weight_copies,
    largest_batch,
    load_bytes_per_param,
    verdict,
    vram_per_gpu,
)
from configurator.core.estimate.power import MeasuredPower, estimate_power, training_draw_w
from configurator.core.estimate.quant import QUANTS
from configurator.core.estimate.quant import kernel_for as quant_kernel
from configurator.core.findings import SEVERITY_ORDER, Estimate, Finding
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message, Translate
from configurator.core.measurements import Measurement
from configurator.core.models import throughput_note
from configurator.core.numbers import unit_message, word_message
from configurator.core.parts import AnyPart, Cpu, FieldError, Gpu, Storage
from configurator.core.pcie import Placement, layout
from configurator.core.rules import bud, order, pwr
from configurator.core.rules.shared import Ctx
from configurator.core.units import GIB


@dataclass(frozen=True)
class Report:
    build: Build
    total_cny: int
    findings: tuple[Finding, ...]
    estimates: tuple[Estimate, ...]
    placement: Placement | None = None  # slots, M.2 connectors (None: no board)
    gpus_counted: int = 0  # GPUs the estimates count: cards in a slot, modules on a baseboard
    # The workload's own problems (a form can hold what a build file may not, e.g. int8 training): the
    # build is then judged without its workload, and is not ok.
    workload_errors: tuple[FieldError, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.workload_errors and not any(f.severity == "error" for f in self.findings)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    def estimate(self, key: str) -> Estimate | None:
        return next((e for e in self.estimates if e.key == key), None)

    def to_json(self, translate: Translate | None = None) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "name": self.build.name,
            "total_cny": self.total_cny,
            "budget_cny": self.build.budget_cny,
            "gpus_counted": self.gpus_counted,
            "findings": [f.to_json(translate) for f in self.findings],
            "estimates": [e.to_json(translate) for e in self.estimates],
            **({"workload_errors": [{"path": e.path, "message": e.message.render(translate)}
                                    for e in self.workload_errors]} if self.workload_errors else {}),
        }


_CKPT = Message("estimates", QT_TRANSLATE_NOOP("estimates", ", checkpointing"))
_VERDICT = {"fits": Message("estimates", QT_TRANSLATE_NOOP("estimates", "fits")),
            "tight": Message("estimates", QT_TRANSLATE_NOOP("estimates", "tight")),
            "does_not_fit": Message("estimates", QT_TRANSLATE_NOOP("estimates", "does not fit"))}
_DISPLAY = QT_TRANSLATE_NOOP("estimates", ", {lo:g}–{hi:g} GiB for the display")


# Words of the throughput sentence, translated where it is shown.
_BOUND = {"compute": Message("estimates", QT_TRANSLATE_NOOP("estimates", "compute")),
          "memory": Message("estimates", QT_TRANSLATE_NOOP("estimates", "memory"))}
_BOUND["power"] = Message("estimates", QT_TRANSLATE_NOOP("estimates", "power"))
_BOUND["overhead"] = Message("estimates", QT_TRANSLATE_NOOP("estimates", "launch-overhead"))
_BOUND["comm"] = Message("estimates", QT_TRANSLATE_NOOP("estimates", "communication"))
_BOUND["offload"] = Message("estimates", QT_TRANSLATE_NOOP("estimates", "host-transfer"))
_RUNTIME_DEFAULT = Message("estimates", QT_TRANSLATE_NOOP("estimates", " (the default: the build does not name one)"))
_RUNTIME_STATED = Message("estimates", QT_TRANSLATE_NOOP("estimates", " (the build's)"))
_UNITS = {"tensor": Message("estimates", QT_TRANSLATE_NOOP("estimates", "tensor")),
          "simt": Message("estimates", QT_TRANSLATE_NOOP("estimates", "shader (SIMT)")),
          "cpu": Message("estimates", QT_TRANSLATE_NOOP("estimates", "CPU"))}


# The estimates that are the build's throughput, the first found (PWR-4's per watt, the sheet's chart): the
# machine's total, a serving workload's output tokens/s at its load, the CPU alone.
MAIN_THROUGHPUT = ("throughput_total", "serving_output_tokens_per_s", "throughput_cpu")


def throughput_figure(value: float) -> float:
    """A throughput as the report gives it: at least 3 significant digits and at least one decimal (5,433.7 and
    50.9 tokens/s, 4.59 img/s, 0.0312 img/s: FLUX.1-dev's 0.03 img/s is not rounded to 0.0)."""
    if value == 0 or not math.isfinite(value):
        return value
    return round(value, max(1, 2 - math.floor(math.log10(abs(value)))))


def main_throughput(report: Report) -> Estimate | None:
    """The build's throughput estimate (:data:`MAIN_THROUGHPUT`), None where it has none."""
    return next((e for k in MAIN_THROUGHPUT if (e := report.estimate(k)) is not None), None)


def _m(template: str, **params: Any) -> Message:
    return Message("estimates", template, params)


_PUBLISHED = QT_TRANSLATE_NOOP(
    "estimates", ", and at least ×{lo:g}–×{hi:g} of the estimate (published fine-tuning peak memory against this "
                 "estimate: 10th–90th percentile)")
_OPT_IN_BACKWARD = QT_TRANSLATE_NOOP(
    "estimates", " Optimizer in backward: one parameter's gradient at a time ({g:.2f} GiB), none stored.")
_CHUNKED_CE = QT_TRANSLATE_NOOP(
    "estimates", " Chunked cross-entropy: one chunk's logits and gradients ({lg:.2f} GiB), no full log-softmax saved.")
_PAGED = QT_TRANSLATE_NOOP(
    "estimates", " Paged optimizer: its {o:.1f} GiB of states can page out to host RAM under pressure (the low end "
                 "assumes they do; the host needs the same room).")
_OFFLOADED_ACTS = QT_TRANSLATE_NOOP(
    "estimates", " Activation offload: {host:.1f} GiB of saved tensors in pinned host memory, one layer's on the "
                 "GPU.")
_OFFLOADED_OPT = QT_TRANSLATE_NOOP(
    "estimates", " Optimizer offload: {off:.1f} GiB of states (and master weights) in host RAM.")


def _memory_options(w: Workload, vram: VramBreakdown) -> Message | str:
    """The sentence on the memory options the workload uses (empty where none)."""
    parts: list[Message] = []
    if w.task == "train":
        if w.optimizer_in_backward:
            parts.append(_m(_OPT_IN_BACKWARD, g=vram.gradients / GIB))
        if w.chunked_ce and w.spec().decoder:
            parts.append(_m(_CHUNKED_CE, lg=vram.logits / GIB))
        if vram.pageable:
            parts.append(_m(_PAGED, o=vram.pageable / GIB))
        if vram.host_activations:
            parts.append(_m(_OFFLOADED_ACTS, host=vram.host_activations / GIB))
        if vram.offloaded:
            parts.append(_m(_OFFLOADED_OPT, off=vram.offloaded / GIB))
    if not parts:
        return ""
    return _m("".join(f"{{p{k}}}" for k in range(len(parts))), **{f"p{k}": p for k, p in enumerate(parts)})


def usable_gpus(r: Resolved) -> list[Gpu]:
    """GPUs PyTorch can use: NVIDIA cards and AMD cards that current ROCm supports."""
    return [g for g in r.gpu_list if g.vendor == "nvidia" or g.rocm_supported]


def m2_drives(r: Resolved) -> list[Storage]:
    """Drives that go in an M.2 connector, one entry per drive."""
    return [s for s, q in r.storage if s.form_factor.startswith("M.2") for _ in range(q)]


def counted_gpus(r: Resolved, placement: Placement | None) -> list[Gpu]:
    """The GPUs that can run and PyTorch can use: cards seated in a slot (all of them while no board is
    chosen) and modules on a baseboard that takes them (PCI-8), as many as it has sockets."""
    room = sum(p.gpu_slots for p in r.platforms)
    seated = placement.placed_indexes if placement is not None else None
    out: list[Gpu] = []
    for i, g in enumerate(r.gpu_list):
        if g.form_factor == "pcie":
            if seated is None or i in seated:
                out.append(g)
        elif room > 0 and any(ic.takes_module(p, g) for p in r.platforms):
            out.append(g)
            room -= 1
    return [g for g in out if g.vendor == "nvidia" or g.rocm_supported]


def host_memory_bytes_per_s(r: Resolved) -> float | None:
    """Peak host memory bandwidth: populated channels × transfer rate × 8 bytes × CPUs."""
    cpu = r.cpu
    if cpu is None:
        return None
    mts = min((m.speed_mts for m, _q in r.memory), default=cpu.memory_max_mts) or cpu.memory_max_mts
    mts = min(mts, cpu.memory_max_mts) if cpu.memory_max_mts else mts
    per_cpu = max(r.modules // max(r.cpu_count, 1), 1) if r.memory else cpu.memory_channels
    channels = min(cpu.memory_channels, per_cpu)
    return float(channels * mts * 1e6 * 8 * max(r.cpu_count, 1))


_SHIPPED_CLOUD: list[tuple[CloudPrice, ...]] = []


def shipped_cloud_prices() -> tuple[CloudPrice, ...]:
    """db/cloud_prices.toml, read once."""
    if not _SHIPPED_CLOUD:
        _SHIPPED_CLOUD.append(tuple(load_cloud_prices()))
    return _SHIPPED_CLOUD[0]


def check(build: Build, catalogue: Mapping[str, AnyPart],
          measurements: Sequence[Measurement] | None = None,
          cloud_prices: Sequence[CloudPrice] | None = None,
          local: Sequence[calibration.LocalMeasurement] = (), measured_power: MeasuredPower | None = None,
          with_estimates: bool = True) -> Report:
    """``measurements``: the published rows the throughput model is fitted to (default: the shipped ones);
    ``cloud_prices``: BUD-3's rental prices (default: the shipped table; the store adds the user's edits);
    ``local``: this machine's benchmark results, which calibrate the throughput estimates of a build
    with the same GPU or CPU (:mod:`configurator.core.calibration`);
    ``measured_power``: the draw measured on the machine this build is (PWR-4 and BUD-3 use it);
    ``with_estimates=False``: the rules' findings only, without the estimates and the info findings drawn
    from them (EST-1, performance per watt): what Suggest needs to judge the thousands of builds it
    tries, at a fraction of the cost."""
    problems = _problems(build.workload) if build.workload is not None else ()
    if build.workload is not None and not problems:  # what it asks of the cards: fp8, a kernel's compute capability
        problems = tuple(gpu_errors(build.workload, [g for p in build.parts
                                                     if isinstance(g := catalogue.get(p.id), Gpu)]))
    r = resolve(dataclasses.replace(build, workload=None) if problems else build, catalogue)
    power = estimate_power(r)
    board = r.board
    cpu = r.cpu
    placement = layout(r.gpu_list, board, cpu.pcie_gen if cpu else None, None, r.cpu_count or 1,
                       m2_drives(r)) if board else None
    w = r.build.workload
    gpus = counted_gpus(r, placement)
    n = len(gpus)
    vram = vram_per_gpu(w, n, display_gpu=build.options.display_gpu) if w is not None and gpus else None
    ram = host_ram(w, n) if w is not None else None
    cloud = shipped_cloud_prices() if cloud_prices is None else tuple(cloud_prices)
    ctx = Ctx(r, power, placement, vram, ram, counted=gpus, cloud=cloud, measured=measured_power,
              catalogue=catalogue if with_estimates else {})

    order.run(ctx)

    total = bud.total_cny(ctx)
    if not with_estimates:
        findings = sorted(ctx.findings, key=lambda f: SEVERITY_ORDER[f.severity])
        return Report(build, total, tuple(findings), (), placement, n, problems)
    # The throughput model is fitted (once per process, a tenth of a second) only when there is a GPU or a
    # CPU to estimate: an empty build, the planner's first, does not wait for it.
    f = fitting.factors_for(measurements) if gpus or cpu is not None else tp.FACTORS
    rows = fitting.shipped() if measurements is None else measurements
    estimates = _estimates(ctx, gpus, total, f, rows)
    if w is not None and w.serving:
        estimates += _serving_estimates(ctx, gpus, f)
    if local and w is not None:
        estimates = calibration.apply(estimates, [g.id for g in gpus], cpu.id if cpu else None,
                                      fitting.family_of(w), local, catalogue)
    if r.build.cluster is not None:
        estimates += _cluster(ctx, gpus, total, f, estimates)
    _guide_disagreements(ctx, gpus, f, rows)
    main = next((e for e in estimates if e.key in MAIN_THROUGHPUT), None)
    if main is not None and main.value:
        pwr.per_watt(ctx, main.value, main.unit)
    findings = sorted(ctx.findings, key=lambda f: SEVERITY_ORDER[f.severity])
    return Report(build, total, tuple(findings), tuple(estimates), placement, n, problems)


def _problems(workload: Workload) -> tuple[FieldError, ...]:
    """The workload's problems. A workload that names a config.json is read again each time (the file may have
    gone or changed since), so a missing file is a workload error here, not an exception in the estimates."""
    return tuple(workload_errors(workload)) if workload.hf_config is not None else _workload_problems(workload)


@functools.lru_cache(maxsize=64)
def _workload_problems(workload: Workload) -> tuple[FieldError, ...]:
    return tuple(workload_errors(workload))


def break_even(report: Report) -> Finding | None:
    """The finding that says in how many months the build pays for itself against renting (its
    ``numbers["months"]``), if the build has one."""
    return next((f for f in report.findings if f.rule == "BUD-3" and f.numbers.get("months") is not None), None)


def _estimates(ctx: Ctx, gpus: list[Gpu], total: int, f: tp.Factors,
               rows: Sequence[Measurement]) -> list[Estimate]:
    """The build's estimates, in the order the report lists them: power; then, with a workload, GPU memory, host
    RAM and throughput (on the counted GPUs, then on the CPU alone). A model whose compute no source states, or a
    workload that does not fit in GPU memory, has one ``throughput_not_estimated`` in place of the throughputs.

    A serving workload (task serve) has its own figures in place of the throughputs (``_serving_estimates``:
    requests in flight, output tokens/s, requests/s, TTFT, TPOT at its load): one stream decoding alone, a batch
    of 1 prefilled, the largest batch that fits and the CPU alone are not what a server under load does, and its
    batch is the runtime's, not a setting."""
    w = ctx.r.build.workload
    out = _power_estimates(ctx, serving=w is not None and w.serving)
    if w is None:
        return out
    if gpus and ctx.vram is not None:
        out += _vram_estimates(ctx, gpus, w, ctx.vram)
        if w.serving:
            out = [e for e in out if e.key != "largest_batch"]
    if ctx.ram is not None:
        out += _ram_estimates(gpus, w, ctx.ram)
    if w.serving:
        return out
    blocked = _throughput_blocked(ctx, gpus, w)
    if blocked is not None:
        return [*out, blocked]
    if gpus:  # counted_gpus: only cards in a slot and modules on a baseboard
        out += _gpu_throughput(ctx, gpus, total, f, rows, w)
    cpu = ctx.r.cpu
    if cpu is not None:
        out.append(_cpu_throughput(ctx.r, cpu, w, f))
    return out


def _power_estimates(ctx: Ctx, serving: bool = False) -> list[Estimate]:
    """The build's peak draw (the PSU's sizing, PWR-1) and its average draw under load: while training, or (a
    serving workload) while serving."""
    p = ctx.power
    peak = Estimate("peak_power_w", p.peak_w, "W", p.formula,
                    {"gpu_w": p.gpu_w, "cpu_w": p.cpu_w, "platform_w": p.platform_w, "transient_w": p.transient_w},
                    "medium")
    if serving:
        return [peak, Estimate("serving_draw_w", training_draw_w(ctx.r), "W", _m(QT_TRANSLATE_NOOP(
            "estimates",
            "GPUs at board power + CPU at TDP + platform: the draw while serving under load, an upper figure "
            "(decoding is bound by memory bandwidth more than by compute; a lightly loaded server draws less).")),
            {}, "low")]
    return [peak,
            Estimate("training_draw_w", training_draw_w(ctx.r), "W",
                     _m(QT_TRANSLATE_NOOP(
                         "estimates",
                         "GPUs at board power + CPU at TDP + platform: the average draw while training.")),
                     {}, "medium")]


def _vram_estimates(ctx: Ctx, gpus: list[Gpu], w: Workload, vram: VramBreakdown) -> list[Estimate]:
    """GPU memory (FIT-1): the central figure per GPU, its range and what is and is not counted; and the largest
    per-GPU batch that fits the smallest card."""
    smallest = min(g.vram_gb for g in gpus)
    display = ctx.r.build.options.display_gpu
    return [Estimate(
        "vram_per_gpu_gib", round(vram.total / GIB, 2), "GiB",
        _m(QT_TRANSLATE_NOOP(
            "estimates",
            "{low:.1f}–{high:.1f} GiB ({verdict} in {vram} GiB). Counted: weights, gradients, optimizer "
            "states ({optimizer}; sharded by {sharding}, fine-tuning {finetune}, offload {offload}), the tensors "
            "autograd saves at batch {batch} ({precision}{ckpt}, {attention} attention), autocast's weight "
            "copies, logits and the loss's gradients, KV cache, {ctx:g} GiB CUDA context, {frag:.0%} allocator "
            "margin{display}.{options} Range: saved tensors ±{err:.0%} (the validation against PyTorch), "
            "allocator 0–25 %, context {ctx_low:g}–{ctx_high:g} GiB{published}. Not counted: cuDNN benchmark "
            "workspaces, NCCL buffers, other processes."),
           low=vram.low / GIB, high=vram.high / GIB, verdict=_VERDICT[verdict(vram, smallest)],
           vram=smallest, optimizer=w.effective_optimizer, sharding=word_message(w.sharding),
           finetune=word_message(w.finetune), offload=word_message(w.offload),
           batch=w.effective_batch, precision=w.precision, ckpt=_CKPT if w.grad_checkpointing else "",
           attention=w.attention, ctx=CUDA_CONTEXT_GIB[1], frag=FRAGMENTATION[1],
           display=_m(_DISPLAY, lo=DISPLAY_GIB[0], hi=DISPLAY_GIB[2]) if display else "",
           options=_memory_options(w, vram),
           err=ACTIVATION_ERROR, ctx_low=CUDA_CONTEXT_GIB[0], ctx_high=CUDA_CONTEXT_GIB[2],
           published=_m(_PUBLISHED, lo=PUBLISHED_RATIO[0], hi=PUBLISHED_RATIO[1]) if w.task == "train" else ""),
        {**vram.gib(), "verdict": verdict(vram, smallest), "parallel": w.parallel,
         "optimizer": w.effective_optimizer, "optimizer_in_backward": w.optimizer_in_backward,
         "chunked_ce": w.chunked_ce},
        "medium", round(vram.low / GIB, 2), round(vram.high / GIB, 2),
        {"family": "memory", "first_principles": True, "activation_error": ACTIVATION_ERROR,
         "fragmentation": [FRAGMENTATION[0], FRAGMENTATION[2]], "context_gib": [CUDA_CONTEXT_GIB[0],
                                                                                CUDA_CONTEXT_GIB[2]],
         "matched": []}),
        Estimate(
        "largest_batch", largest_batch(w, len(gpus), smallest, display), "samples",
        _m(QT_TRANSLATE_NOOP(
            "estimates",
            "Largest per-GPU batch whose estimate fits {vram} GiB even at the high end of its range.",
        ), vram=smallest),
        {"vram_gib": smallest}, "medium")]


def _ram_estimates(gpus: list[Gpu], w: Workload, ram: RamEstimate) -> list[Estimate]:
    """Host RAM two ways: from first principles, and by the guide's RAM-1 formula."""
    copies = host_weight_copies(w, len(gpus))
    return [
        Estimate("ram_first_principles_gib", ram.first_principles_gib, "GiB",
                 _m(QT_TRANSLATE_NOOP(
                     "estimates",
                     "First principles: OS and libraries + the host copies of the weights while loading "
                     "({copies} × {bytes:g} B per parameter: one per process, one in all for FSDP / ZeRO-3 "
                     "rank-0 loading and memory-mapped inference runtimes) + DataLoader prefetch (4 "
                     "workers × 2 batches per GPU) + what offloading keeps in host RAM."),
                    copies=copies, bytes=load_bytes_per_param(w)),
                 ram.parts, "medium", *_ram_range(ram.first_principles_gib, ram.parts, copies),
                 {"family": None, "measurements": 0, "prior": True, "matched": []}),
        Estimate("ram_guide_formula_gib", ram.guide_gib, "GiB",
                 _m(QT_TRANSLATE_NOOP(
                     "estimates",
                     "The guide's RAM-1 formula: params × batch × 4 B × 1.2, halved for mixed precision "
                     "(G 三.2).")),
                 {"params": w.spec().params, "batch": w.effective_batch}, "low",
                 round(ram.guide_gib / GUIDE_RAM_MARGIN, 2), ram.guide_gib,
                 {"family": None, "measurements": 0, "prior": True, "matched": []}),
    ]


def _throughput_blocked(ctx: Ctx, placed: list[Gpu], w: Workload) -> Estimate | None:
    """Why there is no throughput at all, where there is none: a model whose compute no source states (a
    diffusion UNet), or a build that cannot run the workload (FIT-1): one sentence why, no figure."""
    unit = w.throughput_unit
    not_estimated = throughput_note(w.spec())
    if not_estimated is not None:
        return Estimate("throughput_not_estimated", None, unit, not_estimated, {"model": w.model}, "low")
    smallest_gib = min((g.vram_gb for g in placed), default=0)
    if ctx.vram is not None and placed and verdict(ctx.vram, smallest_gib) == "does_not_fit":
        return Estimate("throughput_not_estimated", None, unit, _m(QT_TRANSLATE_NOOP(
            "estimates", "No throughput: the workload does not fit in GPU memory ({need:.1f} GiB per GPU estimated, "
                         "{have} GiB on the card; FIT-1). RAM-4 lists what makes it fit."),
            need=ctx.vram.total / GIB, have=smallest_gib),
            {"model": w.model, "reason": "does_not_fit", "need_gib": round(ctx.vram.total / GIB, 2),
             "vram_gib": smallest_gib}, "low")
    return None


@dataclass(frozen=True)
class _OneGpu:
    """The slowest counted GPU's throughput, which the machine's figures are built from: its model, headline value
    (in the workload's unit), likely range, the range's basis and the sentence that says it."""
    gpu: Gpu
    one: tp.Throughput
    value: float
    low: float | None
    high: float | None
    basis: dict[str, Any]
    rng: Message


def _gpu_throughput(ctx: Ctx, placed: list[Gpu], total: int, f: tp.Factors, rows: Sequence[Measurement],
                    w: Workload) -> list[Estimate]:
    """Throughput on the counted GPUs: one GPU's; a decoder's prompt and batched decode rates (inference); the
    data-parallel scaling (training on several GPUs); the machine's total and its throughput per ¥1000."""
    base, first = _one_gpu_throughput(ctx, placed, f, rows, w)
    out = [first]
    n = len(placed)
    stream = w.spec().decoder and w.task == "infer"
    copies = max(n // base.one.model_gpus, 1)  # model copies: one per GPU, or one per group of a parallel model
    if stream:
        out += _decode_estimates(base, w, f.fit, n, copies)
    speedup = 1.0
    if n > 1 and w.task == "train":
        speedup, scaling = _scaling_estimate(ctx, placed, base, w, f)
        out.append(scaling)
    factor, low_factor, high_factor, how_total = _total_factors(ctx, placed, base, w, f.fit, speedup, stream,
                                                                copies)
    total_value = base.value * factor
    in_build = len(usable_gpus(ctx.r))
    if in_build > n:
        how_total = _m("{how} {left}", how=how_total, left=_m(QT_TRANSLATE_NOOP(
            "estimates", "{k} of the build's {m} GPUs have no slot or baseboard and are not counted."),
            k=in_build - n, m=in_build))
    unit = w.throughput_unit
    out.append(Estimate(
        "throughput_total", throughput_figure(total_value), unit, how_total,
        {"gpus": n, "gpus_in_build": in_build, "runtime": tp.runtime_used(w), "runtime_default": w.runtime is None,
         "model_gpus": base.one.model_gpus},
        "low",
        _scaled(base.low, low_factor), _scaled(base.high, high_factor), base.basis))
    if total:
        out.append(Estimate("throughput_per_kcny", throughput_figure(total_value / total * 1000), f"{unit} per ¥1000",
                            _m(QT_TRANSLATE_NOOP(
                                "estimates",
                                "Throughput ÷ build price.")), {"total_cny": total}, "low",
                            _scaled(base.low, low_factor * 1000 / total),
                            _scaled(base.high, high_factor * 1000 / total), base.basis))
    return out


def _one_gpu_throughput(ctx: Ctx, placed: list[Gpu], f: tp.Factors, rows: Sequence[Measurement],
                        w: Workload) -> tuple[_OneGpu, Estimate]:
    """The slowest counted GPU's throughput (``throughput_one_gpu``): the fitted model's figure, its range from
    the family's held-out residuals (a quantised format's own where it has enough rows) and the published rows of
    this GPU and workload."""
    fit = f.fit
    unit = w.throughput_unit
    system = _system(ctx, placed, w)
    slowest = min(placed, key=lambda g: tp.single_gpu(g, w, f, system).headline(w))
    one = tp.single_gpu(slowest, w, f, system)
    value = one.headline(w)
    fam = fitting.family_of(w)
    row_precision = QUANT_ROW_PRECISION.get(w.quant or "")
    matched = fitting.matches(rows, slowest.id, dataclasses.replace(w, precision=row_precision)
                              if row_precision else w)
    low, high, basis, rng = _range(value, unit, fam, fit, matched)
    if one.format_key:
        low, high, basis, rng = _format_range(value, unit, fam, one.format_key, fit, (low, high, basis, rng))
    assumes = _m(QT_TRANSLATE_NOOP(
        "estimates",
        "Per-layer-type work (GEMM/convolution FLOPs on the unit the precision runs on, memory-bound traffic on "
        "DRAM, launch overhead per kernel) with efficiencies per architecture and runtime fitted to {n} published "
        "measurements (ridge towards stated priors). Software as measured: NGC PyTorch with TF32 for FP32 on "
        "Ampere and newer, synthetic data. Runtime: {runtime}{default}."),
        n=len(fit.rows) if fit else 0, runtime=tp.runtime_used(w),
        default=_RUNTIME_DEFAULT if w.runtime is None else _RUNTIME_STATED)
    estimate = Estimate(
        "throughput_one_gpu", throughput_figure(value), unit,
        _m("{range} {detail}", range=rng, detail=_m(QT_TRANSLATE_NOOP(
            "estimates", "{gpu}: {bound}-bound on {units} cores ({precision}{weights}). {assumes}"),
            gpu=slowest.name, bound=_BOUND.get(one.bound, one.bound), units=_UNITS.get(one.path, one.path),
            precision=w.precision, weights=_weights_message(w, one, slowest), assumes=assumes)),
        {"path": one.path, "bound": one.bound, "runtime": tp.runtime_used(w), "runtime_default": w.runtime is None,
         "model_gpus": one.model_gpus,
         **({"batch": w.effective_batch} if w.spec().decoder and w.task == "infer" else {}),
         **_quant_json(w, one, slowest), **_parameters(f, slowest)}, "medium" if fit else "low", low, high, basis)
    return _OneGpu(slowest, one, value, low, high, basis, rng), estimate


def _decode_estimates(base: _OneGpu, w: Workload, fit: fitting.Fit | None, n: int, copies: int) -> list[Estimate]:
    """A decoder's inference: prompt processing (prefill) on one GPU, and the batch of streams decoded together
    on every copy of the model."""
    one = base.one
    runtime_json = {"runtime": tp.runtime_used(w), "runtime_default": w.runtime is None}
    pre = one.tokens_per_s or 0.0
    lo_p, hi_p, basis_p, rng_p = _range(pre, "tokens/s", "llm-prefill", fit, [])
    if one.format_key:
        lo_p, hi_p, basis_p, rng_p = _format_range(pre, "tokens/s", "llm-prefill", one.format_key, fit,
                                                   (lo_p, hi_p, basis_p, rng_p))
    prefill = Estimate("prefill_tokens_per_s", throughput_figure(pre), "tokens/s",
                       _m("{range} {detail}", range=rng_p, detail=_m(QT_TRANSLATE_NOOP(
                           "estimates",
                           "Prompt processing (prefill): {batch} prompt(s) of {prompt} tokens together, "
                           "2 × params + attention FLOPs per token on the tensor cores, the weights read "
                           "once per step; {bound}-bound."),
                           batch=w.effective_batch, prompt=min(w.effective_seq_len, 512),
                           bound=_BOUND.get(one.prefill_bound, one.prefill_bound))),
                       {**runtime_json, "batch": w.effective_batch,
                        "prompt_tokens": min(w.effective_seq_len, 512), "bound": one.prefill_bound},
                       "low", lo_p, hi_p, basis_p)
    agg = one.headline(w) * copies
    batch = Estimate("throughput_batch", throughput_figure(agg), w.throughput_unit,
                     _m("{range} {detail}", range=base.rng, detail=_m(QT_TRANSLATE_NOOP(
                         "estimates",
                         "{batch} streams decoded together on each of {n} copies of the model (over "
                         "{per} GPU(s) each): the weights are read once per step for all streams, each "
                         "stream's KV cache for it; {alone:,.4g} tokens/s for one stream alone."),
                         batch=w.effective_batch, n=copies, per=one.model_gpus,
                         alone=one.decode_tokens_per_s or 0.0)),
                     {"batch": w.effective_batch, "gpus": n, "copies": copies,
                      "one_stream_tokens_per_s": round(one.decode_tokens_per_s or 0.0, 1), **runtime_json},
                     "low", _scaled(base.low, copies), _scaled(base.high, copies), base.basis)
    return [prefill, batch]


def _scaling_estimate(ctx: Ctx, placed: list[Gpu], base: _OneGpu, w: Workload,
                      f: tp.Factors) -> tuple[float, Estimate]:
    """Data-parallel training on several GPUs: the speed-up over one GPU and the ``scaling_efficiency``
    estimate that says how it comes (the gradients' all-reduce over the link the GPUs share)."""
    n = len(placed)
    link, link_name, path = _link(ctx, placed, base.gpu)
    grad_bytes = tp.grad_bytes(w)
    speedup = tp.scaling(n, w.effective_batch / base.one.samples_per_s, grad_bytes, link, f)
    how = _m(QT_TRANSLATE_NOOP(
        "estimates",
        "{n} GPUs over {link}: speed-up {s:.2f}× = n × η^log2(n) × t / (t + half the ring all-reduce "
        "time of {gb:,.3g} GB of gradients{adapters}), η = {eta:.3f} calibrated on REF-1."),
       n=n, link=link_name, s=speedup, eta=f.eta, gb=grad_bytes / 1e9,
       adapters=_ADAPTERS if w.finetune in ("lora", "qlora") and w.spec().is_transformer else "")
    if path == "host":
        how = _m("{how} {why}", how=how, why=_m(QT_TRANSLATE_NOOP(
            "estimates",
            "These GeForce cards have no peer-to-peer (PCI-11): the all-reduce goes through host memory "
            "at {bw:.1f} GB/s per GPU, taken as half the PCIe link's one-way rate and capped by the host "
            "memory's bandwidth shared by {n} GPUs."), bw=link / 1e9, n=n))
    eff_low, eff_high, eff_basis = _scaling_range(speedup / n, f.fit)
    return speedup, Estimate(
        "scaling_efficiency", round(speedup / n, 3), "", how,
        {"gpus": n, "speedup": round(speedup, 2), "path": path,
         "link": link_name.render() if isinstance(link_name, Message) else link_name,
         "link_gbs": round(link / 1e9, 2), "grad_gb": round(grad_bytes / 1e9, 4)}, "low",
        eff_low, eff_high, eff_basis)


def _total_factors(ctx: Ctx, placed: list[Gpu], base: _OneGpu, w: Workload, fit: fitting.Fit | None,
                   speedup: float, stream: bool, copies: int) -> tuple[float, float, float, Message]:
    """How the machine's total comes from one GPU's figure: the factor, the factors of the range's low and high
    ends, and the sentence. Training: the scaling's speed-up (its range: the one-GPU range times the scaling
    efficiency's); a decoder's inference: the copies of the model; otherwise one batch stream per GPU."""
    n = len(placed)
    one = base.one
    low_factor = high_factor = speedup
    if w.task == "train" and n > 1:
        eff = speedup / n
        lo_e, hi_e, _b = _scaling_range(eff, fit)
        low_factor, high_factor = n * (lo_e or eff), n * (hi_e or eff)
    if w.task == "train":
        factor = speedup
        how_total = _m(QT_TRANSLATE_NOOP("estimates", "{n} × one GPU × scaling efficiency."), n=n)
    elif stream and one.model_gpus > 1:
        factor = float(copies)
        how_total = _m(QT_TRANSLATE_NOOP(
            "estimates",
            "The tokens/s of the machine, summed over the batch: {copies} copies of the model, each split over {k} "
            "GPUs ({parallel} parallel, over {link}) and decoding {batch} stream(s) together; each GPU reads its "
            "share of the weights, the collectives per layer cost the link's latency and bandwidth (the one-GPU "
            "figure above is this split model's)."),
            copies=copies, k=one.model_gpus, parallel=word_message(w.parallel), link=_link(ctx, placed, base.gpu)[1],
            batch=w.effective_batch)
    elif stream:
        factor = float(copies)
        how_total = _m(QT_TRANSLATE_NOOP(
            "estimates",
            "The tokens/s of the machine, summed over the batch: {n} GPU(s), each decoding {batch} stream(s) "
            "together (more GPUs serve more streams; they do not make one stream faster without tensor or "
            "pipeline parallelism)."), n=n, batch=w.effective_batch)
    else:
        factor = float(n)
        how_total = _m(QT_TRANSLATE_NOOP(
            "estimates", "{n} GPUs, each running its own batches (independent requests)."), n=n)
    if w.task != "train":
        low_factor = high_factor = factor
    return factor, low_factor, high_factor, how_total


def _cpu_throughput(r: Resolved, cpu: Cpu, w: Workload, f: tp.Factors) -> Estimate:
    """The CPU alone (``throughput_cpu``): its peak FLOPs and memory bandwidth at the stated priors' efficiencies
    (no CPU measurements), a factor of 2 either way."""
    unit = w.throughput_unit
    mts = min((m.speed_mts for m, _q in r.memory), default=cpu.memory_max_mts) or cpu.memory_max_mts
    mts = min(mts, cpu.memory_max_mts) if cpu.memory_max_mts else mts
    channels = min(cpu.memory_channels, sum(m.modules * q for m, q in r.memory) or cpu.memory_channels)
    bandwidth = channels * mts * 1e6 * 8 * max(r.cpu_count, 1)
    c = tp.cpu_only(cpu, max(r.cpu_count, 1), bandwidth, w, f)
    value = c.headline(w)
    return Estimate(
        "throughput_cpu", throughput_figure(value), unit,
        _m(QT_TRANSLATE_NOOP(
            "estimates",
            "≈ {value:,.3g} {unit}, likely {low:,.3g}–{high:,.3g} (no CPU measurements: the stated priors, a "
            "factor of 2 either way). CPU alone: {cores} cores × {lanes} FP32 lanes × 2 FMA units × 2 FLOPs × "
            "{ghz:.2f} GHz = {peak:.2f} TFLOPS peak, {eff:.0%} reached; {bw:.0f} GB/s memory ({channels} "
            "channels), {bw_eff:.0%} reached."),
           value=value, unit=unit_message(unit), low=value / 2, high=value * 2,
           cores=cpu.cores * max(r.cpu_count, 1), lanes=16 if cpu.avx512 else 8,
           ghz=(cpu.base_ghz + cpu.boost_ghz) / 2, peak=tp.cpu_peak_flops(cpu, max(r.cpu_count, 1)) / 1e12,
           eff=f.efficiency("cpu"), bw=bandwidth / 1e9, channels=channels * max(r.cpu_count, 1),
           bw_eff=f.efficiency("bw.cpu")),
        {"memory_bandwidth_gbs": round(bandwidth / 1e9, 1)}, "low", throughput_figure(value / 2),
        throughput_figure(value * 2),
        {"family": None, "measurements": 0, "prior": True, "matched": []})


def _cluster(ctx: Ctx, gpus: list[Gpu], total: int, f: tp.Factors, estimates: list[Estimate]) -> list[Estimate]:
    """The build as one node of ``build.cluster`` (CLU-1): what one node's training step is, handed to
    :mod:`configurator.core.cluster_estimates`."""
    from configurator.core.cluster_estimates import cluster_estimates
    from configurator.core.estimate import cluster as cl

    r = ctx.r
    w, c = r.build.workload, r.build.cluster
    assert c is not None
    job = None
    train = w is not None and w.task == "train"
    if w is not None and train and gpus:
        system = _system(ctx, gpus, w)
        slowest = min(gpus, key=lambda g: tp.single_gpu(g, w, f, system).headline(w))
        one = tp.single_gpu(slowest, w, f, system)
        link = _link(ctx, gpus, slowest)[0] if len(gpus) > 1 else None
        grad_bytes = tp.grad_bytes(w)
        job = cl.NodeJob(len(gpus), one.headline(w), w.effective_batch / one.samples_per_s, grad_bytes, link, f.eta,
                         tp.OVERLAP)
    node_total = next((e for e in estimates if e.key == "throughput_total"), None)
    return cluster_estimates(ctx, c, job, w.throughput_unit if w else "", node_total, train, total,
                             training_draw_w(r), ctx.power.peak_w)


_ADAPTERS = Message("estimates", QT_TRANSLATE_NOOP("estimates", ", LoRA adapters only"))


_SERVE_LOAD = {
    "concurrency": QT_TRANSLATE_NOOP("estimates", "At {offered:,g} requests in flight ({prompt:,} prompt and "
                                                  "{output:,} output tokens each) in {runtime}"),
    "request_rate": QT_TRANSLATE_NOOP("estimates", "At {offered:,g} requests/s ({prompt:,} prompt and {output:,} "
                                                   "output tokens each) in {runtime}"),
}
_SERVE_ENGINES = {
    "replicas": QT_TRANSLATE_NOOP("estimates", "{engines} copies of the model, one per GPU"),
    "tensor": QT_TRANSLATE_NOOP("estimates", "one copy over {tp} GPUs (tensor parallel, {link})"),
    "one": QT_TRANSLATE_NOOP("estimates", "one copy of the model on one GPU"),
}
_SERVE_HOW = {
    "serving_max_concurrency": QT_TRANSLATE_NOOP(
        "estimates", "{load}, {engines}: the KV cache holds ≈ {value:,.0f} sequences ({low:,.0f}–{high:,.0f}): "
                     "{budget:.1f} GiB per GPU left for it ({fraction:.0%} of the card less {weights:.1f} GiB of "
                     "weights, the prompt chunk's activations and CUDA graphs), {kv:,.0f} KiB per token (2 × layers "
                     "× KV heads × head width × 2 B per GPU), sequences holding prompt + output/2 tokens on average "
                     "(low: all at full length); at most {cap} per copy (the runtime's batch limit)."),
    "serving_output_tokens_per_s": QT_TRANSLATE_NOOP(
        "estimates", "{load}, {engines}: {running:,.1f} sequences decoded together per copy{queued}: ≈ {value:,.0f} "
                     "output tokens/s ({low:,.0f}–{high:,.0f}); each step reads the weights once and every sequence's "
                     "KV cache, and runs the prompts of the requests that start in it (chunked prefill); "
                     "{bound}-bound."),
    "serving_requests_per_s": QT_TRANSLATE_NOOP(
        "estimates", "{load}: ≈ {value:,.2f} requests/s ({low:,.2f}–{high:,.2f}) completed: output tokens/s ÷ output "
                     "tokens per request; the build serves at most ≈ {capacity:,.2f} requests/s (its KV cache full)."),
    "serving_ttft_ms": QT_TRANSLATE_NOOP(
        "estimates", "{load}: median time to first token ≈ {value:,.0f} ms ({low:,.0f}–{high:,.0f}): half a step "
                     "waiting, the prompt's prefill inside a decode step{queued}."),
    "serving_tpot_ms": QT_TRANSLATE_NOOP(
        "estimates", "{load}: median time per output token ≈ {value:,.1f} ms ({low:,.1f}–{high:,.1f}): one step of "
                     "the running batch with its share of prompts."),
}
_SERVE_QUEUED = QT_TRANSLATE_NOOP("estimates", "; {queued:,.0f} requests wait for room in the KV cache")
_SERVE_SATURATED = QT_TRANSLATE_NOOP(
    "estimates", "{load}: the build serves at most ≈ {capacity:,.2f} requests/s (its KV cache full); at this rate the "
                 "queue grows without bound, so no time to first token.")
_SERVE_NONE = QT_TRANSLATE_NOOP(
    "estimates", "No serving estimate: {reason}")
_SERVE_NO_GPU = QT_TRANSLATE_NOOP("estimates", "the build has no GPU to serve on (CPU serving is not modelled).")
_SERVE_NO_ROOM = QT_TRANSLATE_NOOP(
    "estimates", "no room for the KV cache of one request ({need:,} tokens) beside the weights ({weights:.1f} GiB per "
                 "GPU) on a {vram} GiB card.")


def _serving_estimates(ctx: Ctx, gpus: list[Gpu], f: tp.Factors) -> list[Estimate]:
    """The serving estimates of a ``task: serve`` workload (core/estimate/serving.py), each with its range and
    the load it is at."""
    w = ctx.r.build.workload
    assert w is not None and w.prompt_tokens is not None and w.output_tokens is not None
    if not gpus:
        return [Estimate("serving_not_estimated", None, "", _m(_SERVE_NONE, reason=_m(_SERVE_NO_GPU)), {}, "low")]
    system = _system(ctx, gpus, w)
    slowest = min(gpus, key=lambda g: g.memory_bandwidth_gbs)
    vram = min(g.vram_gb for g in gpus)
    s = srv.estimate(w, tp.gpu_hw(slowest), vram, len(gpus), f, system)
    load_json = {"load": s.load, s.load: w.concurrency if s.load == "concurrency" else w.request_rate,
                 "prompt_tokens": w.prompt_tokens, "output_tokens": w.output_tokens,
                 "runtime": w.effective_runtime, "engines": s.engines, "tensor_parallel": s.tensor_parallel,
                 "gpu": slowest.name}
    if s.max_concurrency.value < 1:
        return [Estimate("serving_not_estimated", None, "", _m(_SERVE_NONE, reason=_m(
            _SERVE_NO_ROOM, need=w.prompt_tokens + w.output_tokens, weights=s.weights_gib, vram=vram)),
            {**load_json, "reason": "no_kv_room"}, "low")]
    load = _m(_SERVE_LOAD[s.load], offered=s.offered, prompt=w.prompt_tokens, output=w.output_tokens,
              runtime=w.effective_runtime)
    engines = (_m(_SERVE_ENGINES["tensor"], tp=s.tensor_parallel, link=_link(ctx, gpus, slowest)[1])
               if s.tensor_parallel > 1 else _m(_SERVE_ENGINES["replicas"], engines=s.engines) if s.engines > 1
               else _m(_SERVE_ENGINES["one"]))
    queued: Message | str = _m(_SERVE_QUEUED, queued=s.queued) if s.queued >= 0.5 else ""
    conf: Literal["medium", "low"] = "medium" if f.fit is not None else "low"
    at = {**load_json, "running_per_copy": round(s.running, 1), "queued": round(s.queued, 1),
          "saturated": s.saturated}

    def est(key: str, band: srv.Band, unit: str, digits: int, basis: dict[str, Any], **params: Any) -> Estimate:
        return Estimate(key, round(band.value, digits), unit,
                        _m(_SERVE_HOW[key], load=load, value=band.value, low=band.low, high=band.high, **params),
                        at, conf, round(band.low, digits), round(band.high, digits), basis)

    budget = s.kv_budget_gib
    memory_basis = {"kv_bytes_per_token": s.kv_bytes_per_token, "kv_budget_gib_per_gpu": round(budget.value, 2),
                    "kv_budget_gib_low": round(budget.low, 2), "kv_budget_gib_high": round(budget.high, 2),
                    "weights_gib_per_gpu": round(s.weights_gib, 2), **s.basis}
    out = [est("serving_max_concurrency", s.max_concurrency, "requests", 0, memory_basis, engines=engines,
               budget=s.kv_budget_gib.value, fraction=s.basis["memory_fraction"] or 0.9, weights=s.weights_gib,
               kv=s.kv_bytes_per_token / 1024, cap=s.basis["max_seqs"])]
    decode = dict(s.basis["decode"]) if isinstance(s.basis["decode"], dict) else {}

    def own(family: str) -> dict[str, Any]:
        """The basis of one estimate's range: its serving family's held-out width where the fit has one (the
        decode model's otherwise)."""
        return {family: decode[family]} if family in decode else decode

    out.append(est("serving_output_tokens_per_s", s.output_tokens_per_s, "tokens/s", 1, own("llm-serve"),
                   engines=engines, running=s.running, queued=queued, bound=_BOUND.get(s.bound, s.bound)))
    out.append(est("serving_requests_per_s", s.requests_per_s, "requests/s", 3, own("llm-serve"),
                   capacity=s.capacity_requests_per_s))
    if s.ttft_ms is None:
        out.append(Estimate("serving_ttft_ms", None, "ms", _m(_SERVE_SATURATED, load=load,
                                                              capacity=s.capacity_requests_per_s), at, conf))
    else:
        prefill = dict(s.basis["prefill"]) if isinstance(s.basis["prefill"], dict) else {}
        ttft_basis = prefill if "llm-serve-ttft" in prefill else {"decode": decode, "prefill": prefill}
        out.append(est("serving_ttft_ms", s.ttft_ms, "ms", 1, ttft_basis, queued=queued))
    out.append(est("serving_tpot_ms", s.tpot_ms, "ms", 2, own("llm-serve-tpot")))
    return out


def _system(ctx: Ctx, placed: list[Gpu], w: Workload) -> tp.System:
    """The rest of the build as one GPU's estimate needs it: the GPUs a parallel model spans and their link
    (NVLink, PCIe peer-to-peer, or through host memory), the host memory's bandwidth (offload)."""
    host = host_memory_bytes_per_s(ctx.r)
    if len(placed) > 1 and w.task == "infer" and w.parallel != "none":
        link, _name, path = _link(ctx, placed, min(placed, key=lambda g: g.memory_bandwidth_gbs))
        return tp.System(len(placed), link, path, host)
    return tp.System(1, None, "pcie", host)


_BOARD_LINKS = {
    "nvswitch": QT_TRANSLATE_NOOP("estimates", "NVLink ({gbs:g} GB/s per GPU, through NVSwitch)"),
    "direct": QT_TRANSLATE_NOOP("estimates", "NVLink ({gbs:g} GB/s per GPU, direct links)"),
}
_VIA_HOST = QT_TRANSLATE_NOOP("estimates", "{name} via host memory")


def _link(ctx: Ctx, placed: list[Gpu], slowest: Gpu) -> tuple[float, Message | str, str]:
    """The all-reduce link per GPU (bytes/s one way), its name (a message where it has words), and its path:
    "baseboard" (NVLink on an HGX board), "nvlink" (bridges), "host" (no peer-to-peer: through host memory)
    or "pcie"."""
    r = ctx.r
    n = len(placed)
    boards = [p for p in r.platforms if all(ic.takes_module(p, g) for g in placed)]
    if boards and all(g.form_factor != "pcie" for g in placed):
        p = boards[0]
        return ic.platform_bytes_per_s(p), _m(_BOARD_LINKS[p.topology], gbs=p.nvlink_gbs_per_gpu), "baseboard"
    if r.build.options.nvlink_bridge and all(g.nvlink for g in placed) and n <= (placed[0].nvlink_max_gpus or 2):
        return tp.link_bytes_per_s(slowest, None, None, True), "NVLink", "nvlink"
    seats = ctx.placement.seats if ctx.placement else ()
    gen = min((s.gen for s in seats), default=slowest.pcie_gen)
    lanes = min((s.lanes for s in seats), default=slowest.pcie_lanes)
    pcie = ic.pcie_bytes_per_s(gen, lanes)
    name = f"PCIe Gen{gen} x{lanes}"
    if not all(ic.has_p2p(g) for g in placed):
        return ic.host_path_bytes_per_s(pcie, host_memory_bytes_per_s(r), n), _m(_VIA_HOST, name=name), "host"
    return pcie, name, "pcie"


# The guide's RAM-1 formula multiplies by 1.2 (its margin): its range runs from the product without that margin
# to the formula's figure.
GUIDE_RAM_MARGIN = 1.2


def _ram_range(total: float, parts: Mapping[str, float], copies: int) -> tuple[float, float]:
    """The first-principles host RAM's range (no measured RAM figures: from its own terms): the OS-and-libraries
    figure (memory.HOST_BASE_GIB, a stated prior) half to one and a half times; the weights' host copies from one
    (ranks that load in turn) to all of them at once (as counted)."""
    base = parts.get("base", 0.0)
    weights = parts.get("weights", 0.0)
    low = total - base / 2 - (weights * (copies - 1) / copies if copies > 1 else 0.0)
    return round(max(low, 0.0), 2), round(total + base / 2, 2)


def _scaling_range(eff: float, fit: fitting.Fit | None) -> tuple[float | None, float | None, dict[str, Any]]:
    """A data-parallel efficiency's range: the extremes of measured / predicted efficiency over the published
    n-GPU rows with a one-GPU row of the same workload (validation.scaling_band), capped at 1."""
    band = validation.scaling_band(fit) if fit is not None else None
    if band is None:
        return round(eff / 2, 3), round(min(max(eff * 1.5, eff), 1.0), 3), {
            "family": "data-parallel scaling", "measurements": 0, "prior": True, "matched": []}
    return (round(eff * band.low_ratio, 3), round(max(min(eff * band.high_ratio, 1.0), eff), 3),
            {"family": "data-parallel scaling", "measurements": band.pairs, "origins": band.origins,
             "range_basis": "published n-GPU / one-GPU pairs (extremes of measured / predicted)", "matched": []})


# The precision the published rows of a workload's ``quant`` are labelled with (db/measurements/README.md).
QUANT_ROW_PRECISION = {"awq": "awq", "gptq": "gptq", "bnb-nf4": "nf4", "bnb-int8": "bnb-int8", "gguf-q4_k_m": "q4_k_m",
                       "gguf-q8_0": "q8_0", "torchao-int4": "int4", "torchao-int8": "int8", "fp8": "fp8",
                       "fp8-w8a8": "fp8", "exl2": "exl2"}
_FP8_PRIOR = Message("estimates", QT_TRANSLATE_NOOP(
    "estimates", "; FP8 tensor cores at twice the 16-bit rate, with the 16-bit GEMM efficiency (no published fp8 "
                 "row fitted)"))


def _weights_message(w: Workload, one: tp.Throughput, gpu: Gpu) -> Message | str:
    """The weights' format of an estimate: the quant, its kernel on this card and its bits per weight."""
    if w.quant is not None and w.task == "infer":
        k = quant_kernel(w.quant, w.effective_runtime, float(gpu.compute_capability) if gpu.compute_capability
                         else None)
        q = QUANTS[w.quant]
        return _m(QT_TRANSLATE_NOOP("estimates", "; weights {quant}, {bits:.3g} bits per weight, kernel {kernel}"),
                  quant=q.name, bits=q.bits, kernel=k.name if k else "—")
    if w.precision == "fp8":
        return _FP8_PRIOR
    return ""


def _quant_json(w: Workload, one: tp.Throughput, gpu: Gpu) -> dict[str, Any]:
    if w.quant is None or w.task != "infer":
        return {}
    k = quant_kernel(w.quant, w.effective_runtime, float(gpu.compute_capability) if gpu.compute_capability else None)
    return {"quant": w.quant, "quant_kernel": k.name if k else None,
            "quant_bits_per_weight": round(QUANTS[w.quant].bits, 3),
            "format_key": one.format_key}


def _format_rows(fit: fitting.Fit) -> dict[tuple[str, str], list[fitting.CvRow]]:
    """The fit's held-out rows (leave-one-GPU-out) by (family, weight format's kernel), worked out once per fit."""
    def compute() -> dict[tuple[str, str], list[fitting.CvRow]]:
        table: dict[tuple[str, str], list[fitting.CvRow]] = {}
        for r in fit.cv:
            c = fitting.case_for(r.m)
            key = tp.format_key(c) if c is not None else None
            if key:
                table.setdefault((r.m.family, key), []).append(r)
        return table

    return fitting.derived(fit, "rows by weight format", compute)


MIN_FORMAT_ROWS = 3  # held-out rows of a kernel below which its range is the family's


def _format_range(value: float, unit: str, family: str, key: str, fit: fitting.Fit | None,
                  fallback: tuple[float | None, float | None, dict[str, Any], Message]
                  ) -> tuple[float | None, float | None, dict[str, Any], Message]:
    """A quantised format's own error: the held-out rows (leave-one-GPU-out) of its kernel, their median error
    and, with at least MIN_FORMAT_ROWS of them, the range from their 10th–90th percentile of measured /
    predicted (never narrower than the estimate itself); with fewer, the family's range, said so."""
    low, high, basis, rng = fallback
    held = _format_rows(fit).get((family, key), []) if fit is not None else []
    origins = sorted({r.m.origin for r in held})
    errs = [abs(r.error) for r in held]
    basis = {**basis, "format": key, "format_rows": len(held), "format_origins": origins,
             "format_cv_median_error": round(statistics.median(errs), 3) if errs else None}
    if len(held) >= MIN_FORMAT_ROWS:
        ratios = [fitting.stream_value(r.m) / r.predicted for r in held]
        # to 0.1 outwards, so that the estimate (shown to 0.1) lies inside its range
        low = math.floor(min(value * fitting.quantile(ratios, 0.1), value) * 10) / 10
        high = math.ceil(max(value * fitting.quantile(ratios, 0.9), value) * 10) / 10
        basis["format_low_ratio"] = round(fitting.quantile(ratios, 0.1), 3)
        basis["format_high_ratio"] = round(fitting.quantile(ratios, 0.9), 3)
        rng = _m("{range} {own}", range=rng, own=_m(QT_TRANSLATE_NOOP(
            "estimates", "This weight format's kernel ({key}): {n} published rows ({origins}) held out by GPU, median "
                         "error {median:.0%}; its range {low:,.4g}–{high:,.4g} {unit}."),
            key=key, n=len(held), origins=", ".join(origins), median=statistics.median(errs), low=low, high=high,
            unit=unit_message(unit)))
    else:
        rng = _m("{range} {own}", range=rng, own=_m(QT_TRANSLATE_NOOP(
            "estimates", "This weight format's kernel ({key}): {n} published rows of this family, too few for a "
                         "range of its own; its efficiencies rest on their stated priors and the family's range "
                         "applies."), key=key, n=len(held)))
    return low, high, basis, rng


def _scaled(x: float | None, factor: float) -> float | None:
    return None if x is None else throughput_figure(x * factor)


def _parameters(f: tp.Factors, gpu: Gpu) -> dict[str, float]:
    """The fitted efficiencies this GPU's estimate uses (architecture deviation folded in)."""
    arch = tp.arch_family(gpu.architecture) if gpu.vendor == "nvidia" else None
    out = {}
    for k in ("tc", "pwr", "bw"):
        v = f.efficiency(k) * (f.efficiency(f"{k}@{arch}") if arch else 1.0)
        out[f"e_{k}"] = float(f"{v:.4g}")
    out["e_conv"] = float(f"{f.efficiency('conv'):.3g}")
    out["e_simt"] = float(f"{f.efficiency('simt'):.3g}")
    return out


def _software(m: Measurement) -> str:
    return m.runtime or " ".join(x for x in (m.framework, m.framework_version) if x) or "—"


_RANGE_BASIS = {validation.LOSO: Message("estimates", QT_TRANSLATE_NOOP("estimates", "leave-one-source-out")),
                validation.LOGO: Message("estimates", QT_TRANSLATE_NOOP("estimates", "leave-one-GPU-out")),
                validation.POOLED: Message("estimates", QT_TRANSLATE_NOOP(
                    "estimates", "leave-one-source-out, every family's residuals pooled: this family's own sources "
                                 "disagree"))}


def _range(value: float, unit: str, family: str, fit: fitting.Fit | None, matched: Sequence[Measurement]
           ) -> tuple[float | None, float | None, dict[str, Any], Message]:
    """The likely range from the family's held-out residuals (validation.width_for: leave-one-source-out
    where ≥ 2 origins, else leave-one-GPU-out; percentiles of measured / predicted chosen so that ≥ 80 % of
    held-out measurements fall inside), the basis, and the sentence that says both."""
    fe = fit.family(family) if fit is not None else None
    wd = validation.width_for(fit, family) if fe is not None else None
    matched_json = [{"id": m.id, "value": m.per_gpu_value, "unit": m.unit, "source_url": m.source_url,
                     "software": _software(m)} for m in matched]
    if fe is None or wd is None:
        basis: dict[str, Any] = {"family": family, "measurements": 0, "cv_median_error": None,
                                 "cv_p90_error": None, "matched": matched_json}
        low, high = value / 2, value * 2
        rng = _m(QT_TRANSLATE_NOOP(
            "estimates", "≈ {value:,.4g} {unit}, likely {low:,.4g}–{high:,.4g} (no measurements of this family: "
                         "a factor of 2 either way)."), value=value, unit=unit_message(unit), low=low, high=high)
        return throughput_figure(low), throughput_figure(high), basis, rng
    low = min(value * wd.low_ratio, value)
    high = max(value * wd.high_ratio, value)
    basis = {"family": family, "measurements": fe.measurements, "gpus": fe.gpus,
             "cv_median_error": round(fe.median, 3), "cv_p90_error": round(fe.p90, 3), "range_basis": wd.basis,
             "range_held_out": wd.rows, "range_coverage": None if wd.coverage is None else round(wd.coverage, 3),
             "matched": matched_json}
    rng = _m(QT_TRANSLATE_NOOP(
        "estimates", "≈ {value:,.4g} {unit}, likely {low:,.4g}–{high:,.4g}; {n} measurements of this family "
                     "(leave-one-GPU-out error: median {median:.0%}, 90th percentile {p90:.0%})."),
        value=value, unit=unit_message(unit), low=low, high=high, n=fe.measurements, median=fe.median, p90=fe.p90)
    if wd.coverage is not None:
        rng = _m("{range} {held}", range=rng, held=_m(QT_TRANSLATE_NOOP(
            "estimates", "The range holds {coverage:.0%} of {n} held-out measurements ({basis})."),
            coverage=wd.coverage, n=wd.rows, basis=_RANGE_BASIS[wd.basis]))
    if matched:
        m = matched[0]
        rng = _m("{range} {published}", range=rng, published=_m(QT_TRANSLATE_NOOP(
            "estimates", "Published for this GPU and workload: {value:,.4g} {unit} ({software}; {url})."),
            value=m.per_gpu_value, unit=unit_message(m.unit), software=_software(m), url=m.source_url or m.source_ref))
    return throughput_figure(low), throughput_figure(high), basis, rng


_DATA = {"real": Message("rules", QT_TRANSLATE_NOOP("rules", "real data")),
         "synthetic": Message("rules", QT_TRANSLATE_NOOP("rules", "synthetic data"))}
_UNSTATED = Message("rules", QT_TRANSLATE_NOOP("rules", "data not stated"))
_WHY_DATA = Message("rules", QT_TRANSLATE_NOOP(
    "rules", "the guide loads and augments real images on the CPU while the publication feeds synthetic data, "
             "and its software is older"))
_WHY_SOFTWARE = Message("rules", QT_TRANSLATE_NOOP(
    "rules", "different software (framework version, container, kernels)"))


def _guide_disagreements(ctx: Ctx, gpus: list[Gpu], f: tp.Factors, rows: Sequence[Measurement]) -> None:
    """EST-1: the guides' reference figures against current published measurements on the same GPU."""
    w = ctx.workload
    if w is None or f.fit is None:
        return
    fe = f.fit.family(fitting.family_of(w))
    tolerance = fe.p90 if fe is not None else 0.35
    for gpu in {g.id: g for g in gpus}.values():
        published = fitting.matches(rows, gpu.id, w, any_batch=True)
        if not published:
            continue
        for guide in fitting.matches(rows, gpu.id, w, guide=True, any_batch=True):
            pub = max(published, key=lambda m: m.per_gpu_value)
            ratio = guide.per_gpu_value / pub.per_gpu_value
            if abs(ratio - 1) <= tolerance:
                continue
            ref = guide.source_ref.split(" ", 1)[0]
            section = guide.source_ref.split("·", 1)[1].strip().split(" ")[:2] if "·" in guide.source_ref else []
            why = _WHY_DATA if guide.data != pub.data and "real" in (guide.data, pub.data) else _WHY_SOFTWARE
            ctx.add("EST-1", "info", " ".join(section) or ref, QT_TRANSLATE_NOOP(
                "rules",
                "{ref}: the guide's {guide_value:,.0f} {unit} on {gpu} ({guide_sw}, {guide_data}) is {ratio:.2f}× the "
                "{published:,.0f} {unit} published at {url} ({pub_sw}, {pub_data}); they differ by more than the "
                "model's error ({err:.0%}). Likely reason: {why}."),
                {"ref": ref, "guide": guide.per_gpu_value, "published": pub.per_gpu_value, "unit": guide.unit,
                 "ratio": round(ratio, 3), "tolerance": round(tolerance, 3), "guide_id": guide.id,
                 "published_id": pub.id, "source_url": pub.source_url},
                ref=ref, guide_value=guide.per_gpu_value, unit=unit_message(guide.unit), gpu=gpu.name,
                guide_sw=_software(guide),
                guide_data=_DATA.get(guide.data or "", _UNSTATED), ratio=ratio, published=pub.per_gpu_value,
                url=pub.source_url or pub.source_ref, pub_sw=_software(pub),
                pub_data=_DATA.get(pub.data or "", _UNSTATED), err=tolerance, why=why)
