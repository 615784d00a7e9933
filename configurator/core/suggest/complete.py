"""Completing a configuration into a build: memory, a drive, a supply, a case and a cooler within the budget.
First the cheapest valid completion (branch and bound on price, each candidate confirmed by the engine's
rules, the supply checked against the estimated draw first), then, where that completion has warnings a
part could take away (``COMPLETION_RULES``), the cheapest combination of such parts the budget allows with
the fewest penalties."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from configurator.core.build import Build, BuildPart, resolve
from configurator.core.engine import Report, check
from configurator.core.estimate.power import estimate_power, is_atx3
from configurator.core.parts import AnyPart, Case, Cooler, Memory, Psu, Storage
from configurator.core.rules.fit import SMALL_PSU
from configurator.core.rules.pwr import NEAR_LIMIT_PCT, SUSTAINED_PCT
from configurator.core.suggest.candidates import Candidates, part_price
from configurator.core.suggest.score import (
    COMPLETION_ERRORS,
    COMPLETION_RULES,
    COMPLETION_STRICT,
    factor,
    warning_rules,
)
from configurator.core.suggest.space import Config, report_throughput
from configurator.core.suggest.suggestion import Found


def _cooler_fits(cooler: Cooler | None, case: Case) -> bool:
    """FIT-6's errors against the case: an air cooler's height, an AIO's radiator (where both are published)."""
    if cooler is None:
        return True
    if cooler.kind == "air":
        return cooler.height_mm is None or case.max_cpu_cooler_mm is None or cooler.height_mm <= case.max_cpu_cooler_mm
    return cooler.radiator_mm is None or case.radiator_sizes_mm is None or cooler.radiator_mm in case.radiator_sizes_mm


def _bay_fits(psu: Psu, case: Case) -> bool:
    """FIT-4's error: the supply goes in the case's bay (an SFX one in an ATX bay with a bracket)."""
    return psu.form_factor in case.psu_form_factors or (psu.form_factor in SMALL_PSU and "ATX" in case.psu_form_factors)


# Stops that only another part of one kind takes away (the others fixed): the cheapest completion goes on
# to the next part of that kind at once, instead of trying every case and cooler with this one.
_STOPPED_BY: dict[str, frozenset[str]] = {
    "memory": frozenset({"BAL-2", "BAL-3", "COMP-2", "COMP-3", "FIT-2"}),
    "storage": frozenset({"BAL-4", "FIT-3"}),
    "psu": frozenset({"PWR-1", "PWR-2", "PWR-3", "PWR-5"}),
}



class Completion(Candidates):
    """A search that completes configurations (see :class:`Candidates` for its state)."""

    # -- completing a configuration ---------------------------------------------------------------
    def complete(self, cfg: Config, need_factor: float = 0.0) -> tuple[list[BuildPart], Report] | None:
        """Memory, drive, supply and case for a configuration within the budget: the completion with
        the fewest penalties the budget allows (then the cheapest); for goal "cheapest", the cheapest
        whose penalties keep the factor at ``need_factor`` or above."""
        lists = self.candidates(cfg)
        if lists is None:
            return None
        base, mems, drives, psus, cases, coolers = lists
        room = self.budget - cfg.price
        first = self._cheapest(base, mems, drives, psus, cases, coolers, room, cfg)
        if first is None:
            return None
        choice, report = first
        warned = warning_rules(report.findings)
        fixable = {cat: rules & warned for cat, rules in COMPLETION_RULES.items() if rules & warned}
        if not fixable or (need_factor and factor(warned) >= need_factor):
            return self._parts(base, choice), report
        # The other parts stay as in the cheapest completion; each category's options are tried
        # alone, cheapest first, for the fewest of its own warnings (its front: dearer only if better).
        options: dict[str, Sequence[tuple[int, AnyPart, int]]] = {
                   "memory": mems, "storage": [(d.price_cny, d, 1) for d in drives],
                   "psu": [(p.price_cny, p, 1) for p in psus], "case": [(c.price_cny, c, 1) for c in cases],
                   "cooler": [(c.price_cny * cfg.cpus, c, cfg.cpus) for c in coolers if c is not None]}
        fronts: dict[str, list[tuple[float, int, tuple[AnyPart, int]]]] = {}
        for cat, rules in fixable.items():
            front = [(factor(rules), part_price(*choice[cat]), choice[cat])]
            left = room - sum(part_price(p, q) for c, (p, q) in choice.items() if c != cat)
            for price, part, qty in options[cat]:
                if price > left:
                    break
                if price <= front[-1][1] or (part, qty) == choice[cat]:
                    continue
                trial = {**choice, cat: (part, qty)}
                if not self._supply_fits(base, trial):
                    continue
                r = self.rules_check(self._parts(base, trial))
                if not self.valid(r):
                    continue
                f = factor(warning_rules(r.findings) & COMPLETION_RULES[cat])
                if f > front[-1][0]:
                    front.append((f, price, (part, qty)))
                    if f >= 1.0:
                        break  # nothing dearer in this category does better
            fronts[cat] = front
        cats = list(fronts)
        fixed = factor(warned - set().union(*fixable.values()))
        combos = []
        for picks in itertools.product(*(fronts[c] for c in cats)):
            if all(p[2] == choice[c] for c, p in zip(cats, picks, strict=True)):
                continue  # the cheapest completion itself
            extra = sum(p[1] for p in picks) - sum(fronts[c][0][1] for c in cats)
            combos.append((fixed * math.prod(p[0] for p in picks), extra, picks))
        # The fewest penalties first (goal fastest), or the cheapest that keeps the factor (cheapest).
        combos.sort(key=(lambda c: (c[1], -c[0])) if need_factor else (lambda c: (-c[0], c[1])))
        spent = sum(part_price(p, q) for p, q in choice.values())
        best_parts, best_report, best_factor = self._parts(base, choice), report, factor(warned)
        for predicted, extra, picks in combos:
            if spent + extra > room:
                continue
            if not need_factor and predicted <= best_factor:
                break  # the rest are predicted no better than what is found
            trial = {**choice, **{c: p[2] for c, p in zip(cats, picks, strict=True)}}
            if not self._supply_fits(base, trial):
                continue
            parts = self._parts(base, trial)
            r = self.rules_check(parts)
            if not self.valid(r):
                continue
            got = factor(warning_rules(r.findings))
            if need_factor and got >= need_factor:
                return parts, r
            if got > best_factor:
                best_parts, best_report, best_factor = parts, r, got
        if need_factor:
            return None
        return best_parts, best_report

    @staticmethod
    def _parts(base: list[BuildPart], choice: Mapping[str, tuple[AnyPart, int]]) -> list[BuildPart]:
        return [*base, *(BuildPart(p.id, q) for c in ("memory", "storage", "psu", "case", "cooler")
                         for p, q in (choice.get(c, (None, 0)),) if p is not None)]

    def _supply_fits(self, base: list[BuildPart], choice: Mapping[str, tuple[AnyPart, int]]) -> bool:
        """PWR-2 and FIT-4's errors, before the engine: the supply covers the peak; it goes in the case."""
        psu, case = choice["psu"][0], choice["case"][0]
        assert isinstance(psu, Psu) and isinstance(case, Case)
        if self.prefs.strict("PWR-5") and psu.watts * SUSTAINED_PCT < 100 * self._sustained(base):
            return False
        return _bay_fits(psu, case) and psu.watts >= self._peak(base, choice["memory"], choice["storage"][0], psu)

    def _sustained(self, base: list[BuildPart]) -> int:
        """The configuration's sustained draw (GPUs, CPUs, board): memory and drives only add to it, so a
        supply below 100/80 of this is short of every completion (PWR-5)."""
        key = ("sustained", id(base))
        got = self._peaks.get(key)
        if got is None:
            got = self._peaks[key] = estimate_power(resolve(Build(tuple(base)), self.catalogue)).sustained_w
        return got

    def _draw(self, base: list[BuildPart], memory: tuple[AnyPart, int], drive: AnyPart, psu: Psu) -> tuple[int, int]:
        """(peak, sustained) estimated draw. It reads the GPUs, CPUs and board, the modules' type and count, the
        drive's kind and whether the supply is ATX 3.x (estimate_power), so it is cached on those: kits of other
        capacities and drives of other sizes share it."""
        mem, qty = memory
        key = (id(base), getattr(mem, "memory_type", ""), getattr(mem, "modules", 1) * qty,
               getattr(drive, "kind", ""), self._atx3(psu))
        got = self._draws.get(key)
        if got is None:
            draft = [*base, BuildPart(mem.id, qty), BuildPart(drive.id), BuildPart(psu.id)]
            est = estimate_power(resolve(Build(tuple(draft)), self.catalogue))
            got = self._draws[key] = (est.peak_w, est.sustained_w)
        return got

    def _peak(self, base: list[BuildPart], memory: tuple[AnyPart, int], drive: AnyPart, psu: Psu) -> int:
        return self._draw(base, memory, drive, psu)[0]

    def _atx3(self, psu: Psu) -> bool:
        got = self._atx.get(psu.id)
        if got is None:
            got = self._atx[psu.id] = is_atx3(psu.atx_version)
        return got

    def _least_watts(self, base: list[BuildPart], memory: tuple[AnyPart, int], drive: AnyPart, psu: Psu) -> int:
        """The fewest watts a supply like this one (ATX 3.x or not) needs: the estimated peak (PWR-2), and where
        PWR-5 is held, 100/80 of the sustained draw and 100/90 of the peak (PWR-5's warnings)."""
        peak, sustained = self._draw(base, memory, drive, psu)
        if not self.prefs.strict("PWR-5"):
            return peak
        return max(peak, -(-100 * sustained // SUSTAINED_PCT), -(-100 * peak // NEAR_LIMIT_PCT))

    def _cheapest(self, base: list[BuildPart], mems: list[tuple[int, Memory, int]], drives: list[Storage],
                  psus: list[Psu], cases: list[Case], coolers: list[Cooler | None], room: float, cfg: Config
                  ) -> tuple[dict[str, tuple[Any, int]], Report] | None:
        """The cheapest valid completion within ``room``: branch and bound on price."""
        best: tuple[int, tuple[str, ...], dict[str, tuple[Any, int]], Report] | None = None
        min_psu, min_case = psus[0].price_cny, cases[0].price_cny + part_price(coolers[0], cfg.cpus)
        errors: set[str] = set()
        skip = ""  # a stop that only another part of this kind takes away: go on to the next of that kind
        for mem_price, mem, qty in mems:
            bound = best[0] if best else room
            if mem_price + drives[0].price_cny + min_psu + min_case > bound:
                break
            skip = ""
            for drive in drives:
                if skip == "memory":
                    break
                skip = ""
                partial = mem_price + drive.price_cny
                bound = best[0] if best else room
                if partial + min_psu + min_case > bound:
                    break
                # The least watts a supply needs with this memory and drive (PWR-2, and PWR-5 where held), for an
                # ATX 3.x supply and an older one: a number to compare, not a power estimate per supply.
                least: dict[bool, int] = {}
                for psu in psus:
                    if skip in ("memory", "storage"):
                        break
                    skip = ""
                    partial2 = partial + psu.price_cny
                    bound = best[0] if best else room
                    if partial2 + min_case > bound:
                        break
                    atx3 = self._atx3(psu)
                    if atx3 not in least:
                        least[atx3] = self._least_watts(base, (mem, qty), drive, psu)
                    if psu.watts < least[atx3]:
                        errors.add("PWR-5" if psu.watts >= self._peak(base, (mem, qty), drive, psu) else "PWR-2")
                        continue
                    for case in cases:
                        if skip:
                            break
                        if partial2 + case.price_cny + part_price(coolers[0], cfg.cpus) > (best[0] if best else room):
                            break
                        if not _bay_fits(psu, case):
                            errors.add("FIT-4")
                            continue
                        done = False
                        for cooler in coolers:
                            total = partial2 + case.price_cny + part_price(cooler, cfg.cpus)
                            if total > (best[0] if best else room):
                                break
                            if not _cooler_fits(cooler, case):
                                errors.add("FIT-6")
                                continue
                            choice: dict[str, tuple[Any, int]] = {
                                "memory": (mem, qty), "storage": (drive, 1), "psu": (psu, 1), "case": (case, 1),
                                "cooler": (cooler, cfg.cpus)}
                            parts = self._parts(base, choice)
                            report = self.rules_check(parts)
                            stops = self.stops(report)
                            if stops:
                                errors.update(stops)
                                if errors - COMPLETION_ERRORS - COMPLETION_STRICT:
                                    self.errors.setdefault(cfg.gkey, frozenset(errors))
                                    return None  # no other completion takes this error away
                                skip = next((kind for kind, rules in _STOPPED_BY.items() if stops <= rules), "")
                                if skip:
                                    break
                                continue
                            ids = tuple(sorted(p.id for p in parts))
                            if best is None or (total, ids) < (best[0], best[1]):
                                best = (total, ids, choice, report)
                            done = True
                            break  # dearer coolers only cost more
                        if done:
                            break  # later cases in this loop only cost more
        if best is None:
            if errors:
                self.errors.setdefault(cfg.gkey, frozenset(errors))
            return None
        return best[2], best[3]

    def found(self, cfg: Config, parts: list[BuildPart], lite: Report) -> Found:
        """The completed build with the engine's full check (its estimates give the score)."""
        build = self._build(parts)
        report = check(build, self.catalogue)
        t = report_throughput(report)
        return Found(cfg, build, report, report.total_cny, tuple(sorted(p.id for p in parts)), t,
                      t * factor(warning_rules(lite.findings)))

