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

The modules beside this one: ``space`` (the options and the configurations, best or cheapest
first), ``score`` (the penalties), ``prune`` (the dominated parts) and ``explain``
(the reasons, the binding constraint, the trade-offs and why nothing was found).

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
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from configurator.core.build import Build, BuildPart, Options, Workload, resolve
from configurator.core.engine import Report, check
from configurator.core.estimate.memory import host_ram
from configurator.core.estimate.power import estimate_power, is_atx3
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import AnyPart, Case, Cooler, Cpu, Gpu, Memory, Motherboard, Psu, Storage
from configurator.core.rules.bal import cores_needed, ram_needed_gib, storage_need
from configurator.core.rules.fit import SMALL_PSU
from configurator.core.rules.pwr import NEAR_LIMIT_PCT, SUSTAINED_PCT, connectors
from configurator.core.rules.shared import mid_tower
from configurator.core.rules.therm import MID_TOWER_OPEN_AIR, stacked
from configurator.core.suggest.explain import binding, reasons, trade
from configurator.core.suggest.prune import config_profile, prune
from configurator.core.suggest.score import (
    COMPLETION_ERRORS,
    COMPLETION_RULES,
    COMPLETION_STRICT,
    CONFIG_RULES,
    Penalty,
    case_sizes,
    factor,
    penalties,
    warning_rules,
)
from configurator.core.suggest.serve import Served, ServeEstimates, meets, serve_target, served
from configurator.core.suggest.space import (
    TIE,
    Config,
    Estimates,
    SuggestOptions,
    by_category,
    configs_by_bound,
    configs_by_price,
    held_rules,
    report_throughput,
)

# A build with fewer GPUs (one bigger card instead of two, one supply instead of a bigger one) wins over a
# cheaper or equally scored one with more when it costs at most this much more: the simpler build an
# expert takes (fewer cards to fit, cool and power, no multi-GPU scaling to rely on).
SIMPLER = 0.03
# An alternative (a GPU option other than the winner's) is the best build of its option among the first this
# many configurations of it completed, best bound first, not of all of them: where the CPU and board hardly
# change the estimate (one stream of a language model) hundreds tie, and each costs a completion. The winner
# is never cut short: a configuration that can reach the best score's tie band is always completed.
ALTERNATIVE_TRIES = 12
# A serving target's completions: the cheapest valid one, whatever its warnings' penalties (suggest.serve)
ANY_FACTOR = 1e-12


@dataclass(frozen=True)
class Suggestion:
    build: Build
    report: Report
    throughput: float
    unit: str
    gpu: tuple[str, int]  # (GPU id or "-", count)
    score: float = 0.0  # throughput times the penalties' factors
    penalties: tuple[Penalty, ...] = ()
    reasons: tuple[Message, ...] = ()  # the winner: its top reasons; an alternative: what it trades
    binding: Message | None = None  # the winner: what stops a faster build
    strategy: Message | None = None  # how the workload was made to fit (FSDP, LoRA), if it was changed
    serving: Served | None = None  # a serving target (suggest.serve): what the build serves at its load

    @property
    def total_cny(self) -> int:
        return self.report.total_cny

    @property
    def workload(self) -> Workload | None:
        return self.build.workload

    def key(self) -> tuple[int, tuple[str, ...]]:
        return self.total_cny, tuple(sorted(p.id for p in self.build.parts))


def report_score(report: Report) -> float:
    """A checked build's score: its throughput times its warnings' penalties."""
    return report_throughput(report) * factor(warning_rules(report.findings))


def _memory_options(mems: list[Memory], board: Motherboard, cpu: Cpu, cpus: int, need_gb: float,
                    min_modules: int = 0) -> list[tuple[int, Memory, int]]:
    """(price, kit, kits) for every way to fill the board with one kit that is at least ``need_gb``,
    cheapest first; of equal capacity and module count only the cheapest (the rules and estimates
    read those, the type and the speed, which one kit has throughout)."""
    out: dict[tuple[Any, ...], tuple[int, Memory, int]] = {}
    limit = min(board.max_memory_gb, cpu.max_memory_gb * cpus)
    for m in mems:
        if m.memory_type != board.memory_type or m.memory_type not in cpu.memory_types:
            continue
        if m.rdimm and not (board.rdimm and cpu.rdimm):
            continue
        if not m.rdimm and not board.udimm:
            continue
        for qty in range(1, board.memory_slots // m.modules + 1):
            cap = m.capacity_gb * qty
            if cap > limit:
                break
            if cap >= need_gb and m.modules * qty >= min_modules:
                key = (cap, m.modules * qty, m.ecc, m.rdimm, m.speed_mts, m.memory_type)
                option = (m.price_cny * qty, m, qty)
                if key not in out or (option[0], m.id) < (out[key][0], out[key][1].id):
                    out[key] = option
    return sorted(out.values(), key=lambda t: (t[0], t[1].id, t[2]))


def _base(cfg: Config) -> list[BuildPart]:
    """A configuration's parts: its GPUs (a used-market card marked used), CPUs and board."""
    base = [BuildPart(cfg.gpu.id, cfg.n, used=cfg.gpu.used_market)] if cfg.gpu is not None else []
    return [*base, BuildPart(cfg.cpu.id, cfg.cpus), BuildPart(cfg.board.id)]


def _price(part: AnyPart | None, qty: int) -> int:
    return part.price_cny * qty if part is not None else 0


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


@dataclass
class Found:
    cfg: Config
    build: Build
    report: Report  # the engine's full check
    price: int
    ids: tuple[str, ...]
    throughput: float
    score: float

    def order(self) -> tuple[float, int, tuple[str, ...]]:
        return (-self.score, self.price, self.ids)


class Search:
    def __init__(self, catalogue: Mapping[str, AnyPart], parts_by: dict[str, list[AnyPart]], budget: float,
                 w: Workload, options: Options, prefs: SuggestOptions):
        self.catalogue = catalogue
        self.parts_by = parts_by
        self.budget = budget
        self.w = w
        self.options = options
        self.prefs = prefs
        self.est = Estimates(w)
        self.serve = serve_target(w, prefs)
        self.serving = ServeEstimates(w, self.est) if self.serve is not None else None
        # Why GPU options have no valid build (the error rules that stopped them), and which have one: the
        # winner's binding constraint reads them.
        self.errors: dict[tuple[str, int], frozenset[str]] = {}
        self.built: set[tuple[str, int]] = set()
        self._peaks: dict[tuple[Any, ...], int] = {}
        self._lists: dict[tuple[Any, ...], Any] = {}
        self._config_factors: dict[tuple[Any, ...], tuple[frozenset[str], float]] = {}
        self._specs: dict[str, Any] = {}
        self._psu_lists: dict[tuple[Any, ...], list[Psu]] = {}
        self._mem_lists: dict[tuple[Any, ...], list[tuple[int, Memory, int]]] = {}
        self._atx: dict[str, bool] = {}
        self._draws: dict[tuple[Any, ...], tuple[int, int]] = {}
        cases = [c for c in parts_by.get("case", []) if isinstance(c, Case)]
        if prefs.case_sizes:
            cases = [c for c in cases if case_sizes(c) & prefs.case_sizes]
        self.cases = cases
        self.coolers = [c for c in parts_by.get("cooler", []) if isinstance(c, Cooler)]
        # BAL-4 as a constraint: one drive holds the data set, the environment and the checkpoints kept.
        self.need_storage_gb = storage_need(w).total_gb if prefs.strict("BAL-4") else (w.dataset_gb or 0)
        self.drives = [s for s in parts_by.get("storage", []) if isinstance(s, Storage)
                       and self.need_storage_gb <= s.capacity_gb]
        cheapest = [min((p.price_cny for p in parts_by.get(c, [])), default=None)
                    for c in ("memory", "storage", "psu")]
        cheapest.append(min((c.price_cny for c in cases), default=None))
        self.min_rest = sum(c for c in cheapest if c is not None)

    # -- checking -------------------------------------------------------------------------------
    def stops(self, report: Report) -> set[str]:
        """The rules that rule a checked build out: its errors, and its warnings Suggest holds as
        constraints (balance unless relaxed, heat and power)."""
        return {f.rule for f in report.findings
                if f.severity == "error" or (f.severity == "warning" and self.prefs.strict(f.rule))}

    def valid(self, report: Report) -> bool:
        return not self.stops(report)

    def rules_check(self, parts: Sequence[BuildPart]) -> Report:
        """The engine's rules on a build (no estimates): validity and warnings."""
        return check(self._build(parts), self.catalogue, with_estimates=False)

    def _build(self, parts: Sequence[BuildPart]) -> Build:
        return Build(tuple(parts), budget_cny=self.budget, options=self.options, workload=self.w)

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
            front = [(factor(rules), _price(*choice[cat]), choice[cat])]
            left = room - sum(_price(p, q) for c, (p, q) in choice.items() if c != cat)
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
        spent = sum(_price(p, q) for p, q in choice.values())
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

    def lowest_price(self, cfg: Config) -> float:
        """No build of this configuration costs less: its price and the cheapest candidate of each part."""
        lists = self.candidates(cfg)
        if lists is None:
            return math.inf
        _base, mems, drives, psus, cases, coolers = lists
        return (cfg.price + mems[0][0] + drives[0].price_cny + psus[0].price_cny + cases[0].price_cny
                + _price(coolers[0], cfg.cpus))

    def candidates(self, cfg: Config) -> tuple[list[BuildPart], list[tuple[int, Memory, int]], list[Storage],
                                                list[Psu], list[Case], list[Cooler | None]] | None:
        key = (cfg.gkey, cfg.cpu.id, cfg.cpus, cfg.board.id)
        if key not in self._lists:
            self._lists[key] = self._candidates(cfg)
        return self._lists[key]  # type: ignore[no-any-return]

    def _candidates(self, cfg: Config) -> tuple[list[BuildPart], list[tuple[int, Memory, int]], list[Storage],
                                                 list[Psu], list[Case], list[Cooler | None]] | None:
        """The parts that can complete a configuration. The filters are necessary conditions of the
        engine's error rules (COMP-2/3, FIT-2/3/5, PWR-3, COMP-4), so nothing valid is skipped."""
        w, parts_by = self.w, self.parts_by
        gpus = [cfg.gpu] * cfg.n if cfg.gpu is not None else []
        n_usable = cfg.n if cfg.gpu is not None and (cfg.gpu.vendor == "nvidia" or cfg.gpu.rocm_supported) else 0
        need_ram = host_ram(w, n_usable).first_principles_gib
        if self.prefs.strict("BAL-3") and gpus:
            need_ram = max(need_ram, ram_needed_gib(w, gpus)[0])
        min_modules = 0
        if self.prefs.strict("BAL-2"):  # one module per channel the board reaches, per CPU
            per_socket = max(cfg.board.memory_slots // max(cfg.board.sockets, 1), 1)
            min_modules = min(cfg.cpu.memory_channels, per_socket) * cfg.cpus
        mem_key = (cfg.board.id, cfg.cpu.id, cfg.cpus, need_ram, min_modules)
        mems = self._mem_lists.get(mem_key)
        if mems is None:
            mems = self._mem_lists[mem_key] = _memory_options(
                [m for m in parts_by.get("memory", []) if isinstance(m, Memory)], cfg.board, cfg.cpu, cfg.cpus,
                need_ram, min_modules)
        drives = self.drives
        psu_key = (self._spec(cfg.gpu), cfg.n, cfg.cpu.id, cfg.cpus)
        psus = self._psu_lists.get(psu_key)
        if psus is None:
            psus = self._psu_lists[psu_key] = [p for p in parts_by.get("psu", []) if isinstance(p, Psu)
                                               and self._supply_ok(gpus, cfg.cpus, p)]
        lowest = 0
        stacked_open = crowded = False
        if gpus:
            assert cfg.gpu is not None
            pl = self.est.place(cfg.gpu, cfg.n, cfg.board, cfg.cpu.pcie_gen, cfg.cpus)
            lowest = pl.lowest_position
            # THERM-2's errors: stacked open-air cards need a rack chassis's fan wall; more than two open-air
            # cards need more than a mid tower.
            open_air = cfg.gpu.cooling == "open_air"
            stacked_open = open_air and bool(stacked(pl))
            crowded = open_air and cfg.n > MID_TOWER_OPEN_AIR
        width = cfg.board.width_mm
        cases = [c for c in self.cases
                 if cfg.board.form_factor in c.board_form_factors and lowest <= c.expansion_slots
                 and (cfg.gpu is None or (cfg.gpu.length_mm or 0) <= c.max_gpu_length_mm)
                 and (cfg.gpu is None or cfg.gpu.cooling != "passive" or c.server_airflow)  # THERM-1
                 and (not stacked_open or c.server_airflow)  # THERM-2
                 and (not crowded or c.server_airflow or not mid_tower(c.form_factor))
                 and (width is None or c.max_board_width_mm is None or width <= c.max_board_width_mm)]  # FIT-5
        base = _base(cfg)
        # PWR-2 without memory and drives: their watts only add to the peak, so a supply short of this is
        # short of every completion (an ATX 3.x supply needs less transient headroom: its own bound).
        floor: dict[bool, int] = {}
        strong = []
        for p in psus:
            atx3 = is_atx3(p.atx_version)
            if atx3 not in floor:
                floor[atx3] = estimate_power(resolve(Build((*base, BuildPart(p.id))), self.catalogue)).peak_w
            if p.watts >= floor[atx3]:
                strong.append(p)
        if not cases and (stacked_open or crowded):
            self.errors.setdefault(cfg.gkey, frozenset({"THERM-2"}))
            return None
        missing = {"BAL-3" if self.prefs.strict("BAL-3") else "COMP-2": not mems,
                   "BAL-4" if self.prefs.strict("BAL-4") else "STO-4": not drives,
                   "PWR-3": not psus, "PWR-2": bool(psus) and not strong,
                   "COMP-4": not cases}
        psus = strong
        if any(missing.values()):
            # which error the engine would give without a fitting part of that kind
            self.errors.setdefault(cfg.gkey, frozenset(r for r, m in missing.items() if m))
            return None
        # A CPU without a cooler in its box gets the cheapest one that mounts on its socket (FIT-6); where the
        # catalogue has none for the socket (a server CPU's heatsink comes with the chassis), none.
        fitting = [c for c in self.coolers if cfg.cpu.socket in c.cpu_sockets]
        coolers: list[Cooler | None] = [None, *fitting] if cfg.cpu.boxed_cooler or not fitting else list(fitting)
        return base, mems, drives, psus, cases, coolers

    def _supply_ok(self, gpus: list[Gpu], cpus: int, psu: Psu) -> bool:
        """PWR-3's error, and where PWR warnings are constraints, PWR-3's adapter warnings and PWR-1's vendor
        recommendation (the vendor's figure for one card plus the others' board power)."""
        c = connectors(gpus, cpus, psu)
        if not c.ok:
            return False
        if self.prefs.strict("PWR-5") and psu.redundant:
            return False  # Suggest fits one supply: one module of a redundant set has no spare (PWR-5)
        if self.prefs.strict("PWR-3") and (c.short_16 or c.eps_adapted):
            return False
        if self.prefs.strict("PWR-1") and gpus:
            vendor = max((g.recommended_psu_w or 0) for g in gpus)
            if vendor:
                extra = sum(g.board_power_w for g in gpus) - max(g.board_power_w for g in gpus)
                if psu.watts < vendor + extra and not psu.redundant:
                    return False
        return True

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

    def config_factor(self, cfg: Config) -> float | None:
        """The penalties a configuration has whatever completes it (``CONFIG_RULES``), from the engine's
        rules on the configuration alone; None when it has an error no completion takes away."""
        # Listings of one card at other prices check alike: keyed on its specification, not its id.
        key = (self._spec(cfg.gpu), cfg.n, cfg.cpu.id, cfg.cpus, cfg.board.id)
        known = self._config_factors.get(key)
        if known is None:
            report = self.rules_check(_base(cfg))
            errors = {f.rule for f in report.errors} - COMPLETION_ERRORS
            stuck = frozenset((self.stops(report) & CONFIG_RULES) | errors)
            known = self._config_factors[key] = (stuck, factor(warning_rules(report.findings) & CONFIG_RULES))
        stuck, got = known
        if stuck:
            self.errors.setdefault(cfg.gkey, stuck)
            return None
        return got

    def _spec(self, gpu: Gpu | None) -> Any:
        """A card's specification as a key: every field a rule reads but its id, name, price and length (a
        length is only ever compared with the case's limit, which the completion's own candidates filter)."""
        if gpu is None:
            return None
        got = self._specs.get(gpu.id)
        if got is None:
            got = self._specs[gpu.id] = config_profile(gpu)[0]
        return got

    def _cheapest(self, base: list[BuildPart], mems: list[tuple[int, Memory, int]], drives: list[Storage],
                  psus: list[Psu], cases: list[Case], coolers: list[Cooler | None], room: float, cfg: Config
                  ) -> tuple[dict[str, tuple[Any, int]], Report] | None:
        """The cheapest valid completion within ``room``: branch and bound on price."""
        best: tuple[int, tuple[str, ...], dict[str, tuple[Any, int]], Report] | None = None
        min_psu, min_case = psus[0].price_cny, cases[0].price_cny + _price(coolers[0], cfg.cpus)
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
                        if partial2 + case.price_cny + _price(coolers[0], cfg.cpus) > (best[0] if best else room):
                            break
                        if not _bay_fits(psu, case):
                            errors.add("FIT-4")
                            continue
                        done = False
                        for cooler in coolers:
                            total = partial2 + case.price_cny + _price(cooler, cfg.cpus)
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

    # -- spending what is left ------------------------------------------------------------------------
    def upgrade(self, f: Found) -> tuple[Found, list[Message]]:
        """Left-over budget buys the platform part that lifts the binding platform limit before it is left
        unspent, in the order the workload needs them (images: the CPU that decodes them, then the drive,
        then RAM; language models: RAM, the drive, then the CPU). Targets, a judgement stated: twice BAL-1's
        cores (and CPU-1's 8), twice BAL-3's RAM, twice BAL-4's storage. Each step keeps the build valid and
        its throughput."""
        left = self.budget - f.price
        if left <= 0 or f.cfg.gpu is None:
            return f, []
        parts = list(f.build.parts)
        cat = self.catalogue
        gpus = [cast(Gpu, cat[p.id]) for p in parts for _ in range(p.qty) if cat[p.id].category == "gpu"]
        w = self.w
        steps = ("cpu", "storage", "memory") if w.spec().family == "cnn" else ("memory", "storage", "cpu")
        bought: list[str] = []
        spent = 0
        warned = warning_rules(f.report.findings)

        def index(category: str) -> int:
            return next(i for i, p in enumerate(parts) if cat[p.id].category == category)

        for step in steps:
            i = index(step) if any(cat[p.id].category == step for p in parts) else -1
            if i < 0:
                continue
            now, qty = cat[parts[i].id], parts[i].qty
            options: list[tuple[int, BuildPart, str]] = []
            added: dict[str, BuildPart] = {}  # a cooler that goes with a CPU sold without one
            if step == "cpu" and isinstance(now, Cpu):
                target = max(2 * cores_needed(w, len(gpus))[0], 8)
                if now.cores >= target:
                    continue
                has_cooler = any(cat[p.id].category == "cooler" for p in parts)
                for c in self.parts_by.get("cpu", []):
                    if not (isinstance(c, Cpu) and c.socket == now.socket and now.cores < c.cores
                            and c.rdimm == now.rdimm and c.memory_types == now.memory_types):
                        continue
                    extra_cost, text = (c.price_cny - now.price_cny) * qty, f"{c.name} ({now.cores} → {c.cores} cores)"
                    if not c.boxed_cooler and not has_cooler:  # the cheapest cooler for the socket rated for it
                        fits = [k for k in self.coolers if c.socket in k.cpu_sockets
                                and (k.rated_tdp_w is None or k.rated_tdp_w >= c.max_power_w)]
                        if not fits:
                            continue
                        added[c.id] = BuildPart(fits[0].id, qty)
                        extra_cost += fits[0].price_cny * qty
                        text += f" + {fits[0].name}"
                    options.append((extra_cost, BuildPart(c.id, qty), text))
                options.sort(key=lambda o: (-min(cast(Cpu, cat[o[1].id]).cores, target), o[0], o[1].id))
            elif step == "memory" and isinstance(now, Memory):
                target_gib = 2 * ram_needed_gib(w, gpus)[0]
                have = now.capacity_gb * qty
                if have >= target_gib:
                    continue
                board, cpu = f.cfg.board, f.cfg.cpu
                kits = [m for m in self.parts_by.get("memory", []) if isinstance(m, Memory)]
                for price, m, q in _memory_options(kits, board, cpu, f.cfg.cpus, target_gib, now.modules * qty):
                    options.append((price - now.price_cny * qty, BuildPart(m.id, q),
                                    f"{m.capacity_gb * q} GB RAM ({have} → {m.capacity_gb * q} GB)"))
            elif step == "storage" and isinstance(now, Storage):
                target_gb = 2 * storage_need(w).total_gb
                if now.capacity_gb * qty >= target_gb:
                    continue
                for d in self.drives:
                    if d.capacity_gb >= target_gb and d.kind == now.kind and d.seq_read_mbs >= now.seq_read_mbs:
                        options.append((d.price_cny - now.price_cny * qty, BuildPart(d.id),
                                        f"{d.name} ({now.capacity_gb * qty} → {d.capacity_gb} GB)"))
                options.sort(key=lambda o: (o[0], o[1].id))
            for extra, part, text in options[:6]:
                if extra <= 0 or extra > left - spent:
                    continue
                trial = [*parts[:i], part, *parts[i + 1:]]
                if part.id in added:
                    trial.append(added[part.id])
                r = self.rules_check(trial)
                # No new warning (FIT-6 …), except that a newer CPU on the same board may need a BIOS update
                # first (COMP-5), which the build sheet says.
                allowed = warned | {"COMP-5"} if step == "cpu" else warned
                if self.valid(r) and warning_rules(r.findings) <= allowed:
                    parts, spent = trial, spent + extra
                    bought.append(text)
                    break
        if not bought:
            return f, []
        better = self.found(f.cfg, parts, self.rules_check(parts))
        if better.throughput < f.throughput * (1 - 1e-9) or not self.valid(better.report):
            return f, []
        return better, [Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Left-over budget bought the platform, not nothing: {parts} (¥{spent:,}; ¥{left:,.0f} still "
                       "unspent)."), {"parts": "; ".join(bought), "spent": spent, "left": self.budget - better.price})]

    # -- the walks ---------------------------------------------------------------------------------
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
            tried += _split_inference(workload, strict)
        elif prefs.memory == "auto" and prefs.max_gpus > 0:
            tried = _split_inference(workload, strict) or tried
            tried += _memory_strategies(workload, strict)
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
            picked = _pick(search, found, alternatives, strategy)
            if first is None:
                first = picked
            if picked and picked[0].gpu[0] != "-":
                picked = _unsplit(picked, catalogue, workload)
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


def _split_inference(w: Workload, prefs: SuggestOptions) -> list[tuple[Workload, Message | None]]:
    """One stream of a language model (inference, no model parallelism given): searched split over the GPUs
    with tensor parallelism, which holds a model too big for one card and decodes one stream faster over
    the cards' combined memory bandwidth; a one-GPU answer goes back to the workload as given (_unsplit)."""
    if w.task != "infer" or not w.spec().decoder or w.parallel != "none" or prefs.max_gpus < 2:
        return []
    return [(dataclasses.replace(w, parallel="tensor"), None)]


def _unsplit(picked: list[Suggestion], catalogue: Mapping[str, AnyPart], given: Workload) -> list[Suggestion]:
    """Suggestions of a tensor-parallel search: one-GPU builds get the workload as given back (the estimates
    are the same, tensor parallelism over one GPU being none); builds over several GPUs say how they split."""
    out = []
    for i, s in enumerate(picked):
        w = s.workload
        if w is None or w.parallel == given.parallel:
            out.append(s)
            continue
        if s.gpu[1] <= 1:
            build = dataclasses.replace(s.build, workload=given)
            report = check(build, catalogue)
            out.append(dataclasses.replace(s, build=build, report=report,
                                           serving=served(report, s.serving.target) if s.serving else None))
            continue
        strategy = Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Split over {n} GPUs with tensor parallelism (vLLM or TensorRT-LLM, --tensor-parallel-size "
                       "{n}): each GPU holds 1/{n} of the weights and the KV cache, and one stream decodes over "
                       "their combined memory bandwidth."), {"n": s.gpu[1]})
        reasons = (*s.reasons, strategy) if i == 0 else s.reasons
        out.append(dataclasses.replace(s, strategy=strategy, reasons=reasons))
    return out


def _memory_strategies(w: Workload, prefs: SuggestOptions) -> list[tuple[Workload, Message]]:
    """For LLM training kept as given (no sharding, full fine-tuning): sharded, then LoRA, then QLoRA."""
    spec = w.spec()
    if w.task != "train" or spec.family != "transformer" or w.sharding != "none" or w.finetune != "full":
        return []
    out: list[tuple[Workload, Message]] = []
    if prefs.max_gpus >= 2:
        out.append((dataclasses.replace(w, sharding="fsdp", offload="none"), Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Sharded with FSDP (ZeRO-3): without sharding no GPU build within the budget holds the "
                       "model's weights, gradients and optimizer states; FSDP splits them across the GPUs."))))
        # Still short: the optimizer states offloaded to host memory (ZeRO-Offload) beside the sharding.
        offloaded = dataclasses.replace(w, sharding="fsdp", offload="optimizer")
        out.append((offloaded, Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Sharded with FSDP (ZeRO-3) and the optimizer states offloaded to host memory: sharding "
                       "alone does not fit any GPU build within the budget."))))
    if prefs.keep_finetune:
        return out  # the user chose full fine-tuning: sharding only
    out.append((dataclasses.replace(w, finetune="lora"), Message("suggest", QT_TRANSLATE_NOOP(
        "suggest", "Fine-tuned with LoRA (rank {rank}): full training does not fit any GPU build within the "
                   "budget, even sharded; LoRA trains small adapters beside the frozen weights."),
        {"rank": w.lora_rank})))
    out.append((dataclasses.replace(w, finetune="qlora"), Message("suggest", QT_TRANSLATE_NOOP(
        "suggest", "Fine-tuned with QLoRA (4-bit base, rank {rank}): neither full training nor LoRA fits any "
                   "GPU build within the budget."), {"rank": w.lora_rank})))
    return out


def _pick(search: Search, found: list[Found], alternatives: int, strategy: Message | None) -> list[Suggestion]:
    if not found:
        return []
    if search.prefs.goal == "cheapest":
        ranked = sorted(found, key=lambda f: (f.price, f.order()))
        # The simpler build: fewer GPUs (one bigger card, one supply) where it costs at most SIMPLER more.
        near = [f for f in ranked if f.price <= ranked[0].price * (1 + SIMPLER)]
        winner = min(near, key=lambda f: (f.cfg.n, f.price, f.ids))
        band = [winner]
    else:
        best = max(f.score for f in found)
        band = [f for f in found if f.score >= (1 - TIE) * best]
        cheapest = min(f.price for f in band)
        winner = min((f for f in band if f.price <= cheapest * (1 + SIMPLER)), key=lambda f: (f.cfg.n, f.price, f.ids))
        ranked = sorted(found, key=lambda f: f.order())
    upgraded: list[Message] = []
    if search.prefs.goal != "cheapest" and search.prefs.upgrade:
        winner, upgraded = search.upgrade(winner)
    rest: list[Found] = []
    used = {winner.cfg.gkey}
    for f in ranked:
        if f.cfg.gkey in used:
            continue
        used.add(f.cfg.gkey)
        rest.append(f)
        if len(rest) >= alternatives:
            break
    unit = search.w.throughput_unit
    target = search.serve
    top = Suggestion(winner.build, winner.report, winner.throughput, unit, winner.cfg.gkey, winner.score,
                     penalties(winner.report.findings), (*reasons(search, winner, band, strategy), *upgraded),
                     binding(search, winner), strategy, served(winner.report, target) if target else None)
    return [top, *(Suggestion(f.build, f.report, f.throughput, unit, f.cfg.gkey, f.score,
                              penalties(f.report.findings), (trade(winner, f),), None, strategy,
                              served(f.report, target) if target else None) for f in rest)]

