"""Catalogue-wide invariants: what a hardware person would catch at a glance."""

from __future__ import annotations

import math
from collections import Counter
from urllib.parse import urlparse

import pytest

from configurator.core.parts import Case, Cooler, Cpu, Gpu, Memory, Motherboard, Psu, Storage
from configurator.store.catalogue import load_catalogue

PARTS = load_catalogue()
BY_ID = {p.id: p for p in PARTS}
GPUS = [p for p in PARTS if isinstance(p, Gpu)]
CPUS = [p for p in PARTS if isinstance(p, Cpu)]
BOARDS = [p for p in PARTS if isinstance(p, Motherboard)]

REQUIRED_IDS = [
    "nvidia-gtx-1650-super",
    "nvidia-gtx-1660-super",
    "nvidia-rtx-3060-12gb",
    "nvidia-rtx-3090",
    "nvidia-rtx-4090",
    "nvidia-rtx-5090",
    "nvidia-rtx-a4000",
    "nvidia-tesla-t4",
    "nvidia-a100-40gb-pcie",
    "nvidia-a100-80gb-pcie",
    "nvidia-a100-80gb-sxm",
    "nvidia-h100-pcie",
    "amd-radeon-rx-570",
    "intel-core-i5-10400f",
    "amd-ryzen-5-3600",
    "amd-ryzen-5-5600x",
    "amd-ryzen-9-5950x",
    "intel-core-i9-12900k",
    "amd-ryzen-threadripper-pro-3975wx",
    "intel-xeon-platinum-8380",
]


def test_counts_per_category() -> None:
    counts = Counter(p.category for p in PARTS)
    minimum = {"gpu": 40, "cpu": 30, "motherboard": 25, "memory": 15, "storage": 12, "psu": 15, "case": 8,
               "cooler": 10}
    short = {c: (counts[c], n) for c, n in minimum.items() if counts[c] < n}
    assert not short, f"categories below their minimum (have, need): {short}"


@pytest.mark.parametrize("part_id", REQUIRED_IDS)
def test_required_ids_exist(part_id: str) -> None:
    assert part_id in BY_ID


def test_sources_are_spec_pages_not_domains() -> None:
    for p in PARTS:
        url = urlparse(p.source)
        assert url.scheme == "https" or url.scheme == "http", p.id
        assert url.path.strip("/"), f"{p.id}: {p.source} is a bare domain"


def test_threads_are_cores_or_twice_cores() -> None:
    for c in CPUS:
        ok = c.threads in (c.cores, 2 * c.cores) or (c.p_cores is not None and c.threads == c.cores + c.p_cores)
        assert ok, f"{c.id}: {c.cores} cores, {c.threads} threads"


def test_boost_at_least_base() -> None:
    for c in CPUS:
        assert c.boost_ghz >= c.base_ghz, c.id


def test_max_power_at_least_tdp() -> None:
    for c in CPUS:
        assert c.max_power_w >= c.tdp_w, c.id


def test_tensor_rate_at_least_fp32_where_tensor_cores_exist() -> None:
    for g in GPUS:
        if g.tensor_cores:
            assert g.fp16_tensor_tflops is not None and g.fp16_tensor_tflops >= g.fp32_tflops, g.id
        else:
            assert g.fp16_tensor_tflops is None or g.vendor != "nvidia", g.id


def test_recommended_psu_above_board_power() -> None:
    for g in GPUS:
        if g.recommended_psu_w is not None:
            assert g.recommended_psu_w > g.board_power_w, g.id


def test_every_cpu_socket_has_a_board() -> None:
    sockets = {b.socket for b in BOARDS}
    missing = sorted({c.socket for c in CPUS} - sockets)
    assert not missing, f"CPU sockets with no motherboard: {missing}"


def test_special_boards_exist() -> None:
    assert any(b.socket == "sWRX8" for b in BOARDS)
    assert any(b.socket == "LGA4189" and b.sockets == 2 for b in BOARDS)


def test_board_slots_are_consistent() -> None:
    for b in BOARDS:
        assert b.pcie_slots, b.id
        positions = [s.position for s in b.pcie_slots]
        assert len(set(positions)) == len(positions), f"{b.id}: two slots in one position"
        for s in b.pcie_slots:
            assert s.electrical_lanes <= s.physical_lanes, f"{b.id} {s.name}"
        assert b.max_memory_gb > 0 and b.memory_slots > 0


def test_gpu_fields_make_sense() -> None:
    for g in GPUS:
        if g.form_factor == "pcie":
            assert g.length_mm and g.slot_width, g.id
        if g.nvlink:
            assert g.nvlink_bandwidth_gbs and g.nvlink_max_gpus, g.id
        if g.vendor == "nvidia":
            assert g.compute_capability, g.id
        if g.bf16_tensor_tflops is not None and g.compute_capability:
            assert float(g.compute_capability) >= 8.0, f"{g.id}: BF16 needs compute capability 8.0+"


def test_rtx_3090_matches_nvidia() -> None:
    g = BY_ID["nvidia-rtx-3090"]
    assert isinstance(g, Gpu)
    assert (g.vram_gb, g.board_power_w, g.nvlink, g.nvlink_max_gpus) == (24, 350, True, 2)
    assert g.recommended_psu_w == 750  # NVIDIA's figure for the Founders Edition (the guide says 850 W)
    assert math.isclose(g.fp32_tflops, 35.6, abs_tol=0.1)


def test_errata_store_vendor_figures() -> None:
    a100 = BY_ID["nvidia-a100-40gb-pcie"]
    t4 = BY_ID["nvidia-tesla-t4"]
    a4000 = BY_ID["nvidia-rtx-a4000"]
    assert isinstance(a100, Gpu) and isinstance(t4, Gpu) and isinstance(a4000, Gpu)
    assert a100.fp16_tensor_tflops == pytest.approx(312, rel=0.01)  # the guide says 19.5 (its FP32 rate)
    assert t4.tensor_cores and t4.fp16_tensor_tflops == pytest.approx(65, rel=0.01)  # guide: "no Tensor Core"
    assert a4000.vram_gb == 16  # guide: "upgrade from 3090 to A4000 for more VRAM"
    xeon = BY_ID["intel-xeon-platinum-8380"]
    assert isinstance(xeon, Cpu) and xeon.memory_types == ["DDR4"]  # guide: "512GB DDR5"
    rx570 = BY_ID["amd-radeon-rx-570"]
    assert isinstance(rx570, Gpu) and rx570.rocm_supported is False


def test_sxm_modules_are_not_pcie_cards() -> None:
    sxm = BY_ID["nvidia-a100-80gb-sxm"]
    assert isinstance(sxm, Gpu) and sxm.form_factor == "sxm" and sxm.length_mm is None


def test_other_categories_make_sense() -> None:
    for p in PARTS:
        if isinstance(p, Memory):
            assert p.capacity_gb % p.modules == 0, p.id
            assert not (p.rdimm and not p.ecc), f"{p.id}: RDIMMs are ECC"
        if isinstance(p, Storage):
            assert (p.pcie_gen is None) == (p.kind != "nvme") or p.form_factor == "U.2", p.id
            assert p.seq_read_mbs <= {"hdd": 400, "sata_ssd": 600, "nvme": 16000}[p.kind], p.id
        if isinstance(p, Psu):
            assert 300 <= p.watts <= 3000, p.id
        if isinstance(p, Case):
            assert p.board_form_factors and p.max_gpu_length_mm > 150, p.id
    watts = [p.watts for p in PARTS if isinstance(p, Psu)]
    assert min(watts) <= 450 and max(watts) >= 2000
    kinds = {p.kind for p in PARTS if isinstance(p, Storage)}
    assert kinds == {"hdd", "sata_ssd", "nvme"}
    gens = {p.pcie_gen for p in PARTS if isinstance(p, Storage) and p.kind == "nvme"}
    assert {3, 4, 5} <= gens
    assert {(m.memory_type, m.rdimm) for m in PARTS if isinstance(m, Memory)} >= {
        ("DDR4", False), ("DDR4", True), ("DDR5", False), ("DDR5", True)}


def test_every_cooler_socket_is_a_catalogued_cpu_socket() -> None:
    sockets = {c.socket for c in CPUS}
    coolers = [p for p in PARTS if isinstance(p, Cooler)]
    assert {s for c in coolers for s in c.cpu_sockets} <= sockets
    assert all((c.height_mm is not None) == (c.kind == "air") for c in coolers)
    assert all((c.radiator_mm is not None) == (c.kind == "aio") for c in coolers)


def test_every_passive_pcie_card_has_a_server_chassis_it_fits() -> None:
    """THERM-1 makes a passive card an error in a desktop case: each one needs a legal home."""
    homes = [c for c in PARTS if isinstance(c, Case) and c.server_airflow]
    for g in GPUS:
        if g.form_factor == "pcie" and g.cooling == "passive":
            assert any((g.length_mm or 0) <= c.max_gpu_length_mm for c in homes), g.id


def test_every_case_supply_form_factor_has_a_supply() -> None:
    supplies = {p.form_factor for p in PARTS if isinstance(p, Psu)}
    for c in (p for p in PARTS if isinstance(p, Case)):
        assert set(c.psu_form_factors) & supplies, c.id


# -- China-market SKUs (issue 29) ----------------------------------------------------------------------------

CHINA_EDITIONS = {  # China SKU: (the global part, VRAM GiB, memory GB/s)
    "nvidia-rtx-4090-d": ("nvidia-rtx-4090", 24, 1008.0),
    "nvidia-rtx-5090-d": ("nvidia-rtx-5090", 32, 1792.0),
    "nvidia-rtx-5090-d-v2": ("nvidia-rtx-5090", 24, 1344.0),
}


@pytest.mark.parametrize("sku", sorted(CHINA_EDITIONS))
def test_china_editions_load_with_sources(sku: str) -> None:
    g, (global_id, vram, bandwidth) = BY_ID[sku], CHINA_EDITIONS[sku]
    assert isinstance(g, Gpu) and global_id in BY_ID
    assert urlparse(g.source).scheme == "https" and urlparse(g.source).path.strip("/")
    assert g.notes and "https://" in g.notes and "China" in g.notes  # the figures' sources, per field
    assert (g.vram_gb, g.memory_bandwidth_gbs) == (vram, bandwidth)
    # Figures derived or typical of a partner board, not published by NVIDIA, are marked.
    assert {"fp16_tensor_tflops", "length_mm", "slot_width"} <= set(g.unverified)
    assert g.fp32_tflops <= BY_ID[global_id].fp32_tflops  # type: ignore[union-attr]


def test_cut_down_china_editions_match_their_published_figures() -> None:
    d4, d5, v2 = (BY_ID[i] for i in ("nvidia-rtx-4090-d", "nvidia-rtx-5090-d", "nvidia-rtx-5090-d-v2"))
    assert isinstance(d4, Gpu) and isinstance(d5, Gpu) and isinstance(v2, Gpu)
    assert d4.board_power_w == 425 and round(14592 * 2 * 2.52 / 1000, 2) == d4.fp32_tflops
    assert math.isclose(v2.memory_bandwidth_gbs, 28 * 384 / 8)  # 28 Gbps on 384 bit
    assert v2.fp16_tensor_tflops == d5.fp16_tensor_tflops  # both 2375 AI TOPS


@pytest.mark.parametrize("part_id", ["nvidia-rtx-4090", "nvidia-rtx-5090", "nvidia-l40s", "nvidia-a100-40gb-pcie",
                                     "nvidia-a100-80gb-pcie", "nvidia-a100-80gb-sxm", "nvidia-h100-pcie",
                                     "nvidia-h100-sxm", "nvidia-h200-sxm", "nvidia-h200-nvl"])
def test_parts_not_sold_in_china_say_so_with_a_source(part_id: str) -> None:
    notes = BY_ID[part_id].notes or ""
    assert "China" in notes and "https://" in notes, part_id
