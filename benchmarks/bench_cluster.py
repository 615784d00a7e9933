"""The cluster overview's refresh from a real Prometheus server, against one query round trip.

3 nodes × 8 fake GPUs (this app's exporter on the fake NVML, each posing as another node through its
``node_name``), scraped every second by a real Prometheus server (Debian's ``prometheus``) on
127.0.0.1. Measured in the same run, rounds interleaved, medians:

* baseline: one ``/api/v1/query`` round trip (``up``: the smallest answer the server gives);
* a cluster snapshot (the overview's table and the jobs' judgement: three queries and their parsing);
* the heat map's history (every GPU's utilisation over 10 minutes: one range query).

Run: ``python -m benchmarks --only cluster`` (about half a minute).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from benchmarks.common import report

NODES = 3
GPUS = 8


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def run(repeats: int = 7) -> None:
    from benchmarks.demo_cluster import PrometheusServer, fake_node
    from configurator.monitor.cluster import PrometheusCluster
    from configurator.monitor.prometheus import PrometheusClient

    nodes = [fake_node(f"node-{i + 1}", GPUS) for i in range(NODES)]
    server = PrometheusServer({"configurator": [n.exporter.url.split("/")[2] for n in nodes]})
    try:
        server.start()
        server.wait_for_targets(timeout_s=60, scrapes=3)
        client = PrometheusClient(server.url, timeout_s=5)
        cluster = PrometheusCluster(server.url, timeout_s=5)
        snap = cluster.snapshot()
        gpus = sum(len(n.gpus) for n in snap.nodes)
        if len(snap.nodes) != NODES or gpus != NODES * GPUS:
            raise RuntimeError(f"expected {NODES} nodes × {GPUS} GPUs, the server shows {len(snap.nodes)} / {gpus}")
        for _ in range(5):  # warm up both sides
            client.query("up")
            cluster.snapshot()
        rounds = max(30, 10 * repeats)
        base: list[float] = []
        snaps: list[float] = []
        hist: list[float] = []
        for _ in range(rounds):
            base.append(_time(lambda: client.query("up")))
            snaps.append(_time(cluster.snapshot))
            hist.append(_time(lambda: cluster.history(600.0)))
        h = cluster.history(600.0)
    finally:
        server.stop()
        for n in nodes:
            n.stop()
    report(f"cluster overview: {NODES} nodes × {GPUS} fake GPUs from a real Prometheus server, {rounds} rounds",
           "one /api/v1/query round trip (up)",
           [("cluster snapshot (3 queries + parse)", snaps),
            (f"heat map history, 600 s ({h.values.shape[0]}×{h.values.shape[1]}×{h.values.shape[2]})", hist)],
           base)


if __name__ == "__main__":
    run()
