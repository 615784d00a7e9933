"""Data-parallel scaling: ``torchrun --standalone`` with DDP (gloo on CPU, NCCL on GPU) over
1..N processes, threads split between them; speed-up and scaling efficiency (PCI-5, PCI-7)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from configurator.bench.i18n import QT_TRANSLATE_NOOP
from configurator.bench.stats import median_iqr
from configurator.bench.workloads.common import CHILDREN, Context, Skip


def _package_root() -> str:
    return str(Path(__file__).resolve().parents[3])


def child_argv(ctx: Context, threads: int, out: Path) -> list[str]:
    p = ctx.params
    return ["-m", "configurator.bench.ddp_child", "--device", ctx.device, "--batch", str(p["batch"]),
            "--hidden", str(p["hidden"]), "--layers", str(p["layers"]), "--steps", str(p["steps"]),
            "--warmup-steps", str(p["warmup_steps"]), "--threads", str(threads), "--out", str(out)]


def launch(ctx: Context, n: int, threads: int, out: Path, argv: list[str] | None = None,
           timeout: float | None = None) -> dict[str, Any]:
    p = ctx.params
    if argv is None:
        argv = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={n}",
                *child_argv(ctx, threads, out)]
    timeout = float(p["timeout"]) if timeout is None else timeout
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(threads)
    env["PYTHONPATH"] = os.pathsep.join(x for x in (_package_root(), env.get("PYTHONPATH")) if x)
    env.setdefault("TORCHELASTIC_ERROR_FILE", str(out.with_suffix(".error.json")))
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env=env, text=True, errors="replace", start_new_session=hasattr(os, "setsid"))
    CHILDREN.append(proc)
    try:
        log, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9) if hasattr(os, "killpg") else proc.kill()
        proc.communicate()
        raise RuntimeError(f"torchrun with {n} processes did not finish within {timeout:g} s") from None
    finally:
        CHILDREN.remove(proc)
    sys.stderr.write(log[-4000:])
    data: dict[str, Any] | None = None
    if out.exists():
        try:
            data = json.loads(out.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
    if data is None and "nnodes" in p:
        from configurator.bench.workloads.multinode import cluster_of, rendezvous_failure

        rendezvous_failure(cluster_of(ctx.params), log)
    if data is None:
        tail = " | ".join(line for line in log.strip().splitlines()[-3:])
        raise RuntimeError(f"torchrun with {n} processes failed (exit code {proc.returncode}): {tail}")
    if proc.returncode != 0:
        # Rank 0 writes its file only after the last all-reduce, so the timings are complete; a rank
        # that died afterwards (at exit) does not invalidate them, but the result says so.
        data["exit_code"] = proc.returncode
    return data


def run_ddp(ctx: Context) -> None:
    t = ctx.torch
    if ctx.device not in ("cpu", "cuda"):
        raise Skip(QT_TRANSLATE_NOOP("bench", "DDP runs on CPU (gloo) or CUDA (NCCL), not on {device}"),
                   device=ctx.device)
    if not t.distributed.is_available():
        raise Skip(QT_TRANSLATE_NOOP("bench", "this torch build has no torch.distributed"))
    p = ctx.params
    if "nnodes" in p:
        from configurator.bench.workloads.multinode import run_nodes

        run_nodes(ctx)
        return
    procs = [int(n) for n in p["procs"]]
    if ctx.device == "cuda":
        procs = [n for n in procs if n <= t.cuda.device_count()] or [1]
        cores = None
    else:
        cores = int(p["threads"])
    batch = int(p["batch"])
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="configurator-ddp-") as tmp:
        for i, n in enumerate(procs):
            threads = max(1, cores // n) if cores else max(1, t.get_num_threads())
            ctx.emit.progress(i / len(procs), QT_TRANSLATE_NOOP(
                "bench", "torchrun: {n} processes × {threads} threads"), n=n, threads=threads)
            data = launch(ctx, n, threads, Path(tmp) / f"ddp-{n}.json")
            steps = [s for s in data["step_seconds"] if s > 0]
            rates = [n * batch / s for s in steps]
            med, iqr = median_iqr(rates)
            runs.append({"processes": n, "threads_per_process": threads, "samples_per_s": med, "iqr": iqr,
                         "backend": data["backend"], "steps": len(steps), "rates": rates})
    base = runs[0]["samples_per_s"]
    for r in runs:
        # On GPUs each process has its own card: the ideal is N times one. On a CPU the processes
        # share the same cores (threads are split), so the ideal is the one-process throughput.
        r["ideal_speedup"] = float(r["processes"]) if ctx.device == "cuda" else 1.0
        r["speedup"] = r["samples_per_s"] / base
        r["efficiency"] = r["speedup"] / r["ideal_speedup"]
    top = runs[-1]
    eff = [100.0 * rate / base / top["ideal_speedup"] for rate in top.pop("rates")]
    for r in runs:
        r.pop("rates", None)
    med, iqr = median_iqr(eff)
    ctx.emit.result("ddp-scaling", med, "%", med, iqr,
                    settings=ctx.settings(backend=runs[0]["backend"], procs=procs, batch_per_process=batch,
                                          global_batch=f"{batch} × processes", model=f"MLP {p['layers']}×"
                                          f"{p['hidden']}", launcher="torchrun --standalone",
                                          threads_total=cores, steps=p["steps"], warmup_steps=p["warmup_steps"]),
                    details={"runs": runs, "ideal": "N× (one GPU per process)" if ctx.device == "cuda"
                             else "1× (processes share the same cores)"})
