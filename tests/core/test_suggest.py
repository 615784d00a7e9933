"""suggest() must agree with an exhaustive search on a reduced catalogue, and be fast on the full one."""

from __future__ import annotations

import dataclasses
import itertools
import time

import pytest
from planner_kit import CATALOGUE

from configurator.core.build import Build, BuildPart, Workload
from configurator.core.engine import check
from configurator.core.suggest import SIMPLER, TIE, SuggestOptions, held_rules, report_score, suggest

REDUCED_IDS = [
    "nvidia-rtx-3060-12gb", "nvidia-rtx-3090", "nvidia-rtx-4070", "nvidia-gtx-1660-super",
    "amd-ryzen-5-5600x", "amd-ryzen-9-5950x", "intel-core-i5-12400f",
    "gigabyte-b450-aorus-pro", "asus-proart-b550-creator", "msi-b760m-project-zero",
    "corsair-vengeance-lpx-16gb-2x8gb-ddr4-3200", "corsair-vengeance-lpx-32gb-2x16gb-ddr4-3200",
    "kingston-fury-beast-32gb-2x16gb-ddr5-6000",
    "wd-blue-sn570-250gb", "samsung-990-pro-2tb",
    "corsair-cv450", "seasonic-focus-gx-650", "corsair-rm1000x-2021",
    "corsair-4000d-airflow", "cooler-master-masterbox-q300l",
]
REDUCED = {i: CATALOGUE[i] for i in REDUCED_IDS}


def exhaustive(catalogue: dict, budget: float, w: Workload,  # type: ignore[type-arg]
               allow_used: bool = False) -> tuple[int, tuple[str, ...]] | None:
    """Every build (up to 3 GPUs, 1 or 2 memory kits), checked by the engine: the best score, ties within
    1 % to the cheaper build. Cards sold used only are in it when allowed, marked used (BUD-4)."""
    by = {c: [p for p in catalogue.values() if p.category == c] for c in
          ("gpu", "cpu", "motherboard", "memory", "storage", "psu", "case")}
    by["gpu"] = [g for g in by["gpu"] if allow_used or not g.used_market]
    gpu_opts = [None] + [(g, n) for g in by["gpu"] for n in (1, 2, 3)]
    best: list[tuple[float, int, tuple[str, ...]]] = []
    for gopt, cpu, board, mem, mq, drive, psu, case in itertools.product(
            gpu_opts, by["cpu"], by["motherboard"], by["memory"], (1, 2), by["storage"], by["psu"], by["case"]):
        parts = [BuildPart(cpu.id), BuildPart(board.id), BuildPart(mem.id, mq), BuildPart(drive.id),
                 BuildPart(psu.id), BuildPart(case.id)]
        if gopt is not None:
            parts.insert(0, BuildPart(gopt[0].id, gopt[1], used=gopt[0].used_market))
        price = sum(catalogue[p.id].price_cny * p.qty for p in parts)
        if price > budget:
            continue
        if cpu.socket != board.socket:
            continue  # an error for sure (COMP-1); skipping only saves time
        report = check(Build(tuple(parts), budget_cny=budget, workload=w), catalogue)
        # balance, heat and power warnings rule a build out, as errors do; for training also CUD-4 and PCI-3
        strict = dataclasses.replace(SuggestOptions(), held=held_rules(w, SuggestOptions())).strict
        if report.ok and not any(f.severity == "warning" and strict(f.rule) for f in report.findings):
            n = gopt[1] if gopt is not None else 0
            best.append((report_score(report), price, n, tuple(sorted(p.id for p in parts))))
    if not best:
        return None
    top = max(t for t, _p, _n, _i in best)
    band = [(p, n, ids) for t, p, n, ids in best if t >= (1 - TIE) * top]
    cheapest = min(p for p, _n, _i in band)
    # fewer GPUs where they cost at most SIMPLER more, then the cheaper build
    n, p, ids = min((n, p, ids) for p, n, ids in band if p <= cheapest * (1 + SIMPLER))
    return p, ids


@pytest.mark.parametrize(("budget", "workload", "allow_used"), [
    (9000, Workload(model="resnet50", task="train", precision="amp"), False),
    (9000, Workload(model="resnet50", task="train", precision="amp"), True),
    (14000, Workload(model="gpt2", task="train", precision="amp"), True),
    (4000, Workload(model="resnet18", task="train"), False),
    (4000, Workload(model="resnet18", task="train"), True),
])
def test_suggest_equals_exhaustive_search_on_a_reduced_catalogue(budget: float, workload: Workload,
                                                                  allow_used: bool) -> None:
    """The best score (throughput with the warnings' penalties), cheapest within 1 %: what trying every
    build gives."""
    expected = exhaustive(REDUCED, budget, workload, allow_used)
    found = suggest(REDUCED, budget, workload, prefs=SuggestOptions(allow_used=allow_used, max_gpus=3,
                                                                     upgrade=False))
    assert expected is not None and found
    assert found[0].key() == expected


def test_suggest_on_the_full_catalogue_is_fast_valid_and_within_budget() -> None:
    w = Workload(model="resnet50", task="train", precision="amp")
    start = time.perf_counter()
    found = suggest(CATALOGUE, 20000, w)
    elapsed = time.perf_counter() - start
    assert found and elapsed < 5  # `make bench` holds the 1 s figure; CI machines are noisy
    best = found[0]
    assert best.report.ok and best.total_cny <= 20000
    assert all(s.score <= best.score * 1.0 / (1 - TIE) for s in found)
    assert len({s.gpu for s in found}) == len(found)  # alternatives differ in their GPUs


def test_nothing_fits_a_tiny_budget() -> None:
    assert suggest(CATALOGUE, 100, Workload(model="resnet18", task="train")) == []


@pytest.mark.parametrize(("budget", "workload"), [
    (20000, Workload(model="resnet50", task="train", precision="amp")),
    (40000, Workload(model="gpt2-medium", task="train", precision="amp")),
    (9000, Workload(model="resnet18", task="train")),
])
def test_pruning_changes_nothing_on_the_shipped_catalogue(budget: float, workload: Workload) -> None:
    pruned = suggest(CATALOGUE, budget, workload)
    full = suggest(CATALOGUE, budget, workload, pruned=False)
    assert [(s.key(), s.gpu, s.throughput) for s in pruned] == [(s.key(), s.gpu, s.throughput) for s in full]


def test_pruning_changes_nothing_with_many_listings_of_the_same_models() -> None:
    """Shop-style variants (other prices, one spec a little different) of a reduced catalogue."""
    import random
    from dataclasses import replace

    from configurator.core.suggest import prune

    rng = random.Random(5)
    varied = {"gpu": ("length_mm", "board_power_w"), "storage": ("capacity_gb", "seq_read_mbs"),
              "psu": ("watts",), "case": ("max_gpu_length_mm", "expansion_slots"), "memory": ("cas_latency",)}
    catalogue = dict(REDUCED)
    for i, p in enumerate(list(REDUCED.values()) * 8):
        changes: dict = {"id": f"{p.id}-v{i}", "price_cny": max(1, int(p.price_cny * rng.uniform(0.8, 1.5)))}  # type: ignore[type-arg]
        fields = varied.get(p.category, ())
        if fields and rng.random() < 0.5:
            name = rng.choice(fields)
            if isinstance(getattr(p, name), int):
                changes[name] = max(1, round(getattr(p, name) * rng.uniform(0.85, 1.15)))
        catalogue[changes["id"]] = replace(p, **changes)
    assert len(prune(catalogue)) < len(catalogue) * 0.6
    for budget, w in ((9000, Workload(model="resnet50", task="train", precision="amp")),
                      (14000, Workload(model="gpt2", task="train", precision="amp"))):
        pruned = suggest(catalogue, budget, w)
        full = suggest(catalogue, budget, w, pruned=False)
        assert pruned and [(s.key(), s.gpu, s.throughput) for s in pruned] == [
            (s.key(), s.gpu, s.throughput) for s in full]


def test_a_gpu_length_counts_only_through_the_cases_it_fits() -> None:
    """Two listings of one card that fit the same cases: the dearer, shorter one is dominated."""
    from dataclasses import replace

    from configurator.core.suggest import prune

    gpu = next(p for p in REDUCED.values() if p.category == "gpu" and getattr(p, "length_mm", None))
    longest = max(c.max_gpu_length_mm for c in REDUCED.values() if c.category == "case")
    cheap = replace(gpu, id=f"{gpu.id}-long", length_mm=min(longest, gpu.length_mm + 5), price_cny=gpu.price_cny - 1)
    short = replace(gpu, id=f"{gpu.id}-short", length_mm=max(1, gpu.length_mm - 5), price_cny=gpu.price_cny + 1)
    catalogue = {**REDUCED, cheap.id: cheap, short.id: short}
    fits = [c for c in catalogue.values() if c.category == "case"]
    if {c.id for c in fits if c.max_gpu_length_mm >= cheap.length_mm} == {
            c.id for c in fits if c.max_gpu_length_mm >= short.length_mm}:
        kept = prune(catalogue, alternatives=0)
        assert cheap.id in kept and short.id not in kept
