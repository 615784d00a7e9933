"""Suggest the build with no error findings and the highest estimated throughput within a budget.

Throughput depends only on the GPUs, how many, the CPU and the board (through the PCIe
links); memory, storage, power supply and case only decide whether a build is valid and
what it costs. So the search ranks every (GPU × count, CPU × count, board) configuration
by its throughput and completes each with the cheapest valid memory, drive, supply and
case (branch and bound on price, every candidate confirmed by the engine's own check).
It walks configurations from the fastest down and stops once they fall more than 1 %
below the best valid one: ties within 1 % go to the cheaper build, then to the lower ids.
The configurations are made best first (``_configs``), so a walk that stops near the top
never estimates the hundreds of thousands below it.

Before the search, dominated parts are pruned (``prune``): a part is dropped when enough other
parts of its category cost no more (ties: a lower id) and are at least as good in every field
(equal in every field the rules read, except a few with a known better direction: a shorter,
less power-hungry card; a faster, bigger drive; a stronger supply; a roomier case). Such a part
can never be chosen (its dominator gives an equal or better, cheaper build), so the results are
the same; with a shop's 100,000 listings of the same models at different prices the search sees a
few hundred parts. GPUs need ``alternatives + 1`` dominators, since the alternatives are GPUs.
"""

from __future__ import annotations

import bisect
import dataclasses
import heapq
import math
import operator
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from configurator.core.build import Build, BuildPart, Options, Workload, resolve
from configurator.core.engine import Report, check
from configurator.core.estimate import throughput as tp
from configurator.core.estimate.memory import host_ram, vram_per_gpu
from configurator.core.estimate.power import estimate_power
from configurator.core.parts import AnyPart, Case, Cpu, Gpu, Memory, Motherboard, Psu, Storage
from configurator.core.pcie import Placement, layout
from configurator.core.rules.budget_power import connectors
from configurator.core.rules.physical import SMALL_PSU
from configurator.core.units import GIB

MAX_GPUS = 4
# What Suggest assumes where it is not told (the command line and the dialog alike, so they give the same
# best build): ResNet-50 training with mixed precision.
DEFAULT_WORKLOAD = Workload(model="resnet50", task="train", precision="amp")
TIE = 0.01


@dataclass(frozen=True)
class Suggestion:
    build: Build
    report: Report
    throughput: float
    unit: str
    gpu: tuple[str, int]  # (GPU id or "-", count)

    @property
    def total_cny(self) -> int:
        return self.report.total_cny

    def key(self) -> tuple[int, tuple[str, ...]]:
        return self.total_cny, tuple(sorted(p.id for p in self.build.parts))


@dataclass(frozen=True)
class _Config:
    gpu: Gpu | None
    n: int
    cpu: Cpu
    cpus: int
    board: Motherboard
    throughput: float

    @property
    def price(self) -> int:
        return (self.gpu.price_cny * self.n if self.gpu else 0) + self.cpu.price_cny * self.cpus + self.board.price_cny


def report_throughput(report: Report) -> float:
    est = report.estimate("throughput_total") or report.estimate("throughput_cpu")
    return float(est.value or 0) if est else 0.0


def _by_category(catalogue: Mapping[str, AnyPart]) -> dict[str, list[AnyPart]]:
    out: dict[str, list[AnyPart]] = {}
    for p in sorted(catalogue.values(), key=lambda p: (p.price_cny, p.id)):
        out.setdefault(p.category, []).append(p)
    return out


class _Estimates:
    """Throughput and slot placement of configurations, cached on what each reads: a GPU's estimate
    on its ``Hw`` (compute, bandwidth, power), its placement on its slot width and PCIe link, so
    listings of one model at other prices, lengths or power share them."""

    def __init__(self, w: Workload):
        self.w = w
        self.hw: dict[str, tp.Hw] = {}
        self.singles: dict[tp.Hw, tp.Throughput] = {}
        self.places: dict[tuple[Any, ...], Placement] = {}
        self.values: dict[tuple[Any, ...], float] = {}
        self.cpu_only: dict[tuple[str, int, str], float] = {}
        self.train_multi = w.task == "train"
        self.one_stream = bool(w.spec().decoder and w.task == "infer")
        self.grad = w.spec().params * (4 if w.precision in ("fp32", "amp") else 2)

    def single(self, gpu: Gpu) -> tp.Throughput:
        hw = self.hw.get(gpu.id)
        if hw is None:
            hw = self.hw[gpu.id] = tp.gpu_hw(gpu)
        one = self.singles.get(hw)
        if one is None:
            one = self.singles[hw] = tp.single_gpu(gpu, self.w, tp.FACTORS)
        return one

    def upper_bound(self, gpu: Gpu, n: int) -> float:
        """No configuration of ``n`` of these cards is faster (data-parallel scaling is at most
        n·η^log2(n); a hair more for rounding)."""
        per = self.single(gpu).headline(self.w)
        if n <= 1 or self.one_stream:
            return per
        if self.train_multi:
            return float(per * n * tp.FACTORS.eta ** math.log2(n) * (1 + 1e-9))
        return per * n

    def place(self, gpu: Gpu, n: int, board: Motherboard, cpu_gen: int | None, cpus: int = 1) -> Placement:
        """The engine's slot layout: only the slots the fitted CPUs feed (PCI-9). The drives' M.2 lane
        sharing (PCI-10) is left to the engine's check of the whole build."""
        key = (board.id, gpu.slot_width, gpu.pcie_gen, gpu.pcie_lanes, n, cpu_gen, cpus)
        pl = self.places.get(key)
        if pl is None:
            pl = self.places[key] = layout([gpu] * n, board, cpu_gen, None, cpus)
        return pl

    def gpu_config(self, gpu: Gpu, n: int, cpu: Cpu, board: Motherboard, cpus: int = 1) -> float | None:
        """The engine's throughput for n of these GPUs (None if they do not all get a slot)."""
        one = self.single(gpu)
        key = (self.hw[gpu.id], gpu.slot_width, gpu.pcie_gen, gpu.pcie_lanes, n, board.id, cpu.pcie_gen, cpus)
        known = self.values.get(key)
        if known is not None:
            return None if known < 0 else known
        pl = self.place(gpu, n, board, cpu.pcie_gen, cpus)
        value: float | None
        if pl.unplaced:
            value = None
        else:
            w = self.w
            per = one.headline(w)
            if n > 1 and self.train_multi:
                gen = min(s.gen for s in pl.seats)
                lanes = min(s.lanes for s in pl.seats)
                link = tp.link_bytes_per_s(gpu, gen, lanes, False)
                value = per * tp.scaling(n, w.effective_batch / one.samples_per_s, self.grad, link, tp.FACTORS)
            elif self.one_stream:
                value = per  # one stream, as the engine counts it: more GPUs do not make it faster
            else:
                value = per * n
        self.values[key] = value if value is not None else -1.0
        return value

    def cpu_config(self, cpu: Cpu, cpus: int, board: Motherboard) -> float:
        key = (cpu.id, cpus, board.id)
        got = self.cpu_only.get(key)
        if got is None:
            build = Build((BuildPart(cpu.id, cpus), BuildPart(board.id)), workload=self.w)
            got = self.cpu_only[key] = report_throughput(check(build, {cpu.id: cpu, board.id: board}))
        return got


def _memory_options(mems: list[Memory], board: Motherboard, cpu: Cpu, cpus: int, need_gb: float
                    ) -> list[tuple[int, Memory, int]]:
    out = []
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
            if cap >= need_gb:
                out.append((m.price_cny * qty, m, qty))
                break  # more of the same kit only costs more
    return sorted(out, key=lambda t: (t[0], t[1].id))


def _complete(cfg: _Config, w: Workload, parts_by: dict[str, list[AnyPart]], budget: float,
              catalogue: Mapping[str, AnyPart], options: Options, est: _Estimates) -> tuple[Build, Report] | None:
    """Cheapest valid memory + drive + supply + case for a configuration, within the budget.

    Branch and bound on price. The filters below are necessary conditions of the engine's
    error rules (COMP-2/3, FIT-2/3, PWR-2/3, COMP-4), so nothing valid is skipped; every
    candidate is then confirmed by the engine's own check.
    """
    gpus = [cfg.gpu] * cfg.n if cfg.gpu is not None else []
    n_usable = cfg.n if cfg.gpu is not None and (cfg.gpu.vendor == "nvidia" or cfg.gpu.rocm_supported) else 0
    need_ram = host_ram(w, n_usable).first_principles_gib
    mems = _memory_options([m for m in parts_by.get("memory", []) if isinstance(m, Memory)], cfg.board, cfg.cpu,
                           cfg.cpus, need_ram)
    drives = [s for s in parts_by.get("storage", []) if isinstance(s, Storage)
              and (w.dataset_gb or 0) <= s.capacity_gb]
    psus = [p for p in parts_by.get("psu", []) if isinstance(p, Psu) and connectors(gpus, cfg.cpus, p).ok]
    lowest = 0
    if gpus:
        assert cfg.gpu is not None
        lowest = est.place(cfg.gpu, cfg.n, cfg.board, cfg.cpu.pcie_gen, cfg.cpus).lowest_position
    width = cfg.board.width_mm
    cases = [c for c in parts_by.get("case", []) if isinstance(c, Case)
             and cfg.board.form_factor in c.board_form_factors and lowest <= c.expansion_slots
             and (cfg.gpu is None or (cfg.gpu.length_mm or 0) <= c.max_gpu_length_mm)
             and (width is None or c.max_board_width_mm is None or width <= c.max_board_width_mm)]  # FIT-5
    if not (mems and drives and psus and cases):
        return None
    room = budget - cfg.price
    best: tuple[int, tuple[str, ...], Build, Report] | None = None
    min_psu, min_case = psus[0].price_cny, cases[0].price_cny
    base_parts: list[BuildPart] = [BuildPart(cfg.gpu.id, cfg.n)] if cfg.gpu is not None else []
    base_parts += [BuildPart(cfg.cpu.id, cfg.cpus), BuildPart(cfg.board.id)]
    for mem_price, mem, qty in mems:
        bound = best[0] if best else room
        if mem_price + drives[0].price_cny + min_psu + min_case > bound:
            break
        for drive in drives:
            partial = mem_price + drive.price_cny
            bound = best[0] if best else room
            if partial + min_psu + min_case > bound:
                break
            draft = [*base_parts, BuildPart(mem.id, qty), BuildPart(drive.id)]
            for psu in psus:
                partial2 = partial + psu.price_cny
                bound = best[0] if best else room
                if partial2 + min_case > bound:
                    break
                # PWR-2 with this supply: an ATX 3.x one needs less transient headroom (PWR-5)
                if psu.watts < estimate_power(resolve(Build((*draft, BuildPart(psu.id))), catalogue)).peak_w:
                    continue
                for case in cases:
                    total = partial2 + case.price_cny
                    if total > (best[0] if best else room):
                        break
                    if psu.form_factor not in case.psu_form_factors and not (
                            psu.form_factor in SMALL_PSU and "ATX" in case.psu_form_factors):
                        continue  # FIT-4: the supply does not go in this case's bay
                    parts = [*draft, BuildPart(psu.id), BuildPart(case.id)]
                    build = Build(tuple(parts), budget_cny=budget, options=options, workload=w)
                    report = check(build, catalogue)
                    if not report.ok:
                        continue
                    ids = tuple(sorted(p.id for p in parts))
                    if best is None or (total, ids) < (best[0], best[1]):
                        best = (total, ids, build, report)
                    break  # later cases in this loop only cost more
    return (best[2], best[3]) if best else None


def _configs(parts_by: dict[str, list[AnyPart]], w: Workload, budget: float, est: _Estimates
             ) -> Iterator[_Config]:
    """Every (GPU × count, CPU × count, board) configuration within the budget, fastest first (equal
    throughput: cheaper first, then in board, CPU, count, GPU order).

    Generated lazily, best first: the GPU options (card × count) in order of an upper bound on their
    throughput, each expanded over every board and CPU only once no configuration already made is
    faster than its bound. A search that stops near the top sees a few options, not all of them."""
    gpus = [g for g in parts_by.get("gpu", []) if isinstance(g, Gpu) and g.form_factor == "pcie"]
    cpus = [c for c in parts_by.get("cpu", []) if isinstance(c, Cpu)]
    boards = [b for b in parts_by.get("motherboard", []) if isinstance(b, Motherboard)]
    # (order, cpu, count, board, price) of every CPU × board pair within the budget
    pairs: list[tuple[tuple[int, int, int], Cpu, int, Motherboard, int]] = []
    for bi, board in enumerate(boards):
        for ci, cpu in enumerate(cpus):
            if cpu.socket != board.socket:
                continue
            for count in sorted({1, min(board.sockets, cpu.max_sockets)}):
                base = cpu.price_cny * count + board.price_cny
                if base <= budget:
                    pairs.append(((bi, ci, count), cpu, count, board, base))
    if not pairs:
        return
    cheapest = min(p[4] for p in pairs)
    heap: list[tuple[float, int, tuple[int, int, int, int], _Config]] = []
    for order, cpu, count, board, base in pairs:
        t = est.cpu_config(cpu, count, board)
        if t > 0:
            heap.append((-t, base, (*order, 0), _Config(None, 0, cpu, count, board, t)))
    heapq.heapify(heap)
    options: list[tuple[float, int, Gpu, int]] = []  # (-bound, option order, GPU, count)
    low_vram = {n: vram_per_gpu(w, n).low / GIB for n in range(1, MAX_GPUS + 1)}
    for g in gpus:
        if g.vendor != "nvidia" and not g.rocm_supported:
            continue
        for n in range(1, MAX_GPUS + 1):
            if g.price_cny * n > budget:
                break
            if low_vram[n] > g.vram_gb:  # FIT-1's error: even the low end does not fit
                continue
            if g.price_cny * n + cheapest <= budget:
                options.append((-est.upper_bound(g, n), len(options) + 1, g, n))
    options.sort(key=lambda o: (o[0], o[1]))
    next_option = 0
    while True:
        while next_option < len(options) and (not heap or -options[next_option][0] >= -heap[0][0]):
            _bound, oi, gpu, n = options[next_option]
            next_option += 1
            for order, cpu, count, board, base in pairs:
                price = base + gpu.price_cny * n
                if price > budget:
                    continue
                value = est.gpu_config(gpu, n, cpu, board, count)
                if value is None or value <= 0:
                    continue
                heapq.heappush(heap, (-value, price, (*order, oi), _Config(gpu, n, cpu, count, board, value)))
        if not heap:
            return
        yield heapq.heappop(heap)[3]


# Fields no rule or estimate compares (names and prices are handled on their own).
_IGNORED = frozenset({"id", "name", "brand", "source", "notes", "price_cny", "price_date", "custom",
                      "user_edited"})
# Fields where one direction is never worse for validity, throughput or price (+1: more is better).
# Everything else must be equal for one part to dominate another.
_BETTER: dict[str, dict[str, int]] = {
    # (board power is not here: the throughput model's power limit makes more of it faster)
    "gpu": {"length_mm": -1},
    "memory": {"cas_latency": -1},
    "storage": {"capacity_gb": +1, "seq_read_mbs": +1, "seq_write_mbs": +1, "random_read_iops": +1},
    "psu": {"watts": +1},
    "case": {"max_gpu_length_mm": +1, "expansion_slots": +1, "max_cpu_cooler_mm": +1},
}


_LAYOUT: dict[type[Any], tuple[tuple[str, ...], tuple[tuple[str, int], ...]]] = {}


def _layout(part: AnyPart) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
    got = _LAYOUT.get(type(part))
    if got is None:
        better = _BETTER.get(part.category, {})
        names = [f.name for f in dataclasses.fields(part) if f.name not in _IGNORED]
        got = _LAYOUT[type(part)] = (tuple(n for n in names if n not in better),
                                     tuple((n, better[n]) for n in names if n in better))
    return got


# GPU fields that matter only through which cases they fit under (the case field is the limit).
_FITS_UNDER: dict[str, str] = {"length_mm": "max_gpu_length_mm"}


_GETTERS: dict[type[Any], tuple[Callable[[Any], Any], tuple[int, ...]]] = {}


def _equal_getter(part: AnyPart) -> tuple[Callable[[Any], Any], tuple[int, ...]]:
    """A function giving the tuple of a part type's must-be-equal fields, and where in that tuple
    the list fields are (``_frozen`` makes them hashable)."""
    got = _GETTERS.get(type(part))
    if got is None:
        names = _layout(part)[0]
        getter = operator.attrgetter(*names) if len(names) > 1 else (lambda p: tuple(getattr(p, n) for n in names))
        hints = typing.get_type_hints(type(part))
        lists = tuple(i for i, n in enumerate(names) if "list" in str(hints[n]) or dataclasses.is_dataclass(hints[n]))
        got = _GETTERS[type(part)] = (getter, lists)
    return got


def _frozen(values: tuple[Any, ...], lists: tuple[int, ...]) -> tuple[Any, ...]:
    """A hashable key of field values: lists of text as tuples; slot records by their exact repr."""
    out = list(values)
    for i in lists:
        v = out[i]
        if type(v) is list:
            out[i] = tuple(v) if all(type(x) is str for x in v) else repr(v)
        elif v is not None:
            out[i] = repr(v)
    return tuple(out)


def _profile(part: AnyPart, limits: Mapping[str, list[int]] | None = None) -> tuple[Any, tuple[Any, ...]]:
    """The fields that must be equal (as one hashable key) and the ordered ones (better = bigger).

    ``limits``: for a GPU, the sorted limits of the kept cases per "fits under" field; such a field
    then counts as the number of limits it fits under (a card that fits every case that a longer
    one fits is as good, whatever its length)."""
    getter, lists = _equal_getter(part)
    equal = getter(part)
    ordered: list[Any] = []
    nones: list[str] = []
    for name, direction in _layout(part)[1]:
        value = getattr(part, name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            fits = limits.get(name) if limits is not None else None
            if fits is not None and value:  # 0 fits everywhere, as the rule reads it
                ordered.append(len(fits) - bisect.bisect_left(fits, value))
                continue
            ordered.append(value * direction)
        else:  # None: only equal to None
            nones.append(name)
    key = (_frozen(equal, lists) if lists else equal, tuple(nones))
    return key, tuple(ordered)


def prune(catalogue: Mapping[str, AnyPart], alternatives: int = 3) -> dict[str, AnyPart]:
    """The catalogue without parts that can never be part of suggest()'s answer (see the module doc)."""
    kept: dict[str, AnyPart] = {}
    others = [p for p in catalogue.values() if p.category != "gpu"]
    _prune_into(kept, others, alternatives, None)
    # A GPU's length matters only through the kept cases it fits (the rule compares it with the
    # build's case, and suggest's cases are the kept ones).
    limits = {name: sorted({getattr(c, limit) for c in kept.values() if isinstance(c, Case)})
              for name, limit in _FITS_UNDER.items()}
    _prune_into(kept, [p for p in catalogue.values() if p.category == "gpu"], alternatives, limits)
    return kept


def _prune_into(kept: dict[str, AnyPart], parts: Iterable[AnyPart], alternatives: int,
                limits: Mapping[str, list[int]] | None) -> None:
    # Listings of one model with the same profile: only the ``need`` cheapest can be kept (each of
    # them dominates the rest, or is itself pruned by parts that dominate the rest).
    same: dict[tuple[str, Any, tuple[Any, ...]], list[tuple[int, str, AnyPart]]] = {}
    for part in parts:
        equal, ordered = _profile(part, limits)
        same.setdefault((part.category, equal, ordered), []).append((part.price_cny, part.id, part))
    groups: dict[tuple[str, Any, int], list[tuple[int, str, tuple[Any, ...], AnyPart]]] = {}
    for (category, equal, ordered), listed in same.items():
        need = alternatives + 1 if category == "gpu" else 1
        cheapest = heapq.nsmallest(need, listed) if len(listed) > need else listed  # ids are unique
        # Fields with a direction that are None on this part go into the equal key (via _profile),
        # so parts in one group have the same ordered fields.
        groups.setdefault((category, equal, len(ordered)), []).extend(
            (price, pid, ordered, part) for price, pid, part in cheapest)
    for (category, _equal, _n), members in groups.items():
        need = alternatives + 1 if category == "gpu" else 1
        members.sort(key=lambda m: (m[0], m[1]))
        front: list[tuple[int, str, tuple[Any, ...], AnyPart]] = []
        for m in members:
            # Everything in ``front`` is cheaper or as cheap with a lower id; a part that is pruned
            # has ``need`` kept dominators, which dominate whatever it dominates.
            dominators = 0
            for f in front:
                if all(a >= b for a, b in zip(f[2], m[2], strict=True)):
                    dominators += 1
                    if dominators >= need:
                        break
            if dominators < need:
                front.append(m)
                kept[m[3].id] = m[3]


def suggest(catalogue: Mapping[str, AnyPart], budget: float, workload: Workload, alternatives: int = 3,
            options: Options | None = None, pruned: bool = True) -> list[Suggestion]:
    """The best build first, then up to ``alternatives`` others with different GPUs.

    ``pruned=False`` searches every part (the tests compare the two).
    """
    options = options or Options()
    parts_by = _by_category(prune(catalogue, alternatives) if pruned else catalogue)
    found: list[Suggestion] = []
    best_t: float | None = None
    seen_gpu: set[tuple[str, int]] = set()
    est = _Estimates(workload)
    for cfg in _configs(parts_by, workload, budget, est):
        if best_t is not None and cfg.throughput < (1 - TIE) * best_t and len(seen_gpu) > alternatives:
            break
        gkey = (cfg.gpu.id if cfg.gpu else "-", cfg.n)
        if best_t is not None and cfg.throughput < (1 - TIE) * best_t and gkey in seen_gpu:
            continue
        done = _complete(cfg, workload, parts_by, budget, catalogue, options, est)
        if done is None:
            continue
        build, report = done
        t = report_throughput(report)
        if best_t is None:
            best_t = t
        found.append(Suggestion(build, report, t, workload.throughput_unit, gkey))
        seen_gpu.add(gkey)
    if not found or best_t is None:
        return []
    top = [s for s in found if s.throughput >= (1 - TIE) * best_t]
    winner = min(top, key=lambda s: s.key())
    rest: list[Suggestion] = []
    used = {winner.gpu}
    for s in sorted(found, key=lambda s: (-s.throughput, s.key())):
        if s.gpu in used:
            continue
        used.add(s.gpu)
        rest.append(s)
        if len(rest) >= alternatives:
            break
    return [winner, *rest]


__all__ = ["Suggestion", "suggest"]
