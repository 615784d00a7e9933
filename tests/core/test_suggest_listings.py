"""suggest() with a shop's duplicated listings: the same answer as an exhaustive search, and the
best-first configuration order is the full sort's."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_suggest import REDUCED, exhaustive

from configurator.core.build import Workload
from configurator.core.estimate.memory import vram_per_gpu
from configurator.core.parts import Cpu, Gpu, Motherboard
from configurator.core.suggest import SuggestOptions, suggest
from configurator.core.suggest.space import Estimates, by_category, configs_by_bound
from configurator.core.units import GIB

SMALL_IDS = [
    "nvidia-rtx-3060-12gb", "nvidia-rtx-3090", "nvidia-gtx-1660-super",
    "amd-ryzen-5-5600x", "intel-core-i5-12400f",
    "gigabyte-b450-aorus-pro", "msi-b760m-project-zero",
    "corsair-vengeance-lpx-32gb-2x16gb-ddr4-3200", "kingston-fury-beast-32gb-2x16gb-ddr5-6000",
    "samsung-990-pro-2tb", "seasonic-focus-gx-650", "corsair-rm1000x-2021", "corsair-4000d-airflow",
]


def with_listings(base: dict) -> dict:  # type: ignore[type-arg]
    """Each GPU and one board listed again: cheaper, at the same price (a later id: ties), dearer,
    and a GPU listing with more board power (faster under its power limit, and needing more supply)."""
    out = dict(base)
    for p in base.values():
        if p.category != "gpu" and p.id != "msi-b760m-project-zero":
            continue
        for tag, price in (("a-cheap", p.price_cny - 50), ("b-same", p.price_cny), ("c-dear", p.price_cny + 80)):
            out[f"{p.id}-{tag}"] = replace(p, id=f"{p.id}-{tag}", price_cny=price)
        if isinstance(p, Gpu):
            out[f"{p.id}-d-oc"] = replace(p, id=f"{p.id}-d-oc", board_power_w=p.board_power_w + 40,
                                          price_cny=p.price_cny + 10)
    return out


LISTED = with_listings({i: REDUCED[i] for i in SMALL_IDS})


@pytest.mark.parametrize(("budget", "workload"), [
    (12000, Workload(model="resnet50", task="train", precision="amp")),
    (5000, Workload(model="resnet18", task="infer")),
])
def test_duplicated_listings_give_the_exhaustive_searchs_answer(budget: float, workload: Workload) -> None:
    expected = exhaustive(LISTED, budget, workload, allow_used=True)
    prefs = SuggestOptions(allow_used=True, max_gpus=3)
    found = suggest(LISTED, budget, workload, prefs=prefs)
    assert expected is not None and found
    assert found[0].key() == expected
    full = suggest(LISTED, budget, workload, pruned=False, prefs=prefs)
    assert [(s.key(), s.gpu, s.throughput) for s in found] == [(s.key(), s.gpu, s.throughput) for s in full]


@pytest.mark.parametrize("workload", [Workload(model="resnet50", task="train", precision="amp"),
                                      Workload(model="gpt2", task="infer")])
def test_best_first_order_is_the_full_sorts(workload: Workload) -> None:
    budget = 30000
    parts_by = by_category(LISTED)
    est = Estimates(workload)
    lazy = [(c.gpu.id if c.gpu else "-", c.n, c.cpu.id, c.cpus, c.board.id, c.throughput)
            for c in configs_by_bound(parts_by, workload, budget, est, SuggestOptions(allow_used=True))]
    # Every configuration, sorted by throughput (down), then price, then board, CPU, count, GPU.
    gpus = [g for g in parts_by["gpu"] if isinstance(g, Gpu)]
    every = []
    for bi, board in enumerate(b for b in parts_by["motherboard"] if isinstance(b, Motherboard)):
        for ci, cpu in enumerate(c for c in parts_by["cpu"] if isinstance(c, Cpu)):
            if cpu.socket != board.socket:
                continue
            for count in sorted({1, min(board.sockets, cpu.max_sockets)}):  # as suggest pairs them
                base = cpu.price_cny * count + board.price_cny
                t = est.cpu_config(cpu, count, board)
                if base <= budget and t > 0:
                    every.append(((-t, base, bi, ci, count, 0), ("-", 0, cpu.id, count, board.id, t)))
                for gi, (g, n) in enumerate(((g, n) for g in gpus for n in range(1, 5)), start=1):
                    price = base + g.price_cny * n
                    if price > budget or est.upper_bound(g, n) <= 0:
                        continue
                    if vram_per_gpu(workload, n).low / GIB > g.vram_gb:
                        continue
                    v = est.gpu_config(g, n, cpu, board)
                    if v is not None and v > 0:
                        every.append(((-v, price, bi, ci, count, gi), (g.id, n, cpu.id, count, board.id, v)))
    assert lazy == [row for _key, row in sorted(every)]
    assert len(lazy) > 100
