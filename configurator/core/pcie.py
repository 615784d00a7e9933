"""Which slot each GPU goes in, and the link it gets (PCI-2, PCI-3, COMP-4); which M.2
connector each drive goes in and what that costs the GPU slots (PCI-10, FIT-7); which slots
a missing second CPU takes away (PCI-9).

A card ``w`` slots wide in position ``p`` covers positions p … p + ceil(w) − 1, so no other
card can use a slot there; the lowest covered position must also exist in the case. The
placement seats the most cards, then gives them the widest links, then sits highest (see
:func:`place`). :func:`layout` adds the CPUs and the drives to it.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from configurator.core.parts import Gpu, M2Slot, Motherboard, PcieSlot, Storage


@dataclass(frozen=True)
class Seat:
    gpu_index: int
    gpu: Gpu
    slot: PcieSlot
    lanes: int
    gen: int
    covers: tuple[int, ...]

    @property
    def label(self) -> str:
        return f"x{self.lanes} Gen{self.gen}, {self.slot.source}"


@dataclass(frozen=True)
class DriveSeat:
    drive_index: int  # index into the M.2 drives handed to layout()
    drive: Storage
    slot: M2Slot


@dataclass(frozen=True)
class Lowered:
    """A GPU-capable slot that loses lanes because an M.2 connector sharing them holds a drive (PCI-10)."""

    slot: str
    m2: str
    lanes: int  # what it keeps; 0: off
    was: int  # its lanes with the connector empty


@dataclass(frozen=True)
class Placement:
    seats: tuple[Seat, ...]
    unplaced: tuple[int, ...]  # indexes of GPUs without a slot
    x16_slots: int
    lowest_position: int  # the lowest expansion position the cards occupy
    drives: tuple[DriveSeat, ...] = ()
    drives_unplaced: tuple[int, ...] = ()  # M.2 drives without a usable connector
    m2_usable: int = 0  # M.2 connectors that work with the CPUs fitted
    lowered: tuple[Lowered, ...] = ()
    dead_slots: tuple[str, ...] = ()  # PCIe slots wired to an empty CPU socket (PCI-9)
    dead_m2: tuple[str, ...] = ()

    @property
    def placed(self) -> int:
        return len(self.seats)

    @property
    def placed_indexes(self) -> frozenset[int]:
        return frozenset(s.gpu_index for s in self.seats)


def link_of(gpu: Gpu, slot: PcieSlot, cpu_gen: int | None) -> tuple[int, int]:
    gen = min(slot.gen, gpu.pcie_gen)
    if slot.source == "cpu" and cpu_gen is not None:
        gen = min(gen, cpu_gen)
    return min(slot.electrical_lanes, gpu.pcie_lanes), gen


def _with_shared_lanes(seat: Seat, seats: list[Seat], board: Motherboard) -> Seat:
    """A CPU slot that splits its lanes with other slots (x16/x0 or x8/x8) gets the lanes of the
    partners that hold no card. The catalogue lists each slot's lanes with every slot in use."""
    if seat.slot.source != "cpu":
        return seat
    used = {s.slot.name for s in seats}
    by_name = {s.name: s for s in board.pcie_slots}
    free = [n for n in seat.slot.shares_with if n in by_name and n not in used and by_name[n].source == "cpu"]
    if not free:
        return seat
    lanes = min(seat.slot.physical_lanes, seat.gpu.pcie_lanes,
                seat.slot.electrical_lanes + sum(by_name[n].electrical_lanes for n in free))
    return Seat(seat.gpu_index, seat.gpu, seat.slot, lanes, seat.gen, seat.covers)


Score = tuple[int, int, int]  # cards seated, Σ lanes × 2^gen, −Σ slot positions; compared in that order


def _covers(slot: PcieSlot, gpu: Gpu) -> tuple[int, ...]:
    width = math.ceil(gpu.slot_width or 1)
    return tuple(range(slot.position, slot.position + width))


def place(gpus: list[Gpu], board: Motherboard, cpu_gen: int | None, case_slots: int | None) -> Placement:
    """Seat the most cards, then give them the widest links, then sit highest. Of placements that
    score the same, the one that puts card 0 highest wins (any slot before none), then card 1, and so on.

    The best that cards i, i + 1, … can add depends only on the positions cards 0 … i − 1 cover, so
    ``best`` is memoised on (i, covered positions): at most len(gpus) × 2^(positions cards can cover)
    states, each trying every slot once (16 one-slot cards on 7 slots: 16 × 2^7), where trying every
    assignment took minutes. Identical cards need no rule of their own: swapping two never changes the score, so the
    winning placement already gives the earlier of two the higher slot, or leaves out the later one.
    """
    slots = sorted((s for s in board.pcie_slots if s.physical_lanes >= 16), key=lambda s: s.position)
    limit = case_slots if case_slots is not None else 99
    # options[i]: (seat, covered positions as a bit mask, score) for each slot card i fits in
    options: list[list[tuple[Seat, int, Score]]] = []
    for i, gpu in enumerate(gpus):
        row = []
        for slot in slots:
            cov = _covers(slot, gpu)
            if cov[-1] <= limit:
                lanes, gen = link_of(gpu, slot, cpu_gen)
                row.append((Seat(i, gpu, slot, lanes, gen, cov), sum(1 << p for p in cov),
                            (1, lanes * 2 ** gen, -slot.position)))
        options.append(row)
    # (i, covered) → the best score cards i, i + 1, … can add, and card i's seat in it (None: no slot)
    memo: dict[tuple[int, int], tuple[Score, Seat | None]] = {}

    def best(i: int, covered: int) -> Score:
        if i == len(gpus):
            return (0, 0, 0)
        if (i, covered) not in memo:
            tries: list[tuple[Score, Seat | None]] = []
            for seat, mask, score in options[i]:
                if not mask & covered:
                    rest = best(i + 1, covered | mask)
                    tries.append(((score[0] + rest[0], score[1] + rest[1], score[2] + rest[2]), seat))
            tries.append((best(i + 1, covered), None))
            memo[i, covered] = max(tries, key=lambda t: t[0])  # max() keeps the first of equal scores
        return memo[i, covered][0]

    best(0, 0)
    chosen: list[Seat] = []
    covered = 0
    for i in range(len(gpus)):
        seat = memo[i, covered][1]
        if seat is not None:
            chosen.append(seat)
            covered |= sum(1 << p for p in seat.covers)
    seats = [_with_shared_lanes(s, chosen, board) for s in chosen]
    placed = {s.gpu_index for s in seats}
    lowest = max((s.covers[-1] for s in seats), default=0)
    return Placement(tuple(seats), tuple(i for i in range(len(gpus)) if i not in placed), len(slots), lowest)


def _gpu_slot_names(board: Motherboard) -> dict[str, PcieSlot]:
    return {s.name: s for s in board.pcie_slots if s.physical_lanes >= 16}


def _order_m2(slots: list[M2Slot], seated: dict[str, Seat], gpu_slots: dict[str, PcieSlot]) -> list[M2Slot]:
    """Connectors in the order an expert fills them: first those that cost no seated GPU lanes, then
    those that leave an empty GPU slot on, then CPU-attached before chipset, then the fastest."""
    def cost(m: M2Slot) -> tuple[int, int, int, int]:
        hit = [n for n in m.shares_with if n in gpu_slots] if m.slot_lanes_when_used is not None else []
        hurts_gpu = any(n in seated and seated[n].lanes > (m.slot_lanes_when_used or 0) for n in hit)
        return (int(hurts_gpu), int(bool(hit)), int(m.source != "cpu"), -(m.lanes * 2 ** m.gen))
    return sorted(slots, key=cost)


# Layouts already made, by the identity of the (frozen) parts they were made for; each entry holds the
# parts, so an identity is not reused while its entry lives. The planner's checks and Suggest's
# thousands of them lay out the same cards on the same board again and again.
_LAYOUTS: dict[tuple[Any, ...], tuple[Placement, tuple[Any, ...]]] = {}
_LAYOUTS_MAX = 4096


def layout(gpus: list[Gpu], board: Motherboard, cpu_gen: int | None, case_slots: int | None,
           cpus: int = 1, m2_drives: list[Storage] | None = None) -> Placement:
    """:func:`place` on the slots the fitted CPUs feed (PCI-9), then the M.2 drives on the board's
    connectors (fastest drive on the best connector, avoiding those that take a seated card's lanes),
    then each GPU slot's link as the manual gives it with those connectors in use (PCI-10). A slot an
    M.2 drive switches off is left out and the cards placed again."""
    drives_in = tuple(m2_drives or ())
    key = (tuple(map(id, gpus)), id(board), cpu_gen, case_slots, cpus, tuple(map(id, drives_in)))
    known = _LAYOUTS.get(key)
    if known is not None:
        return known[0]
    placement = _layout(gpus, board, cpu_gen, case_slots, cpus, list(drives_in))
    if len(_LAYOUTS) >= _LAYOUTS_MAX:
        _LAYOUTS.clear()
    _LAYOUTS[key] = (placement, (tuple(gpus), board, drives_in))
    return placement


def _layout(gpus: list[Gpu], board: Motherboard, cpu_gen: int | None, case_slots: int | None,
            cpus: int, m2_drives: list[Storage]) -> Placement:
    drives = sorted(m2_drives or [], key=lambda d: -(d.pcie_gen or 0))
    live = max(cpus, 1)
    dead = tuple(s.name for s in board.pcie_slots if s.socket > live)
    dead_m2 = tuple(m.name for m in board.m2_slots if m.socket > live)
    usable = dataclasses.replace(board, pcie_slots=[s for s in board.pcie_slots if s.socket <= live])
    m2 = [m for m in board.m2_slots if m.socket <= live]
    gpu_slots = _gpu_slot_names(usable)
    cards = [i for i, g in enumerate(gpus) if g.form_factor == "pcie"]  # modules sit on a baseboard (PCI-8)

    def place_cards(on: Motherboard) -> Placement:
        p = place([gpus[i] for i in cards], on, cpu_gen, case_slots)
        seats = tuple(dataclasses.replace(s, gpu_index=cards[s.gpu_index]) for s in p.seats)
        taken = {s.gpu_index for s in seats}
        return dataclasses.replace(p, seats=seats, unplaced=tuple(i for i in range(len(gpus)) if i not in taken))

    pl = place_cards(usable)
    chosen: list[M2Slot] = []
    for _attempt in range(2):
        seated = {s.slot.name: s for s in pl.seats}
        chosen = _order_m2(m2, seated, gpu_slots)[:len(drives)]
        off = {n for c in chosen if c.slot_lanes_when_used == 0 for n in c.shares_with if n in seated}
        if not off:
            break
        usable = dataclasses.replace(usable, pcie_slots=[s for s in usable.pcie_slots if s.name not in off])
        pl = place_cards(usable)
    lowered: list[Lowered] = []
    new_lanes: dict[str, int] = {}
    for c in chosen:
        if c.slot_lanes_when_used is None:
            continue
        for n in c.shares_with:
            slot = gpu_slots.get(n)
            if slot is None:
                continue
            was = next((s.lanes for s in pl.seats if s.slot.name == n), slot.electrical_lanes)
            keep = min(new_lanes.get(n, was), c.slot_lanes_when_used)
            if keep < was:
                new_lanes[n] = keep
                lowered.append(Lowered(n, c.name, c.slot_lanes_when_used, was))
    seats = tuple(dataclasses.replace(s, lanes=new_lanes[s.slot.name]) if s.slot.name in new_lanes else s
                  for s in pl.seats)
    placed_drives = tuple(DriveSeat(i, d, c) for i, (d, c) in enumerate(zip(drives, chosen, strict=False)))
    return dataclasses.replace(
        pl, seats=seats, drives=placed_drives, drives_unplaced=tuple(range(len(chosen), len(drives))),
        m2_usable=len(m2), lowered=tuple(lowered), dead_slots=dead, dead_m2=dead_m2)
