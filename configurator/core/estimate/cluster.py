"""Data-parallel training across several identical nodes (CLU-1): a hierarchical ring all-reduce,
first inside each node over its GPU links (:mod:`configurator.core.estimate.interconnect`), then across
the nodes over the network, then back inside each node.

Per step, with S gradient bytes, g GPUs per node and N nodes:

- inside a node (reduce-scatter + all-gather of a ring): ``t_in = 2 (g − 1) / g × S / B_gpu``;
- across nodes each node's g shards (S in all) pass its one network port in a ring:
  ``t_net = 2 (N − 1) / N × S / B_net + 2 (N − 1) × k × α``, with k DDP buckets of 25 MiB (each
  all-reduced on its own) and α the latency of one hop;
- throughput = N g × one GPU × η^log2(g) × t / (t + (1 − overlap)(t_in + t_net)): on one node, exactly
  the single-build estimate (:func:`configurator.core.estimate.throughput.scaling`).

The network limits the job when the step waits longer for the all-reduce across nodes than it
computes: (1 − overlap) t_net > t.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MAX_NODES = 256  # a small cluster: more is a job for a fabric planner
BUCKET_BYTES = 25 * 1024 * 1024  # DistributedDataParallel's bucket_cap_mb default (25 MiB)

# TCP over Ethernet with a 1500-byte MTU: 1448 payload bytes (TCP with timestamps) per 1538 bytes on the wire
# (preamble 8 + Ethernet header 14 + IPv4 20 + TCP 32 + FCS 4 + inter-frame gap 12): RFC 894, RFC 7323.
TCP_PAYLOAD_SHARE = 1448 / 1538
# InfiniBand with a 4096-byte MTU: LRH 8 + BTH 12 + ICRC 4 + VCRC 2 bytes of headers per packet
# (InfiniBand Architecture Specification, Vol. 1, chapter 7).
IB_PAYLOAD_SHARE = 4096 / (4096 + 26)
# One hop's latency as NCCL sees it. Not set by the standards; an assumption of this model, stated
# where it is shown: a kernel TCP stack on a LAN (NCCL's socket transport) about 25 µs one way; RDMA
# verbs on ConnectX-6/-7 (NVIDIA's product briefs: about 1 µs at the adapter) plus NCCL's proxy, 3 µs.
TCP_HOP_S = 25e-6
IB_HOP_S = 3e-6


@dataclass(frozen=True)
class Interconnect:
    key: str
    name: str
    gbit_s: float  # the standard's data rate, one direction
    payload_share: float
    hop_s: float
    source: str

    @property
    def bytes_per_s(self) -> float:
        return self.gbit_s * 1e9 / 8 * self.payload_share


INTERCONNECTS: dict[str, Interconnect] = {i.key: i for i in (
    Interconnect("1gbe", "1 GbE", 1, TCP_PAYLOAD_SHARE, TCP_HOP_S,
                 "IEEE Std 802.3-2022, clause 40 (1000BASE-T): 1000 Mb/s"),
    Interconnect("10gbe", "10 GbE", 10, TCP_PAYLOAD_SHARE, TCP_HOP_S,
                 "IEEE Std 802.3-2022, clauses 49/55 (10GBASE-R, 10GBASE-T): 10 Gb/s"),
    Interconnect("25gbe", "25 GbE", 25, TCP_PAYLOAD_SHARE, TCP_HOP_S,
                 "IEEE Std 802.3by-2016 (25GBASE-R): 25 Gb/s"),
    Interconnect("100gbe", "100 GbE", 100, TCP_PAYLOAD_SHARE, TCP_HOP_S,
                 "IEEE Std 802.3ba-2010/802.3bj-2014 (100GBASE-R): 100 Gb/s"),
    Interconnect("ib-hdr", "InfiniBand HDR", 200, IB_PAYLOAD_SHARE, IB_HOP_S,
                 "InfiniBand Architecture Specification Vol. 2 Release 1.4 (IBTA, 2020): HDR 4x, 200 Gb/s"),
    Interconnect("ib-ndr", "InfiniBand NDR", 400, IB_PAYLOAD_SHARE, IB_HOP_S,
                 "InfiniBand Architecture Specification Vol. 2 Release 1.5 (IBTA, 2021): NDR 4x, 400 Gb/s"),
)}
INTERCONNECT_IDS = tuple(INTERCONNECTS)


@dataclass(frozen=True)
class NodeJob:
    """One node's training step, as the single-build estimate has it."""

    gpus: int  # per node
    one_gpu_rate: float  # samples/s (or tokens/s) of the slowest GPU
    step_s: float  # one GPU's compute time per step (batch / its rate)
    grad_bytes: float
    gpu_link_bytes_per_s: float | None  # the all-reduce link inside the node (None: one GPU)
    eta: float  # per-doubling data-parallel efficiency inside a node (the single-build prior)
    overlap: float  # share of the all-reduce hidden behind the backward pass


@dataclass(frozen=True)
class ClusterEstimate:
    nodes: int
    interconnect: Interconnect
    rate: float  # the whole cluster
    node_rate: float  # one node alone
    efficiency: float  # rate / (nodes × node_rate)
    step_s: float
    intra_s: float  # what the all-reduce inside a node adds to each step (after the overlap)
    network_s: float  # what the all-reduce across nodes adds
    buckets: int

    @property
    def network_bound(self) -> bool:
        return self.network_s > self.step_s


def _rate(job: NodeJob, nodes: int, net: Interconnect) -> tuple[float, float, float, int]:
    g = job.gpus
    s = job.grad_bytes
    intra = 2 * (g - 1) / g * s / job.gpu_link_bytes_per_s if g > 1 and job.gpu_link_bytes_per_s else 0.0
    buckets = max(1, math.ceil(s / BUCKET_BYTES))
    network = 0.0
    if nodes > 1:
        network = 2 * (nodes - 1) / nodes * s / net.bytes_per_s + 2 * (nodes - 1) * buckets * net.hop_s
    hidden = 1 - job.overlap
    t = job.step_s
    rate = nodes * g * job.one_gpu_rate * job.eta ** math.log2(g) * t / (t + hidden * (intra + network))
    return rate, hidden * intra, hidden * network, buckets


def estimate(job: NodeJob, nodes: int, interconnect: str) -> ClusterEstimate:
    net = INTERCONNECTS[interconnect]
    rate, intra, network, buckets = _rate(job, nodes, net)
    node_rate = _rate(job, 1, net)[0]
    return ClusterEstimate(nodes, net, rate, node_rate, rate / (nodes * node_rate) if node_rate else 0.0,
                           job.step_s, intra, network, buckets)


def enough_network(job: NodeJob, nodes: int) -> Interconnect | None:
    """The slowest interconnect on which the network would not limit the job (None: not even the fastest)."""
    for key in INTERCONNECT_IDS:
        if not estimate(job, nodes, key).network_bound:
            return INTERCONNECTS[key]
    return None
