"""DDP across nodes: torchrun's c10d rendezvous joins ``nnodes`` machines (gloo on CPU, NCCL on GPU).

Every node runs this the same way. Each reports the aggregate throughput and every rank's
(``ddp-nodes``); node 0 also trains on its own afterwards and reports the scaling efficiency
against one node (``ddp-scaling``). A node that never joins ends the run after the rendezvous
timeout, on every node, with a message that says so.
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path
from typing import Any

from configurator.bench.i18n import QT_TRANSLATE_NOOP
from configurator.bench.launch import Cluster, parse_endpoint, torchrun_argv
from configurator.bench.stats import median_iqr
from configurator.bench.workloads.common import Context, WorkloadError
from configurator.bench.workloads.ddp import child_argv, launch

# What c10d's TCP store client logs when the store it was connected to goes away (not a store never reached).
LOST_STORE = ("Failed to recv", "Connection was likely closed", "Connection reset by peer", "Broken pipe")


def cluster_of(params: dict[str, Any]) -> Cluster:
    where = parse_endpoint(str(params["rdzv_endpoint"]))
    if isinstance(where, str):
        raise WorkloadError(QT_TRANSLATE_NOOP("bench", "bad rendezvous endpoint {endpoint}"),
                     endpoint=params["rdzv_endpoint"])
    return Cluster(int(params["nnodes"]), int(params["node_rank"]), where[0], where[1],
                   float(params["rdzv_timeout"]), int(params.get("nproc_per_node") or 0))


def rendezvous_failure(c: Cluster, log: str) -> None:
    """Raise the clear reason when torchrun's log shows the nodes never met; return when it does not."""
    common = {"node": c.node_rank, "endpoint": c.endpoint, "seconds": f"{c.timeout_s:g}", "nnodes": c.nnodes}
    if "RendezvousTimeoutError" in log:
        raise WorkloadError(QT_TRANSLATE_NOOP(
            "bench", "node {node}: not all {nnodes} nodes joined the rendezvous at {endpoint} within {seconds} s; "
                     "start the same command with each other --node-rank in that time (--print-launch shows them)"),
            **common)
    if "RendezvousClosedError" in log:  # another node waited out the timeout first and closed the rendezvous
        raise WorkloadError(QT_TRANSLATE_NOOP(
            "bench", "node {node}: another node closed the rendezvous at {endpoint}: not all {nnodes} nodes joined "
                     "within {seconds} s; start the same command with each other --node-rank in that time "
                     "(--print-launch shows them)"), **common)
    if any(lost in log for lost in LOST_STORE):  # it had reached the store, and the node hosting it went away
        raise WorkloadError(QT_TRANSLATE_NOOP(
            "bench", "node {node}: the node hosting the rendezvous at {endpoint} stopped before all {nnodes} nodes "
                     "joined within {seconds} s; start the same command with each other --node-rank in that time "
                     "(--print-launch shows them)"), **common)
    if "RendezvousConnectionError" in log or "DistNetworkError" in log:
        raise WorkloadError(QT_TRANSLATE_NOOP(
            "bench", "node {node}: could not reach the rendezvous store at {endpoint} within {seconds} s; is node 0 "
                     "running, and can this node reach that address and port?"), **common)


def _rate(batch: int, ranks: int, seconds: list[float]) -> list[float]:
    return [ranks * batch / s for s in seconds if s > 0]


def run_nodes(ctx: Context) -> None:
    t, p = ctx.torch, ctx.params
    c = cluster_of(p)
    if ctx.device == "cuda":
        nproc = c.nproc_per_node or max(1, t.cuda.device_count())
        threads = max(1, t.get_num_threads())
    else:
        nproc = c.nproc_per_node or 1
        threads = max(1, int(p["threads"]) // nproc)
    batch = int(p["batch"])
    ctx.emit.progress(0.0, QT_TRANSLATE_NOOP("bench", "node {node}: waiting for {nnodes} nodes at {endpoint} "
                                                      "(up to {seconds} s)"),
                      node=c.node_rank, nnodes=c.nnodes, endpoint=c.endpoint, seconds=f"{c.timeout_s:g}")
    with tempfile.TemporaryDirectory(prefix="configurator-ddp-") as tmp:
        out = Path(tmp) / "ddp-nodes.json"
        argv = torchrun_argv(c, nproc, [*child_argv(ctx, threads, out), "--node-index", str(c.node_rank),
                                        "--baseline"])
        data = launch(ctx, nproc, threads, out, argv, timeout=c.timeout_s + float(p["timeout"]))
    world, nnodes = int(data["world"]), int(data["nnodes"])
    if "bad_node_ranks" in data:
        raise WorkloadError(QT_TRANSLATE_NOOP(
            "bench", "the {nnodes} nodes met, but their --node-rank values were {ranks}: give each of 0 to {last} "
                     "to exactly one node"), nnodes=nnodes, ranks=", ".join(map(str, data["bad_node_ranks"])),
            last=nnodes - 1)
    ranks: list[dict[str, Any]] = sorted(data["ranks"], key=lambda r: int(r["rank"]))
    agg = _rate(batch, world, data["step_seconds"])
    med, iqr = median_iqr(agg)
    per_rank = [{"rank": r["rank"], "node": r["node"], "local_rank": r["local_rank"], "host": r["host"],
                 "samples_per_s": statistics.median(_rate(batch, 1, r["step_seconds"]) or [0.0])} for r in ranks]
    per_node: dict[int, float] = {}
    for r in per_rank:
        per_node[int(r["node"])] = per_node.get(int(r["node"]), 0.0) + float(r["samples_per_s"])
    hosts = sorted({str(r["host"]) for r in ranks})
    settings = ctx.settings(backend=data["backend"], nnodes=nnodes, nproc_per_node=data["nproc_per_node"],
                            world=world, batch_per_process=batch, global_batch=world * batch,
                            model=f"MLP {p['layers']}×{p['hidden']}", launcher="torchrun c10d",
                            rdzv_endpoint=c.endpoint, node_rank=c.node_rank, threads_per_process=threads,
                            steps=p["steps"], warmup_steps=p["warmup_steps"])
    ctx.emit.result("ddp-nodes", med, "samples/s", med, iqr, settings=settings,
                    details={"ranks": per_rank, "nodes": [{"node": n, "samples_per_s": v}
                                                          for n, v in sorted(per_node.items())],
                             "hosts": hosts})
    base = data.get("baseline")
    if c.node_rank != 0 or not base:
        ctx.emit.skipped("ddp-scaling", QT_TRANSLATE_NOOP("bench", "node 0 reports the scaling against one node"))
        return
    one = _rate(batch, int(base["world"]), base["step_seconds"])
    one_med, one_iqr = median_iqr(one)
    eff = [100.0 * r / (nnodes * one_med) for r in agg]
    e_med, e_iqr = median_iqr(eff)
    runs = [{"processes": int(base["world"]), "nodes": 1, "samples_per_s": one_med, "iqr": one_iqr,
             "speedup": 1.0, "ideal_speedup": 1.0, "efficiency": 1.0, "backend": data["backend"],
             "threads_per_process": threads, "steps": len(one)},
            {"processes": world, "nodes": nnodes, "samples_per_s": med, "iqr": iqr, "speedup": med / one_med,
             "ideal_speedup": float(nnodes), "efficiency": med / one_med / nnodes, "backend": data["backend"],
             "threads_per_process": threads, "steps": len(agg)}]
    shared = len(hosts) < nnodes
    ctx.emit.result("ddp-scaling", e_med, "%", e_med, e_iqr, settings=settings,
                    details={"runs": runs, "ranks": per_rank,
                             "ideal": "N× one node (the nodes share one machine here)" if shared
                             else "N× one node"})
