"""One DDP rank, started by torchrun: trains a small MLP on synthetic data and writes the timings
to ``--out`` as JSON. Run by the ``ddp`` workload.

On one node (``torchrun --standalone``) rank 0 writes them. Across nodes (``--node-index``, c10d
rendezvous) every rank's timings and host are gathered, each node's local rank 0 writes the file,
and then (``--baseline``) the ranks of node 0 train again on their own, over a group of just
them: the one-node throughput the scaling is judged against."""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import time
from typing import Any


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--hidden", type=int, default=512)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--warmup-steps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--node-index", type=int, default=None, help="this node's rank as the user numbered it")
    ap.add_argument("--baseline", action="store_true", help="then train on node 0 alone (across nodes)")
    a = ap.parse_args()

    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    torch.set_num_threads(max(1, a.threads))
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    local = int(os.environ.get("LOCAL_RANK", rank))
    if a.device == "cuda":
        torch.cuda.set_device(local)
        device = torch.device("cuda", local)
        backend = "nccl"
    else:
        device = torch.device("cpu")
        backend = "gloo"
    dist.init_process_group(backend)
    multi = a.node_index is not None

    def train(group: Any) -> list[float]:
        torch.manual_seed(0)
        layers: list[torch.nn.Module] = []
        for _ in range(a.layers):
            layers += [torch.nn.Linear(a.hidden, a.hidden), torch.nn.ReLU()]
        model = torch.nn.Sequential(*layers, torch.nn.Linear(a.hidden, 10)).to(device)
        ddp = DistributedDataParallel(model, device_ids=[local] if a.device == "cuda" else None,
                                      process_group=group)
        opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
        gen = torch.Generator().manual_seed(rank)
        x = torch.randn(a.batch, a.hidden, generator=gen).to(device)
        y = torch.randint(0, 10, (a.batch,), generator=gen).to(device)

        def sync() -> None:
            if a.device == "cuda":
                torch.cuda.synchronize()

        def step() -> None:
            opt.zero_grad(set_to_none=True)
            loss = torch.nn.functional.cross_entropy(ddp(x), y)
            loss.backward()  # type: ignore[no-untyped-call]  # all-reduces the gradients
            opt.step()

        for _ in range(a.warmup_steps):
            step()
        sync()
        dist.barrier(group=group)
        times = []
        for _ in range(a.steps):
            sync()
            t0 = time.perf_counter()
            step()
            sync()
            times.append(time.perf_counter() - t0)
        return times

    times = train(None)
    # The slowest rank sets the pace: take each step's maximum over the ranks.
    worst = torch.tensor(times, dtype=torch.float64, device=device)
    dist.all_reduce(worst, op=dist.ReduceOp.MAX)
    data: dict[str, object] = {"world": world, "backend": backend, "batch_per_rank": a.batch, "threads": a.threads,
                               "step_seconds": worst.tolist()}
    if multi:
        me = {"rank": rank, "local_rank": local, "node": a.node_index, "host": socket.gethostname(),
              "step_seconds": times}
        ranks: list[dict[str, object]] = [{} for _ in range(world)]
        dist.all_gather_object(ranks, me)
        data.update(nnodes=int(os.environ.get("GROUP_WORLD_SIZE", "1")), ranks=ranks,
                    nproc_per_node=int(os.environ.get("LOCAL_WORLD_SIZE", "1")))
        nodes_seen = sorted({int(str(r["node"])) for r in ranks})
        if nodes_seen != list(range(int(os.environ.get("GROUP_WORLD_SIZE", "1")))):
            data["bad_node_ranks"] = nodes_seen  # two nodes were started with the same --node-rank
        elif a.baseline:
            first = sorted(int(str(r["rank"])) for r in ranks if r["node"] == 0)
            group: Any = dist.new_group(first)  # every rank takes part in making it
            if a.node_index == 0:
                solo = torch.tensor(train(group), dtype=torch.float64, device=device)
                dist.all_reduce(solo, op=dist.ReduceOp.MAX, group=group)
                data["baseline"] = {"world": len(first), "step_seconds": solo.tolist()}
    if (rank == 0 and not multi) or (multi and local == 0):
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump(data, f)
    dist.barrier()
    dist.destroy_process_group()
    # Skip interpreter teardown: gloo's background threads can abort the process there
    # ("terminate called without an active exception") after all the work is done.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
