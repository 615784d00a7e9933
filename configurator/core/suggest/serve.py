"""Suggest for a serving target: the cheapest build that serves the workload's request rate with the median
time to first token (TTFT), and optionally per output token (TPOT), within a bound.

The target: a serving workload (``task: serve``) with a ``request_rate`` N (requests/s arriving, open loop) and
goal "cheapest". A build meets it when the engine's own serving estimate of the whole build at that load
(:mod:`configurator.core.estimate.serving`) says it

- serves N requests/s: not saturated, i.e. the largest batch its KV cache holds completes more than N
  requests/s (at N the running batch is where completions equal arrivals, so requests/s is N);
- has a median TTFT at most ``max_ttft_ms`` and, where given, a median TPOT at most ``max_tpot_ms``.

Judged on the central estimates. The ranges (the decode and prefill models' held-out measured/predicted
ratios, about ×0.55–×1.7) are reported with the result, their pessimistic ends (requests/s low, TTFT and TPOT
high) named where they miss the bound, but not required: asking the pessimistic end to meet a bound asks for
about twice the hardware the central estimate needs, and a deployment is sized on a measured run anyway.
Warnings' penalties do not discount a serving target (they are a share of a throughput score; the target is
pass or fail on the estimate); the rules Suggest holds as constraints (balance, heat, power) still rule
builds out.

Before a configuration is completed, its serving estimate is worked out from its GPUs alone, with the same
function and fitted factors the engine uses: with a copy of the model per GPU (``parallel: none``) that is the
whole build's figure; split with tensor parallelism it takes the slot's PCIe link without the host memory's
cap on the path through it, a bound (the engine's link is never faster), so a configuration that fails it
fails as a whole build too.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from configurator.core.build import Workload
from configurator.core.engine import Report
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import interconnect as ic
from configurator.core.estimate import serving as srv
from configurator.core.estimate import throughput as tp
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import Cpu, Gpu, Motherboard
from configurator.core.suggest.space import Estimates, SuggestOptions

JUDGED = "central"  # which figure of each estimate must meet the target (see the module's text)


@dataclass(frozen=True)
class ServeTarget:
    rate: float  # requests/s the build must serve (the workload's request_rate)
    max_ttft_ms: float | None = None
    max_tpot_ms: float | None = None


def serve_target(w: Workload, prefs: SuggestOptions) -> ServeTarget | None:
    """The serving target Suggest looks for, or None: goal "cheapest" with a serving workload at a request rate."""
    if prefs.goal != "cheapest" or not w.serving or w.request_rate is None:
        return None
    return ServeTarget(float(w.request_rate), prefs.max_ttft_ms, prefs.max_tpot_ms)


def target_message(t: ServeTarget) -> Message | str:
    """The bounds in words (" with a median time to first token of at most 200 ms"), empty without one."""
    if t.max_ttft_ms is not None and t.max_tpot_ms is not None:
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", " with a median time to first token of at most {ttft:,g} ms and per output token of at most "
                       "{tpot:,g} ms"), {"ttft": t.max_ttft_ms, "tpot": t.max_tpot_ms})
    if t.max_ttft_ms is not None:
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", " with a median time to first token of at most {ttft:,g} ms"), {"ttft": t.max_ttft_ms})
    if t.max_tpot_ms is not None:
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", " with a median time per output token of at most {tpot:,g} ms"), {"tpot": t.max_tpot_ms})
    return ""


def meets(s: srv.Serving, t: ServeTarget) -> bool:
    """Whether a serving estimate meets the target, on its central figures."""
    if s.saturated or s.ttft_ms is None or s.max_concurrency.value < 1:
        return False
    if t.max_ttft_ms is not None and s.ttft_ms.value > t.max_ttft_ms:
        return False
    return t.max_tpot_ms is None or s.tpot_ms.value <= t.max_tpot_ms


class ServeEstimates:
    """The engine's serving estimate of a configuration's GPUs, cached on what it reads (the card's
    hardware and memory, the count, the link)."""

    def __init__(self, w: Workload, est: Estimates):
        self.w = w
        self.est = est
        self.tensor = w.parallel == "tensor"
        self._f: tp.Factors | None = None
        self._cache: dict[tuple[Any, ...], srv.Serving] = {}

    def at(self, gpu: Gpu, n: int, link: float | None = None, path: str = "pcie") -> srv.Serving:
        self.est.single(gpu)  # caches the card's hardware
        hw = self.est.hw[gpu.id]
        key = (hw, gpu.vram_gb, n, link, path)
        got = self._cache.get(key)
        if got is None:
            if self._f is None:
                self._f = fitting.factors_for(None)  # what check() fits without the user's measurements
            system = tp.System(n, link, path) if link is not None else None
            got = self._cache[key] = srv.estimate(self.w, hw, gpu.vram_gb, n, self._f, system)
        return got

    def _split(self, gpu: Gpu, n: int, gen: int, lanes: int) -> srv.Serving:
        pcie = ic.pcie_bytes_per_s(gen, lanes)
        if ic.has_p2p(gpu):
            return self.at(gpu, n, pcie, "pcie")
        return self.at(gpu, n, ic.host_path_bytes_per_s(pcie, None, n), "host")

    def option(self, gpu: Gpu, n: int) -> srv.Serving:
        """n of these cards on any board: with tensor parallelism over their own full link (no slot gives more)."""
        if self.tensor and n > 1:
            return self._split(gpu, n, gpu.pcie_gen, gpu.pcie_lanes)
        return self.at(gpu, n)

    def config(self, gpu: Gpu, n: int, cpu: Cpu, board: Motherboard, cpus: int) -> srv.Serving:
        """n of these cards in this board's slots (links.build_system without the host memory's cap)."""
        if self.tensor and n > 1:
            pl = self.est.place(gpu, n, board, cpu.pcie_gen, cpus)
            return self._split(gpu, n, min(s.gen for s in pl.seats), min(s.lanes for s in pl.seats))
        return self.at(gpu, n)


@dataclass(frozen=True)
class Range:
    value: float
    low: float | None
    high: float | None

    def to_json(self) -> dict[str, float | None]:
        return {"value": self.value, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class Served:
    """What a suggested build serves, from the engine's estimates of it at the target's load."""

    target: ServeTarget
    prompt_tokens: int
    output_tokens: int
    runtime: str
    requests_per_s: Range  # the engine's completions at the target's rate (the rate itself where it is served)
    capacity: Range | None  # the most requests/s it serves (its KV cache's largest batch), over the decode range
    ttft_ms: Range
    tpot_ms: Range

    def misses_at_the_pessimistic_end(self) -> list[str]:
        """The figures whose pessimistic end misses the target (the central one meets it)."""
        t = self.target
        out = []
        if self.capacity is not None and self.capacity.low is not None and self.capacity.low < t.rate:
            out.append("requests_per_s")
        if t.max_ttft_ms is not None and self.ttft_ms.high is not None and self.ttft_ms.high > t.max_ttft_ms:
            out.append("ttft_ms")
        if t.max_tpot_ms is not None and self.tpot_ms.high is not None and self.tpot_ms.high > t.max_tpot_ms:
            out.append("tpot_ms")
        return out

    def to_json(self) -> dict[str, Any]:
        t = self.target
        return {"request_rate": t.rate, "max_ttft_ms": t.max_ttft_ms, "max_tpot_ms": t.max_tpot_ms,
                "load": "request_rate", "prompt_tokens": self.prompt_tokens, "output_tokens": self.output_tokens,
                "runtime": self.runtime, "judged_on": JUDGED, "requests_per_s": self.requests_per_s.to_json(),
                "capacity_requests_per_s": self.capacity.to_json() if self.capacity else None,
                "ttft_ms": self.ttft_ms.to_json(), "tpot_ms": self.tpot_ms.to_json(),
                "pessimistic_end_misses": self.misses_at_the_pessimistic_end()}

    def messages(self) -> tuple[Message, ...]:
        """The result in words: the load it was judged at, by which figure, and the ranges."""
        t = self.target
        cap = self.capacity or Range(math.nan, None, None)
        out = [Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Judged at {rate:,g} requests/s ({prompt:,} prompt and {output:,} output tokens each, "
                       "{runtime}) on the central estimates: it serves them, at most ≈ {capacity:,.2f} requests/s "
                       "({low:,.2f}–{high:,.2f} over the decode model's range)."),
            {"rate": t.rate, "prompt": self.prompt_tokens, "output": self.output_tokens, "runtime": self.runtime,
             "capacity": cap.value, "low": _or(cap.low), "high": _or(cap.high)})]
        bound = (Message("suggest", QT_TRANSLATE_NOOP("suggest", " (bound {bound:,g} ms)"), {"bound": t.max_ttft_ms})
                 if t.max_ttft_ms is not None else "")
        out.append(Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Median time to first token ≈ {ttft:,.0f} ms ({low:,.0f}–{high:,.0f}){bound}; per output "
                       "token ≈ {tpot:,.1f} ms ({tpot_low:,.1f}–{tpot_high:,.1f}){tpot_bound}."),
            {"ttft": self.ttft_ms.value, "low": _or(self.ttft_ms.low), "high": _or(self.ttft_ms.high),
             "bound": bound, "tpot": self.tpot_ms.value, "tpot_low": _or(self.tpot_ms.low),
             "tpot_high": _or(self.tpot_ms.high),
             "tpot_bound": Message("suggest", QT_TRANSLATE_NOOP("suggest", " (bound {bound:,g} ms)"),
                                   {"bound": t.max_tpot_ms}) if t.max_tpot_ms is not None else ""}))
        missed = self.misses_at_the_pessimistic_end()
        if missed:
            out.append(Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "The central estimates meet the target; the ranges' pessimistic ends do not ({figures}): "
                           "measure the build under this load before relying on it."),
                {"figures": ", ".join(FIGURE_NAMES[k] for k in missed)}))
        return tuple(out)


FIGURE_NAMES = {"requests_per_s": "requests/s", "ttft_ms": "TTFT", "tpot_ms": "TPOT"}


def _or(x: float | None) -> float:
    return math.nan if x is None else x


def served(report: Report, t: ServeTarget) -> Served | None:
    """The engine's serving estimates of a checked build, or None where they do not meet the target (saturated,
    no estimate, a median over a bound)."""
    w = report.build.workload
    by = {e.key: e for e in report.estimates if e.key.startswith("serving_")}
    rps, ttft, tpot = by.get("serving_requests_per_s"), by.get("serving_ttft_ms"), by.get("serving_tpot_ms")
    if w is None or rps is None or ttft is None or tpot is None or rps.value is None or ttft.value is None \
            or tpot.value is None or rps.inputs.get("saturated") or w.prompt_tokens is None or w.output_tokens is None:
        return None
    if t.max_ttft_ms is not None and ttft.value > t.max_ttft_ms:
        return None
    if t.max_tpot_ms is not None and tpot.value > t.max_tpot_ms:
        return None
    # The most it serves: the engine's figure (in its wording's parameters), over the requests/s range's ratios
    most = rps.how.params.get("capacity")
    capacity = None
    if isinstance(most, int | float) and rps.value:
        capacity = Range(float(most), float(most) * rps.low / rps.value if rps.low is not None else None,
                         float(most) * rps.high / rps.value if rps.high is not None else None)
    return Served(t, w.prompt_tokens, w.output_tokens, w.effective_runtime,
                  Range(rps.value, rps.low, rps.high), capacity,
                  Range(ttft.value, ttft.low, ttft.high), Range(tpot.value, tpot.low, tpot.high))


def why_not_served(options: Iterable[tuple[Gpu, int, srv.Serving]], budget: float, t: ServeTarget
                   ) -> list[Message]:
    """What the best GPU option within the budget reaches where none meets the target: the most requests/s any
    serves, and of those that serve the rate the lowest median TTFT (and TPOT). Empty where one meets it (then
    the rules' checks of whole builds ruled everything out)."""
    rows = list(options)
    meeting = sorted({(g.price_cny * n, f"{n} × {g.name}" if n > 1 else g.name) for g, n, s in rows if meets(s, t)})
    if meeting:
        return [Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "{count} GPU option(s) within ¥{budget:,.0f} meet the serving target by their estimate "
                       "(the cheapest: {names}), but no complete build with them passes the rules:"),
            {"count": len(meeting), "budget": budget, "names": ", ".join(name for _p, name in meeting[:3])})]
    if not rows:
        return []
    out: list[Message] = []
    g, n, s = max(rows, key=lambda r: (r[2].capacity_requests_per_s, -r[0].price_cny * r[1]))
    if s.capacity_requests_per_s <= 0:
        return [Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "No GPU option within ¥{budget:,.0f} holds the model's weights and one request's KV cache."),
            {"budget": budget})]
    serving = [r for r in rows if not r[2].saturated and r[2].ttft_ms is not None]
    if not serving:
        return [Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "No build within ¥{budget:,.0f} serves {rate:,g} requests/s: the most is ≈ {best:,.2f} "
                       "requests/s, {n} × {gpu} (its KV cache full)."),
            {"budget": budget, "rate": t.rate, "best": s.capacity_requests_per_s, "n": n, "gpu": g.name})]
    if t.max_ttft_ms is not None:
        g, n, s = min(serving, key=lambda r: (_ttft(r[2]), r[0].price_cny * r[1]))
        if _ttft(s) > t.max_ttft_ms:
            out.append(Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "Of the builds within ¥{budget:,.0f} that serve {rate:,g} requests/s, the lowest median "
                           "time to first token is ≈ {ttft:,.0f} ms ({n} × {gpu}), above {bound:,g} ms."),
                {"budget": budget, "rate": t.rate, "ttft": _ttft(s), "n": n, "gpu": g.name, "bound": t.max_ttft_ms}))
    if t.max_tpot_ms is not None:
        g, n, s = min(serving, key=lambda r: (r[2].tpot_ms.value, r[0].price_cny * r[1]))
        if s.tpot_ms.value > t.max_tpot_ms:
            out.append(Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "Of the builds within ¥{budget:,.0f} that serve {rate:,g} requests/s, the lowest median "
                           "time per output token is ≈ {tpot:,.1f} ms ({n} × {gpu}), above {bound:,g} ms."),
                {"budget": budget, "rate": t.rate, "tpot": s.tpot_ms.value, "n": n, "gpu": g.name,
                 "bound": t.max_tpot_ms}))
    if not out:
        out.append(Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Builds within ¥{budget:,.0f} meet the time to first token or the time per output token at "
                       "{rate:,g} requests/s, none both."), {"budget": budget, "rate": t.rate}))
    return out


def _ttft(s: srv.Serving) -> float:
    return s.ttft_ms.value if s.ttft_ms is not None else math.inf
