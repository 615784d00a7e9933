"""The serving estimates of a ``task: serve`` workload at its load: requests in flight, output tokens/s,
requests/s, time to first token and per output token, each with its range (the model is
:mod:`configurator.core.estimate.serving`)."""

from __future__ import annotations

from typing import Any, Literal

from configurator.core.engine.links import allreduce_link, build_system
from configurator.core.engine.one_gpu import BOUND
from configurator.core.engine.report import message as _m
from configurator.core.estimate import serving as srv
from configurator.core.estimate import throughput as tp
from configurator.core.findings import Estimate
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import Gpu
from configurator.core.rules.shared import Ctx

_SERVE_LOAD = {
    "concurrency": QT_TRANSLATE_NOOP("estimates", "At {offered:,g} requests in flight ({prompt:,} prompt and "
                                                  "{output:,} output tokens each) in {runtime}"),
    "request_rate": QT_TRANSLATE_NOOP("estimates", "At {offered:,g} requests/s ({prompt:,} prompt and {output:,} "
                                                   "output tokens each) in {runtime}"),
}
_SERVE_ENGINES = {
    "replicas": QT_TRANSLATE_NOOP("estimates", "{engines} copies of the model, one per GPU"),
    "tensor": QT_TRANSLATE_NOOP("estimates", "one copy over {tp} GPUs (tensor parallel, {link})"),
    "one": QT_TRANSLATE_NOOP("estimates", "one copy of the model on one GPU"),
}
_SERVE_HOW = {
    "serving_max_concurrency": QT_TRANSLATE_NOOP(
        "estimates", "{load}, {engines}: the KV cache holds ≈ {value:,.0f} sequences ({low:,.0f}–{high:,.0f}): "
                     "{budget:.1f} GiB per GPU left for it ({fraction:.0%} of the card less {weights:.1f} GiB of "
                     "weights, the prompt chunk's activations and CUDA graphs), {kv:,.0f} KiB per token (2 × layers "
                     "× KV heads × head width × 2 B per GPU), sequences holding prompt + output/2 tokens on average "
                     "(low: all at full length); at most {cap} per copy (the runtime's batch limit)."),
    "serving_max_concurrency_reserved": QT_TRANSLATE_NOOP(
        "estimates", "{load}, {engines}: the KV cache holds ≈ {value:,.0f} sequences ({low:,.0f}–{high:,.0f}): "
                     "{budget:.1f} GiB per GPU left for it ({fraction:.0%} of the memory left beside {weights:.1f} "
                     "GiB of weights, the prompt chunk's activations and CUDA graphs), {kv:,.0f} KiB per token (2 × "
                     "layers × KV heads × head width × 2 B per GPU), each request's whole prompt + output reserved "
                     "when it starts (TensorRT-LLM's default scheduler, guaranteed no-evict); at most {cap} per copy "
                     "(the runtime's batch limit)."),
    # kv_cache fp8: the same, at 1 B per cached element
    "serving_max_concurrency_fp8": QT_TRANSLATE_NOOP(
        "estimates", "{load}, {engines}: the FP8 KV cache holds ≈ {value:,.0f} sequences ({low:,.0f}–{high:,.0f}): "
                     "{budget:.1f} GiB per GPU left for it ({fraction:.0%} of the card less {weights:.1f} GiB of "
                     "weights, the prompt chunk's activations and CUDA graphs), {kv:,.0f} KiB per token (2 × layers "
                     "× KV heads × head width × 1 B per GPU), sequences holding prompt + output/2 tokens on average "
                     "(low: all at full length); at most {cap} per copy (the runtime's batch limit)."),
    "serving_max_concurrency_reserved_fp8": QT_TRANSLATE_NOOP(
        "estimates", "{load}, {engines}: the FP8 KV cache holds ≈ {value:,.0f} sequences ({low:,.0f}–{high:,.0f}): "
                     "{budget:.1f} GiB per GPU left for it ({fraction:.0%} of the memory left beside {weights:.1f} "
                     "GiB of weights, the prompt chunk's activations and CUDA graphs), {kv:,.0f} KiB per token (2 × "
                     "layers × KV heads × head width × 1 B per GPU), each request's whole prompt + output reserved "
                     "when it starts (TensorRT-LLM's default scheduler, guaranteed no-evict); at most {cap} per copy "
                     "(the runtime's batch limit)."),
    "serving_output_tokens_per_s": QT_TRANSLATE_NOOP(
        "estimates", "{load}, {engines}: {running:,.1f} sequences decoded together per copy{queued}: ≈ {value:,.0f} "
                     "output tokens/s ({low:,.0f}–{high:,.0f}); each step reads the weights once and every sequence's "
                     "KV cache, and runs the prompts of the requests that start in it (chunked prefill); "
                     "{bound}-bound."),
    "serving_requests_per_s": QT_TRANSLATE_NOOP(
        "estimates", "{load}: ≈ {value:,.2f} requests/s ({low:,.2f}–{high:,.2f}) completed: output tokens/s ÷ output "
                     "tokens per request; the build serves at most ≈ {capacity:,.2f} requests/s (its KV cache full)."),
    "serving_ttft_ms": QT_TRANSLATE_NOOP(
        "estimates", "{load}: median time to first token ≈ {value:,.0f} ms ({low:,.0f}–{high:,.0f}): half a step "
                     "waiting, ≈ {wait:,.0f} ms behind other prompts, the prompt's prefill inside a decode "
                     "step{queued}. This is the engine's own time for requests that arrive spread out; the high end "
                     "allows for what published serving stacks measured above it under load."),
    # a stated concurrency: between requests arriving spread out and clients in step
    "serving_ttft_ms_span": QT_TRANSLATE_NOOP(
        "estimates", "{load}: median time to first token ≈ {value:,.0f} ms ({low:,.0f}–{high:,.0f}), the geometric "
                     "mean of two ends: ≈ {spread:,.0f} ms for requests that arrive spread out (half a step waiting, "
                     "≈ {wait:,.0f} ms behind other prompts, the prompt's prefill inside a decode step{queued}) and "
                     "≈ {lockstep:,.0f} ms once clients sending identical requests fall into step (as benchmark "
                     "tools' clients do: their prompts share steps in groups, each group waiting for the one before "
                     "it). Where between them a deployment lies depends on how alike its requests are and how many "
                     "prompt tokens its engine runs a step; published fixed-length sweeps lie between them. The "
                     "range widens each end by what published serving stacks measured beyond it."),
    "serving_tpot_ms": QT_TRANSLATE_NOOP(
        "estimates", "{load}: median time per output token ≈ {value:,.1f} ms ({low:,.1f}–{high:,.1f}): one step of "
                     "the running batch with its share of prompts."),
}
_SERVE_QUEUED = QT_TRANSLATE_NOOP("estimates", "; {queued:,.0f} requests wait for room in the KV cache")
_SERVE_SATURATED = QT_TRANSLATE_NOOP(
    "estimates", "{load}: the build serves at most ≈ {capacity:,.2f} requests/s (its KV cache full); at this rate the "
                 "queue grows without bound, so no time to first token.")
_SERVE_NONE = QT_TRANSLATE_NOOP(
    "estimates", "No serving estimate: {reason}")
_SERVE_NO_GPU = QT_TRANSLATE_NOOP("estimates", "the build has no GPU to serve on (CPU serving is not modelled).")
_SERVE_NO_ROOM = QT_TRANSLATE_NOOP(
    "estimates", "no room for the KV cache of one request ({need:,} tokens) beside the weights ({weights:.1f} GiB per "
                 "GPU) on a {vram} GiB card.")


def serving_estimates(ctx: Ctx, gpus: list[Gpu], f: tp.Factors) -> list[Estimate]:
    """The serving estimates of a ``task: serve`` workload (core/estimate/serving.py), each with its range and
    the load it is at."""
    w = ctx.r.build.workload
    assert w is not None and w.prompt_tokens is not None and w.output_tokens is not None
    if not gpus:
        return [Estimate("serving_not_estimated", None, "", _m(_SERVE_NONE, reason=_m(_SERVE_NO_GPU)), {}, "low")]
    system = build_system(ctx, gpus, w)
    slowest = min(gpus, key=lambda g: g.memory_bandwidth_gbs)
    vram = min(g.vram_gb for g in gpus)
    s = srv.estimate(w, tp.gpu_hw(slowest), vram, len(gpus), f, system, kv_cache_dtype=w.kv_cache_dtype)
    load_json = {"load": s.load, s.load: w.concurrency if s.load == "concurrency" else w.request_rate,
                 "prompt_tokens": w.prompt_tokens, "output_tokens": w.output_tokens,
                 "runtime": w.effective_runtime, "engines": s.engines, "tensor_parallel": s.tensor_parallel,
                 "gpu": slowest.name, **({"kv_cache_dtype": w.kv_cache} if w.kv_cache_dtype else {})}
    if s.max_concurrency.value < 1:
        return [Estimate("serving_not_estimated", None, "", _m(_SERVE_NONE, reason=_m(
            _SERVE_NO_ROOM, need=w.prompt_tokens + w.output_tokens, weights=s.weights_gib, vram=vram)),
            {**load_json, "reason": "no_kv_room"}, "low")]
    load = _m(_SERVE_LOAD[s.load], offered=s.offered, prompt=w.prompt_tokens, output=w.output_tokens,
              runtime=w.effective_runtime)
    engines = (_m(_SERVE_ENGINES["tensor"], tp=s.tensor_parallel, link=allreduce_link(ctx, gpus, slowest)[1])
               if s.tensor_parallel > 1 else _m(_SERVE_ENGINES["replicas"], engines=s.engines) if s.engines > 1
               else _m(_SERVE_ENGINES["one"]))
    queued: Message | str = _m(_SERVE_QUEUED, queued=s.queued) if s.queued >= 0.5 else ""
    conf: Literal["medium", "low"] = "medium" if f.fit is not None else "low"
    at = {**load_json, "running_per_copy": round(s.running, 1), "queued": round(s.queued, 1),
          "saturated": s.saturated}

    def est(key: str, band: srv.Band, unit: str, digits: int, basis: dict[str, Any], how: str | None = None,
            **params: Any) -> Estimate:
        # the sentence words the figures as the estimate holds them (rounded to ``digits``), so that its range reads
        # as the headline's: 498.54 ms is 498.5 in both, shown 498, not 499 in one and 498 in the other
        value, low, high = round(band.value, digits), round(band.low, digits), round(band.high, digits)
        return Estimate(key, value, unit, _m(_SERVE_HOW[how or key], load=load, value=value, low=low, high=high,
                                             **params),
                        at, conf, low, high, basis)

    budget = s.kv_budget_gib
    memory_basis = {"kv_bytes_per_token": s.kv_bytes_per_token, "kv_budget_gib_per_gpu": round(budget.value, 2),
                    "kv_budget_gib_low": round(budget.low, 2), "kv_budget_gib_high": round(budget.high, 2),
                    "weights_gib_per_gpu": round(s.weights_gib, 2), **s.basis}
    reserved = s.basis["kv_reserved_per_request"] == "prompt + output"
    how = ("serving_max_concurrency_reserved" if reserved else "serving_max_concurrency") + (
        "_fp8" if w.kv_cache_dtype else "")
    out = [est("serving_max_concurrency", s.max_concurrency, "requests", 0, memory_basis, how=how, engines=engines,
               budget=s.kv_budget_gib.value, fraction=s.basis["memory_fraction"] or 0.9, weights=s.weights_gib,
               kv=s.kv_bytes_per_token / 1024, cap=s.basis["max_seqs"])]
    decode = dict(s.basis["decode"]) if isinstance(s.basis["decode"], dict) else {}

    def own(family: str) -> dict[str, Any]:
        """The basis of one estimate's range: its serving family's held-out width where the fit has one (the
        decode model's otherwise)."""
        return {family: decode[family]} if family in decode else decode

    out.append(est("serving_output_tokens_per_s", s.output_tokens_per_s, "tokens/s", 1, own("llm-serve"),
                   engines=engines, running=s.running, queued=queued, bound=BOUND.get(s.bound, s.bound)))
    out.append(est("serving_requests_per_s", s.requests_per_s, "requests/s", 3, own("llm-serve"),
                   capacity=s.capacity_requests_per_s))
    if s.ttft_ms is None:
        out.append(Estimate("serving_ttft_ms", None, "ms", _m(_SERVE_SATURATED, load=load,
                                                              capacity=s.capacity_requests_per_s), at, conf))
    else:
        prefill = dict(s.basis["prefill"]) if isinstance(s.basis["prefill"], dict) else {}
        ttft_basis = prefill if "llm-serve-ttft" in prefill else {"decode": decode, "prefill": prefill}
        spread = s.ttft_spread_ms if s.ttft_spread_ms is not None else s.ttft_ms.value
        out.append(est("serving_ttft_ms", s.ttft_ms, "ms", 1, {
            **ttft_basis, "prompt_wait_ms": round(s.prompt_wait_ms, 1), "ttft_spread_ms": round(spread, 1),
            "ttft_lockstep_ms": None if s.ttft_lockstep_ms is None else round(s.ttft_lockstep_ms, 1)},
            how="serving_ttft_ms_span" if s.ttft_span is not None else None, queued=queued, wait=s.prompt_wait_ms,
            spread=spread, lockstep=s.ttft_lockstep_ms))
    out.append(est("serving_tpot_ms", s.tpot_ms, "ms", 2, own("llm-serve-tpot")))
    return out
