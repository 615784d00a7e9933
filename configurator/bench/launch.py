"""Several nodes through torchrun: the rendezvous settings, the torchrun command line each node runs,
and an sbatch script for Slurm. Standard library only (the CLI prints these without torch)."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from configurator.bench.i18n import QT_TRANSLATE_NOOP

MAX_NODES = 1_024
DEFAULT_RDZV_TIMEOUT_S = 300.0  # torchrun's own default join timeout is 600 s
MAX_RDZV_TIMEOUT_S = 3_600.0
DEFAULT_PORT = 29_500  # torchrun's default master port
RDZV_ID = "configurator-ddp"  # the same on every node: one job per endpoint at a time


@dataclass(frozen=True)
class Cluster:
    """Where and how the nodes meet: ``nnodes`` machines at the c10d store ``host:port``."""

    nnodes: int
    node_rank: int
    host: str
    port: int
    timeout_s: float = DEFAULT_RDZV_TIMEOUT_S
    nproc_per_node: int = 0  # 0: one per GPU (CUDA), one on the CPU

    @property
    def endpoint(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def to_params(self) -> dict[str, object]:
        return {"nnodes": self.nnodes, "node_rank": self.node_rank, "rdzv_endpoint": self.endpoint,
                "rdzv_timeout": self.timeout_s, "nproc_per_node": self.nproc_per_node}


def parse_endpoint(text: str) -> tuple[str, int] | str:
    """``HOST:PORT`` (``[v6]:PORT``) → (host, port), or a translatable template saying what is wrong."""
    text = text.strip()
    if text.startswith("["):
        host, sep, rest = text[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else None
    else:
        host, sep, port_text = text.rpartition(":")
        if not sep:
            port_text = None
    if not host or port_text is None:
        return QT_TRANSLATE_NOOP("bench", "give HOST:PORT, e.g. node1:29500")
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65_535:
        return QT_TRANSLATE_NOOP("bench", "the port must be a number from 1 to 65535")
    return host, int(port_text)


def torchrun_argv(cluster: Cluster, nproc: int, child: list[str], python: str | None = None) -> list[str]:
    """The torchrun command one node runs: c10d rendezvous at the endpoint, fixed node count.

    c10d orders the nodes itself as they join (``--node-rank`` is only a label to it); the
    child is told our node rank separately so that node 0 is the one that reports.
    """
    t = f"{cluster.timeout_s:g}"
    return [python or sys.executable, "-m", "torch.distributed.run", f"--nnodes={cluster.nnodes}",
            f"--node-rank={cluster.node_rank}", f"--nproc-per-node={nproc}", "--rdzv-backend=c10d",
            f"--rdzv-endpoint={cluster.endpoint}", f"--rdzv-id={RDZV_ID}",
            f"--rdzv-conf=join_timeout={t},read_timeout={t}", "--max-restarts=0", *child]


def bench_argv(cluster: Cluster, device: str = "auto", extra: list[str] | None = None) -> list[str]:
    """The ``configurator bench`` command that starts one node."""
    argv = ["configurator", "bench", "--only", "ddp", "--nnodes", str(cluster.nnodes), "--node-rank",
            str(cluster.node_rank), "--rdzv-endpoint", cluster.endpoint]
    if cluster.timeout_s != DEFAULT_RDZV_TIMEOUT_S:
        argv += ["--rdzv-timeout", f"{cluster.timeout_s:g}"]
    if cluster.nproc_per_node:
        argv += ["--nproc-per-node", str(cluster.nproc_per_node)]
    if device != "auto":
        argv += ["--device", device]
    return argv + list(extra or [])


def sbatch_script(cluster: Cluster, device: str = "auto") -> str:
    """A Slurm batch script that starts one ``configurator bench`` per node; the allocation's first node
    hosts the rendezvous. ``$SLURM_NODEID`` and ``$head`` are expanded by the shell on each node."""
    nproc = cluster.nproc_per_node
    argv = bench_argv(Cluster(cluster.nnodes, 0, "HEAD", cluster.port, cluster.timeout_s, nproc), device)
    argv[argv.index("--node-rank") + 1] = '"$SLURM_NODEID"'
    argv[argv.index("--rdzv-endpoint") + 1] = f'"$head:{cluster.port}"'
    cmd = " ".join([*argv, "--no-store", "--out", '"ddp-node-$SLURM_NODEID.json"'])
    lines = ["#!/bin/bash", "#SBATCH --job-name=configurator-ddp", f"#SBATCH --nodes={cluster.nnodes}",
             "#SBATCH --ntasks-per-node=1"]
    if device != "cpu":
        lines.append(f"#SBATCH --gpus-per-node={nproc}" if nproc else "#SBATCH --exclusive")
    lines += [f"#SBATCH --time={max(5, int(cluster.timeout_s // 60) + 15)}",
              "set -euo pipefail",
              "# The first node of the allocation hosts the c10d rendezvous store.",
              'head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)',
              "export head",
              f"srun --kill-on-bad-exit=1 bash -c '{cmd}'",
              ""]
    return "\n".join(lines)
