"""Which slot each GPU goes in, and the link it gets (PCI-2, PCI-3, COMP-4).

A card ``w`` slots wide in position ``p`` covers positions p … p + ceil(w) − 1, so no other
card can use a slot there; the lowest covered position must also exist in the case. The
search tries every assignment (boards have at most 7 x16 slots) and keeps the one that
seats the most cards, then gives them the widest links, then sits highest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from configurator.core.parts import Gpu, Motherboard, PcieSlot


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
class Placement:
    seats: tuple[Seat, ...]
    unplaced: tuple[int, ...]  # indexes of GPUs without a slot
    x16_slots: int
    lowest_position: int  # the lowest expansion position the cards occupy

    @property
    def placed(self) -> int:
        return len(self.seats)


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


def place(gpus: list[Gpu], board: Motherboard, cpu_gen: int | None, case_slots: int | None) -> Placement:
    slots = sorted((s for s in board.pcie_slots if s.physical_lanes >= 16), key=lambda s: s.position)
    best: tuple[tuple[int, int, int], list[Seat]] = ((-1, 0, 0), [])
    limit = case_slots if case_slots is not None else 99

    def covers(slot: PcieSlot, gpu: Gpu) -> tuple[int, ...]:
        width = math.ceil(gpu.slot_width or 1)
        return tuple(range(slot.position, slot.position + width))

    def search(i: int, seats: list[Seat], blocked: set[int], prev: int | None = -1) -> None:
        """``prev``: slot index the previous identical card took (None: it got none), so
        identical cards are tried in one order only."""
        nonlocal best
        if i == len(gpus):
            score = (len(seats), sum(s.lanes * 2 ** s.gen for s in seats), -sum(s.slot.position for s in seats))
            if score > best[0]:
                best = (score, list(seats))
            return
        gpu = gpus[i]
        # Upper bound: even seating every remaining card cannot beat the best count.
        if len(seats) + (len(gpus) - i) < best[0][0]:
            return
        same = i > 0 and gpus[i - 1].id == gpu.id
        if same and prev is None:
            search(i + 1, seats, blocked, None)
            return
        start = prev + 1 if same and prev is not None else 0
        for k in range(start, len(slots)):
            slot = slots[k]
            cov = covers(slot, gpu)
            if slot.position in blocked or any(p in blocked for p in cov) or cov[-1] > limit:
                continue
            if any(s.slot.position in cov for s in seats):
                continue
            lanes, gen = link_of(gpu, slot, cpu_gen)
            seats.append(Seat(i, gpu, slot, lanes, gen, cov))
            search(i + 1, seats, blocked | set(cov), k)
            seats.pop()
        search(i + 1, seats, blocked, None)  # this card gets no slot

    if gpus:
        search(0, [], set())
    seats = [_with_shared_lanes(s, best[1], board) for s in sorted(best[1], key=lambda s: s.gpu_index)]
    placed = {s.gpu_index for s in seats}
    lowest = max((s.covers[-1] for s in seats), default=0)
    return Placement(tuple(seats), tuple(i for i in range(len(gpus)) if i not in placed), len(slots), lowest)
