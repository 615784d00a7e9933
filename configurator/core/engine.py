"""The planner engine: a build and the catalogue in, findings and estimates out.

One engine serves the planner tab, the PDF sheet and ``configurator check``; the UI never
computes a rule itself. No Qt, no database: the caller hands over the catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from configurator.core.build import Build, Resolved, resolve
from configurator.core.estimate import throughput as tp
from configurator.core.estimate.memory import (
    ACTIVATION_ERROR,
    CUDA_CONTEXT_GIB,
    DISPLAY_GIB,
    FRAGMENTATION,
    GIB,
    host_ram,
    largest_batch,
    verdict,
    vram_per_gpu,
)
from configurator.core.estimate.power import estimate_power, training_draw_w
from configurator.core.findings import SEVERITY_ORDER, Estimate, Finding
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message, Translate
from configurator.core.parts import AnyPart, Gpu
from configurator.core.pcie import place
from configurator.core.rules import budget_power, hardware, platform
from configurator.core.rules.context import Ctx


@dataclass(frozen=True)
class Report:
    build: Build
    total_cny: int
    findings: tuple[Finding, ...]
    estimates: tuple[Estimate, ...]

    @property
    def ok(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)

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
            "findings": [f.to_json(translate) for f in self.findings],
            "estimates": [e.to_json(translate) for e in self.estimates],
        }


_CKPT = Message("estimates", QT_TRANSLATE_NOOP("estimates", ", checkpointing"))
_VERDICT = {"fits": Message("estimates", QT_TRANSLATE_NOOP("estimates", "fits")),
            "tight": Message("estimates", QT_TRANSLATE_NOOP("estimates", "tight")),
            "does_not_fit": Message("estimates", QT_TRANSLATE_NOOP("estimates", "does not fit"))}
_DISPLAY = QT_TRANSLATE_NOOP("estimates", ", {lo:g}–{hi:g} GiB for the display")


# Words of the throughput sentence, translated where it is shown.
_BOUND = {"compute": Message("estimates", QT_TRANSLATE_NOOP("estimates", "compute")),
          "memory": Message("estimates", QT_TRANSLATE_NOOP("estimates", "memory"))}
_UNITS = {"tensor": Message("estimates", QT_TRANSLATE_NOOP("estimates", "tensor")),
          "simt": Message("estimates", QT_TRANSLATE_NOOP("estimates", "shader (SIMT)")),
          "cpu": Message("estimates", QT_TRANSLATE_NOOP("estimates", "CPU"))}


def _m(template: str, **params: Any) -> Message:
    return Message("estimates", template, params)


def usable_gpus(r: Resolved) -> list[Gpu]:
    """GPUs PyTorch can use: NVIDIA cards and AMD cards that current ROCm supports."""
    return [g for g in r.gpu_list if g.vendor == "nvidia" or g.rocm_supported]


def check(build: Build, catalogue: Mapping[str, AnyPart]) -> Report:
    r = resolve(build, catalogue)
    power = estimate_power(r)
    board = r.board
    cpu = r.cpu
    placement = place(r.gpu_list, board, cpu.pcie_gen if cpu else None, None) if board and r.gpu_list else None
    w = build.workload
    gpus = usable_gpus(r)
    n = len(gpus)
    vram = vram_per_gpu(w, n, display_gpu=build.options.display_gpu) if w is not None and gpus else None
    ram = host_ram(w, n) if w is not None else None
    ctx = Ctx(r, power, placement, vram, ram)

    budget_power.budget(ctx)
    budget_power.power(ctx)
    platform.pcie(ctx)
    platform.compat(ctx)
    hardware.software(ctx)
    hardware.gpu(ctx)
    hardware.cpu(ctx)
    hardware.memory(ctx)
    hardware.storage(ctx)
    hardware.fit(ctx, n)

    total = budget_power.total_cny(ctx)
    estimates = _estimates(ctx, gpus, total)
    main = next((e for e in estimates if e.key in ("throughput_total", "throughput_cpu")), None)
    if main is not None and main.value:
        budget_power.per_watt(ctx, main.value, main.unit)
    findings = sorted(ctx.findings, key=lambda f: SEVERITY_ORDER[f.severity])
    return Report(build, total, tuple(findings), tuple(estimates))


def _estimates(ctx: Ctx, gpus: list[Gpu], total: int) -> list[Estimate]:
    r = ctx.r
    p = ctx.power
    out = [
        Estimate("peak_power_w", p.peak_w, "W", p.formula,
                 {"gpu_w": p.gpu_w, "cpu_w": p.cpu_w, "platform_w": p.platform_w, "transient_w": p.transient_w},
                 "medium"),
        Estimate("training_draw_w", training_draw_w(r), "W",
                 _m(QT_TRANSLATE_NOOP(
                     "estimates",
                     "GPUs at board power + CPU at TDP + platform: the average draw while training.")),
                 {}, "medium"),
    ]
    w = r.build.workload
    if w is None:
        return out
    spec = w.spec()
    f = tp.FACTORS
    unit = w.throughput_unit
    if gpus and ctx.vram is not None:
        # VRAM/RAM estimate block (FIT-1): the central figure, its range and what is and is not counted
        vram = ctx.vram
        smallest = min(g.vram_gb for g in gpus)
        display = r.build.options.display_gpu
        out.append(Estimate(
            "vram_per_gpu_gib", round(vram.total / GIB, 2), "GiB",
            _m(QT_TRANSLATE_NOOP(
                "estimates",
                "{low:.1f}–{high:.1f} GiB ({verdict} in {vram} GiB). Counted: weights, gradients, optimizer "
                "states (sharded by {sharding}, fine-tuning {finetune}, offload {offload}), the tensors autograd "
                "saves at batch {batch} ({precision}{ckpt}, {attention} attention), autocast's weight copies, "
                "logits and the loss's gradients, KV cache, {ctx:g} GiB CUDA context, {frag:.0%} allocator "
                "margin{display}. Range: saved tensors ±{err:.0%} (the validation against PyTorch), allocator "
                "0–25 %, context {ctx_low:g}–{ctx_high:g} GiB. Not counted: cuDNN benchmark workspaces, NCCL "
                "buffers, other processes."),
               low=vram.low / GIB, high=vram.high / GIB, verdict=_VERDICT[verdict(vram, smallest)],
               vram=smallest, sharding=w.sharding, finetune=w.finetune, offload=w.offload,
               batch=w.effective_batch, precision=w.precision, ckpt=_CKPT if w.grad_checkpointing else "",
               attention=w.attention, ctx=CUDA_CONTEXT_GIB[1], frag=FRAGMENTATION[1],
               display=_m(_DISPLAY, lo=DISPLAY_GIB[0], hi=DISPLAY_GIB[2]) if display else "",
               err=ACTIVATION_ERROR, ctx_low=CUDA_CONTEXT_GIB[0], ctx_high=CUDA_CONTEXT_GIB[2]),
            {**vram.gib(), "verdict": verdict(vram, smallest), "parallel": w.parallel}, "medium"))
        out.append(Estimate(
            "largest_batch", largest_batch(w, len(gpus), smallest, display), "samples",
            _m(QT_TRANSLATE_NOOP(
                "estimates",
                "Largest per-GPU batch whose estimate fits {vram} GiB even at the high end of its range.",
            ), vram=smallest),
            {"vram_gib": smallest}, "medium"))
    if ctx.ram is not None:
        out.append(Estimate("ram_first_principles_gib", ctx.ram.first_principles_gib, "GiB",
                            _m(QT_TRANSLATE_NOOP(
                                "estimates",
                                "First principles: OS and libraries + a host copy of the weights per process + "
                                "DataLoader prefetch (4 workers × 2 batches per GPU).")),
                            ctx.ram.parts, "medium"))
        out.append(Estimate("ram_guide_formula_gib", ctx.ram.guide_gib, "GiB",
                            _m(QT_TRANSLATE_NOOP(
                                "estimates",
                                "The guide's RAM-1 formula: params × batch × 4 B × 1.2, halved for mixed precision "
                                "(G 三.2).")),
                            {"params": spec.params, "batch": w.effective_batch}, "low"))
    assumes = _m(QT_TRANSLATE_NOOP(
        "estimates",
        "Eager PyTorch, default flags (cuDNN TF32 on, matmul TF32 off), channels_last with AMP; roofline with "
        "efficiency factors calibrated on REF-1..3."))  # a Message: translated where it is shown
    placed = gpus
    if ctx.placement is not None:
        seated = {id(s.gpu) for s in ctx.placement.seats}
        placed = [g for g in gpus if id(g) in seated] or gpus
    if placed:
        slowest = min(placed, key=lambda g: tp.single_gpu(g, w, f).headline(w))
        one = tp.single_gpu(slowest, w, f)
        value = one.headline(w)
        out.append(Estimate(
            "throughput_one_gpu", round(value, 1), unit,
            _m(QT_TRANSLATE_NOOP("estimates", "{gpu}: {bound}-bound on {units} cores ({precision}). {assumes}"),
               gpu=slowest.name, bound=_BOUND.get(one.bound, one.bound), units=_UNITS.get(one.path, one.path),
               precision=w.precision, assumes=assumes),
            {"e_tc": round(f.e_tc, 3), "e_simt": round(f.e_simt, 3), "path": one.path}, "low"))
        if spec.decoder and w.task == "infer":
            out.append(Estimate("prefill_tokens_per_s", round(one.tokens_per_s or 0, 1), "tokens/s",
                                _m(QT_TRANSLATE_NOOP(
                                    "estimates",
                                    "Prompt processing (prefill), compute-bound: 2 × params + attention FLOPs per "
                                    "token.")), {}, "low"))
        n = len(placed)
        speedup = 1.0
        link_name = "—"
        if n > 1 and w.task == "train":
            bridge = r.build.options.nvlink_bridge and all(g.nvlink for g in placed) and \
                n <= (placed[0].nvlink_max_gpus or 2)
            seats = ctx.placement.seats if ctx.placement else ()
            gen = min((s.gen for s in seats), default=None)
            lanes = min((s.lanes for s in seats), default=None)
            link = tp.link_bytes_per_s(slowest, gen, lanes, bridge)
            link_name = "NVLink" if bridge else f"PCIe Gen{gen or slowest.pcie_gen} x{lanes or slowest.pcie_lanes}"
            grad_bytes = spec.params * (4 if w.precision in ("fp32", "amp") else 2)
            speedup = tp.scaling(n, w.effective_batch / one.samples_per_s, grad_bytes, link, f)
            out.append(Estimate(
                "scaling_efficiency", round(speedup / n, 3), "",
                _m(QT_TRANSLATE_NOOP(
                    "estimates",
                    "{n} GPUs over {link}: speed-up {s:.2f}× = n × η^log2(n) × t / (t + half the ring all-reduce "
                    "time), η = {eta:.3f} calibrated on REF-1."),
                   n=n, link=link_name, s=speedup, eta=f.eta),
                {"gpus": n, "speedup": round(speedup, 2), "link": link_name}, "low"))
        total_value = value * speedup if w.task == "train" else value * n
        out.append(Estimate(
            "throughput_total", round(total_value, 1), unit,
            _m(QT_TRANSLATE_NOOP("estimates", "{n} × one GPU × scaling efficiency."), n=n), {"gpus": n}, "low"))
        if total:
            out.append(Estimate("throughput_per_kcny", round(total_value / total * 1000, 2), f"{unit} per ¥1000",
                                _m(QT_TRANSLATE_NOOP(
                                    "estimates",
                                    "Throughput ÷ build price.")), {"total_cny": total}, "low"))
    cpu = r.cpu
    if cpu is not None:
        mts = min((m.speed_mts for m, _q in r.memory), default=cpu.memory_max_mts) or cpu.memory_max_mts
        mts = min(mts, cpu.memory_max_mts) if cpu.memory_max_mts else mts
        bandwidth = cpu.memory_channels * mts * 1e6 * 8 * max(r.cpu_count, 1)
        c = tp.cpu_only(cpu, max(r.cpu_count, 1), bandwidth, w)
        value = c.headline(w)
        out.append(Estimate(
            "throughput_cpu", round(value, 2), unit,
            _m(QT_TRANSLATE_NOOP(
                "estimates",
                "CPU alone: {cores} cores × {lanes} FP32 lanes × 2 FMA units × 2 FLOPs × {ghz:.2f} GHz = "
                "{peak:.2f} TFLOPS peak, {eff:.0%} reached (prior, not calibrated)."),
               cores=cpu.cores * max(r.cpu_count, 1), lanes=16 if cpu.avx512 else 8,
               ghz=(cpu.base_ghz + cpu.boost_ghz) / 2, peak=tp.cpu_peak_flops(cpu, max(r.cpu_count, 1)) / 1e12,
               eff=tp.E_CPU),
            {"memory_bandwidth_gbs": round(bandwidth / 1e9, 1)}, "low"))
    return out
