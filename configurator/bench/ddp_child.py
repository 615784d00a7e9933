"""One DDP rank, started by ``torchrun --standalone``: trains a small MLP on synthetic data
and (rank 0) writes its timings to ``--out`` as JSON. Run by the ``ddp`` workload."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


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
    torch.manual_seed(0)
    layers: list[torch.nn.Module] = []
    for _ in range(a.layers):
        layers += [torch.nn.Linear(a.hidden, a.hidden), torch.nn.ReLU()]
    model = torch.nn.Sequential(*layers, torch.nn.Linear(a.hidden, 10)).to(device)
    ddp = DistributedDataParallel(model, device_ids=[local] if a.device == "cuda" else None)
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
    dist.barrier()
    times = []
    for _ in range(a.steps):
        sync()
        t0 = time.perf_counter()
        step()
        sync()
        times.append(time.perf_counter() - t0)
    # The slowest rank sets the pace: take each step's maximum over the ranks.
    worst = torch.tensor(times, dtype=torch.float64)
    dist.all_reduce(worst, op=dist.ReduceOp.MAX)
    if rank == 0:
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump({"world": world, "backend": backend, "batch_per_rank": a.batch, "threads": a.threads,
                       "step_seconds": worst.tolist()}, f)
    dist.barrier()
    dist.destroy_process_group()
    # Skip interpreter teardown: gloo's background threads can abort the process there
    # ("terminate called without an active exception") after all the work is done.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
