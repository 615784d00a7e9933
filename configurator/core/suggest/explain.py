"""Why Suggest chose what it chose: the best build's reasons and binding constraint, what each
alternative trades, and why nothing was found where the catalogue and the options alone say so."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from configurator.core.build import Build, Workload
from configurator.core.estimate.memory import vram_per_gpu
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.numbers import unit_message
from configurator.core.parts import AnyPart, Case, Gpu, Motherboard
from configurator.core.suggest.score import Penalty, case_sizes, penalties
from configurator.core.suggest.serve import ServeEstimates, ServeTarget, serve_target, target_message, why_not_served
from configurator.core.suggest.space import (
    MAX_GPUS_LIMIT,
    RELAXABLE,
    TIE,
    Estimates,
    SuggestOptions,
    by_category,
    cpu_board_pairs,
    held_rules,
    tensor_split_ok,
    usable_gpus,
)
from configurator.core.units import GIB

if TYPE_CHECKING:
    from configurator.core.suggest.search import Search
    from configurator.core.suggest.suggestion import Found

def why_nothing(catalogue: Mapping[str, AnyPart], budget: float, workload: Workload,
                prefs: SuggestOptions | None = None) -> list[Message]:
    """Why suggest() found no build, where the catalogue and the options alone say so (the case sizes
    chosen take no board the catalogue has; even the cheapest parts cost more than the budget; no card
    holds the workload); empty where only the rules' checks of whole builds rule everything out."""
    prefs = prefs or SuggestOptions()
    out: list[Message] = []
    by = by_category(catalogue)
    target = serve_target(workload, prefs)
    if target is not None:
        out += _not_served(by, budget, workload, prefs, target)
        if out and out[-1].template.endswith("passes the rules:"):
            return [*out, _stopped(catalogue, budget, workload, prefs)]
    cases = [c for c in by.get("case", []) if isinstance(c, Case)]
    if prefs.case_sizes:
        cases = [c for c in cases if case_sizes(c) & prefs.case_sizes]
        sizes = ", ".join(sorted(prefs.case_sizes))
        if not cases:
            out.append(Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "The catalogue has no case of the sizes chosen ({sizes})."), {"sizes": sizes}))
        else:
            taken = sorted({ff for c in cases for ff in c.board_form_factors})
            boards = [b for b in by.get("motherboard", []) if isinstance(b, Motherboard)]
            if not any(b.form_factor in taken for b in boards):
                out.append(Message("suggest", QT_TRANSLATE_NOOP(
                    "suggest", "The {sizes} cases in the catalogue take {forms} boards, and the catalogue has no "
                               "such board: add one (Parts → Add custom part…) or allow other case sizes."),
                    {"sizes": sizes, "forms": ", ".join(taken)}))
    pairs = cpu_board_pairs(by, math.inf)
    cheapest = [min((p.price_cny for p in by.get(c, [])), default=0) for c in ("memory", "storage", "psu")]
    floor = min((p[4] for p in pairs), default=0) + sum(cheapest) + min((c.price_cny for c in cases), default=0)
    if pairs and floor > budget:
        out.append(Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Even the cheapest CPU, board, memory, drive, supply and case together cost ¥{floor:,}, "
                       "more than ¥{budget:,.0f}."), {"floor": floor, "budget": budget}))
    if prefs.min_gpus > 0:
        gpus = usable_gpus(by, prefs)
        low = vram_per_gpu(workload, prefs.max_gpus).low / GIB
        if gpus and not any(g.vram_gb >= low for g in gpus):
            out.append(Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "No card the options allow holds the workload: it needs at least {need:.1f} GiB per GPU "
                           "even across {n} GPUs (FIT-1)."), {"need": low, "n": prefs.max_gpus}))
    if not out:
        out.append(_stopped(catalogue, budget, workload, prefs))
    return out


def _not_served(by: dict[str, list[AnyPart]], budget: float, workload: Workload, prefs: SuggestOptions,
                target: ServeTarget) -> list[Message]:
    """A serving target no GPU option within the budget meets: what the best of them reaches (serve.why_not_served),
    one copy per GPU and, where it splits, tensor parallel."""
    floor = min((p[4] for p in cpu_board_pairs(by, budget)), default=math.inf)
    floor += sum(min((p.price_cny for p in by.get(c, [])), default=0) for c in ("memory", "storage", "psu", "case"))
    variants = [workload]
    if workload.parallel == "none" and prefs.max_gpus > 1:
        variants.append(dataclasses.replace(workload, parallel="tensor"))
    rows = []
    for w in variants:
        serving = ServeEstimates(w, Estimates(w))
        rows += [(g, n, serving.option(g, n)) for g in usable_gpus(by, prefs)
                 for n in range(max(prefs.min_gpus, 1), prefs.max_gpus + 1)
                 if g.price_cny * n + floor <= budget and tensor_split_ok(w, n)]
    return why_not_served(rows, budget, target)


def _stopped(catalogue: Mapping[str, AnyPart], budget: float, workload: Workload, prefs: SuggestOptions) -> Message:
    """Never empty: the rules that stopped every configuration the search tried, with how many each stopped,
    and the balance rules among them that ``--relax`` would let through."""
    from configurator.core.build import Options
    from configurator.core.suggest.prune import prune
    from configurator.core.suggest.search import Search

    prefs = dataclasses.replace(prefs, held=held_rules(workload, prefs))
    search = Search(catalogue, by_category(prune(catalogue, 0)), budget, workload, Options(), prefs)
    search.fastest(0)
    counts: dict[str, int] = {}
    for rules in search.errors.values():
        for r in rules:
            counts[r] = counts.get(r, 0) + 1
    if not counts:
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "No CPU, board and GPU count the options allow fits ¥{budget:,.0f}: raise the budget or "
                       "widen the GPU count."), {"budget": budget})
    ranked = ", ".join(f"{r} ({n})" for r, n in sorted(counts.items(), key=lambda t: (-t[1], t[0]))[:5])
    relaxable = sorted(r for r in counts if r in RELAXABLE and r not in prefs.relax)
    if relaxable:
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Every configuration within ¥{budget:,.0f} fails a rule (configurations stopped: {rules}); "
                       "--relax {relax} lets those warnings through, or raise the budget."),
            {"budget": budget, "rules": ranked, "relax": ",".join(relaxable)})
    return Message("suggest", QT_TRANSLATE_NOOP(
        "suggest", "Every configuration within ¥{budget:,.0f} fails a rule (configurations stopped: {rules}); raise "
                   "the budget or widen the options."), {"budget": budget, "rules": ranked})


def penalty_list(ps: Iterable[Penalty]) -> str:
    return ", ".join(f"{p.rule} −{p.weight:.0%}" for p in ps)


def reasons(search: Search, f: Found, band: list[Found], strategy: Message | None) -> tuple[Message, ...]:
    """The winner's top three reasons."""
    unit = unit_message(search.w.throughput_unit)  # in the reader's words
    out: list[Message] = []
    target = search.serve
    if target is not None:
        out.append(Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "The cheapest build without errors that serves {rate:,g} requests/s{bounds} by the engine's "
                       "central estimates: ¥{price:,}."),
            {"rate": target.rate, "bounds": target_message(target), "price": f.price}))
    elif search.prefs.goal == "cheapest":
        out.append(Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "The cheapest build without errors whose score reaches {target:,.0f} {unit}: ¥{price:,}."),
            {"target": search.prefs.target_throughput, "unit": unit, "price": f.price}))
    else:
        out.append(Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "The best score without errors within ¥{budget:,.0f}: {value:,.0f} {unit} estimated."),
            {"budget": search.budget, "value": f.throughput, "unit": unit}))
    ps = penalties(f.report.findings)
    r = f.report
    vram = sum(getattr(search.catalogue[p.id], "vram_gb", 0) * p.qty for p in f.build.parts
               if search.catalogue[p.id].category == "gpu")
    ram = sum(getattr(search.catalogue[p.id], "capacity_gb", 0) * p.qty for p in f.build.parts
              if search.catalogue[p.id].category == "memory")
    if not ps:
        if vram:
            out.append(Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "Balanced: no warnings to trade off ({ram} GB of RAM for {vram} GB of VRAM, "
                           "{cores} CPU cores for {gpus} GPU(s))."),
                {"ram": ram, "vram": vram, "cores": _cores(search, f.build), "gpus": f.cfg.n}))
        else:
            out.append(Message("suggest", QT_TRANSLATE_NOOP("suggest", "Balanced: no warnings to trade off.")))
    elif target is not None:
        out.append(Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Its warnings ({penalties}) do not count against a serving target, which the estimate meets "
                       "or not; the rules held as constraints (balance, heat, power) it passes."),
            {"penalties": penalty_list(ps)}))
    else:
        out.append(Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Its warnings are priced in ({penalties}) and it still scores highest: {score:,.0f} {unit}."),
            {"penalties": penalty_list(ps), "score": f.score, "unit": unit}))
    if strategy is not None:
        out.append(strategy)
    elif len(band) > 1:
        out.append(Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "The cheapest of {n} builds within 1 % of the best score."), {"n": len(band)}))
    else:
        fit = r.estimate("vram_per_gpu_gib")
        if fit is not None and fit.value and f.cfg.gpu is not None:
            out.append(Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "The workload needs about {need:.1f} GiB per GPU; the {gpu} has {have} GB."),
                {"need": float(fit.value), "gpu": f.cfg.gpu.name, "have": f.cfg.gpu.vram_gb}))
    return tuple(out[:3])


def _cores(search: Search, build: Build) -> int:
    return sum(getattr(search.catalogue[p.id], "cores", 0) * p.qty for p in build.parts
               if search.catalogue[p.id].category == "cpu")


def binding(search: Search, f: Found) -> Message:
    """What stops a faster build: the fastest GPU option above the winner, and why it is not the answer."""
    prefs, est, w = search.prefs, search.est, search.w
    if search.serve is not None:
        return _binding_serving(search, f)
    if prefs.goal == "cheapest":
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Binding: the target of {target:,.0f} {unit}; every cheaper configuration estimates below it."),
            {"target": prefs.target_throughput, "unit": unit_message(w.throughput_unit)})
    pairs = cpu_board_pairs(search.parts_by, math.inf)
    cheapest_pair = min((p[4] for p in pairs), default=0)
    faster: list[tuple[float, Gpu, int]] = []
    allowed = dataclasses.replace(prefs, max_gpus=MAX_GPUS_LIMIT, min_gpus=0)
    for g in usable_gpus(search.parts_by, allowed):
        for n in range(1, MAX_GPUS_LIMIT + 1):
            ub = est.upper_bound(g, n)
            if ub > f.throughput * (1 + TIE) and (g.id, n) != f.cfg.gkey:
                faster.append((ub, g, n))
    if not faster:
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Binding: none; no faster configuration is in the catalogue."))
    low_vram = {n: vram_per_gpu(w, n).low / GIB for n in range(1, MAX_GPUS_LIMIT + 1)}
    faster = [t for t in faster if low_vram[t[2]] <= t[1].vram_gb]  # cards that cannot hold it do not bind
    faster.sort(key=lambda t: (-t[0], t[1].price_cny * t[2]))

    def name(g: Gpu, n: int) -> str:
        return f"{n} × {g.name}" if n > 1 else g.name

    def lowest(g: Gpu, n: int) -> int:
        return g.price_cny * n + cheapest_pair + search.min_rest

    in_range = [(g, n) for _ub, g, n in faster if prefs.min_gpus <= n <= prefs.max_gpus]
    affordable = [(g, n) for g, n in in_range if lowest(g, n) <= search.budget]
    for g, n in affordable[:1]:  # the fastest that the budget allows, and why it is not the answer
        if (g.id, n) in search.built:
            return Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "Binding: the warnings; {name} would be faster but scores lower once its warnings are "
                           "priced in."), {"name": name(g, n)})
        errors = search.errors.get((g.id, n))
        if errors:
            return Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "Binding: the rules; {name} would be faster, but no build with it passes {rules}."),
                {"name": name(g, n), "rules": ", ".join(sorted(errors))})
    for _ub, g, n in faster:  # a GPU count outside the range, within the budget
        if not prefs.min_gpus <= n <= prefs.max_gpus and lowest(g, n) <= search.budget:
            return Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "Binding: the GPU count ({low}–{high}); {name} would be faster."),
                {"low": prefs.min_gpus, "high": prefs.max_gpus, "name": name(g, n)})
    for g, n in affordable[:1]:  # its parts alone fit, but no valid build with it does
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Binding: the budget; {name} would be faster, but no valid build with it fits ¥{budget:,.0f}."),
            {"name": name(g, n), "budget": search.budget})
    if in_range:
        g, n = min(in_range, key=lambda t: (lowest(*t), -est.upper_bound(*t)))
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Binding: the budget; the next faster option, {name}, needs at least ¥{price:,} for the "
                       "whole build."), {"name": name(g, n), "price": lowest(g, n)})
    return Message("suggest", QT_TRANSLATE_NOOP(
        "suggest", "Binding: none within the budget and the options; no faster configuration fits them."))


def _binding_serving(search: Search, f: Found) -> Message:
    """A serving target's binding constraint: the dearest GPU option whose parts cost less than the winner,
    and why it is not the answer (its serving estimate, or the rules)."""
    assert search.serve is not None and search.serving is not None
    t, prefs = search.serve, search.prefs
    pairs = cpu_board_pairs(search.parts_by, math.inf)
    floor = min((p[4] for p in pairs), default=0) + search.min_rest
    cheaper = [(g.price_cny * n + floor, g, n) for g in usable_gpus(search.parts_by, prefs)
               for n in range(max(prefs.min_gpus, 1), prefs.max_gpus + 1)
               if g.price_cny * n + floor < f.price and (g.id, n) != f.cfg.gkey]
    if not cheaper:
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Binding: none; no cheaper GPU option is in the catalogue and the options."))
    _price, g, n = max(cheaper, key=lambda c: (c[0], c[1].id))
    name = f"{n} × {g.name}" if n > 1 else g.name
    s = search.serving.option(g, n)
    if s.saturated or s.ttft_ms is None:
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Binding: the request rate; the next cheaper option, {name}, serves at most ≈ {cap:,.2f} "
                       "requests/s."), {"name": name, "cap": s.capacity_requests_per_s})
    if t.max_ttft_ms is not None and s.ttft_ms.value > t.max_ttft_ms:
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Binding: the time to first token; the next cheaper option, {name}, serves the rate with a "
                       "median of ≈ {ttft:,.0f} ms."), {"name": name, "ttft": s.ttft_ms.value})
    if t.max_tpot_ms is not None and s.tpot_ms.value > t.max_tpot_ms:
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Binding: the time per output token; the next cheaper option, {name}, serves the rate with a "
                       "median of ≈ {tpot:,.1f} ms."), {"name": name, "tpot": s.tpot_ms.value})
    errors = sorted(search.errors.get((g.id, n), frozenset()) - {"serving"})
    if errors:
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Binding: the rules; the next cheaper option, {name}, meets the target, but no build with it "
                       "passes {rules}."), {"name": name, "rules": ", ".join(errors)})
    return Message("suggest", QT_TRANSLATE_NOOP(
        "suggest", "Binding: the price of the rest; the next cheaper option, {name}, meets the target, but no valid "
                   "build with it costs less."), {"name": name})


def trade(winner: Found, f: Found) -> Message:
    """What an alternative trades against the winner: "¥3,100 less, 18 % slower"."""
    ttft = f.report.estimate("serving_ttft_ms")
    if ttft is not None and ttft.value is not None and f.report.build.workload is not None \
            and f.report.build.workload.request_rate is not None:
        more = f.price >= winner.price
        return Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "¥{cny:,} more; median time to first token ≈ {ttft:,.0f} ms") if more else QT_TRANSLATE_NOOP(
            "suggest", "¥{cny:,} less but more GPUs; median time to first token ≈ {ttft:,.0f} ms"),
            {"cny": abs(f.price - winner.price), "ttft": ttft.value})
    diff = f.price - winner.price
    speed = f.throughput / winner.throughput - 1 if winner.throughput else 0.0
    ps = penalties(f.report.findings)
    params: dict[str, Any] = {"cny": abs(diff), "pct": abs(speed), "penalties": penalty_list(ps)}
    if diff <= 0 and speed <= 0:
        text = (QT_TRANSLATE_NOOP("suggest", "¥{cny:,} less, {pct:.0%} slower; warnings: {penalties}") if ps else
                QT_TRANSLATE_NOOP("suggest", "¥{cny:,} less, {pct:.0%} slower"))
    elif diff <= 0:
        text = (QT_TRANSLATE_NOOP("suggest", "¥{cny:,} less, {pct:.0%} faster but scored lower for its warnings: "
                                             "{penalties}"))
    elif speed <= 0:
        text = (QT_TRANSLATE_NOOP("suggest", "¥{cny:,} more, {pct:.0%} slower; warnings: {penalties}") if ps else
                QT_TRANSLATE_NOOP("suggest", "¥{cny:,} more, {pct:.0%} slower"))
    else:
        text = QT_TRANSLATE_NOOP("suggest", "¥{cny:,} more, {pct:.0%} faster but scored lower for its warnings: "
                                            "{penalties}")
    return Message("suggest", text, params)


__all__ = ["binding", "penalty_list", "reasons", "trade", "why_nothing"]
