"""The upgrade advisor: what holds this build back, and the cheapest catalogue change that lifts it.

1. The limiting resource, from the evidence there is (a run report's signals; a benchmark) or, without
   any, from the plan itself (the engine's VRAM verdict and the throughput model's bound), with the
   rule it rests on.
2. Candidate changes from the catalogue, each checked by the engine as a whole new build: where a new
   GPU needs a bigger PSU or another case, that is part of the change and of its price (the parts to
   buy; nothing is credited for the parts taken out). A change the engine finds an error in is dropped.
3. Each change's estimated gain: for a GPU change, the planner's throughput model (with its range);
   for a bottleneck outside the GPU (data loading, storage, a PCIe link), the GPUs' measured
   utilisation lifted to what an unbound GPU shows (90 %), since the GPU itself does not change.
   Sorted by price per percent of gain.
4. What the guide's upgrade path (UPG-1, G 七) says for this case, with its erratum.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from configurator.core.build import Build, BuildPart
from configurator.core.engine import Report, check, main_throughput
from configurator.core.findings import Finding
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import AnyPart, Case, Cooler, Cpu, Gpu, Motherboard, Psu, Storage

CTX = "advise"
UNBOUND_UTIL = 90.0  # % utilisation a GPU that waits for nothing shows in practice (GPU-6 asks ≥ 70 %)
LOW_UTIL = 70.0  # GPU-6
LOW_SCALING = 80.0  # % of ideal: PCI-5's reference, 4 RTX 3090 over PCIe, reach 3.5x of one (87 %)
DATA_DRIVE_GB = 1000  # what a data drive must hold where the workload does not say
M2_READ_MBS = {3: 3500, 4: 7450, 5: 14900}  # what the fastest drives read through a x4 link of each generation
FASTER_DRIVE = 1.5  # a new drive must read this much faster than the fastest one there to lift an iowait bound


def _m(template: str, **params: Any) -> Message:
    return Message(CTX, template, params)


@dataclass(frozen=True)
class Evidence:
    """What was measured on the machine (from a run report; monitor/report.py builds it)."""

    gpu_util_median: float | None = None  # % while training
    vram_peak_fraction: float | None = None  # of the card's capacity
    workers_saturated: bool = False  # DataLoader workers (or the training process itself) at a full core
    cpu_busy: bool = False
    iowait_median: float | None = None  # %
    pcie_degraded: bool = False  # a link below its maximum generation or width
    throttled_fraction: float = 0.0  # of the run
    source: str = ""  # where it comes from, for the reader ("recording run.csv")
    scaling_percent: float | None = None  # a DDP benchmark's efficiency across this machine's GPUs, % of ideal
    scaling_gpus: int | None = None  # how many GPUs it ran on
    scaling_run: int | None = None  # the stored benchmark run it comes from


@dataclass(frozen=True)
class Limit:
    resource: str  # "vram" | "gpu" | "cpu" | "storage" | "pcie" | "pipeline"
    rule: str
    evidence: Message


@dataclass(frozen=True)
class Upgrade:
    kind: str  # the resource it lifts
    buy: tuple[tuple[str, int], ...]  # (part id, qty) to buy
    remove: tuple[str, ...]  # part ids it replaces
    price_cny: int
    gain: float  # fraction: 0.25 = 25 % more throughput
    gain_low: float | None
    gain_high: float | None
    basis: Message
    report: Report = field(compare=False, repr=False)

    @property
    def cny_per_percent(self) -> float:
        return self.price_cny / max(self.gain * 100, 1e-9)


@dataclass(frozen=True)
class Advice:
    limit: Limit
    upgrades: tuple[Upgrade, ...]
    guide: tuple[Message, ...]
    baseline: Report = field(repr=False)


def _throughput(r: Report) -> tuple[float | None, float | None, float | None]:
    e = main_throughput(r)  # a serving workload's: its output tokens/s at its load
    if e is None or not e.value:
        return None, None, None
    return e.value, e.low, e.high


def _vram_verdict(r: Report) -> str | None:
    e = r.estimate("vram_per_gpu_gib")
    return None if e is None else e.inputs.get("verdict")


def with_bench(ev: Evidence | None, run: Any) -> Evidence | None:
    """``ev`` with what a stored benchmark run (bench.results.RunRecord) measured of the interconnect: its
    DDP scaling across this machine's GPUs (a CPU run shares one set of cores, and a result marked
    unstable or over ideal is no evidence)."""
    if run is None or (run.resolved_device or run.device) != "cuda":
        return ev
    row = next((r for r in run.rows if r.name == "ddp-scaling" and r.job == "ddp" and r.status == "ok"
                and r.value is not None and r.unstable() is None), None)
    procs = row.settings.get("procs") if row is not None else None
    if row is None or not isinstance(procs, list) or not procs:
        return ev
    return replace(ev or Evidence(), scaling_percent=float(row.value), scaling_gpus=int(max(procs)),
                   scaling_run=run.run_id)


def limit_of(r: Report, ev: Evidence | None) -> Limit:
    """The limiting resource and the evidence for it (most specific first)."""
    if ev is not None:
        util = ev.gpu_util_median
        if ev.vram_peak_fraction is not None and ev.vram_peak_fraction >= 0.95:
            return Limit("vram", "OOM-1", _m(QT_TRANSLATE_NOOP("advise", "VRAM peaked at {p:.0%} of the card ({src})"),
                                             p=ev.vram_peak_fraction, src=ev.source))
        if util is not None and util < LOW_UTIL:
            if ev.workers_saturated or ev.cpu_busy:
                return Limit("cpu", "BAL-1", _m(QT_TRANSLATE_NOOP(
                    "advise",
                    "the GPUs ran at {u:.0f} % while the DataLoader workers or the CPU were saturated ({src})"),
                    u=util, src=ev.source))
            if ev.iowait_median is not None and ev.iowait_median >= 10:
                return Limit("storage", "STO-1", _m(QT_TRANSLATE_NOOP(
                    "advise", "the GPUs ran at {u:.0f} % with the CPU waiting on the disk ({io:.0f} % iowait, {src})"),
                    u=util, io=ev.iowait_median, src=ev.source))
            if ev.pcie_degraded:
                return Limit("pcie", "PCI-3", _m(QT_TRANSLATE_NOOP(
                    "advise", "the GPUs ran at {u:.0f} % on a PCIe link below its maximum ({src})"),
                    u=util, src=ev.source))
        if ev.scaling_percent is not None and (ev.scaling_gpus or 0) >= 2 and ev.scaling_percent < LOW_SCALING:
            # the GPUs wait on each other's gradients: NCCL's kernels keep them "busy" meanwhile
            return Limit("interconnect", "PCI-5", _m(QT_TRANSLATE_NOOP(
                "advise", "data-parallel training on {n} GPUs reached {eff:.0f} % of ideal scaling (benchmark run "
                          "{run}; PCI-5's reference over PCIe reaches about 87 %): the all-reduce between the GPUs is "
                          "the limit"),
                n=ev.scaling_gpus, eff=ev.scaling_percent, run=ev.scaling_run))
        if util is not None and util < LOW_UTIL:
            return Limit("pipeline", "GPU-6", _m(QT_TRANSLATE_NOOP(
                "advise", "the GPUs ran at {u:.0f} % and the host shows no saturated resource: the input pipeline or "
                     "the batch size ({src})"), u=util, src=ev.source))
        if util is not None:
            return Limit("gpu", "GPU-6", _m(QT_TRANSLATE_NOOP(
                "advise", "the GPUs were busy ({u:.0f} % median, {src}): the GPU itself is the limit"), u=util,
                src=ev.source))
    verdict = _vram_verdict(r)
    w = r.build.workload
    batch = w.effective_batch if w is not None else None
    if verdict == "does_not_fit":
        return Limit("vram", "FIT-1", _m(QT_TRANSLATE_NOOP(
            "advise", "for this workload the build is VRAM-bound at batch {b}: the estimate does not fit in the card's "
                 "memory"), b=batch))
    if verdict == "tight":
        return Limit("vram", "FIT-1", _m(QT_TRANSLATE_NOOP(
            "advise", "for this workload the build is VRAM-bound at batch {b}: the estimate is tight in the card's "
                 "memory (within its error)"), b=batch))
    return Limit("gpu", "FIT-1", _m(QT_TRANSLATE_NOOP(
        "advise", "from the plan alone (no recording or benchmark): the model fits at batch {b}, so throughput is "
             "set by the GPU"), b=batch))


# ---------------------------------------------------------------------------------------------
# candidate builds


def _swap(build: Build, catalogue: Mapping[str, AnyPart], category: str, new_id: str,
          qty: int | None = None) -> tuple[Build, list[str]]:
    """``build`` with its parts of ``category`` replaced by ``new_id`` (the same count unless ``qty``)."""
    old = [p for p in build.parts if catalogue[p.id].category == category]
    n = qty if qty is not None else (sum(p.qty for p in old) or 1)
    kept = tuple(p for p in build.parts if catalogue[p.id].category != category)
    return replace(build, parts=(*kept, BuildPart(new_id, n))), [p.id for p in old]


# What a change may also need, by the rules its errors cite: a bigger PSU, another case (a server chassis
# for a passively cooled card), another cooler.
_SUPPORT = (("psu", Psu, ("PWR",)), ("case", Case, ("FIT", "THERM")), ("cooler", Cooler, ("FIT-6",)))


def _new_errors(r: Report, base: Report) -> list[Finding]:
    """The errors a change brings: those of rules the current build does not already break (a change is not
    refused for what the build has now, e.g. the guide's own stacked cards: THERM-2)."""
    had = {f.rule for f in base.errors}
    return [f for f in r.errors if f.rule not in had]


def _fix_support(build: Build, catalogue: Mapping[str, AnyPart], report: Report,
                 buy: list[tuple[str, int]], base: Report) -> tuple[Build, Report] | None:
    """Where the change leaves errors a PSU, a case or a cooler fixes, add the cheapest such parts (a few
    rounds: a server chassis may then need another PSU). Errors the current build already has are not the
    change's to fix."""
    for _round in range(4):
        errors = _new_errors(report, base)
        if not errors:
            return build, report
        improved = False
        for category, cls, rules in _SUPPORT:
            if not any(f.rule.startswith(rules) for f in errors):
                continue
            options = sorted((p for p in catalogue.values() if isinstance(p, cls)), key=lambda p: (p.price_cny, p.id))
            for part in options:
                trial, _ = _swap(build, catalogue, category, part.id, 1)
                r = check(trial, catalogue)
                if len(_new_errors(r, base)) < len(errors):
                    buy[:] = [(i, q) for i, q in buy if catalogue[i].category != category] + [(part.id, 1)]
                    build, report, improved = trial, r, True
                    break
        if not improved:
            return None
    return (build, report) if not _new_errors(report, base) else None


def _price(buy: Iterable[tuple[str, int]], catalogue: Mapping[str, AnyPart]) -> int:
    return sum(catalogue[i].price_cny * q for i, q in buy)


def _matching_cards(base: Report, catalogue: Mapping[str, AnyPart], need_vram: bool) -> Iterable[Upgrade]:
    """A build of mixed cards (data-parallel training runs at the slowest card's pace): each model's
    cards replaced by more of another model it already has."""
    b = base.build
    counts = {p.id: p.qty for p in b.parts if isinstance(catalogue[p.id], Gpu)}
    t0, _lo, _hi = _throughput(base)
    if len(counts) < 2 or not t0:
        return
    for old, n in counts.items():
        for new in counts:
            if new == old:
                continue
            kept = tuple(p for p in b.parts if p.id not in (old, new))
            trial = replace(b, parts=(*kept, BuildPart(new, counts[new] + n)))
            buy = [(new, n)]
            fixed = _fix_support(trial, catalogue, check(trial, catalogue), buy, base)
            if fixed is None:
                continue
            r = fixed[1]
            t, lo, hi = _throughput(r)
            if not t or (need_vram and _vram_verdict(r) != "fits") or t <= t0 * 1.02:
                continue
            yield Upgrade("vram" if need_vram else "gpu", tuple(buy), (old,), _price(buy, catalogue), t / t0 - 1,
                          None if lo is None else lo / t0 - 1, None if hi is None else hi / t0 - 1,
                          _m(QT_TRANSLATE_NOOP("advise", "the planner's throughput model: {old:,.0f} → {new:,.0f} "
                                                         "{unit}; the cards then match (data-parallel training runs "
                                                         "at the slowest card's pace)"),
                             old=t0, new=t, unit=(main_throughput(r) or r.estimates[0]).unit), r)


def _gpu_changes(base: Report, catalogue: Mapping[str, AnyPart], need_vram: bool) -> Iterable[Upgrade]:
    yield from _matching_cards(base, catalogue, need_vram)
    b = base.build
    cur = [catalogue[p.id] for p in b.parts if isinstance(catalogue[p.id], Gpu)]
    t0, _lo, _hi = _throughput(base)
    cur_vram = min((g.vram_gb for g in cur if isinstance(g, Gpu)), default=0)
    # the same maker's cards: the training code already runs on its stack (CUDA or ROCm); a switch is
    # another software port, not an upgrade
    vendors = {g.vendor for g in cur if isinstance(g, Gpu)}
    for g in sorted((p for p in catalogue.values() if isinstance(p, Gpu)), key=lambda p: (p.price_cny, p.id)):
        if any(c.id == g.id for c in cur) or (need_vram and g.vram_gb <= cur_vram) \
                or (vendors and g.vendor not in vendors):
            continue
        trial, removed = _swap(b, catalogue, "gpu", g.id)
        qty = next(p.qty for p in trial.parts if p.id == g.id)
        buy = [(g.id, qty)]
        fixed = _fix_support(trial, catalogue, check(trial, catalogue), buy, base)
        if fixed is None:
            continue
        _trial, r = fixed
        t, lo, hi = _throughput(r)
        if not t or not t0:
            continue
        if need_vram and _vram_verdict(r) != "fits":
            continue  # more VRAM that still does not fit lifts nothing
        if not need_vram and t <= t0 * 1.02:
            continue
        yield Upgrade("vram" if need_vram else "gpu", tuple(buy), tuple(removed), _price(buy, catalogue),
                      t / t0 - 1, None if lo is None else lo / t0 - 1, None if hi is None else hi / t0 - 1,
                      _m(QT_TRANSLATE_NOOP("advise", "the planner's throughput model: {old:,.0f} → {new:,.0f} {unit}"),
                         old=t0, new=t, unit=(main_throughput(r) or r.estimates[0]).unit), r)


def _util_gain(ev: Evidence | None) -> float:
    util = ev.gpu_util_median if ev is not None and ev.gpu_util_median else LOW_UTIL
    return max(UNBOUND_UTIL / max(util, 1.0) - 1, 0.0)


def _data_drive_need(b: Build, catalogue: Mapping[str, AnyPart]) -> tuple[int, int | None]:
    """What a new data drive must hold (the workload's data set, else a data drive's usual 1 TB: a 250 GB
    boot drive holds no data set) and the sequential read of the build's fastest drive, which it must beat."""
    w = b.workload
    need = int(w.dataset_gb) if w is not None and w.dataset_gb else DATA_DRIVE_GB
    reads = [d.seq_read_mbs for p in b.parts if isinstance(d := catalogue[p.id], Storage) and d.seq_read_mbs]
    return need, max(reads) if reads else None


def _host_changes(base: Report, catalogue: Mapping[str, AnyPart], limit: Limit, ev: Evidence | None
                  ) -> Iterable[Upgrade]:
    b = base.build
    parts = {catalogue[p.id].category: catalogue[p.id] for p in b.parts}
    gain = _util_gain(ev)
    basis = _m(QT_TRANSLATE_NOOP("advise", "the GPUs' measured utilisation lifted to {target:.0f} % (an unbound GPU); "
                                      "the GPUs themselves do not change"), target=UNBOUND_UTIL)
    if limit.resource == "cpu":
        cpu = parts.get("cpu")
        board = parts.get("motherboard")
        for c in sorted((p for p in catalogue.values() if isinstance(p, Cpu)), key=lambda p: (p.price_cny, p.id)):
            if not isinstance(cpu, Cpu) or c.cores <= cpu.cores or not isinstance(board, Motherboard) \
                    or c.socket != board.socket:
                continue
            trial, removed = _swap(b, catalogue, "cpu", c.id)
            buy = [(c.id, next(p.qty for p in trial.parts if p.id == c.id))]
            fixed = _fix_support(trial, catalogue, check(trial, catalogue), buy, base)
            if fixed is None:
                continue
            share = min(1.0, (c.cores - cpu.cores) / max(cpu.cores, 1))  # more cores feed more workers
            yield Upgrade("cpu", tuple(buy), tuple(removed), _price(buy, catalogue), gain * share, None, gain,
                          _m(QT_TRANSLATE_NOOP("advise", "more cores feed more DataLoader workers: {old} → {new} cores "
                                                    "lifts the GPUs' measured utilisation towards {target:.0f} % "
                                                    "(an unbound GPU) in proportion to the cores added"),
                             old=cpu.cores, new=c.cores, target=UNBOUND_UTIL), fixed[1])
    elif limit.resource == "storage":
        need_gb, fastest = _data_drive_need(b, catalogue)
        board = parts.get("motherboard")
        slot_gen = max((m.gen for m in board.m2_slots), default=None) if isinstance(board, Motherboard) else None

        def reads(d: Storage) -> int:  # in the board's fastest M.2 slot: a Gen5 drive in a Gen4 slot reads at Gen4
            cap = M2_READ_MBS.get(slot_gen) if slot_gen is not None and (d.pcie_gen or 0) > slot_gen else None
            return min(d.seq_read_mbs or 0, cap) if cap else (d.seq_read_mbs or 0)

        for s in sorted((p for p in catalogue.values()
                         if isinstance(p, Storage) and p.kind == "nvme" and p.capacity_gb >= need_gb
                         and (fastest is None or reads(p) >= FASTER_DRIVE * fastest)),
                        key=lambda p: (p.price_cny, p.id)):
            trial = replace(b, parts=(*b.parts, BuildPart(s.id, 1)))
            r = check(trial, catalogue)
            if not _new_errors(r, base):
                yield Upgrade("storage", ((s.id, 1),), (), s.price_cny, gain, None, None, _m(QT_TRANSLATE_NOOP(
                    "advise", "a data drive of {gb:,} GB that reads {new:,} MB/s (the fastest drive now: {old}); "
                              "the GPUs' measured utilisation lifted to {target:.0f} % (an unbound GPU)"),
                    gb=s.capacity_gb, new=reads(s),
                    old="—" if fastest is None else f"{fastest:,} MB/s", target=UNBOUND_UTIL), r)
    elif limit.resource == "pcie" and _short_links(base):
        board = parts.get("motherboard")
        cpu = parts.get("cpu")
        for mb in sorted((p for p in catalogue.values() if isinstance(p, Motherboard)),
                         key=lambda p: (p.price_cny, p.id)):
            if not isinstance(board, Motherboard) or mb.id == board.id or not isinstance(cpu, Cpu) \
                    or mb.socket != cpu.socket:
                continue
            trial, removed = _swap(b, catalogue, "motherboard", mb.id, 1)
            r = check(trial, catalogue)
            if not _new_errors(r, base) and not _short_links(r):  # every card on a full link from the CPU
                yield Upgrade("pcie", ((mb.id, 1),), tuple(removed), mb.price_cny, gain, None, None, basis, r)


def _short_links(r: Report) -> list[str]:
    """The cards the plan puts on a short PCIe link: fewer than 8 lanes or the chipset's (PCI-3), or a
    generation below the card's (PCI-1); PCI-3's info findings only say where each card sits."""
    return [f.rule for f in r.findings if f.rule in ("PCI-3", "PCI-1") and f.severity != "info"]


def _scaling(r: Report) -> tuple[float, float] | None:
    """The planner's scaling efficiency (0..1) and all-reduce link (GB/s) for a multi-GPU build."""
    e = r.estimate("scaling_efficiency")
    if e is None or e.value is None:
        return None
    return float(e.value), float((e.inputs or {}).get("link_gbs") or 0.0)


def _interconnect_changes(base: Report, catalogue: Mapping[str, AnyPart], ev: Evidence | None
                          ) -> Iterable[Upgrade]:
    """Boards that give the GPUs a faster all-reduce link (the planner's placement: lanes, generation,
    a CPU's slots instead of the chipset's). The gain runs from the planner's own change in scaling
    to the measured scaling lifted to the planner's efficiency on the new board."""
    b = base.build
    now = _scaling(base)
    measured = (ev.scaling_percent / 100) if ev is not None and ev.scaling_percent else None
    if now is None or not measured:
        return
    parts = {catalogue[p.id].category: catalogue[p.id] for p in b.parts}
    board, cpu = parts.get("motherboard"), parts.get("cpu")
    if not isinstance(board, Motherboard) or not isinstance(cpu, Cpu):
        return
    for mb in sorted((p for p in catalogue.values() if isinstance(p, Motherboard)), key=lambda p: (p.price_cny, p.id)):
        if mb.id == board.id or mb.socket != cpu.socket:
            continue
        trial, removed = _swap(b, catalogue, "motherboard", mb.id, 1)
        buy = [(mb.id, 1)]
        fixed = _fix_support(trial, catalogue, check(trial, catalogue), buy, base)
        if fixed is None:
            continue
        new = _scaling(fixed[1])
        if new is None or new[1] <= now[1] * 1.2:
            continue  # not a faster link
        high = max(new[0] / measured - 1, 0.0)
        low = max(new[0] / now[0] - 1, 0.0)
        if high <= 0.02:
            continue
        yield Upgrade("interconnect", tuple(buy), tuple(removed), _price(buy, catalogue), (low + high) / 2, low, high,
                      _m(QT_TRANSLATE_NOOP("advise", "the all-reduce link {old:.1f} → {new:.1f} GB/s per GPU; the "
                                                     "measured scaling {m:.0f} % towards the planner's {eff:.0f} % "
                                                     "on this board"),
                         old=now[1], new=new[1], m=measured * 100, eff=new[0] * 100), fixed[1])


def _interconnect_notes(base: Report, catalogue: Mapping[str, AnyPart]) -> list[Message]:
    b = base.build
    gpus = [g for p in b.parts if isinstance(g := catalogue[p.id], Gpu)]
    n = sum(p.qty for p in b.parts if isinstance(catalogue[p.id], Gpu))
    out = [_m(QT_TRANSLATE_NOOP(
        "advise", "before buying: check that every card sits in a slot wired to the CPU at its full width and "
                  "that peer-to-peer works (nvidia-smi topo -m; NCCL_DEBUG=INFO names the path NCCL takes), PCI-3"))]
    now = _scaling(base)
    if now is not None and gpus and not b.options.nvlink_bridge and all(g.nvlink for g in gpus) \
            and n <= (gpus[0].nvlink_max_gpus or 2):
        bridged = _scaling(check(replace(b, options=replace(b.options, nvlink_bridge=True)), catalogue))
        if bridged is not None and bridged[1] > now[1]:
            out.append(_m(QT_TRANSLATE_NOOP(
                "advise", "these cards take an NVLink bridge (not a catalogue part: price it at your shop): "
                          "{old:.1f} → {new:.1f} GB/s per GPU for the all-reduce, PCI-4"), old=now[1], new=bridged[1]))
    return out


def _guide(limit: Limit) -> tuple[Message, ...]:
    short = _m(QT_TRANSLATE_NOOP("advise", "UPG-1 (G 七), short term: more VRAM and a more efficient data pipeline. "
                                      "The guide's example, RTX 3090 → A4000, is wrong: the A4000 has 16 GB, the "
                                      "3090 24 GB (erratum 2)."))
    medium = _m(QT_TRANSLATE_NOOP("advise", "UPG-1, medium term: several nodes (NCCL, or Gloo on CPU) and tensor "
                                       "parallelism (Megatron-LM) once one machine is not enough."))
    long = _m(QT_TRANSLATE_NOOP("advise", "UPG-1, long term: a newer GPU generation (the guide names Hopper H100)."))
    if limit.resource in ("vram", "cpu", "storage", "pipeline", "pcie"):
        return (short, medium)
    return (long, medium)


def advise(build: Build, catalogue: Mapping[str, AnyPart], evidence: Evidence | None = None,
           budget_cny: float | None = None, limit_n: int = 5) -> Advice:
    """The limit, up to ``limit_n`` checked upgrades (cheapest per percent of gain first), the guide's path.

    The build's own budget is what its parts cost when it was planned, not what an upgrade may cost:
    the changes are checked without it (``budget_cny`` limits them)."""
    base = check(replace(build, budget_cny=None), catalogue)
    lim = limit_of(base, evidence)
    found: list[Upgrade] = []
    notes: list[Message] = []
    if lim.resource == "vram":
        lb = base.estimate("largest_batch")
        notes.append(_m(QT_TRANSLATE_NOOP(
            "advise", "before buying: the largest batch that fits this card is {b} (gradient accumulation keeps the "
                 "effective batch); gradient checkpointing, LoRA/QLoRA or ZeRO/FSDP sharding lower the need "
                 "further (FIT-1)"), b=int(lb.value) if lb is not None and lb.value is not None else 0))
    if lim.resource in ("vram", "gpu"):
        found.extend(_gpu_changes(base, catalogue, need_vram=lim.resource == "vram"))
    elif lim.resource == "interconnect":
        found.extend(_interconnect_changes(base, catalogue, evidence))
        notes.extend(_interconnect_notes(base, catalogue))
    else:
        found.extend(_host_changes(base, catalogue, lim, evidence))
        if lim.resource == "pcie" and not found:
            notes.append(_m(QT_TRANSLATE_NOOP(
                "advise", "the plan gives every card its full link on this board, so no part to buy fixes it: reseat "
                     "the card, check a riser cable and the BIOS's PCIe setting (PCI-3)")))
        elif lim.resource == "storage":
            drives = [d for p in build.parts if isinstance(d := catalogue[p.id], Storage)]
            hdd = next((d for d in drives if d.kind == "hdd"), None)
            ssd = max((d for d in drives if d.kind != "hdd"), key=lambda d: d.seq_read_mbs or 0, default=None)
            if hdd is not None and ssd is not None:
                notes.append(_m(QT_TRANSLATE_NOOP(
                    "advise", "before buying: if the data set is on the hard disk ({hdd}), copy it to the {ssd} "
                              "(STO-1)"), hdd=hdd.name, ssd=ssd.name))
        elif lim.resource == "pipeline":
            notes.append(_m(QT_TRANSLATE_NOOP(
                "advise", "no host resource is saturated: first try a larger batch, more DataLoader workers, pinned "
                     "memory and mixed precision; a faster GPU helps only once it is busy")))
    if budget_cny is not None:
        found = [u for u in found if u.price_cny <= budget_cny]
    if lim.resource == "vram":
        found.sort(key=lambda u: (u.price_cny, -u.gain))  # the cheapest card it fits on
    else:
        found.sort(key=lambda u: (u.cny_per_percent, u.price_cny))
    # one pick per part bought: the same GPU with a different PSU is the same advice
    seen: set[str] = set()
    picks = []
    for u in found:
        if u.buy[0][0] not in seen:
            seen.add(u.buy[0][0])
            picks.append(u)
    return Advice(lim, tuple(picks[:limit_n]), (*notes, *_guide(lim)), base)


def advice_to_dict(a: Advice, catalogue: Mapping[str, AnyPart],
                   render: Callable[[Message], str] | None = None) -> dict[str, Any]:
    show = render or (lambda m: m.render())

    def pct(x: float | None) -> float | None:
        return None if x is None else round(x * 100, 1)

    return {
        "limit": {"resource": a.limit.resource, "rule": a.limit.rule, "evidence": show(a.limit.evidence)},
        "upgrades": [{"kind": u.kind, "buy": [{"id": i, "name": catalogue[i].name, "qty": q} for i, q in u.buy],
                      "replaces": list(u.remove), "price_cny": u.price_cny, "gain_percent": pct(u.gain),
                      "gain_low_percent": pct(u.gain_low), "gain_high_percent": pct(u.gain_high),
                      "cny_per_percent": round(u.cny_per_percent), "basis": show(u.basis),
                      "total_cny_after": u.report.total_cny} for u in a.upgrades],
        "guide": [show(m) for m in a.guide],
        "build_total_cny": a.baseline.total_cny,
    }
