"""Suggest's configuration space: the options a user gives, and every (GPU × count, CPU × count,
board) configuration within the budget with an estimate of its throughput, made lazily best first
(``configs_by_bound``) or cheapest first (``configs_by_price``). The search that completes them and ranks the
builds is in :mod:`configurator.core.suggest.search`."""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from configurator.core.build import Build, BuildPart, Workload
from configurator.core.engine import Report, check, main_throughput
from configurator.core.estimate import interconnect as ic
from configurator.core.estimate import throughput as tp
from configurator.core.estimate.memory import vram_per_gpu
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import AnyPart, Cpu, Gpu, Motherboard
from configurator.core.pcie import Placement, layout
from configurator.core.suggest.score import CASE_SIZES
from configurator.core.units import GIB

MAX_GPUS = 4  # the default upper end of the GPU count
MAX_GPUS_LIMIT = 8  # what the option may ask for (boards with 7 or 8 x16-length slots)
# What Suggest assumes where it is not told (the command line and the dialog alike, so they give the same
# best build): ResNet-50 training with mixed precision.
DEFAULT_WORKLOAD = Workload(model="resnet50", task="train", precision="amp")
TIE = 0.01
MEMORY_STRATEGIES = ("auto", "as-given")
# Balance rules Suggest holds as constraints unless the user relaxes them (``--relax``); warnings of the
# heat and power rules (THERM-*, PWR-*) are never left in a suggestion.
STRICT_PREFIXES = ("BAL-", "THERM-", "PWR-")
# Rules a training workload makes constraints too, unless relaxed (``held_rules``), and let through only
# where no build without them exists within the budget and the options (suggest() says so):
# CUD-4, an AMD card: ROCm instead of CUDA. The guide takes AMD only "if the budget is limited … but the
# ecosystem compatibility is poor" (M 1.1: 若预算有限，可选用AMD RX 570（需ROCm支持），但生态兼容性较差);
# RULES.md CUD-4: CUDA-only libraries (custom kernels, bitsandbytes, FlashAttention builds) do not run. An
# expert buys NVIDIA for PyTorch training unless asked, so equal money never buys an AMD card.
# PCI-3, a GPU on fewer than 8 lanes or behind the chipset (RULES.md PCI-3: "CPU/chipset lanes for GPUs
# (x16/x8)"): every data-parallel step moves the gradients over that link, shared with the chipset's drives
# and network; the guide's multi-GPU section weighs exactly that link (G 二.3: NVLink's 100 GB/s against PCIe
# 3.0's 16 GB/s), and a chipset x4 Gen3 link has a quarter of the latter.
TRAINING_HELD = ("CUD-4", "PCI-3")
RELAXABLE = ("BAL-1", "BAL-2", "BAL-3", "BAL-4", *TRAINING_HELD)
Goal = Literal["fastest", "cheapest"]


@dataclass(frozen=True)
class SuggestOptions:
    """What the user asks of Suggest beyond the budget and the workload.

    ``goal``: "fastest" within the budget, or "cheapest" that reaches ``target_throughput`` (in the
    workload's unit, the score: a build's warnings count against it). ``min_gpus``/``max_gpus``: the
    GPU count (0 allows a CPU-only build). ``case_sizes``: the case sizes allowed (empty: any; see
    score.CASE_SIZES). ``allow_used``: also cards that are sold used only (their price is a
    used-market estimate); they go into the build marked used. ``memory``: "auto" lets Suggest shard
    (FSDP) or use LoRA/QLoRA for LLM training that fits no GPU otherwise; "as-given" keeps the
    workload's own sharding and fine-tuning."""

    goal: Goal = "fastest"
    target_throughput: float | None = None
    min_gpus: int = 0
    max_gpus: int = MAX_GPUS
    case_sizes: frozenset[str] = frozenset()
    allow_used: bool = False
    memory: str = "auto"
    relax: frozenset[str] = frozenset()  # balance rules (RELAXABLE) the user lets a suggestion warn on
    # Rules the workload makes constraints beyond STRICT_PREFIXES (TRAINING_HELD for training): set by
    # suggest() through ``held_rules``, emptied where no build without them exists.
    held: frozenset[str] = frozenset()
    keep_finetune: bool = False  # the user chose the fine-tuning method: "auto" may shard, not switch to LoRA
    upgrade: bool = True  # left-over budget buys platform parts (the tests compare the search without it)
    # A serving workload at a request rate, goal "cheapest" (suggest.serve): bounds on the median time to first
    # token and per output token, ms
    max_ttft_ms: float | None = None
    max_tpot_ms: float | None = None

    def strict(self, rule: str) -> bool:
        """Whether a warning of this rule rules a build out."""
        return (rule.startswith(STRICT_PREFIXES) or rule in self.held) and rule not in self.relax

    def problems(self, w: Workload | None = None) -> list[tuple[str, Message]]:
        """(option, message) for each value Suggest cannot use; with the workload, also the options that do
        not apply to it (the serving bounds)."""
        out: list[tuple[str, Message]] = []
        if self.goal not in ("fastest", "cheapest"):
            out.append(("goal", Message("suggest", QT_TRANSLATE_NOOP("suggest", "must be fastest or cheapest"))))
        rate = w is not None and w.serving and w.request_rate is not None
        if rate and self.goal == "cheapest" and self.target_throughput is not None:
            out.append(("target_throughput", Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "a serving workload's target is its request rate; give no throughput target"))))
        elif not rate and self.goal == "cheapest" and (
                self.target_throughput is None or not math.isfinite(self.target_throughput)
                or self.target_throughput <= 0):
            out.append(("target_throughput", Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "the goal \"cheapest\" needs a positive target throughput"))))
        if self.min_gpus > self.max_gpus and self.min_gpus >= 0 and self.max_gpus <= MAX_GPUS_LIMIT:
            out.append(("gpus", Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "at least {low} GPUs and at most {high} contradict each other"),
                {"low": self.min_gpus, "high": self.max_gpus})))
        elif not 0 <= self.min_gpus <= self.max_gpus <= MAX_GPUS_LIMIT:
            out.append(("gpus", Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "the GPU count must be a range within 0–{high}"), {"high": MAX_GPUS_LIMIT})))
        unknown = sorted(set(self.case_sizes) - set(CASE_SIZES))
        if unknown:
            out.append(("case", Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "unknown case size {names}; choose from {choices}"),
                {"names": ", ".join(unknown), "choices": ", ".join(CASE_SIZES)})))
        bad = sorted(set(self.relax) - set(RELAXABLE))
        if bad:
            out.append(("relax", Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "{rules}: not a rule that can be relaxed; choose from {choices}"),
                {"rules": ", ".join(bad), "choices": ", ".join(RELAXABLE)})))
        for key, bound in (("max_ttft_ms", self.max_ttft_ms), ("max_tpot_ms", self.max_tpot_ms)):
            if bound is None:
                continue
            if not math.isfinite(bound) or bound <= 0:
                out.append((key, Message("suggest", QT_TRANSLATE_NOOP(
                    "suggest", "must be a positive number of milliseconds"))))
            elif w is not None and not rate:
                out.append((key, Message("suggest", QT_TRANSLATE_NOOP(
                    "suggest", "applies to a serving workload at a request rate only (task serve with "
                               "request_rate)"))))
            elif w is not None and self.goal != "cheapest":
                out.append((key, Message("suggest", QT_TRANSLATE_NOOP(
                    "suggest", "applies to goal cheapest (the cheapest build that serves the request rate)"))))
        if self.memory not in MEMORY_STRATEGIES:
            out.append(("memory", Message("suggest", QT_TRANSLATE_NOOP(
                "suggest", "must be auto or as-given"))))
        return out


def held_rules(w: Workload, prefs: SuggestOptions) -> frozenset[str]:
    """The rules this workload makes constraints beyond the balance, heat and power rules (TRAINING_HELD for
    training), less those the user relaxed."""
    return frozenset(TRAINING_HELD if w.task == "train" else ()) - prefs.relax


def tensor_split_ok(w: Workload, n: int) -> bool:
    """Tensor parallelism splits the attention heads evenly over the GPUs (vLLM and TensorRT-LLM refuse a
    head count the GPU count does not divide)."""
    heads = w.spec().heads
    return w.parallel != "tensor" or n <= 1 or (heads > 0 and heads % n == 0)


@dataclass(frozen=True)
class Config:
    gpu: Gpu | None
    n: int
    cpu: Cpu
    cpus: int
    board: Motherboard
    throughput: float

    @property
    def price(self) -> int:
        return (self.gpu.price_cny * self.n if self.gpu else 0) + self.cpu.price_cny * self.cpus + self.board.price_cny

    @property
    def gkey(self) -> tuple[str, int]:
        return (self.gpu.id, self.n) if self.gpu is not None else ("-", 0)


def report_throughput(report: Report) -> float:
    est = main_throughput(report)  # a serving workload's: its output tokens/s at its load
    return float(est.value or 0) if est else 0.0


def by_category(catalogue: Mapping[str, AnyPart]) -> dict[str, list[AnyPart]]:
    out: dict[str, list[AnyPart]] = {}
    for p in sorted(catalogue.values(), key=lambda p: (p.price_cny, p.id)):
        out.setdefault(p.category, []).append(p)
    return out
class Estimates:
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
        # One model split over the GPUs (tensor parallel): one stream faster with more GPUs. Without a split each
        # GPU decodes the workload's batch of streams on its own copy (as the engine counts it).
        self.split = self.one_stream and w.parallel == "tensor"
        self.splits: dict[tuple[Any, ...], float] = {}
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
        if n > 1 and self.split:  # the card's own full link: no slot gives it more
            return self.split_rate(gpu, n, ic.pcie_bytes_per_s(gpu.pcie_gen, gpu.pcie_lanes), "pcie")
        if n <= 1:
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
            elif self.split and n > 1:
                # The engine's link (links.allreduce_link) without its cap by the host memory's bandwidth: a bound.
                gen = min(s.gen for s in pl.seats)
                lanes = min(s.lanes for s in pl.seats)
                link = ic.pcie_bytes_per_s(gen, lanes)
                p2p = ic.has_p2p(gpu)
                value = self.split_rate(gpu, n, link if p2p else ic.host_path_bytes_per_s(link, None, n),
                                        "pcie" if p2p else "host")
            else:  # LLM inference as the engine counts it: each GPU decodes the workload's batch of streams
                value = per * n
        self.values[key] = value if value is not None else -1.0
        return value

    def split_rate(self, gpu: Gpu, n: int, link: float, path: str) -> float:
        """One stream's rate through the model split over n of these cards joined by ``link`` (links.build_system)."""
        self.single(gpu)
        key = (self.hw[gpu.id], n, link, path)
        got = self.splits.get(key)
        if got is None:
            got = self.splits[key] = tp.single_gpu(gpu, self.w, tp.FACTORS, tp.System(n, link, path)).headline(self.w)
        return got

    def cpu_config(self, cpu: Cpu, cpus: int, board: Motherboard) -> float:
        key = (cpu.id, cpus, board.id)
        got = self.cpu_only.get(key)
        if got is None:
            build = Build((BuildPart(cpu.id, cpus), BuildPart(board.id)), workload=self.w)
            got = self.cpu_only[key] = report_throughput(check(build, {cpu.id: cpu, board.id: board}))
        return got




def cpu_board_pairs(parts_by: dict[str, list[AnyPart]], budget: float
           ) -> list[tuple[tuple[int, int, int], Cpu, int, Motherboard, int]]:
    """(order, cpu, count, board, price) of every CPU × board pair within the budget."""
    cpus = [c for c in parts_by.get("cpu", []) if isinstance(c, Cpu)]
    boards = [b for b in parts_by.get("motherboard", []) if isinstance(b, Motherboard)]
    pairs: list[tuple[tuple[int, int, int], Cpu, int, Motherboard, int]] = []
    for bi, board in enumerate(boards):
        for ci, cpu in enumerate(cpus):
            if cpu.socket != board.socket:
                continue
            for count in sorted({1, min(board.sockets, cpu.max_sockets)}):
                base = cpu.price_cny * count + board.price_cny
                if base <= budget:
                    pairs.append(((bi, ci, count), cpu, count, board, base))
    return pairs


def gpu_options(parts_by: dict[str, list[AnyPart]], w: Workload, budget: float, est: Estimates,
                 prefs: SuggestOptions, cheapest_pair: int) -> list[tuple[float, int, Gpu, int]]:
    """(-upper bound, order, GPU, count) of every card × count the options allow within the budget
    whose memory holds the workload's estimate, best first. FIT-1 errs only when even the low end is over
    the card (what cannot work); a suggestion is held to the estimate itself: the low end is what leaner
    recipes than the one counted reach, not a promise for this one."""
    options: list[tuple[float, int, Gpu, int]] = []
    low_vram = {n: vram_per_gpu(w, n).total / GIB for n in range(1, prefs.max_gpus + 1)}
    for g in usable_gpus(parts_by, prefs):
        for n in range(max(1, prefs.min_gpus), prefs.max_gpus + 1):
            if g.price_cny * n > budget:
                break
            if low_vram[n] > g.vram_gb or not tensor_split_ok(w, n):
                continue
            if g.price_cny * n + cheapest_pair <= budget:
                options.append((-est.upper_bound(g, n), len(options) + 1, g, n))
    options.sort(key=lambda o: (o[0], o[1]))
    return options


def usable_gpus(parts_by: dict[str, list[AnyPart]], prefs: SuggestOptions) -> list[Gpu]:
    """PCIe cards PyTorch can use (NVIDIA, or AMD with ROCm unless CUD-4 is held), new unless used ones are
    allowed."""
    rocm = not prefs.strict("CUD-4")
    return [g for g in parts_by.get("gpu", []) if isinstance(g, Gpu) and g.form_factor == "pcie"
            and (g.vendor == "nvidia" or (rocm and g.rocm_supported)) and (prefs.allow_used or not g.used_market)]


def configs_by_bound(parts_by: dict[str, list[AnyPart]], w: Workload, budget: float, est: Estimates,
             prefs: SuggestOptions | None = None) -> Iterator[Config]:
    """Every (GPU × count, CPU × count, board) configuration within the budget, fastest first (equal
    throughput: cheaper first, then in board, CPU, count, GPU order).

    Generated lazily, best first: the GPU options (card × count) in order of an upper bound on their
    throughput, each expanded over every board and CPU only once no configuration already made is
    faster than its bound. A search that stops near the top sees a few options, not all of them."""
    prefs = prefs or SuggestOptions()
    pairs = cpu_board_pairs(parts_by, budget)
    if not pairs:
        return
    cheapest = min(p[4] for p in pairs)
    heap: list[tuple[float, int, tuple[int, int, int, int], Config]] = []
    if prefs.min_gpus == 0:
        for order, cpu, count, board, base in pairs:
            t = est.cpu_config(cpu, count, board)
            if t > 0:
                heap.append((-t, base, (*order, 0), Config(None, 0, cpu, count, board, t)))
        heapq.heapify(heap)
    options = gpu_options(parts_by, w, budget, est, prefs, cheapest)
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
                heapq.heappush(heap, (-value, price, (*order, oi), Config(gpu, n, cpu, count, board, value)))
        if not heap:
            return
        yield heapq.heappop(heap)[3]


def configs_by_price(parts_by: dict[str, list[AnyPart]], w: Workload, budget: float, est: Estimates,
                      prefs: SuggestOptions, target: float, option_ok: Callable[[Gpu, int], bool] | None = None,
                      config_ok: Callable[[Gpu, int, Cpu, Motherboard, int], bool] | None = None
                      ) -> Iterator[Config]:
    """The configurations whose throughput reaches ``target``, cheapest first (lazily: a heap over
    each GPU option's pairs in price order). With ``option_ok`` and ``config_ok`` (a serving target,
    suggest.serve) those decide instead of the throughput, and a CPU-only build is never one."""
    pairs = sorted(cpu_board_pairs(parts_by, budget), key=lambda p: (p[4], p[0]))
    if not pairs:
        return
    heap: list[tuple[int, int, int]] = []  # (price, option, pair index)
    options: list[tuple[Gpu | None, int]] = [(None, 0)] if prefs.min_gpus == 0 and option_ok is None else []
    options += [(g, n) for _b, _o, g, n in gpu_options(parts_by, w, budget, est, prefs, pairs[0][4])
                if (option_ok(g, n) if option_ok is not None else est.upper_bound(g, n) >= target)]
    for oi, (g, n) in enumerate(options):
        heap.append(((g.price_cny * n if g else 0) + pairs[0][4], oi, 0))
    heapq.heapify(heap)
    while heap:
        price, oi, pi = heapq.heappop(heap)
        g, n = options[oi]
        if pi + 1 < len(pairs):
            nxt = (g.price_cny * n if g else 0) + pairs[pi + 1][4]
            if nxt <= budget:
                heapq.heappush(heap, (nxt, oi, pi + 1))
        if price > budget:
            continue
        _order, cpu, count, board, _base = pairs[pi]
        if g is None:
            t: float | None = est.cpu_config(cpu, count, board)
        else:
            t = est.gpu_config(g, n, cpu, board, count)
        if t is None:
            continue
        if config_ok is not None:
            if g is None or not config_ok(g, n, cpu, board, count):
                continue
        elif t < target:
            continue
        yield Config(g, n, cpu, count, board, t)
