"""``configurator bench --only ddp --nnodes N --node-rank R --rdzv-endpoint HOST:PORT``: the DDP workload
across machines through torchrun's c10d rendezvous, and ``--print-launch`` (the command for each node,
the torchrun command it runs, and an sbatch script)."""

from __future__ import annotations

import argparse
import math
import shlex
from typing import TYPE_CHECKING

from configurator.bench.launch import (
    DEFAULT_RDZV_TIMEOUT_S,
    MAX_NODES,
    MAX_RDZV_TIMEOUT_S,
    Cluster,
    bench_argv,
    parse_endpoint,
    sbatch_script,
    torchrun_argv,
)
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message

if TYPE_CHECKING:
    from configurator.bench.results import RunRecord
    from configurator.cli.context import Cli

MAX_NPROC = 64  # processes on one node: more than the GPUs of any one machine


def add_arguments(b: argparse.ArgumentParser) -> None:
    g = b.add_argument_group("several nodes (the ddp workload through torchrun)")
    g.add_argument("--nnodes", type=int, metavar="N", help="how many machines take part (start each the same way)")
    g.add_argument("--node-rank", type=int, metavar="R", help="this machine's number, 0 to N-1; node 0 reports")
    g.add_argument("--rdzv-endpoint", metavar="HOST:PORT", help="where the nodes meet: node 0's address and a free "
                                                               "port (torchrun's c10d rendezvous)")
    g.add_argument("--rdzv-timeout", type=float, default=DEFAULT_RDZV_TIMEOUT_S, metavar="S",
                   help=f"seconds to wait for every node to join (default {DEFAULT_RDZV_TIMEOUT_S:g})")
    g.add_argument("--nproc-per-node", type=int, default=0, metavar="P",
                   help="processes on each node (default: one per GPU; one on the CPU)")
    g.add_argument("--print-launch", action="store_true",
                   help="print the command for each node and an sbatch script, and run nothing")


def cluster_from_args(cli: Cli, jobs: list[str] | None, errors: list[tuple[str, str]]) -> Cluster | None:
    """The cluster the arguments describe (None: one machine); problems go into ``errors``."""
    a = cli.args
    given = a.nnodes is not None or a.node_rank is not None or a.rdzv_endpoint is not None or a.print_launch
    if not given:
        return None
    n = len(errors)
    if a.nnodes is None:
        errors.append(("--nnodes", cli.say(QT_TRANSLATE_NOOP("cli", "say how many nodes take part"))))
    elif not 1 <= a.nnodes <= MAX_NODES:
        errors.append(("--nnodes", cli.say(QT_TRANSLATE_NOOP("cli", "must be from 1 to {high:,}"), high=MAX_NODES)))
    if a.node_rank is None and not a.print_launch:
        errors.append(("--node-rank", cli.say(QT_TRANSLATE_NOOP("cli", "say which node this is (0 to N-1)"))))
    elif a.node_rank is not None and a.nnodes is not None and 1 <= a.nnodes <= MAX_NODES \
            and not 0 <= a.node_rank < a.nnodes:
        errors.append(("--node-rank", cli.say(QT_TRANSLATE_NOOP("cli", "must be from 0 to {high} (--nnodes {n})"),
                                              high=a.nnodes - 1, n=a.nnodes)))
    where: tuple[str, int] | None = None
    if a.rdzv_endpoint is None:
        errors.append(("--rdzv-endpoint", cli.say(QT_TRANSLATE_NOOP(
            "cli", "say where the nodes meet: HOST:PORT of node 0, e.g. node1:29500"))))
    else:
        parsed = parse_endpoint(a.rdzv_endpoint)
        if isinstance(parsed, str):
            errors.append(("--rdzv-endpoint", cli.render(Message("bench", parsed))))
        else:
            where = parsed
    if not (math.isfinite(a.rdzv_timeout) and 1 <= a.rdzv_timeout <= MAX_RDZV_TIMEOUT_S):
        errors.append(("--rdzv-timeout", cli.say(QT_TRANSLATE_NOOP("cli", "must be from 1 to {high:g} seconds"),
                                                 high=MAX_RDZV_TIMEOUT_S)))
    if not 0 <= a.nproc_per_node <= MAX_NPROC:
        errors.append(("--nproc-per-node", cli.say(QT_TRANSLATE_NOOP("cli", "must be from 0 (automatic) to {high}"),
                                                   high=MAX_NPROC)))
    if jobs is not None and jobs != ["ddp"] and not a.print_launch:
        errors.append(("--only", cli.say(QT_TRANSLATE_NOOP("cli", "across nodes only the ddp workload runs: give "
                                                                  "--only ddp"))))
    elif jobs is None and not a.print_launch:
        errors.append(("--nnodes", cli.say(QT_TRANSLATE_NOOP("cli", "runs the ddp workload only: add --only ddp"))))
    if len(errors) > n or where is None:
        return None
    return Cluster(a.nnodes, a.node_rank or 0, where[0], where[1], a.rdzv_timeout, a.nproc_per_node)


def print_launch(cli: Cli, cluster: Cluster, device: str) -> None:
    """What to start on each node, the torchrun command that runs there, and a Slurm batch script."""
    nproc = cluster.nproc_per_node or ("1" if device == "cpu" else "<GPUs per node>")
    child = ["-m", "configurator.bench.ddp_child", "--device", "cpu" if device == "cpu" else "cuda", "..."]
    for r in range(cluster.nnodes):
        node = Cluster(cluster.nnodes, r, cluster.host, cluster.port, cluster.timeout_s, cluster.nproc_per_node)
        print(cli.say(QT_TRANSLATE_NOOP("cli", "# node {rank}{host}"), rank=r,
                      host=cli.say(QT_TRANSLATE_NOOP("cli", " (hosts the rendezvous at {endpoint})"),
                                   endpoint=cluster.endpoint) if r == 0 else ""))
        print(shlex.join(bench_argv(node, device)))
        argv = torchrun_argv(node, 0, [*child, "--node-index", str(r), "--baseline"], python="python")
        argv = [f"--nproc-per-node={nproc}" if x.startswith("--nproc-per-node=") else x for x in argv]
        print(cli.say(QT_TRANSLATE_NOOP("cli", "#   which runs: {command}"), command=shlex.join(argv)))
        if r >= 3 and cluster.nnodes > 5:
            print(cli.say(QT_TRANSLATE_NOOP("cli", "# … and so on to node {last}"), last=cluster.nnodes - 1))
            break
    print()
    print(cli.say(QT_TRANSLATE_NOOP("cli", "# Slurm: save as ddp.sbatch and run `sbatch ddp.sbatch`")))
    print(sbatch_script(cluster, device), end="")


def print_ranks(cli: Cli, record: RunRecord) -> None:
    """After the table of a run across nodes: each node's and each rank's throughput, and on node 0 the
    one-node run the scaling is judged against."""
    row = record.row("ddp-nodes")
    if row is None or row.status != "ok" or not row.details.get("ranks"):
        return
    s = row.settings
    print(cli.say(QT_TRANSLATE_NOOP("cli", "Across {nnodes} nodes ({backend}, {world} processes): {nodes}"),
                  nnodes=s.get("nnodes", "?"), backend=s.get("backend", "?"), world=s.get("world", "?"),
                  nodes=", ".join(cli.say(QT_TRANSLATE_NOOP("cli", "node {node} {rate:,.0f} samples/s"),
                                          node=n["node"], rate=n["samples_per_s"])
                                  for n in row.details.get("nodes", []))))
    for r in row.details["ranks"]:
        print(cli.say(QT_TRANSLATE_NOOP("cli", "  rank {rank} (node {node}, {host}, local rank {local}): "
                                               "{rate:,.0f} samples/s"),
                      rank=r["rank"], node=r["node"], host=r["host"], local=r["local_rank"], rate=r["samples_per_s"]))
    scaling = record.row("ddp-scaling")
    runs = scaling.details.get("runs", []) if scaling is not None and scaling.status == "ok" else []
    if len(runs) == 2:
        one, all_ = runs
        shared = len(row.details.get("hosts", [])) < int(all_["nodes"])
        print(cli.say(QT_TRANSLATE_NOOP(
            "cli", "Node 0 alone: {one:,.0f} samples/s; all {nnodes} nodes: {all:,.0f} samples/s, {speedup:.2f}× "
                   "of an ideal {ideal:g}×{shared}"),
            one=one["samples_per_s"], nnodes=all_["nodes"], all=all_["samples_per_s"], speedup=all_["speedup"],
            ideal=all_["ideal_speedup"], shared=cli.say(QT_TRANSLATE_NOOP(
                "cli", " (the nodes share one machine here: not a measure of the network)")) if shared else ""))
