"""The planner's figures for a build that is one node of a small cluster (``"cluster"`` in the build
file): throughput across the nodes, its scaling efficiency, price and power in all, and CLU-1.
The model is :mod:`configurator.core.estimate.cluster`; this module words it. No Qt."""

from __future__ import annotations

from typing import Any

from configurator.core.build import Cluster
from configurator.core.estimate import cluster as cl
from configurator.core.estimate import validation
from configurator.core.findings import Estimate
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.numbers import unit_message
from configurator.core.rules.shared import Ctx

CLUSTER_KEYS = ("cluster_throughput", "cluster_scaling_efficiency", "cluster_price_cny", "cluster_power_w")


def _m(template: str, **params: Any) -> Message:
    return Message("estimates", template, params)


def _net(net: cl.Interconnect) -> Message:
    return _m(QT_TRANSLATE_NOOP("estimates", "{name} ({gbit:g} Gb/s, {gbs:.2f} GB/s of payload, {hop:g} µs per hop; "
                                             "{source})"),
              name=net.name, gbit=net.gbit_s, gbs=net.bytes_per_s / 1e9, hop=net.hop_s * 1e6, source=net.source)


def cluster_estimates(ctx: Ctx, cluster: Cluster, job: cl.NodeJob | None, unit: str, node_total: Estimate | None,
                      train: bool, price_cny: int, draw_w: float, peak_w: float) -> list[Estimate]:
    """The cluster's estimates; adds CLU-1 to ``ctx``. ``job`` None: no GPU training step to scale."""
    n = cluster.nodes
    net = cl.INTERCONNECTS[cluster.interconnect]
    out: list[Estimate] = []
    if node_total is not None and node_total.value:
        node_rate = float(node_total.value)
        if job is not None and train:
            e = cl.estimate(job, n, cluster.interconnect)
            rate = e.rate
            how = _m(QT_TRANSLATE_NOOP(
                "estimates",
                "{n} nodes × {g} GPUs, data parallel: a ring all-reduce of {grad:,.0f} MB of gradients inside each "
                "node ({intra:.1f} ms per step after overlap), then across the nodes over {net}: {network:.1f} ms "
                "({buckets} buckets of 25 MiB), and inside again; {step:.1f} ms of compute per step. The network: "
                "one port per node, NCCL over TCP on Ethernet and RDMA on InfiniBand."),
                n=n, g=job.gpus, grad=job.grad_bytes / 1e6, intra=e.intra_s * 1e3, net=_net(net),
                network=e.network_s * 1e3, buckets=e.buckets, step=e.step_s * 1e3)
            efficiency = e.efficiency
            inputs: dict[str, Any] = {
                "nodes": n, "gpus_per_node": job.gpus, "interconnect": net.key, "network_gbs": round(
                    net.bytes_per_s / 1e9, 3), "hop_us": net.hop_s * 1e6, "step_ms": round(e.step_s * 1e3, 3),
                "intra_ms": round(e.intra_s * 1e3, 3), "network_ms": round(e.network_s * 1e3, 3),
                "network_bound": e.network_bound, "source": net.source}
            _clu1(ctx, job, e, n)
        else:
            rate, efficiency = n * node_rate, 1.0
            how = _m(QT_TRANSLATE_NOOP("estimates", "{n} nodes, each serving its own requests: nothing is "
                                                    "exchanged between them."), n=n)
            inputs = {"nodes": n, "interconnect": net.key, "network_bound": False}
        factor = rate / node_rate
        out.append(Estimate("cluster_throughput", round(rate, 1), unit, how, inputs, "low",
                            None if node_total.low is None else round(node_total.low * factor, 2),
                            None if node_total.high is None else round(node_total.high * factor, 2),
                            node_total.basis))
        # its range: measured / predicted data-parallel efficiency over the published n-GPU rows (the node's own
        # scaling model's basis, validation.scaling_band); the network model across nodes has no measurements
        band = validation.scaling_band() if train and job is not None else None
        lo_c = round(efficiency * band.low_ratio, 3) if band else round(efficiency, 3)
        hi_c = round(max(min(efficiency * band.high_ratio, 1.0), efficiency), 3) if band else round(efficiency, 3)
        out.append(Estimate(
            "cluster_scaling_efficiency", round(efficiency, 3), "",
            _m(QT_TRANSLATE_NOOP("estimates", "The cluster's throughput ÷ ({n} × one node's {node:,.1f} {unit})."),
               n=n, node=node_rate, unit=unit_message(unit)), {"nodes": n, "node_throughput": node_rate}, "low",
            lo_c, hi_c, {"family": "data-parallel scaling", "measurements": band.pairs if band else 0,
                         "prior": band is None, "matched": []}))
    out.append(Estimate(
        "cluster_price_cny", n * price_cny, "CNY",
        _m(QT_TRANSLATE_NOOP("estimates", "{n} × this build's ¥{each:,}; network adapters, switch and cables are "
                                          "not counted."), n=n, each=price_cny),
        {"nodes": n, "per_node_cny": price_cny}, "medium"))
    out.append(Estimate(
        "cluster_power_w", round(n * draw_w), "W",
        _m(QT_TRANSLATE_NOOP("estimates", "{n} × {each:,.0f} W while training; peak {peak:,.0f} W per node, "
                                          "{peak_all:,.0f} W in all (the network switch not counted)."),
           n=n, each=draw_w, peak=peak_w, peak_all=n * peak_w),
        {"nodes": n, "per_node_w": draw_w, "peak_per_node_w": peak_w, "peak_w": n * peak_w}, "medium"))
    return out


def _clu1(ctx: Ctx, job: cl.NodeJob, e: cl.ClusterEstimate, n: int) -> None:
    if n < 2:
        return
    numbers = {"nodes": n, "interconnect": e.interconnect.key, "efficiency": round(e.efficiency, 3),
               "step_ms": round(e.step_s * 1e3, 3), "network_ms": round(e.network_s * 1e3, 3)}
    if not e.network_bound:
        ctx.add("CLU-1", "info", "first principles", QT_TRANSLATE_NOOP(
            "rules", "Across {n} nodes over {net}, scaling efficiency about {eff:.0%}: the all-reduce across nodes "
                     "adds {network:.1f} ms to each {step:.1f} ms step."), numbers,
            n=n, net=e.interconnect.name, eff=e.efficiency, network=e.network_s * 1e3, step=e.step_s * 1e3)
        return
    better = cl.enough_network(job, n)
    if better is not None:
        b = cl.estimate(job, n, better.key)
        numbers.update(enough=better.key, enough_efficiency=round(b.efficiency, 3))
        fix = Message("rules", QT_TRANSLATE_NOOP("rules", " {better} would bring it to about {eff:.0%}."),
                      {"better": better.name, "eff": b.efficiency})
    else:
        fix = Message("rules", QT_TRANSLATE_NOOP(
            "rules", " Even the fastest network listed would limit it: use fewer, larger nodes, a larger batch per "
                     "GPU, or gradient accumulation."), {})
    ctx.add("CLU-1", "warning", "first principles", QT_TRANSLATE_NOOP(
        "rules", "The network, not the GPUs, limits this job: over {net} each step waits {network:.0f} ms for the "
                 "all-reduce across {n} nodes and computes for {step:.0f} ms, so the cluster scales to about {eff:.0%} "
                 "of {n} nodes.{fix}"), numbers,
        net=e.interconnect.name, network=e.network_s * 1e3, n=n, step=e.step_s * 1e3, eff=e.efficiency, fix=fix)
