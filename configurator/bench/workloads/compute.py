"""Matmul throughput per dtype, device memory bandwidth, host↔device copies, VRAM pattern test."""

from __future__ import annotations

import statistics
import time
from typing import Any

from configurator.bench.i18n import QT_TRANSLATE_NOOP
from configurator.bench.stats import calibrate, median_iqr
from configurator.bench.workloads.common import Context, Skip, timing_details
from configurator.host.gpu import nvidia_smi, pcie_expected_gbps

DTYPES = {"fp32": "float32", "tf32": "float32", "fp16": "float16", "bf16": "bfloat16"}


def _dtype_support(ctx: Context, name: str) -> None:
    """Raise Skip when ``name`` is not supported (natively) on this device."""
    t = ctx.torch
    if ctx.device == "cuda":
        cap = ctx.gpu_capability() or (0, 0)
        if name == "tf32" and cap < (8, 0):
            raise Skip(QT_TRANSLATE_NOOP("bench", "TF32 needs compute capability 8.0 or later (this GPU: {cap})"),
                       cap=f"{cap[0]}.{cap[1]}")
        if name == "bf16" and cap < (8, 0):
            raise Skip(QT_TRANSLATE_NOOP("bench", "native BF16 needs compute capability 8.0 or later "
                                                  "(this GPU: {cap})"), cap=f"{cap[0]}.{cap[1]}")
    elif ctx.device == "cpu":
        if name == "tf32":
            raise Skip(QT_TRANSLATE_NOOP("bench", "TF32 is a Tensor Core format of NVIDIA GPUs"))
        probe = {"bf16": "_is_mkldnn_bf16_supported", "fp16": "_is_mkldnn_fp16_supported"}.get(name)
        if probe is not None:
            fn = getattr(t.ops.mkldnn, probe, None)
            if fn is None or not fn():
                raise Skip(QT_TRANSLATE_NOOP("bench", "this CPU has no native {dtype} instructions"),
                           dtype=name.upper())
    elif ctx.device == "mps" and name == "tf32":
        raise Skip(QT_TRANSLATE_NOOP("bench", "TF32 is a Tensor Core format of NVIDIA GPUs"))


def _set_tf32(t: Any, on: bool) -> None:
    t.backends.cuda.matmul.allow_tf32 = on
    t.backends.cudnn.allow_tf32 = on
    t.set_float32_matmul_precision("high" if on else "highest")


def matmul_shape(ctx: Context, m: int, n: int, k: int, dtype_name: str) -> dict[str, Any]:
    """Time ``a @ b`` of shape (m×k)·(k×n): best, median and IQR in TFLOPS."""
    t = ctx.torch
    dtype = getattr(t, DTYPES[dtype_name])
    gen = t.Generator(device="cpu").manual_seed(0)
    a = t.randn(m, k, generator=gen).to(device=ctx.device, dtype=dtype)
    b = t.randn(k, n, generator=gen).to(device=ctx.device, dtype=dtype)
    out = t.empty(m, n, device=ctx.device, dtype=dtype)

    def step() -> None:
        t.matmul(a, b, out=out)

    step()
    per = calibrate(step, ctx.sync, 0.02 if ctx.device != "cpu" else 0.005)
    timing = ctx.measure(step, steps_per_sample=per)
    best, med, iqr = timing.rate_stats(2.0 * m * n * k / 1e12)
    return {"m": m, "n": n, "k": k, "best": best, "median": med, "iqr": iqr, **timing_details(timing)}


def run_matmul(ctx: Context) -> None:
    t = ctx.torch
    shapes = [tuple(int(x) for x in s) for s in ctx.params["shapes"]]
    dtypes = list(ctx.params["dtypes"])
    total = len(shapes) * len(dtypes)
    done = 0
    for name in dtypes:
        row = f"matmul-{name}"
        try:
            _dtype_support(ctx, name)
        except Skip as skip:
            ctx.emit.skipped(row, skip.text, **skip.params)
            done += len(shapes)
            continue
        _set_tf32(t, name == "tf32")
        ctx.reset_peak_memory()
        per_shape = []
        try:
            for m, n, k in shapes:
                ctx.emit.progress(done / total, QT_TRANSLATE_NOOP("bench", "matmul {dtype} {m}×{n}×{k}"),
                                  dtype=name, m=m, n=n, k=k)
                per_shape.append(matmul_shape(ctx, m, n, k, name))
                done += 1
        finally:
            _set_tf32(t, False)
        top = max(per_shape, key=lambda r: r["median"])
        ctx.emit.result(
            row, max(r["best"] for r in per_shape), "TFLOPS", top["median"], top["iqr"],
            settings=ctx.settings(dtype=name, tf32_matmul=name == "tf32", tf32_cudnn=name == "tf32",
                                  float32_matmul_precision="high" if name == "tf32" else "highest",
                                  layout="row-major", shapes=[list(s) for s in shapes]),
            details={"shapes": per_shape, "best_shape": [top["m"], top["n"], top["k"]],
                     "median_over_shapes": statistics.median(r["median"] for r in per_shape),
                     "value_is": "best", **ctx.peak_memory_details(),
                     **ctx.energy_details(top["median"], "TFLOPS")},
        )


def run_membw(ctx: Context) -> None:
    """Copy a buffer to another on the device: bytes read + written per second (decimal GB/s)."""
    t = ctx.torch
    nbytes = int(ctx.params["mib"]) * 1024**2
    src = t.ones(nbytes // 4, dtype=t.float32, device=ctx.device)
    dst = t.empty_like(src)

    def step() -> None:
        dst.copy_(src)

    ctx.emit.progress(0.1, QT_TRANSLATE_NOOP("bench", "copying {mib} MiB on {device}"),
                      mib=ctx.params["mib"], device=ctx.device)
    per = calibrate(step, ctx.sync, 0.02)
    timing = ctx.measure(step, steps_per_sample=per)
    best, med, iqr = timing.rate_stats(2 * nbytes / 1e9)
    ctx.emit.result("membw", med, "GB/s", med, iqr,
                    settings=ctx.settings(dtype="fp32", buffer_mib=ctx.params["mib"], op="copy_ (read + write)"),
                    details={"best": best, **timing_details(timing)})


def _link(ctx: Context) -> dict[str, Any]:
    for gpu in ctx.fingerprint.get("gpus", []):
        if gpu.get("index") == ctx.torch.cuda.current_device():
            return dict(gpu)
    smi = nvidia_smi() or {}
    gpus = smi.get("gpus") or [{}]
    first: dict[str, Any] = dict(gpus[0])
    return first


def run_copies(ctx: Context) -> None:
    t = ctx.torch
    rows = ("h2d-pinned", "h2d-pageable", "d2h-pinned", "d2h-pageable")
    if ctx.device != "cuda":
        for row in rows:
            ctx.emit.skipped(row, QT_TRANSLATE_NOOP("bench", "host–device copies over PCIe need a CUDA GPU"))
        return
    nbytes = int(ctx.params["mib"]) * 1024**2
    link = _link(ctx)
    gen = link.get("gen_max") or link.get("gen_current")
    width = link.get("width_current") or link.get("width_max")
    expected = pcie_expected_gbps(gen, width)
    dev = t.empty(nbytes, dtype=t.uint8, device="cuda")
    for i, row in enumerate(rows):
        ctx.emit.progress(i / len(rows), QT_TRANSLATE_NOOP("bench", "{row}: {mib} MiB"), row=row,
                          mib=ctx.params["mib"])
        pinned = row.endswith("pinned")
        host = t.empty(nbytes, dtype=t.uint8, pin_memory=pinned)
        if row.startswith("h2d"):
            def step(host: Any = host, pinned: bool = pinned) -> None:
                dev.copy_(host, non_blocking=pinned)
        else:
            def step(host: Any = host, pinned: bool = pinned) -> None:
                host.copy_(dev, non_blocking=pinned)
        timing = ctx.measure(step)
        best, med, iqr = timing.rate_stats(nbytes / 1e9)
        ctx.emit.result(row, med, "GB/s", med, iqr,
                        settings=ctx.settings(buffer_mib=ctx.params["mib"], pinned=pinned,
                                              direction=row[:3]),
                        details={"best": best, "pcie_gen": gen, "pcie_width": width, "expected_gbps": expected,
                                 "fraction_of_link": (med / expected) if expected else None,
                                 **timing_details(timing)})
        del host


def run_vram(ctx: Context) -> None:
    """Fill most of the free VRAM with patterns, read it back, count bytes that differ (BUD-4)."""
    t = ctx.torch
    if ctx.device != "cuda":
        ctx.emit.skipped("vram-test", QT_TRANSLATE_NOOP("bench", "the VRAM pattern test needs a CUDA GPU"))
        return
    free, total = t.cuda.mem_get_info()
    chunk = int(ctx.params["chunk_mib"]) * 1024**2
    budget = int(free * float(ctx.params["fraction"]))
    blocks = []
    try:
        while budget >= chunk:
            blocks.append(t.empty(chunk, dtype=t.uint8, device="cuda"))
            budget -= chunk
    except RuntimeError:
        t.cuda.empty_cache()  # took what it could get
    if not blocks:
        raise Skip(QT_TRANSLATE_NOOP("bench", "not enough free VRAM to test ({free} MiB free)"),
                   free=free // 1024**2)
    patterns = list(ctx.params["patterns"])
    bad = 0
    bad_by_pattern: dict[str, int] = {}
    start = time.perf_counter()
    for i, pat in enumerate(patterns):
        ctx.emit.progress(i / len(patterns), QT_TRANSLATE_NOOP("bench", "pattern {pattern} over {gib} GiB"),
                          pattern=pat, gib=round(len(blocks) * chunk / 1024**3, 1))
        found = 0
        for j, block in enumerate(blocks):
            if pat == "random":
                g = t.Generator(device="cuda").manual_seed(1234 + j)
                ref = t.randint(0, 256, (chunk,), dtype=t.uint8, device="cuda", generator=g)
                block.copy_(ref)
                t.cuda.synchronize()
                ref = t.randint(0, 256, (chunk,), dtype=t.uint8, device="cuda",
                                generator=t.Generator(device="cuda").manual_seed(1234 + j))
                found += int((block != ref).sum().item())
                del ref
            else:
                value = int(pat, 16)
                block.fill_(value)
                t.cuda.synchronize()
                found += int((block != value).sum().item())
        bad_by_pattern[pat] = found
        bad += found
    seconds = time.perf_counter() - start
    tested = len(blocks) * chunk
    med, iqr = median_iqr([float(v) for v in bad_by_pattern.values()])
    ctx.emit.result("vram-test", float(bad), "B", med, iqr,
                    settings=ctx.settings(patterns=patterns, chunk_mib=ctx.params["chunk_mib"],
                                          fraction=ctx.params["fraction"]),
                    details={"tested_gib": round(tested / 1024**3, 2), "total_gib": round(total / 1024**3, 2),
                             "bad_by_pattern": bad_by_pattern, "seconds": seconds})
