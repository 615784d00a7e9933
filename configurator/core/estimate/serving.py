"""Serving: an LLM under a load of requests, as a continuous-batching runtime with a paged KV cache runs it
(vLLM, TensorRT-LLM).

The load is the workload's ``concurrency`` (clients each keeping one request in flight: a closed loop) or its
``request_rate`` (arrivals per second, open loop), and each request's mean ``prompt_tokens`` P and
``output_tokens`` O. The build serves with one engine per GPU (``parallel: none``: each GPU a copy of the
model, the load split evenly) or one engine over all of them (``parallel: tensor``).

KV cache (per GPU of an engine of ``t`` tensor-parallel GPUs):

    bytes per token   = 2 (K and V) × layers × kv_heads × head_dim × 2 B (16-bit cache; 1 B FP8) / t
    budget            = VRAM × 0.9 − weights / t − activations − CUDA context and graphs   (vLLM: its
                        gpu_memory_utilization, 0.9, of the whole card, less what its profile run and CUDA
                        graphs take), or 0.9 × (VRAM − weights / t − activations − context)  (TensorRT-LLM:
                        free_gpu_memory_fraction, 0.9, of what is free once the engine is loaded)
    tokens it holds   = budget / bytes per token
    max concurrency   = tokens / (P + O / 2)    central: sequences at all stages of their generation hold
                        P + O/2 tokens on average (paged blocks are taken as a sequence grows); low: every
                        sequence at its full P + O (nothing preempted); capped at the runtime's batch limit
                        TensorRT-LLM's default scheduler (GUARANTEED_NO_EVICT: "reserve prompt plus maximum
                        output" for each request it admits, never evicting one) holds tokens / (P + O) at every
                        end of the range: its blocks are reserved for the whole request when it starts

Step (the term model of :mod:`throughput`, per engine, at B sequences running):

    t_decode(B)       = one decode step of B sequences at the mean context P + O/2 (:func:`throughput.llm_cases`:
                        weights read once, each sequence's KV cache read, B tokens' FLOPs, kernels, all-reduces)
    c_prefill         = time per prompt token a prefill adds to a step: (t_prefill(2k prompts) − t_prefill(k)) /
                        (k P), k = ⌈CHUNK / P⌉ (the weights, read once per step anyway, cancel)
    t_step            = t_decode(B) + (B / O) × P × c_prefill     (continuous batching: B / O requests finish,
                        and as many start, per step; their prompts run inside the step: chunked prefill)
    TPOT (median)     = t_step
    GEMMs             = on a Hopper card in TensorRT-LLM or vLLM (16-bit or FP8 weights), every step's (decode and
                        prefill) tensor-core term is FLOPs / (e × the tensor-core peak), e the share of the peak a
                        published GEMM benchmark sustains (GEMM_EFFICIENCY: 0.74, tilelang on an H800 SXM, M = N =
                        8192, K = 4096), in place of the fitted tensor-core and power terms where that is faster:
                        those come from eager PyTorch training steps (a large H100 BF16 GEMM at ~275 TFLOPS, the
                        benchmark 736). The efficiency was chosen after seeing the TensorRT-LLM rows measure
                        1.14-1.81x the fitted step; it is not fitted on the serving rows, so their leave-one-source-
                        out error has no leak, but it is one outside figure, one shape, one GPU class
    output tokens/s   = engines × B / t_step;  requests/s = output tokens/s / O
    TTFT (median)     = k × t_step / 2 (the k steps under way when the request arrives: k = 1 but for vLLM's
                        multi-step scheduling) + ⌈P / CHUNK⌉ × t_decode(B)
                        + P × c_prefill + the wait for KV room (closed loop: requests beyond the cache's
                        concurrency wait for a slot: queued / requests/s) + the wait behind other prompts (below)

The prompt queue (chunked prefill: the engine runs at most CHUNK prompt tokens a step, first come first served, so
a prompt waits for the prompts ahead of it; :func:`prompt_wait`): each prompt asks the engine for

    S                 = P × c_prefill + (P / CHUNK) × t_decode(B)     seconds of prefill (a step full of prompt
                        tokens lasts t_decode(B) + CHUNK × c_prefill; a prompt takes P / CHUNK of them)
    closed loop       N clients per engine, each waiting Z = O × t_step between its prompts (its request decoding):
                        exact mean value analysis of that closed network (one queue, one delay), the residual of
                        the prompt in service counted as deterministic (S / 2, Schweitzer-Reiser): R(n) = S +
                        S × (Q(n−1) − U(n−1)) + U(n−1) × S / 2, X(n) = n / (Z + R(n)), Q(n) = X(n) R(n),
                        U(n) = X(n) S; the wait is R(N) − S (one client never waits behind itself)
    open loop         Poisson arrivals at the engine's request rate λ: an M/D/1 queue, W = ρ S / (2 (1 − ρ)),
                        ρ = λ S (Pollaczek-Khinchine, every prompt the mean length)
Prefill-first scheduling runs every waiting prompt in the next step together, so its prompts do not queue behind
each other beyond the step under way (counted above). The queue changes only the TTFT: the prefill work is in
every step's time (t_step) already, so tokens/s and TPOT do not move.

Clients in step (a closed loop only; :func:`lockstep_ttft`): the TTFT above takes requests that arrive spread out,
as real clients with prompts and answers of different lengths do. Clients that send identical requests (what
benchmark tools do: fixed prompt and output lengths) fall into step. The first round's N prompts arrive together
and are prefilled in arrival order, ``STEP_TOKENS`` tokens a step (TensorRT-LLM's max_num_tokens, 8192 by default;
vLLM's chunk; the running sequences' decode tokens take their share): in groups of g = ⌊(STEP_TOKENS − N) / P⌋
prompts a step (one prompt over ⌈P / room⌉ steps where a step holds less than one). Each group finishes its output
one step after the group before it and sends again while that group's next prompt is being prefilled, so in every
later round the groups form a chain:

    TTFT in step      = the clients' mean of (the wait: the previous group's prefill step; the first group's, the
                        decode step under way) + its own prefill step, each step t_decode(N) + its prompt tokens ×
                        c_prefill; where a round's prefill steps outnumber a request's O output steps the prompts
                        queue instead: every step prefills, and a request waits out the round's other steps
The first round alone (every prompt behind all those ahead of it) is higher for many groups, but it is one round of
a benchmark's many. NVIDIA NIM 1.8's sweeps (held out) lie below the chain, within its residual factor where above;
an older NIM's (NVIDIA DLI's dataset, not validated: its lengths are another tokenizer's counts and its engine's
scheduler is not stated) measured up to 6x above it from 25 clients on (72 of its 108 TTFT rows; the first round's
mean held 73 of them): an engine that batches fewer waiting prompts a step queues them longer than this.
For a stated concurrency the TTFT's range spans the two, each end widened by the held-out residuals' factor, and
its central value is their geometric mean, √(spread-out × in step): which end a deployment sees depends on how far its
requests' lengths and timing differ and on how many prompt tokens its engine runs a step (a setting serving stacks
rarely publish), and the geometric mean is the one value no more than √(in step / spread-out) from either end.
Published closed-loop sweeps with fixed lengths lie between the two (NVIDIA NIM 1.8's, db/measurements: 1.4-4x the
spread-out TTFT from 5 requests in flight on, 0.24-1.25x the in-step one). That choice has no parameter fitted to
any row, but it was made after seeing NIM's rows between the ends (with the spread-out value as the central one,
the held-out TTFT rows' median error was 43 %); the older NIM's rows, above the chain, lie further from it. A request
rate (open loop: arrivals spread out by definition) has no span: its TTFT is the spread-out one. The range's factors
are the held-out residuals of the rows without such a span (validation.residuals: a row inside its span says nothing
of how far the model errs), chosen to hold those rows; the coverage given counts every row.

Prefill-first scheduling (vLLM before chunked prefill, its default until 0.6: ``enable_chunked_prefill=False``; its
scheduler runs waiting prompts as a step of their own, before the running sequences' next decode step):

    t_prefill(P)      = one prompt's prefill step (its weights read, P tokens' FLOPs: throughput.llm_cases)
    t_step            = t_decode(B) + (B / O) × t_prefill(P)   (the running sequences wait through each prefill step)
    TTFT (median)     = k × t_decode(B) / 2 + t_prefill(P) + the wait for KV room

With a request rate λ the running batch B is where the engines complete requests as fast as they arrive:
λ / engines = B / (O × t_step(B)); beyond the largest B the cache holds the queue grows without bound
(saturated: no TTFT).

Engine settings a run states: an FP8 KV cache (``kv_cache_dtype``: 1 B per cached element, so twice the tokens
in the same budget and half the cache read per step); ``scheduler_steps`` k (vLLM's --num-scheduler-steps: the
scheduler admits new requests once per k decode steps, so the TTFT's wait for the step under way becomes
k × t_step / 2).

Ranges: tokens/s, requests/s, TTFT and TPOT take the held-out ratios (measured / predicted) of their own serving
family (llm-serve, llm-serve-ttft, llm-serve-tpot: the published serving runs in db/measurements, each origin
predicted by this module on the step model fitted to the others; validation.widths). Without them (a fit with
no serving rows): tokens/s and requests/s the LLM decode family's and the published large-batch decode rows'
(TensorRT-LLM's gptSessionBenchmark, batch 60–512, db/measurements/tensorrt-llm.csv), whichever is wider; TPOT
the same inverted; TTFT the LLM prefill family's. The maximum concurrency: its memory assumptions' (activations
½–2×, graphs 0.25–1 GiB; sequences at P + O/2 or at P + O).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

from configurator.core.build import Workload
from configurator.core.estimate import throughput as tp
from configurator.core.estimate.memory import CUDA_CONTEXT_GIB, inference_working_set, weight_bytes_per_param
from configurator.core.units import GIB

if TYPE_CHECKING:
    from configurator.core.estimate.fit import Fit

# vLLM's gpu_memory_utilization (0.9: https://docs.vllm.ai/en/v0.5.3/models/engine_args.html) and TensorRT-LLM's
# KvCacheConfig.free_gpu_memory_fraction (0.9 of the memory free after loading:
# https://nvidia.github.io/TensorRT-LLM/examples/kvcacheconfig.html)
MEMORY_FRACTION = {"vllm": 0.9, "tensorrt-llm": 0.9}
# Prompt tokens a step takes (chunked prefill's token budget; vLLM's max_num_batched_tokens): 2,048, an
# assumption (the default differs between versions and entry points; unverified)
CHUNK = 2048
# Prompt tokens one step takes: TensorRT-LLM's max_num_tokens, 8192 by default (BuildConfig.max_num_tokens,
# https://github.com/NVIDIA/TensorRT-LLM/blob/008b2b8d23af95e4e19fa6f354f9c5f6349b2bfc/tensorrt_llm/builder.py);
# vLLM's chunked-prefill budget (CHUNK, an assumption)
STEP_TOKENS = {"tensorrt-llm": 8192, "vllm": CHUNK}
# The runtimes whose default scheduler reserves KV blocks for a request's whole prompt and output when it admits it:
# TensorRT-LLM's CapacitySchedulerPolicy GUARANTEED_NO_EVICT, its default ("TensorRT-LLM currently supports three
# batch scheduler policies: GUARANTEED_NO_EVICT (default), MAX_UTILIZATION and STATIC_BATCH",
# https://nvidia.github.io/TensorRT-LLM/performance/performance-tuning-guide/useful-runtime-flags.html); vLLM takes
# blocks as a sequence grows and preempts one when they run out
NO_EVICT_RUNTIMES = ("tensorrt-llm",)
# CUDA graphs and the runtime's other non-PyTorch memory, GiB (low, central, high): an assumption, unverified
GRAPHS_GIB = (0.25, 0.5, 1.0)
# Sequences one engine decodes together at most (vLLM's max_num_seqs default 256; TensorRT-LLM's
# max_batch_size is set when the engine is built): 256, unverified here
MAX_SEQS = 256
# The TensorRT-LLM rows the large-batch range rests on (their origin in db/measurements)
LARGE_BATCH_ORIGIN = "tensorrt-llm-perf"
# Bytes per cached element of a quantised KV cache (vLLM's --kv-cache-dtype fp8, TensorRT-LLM's
# KvCacheConfig(dtype="fp8") or a ModelOpt checkpoint's kv_cache_quant_algo FP8; INT8 the same size): one byte,
# against a 16-bit cache's two (https://docs.vllm.ai/en/v0.6.6/quantization/fp8_e4m3_kvcache.html: "reduces its
# memory footprint. This increases the number of tokens that can be stored in the cache")
KV_DTYPE_BYTES = {"fp16": 2.0, "bf16": 2.0, "fp8": 1.0, "int8": 1.0}
# The GEMM rate a tuned kernel sustains, as a fraction of the tensor-core peak (the catalogue's dense spec), by
# architecture and format: the published GEMM benchmark of tilelang on an NVIDIA H800 SXM (driver 560.35.05),
# M = N = 8192, K = 4096 (the hidden width of an 8B Llama; K = 8192, a 70B's, reaches 758 and 1507): FP16 736
# TFLOPS (https://github.com/xwhzz/tilelang/blob/b2acfc3791d5ddeef3772214222461c85659c904/benchmark/matmul/README.md)
# and FP8 1467 TFLOPS (.../benchmark/matmul_fp8/README.md at the same commit), over the H100 SXM's 989.4 dense
# FP16 and 1978.8 FP8 (the H800 SXM is the same GH100 SXM5 compute with a narrower NVLink: its peak taken as the
# H100 SXM's, unverified here). One shape, one GPU class: no published benchmark read here for other
# architectures, which keep the fitted rate.
GEMM_EFFICIENCY: dict[tuple[str, str], float] = {("Hopper", "16-bit"): 736 / 989.4, ("Hopper", "fp8"): 1467 / 1978.8}
# The runtimes whose step is its GEMMs at a library kernel's rate: their elementwise work fused into the GEMMs'
# and attention's kernels, the decode steps replayed as CUDA graphs (TensorRT-LLM; vLLM: cuBLAS for 16-bit
# weights, CUTLASS for FP8), not eager PyTorch's separate kernels the fitted compute rate was fitted on
TUNED_GEMM_RUNTIMES = ("tensorrt-llm", "vllm")


@dataclass(frozen=True)
class Band:
    value: float
    low: float
    high: float


@dataclass(frozen=True)
class Serving:
    load: str  # "concurrency" | "request_rate": what the workload states
    offered: float  # the stated load: requests in flight (whole build), or requests/s
    engines: int  # model copies serving (one per GPU, or one over all of them)
    tensor_parallel: int  # GPUs per engine
    kv_bytes_per_token: float  # per GPU of an engine
    kv_budget_gib: Band  # per GPU
    weights_gib: float  # per GPU
    max_concurrency: Band  # whole build
    running: float  # sequences each engine decodes together at this load
    queued: float  # requests (whole build) waiting for KV room (closed loop)
    saturated: bool  # an open-loop rate beyond what the build serves
    capacity_requests_per_s: float  # at the largest batch the cache holds (whole build)
    output_tokens_per_s: Band
    requests_per_s: Band
    ttft_ms: Band | None  # None when saturated
    prompt_wait_ms: float  # of the TTFT: the wait behind other prompts (prompt_wait)
    ttft_spread_ms: float | None  # the TTFT of requests arriving spread out (None when saturated)
    ttft_lockstep_ms: float | None  # a closed loop's clients sending together (lockstep_ttft); None: open loop
    tpot_ms: Band
    bound: str  # the largest term of the decode step
    basis: dict[str, object]

    @property
    def ttft_span(self) -> tuple[float, float] | None:
        """The TTFT's span (ms): from requests arriving spread out to clients in step, where those wait longer (the
        central value is then their geometric mean); None for an open loop, a saturated one, or one whose clients in
        step wait no longer."""
        spread, step = self.ttft_spread_ms, self.ttft_lockstep_ms
        return (spread, step) if spread is not None and step is not None and step > spread else None


def kv_element_bytes(w: Workload, kv_cache_dtype: str | None = None) -> float:
    """Bytes per cached K or V element: the cache's stated dtype (KV_DTYPE_BYTES), else the model's 16-bit
    cache (fp32 models cache in 4 B)."""
    if kv_cache_dtype is not None:
        return KV_DTYPE_BYTES[kv_cache_dtype]
    return 4.0 if w.precision == "fp32" else 2.0


def kv_bytes_per_token(w: Workload, tensor_parallel: int, kv_cache_dtype: str | None = None) -> float:
    """2 (K, V) × layers × kv_heads × head_dim × the element's bytes, split over the tensor-parallel GPUs (K/V
    heads replicated where there are fewer than GPUs)."""
    spec = w.spec()
    heads = spec.kv_heads or spec.heads or 1
    head_dim = spec.hidden / max(spec.heads, 1)
    per_gpu_heads = max(heads / tensor_parallel, 1.0)
    return 2 * spec.layers * per_gpu_heads * head_dim * kv_element_bytes(w, kv_cache_dtype)


def kv_budget(w: Workload, vram_gib: float, tensor_parallel: int, runtime: str) -> tuple[Band, float]:
    """Bytes each GPU of an engine keeps for the KV cache (low, central, high) and its weights' bytes."""
    spec = w.spec()
    weights = spec.params * weight_bytes_per_param(w) / tensor_parallel
    precision = "fp16" if w.quant is not None else w.precision
    act = inference_working_set(spec, CHUNK, precision, "sdpa", tensor_parallel)
    frac = MEMORY_FRACTION.get(runtime, 0.9)
    vram = vram_gib * GIB

    def budget(act_k: float, other_gib: float) -> float:
        rest = weights + act * act_k + other_gib * GIB
        if runtime == "tensorrt-llm":
            return max(frac * (vram - rest), 0.0)
        return max(frac * vram - rest, 0.0)

    ctx_low, ctx, ctx_high = CUDA_CONTEXT_GIB
    return Band(budget(1.0, ctx + GRAPHS_GIB[1]), budget(2.0, ctx_high + GRAPHS_GIB[2]),
                budget(0.5, ctx_low + GRAPHS_GIB[0])), weights


def gemm_efficiency(c: tp.Case, hw: tp.Hw) -> float | None:
    """The published GEMM efficiency (GEMM_EFFICIENCY) the case's runtime reaches on this card in this format,
    or None: another runtime (eager PyTorch, llama.cpp), another architecture, a weight-only quantised format."""
    if c.runtime not in TUNED_GEMM_RUNTIMES or hw.arch is None or hw.kind != "gpu":
        return None
    fmt = "fp8" if c.precision == "fp8" else "16-bit" if c.precision in ("fp16", "bf16", "amp") else None
    return GEMM_EFFICIENCY.get((hw.arch, fmt)) if fmt is not None else None


def step_time(c: tp.Case, hw: tp.Hw, theta: list[float]) -> tuple[float, dict[str, float]]:
    """Seconds per step and the share of each kind of term (:func:`throughput.step_time`), the step's GEMMs at a
    tuned kernel's rate where the runtime runs them so (:func:`gemm_efficiency`): FLOPs / (efficiency × the
    tensor-core peak) in place of the fitted tensor-core and power terms, where that is faster than they are
    (the fitted rate comes from eager PyTorch training steps). Everything else (memory, kernels, all-reduces)
    is the fitted model's."""
    eff = gemm_efficiency(c, hw)
    peak = tp.tensor_peak(c, hw)
    if eff is None or not peak:
        return tp.step_time(c, hw, theta)
    parts: dict[str, float] = {}
    fitted = 0.0
    for t in tp.terms(c, hw):
        v = t.a * math.exp(sum(s * theta[i] for i, s in t.params))
        if tp.is_tensor_term(t) or t.kind == "power":
            fitted += v
        else:
            parts[t.kind] = parts.get(t.kind, 0.0) + v
    tuned = tp.work(c)[0] / (eff * peak * hw.vendor_factor)
    parts["compute"] = parts.get("compute", 0.0) + min(fitted, tuned)
    return sum(parts.values()), parts


@dataclass(frozen=True)
class _Engine:
    """One engine's cases and hardware, for step times at any batch."""

    one: tp.Case
    hw: tp.Hw
    theta: list[float]
    prompt: int
    output: int
    chunked: bool = True  # prompts chunked into the decode steps; False: prefill-first (a step of their own)

    def decode(self, batch: float) -> tuple[float, dict[str, float]]:
        b = max(round(batch), 1)
        if b not in self._decoded:  # the bisection of a request rate asks for the same batches again
            self._decoded[b] = step_time(tp.llm_cases(self.one, b, self.prompt, self.output)["batch"], self.hw,
                                         self.theta)
        return self._decoded[b]

    @cached_property
    def _decoded(self) -> dict[int, tuple[float, dict[str, float]]]:
        return {}

    def prefill_per_token(self) -> float:
        return self._prefill_per_token

    @cached_property
    def _prefill_per_token(self) -> float:
        k = max(math.ceil(CHUNK / self.prompt), 1)
        pre = tp.llm_cases(self.one, k, self.prompt, self.output)["prefill"]
        t1 = step_time(pre, self.hw, self.theta)[0]
        t2 = step_time(replace(pre, batch=2 * k), self.hw, self.theta)[0]
        return max(t2 - t1, 0.0) / (k * self.prompt)

    def prefill_step(self) -> float:
        """One prompt's prefill as a step of its own (no chunked prefill): its weights read, its P tokens' FLOPs."""
        return self._prefill_step

    @cached_property
    def _prefill_step(self) -> float:
        return step_time(tp.llm_cases(self.one, 1, self.prompt, self.output)["prefill"], self.hw, self.theta)[0]

    def step(self, batch: float) -> float:
        """Time per output token of each running sequence at ``batch``: the decode step plus the prompts of the
        batch / O requests that start per step (chunked: inside the step, at their per-token cost; prefill-first:
        each a step of its own that the running sequences wait through)."""
        if not self.chunked:
            return self.decode(batch)[0] + batch / self.output * self.prefill_step()
        return self.decode(batch)[0] + batch / self.output * self.prompt * self.prefill_per_token()


def _ratios(fit: Fit | None, family: str, tensor_parallel: bool) -> tuple[float, float, dict[str, object]]:
    """measured / predicted at the low and high end: the family's held-out width, widened to the published
    large-batch rows' own ratios (those of the same kind: one GPU, or tensor parallel)."""
    from configurator.core.estimate import validation

    if fit is None:
        return 0.5, 2.0, {"family": family, "measurements": 0, "prior": True}
    wd = validation.width_for(fit, family)
    low, high = (wd.low_ratio, wd.high_ratio) if wd is not None else (0.5, 2.0)
    basis: dict[str, object] = {"family": family, "range_basis": wd.basis if wd else None,
                                "range_held_out": wd.rows if wd else 0,
                                "range_coverage": round(wd.coverage, 3) if wd and wd.coverage is not None else None}
    if family == "llm-decode":
        rows = [r for r in fit.cv if r.m.origin == LARGE_BATCH_ORIGIN and r.m.task == "decode"
                and (r.m.gpu_count > 1) == tensor_parallel]
        if rows:
            ratios = [r.m.value / r.predicted for r in rows]
            low, high = min(low, *ratios), max(high, *ratios)
            basis["large_batch_rows"] = [{"id": r.m.id, "batch": r.m.batch_size, "gpus": r.m.gpu_count,
                                          "measured": r.m.value, "predicted": round(r.predicted, 1),
                                          "source_url": r.m.source_url} for r in rows]
    basis["low_ratio"], basis["high_ratio"] = round(low, 3), round(high, 3)
    return low, high, basis


def _serve_ratios(fit: Fit | None, family: str) -> tuple[float, float, dict[str, object]] | None:
    """measured / predicted at the low and high end of a serving family (llm-serve, -ttft, -tpot): the held-out
    residuals of the published serving rows (each origin predicted by this module on the step model fitted to
    the others: validation.widths), or None where the fit has no such width (no serving rows)."""
    from configurator.core.estimate import validation

    wd = validation.width_for(fit, family)
    if wd is None:
        return None
    return wd.low_ratio, wd.high_ratio, {
        "family": family, "range_basis": wd.basis, "range_held_out": wd.rows, "origins": wd.origins,
        "median_error": round(wd.median, 3),
        "range_coverage": round(wd.coverage, 3) if wd.coverage is not None else None,
        "low_ratio": round(wd.low_ratio, 3), "high_ratio": round(wd.high_ratio, 3)}


def estimate(w: Workload, gpu_hw: tp.Hw, vram_gib: float, gpus: int, f: tp.Factors,
             system: tp.System | None = None, *, max_seqs: int = MAX_SEQS, ranges: bool = True,
             kv_cache_dtype: str | None = None, scheduler_steps: int = 1, chunked_prefill: bool = True,
             no_evict: bool | None = None) -> Serving:
    """The serving estimates of a build of ``gpus`` GPUs like ``gpu_hw`` (the slowest, its ``vram_gib`` the
    smallest), their link in ``system`` (tensor parallel). ``max_seqs``: the engine's largest batch (a published
    run's configured one); without ``ranges`` the central values only (each range's factors 1: the validation
    predicting published rows). ``kv_cache_dtype``: a quantised cache (KV_DTYPE_BYTES; None: the model's 16-bit
    one); ``scheduler_steps``: decode steps per scheduling (vLLM's --num-scheduler-steps, 1 by default);
    ``chunked_prefill`` False: prefill-first scheduling (vLLM before chunked prefill: a waiting prompt runs as a
    step of its own before the next decode step); ``no_evict``: the scheduler reserves each request's whole P + O
    when it admits it (None: the runtime's default, NO_EVICT_RUNTIMES)."""
    assert w.serving and w.prompt_tokens and w.output_tokens
    n = max(gpus, 1)
    ways = n if w.parallel == "tensor" else 1
    engines = max(n // ways, 1)
    runtime = w.effective_runtime
    sysm = system or tp.System()
    hw = replace(gpu_hw, link=sysm.link or gpu_hw.link, link_path=sysm.link_path)
    one = tp.planner_cases(replace(w, parallel="tensor" if ways > 1 else "none"), ways, gpu_hw.cc)["main"]
    # each decode step reads every running sequence's cache in its own dtype
    one = replace(one, kv_bytes=kv_element_bytes(w, kv_cache_dtype) if kv_cache_dtype else one.kv_bytes)
    eng = _Engine(one, hw, f.theta(), w.prompt_tokens, w.output_tokens, chunked_prefill)
    p, o = w.prompt_tokens, w.output_tokens
    k = max(int(scheduler_steps), 1)
    per_token = kv_bytes_per_token(w, ways, kv_cache_dtype)
    budget, weights = kv_budget(w, vram_gib, ways, runtime)
    # sequences one engine holds: central at the mean occupancy P + O/2, low at the full P + O; a no-evict scheduler
    # reserves the full P + O for each
    reserve = no_evict if no_evict is not None else runtime in NO_EVICT_RUNTIMES
    held = p + o if reserve else p + o / 2
    cap = Band(min(budget.value / per_token / held, max_seqs), min(budget.low / per_token / (p + o), max_seqs),
               min(budget.high / per_token / held, max_seqs))
    b_max = max(cap.value, 0.0)
    capacity = engines * b_max / (o * eng.step(b_max)) if b_max >= 1 else 0.0
    saturated = False
    queued = 0.0
    if w.concurrency is not None:
        per_engine = w.concurrency / engines
        running = min(per_engine, b_max)
        queued = max(per_engine - running, 0.0) * engines
        offered: float = float(w.concurrency)
        load = "concurrency"
    else:
        rate = float(w.request_rate or 0.0)
        offered, load = rate, "request_rate"
        saturated = rate >= capacity
        running = b_max if saturated else _batch_for(eng, rate / engines, b_max)
    b = max(running, 1.0) if b_max >= 1 else 0.0
    t_step = eng.step(b) if b else math.inf
    t_dec, parts = eng.decode(b or 1)
    tokens = engines * b / t_step if b else 0.0
    requests = tokens / o
    if ranges:
        lo_d, hi_d, basis_d = _ratios(f.fit, "llm-decode", ways > 1)
        lo_p, hi_p, basis_p = _ratios(f.fit, "llm-prefill", False)
    else:
        lo_d = hi_d = lo_p = hi_p = 1.0
        basis_d, basis_p = {}, {}
    # the serving families' own held-out residuals where the fit has them (they replace the decode and prefill
    # families' widths: those judge one step, these the whole serving estimate against published serving runs)
    own = {fam: _serve_ratios(f.fit, fam) if ranges else None for fam in ("llm-serve", "llm-serve-ttft",
                                                                             "llm-serve-tpot")}
    tpot = t_step * 1e3
    ttft: Band | None = None
    queue = 0.0
    lockstep: float | None = None
    if not saturated and b:
        ttft, queue, lockstep = _first_token(eng, w, engines, b_max, queued, requests, (t_step, t_dec, k),
                                             (lo_d, hi_d, lo_p, hi_p))
    tok_band = Band(tokens, tokens * lo_d, tokens * hi_d)
    req_band = Band(requests, requests * lo_d, requests * hi_d)
    tpot_band = Band(tpot, tpot / hi_d, tpot / lo_d)
    # basis "decode": what the tokens/s, requests/s and TPOT ranges rest on; "prefill": the TTFT's
    served: dict[str, object] = {}
    if (r := own["llm-serve"]) is not None:
        tok_band = Band(tokens, tokens * r[0], tokens * r[1])
        req_band = Band(requests, requests * r[0], requests * r[1])
        served["llm-serve"] = r[2]
    if (r := own["llm-serve-tpot"]) is not None:
        tpot_band = Band(tpot, tpot * r[0], tpot * r[1])
        served["llm-serve-tpot"] = r[2]
    basis: dict[str, object] = {"decode": served or basis_d, "prefill": basis_p}
    if ttft is not None and (r := own["llm-serve-ttft"]) is not None:
        ttft = Band(ttft.value, ttft.value * r[0], ttft.value * r[1])
        basis["prefill"] = {"llm-serve-ttft": r[2]}
    spread = ttft.value if ttft is not None else None
    if ttft is not None and lockstep is not None and lockstep > ttft.value:
        # a span from the spread-out TTFT to the clients' in step: its geometric middle, each end widened by the
        # residuals' factor
        ttft = Band(math.sqrt(ttft.value * lockstep), ttft.low, max(ttft.high, lockstep * ttft.high / ttft.value))
    return Serving(
        load, offered, engines, ways, per_token,
        Band(budget.value / GIB, budget.low / GIB, budget.high / GIB), weights / GIB,
        Band(engines * cap.value, engines * cap.low, engines * cap.high), running, queued, saturated,
        capacity, tok_band, req_band, ttft, queue * 1e3, spread, lockstep, tpot_band,
        max(parts, key=lambda k: parts[k]),
        {**basis, "chunk_tokens": CHUNK, "memory_fraction": MEMORY_FRACTION.get(runtime),
         "max_seqs": max_seqs, "kv_cache_dtype": kv_cache_dtype or "16-bit", "scheduler_steps": k,
         "kv_reserved_per_request": "prompt + output" if reserve else "prompt + output / 2",
         # the share of the tensor-core peak the step's GEMMs run at (GEMM_EFFICIENCY), or None: the fitted rate
         "gemm_efficiency": (round(e, 3) if (e := gemm_efficiency(one, hw)) is not None else None)})


def _first_token(eng: _Engine, w: Workload, engines: int, b_max: float, queued: float, requests: float,
                 steps_of: tuple[float, float, int], ratios: tuple[float, float, float, float]
                 ) -> tuple[Band, float, float | None]:
    """The TTFT (ms, its range from the decode and prefill models' ``ratios``: low and high of each), the part of it
    spent behind other prompts (seconds), and a closed loop's clients-in-step TTFT (ms; None: open loop), at the step
    times ``steps_of`` (t_step, t_decode at the running batch, k decode steps per scheduling; the module docstring)."""
    t_step, t_dec, k = steps_of
    lo_d, hi_d, lo_p, hi_p = ratios
    p, o = eng.prompt, eng.output
    wait = queued / requests if queued and requests else 0.0
    queue = 0.0
    if eng.chunked:
        prefill = p * eng.prefill_per_token()
        # a request arriving at a random time waits for the scheduling under way to end: half of its k steps; its
        # prompt then runs in ⌈P / CHUNK⌉ steps beside the running sequences' decode
        steps = k * t_step / 2 + math.ceil(p / CHUNK) * t_dec
        # the prompts ahead of it (prompt_wait): S seconds of prefill each, P tokens at CHUNK a step
        clients = min(w.concurrency / engines, b_max) if w.concurrency is not None else None
        queue = prompt_wait(prefill + p / CHUNK * t_dec, requests / engines, clients, o * t_step)
    else:
        # prefill-first: it waits for the step under way (half a decode step on average), then its prompt runs as a
        # step of its own
        prefill = eng.prefill_step()
        steps = k * t_dec / 2
    # the step times are the decode model's (its range), the prompt's the prefill model's
    ttft = Band((steps + prefill + wait + queue) * 1e3, ((steps + wait + queue) / hi_d + prefill / hi_p) * 1e3,
                ((steps + wait + queue) / lo_d + prefill / lo_p) * 1e3)
    lockstep: float | None = None
    if w.concurrency is not None:
        clients_n = max(round(min(w.concurrency / engines, b_max)), 1)
        lockstep = (lockstep_ttft(clients_n, p, o, STEP_TOKENS.get(w.effective_runtime, CHUNK),
                                  eng.decode(clients_n)[0], eng.prefill_per_token()) + wait) * 1e3
    return ttft, queue, lockstep


def prompt_wait(service: float, rate: float, clients: float | None = None, think: float = 0.0) -> float:
    """Mean seconds a prompt waits behind the prompts ahead of it, each ``service`` seconds of prefill: with
    ``clients`` N (a closed loop, each client ``think`` seconds between prompts) the mean value analysis of that
    network (deterministic residual); else (open loop, Poisson at ``rate`` requests/s) an M/D/1 queue's wait. 0 at
    no load; an open loop at ρ ≥ 1 never reaches here (saturated before)."""
    if service <= 0:
        return 0.0
    if clients is not None:
        q = u = 0.0
        r = service
        for n in range(1, max(round(clients), 1) + 1):
            r = service + service * max(q - u, 0.0) + u * service / 2
            x = n / (think + r)
            q, u = x * r, x * service
        return r - service
    rho = rate * service
    return rho * service / (2 * (1 - rho)) if 0 < rho < 1 else 0.0


def lockstep_ttft(clients: int, prompt: int, output: int, step_tokens: int, t_step: float, per_token: float
                  ) -> float:
    """Mean seconds to first token once ``clients`` identical requests (``prompt`` tokens in, ``output`` out) have
    fallen into step, ``step_tokens`` tokens a step (the running sequences' decode tokens among them), each step
    ``t_step`` (a decode step of the running batch) + its prompt tokens × ``per_token``.

    The first round's prompts, all sent at once, are prefilled in groups of as many as one step holds (one prompt in
    ⌈P / room⌉ steps where it holds less than one); each group finishes its output one step after the group before
    it and sends again while that group's next prompt runs, so every group but the first waits for the previous
    group's prefill, then runs its own (the first waits for the decode step under way): the chain repeats every
    round. Where a round's prefill steps outnumber a request's output steps the prompts queue: every step prefills,
    and a request waits out the rest of the round."""
    n = max(clients, 1)
    room = max(step_tokens - n, 1)
    if prompt <= room:
        size, steps = max(min(n, room // prompt), 1), 1
    else:
        size, steps = 1, math.ceil(prompt / room)
    groups = math.ceil(n / size)
    sizes = [size] * (groups - 1) + [n - size * (groups - 1)]
    prefill = [steps * t_step + s * prompt * per_token for s in sizes]
    # the first group waits for the decode step under way (none when it is the only group: the engine is idle)
    waits = [t_step if groups > 1 else 0.0, *prefill[:-1]]
    chain = sum(s * (w + t) for s, w, t in zip(sizes, waits, prefill, strict=True)) / n
    busy = groups * steps - output + 1  # steps of the round a request is not decoding in
    return max(chain, busy * sum(prefill) / (groups * steps)) if busy > 1 else chain


def _batch_for(eng: _Engine, rate: float, b_max: float) -> float:
    """The running batch at which an engine completes ``rate`` requests/s: rate = B / (O × t_step(B))
    (bisection; the completion rate grows with B)."""
    lo, hi = 0.0, b_max
    for _ in range(40):
        mid = (lo + hi) / 2
        done = mid / (eng.output * eng.step(max(mid, 1e-3)))
        lo, hi = (mid, hi) if done < rate else (lo, mid)
    return hi
