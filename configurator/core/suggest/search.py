"""Suggest: a constrained optimiser over the catalogue for a budget and a workload.

Hard constraints: the engine's error findings (a build with one is never suggested), the budget,
and the options (GPU count, case sizes, used-market cards). Soft constraints: every warning is a
penalty with a stated weight (:mod:`configurator.core.suggest.score`); a build's *score* is its
estimated throughput times (1 − weight) per warning rule, so the top pick is balanced, not only fast.

Throughput depends only on the GPUs, how many, the CPU and the board (through the PCIe links);
memory, storage, supply and case only decide whether a build is valid, what it costs and which
of their warnings it has. So the search ranks every (GPU × count, CPU × count, board)
configuration by its estimated throughput (an upper bound on its score) and completes each with
memory, a drive, a supply and a case: first the cheapest valid completion (branch and bound on
price, each candidate confirmed by the engine's rules), then, where that completion has
warnings a part could take away (``COMPLETION_RULES``: more RAM for BAL-3, a bigger supply for
PWR-5), the cheapest combination of such parts that the budget allows with the fewest penalties.

Goal "fastest" (the default): configurations from the fastest down; ties within 1 % of the best
score go to the cheaper build, then to the lower ids. The walk stops once no later configuration
can reach the best score's tie band or the alternatives. Goal "cheapest": configurations from the
cheapest up, the first whose score reaches the target throughput, with the same stop rule on price.

LLM training that fits no GPU build on its own memory (the default ``auto`` memory strategy):
Suggest tries fully sharded data parallel (FSDP/ZeRO-3) and then LoRA and QLoRA, and says which it
used; a CPU-only build is never the answer when a GPU build can meet the workload one of those ways.

This module holds the walks (:class:`Search`) and :func:`suggest`. The modules beside it: ``space`` (the
options and the configurations, best or cheapest first), ``candidates`` (the parts that can complete a
configuration), ``complete`` (the cheapest completion, then the fewest penalties), ``upgrade`` (left-over
budget), ``strategies`` (tensor split, FSDP, LoRA, QLoRA), ``pick`` (the winner and the alternatives),
``suggestion`` (the records), ``score`` (the penalties), ``prune`` (the dominated parts), ``serve`` (a serving
target) and ``explain`` (the reasons, the binding constraint, the trade-offs and why nothing was found).

Before the search, dominated parts are pruned (``prune``): a part is dropped when enough other
parts of its category cost no more (ties: a lower id) and are at least as good in every field
(equal in every field the rules read, except a few with a known better direction: a shorter,
less power-hungry card; a faster, bigger drive; a stronger supply; a roomier case). Such a part
can never be chosen (its dominator gives an equal or better, cheaper build), so the results are
the same; with a shop's 100,000 listings of the same models at different prices the search sees a
few hundred parts. GPUs need ``alternatives + 1`` dominators, since the alternatives are GPUs.
"""

from __future__ import annotations

import dataclasses
import heapq
import math
from collections.abc import Mapping

from configurator.core.build import Options, Workload
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import AnyPart
from configurator.core.suggest.complete import Completion
from configurator.core.suggest.pick import SIMPLER, pick
from configurator.core.suggest.prune import prune
from configurator.core.suggest.serve import meets, serve_target, served
from configurator.core.suggest.space import (
    TIE,
    Config,
    SuggestOptions,
    by_category,
    configs_by_bound,
    configs_by_price,
    held_rules,
)
from configurator.core.suggest.strategies import memory_strategies, split_inference, unsplit
from configurator.core.suggest.suggestion import Found, Suggestion

# An alternative (a GPU option other than the winner's) is the best build of its option among the first this
# many configurations of it completed, best bound first, not of all of them: where the CPU and board hardly
# change the estimate (one stream of a language model) hundreds tie, and each costs a completion. The winner
# is never cut short: a configuration that can reach the best score's tie band is always completed.
ALTERNATIVE_TRIES = 12
# A serving target's completions: the cheapest valid one, whatever its warnings' penalties (suggest.serve)
ANY_FACTOR = 1e-12


class Search(Completion):
    """The walks over the configurations (goal fastest, cheapest, a serving target)."""

    def fastest(self, alternatives: int) -> list[Found]:
        """Configurations in order of a bound on their score (throughput times the penalties of their
        own warnings), each completed only if it can still be the answer: reach the best score's tie band
        and undercut a build sure to stay in it, or be the best of its GPU option among the alternatives."""
        found: list[Found] = []
        reps: dict[tuple[str, int], Found] = {}
        tries: dict[tuple[str, int], int] = {}  # configurations completed per GPU option
        best = 0.0
        pending: list[tuple[float, int, int, Config]] = []  # (-bound, price, order, config)
        configs = configs_by_bound(self.parts_by, self.w, self.budget, self.est, self.prefs)
        upcoming = next(configs, None)
        order = 0

        def useful(cfg: Config, bound: float, lowest: float) -> bool:
            """Whether a configuration with this bound can still change the answer. Only ever turns false
            as the search goes on: the best score, the builds found and their GPU options only improve."""
            above = sum(1 for r in reps.values() if r.score > bound)
            if bound >= (1 - TIE) * best:
                # The final best is at most the highest bound still to come; a build within 1 % of that
                # stays in the tie band, and this configuration must undercut it to win.
                ceiling = max(best, bound, -pending[0][0] if pending else 0.0,
                              upcoming.throughput if upcoming is not None else 0.0)
                safe = min((f.price for f in found if f.score >= (1 - TIE) * ceiling), default=math.inf)
                if lowest <= safe:
                    return True
            if above > alternatives:
                return False
            rep = reps.get(cfg.gkey)
            if rep is None:
                return True
            if tries.get(cfg.gkey, 0) >= ALTERNATIVE_TRIES:
                return False  # an alternative: the best of its GPU option among the configurations tried
            return bound > rep.score or (bound == rep.score and lowest <= rep.price)

        while True:
            # Pull configurations while one could bound higher than the best one pending.
            while upcoming is not None and (not pending or upcoming.throughput >= -pending[0][0]):
                cfg, upcoming = upcoming, next(configs, None)
                if not useful(cfg, cfg.throughput, cfg.price + self.min_rest):
                    continue
                f_cfg = self.config_factor(cfg)
                if f_cfg is None:
                    continue
                bound = cfg.throughput * f_cfg
                heapq.heappush(pending, (-bound, cfg.price, order, cfg))
                order += 1
            if not pending:
                break
            neg, _price, _order, cfg = heapq.heappop(pending)
            bound = -neg
            if best and bound < (1 - TIE) * best and sum(1 for r in reps.values() if r.score > bound) > alternatives:
                break
            if not useful(cfg, bound, self.lowest_price(cfg)):
                continue
            tries[cfg.gkey] = tries.get(cfg.gkey, 0) + 1
            done = self.complete(cfg)
            if done is None:
                continue
            f = self.found(cfg, *done)
            found.append(f)
            self.built.add(cfg.gkey)
            best = max(best, f.score)
            rep = reps.get(cfg.gkey)
            if rep is None or f.order() < rep.order():
                reps[cfg.gkey] = f
        return found

    def cheapest(self, alternatives: int, target: float) -> list[Found]:
        found: list[Found] = []
        reps: dict[tuple[str, int], Found] = {}
        for cfg in configs_by_price(self.parts_by, self.w, self.budget, self.est, self.prefs, target):
            lowest_price = cfg.price + self.min_rest
            ranked = sorted(reps.values(), key=lambda f: (f.price, f.order()))
            if len(ranked) > alternatives and lowest_price > ranked[alternatives].price:
                break
            rep = reps.get(cfg.gkey)
            if rep is not None and lowest_price > rep.price:
                continue
            f_cfg = self.config_factor(cfg)
            if f_cfg is None or cfg.throughput * f_cfg < target:
                continue  # its own warnings already keep its score below the target
            if rep is not None and self.lowest_price(cfg) > rep.price:
                continue
            done = self.complete(cfg, need_factor=target / cfg.throughput)
            if done is None:
                continue
            f = self.found(cfg, *done)
            if f.score < target and f.throughput >= target:
                # The engine's estimate of the whole build is below the configuration's (an M.2 drive
                # taking lanes): ask again for the penalties that estimate allows.
                done = self.complete(cfg, need_factor=target / f.throughput)
                f = self.found(cfg, *done) if done is not None else f
            if f.score < target:
                continue
            found.append(f)
            if rep is None or (f.price, f.order()) < (rep.price, rep.order()):
                reps[cfg.gkey] = f
        return found


    def cheapest_serving(self, alternatives: int, cap: float = math.inf, min_gpus: int = 1) -> list[Found]:
        """Goal "cheapest" for a serving target (suggest.serve): configurations cheapest first whose GPUs' serving
        estimate meets it, each completed with its cheapest valid parts and kept where the engine's estimate of
        the whole build meets it too (the penalties of its warnings do not count against a serving target).
        ``cap``: only builds cheaper than this (another search's answer); ``min_gpus``: only this many GPUs or more
        (the tensor-parallel search after one copy per GPU: on one GPU the two are the same)."""
        target, serving = self.serve, self.serving
        assert target is not None and serving is not None
        found: list[Found] = []
        reps: dict[tuple[str, int], Found] = {}
        configs = configs_by_price(
            self.parts_by, self.w, self.budget, self.est, self.prefs, 0.0,
            option_ok=lambda g, n: n >= min_gpus and meets(serving.option(g, n), target),
            config_ok=lambda g, n, cpu, board, cpus: meets(serving.config(g, n, cpu, board, cpus), target))
        for cfg in configs:
            if cfg.price + self.min_rest >= cap:
                break
            ranked = sorted(reps.values(), key=lambda f: (f.price, f.order()))
            if len(ranked) > alternatives and cfg.price + self.min_rest > ranked[alternatives].price:
                break
            rep = reps.get(cfg.gkey)
            if rep is not None and cfg.price + self.min_rest > rep.price:
                continue
            if self.config_factor(cfg) is None:
                continue
            if rep is not None and self.lowest_price(cfg) > rep.price:
                continue
            done = self.complete(cfg, need_factor=ANY_FACTOR)
            if done is None:
                continue
            f = self.found(cfg, *done)
            if served(f.report, target) is None:
                self.errors.setdefault(cfg.gkey, frozenset({"serving"}))
                continue
            found.append(f)
            if rep is None or (f.price, f.order()) < (rep.price, rep.order()):
                reps[cfg.gkey] = f
        return found


def suggest(catalogue: Mapping[str, AnyPart], budget: float, workload: Workload, alternatives: int = 3,
            options: Options | None = None, pruned: bool = True, prefs: SuggestOptions | None = None
            ) -> list[Suggestion]:
    """The best build first, then up to ``alternatives`` others with different GPUs (or GPU counts).

    ``prefs``: the goal and the limits (``SuggestOptions``); ``pruned=False`` searches every part (the
    tests compare the two). The winner carries its top reasons and its binding constraint, each
    alternative what it trades against the winner."""
    prefs = prefs or SuggestOptions()
    bad = prefs.problems(workload)
    if bad:
        raise ValueError("; ".join(f"{k}: {m.render()}" for k, m in bad))
    options = options or Options()
    parts_by = by_category(prune(catalogue, alternatives) if pruned else catalogue)
    held = held_rules(workload, prefs)
    first: list[Suggestion] | None = None
    serving = serve_target(workload, prefs) is not None
    answers: list[list[Suggestion]] = []  # a serving target: one copy per GPU and split, the cheaper wins
    # The rules a training workload holds (ROCm cards, GPUs on a chipset or x4 link) are let through only
    # where no GPU build without them exists within the budget and the options.
    for level in ((held, frozenset()) if held else (held,)):
        strict = dataclasses.replace(prefs, held=level)
        tried: list[tuple[Workload, Message | None]] = [(workload, None)]
        if serving:
            tried += split_inference(workload, strict)
        elif prefs.memory == "auto" and prefs.max_gpus > 0:
            tried = split_inference(workload, strict) or tried
            tried += memory_strategies(workload, strict)
        for w, strategy in tried:
            search = Search(catalogue, parts_by, budget, w, options, strict)
            if search.serve is not None:
                # the split search only where it can be cheaper than one copy per GPU
                cap = answers[0][0].total_cny * (1 + SIMPLER) if answers else math.inf
                found = search.cheapest_serving(alternatives, cap, 2 if answers else 1)
            elif prefs.goal == "cheapest":
                assert prefs.target_throughput is not None
                found = search.cheapest(alternatives, prefs.target_throughput)
            else:
                found = search.fastest(alternatives)
            picked = pick(search, found, alternatives, strategy)
            if first is None:
                first = picked
            if picked and picked[0].gpu[0] != "-":
                picked = unsplit(picked, catalogue, workload)
                if level != held:
                    picked[0] = dataclasses.replace(picked[0], reasons=(*picked[0].reasons, Message(
                        "suggest", QT_TRANSLATE_NOOP(
                            "suggest", "Held as constraints for training, and let through because no GPU build "
                                       "within the budget and the options passes them: {rules} (priced in as "
                                       "warnings)."), {"rules": ", ".join(sorted(held))})))
                if not serving:
                    return picked
                answers.append(picked)
    if answers:
        return min(answers, key=lambda p: (p[0].total_cny, p[0].gpu[1]))
    return first or []  # CPU-only (or nothing): no GPU build meets the workload any of the ways tried
