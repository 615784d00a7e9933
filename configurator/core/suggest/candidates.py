"""The parts that can complete a configuration (GPUs × count, CPUs, board) into a build: the memory kits
that fill the board, the drives, the supplies that power the cards, the cases and coolers that hold them,
each filtered by a necessary condition of the engine's error rules so that nothing valid is skipped.

:class:`Candidates` holds a search's state (the catalogue by category, the budget, the workload, the
options) and checks builds with the engine's rules; :mod:`configurator.core.suggest.complete` builds on it."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from configurator.core.build import Build, BuildPart, Options, Workload, resolve
from configurator.core.engine import Report, check
from configurator.core.estimate.memory import host_ram
from configurator.core.estimate.power import estimate_power, is_atx3
from configurator.core.parts import AnyPart, Case, Cooler, Cpu, Gpu, Memory, Motherboard, Psu, Storage
from configurator.core.rules.bal import ram_needed_gib, storage_need
from configurator.core.rules.pwr import connectors
from configurator.core.rules.shared import mid_tower
from configurator.core.rules.therm import MID_TOWER_OPEN_AIR, stacked
from configurator.core.suggest.prune import config_profile
from configurator.core.suggest.score import COMPLETION_ERRORS, CONFIG_RULES, case_sizes, factor, warning_rules
from configurator.core.suggest.serve import ServeEstimates, serve_target
from configurator.core.suggest.space import Config, Estimates, SuggestOptions


def memory_options(mems: list[Memory], board: Motherboard, cpu: Cpu, cpus: int, need_gb: float,
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


def part_price(part: AnyPart | None, qty: int) -> int:
    return part.price_cny * qty if part is not None else 0


class Candidates:
    """A search's state (catalogue by category, budget, workload, options, caches), its checks of builds with
    the engine's rules, and the candidate parts of each configuration."""

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
    def lowest_price(self, cfg: Config) -> float:
        """No build of this configuration costs less: its price and the cheapest candidate of each part."""
        lists = self.candidates(cfg)
        if lists is None:
            return math.inf
        _base, mems, drives, psus, cases, coolers = lists
        return (cfg.price + mems[0][0] + drives[0].price_cny + psus[0].price_cny + cases[0].price_cny
                + part_price(coolers[0], cfg.cpus))

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
            mems = self._mem_lists[mem_key] = memory_options(
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

