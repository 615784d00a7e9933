"""A test per rule; threshold rules get builds one unit either side of the threshold."""

from __future__ import annotations

from planner_kit import Kit, finding, rules

from configurator.core.build import BuildPart, Workload, resolve
from configurator.core.estimate.power import estimate_power

R50 = Workload(model="resnet50", task="train")
GPT2M = Workload(model="gpt2-medium", task="train", precision="amp")


# -- budget ------------------------------------------------------------------------------


def test_bud1_one_yuan_either_side_of_the_budget(kit: Kit) -> None:
    total = kit.check(*kit.standard()).total_cny
    assert finding(kit.check(*kit.standard(), budget=total), "BUD-1").severity == "info"
    over = finding(kit.check(*kit.standard(), budget=total - 1), "BUD-1")
    assert over.severity == "error" and over.numbers["over_cny"] == 1


def test_bud2_basic_box_reference(kit: Kit) -> None:
    kit.tweak("nvidia-gtx-1650-super", price_cny=5000)
    assert "within" in finding(kit.check("nvidia-gtx-1650-super"), "BUD-2").message.render()
    kit.tweak("nvidia-gtx-1650-super", price_cny=5001)
    assert "above" in finding(kit.check("nvidia-gtx-1650-super"), "BUD-2").message.render()


def test_bud3_break_even_formula_and_never(kit: Kit) -> None:
    rep = kit.check(*kit.standard(), cloud_cny_per_month=8000, hours_per_day=8, electricity_cny_per_kwh=0.6)
    f = finding(rep, "BUD-3")
    n = f.numbers
    expected = n["total_cny"] / (8000 - n["draw_w"] / 1000 * 8 * 30 * 0.6)
    assert abs(n["months"] - round(expected, 1)) < 1e-9
    never = finding(kit.check(*kit.standard(), cloud_cny_per_month=10), "BUD-3")
    assert never.numbers["months"] is None and "never" in never.message.render()


def test_bud4_used_gpu(kit: Kit) -> None:
    parts = kit.standard(gpu=None)
    used = kit.check(BuildPart("nvidia-rtx-3090", 1, used=True), *parts)
    assert finding(used, "BUD-4", "warning") is not None
    assert finding(kit.check(*kit.standard()), "BUD-4") is None


# -- power -------------------------------------------------------------------------------


def _peak(kit: Kit, parts: list) -> int:  # type: ignore[type-arg]
    return estimate_power(resolve(kit.build(*parts), kit.catalogue)).peak_w


def test_pwr2_one_watt_either_side_of_the_peak(kit: Kit) -> None:
    parts = kit.standard()
    peak = _peak(kit, parts)
    kit.tweak("seasonic-prime-px-1600", watts=peak)
    assert finding(kit.check(*parts), "PWR-2").severity == "info"
    kit.tweak("seasonic-prime-px-1600", watts=peak - 1)
    err = finding(kit.check(*parts), "PWR-2", "error")
    assert err is not None and err.numbers["peak_w"] == peak and "transient" in err.message.render()


def test_pwr1_vendor_and_guide_figures(kit: Kit) -> None:
    parts = kit.standard()
    kit.tweak("seasonic-prime-px-1600", watts=850)
    assert finding(kit.check(*parts), "PWR-1") is None
    kit.tweak("seasonic-prime-px-1600", watts=849)
    guide = [f for f in kit.check(*parts).findings if f.rule == "PWR-1"]
    assert len(guide) == 1 and guide[0].numbers["guide_psu_w"] == 850
    kit.tweak("seasonic-prime-px-1600", watts=749)
    both = [f for f in kit.check(*parts).findings if f.rule == "PWR-1"]  # one finding names both figures
    assert len(both) == 1 and both[0].severity == "warning"
    assert both[0].numbers["guide_psu_w"] == 850 and both[0].numbers["vendor_psu_w"] == 750


def test_pwr3_connectors(kit: Kit) -> None:
    parts = kit.standard()
    kit.tweak("nvidia-rtx-3090", power_8pin=3, power_12v2x6=0)
    kit.tweak("seasonic-prime-px-1600", pcie_8pin=3, eps_8pin=1)
    assert finding(kit.check(*parts), "PWR-3") is None
    kit.tweak("seasonic-prime-px-1600", pcie_8pin=2)
    assert finding(kit.check(*parts), "PWR-3", "error") is not None
    kit.tweak("seasonic-prime-px-1600", pcie_8pin=3, eps_8pin=0)
    assert "EPS" in finding(kit.check(*parts), "PWR-3", "error").message.render()


def test_pwr3_sixteen_pin_through_the_adapter(kit: Kit) -> None:
    parts = kit.standard(gpu="nvidia-rtx-4090")
    kit.tweak("seasonic-prime-px-1600", connector_12v2x6=0, pcie_8pin=4)
    assert finding(kit.check(*parts), "PWR-3").severity == "warning"
    kit.tweak("seasonic-prime-px-1600", pcie_8pin=3)
    assert finding(kit.check(*parts), "PWR-3").severity == "error"


def test_pwr4_throughput_per_watt(kit: Kit) -> None:
    f = finding(kit.check(*kit.standard(), workload=R50), "PWR-4")
    assert f.severity == "info" and f.numbers["per_watt"] > 0


# -- PCIe --------------------------------------------------------------------------------


def test_pci2_more_gpus_than_usable_slots(kit: Kit) -> None:
    # The ProArt B550 has two x16-length slots four positions apart.
    ok = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 2)))
    assert finding(ok, "PCI-2") is None
    over = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 3)))
    assert finding(over, "PCI-2", "error").numbers["placed"] == 2


def test_pci2_wide_cards_cover_neighbouring_slots(kit: Kit) -> None:
    board = "asus-pro-ws-wrx80e-sage-se-wifi"
    parts = kit.standard(gpu=("nvidia-rtx-a4000", 7), cpu="amd-ryzen-threadripper-pro-3975wx", board=board,
                         memory="samsung-m393a2k40db3-cwe-128gb-8x16gb-ddr4-3200-rdimm")
    assert finding(kit.check(*parts), "PCI-2") is None  # single-slot cards: all seven fit
    kit.tweak("nvidia-rtx-a4000", slot_width=2.0)
    assert finding(kit.check(*parts), "PCI-2", "error").numbers["placed"] == 4


def test_pci8_sxm_modules_without_a_baseboard_are_an_error_and_take_no_slot(kit: Kit) -> None:
    rep = kit.check(*kit.standard(gpu="nvidia-a100-80gb-sxm"))
    assert "SXM" in finding(rep, "PCI-8", "error").message.render()
    assert finding(rep, "PCI-2") is None and finding(rep, "PCI-3") is None  # no PCIe slot for a module
    assert rep.gpus_counted == 0 and rep.estimate("throughput_one_gpu") is None


def test_pci3_link_per_gpu_and_chipset_warning(kit: Kit) -> None:
    rep = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 2)))
    links = [f for f in rep.findings if f.rule == "PCI-3"]
    assert next(f.message.render() for f in links).startswith("GPU 1: x8 Gen4 from the CPU")
    assert all(f.severity == "info" for f in links)
    rep = kit.check(*kit.standard(gpu=("nvidia-rtx-a4000", 3), board="asrock-x570-phantom-gaming-x"))
    assert any(f.severity == "warning" and f.numbers["from"] == "chipset" for f in rep.findings if f.rule == "PCI-3")


def test_pci1_gen3_slot(kit: Kit) -> None:
    rep = kit.check(*kit.standard(board="gigabyte-b450-aorus-pro"))
    assert finding(rep, "PCI-1", "warning").numbers["gen"] == 3
    assert finding(kit.check(*kit.standard()), "PCI-1") is None


def test_pci4_nvlink(kit: Kit) -> None:
    two = kit.standard(gpu=("nvidia-rtx-3090", 2))
    assert finding(kit.check(*two, nvlink_bridge=True), "PCI-4").severity == "info"
    assert finding(kit.check(*kit.standard(gpu=("nvidia-rtx-4090", 2)), nvlink_bridge=True), "PCI-4", "error")
    assert finding(kit.check(*kit.standard(), nvlink_bridge=True), "PCI-4", "error")  # one card
    board = "asus-pro-ws-wrx80e-sage-se-wifi"
    four = kit.standard(gpu=("nvidia-rtx-3090", 4), cpu="amd-ryzen-threadripper-pro-3975wx", board=board,
                        memory="samsung-m393a2k40db3-cwe-128gb-8x16gb-ddr4-3200-rdimm")
    kit.tweak("nvidia-rtx-3090", slot_width=1.0)
    warn = finding(kit.check(*four, nvlink_bridge=True), "PCI-4", "warning")
    assert warn.numbers["max_gpus"] == 2 and "pairs" in warn.message.render()


def test_pci5_pci7_pci6_multi_gpu(kit: Kit) -> None:
    w = Workload(model="gpt2-medium", task="train", precision="amp", batch_size=8, sharding="fsdp")
    rep = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 2)), workload=w)
    assert finding(rep, "PCI-5").numbers["reference_measured"] == 3.5
    assert finding(rep, "PCI-7").numbers["global_batch"] == 16
    assert finding(rep, "PCI-6") is not None
    single = kit.check(*kit.standard(), workload=w)
    assert not {"PCI-5", "PCI-6", "PCI-7"} & set(rules(single))


# -- compatibility -----------------------------------------------------------------------


def test_comp1_socket_and_socket_count(kit: Kit) -> None:
    assert finding(kit.check(*kit.standard(cpu="intel-core-i9-12900k")), "COMP-1", "error")
    assert finding(kit.check(*kit.standard(cpu=("amd-ryzen-9-5950x", 2))), "COMP-1", "error")
    assert finding(kit.check(*kit.standard()), "COMP-1") is None


def test_comp2_memory_type_rdimm_udimm_ecc(kit: Kit) -> None:
    ddr5 = kit.check(*kit.standard(memory="corsair-vengeance-64gb-2x32gb-ddr5-6000"))
    assert len([f for f in ddr5.findings if f.rule == "COMP-2" and f.severity == "error"]) == 2  # board and CPU
    rdimm = kit.check(*kit.standard(memory="samsung-m393a4k40db3-cwe-32gb-ddr4-3200-rdimm"))
    assert "registered" in finding(rdimm, "COMP-2", "error").message.render()
    udimm_on_server = kit.check(*kit.standard(cpu="amd-epyc-7543", board="asrock-rack-romed8-2t"))
    assert "RDIMM" in finding(udimm_on_server, "COMP-2", "error").message.render()


def test_comp3_modules_and_capacity(kit: Kit) -> None:
    # The ProArt B550 has four slots: two 2-module kits fit, three do not.
    ok = kit.check(*kit.standard(memory=("corsair-vengeance-lpx-64gb-2x32gb-ddr4-3200", 2)))
    assert finding(ok, "COMP-3") is None
    over = kit.check(*kit.standard(memory=("corsair-vengeance-lpx-64gb-2x32gb-ddr4-3200", 3)))
    assert {f.numbers["modules"] for f in over.findings if f.rule == "COMP-3"} == {6}


def test_comp4_gpu_length_one_mm_either_side(kit: Kit) -> None:
    kit.tweak("nvidia-rtx-3090", length_mm=524)
    assert finding(kit.check(*kit.standard()), "COMP-4") is None
    kit.tweak("nvidia-rtx-3090", length_mm=525)
    assert finding(kit.check(*kit.standard()), "COMP-4", "error").numbers["gpu_length_mm"] == 525


def test_comp4_board_form_factor_and_expansion_slots(kit: Kit) -> None:
    rep = kit.check(*kit.standard(case="cooler-master-masterbox-q300l"))
    messages = [f.message.render() for f in rep.findings if f.rule == "COMP-4"]
    assert any("takes Mini-ITX, Micro-ATX boards" in m for m in messages)


def test_comp5_cpu_newer_than_board(kit: Kit) -> None:
    rep = kit.check(*kit.standard(board="gigabyte-b450-aorus-pro"))
    assert finding(rep, "COMP-5", "warning") is not None
    assert finding(kit.check(*kit.standard()), "COMP-5") is None


# -- software ----------------------------------------------------------------------------


def test_cud1_cud2_table_and_guide_figures(kit: Kit) -> None:
    rep = kit.check(*kit.standard())
    cud1 = finding(rep, "CUD-1")
    assert cud1.numbers["first_cuda"] == "11.1" and cud1.numbers["source"].startswith("https://")
    assert "450.80.02" in (cud1.guide or "")
    assert "11.3" in finding(rep, "CUD-2").message.render()
    v100 = kit.check(*kit.standard(gpu="nvidia-tesla-v100-pcie-16gb"))
    assert finding(v100, "CUD-1", "warning") is not None  # not in the newest wheels


def test_cud4_amd(kit: Kit) -> None:
    rx570 = finding(kit.check(*kit.standard(gpu="amd-radeon-rx-570")), "CUD-4")
    assert rx570.severity == "warning" and "neither" in rx570.message.render()
    xtx = finding(kit.check(*kit.standard(gpu="amd-radeon-rx-7900-xtx")), "CUD-4")
    assert "ROCm" in xtx.message.render() and "neither" not in xtx.message.render()


def test_cud6_windows(kit: Kit) -> None:
    assert finding(kit.check(*kit.standard(), os="windows-11"), "CUD-6", "warning") is not None
    assert finding(kit.check(*kit.standard(), os="ubuntu-24.04"), "CUD-6") is None


# -- GPU / VRAM --------------------------------------------------------------------------


def test_gpu7_no_gpu(kit: Kit) -> None:
    assert finding(kit.check(*kit.standard(gpu=None)), "GPU-7").severity == "info"


def test_gpu1_six_gib_class(kit: Kit) -> None:
    big_cnn = Workload(model="custom", task="train", family="cnn", params=60e6)
    rep = kit.check(*kit.standard(gpu="nvidia-gtx-1660-super"), workload=big_cnn)
    assert finding(rep, "GPU-1").severity == "warning"
    small = kit.check(*kit.standard(gpu="nvidia-gtx-1660-super"),
                      workload=Workload(model="custom", task="train", family="cnn", params=49e6))
    assert finding(small, "GPU-1").severity == "info"


def test_gpu2_transformer_vram_24(kit: Kit) -> None:
    kit.tweak("nvidia-rtx-3090", vram_gb=23)
    assert finding(kit.check(*kit.standard(), workload=GPT2M), "GPU-2", "warning") is not None
    kit.tweak("nvidia-rtx-3090", vram_gb=24)
    assert finding(kit.check(*kit.standard(), workload=GPT2M), "GPU-2") is None


def test_gpu3_bert_batch(kit: Kit) -> None:
    over = Workload(model="bert-base", task="train", batch_size=65)
    assert finding(kit.check(*kit.standard(), workload=over), "GPU-3", "warning").numbers["guide_batch"] == 64
    ok = Workload(model="bert-base", task="train", batch_size=64)
    assert finding(kit.check(*kit.standard(), workload=ok), "GPU-3") is None


def test_gpu4_cnn_minimum(kit: Kit) -> None:
    kit.tweak("nvidia-gtx-1650-super", vram_gb=3)
    assert finding(kit.check(*kit.standard(gpu="nvidia-gtx-1650-super"), workload=R50), "GPU-4", "warning")
    kit.tweak("nvidia-gtx-1650-super", vram_gb=4)
    w33 = Workload(model="resnet18", task="train", batch_size=33)
    assert finding(kit.check(*kit.standard(gpu="nvidia-gtx-1650-super"), workload=w33), "GPU-4", "warning")
    w32 = Workload(model="resnet18", task="train", batch_size=32)
    assert finding(kit.check(*kit.standard(gpu="nvidia-gtx-1650-super"), workload=w32), "GPU-4") is None


def test_gpu5_gpt_minimum_is_a_recommendation_not_a_fit_error(kit: Kit) -> None:
    infer = Workload(model="gpt2", task="infer")
    rep = kit.check(*kit.standard(gpu="nvidia-gtx-1650-super"), workload=infer)
    assert finding(rep, "GPU-5", "warning") is not None
    assert finding(rep, "FIT-1").severity == "info"  # erratum 4: GPT-2 small inference fits in 4 GB
    kit.tweak("nvidia-rtx-3060-12gb", vram_gb=12)
    assert finding(kit.check(*kit.standard(gpu="nvidia-rtx-3060-12gb"), workload=infer), "GPU-5") is None


# -- CPU ---------------------------------------------------------------------------------


def test_cpu_rules(kit: Kit) -> None:
    cpu = "amd-ryzen-5-3600"
    kit.tweak(cpu, cores=7, threads=14)
    rep = kit.check(*kit.standard(cpu=cpu, gpu=("nvidia-rtx-3090", 2)))
    assert finding(rep, "CPU-1", "warning") is not None
    kit.tweak(cpu, cores=8, threads=16)
    assert finding(kit.check(*kit.standard(cpu=cpu)), "CPU-1") is None
    kit.tweak(cpu, threads=8)
    assert finding(kit.check(*kit.standard(cpu=cpu)), "CPU-2") is not None
    kit.tweak(cpu, l3_mb=15.0)
    assert finding(kit.check(*kit.standard(cpu=cpu)), "CPU-3", "warning") is not None
    kit.tweak(cpu, l3_mb=16.0, threads=16, boost_ghz=3.5, base_ghz=3.0)
    assert finding(kit.check(*kit.standard(cpu=cpu)), "CPU-5", "warning") is not None
    kit.tweak(cpu, boost_ghz=3.6)
    assert finding(kit.check(*kit.standard(cpu=cpu)), "CPU-5") is None
    no_gpu = kit.check(*kit.standard(gpu=None, cpu=cpu))
    assert finding(no_gpu, "CPU-4", "warning") is not None
    assert finding(kit.check(*kit.standard()), "CPU-6") is not None


# -- memory ------------------------------------------------------------------------------


def test_ram_rules_and_fit2(kit: Kit) -> None:
    mem = "corsair-vengeance-lpx-16gb-2x8gb-ddr4-3200"
    rep = kit.check(*kit.standard(memory=mem), workload=R50)
    need = finding(rep, "RAM-1").numbers["first_principles_gb"]
    assert need < 16
    kit.tweak(mem, capacity_gb=15)
    assert finding(kit.check(*kit.standard(memory=mem), workload=R50), "RAM-2", "warning") is not None
    kit.tweak(mem, capacity_gb=int(need) - 1 if need > 2 else 1)
    assert finding(kit.check(*kit.standard(memory=mem), workload=R50), "FIT-2", "error") is not None
    gpt = Workload(model="gpt2", task="train")
    kit.tweak(mem, capacity_gb=31)
    assert finding(kit.check(*kit.standard(memory=mem), workload=gpt), "RAM-3", "warning") is not None
    kit.tweak(mem, capacity_gb=32)
    assert finding(kit.check(*kit.standard(memory=mem), workload=gpt), "RAM-3").severity == "info"


def test_ram1_guide_formula_is_shown_beside_first_principles(kit: Kit) -> None:
    xl = Workload(model="gpt2-xl", task="train", batch_size=32)
    f = finding(kit.check(*kit.standard(), workload=xl), "RAM-1")
    # G 三.2's example: GPT-2 1.5B, batch 32, FP32 → about 230 GB (in GiB: 1.558e9 × 32 × 4.8 / 2^30).
    assert abs(f.numbers["guide_formula_gb"] - 1_557_611_200 * 32 * 4 * 1.2 / 2**30) < 0.01
    assert f.severity == "warning" and f.numbers["first_principles_gb"] < 64


def test_ram4_tips_when_it_does_not_fit(kit: Kit) -> None:
    big = Workload(model="gpt2-xl", task="train", batch_size=16)
    rep = kit.check(*kit.standard(), workload=big)
    assert finding(rep, "FIT-1", "error") is not None and finding(rep, "RAM-4") is not None


# -- storage -----------------------------------------------------------------------------


def test_storage_rules(kit: Kit) -> None:
    w = Workload(model="resnet50", task="train", dataset_gb=2000)
    rep = kit.check(*kit.standard(), workload=w)
    assert finding(rep, "FIT-3") is None and finding(rep, "STO-1") is not None
    w2 = Workload(model="resnet50", task="train", dataset_gb=2001)
    assert finding(kit.check(*kit.standard(), workload=w2), "FIT-3", "error") is not None
    tiered = kit.check(*kit.standard(), "seagate-ironwolf-pro-8tb", workload=w2)
    assert finding(tiered, "FIT-3") is None and finding(tiered, "STO-4", "warning") is not None
    assert finding(tiered, "STO-2") is not None
    slow = "samsung-970-evo-plus-250gb"
    kit.tweak(slow, seq_read_mbs=1999)
    assert finding(kit.check(*kit.standard(storage=slow), workload=R50), "STO-3", "warning") is not None
    hdd_only = kit.check(*kit.standard(storage="seagate-ironwolf-pro-8tb"), workload=R50)
    assert "NVMe" in finding(hdd_only, "STO-3").message.render()
    assert finding(kit.check(*kit.standard(), workload=R50), "STO-5") is not None


# -- fit ---------------------------------------------------------------------------------


def test_fit1_is_three_way_fits_tight_does_not_fit(kit: Kit) -> None:
    """Fits when the high end of the estimate fits; tight (a warning) when only the low end does;
    an error only when even the low end is over the card's VRAM."""
    import math

    w = Workload(model="gpt2-medium", task="train", precision="amp", batch_size=8)
    n = finding(kit.check(*kit.standard(), workload=w), "FIT-1").numbers
    assert n["low_gib"] < n["high_gib"]
    kit.tweak("nvidia-rtx-3090", vram_gb=math.ceil(n["high_gib"]))
    assert finding(kit.check(*kit.standard(), workload=w), "FIT-1").severity == "info"
    kit.tweak("nvidia-rtx-3090", vram_gb=math.ceil(n["low_gib"]))
    assert finding(kit.check(*kit.standard(), workload=w), "FIT-1").severity == "warning"
    kit.tweak("nvidia-rtx-3090", vram_gb=math.floor(n["low_gib"]))
    assert finding(kit.check(*kit.standard(), workload=w), "FIT-1").severity == "error"


def test_errata_are_not_repeated_as_facts(kit: Kit) -> None:
    a100 = kit.catalogue["nvidia-a100-40gb-pcie"]
    assert a100.fp16_tensor_tflops == 312  # type: ignore[union-attr]
    rep = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 2)), nvlink_bridge=True)
    text = " ".join(f.message.render() for f in rep.findings)
    assert "both directions" in text  # erratum 9: NVLink total vs one PCIe direction
    assert "DataParallel needs NVLink" not in text


def test_pci3_a_lone_card_gets_the_lanes_its_partner_slot_would_take(kit: Kit) -> None:
    # The ProArt B550 runs its two CPU slots x16/x0 or x8/x8: one card gets x16, two get x8 each.
    one = kit.check(*kit.standard())
    assert [f.numbers["lanes"] for f in one.findings if f.rule == "PCI-3"] == [16]
    two = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 2)))
    assert [f.numbers["lanes"] for f in two.findings if f.rule == "PCI-3"] == [8, 8]
