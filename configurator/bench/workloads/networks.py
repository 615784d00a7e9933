"""ResNet-18/50 training and GPT-2 inference on synthetic data with random weights
(nothing is downloaded)."""

from __future__ import annotations

import inspect
from typing import Any

from configurator.bench.i18n import QT_TRANSLATE_NOOP
from configurator.bench.workloads.common import Context, Skip, timing_details


def _amp_dtype(ctx: Context, wanted: str) -> Any:
    """The autocast dtype for AMP on this device, or None (AMP off)."""
    t = ctx.torch
    if wanted in ("off", "none", False, None):
        return None
    if ctx.device == "cuda":
        return t.bfloat16 if t.cuda.is_bf16_supported() else t.float16
    if ctx.device == "cpu":
        probe = getattr(t.ops.mkldnn, "_is_mkldnn_bf16_supported", None)
        return t.bfloat16 if probe is not None and probe() else None
    if ctx.device == "mps":
        available = getattr(t.amp.autocast_mode, "is_autocast_available", None)
        return t.float16 if available is not None and available("mps") else None
    return None


def run_resnet(ctx: Context) -> None:
    t = ctx.torch
    try:
        import torchvision
    except ImportError as exc:
        raise Skip(QT_TRANSLATE_NOOP("bench", "needs torchvision ({error}): pip install torchvision"),
                   error=str(exc)) from None
    arch = ctx.job
    p = ctx.params
    batch, image, classes = int(p["batch"]), int(p["image"]), int(p["classes"])
    t.manual_seed(0)
    model = getattr(torchvision.models, arch)(weights=None, num_classes=classes)
    model = model.to(ctx.device, memory_format=t.channels_last).train()
    opt = t.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = t.randn(batch, 3, image, image, device=ctx.device).contiguous(memory_format=t.channels_last)
    y = t.randint(0, classes, (batch,), device=ctx.device)
    amp = _amp_dtype(ctx, p.get("amp", "auto"))
    scaler = t.amp.GradScaler("cuda") if amp == t.float16 and ctx.device == "cuda" else None
    if ctx.device == "cuda":
        t.backends.cudnn.benchmark = True
    ctx.reset_peak_memory()  # weights, optimizer and the batch are allocated: they count, as in training
    state = {"n": 0}

    def step() -> None:
        opt.zero_grad(set_to_none=True)
        with t.autocast(ctx.device, dtype=amp or t.float32, enabled=amp is not None):
            loss = t.nn.functional.cross_entropy(model(x), y)
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            opt.step()
        state["n"] += 1
        if state["n"] % 2 == 0:
            ctx.emit.progress(min(0.95, state["n"] / (p["min_reps"] + p["warmup"] + 2)),
                              QT_TRANSLATE_NOOP("bench", "{arch}: step {n}"), arch=arch, n=state["n"])

    timing = ctx.measure(step)
    best, med, iqr = timing.rate_stats(float(batch))
    amp_name = {None: None, t.bfloat16: "bf16", t.float16: "fp16"}[amp]
    details: dict[str, Any] = {"best": best, "params_m": round(sum(q.numel() for q in model.parameters()) / 1e6, 1),
                               **timing_details(timing), **ctx.peak_memory_details(),
                               **ctx.energy_details(med, "img/s")}
    ctx.emit.result(f"{arch}-train", med, "img/s", med, iqr,
                    settings=ctx.settings(batch=batch, image=image, classes=classes, layout="channels_last",
                                          amp=amp_name, dtype=amp_name or "fp32", optimizer="SGD(momentum=0.9)",
                                          data="synthetic", weights="random",
                                          cudnn_benchmark=ctx.device == "cuda"),
                    details=details)


def _cache_kw(model: Any) -> str:
    names = inspect.signature(model.forward).parameters
    return "past_key_values" if "past_key_values" in names else "cache"


def _cache_of(out: Any) -> Any:
    for name in ("past_key_values", "cache"):
        value = getattr(out, name, None)
        if value is not None:
            return value
    return None


def run_gpt2(ctx: Context) -> None:
    t = ctx.torch
    try:
        import transformers
    except ImportError as exc:
        raise Skip(QT_TRANSLATE_NOOP("bench", "needs transformers ({error}): pip install transformers"),
                   error=str(exc)) from None
    transformers.logging.set_verbosity_error()  # type: ignore[no-untyped-call]
    p = ctx.params
    batch, prompt, new = int(p["batch"]), int(p["prompt"]), int(p["new_tokens"])
    dtype_name = p.get("dtype", "auto")
    if dtype_name == "auto":
        dtype_name = "fp16" if ctx.device in ("cuda", "mps") else "fp32"
    dtype = {"fp32": t.float32, "fp16": t.float16, "bf16": t.bfloat16}[dtype_name]
    cfg = transformers.GPT2Config(n_positions=max(1024, prompt + new + 1), **p["model"])
    t.manual_seed(0)
    ctx.reset_peak_memory()
    model: Any = transformers.GPT2LMHeadModel(cfg)
    model = model.to(device=ctx.device, dtype=dtype).eval()
    kw = _cache_kw(model)
    gen = t.Generator(device="cpu").manual_seed(0)
    ids = t.randint(0, cfg.vocab_size, (batch, prompt), generator=gen).to(ctx.device)
    n_params = sum(q.numel() for q in model.parameters())
    settings = ctx.settings(batch=batch, prompt=prompt, new_tokens=new, dtype=dtype_name, weights="random",
                            kv_cache=True, model={**p["model"], "params_m": round(n_params / 1e6, 1)},
                            sampling="greedy")

    with t.inference_mode():
        ctx.emit.progress(0.05, QT_TRANSLATE_NOOP("bench", "GPT-2 prefill of {n} tokens"), n=prompt)
        prefill = ctx.measure(lambda: model(input_ids=ids, use_cache=True))
        best, med, iqr = prefill.rate_stats(float(batch * prompt))
        ctx.emit.result("gpt2-prefill", med, "tokens/s", med, iqr, settings=settings,
                        details={"best": best, **timing_details(prefill), **ctx.peak_memory_details(),
                                 **ctx.energy_details(med, "tokens/s")})

        state: dict[str, Any] = {}

        def setup() -> None:  # untimed: a fresh prompt in the cache
            out = model(input_ids=ids, use_cache=True)
            state["cache"] = _cache_of(out)
            state["next"] = out.logits[:, -1:].argmax(-1)

        def decode() -> None:
            cache, nxt = state["cache"], state["next"]
            for _ in range(new):
                out = model(input_ids=nxt, use_cache=True, **{kw: cache})
                cache = _cache_of(out)
                nxt = out.logits[:, -1:].argmax(-1)

        ctx.emit.progress(0.5, QT_TRANSLATE_NOOP("bench", "GPT-2 decoding {n} tokens"), n=new)
        ctx.reset_peak_memory()
        timing = ctx.measure(decode, setup=setup)
        best, med, iqr = timing.rate_stats(float(batch * new))
        ctx.emit.result("gpt2-decode", med, "tokens/s", med, iqr, settings=settings,
                        details={"best": best, "seconds_per_512_tokens": 512 * batch / med if med else None,
                                 **timing_details(timing), **ctx.peak_memory_details(),
                                 **ctx.energy_details(med, "tokens/s")})
