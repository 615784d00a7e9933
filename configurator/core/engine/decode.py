"""A decoder's inference throughputs: prompt processing (prefill) on one GPU and the batch of streams
decoded together on every copy of the model."""

from __future__ import annotations

from configurator.core.build import Workload
from configurator.core.engine.one_gpu import BOUND, OneGpu
from configurator.core.engine.ranges import format_range, likely_range, scaled
from configurator.core.engine.report import message as _m
from configurator.core.engine.report import throughput_figure
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import throughput as tp
from configurator.core.findings import Estimate
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message

# kv_cache fp8: each stream's cache read at 1 B per element (the throughput case's kv_bytes)
_FP8_KV = Message("estimates", QT_TRANSLATE_NOOP(
    "estimates", " FP8 KV cache: each stream's cache read at 1 B per element, half a 16-bit cache's bytes."))

def decode_estimates(base: OneGpu, w: Workload, fit: fitting.Fit | None, n: int, copies: int) -> list[Estimate]:
    """A decoder's inference: prompt processing (prefill) on one GPU, and the batch of streams decoded together
    on every copy of the model."""
    one = base.one
    runtime_json = {"runtime": tp.runtime_used(w), "runtime_default": w.runtime is None,
                    **({"kv_cache_dtype": w.kv_cache} if w.kv_cache_dtype else {})}
    pre = one.tokens_per_s or 0.0
    lo_p, hi_p, basis_p, rng_p = likely_range(pre, "tokens/s", "llm-prefill", fit, [])
    if one.format_key:
        lo_p, hi_p, basis_p, rng_p = format_range(pre, "tokens/s", "llm-prefill", one.format_key, fit,
                                                   (lo_p, hi_p, basis_p, rng_p))
    prefill = Estimate("prefill_tokens_per_s", throughput_figure(pre), "tokens/s",
                       _m("{range} {detail}", range=rng_p, detail=_m(QT_TRANSLATE_NOOP(
                           "estimates",
                           "Prompt processing (prefill): {batch} prompt(s) of {prompt} tokens together, "
                           "2 × params + attention FLOPs per token on the tensor cores, the weights read "
                           "once per step; {bound}-bound."),
                           batch=w.effective_batch, prompt=min(w.effective_seq_len, 512),
                           bound=BOUND.get(one.prefill_bound, one.prefill_bound))),
                       {**runtime_json, "batch": w.effective_batch,
                        "prompt_tokens": min(w.effective_seq_len, 512), "bound": one.prefill_bound},
                       "low", lo_p, hi_p, basis_p)
    agg = one.headline(w) * copies
    batch = Estimate("throughput_batch", throughput_figure(agg), w.throughput_unit,
                     _m("{range} {detail}{kv}", range=base.rng, kv=_FP8_KV if w.kv_cache_dtype else "",
                        detail=_m(QT_TRANSLATE_NOOP(
                         "estimates",
                         "{batch} streams decoded together on each of {n} copies of the model (over "
                         "{per} GPU(s) each): the weights are read once per step for all streams, each "
                         "stream's KV cache for it; {alone:,.4g} tokens/s for one stream alone."),
                         batch=w.effective_batch, n=copies, per=one.model_gpus,
                         alone=one.decode_tokens_per_s or 0.0)),
                     {"batch": w.effective_batch, "gpus": n, "copies": copies,
                      "one_stream_tokens_per_s": round(one.decode_tokens_per_s or 0.0, 1), **runtime_json},
                     "low", scaled(base.low, copies), scaled(base.high, copies), base.basis)
    return [prefill, batch]
