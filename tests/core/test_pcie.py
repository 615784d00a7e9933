"""core/pcie.place against the exhaustive search it replaced: the same seats, lanes and unplaced cards."""

from __future__ import annotations

import math
import random
import time

from planner_kit import CATALOGUE

from configurator.core.parts import Gpu, Motherboard, PcieSlot
from configurator.core.pcie import Placement, Seat, _with_shared_lanes, link_of, place

GPUS = sorted((p for p in CATALOGUE.values() if isinstance(p, Gpu)), key=lambda g: g.id)
BOARDS = sorted((p for p in CATALOGUE.values() if isinstance(p, Motherboard)), key=lambda b: b.id)
BIG_BOARD = "asus-pro-ws-wrx80e-sage-se-wifi"


def exhaustive_place(gpus: list[Gpu], board: Motherboard, cpu_gen: int | None,
                     case_slots: int | None) -> Placement:
    """The place() before it was memoised, kept as the reference: tries every assignment (slots^cards)."""
    slots = sorted((s for s in board.pcie_slots if s.physical_lanes >= 16), key=lambda s: s.position)
    best: tuple[tuple[int, int, int], list[Seat]] = ((-1, 0, 0), [])
    limit = case_slots if case_slots is not None else 99

    def covers(slot: PcieSlot, gpu: Gpu) -> tuple[int, ...]:
        width = math.ceil(gpu.slot_width or 1)
        return tuple(range(slot.position, slot.position + width))

    def search(i: int, seats: list[Seat], blocked: set[int], prev: int | None = -1) -> None:
        nonlocal best
        if i == len(gpus):
            score = (len(seats), sum(s.lanes * 2 ** s.gen for s in seats), -sum(s.slot.position for s in seats))
            if score > best[0]:
                best = (score, list(seats))
            return
        gpu = gpus[i]
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
        search(i + 1, seats, blocked, None)

    if gpus:
        search(0, [], set())
    seats = [_with_shared_lanes(s, best[1], board) for s in sorted(best[1], key=lambda s: s.gpu_index)]
    placed = {s.gpu_index for s in seats}
    lowest = max((s.covers[-1] for s in seats), default=0)
    return Placement(tuple(seats), tuple(i for i in range(len(gpus)) if i not in placed), len(slots), lowest)


def x16_slots(board: Motherboard) -> int:
    return sum(s.physical_lanes >= 16 for s in board.pcie_slots)


def random_gpus(rng: random.Random, count: int) -> list[Gpu]:
    """``count`` cards of one to four models; shuffled half the time, so identical cards are not always
    next to each other."""
    models = rng.sample(GPUS, rng.randint(1, 4))
    gpus = [rng.choice(models) for _ in range(count)]
    if rng.random() < 0.5:
        gpus.sort(key=lambda g: g.id)
    return gpus


def test_same_placement_as_the_exhaustive_search_on_every_board() -> None:
    rng = random.Random(20240611)
    compared = unplaced = 0
    for board in BOARDS:
        for _ in range(24):
            gpus = random_gpus(rng, rng.randint(1, x16_slots(board) + 1))
            cpu_gen = rng.choice([None, 3, 4, 5])
            case_slots = rng.choice([None, None, 4, 5, 6, 7, 8])
            expected = exhaustive_place(gpus, board, cpu_gen, case_slots)
            assert place(gpus, board, cpu_gen, case_slots) == expected, (board.id, [g.id for g in gpus],
                                                                       cpu_gen, case_slots)
            compared += 1
            unplaced += bool(expected.unplaced)
    assert compared == 24 * len(BOARDS) and unplaced > compared // 10  # the unplaced tie-break is exercised


def test_same_placement_for_identical_cards_and_for_none() -> None:
    board = CATALOGUE[BIG_BOARD]
    assert isinstance(board, Motherboard)
    for gpu in GPUS:
        for count in (1, 3, 8):
            assert place([gpu] * count, board, 4, None) == exhaustive_place([gpu] * count, board, 4, None)
    assert place([], board, 4, None) == exhaustive_place([], board, 4, None) == Placement((), (), 7, 0)


def test_sixteen_different_cards_on_seven_slots_are_placed_quickly() -> None:
    board = CATALOGUE[BIG_BOARD]
    assert isinstance(board, Motherboard)
    one_slot = sorted(GPUS, key=lambda g: (g.slot_width or 0, g.id))
    start = time.perf_counter()
    for n in (8, 9, 16):
        pl = place(one_slot[:n], board, 4, None)
        assert pl.placed == 7 and len(pl.unplaced) == n - 7
    assert time.perf_counter() - start < 0.5
    # Against the reference where it still runs in a moment: eight cards take it about a second.
    assert place(one_slot[:8], board, 4, None) == exhaustive_place(one_slot[:8], board, 4, None)
