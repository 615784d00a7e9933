"""How the machine's throughput comes from one GPU's: data-parallel training's speed-up over the GPUs'
link (``scaling_efficiency``), and the factor (with its range) from one GPU to the machine's total."""

from __future__ import annotations

from configurator.core.build import Workload
from configurator.core.engine.links import allreduce_link
from configurator.core.engine.one_gpu import OneGpu
from configurator.core.engine.ranges import scaling_range
from configurator.core.engine.report import message as _m
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import throughput as tp
from configurator.core.findings import Estimate
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.numbers import word_message
from configurator.core.parts import Gpu
from configurator.core.rules.shared import Ctx


def scaling_estimate(ctx: Ctx, placed: list[Gpu], base: OneGpu, w: Workload,
                      f: tp.Factors) -> tuple[float, Estimate]:
    """Data-parallel training on several GPUs: the speed-up over one GPU and the ``scaling_efficiency``
    estimate that says how it comes (the gradients' all-reduce over the link the GPUs share)."""
    n = len(placed)
    link, link_name, path = allreduce_link(ctx, placed, base.gpu)
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
    eff_low, eff_high, eff_basis = scaling_range(speedup / n, f.fit)
    return speedup, Estimate(
        "scaling_efficiency", round(speedup / n, 3), "", how,
        {"gpus": n, "speedup": round(speedup, 2), "path": path,
         "link": link_name.render() if isinstance(link_name, Message) else link_name,
         "link_gbs": round(link / 1e9, 2), "grad_gb": round(grad_bytes / 1e9, 4)}, "low",
        eff_low, eff_high, eff_basis)


def total_factors(ctx: Ctx, placed: list[Gpu], base: OneGpu, w: Workload, fit: fitting.Fit | None,
                   speedup: float, stream: bool, copies: int) -> tuple[float, float, float, Message]:
    """How the machine's total comes from one GPU's figure: the factor, the factors of the range's low and high
    ends, and the sentence. Training: the scaling's speed-up (its range: the one-GPU range times the scaling
    efficiency's); a decoder's inference: the copies of the model; otherwise one batch stream per GPU."""
    n = len(placed)
    one = base.one
    low_factor = high_factor = speedup
    if w.task == "train" and n > 1:
        eff = speedup / n
        lo_e, hi_e, _b = scaling_range(eff, fit)
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
            copies=copies, k=one.model_gpus, parallel=word_message(w.parallel),
            link=allreduce_link(ctx, placed, base.gpu)[1],
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
            "estimates", "{n} GPUs, each running its own batches (independent requests)."), n=n) if n > 1 else \
            _m(QT_TRANSLATE_NOOP("estimates", "One GPU: the whole build's figure is its own."))
    if w.task != "train":
        low_factor = high_factor = factor
    return factor, low_factor, high_factor, how_total


_ADAPTERS = Message("estimates", QT_TRANSLATE_NOOP("estimates", ", LoRA adapters only"))
