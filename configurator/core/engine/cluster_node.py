"""The build as one node of ``build.cluster`` (CLU-1): one node's training step, handed to
:mod:`configurator.core.cluster_estimates`."""

from __future__ import annotations

from configurator.core.engine.links import allreduce_link, build_system
from configurator.core.estimate import throughput as tp
from configurator.core.estimate.power import training_draw_w
from configurator.core.findings import Estimate
from configurator.core.parts import Gpu
from configurator.core.rules.shared import Ctx


def cluster_node_estimates(ctx: Ctx, gpus: list[Gpu], total: int, f: tp.Factors,
                           estimates: list[Estimate]) -> list[Estimate]:
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
        system = build_system(ctx, gpus, w)
        slowest = min(gpus, key=lambda g: tp.single_gpu(g, w, f, system).headline(w))
        one = tp.single_gpu(slowest, w, f, system)
        link = allreduce_link(ctx, gpus, slowest)[0] if len(gpus) > 1 else None
        grad_bytes = tp.grad_bytes(w)
        job = cl.NodeJob(len(gpus), one.headline(w), w.effective_batch / one.samples_per_s, grad_bytes, link, f.eta,
                         tp.OVERLAP)
    node_total = next((e for e in estimates if e.key == "throughput_total"), None)
    return cluster_estimates(ctx, c, job, w.throughput_unit if w else "", node_total, train, total,
                             training_draw_w(r), ctx.power.peak_w)
