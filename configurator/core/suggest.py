"""Suggest the build with no error findings and the highest estimated throughput within a budget.

Throughput depends only on the GPUs, how many, the CPU and the board (through the PCIe
links); memory, storage, power supply and case only decide whether a build is valid and
what it costs. So the search ranks every (GPU × count, CPU × count, board) configuration
by its throughput and completes each with the cheapest valid memory, drive, supply and
case (branch and bound on price, every candidate confirmed by the engine's own check).
It walks configurations from the fastest down and stops once they fall more than 1 %
below the best valid one: ties within 1 % go to the cheaper build, then to the lower ids.

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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from configurator.core.build import Build, BuildPart, Options, Workload, resolve
from configurator.core.engine import Report, check
from configurator.core.estimate import throughput as tp
from configurator.core.estimate.memory import GIB, host_ram, vram_per_gpu
from configurator.core.estimate.power import estimate_power
from configurator.core.parts import AnyPart, Case, Cpu, Gpu, Memory, Motherboard, Psu, Storage
from configurator.core.pcie import Placement, place
from configurator.core.rules.budget_power import connectors

MAX_GPUS = 4
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


def _spec_key(gpu: Gpu) -> str:
    """Every field of a GPU that a rule or estimate reads (not its id, name or price), as one key:
    same-spec listings share one throughput estimate and one slot placement."""
    equal_names, ordered = _layout(gpu)
    return repr([getattr(gpu, n) for n in (*equal_names, *(n for n, _d in ordered))])


def _config_throughput(gpu: Gpu | None, n: int, cpu: Cpu, cpus: int, board: Motherboard, w: Workload,
                       cache: dict[tuple[str, ...], float], places: dict[tuple[str, ...], Placement],
                       singles: dict[str, tp.Throughput], specs: dict[str, str]) -> float | None:
    """The engine's throughput for this configuration (None if the GPUs do not all get a slot).

    Cached per GPU *spec* (``_spec_key``): the estimate and the placement read no id, name or price."""
    parts = [BuildPart(cpu.id, cpus), BuildPart(board.id)]
    if gpu is not None:
        parts.insert(0, BuildPart(gpu.id, n))
    spec = "-"
    if gpu is not None:
        spec = specs.get(gpu.id) or specs.setdefault(gpu.id, _spec_key(gpu))
    key = (spec, str(n), cpu.id, str(cpus), board.id)
    if key in cache:
        known = cache[key]
        return None if known < 0 else known
    catalogue: dict[str, AnyPart] = {cpu.id: cpu, board.id: board}
    value: float | None = None
    if gpu is not None:
        catalogue[gpu.id] = gpu
        pkey = ("place", board.id, spec, str(n), str(cpu.pcie_gen))
        pl = places.get(pkey)
        if pl is None:
            pl = places[pkey] = place([gpu] * n, board, cpu.pcie_gen, None)
        if pl.unplaced:
            cache[key] = -1.0
            return None
        one = singles.get(spec)
        if one is None:
            one = singles[spec] = tp.single_gpu(gpu, w, tp.FACTORS)
        per = one.headline(w)
        if n > 1 and w.task == "train":
            gen = min(s.gen for s in pl.seats)
            lanes = min(s.lanes for s in pl.seats)
            link = tp.link_bytes_per_s(gpu, gen, lanes, False)
            grad = w.spec().params * (4 if w.precision in ("fp32", "amp") else 2)
            value = per * tp.scaling(n, w.effective_batch / one.samples_per_s, grad, link, tp.FACTORS)
        elif w.spec().decoder and w.task == "infer":
            value = per  # one stream, as the engine counts it: more GPUs do not make it faster
        else:
            value = per * n
    else:
        rep = check(Build(tuple(parts), workload=w), catalogue)
        value = report_throughput(rep)
    cache[key] = value if value is not None else -1.0
    return value


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
              catalogue: Mapping[str, AnyPart], options: Options) -> tuple[Build, Report] | None:
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
        lowest = place(gpus, cfg.board, cfg.cpu.pcie_gen, None).lowest_position
    cases = [c for c in parts_by.get("case", []) if isinstance(c, Case)
             and cfg.board.form_factor in c.board_form_factors and lowest <= c.expansion_slots
             and (cfg.gpu is None or (cfg.gpu.length_mm or 0) <= c.max_gpu_length_mm)]
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
            peak = estimate_power(resolve(Build(tuple(draft)), catalogue)).peak_w
            for psu in psus:
                partial2 = partial + psu.price_cny
                bound = best[0] if best else room
                if partial2 + min_case > bound:
                    break
                if psu.watts < peak:
                    continue
                for case in cases:
                    total = partial2 + case.price_cny
                    if total > (best[0] if best else room):
                        break
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


def _configs(parts_by: dict[str, list[AnyPart]], w: Workload, budget: float) -> Iterable[_Config]:
    cache: dict[tuple[str, ...], float] = {}
    places: dict[tuple[str, ...], Placement] = {}
    singles: dict[str, tp.Throughput] = {}
    specs: dict[str, str] = {}
    gpus = [g for g in parts_by.get("gpu", []) if isinstance(g, Gpu) and g.form_factor == "pcie"]
    cpus = [c for c in parts_by.get("cpu", []) if isinstance(c, Cpu)]
    boards = [b for b in parts_by.get("motherboard", []) if isinstance(b, Motherboard)]
    gpu_options: list[tuple[Gpu | None, int]] = [(None, 0)]
    for g in gpus:
        if g.vendor != "nvidia" and not g.rocm_supported:
            continue
        for n in range(1, MAX_GPUS + 1):
            if g.price_cny * n > budget:
                break
            if vram_per_gpu(w, n).low / GIB > g.vram_gb:  # FIT-1's error: even the low end does not fit
                continue
            gpu_options.append((g, n))
    out: list[_Config] = []
    for board in boards:
        for cpu in cpus:
            if cpu.socket != board.socket:
                continue
            for count in sorted({1, min(board.sockets, cpu.max_sockets)}):
                base = cpu.price_cny * count + board.price_cny
                if base > budget:
                    continue
                for gpu, n in gpu_options:
                    if base + (gpu.price_cny * n if gpu else 0) > budget:
                        continue
                    t = _config_throughput(gpu, n, cpu, count, board, w, cache, places, singles, specs)
                    if t is None or t <= 0:
                        continue
                    out.append(_Config(gpu, n, cpu, count, board, t))
    out.sort(key=lambda c: (-c.throughput, c.price))
    return out


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


def _profile(part: AnyPart, limits: Mapping[str, list[int]] | None = None) -> tuple[str, tuple[Any, ...]]:
    """The fields that must be equal (as one hashable key) and the ordered ones (better = bigger).

    ``limits``: for a GPU, the sorted limits of the kept cases per "fits under" field; such a field
    then counts as the number of limits it fits under (a card that fits every case that a longer
    one fits is as good, whatever its length)."""
    equal_names, ordered_names = _layout(part)
    equal = [getattr(part, n) for n in equal_names]
    ordered: list[Any] = []
    for name, direction in ordered_names:
        value = getattr(part, name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            fits = limits.get(name) if limits is not None else None
            if fits is not None and value:  # 0 fits everywhere, as the rule reads it
                ordered.append(len(fits) - bisect.bisect_left(fits, value))
                continue
            ordered.append(value * direction)
        else:  # None: only equal to None
            equal.append((name, value))
    # repr of plain values and frozen slot records is exact and hashable as text.
    return repr(equal), tuple(ordered)


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
    groups: dict[tuple[str, str, int], list[tuple[int, str, tuple[Any, ...], AnyPart]]] = {}
    for part in parts:
        equal, ordered = _profile(part, limits)
        # Fields with a direction that are None on this part go into the equal key (via _profile),
        # so parts in one group have the same ordered fields.
        groups.setdefault((part.category, equal, len(ordered)), []).append(
            (part.price_cny, part.id, ordered, part))
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
    for cfg in _configs(parts_by, workload, budget):
        if best_t is not None and cfg.throughput < (1 - TIE) * best_t and len(seen_gpu) > alternatives:
            break
        gkey = (cfg.gpu.id if cfg.gpu else "-", cfg.n)
        if best_t is not None and cfg.throughput < (1 - TIE) * best_t and gkey in seen_gpu:
            continue
        done = _complete(cfg, workload, parts_by, budget, catalogue, options)
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
