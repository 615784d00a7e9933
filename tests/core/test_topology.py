"""Topology beyond the guides: baseboards (PCI-8), one CPU on two sockets (PCI-9), M.2 lane sharing
(PCI-10), drives against connectors and bays (FIT-7), unplaced cards, P2P (PCI-11), bridge spacing
(PCI-12). Threshold rules get builds one unit either side."""

from __future__ import annotations

import dataclasses

from planner_kit import Kit, finding, rules

from configurator.core.build import BuildPart, Workload
from configurator.core.parts import Motherboard

R50 = Workload(model="resnet50", task="train")
XEON = "intel-xeon-platinum-8380"
X12 = "supermicro-x12dpi-nt6"
RDIMM = "samsung-m393a2k40db3-cwe-16gb-ddr4-3200-rdimm"
AM5 = dict(cpu="amd-ryzen-9-9950x", board="asus-rog-strix-x870e-e-gaming-wifi",
           memory="corsair-vengeance-64gb-2x32gb-ddr5-6000", storage=None)


# -- PCI-8: SXM modules on their baseboard -----------------------------------------------------------------


def _sxm(kit: Kit, modules: int, platform: str = "nvidia-hgx-a100-8-gpu", **options: object):  # type: ignore[no-untyped-def]
    parts = kit.standard(gpu=("nvidia-a100-80gb-sxm", modules), cpu=(XEON, 2), board=X12,
                         memory=("samsung-m393a8g40ab2-cwe-512gb-8x64gb-ddr4-3200-rdimm", 2))
    return kit.check(*parts, platform, workload=R50, **options)


def test_pci8_modules_on_a_baseboard_count_and_scale_over_nvlink(kit: Kit) -> None:
    rep = _sxm(kit, 8)
    assert [f.rule for f in rep.errors] == ["PWR-2"]  # 8 × 400 W modules: one ATX supply is not enough
    assert rep.gpus_counted == 8
    scaling = rep.estimate("scaling_efficiency")
    assert scaling is not None and scaling.inputs["path"] == "baseboard"
    assert scaling.inputs["link_gbs"] == 300.0  # 600 GB/s both ways: 300 one way
    assert "NVSwitch" in finding(rep, "PCI-8", "info").message.render()
    assert not {"PCI-2", "PCI-3", "PCI-4", "PCI-5"} & set(rules(rep))  # no slot, bridge or PCIe scaling


def test_pci8_one_module_more_than_the_baseboard_holds(kit: Kit) -> None:
    assert finding(_sxm(kit, 4, "nvidia-hgx-a100-4-gpu"), "PCI-8", "error") is None
    over = _sxm(kit, 5, "nvidia-hgx-a100-4-gpu")
    err = finding(over, "PCI-8", "error")
    assert err.numbers == {"modules": 5, "sockets": 4}
    assert over.gpus_counted == 4


def test_pci8_four_gpu_a100_board_shows_erratum_10(kit: Kit) -> None:
    rep = _sxm(kit, 4, "nvidia-hgx-a100-4-gpu")
    info = finding(rep, "PCI-8", "info")
    assert "Erratum 10" in info.message.render() and info.numbers["topology"] == "direct"
    assert "Erratum 10" not in finding(_sxm(kit, 8), "PCI-8", "info").message.render()


def test_pci8_baseboard_takes_only_its_architecture_and_no_pcie_bridge(kit: Kit) -> None:
    rep = _sxm(kit, 4, "nvidia-hgx-h100-8-gpu")
    texts = [f.message.render() for f in rep.findings if f.rule == "PCI-8" and f.severity == "error"]
    assert any("No baseboard in this build takes NVIDIA A100 80GB SXM" in t for t in texts)
    assert rep.gpus_counted == 0
    bridged = _sxm(kit, 8, nvlink_bridge=True)
    assert any("PCIe NVLink bridge" in f.message.render() for f in bridged.errors)


# -- PCI-9: one CPU on a dual-socket board ---------------------------------------------------------------


def test_pci9_one_cpu_loses_the_second_sockets_slots(kit: Kit) -> None:
    kit.tweak("nvidia-rtx-a4000", slot_width=1.0)
    one = kit.standard(gpu=("nvidia-rtx-a4000", 4), cpu=XEON, board=X12, memory=(RDIMM, 8))
    rep = kit.check(*one, workload=R50)
    warn = finding(rep, "PCI-9", "warning")
    assert warn.numbers["dead_slots"] == ["CPU2 SLOT4", "CPU2 SLOT5", "CPU2 SLOT6", "CPU2 SLOT7"]
    assert finding(rep, "PCI-2", "error").numbers["placed"] == 3  # CPU1's three slots
    assert rep.gpus_counted == 3
    two = kit.standard(gpu=("nvidia-rtx-a4000", 4), cpu=(XEON, 2), board=X12, memory=(RDIMM, 8))
    both = kit.check(*two, workload=R50)
    assert finding(both, "PCI-9") is None and finding(both, "PCI-2") is None and both.gpus_counted == 4


def test_pci9_one_cpu_has_half_the_memory_slots(kit: Kit) -> None:
    board = kit.catalogue[X12]
    assert isinstance(board, Motherboard)
    half = board.memory_slots // 2
    ok = kit.check(*kit.standard(gpu=None, cpu=XEON, board=X12, memory=(RDIMM, half)))
    assert finding(ok, "COMP-3") is None
    over = kit.check(*kit.standard(gpu=None, cpu=XEON, board=X12, memory=(RDIMM, half + 1)))
    assert finding(over, "COMP-3", "error").numbers["slots"] == half


# -- PCI-10 / FIT-7: drives in M.2 connectors, SATA ports and bays ---------------------------------------


def _drives(kit: Kit, n: int, **replace: object) -> list:  # type: ignore[type-arg]
    return [*kit.standard(**{**AM5, **replace}), ("samsung-990-pro-1tb", n)]  # type: ignore[arg-type]


def test_pci10_gpu_slot_keeps_x16_until_a_sharing_m2_connector_is_needed(kit: Kit) -> None:
    """X870E-E: five M.2 connectors, two of which take the x16 slot's lanes (x8 with either in use)."""
    three = kit.check(*_drives(kit, 3), workload=R50)
    assert finding(three, "PCI-10") is None
    assert three.placement is not None and three.placement.seats[0].lanes == 16
    four = kit.check(*_drives(kit, 4), workload=R50)
    warn = finding(four, "PCI-10", "warning")
    assert warn.numbers["lanes"] == 8 and warn.numbers["was"] == 16 and warn.numbers["m2"] in ("M.2_2", "M.2_3")
    assert four.placement is not None and four.placement.seats[0].lanes == 8
    assert "x8 Gen4" in finding(four, "PCI-3").message.render()  # the RTX 3090 is a Gen4 card


def test_pci10_an_m2_drive_that_switches_a_slot_off_moves_the_card(kit: Kit) -> None:
    """B850-A: the bottom slot and M.2_3 are either/or; with all four M.2 full the second card has no slot."""
    board = dict(board="asus-rog-strix-b850-a-gaming-wifi")
    gpus = dict(gpu=("nvidia-rtx-a4000", 2))
    three = kit.check(*_drives(kit, 3, **board, **gpus), workload=R50)
    assert three.gpus_counted == 2 and finding(three, "PCI-2") is None
    four = kit.check(*_drives(kit, 4, **board, **gpus), workload=R50)
    assert finding(four, "PCI-2", "error").numbers["placed"] == 1
    assert four.gpus_counted == 1
    assert four.estimate("throughput_total").inputs == {"gpus": 1, "gpus_in_build": 2, "model_gpus": 1,
                                                        "runtime": "pytorch", "runtime_default": True}


def test_fit7_m2_drives_one_more_than_the_connectors(kit: Kit) -> None:
    assert finding(kit.check(*_drives(kit, 5)), "FIT-7") is None
    err = finding(kit.check(*_drives(kit, 6)), "FIT-7", "error")
    assert err.numbers == {"m2_drives": 6, "m2_slots": 5}


def test_fit7_sata_drives_one_more_than_the_ports(kit: Kit) -> None:
    parts = kit.standard(**{**AM5, "board": "asus-rog-strix-b850-a-gaming-wifi", "case": "fractal-design-define-7-xl"})
    assert finding(kit.check(*parts, ("seagate-ironwolf-pro-8tb", 2)), "FIT-7") is None
    err = finding(kit.check(*parts, ("seagate-ironwolf-pro-8tb", 3)), "FIT-7", "error")
    assert err.numbers == {"sata_drives": 3, "sata_ports": 2}


def test_fit7_drives_one_more_than_the_case_bays(kit: Kit) -> None:
    """Corsair 4000D: two 3.5" bays, which also take 2.5" drives, and two 2.5" mounts; X570 board: 8 SATA."""
    parts = kit.standard(board="asrock-x570-phantom-gaming-x", case="corsair-4000d-airflow", storage=None)
    assert finding(kit.check(*parts, ("seagate-ironwolf-pro-8tb", 2)), "FIT-7") is None
    big = finding(kit.check(*parts, ("seagate-ironwolf-pro-8tb", 3)), "FIT-7", "error")
    assert big.numbers["drives_35"] == 3 and big.numbers["bays_35"] == 2
    assert finding(kit.check(*parts, ("samsung-870-evo-1tb", 4)), "FIT-7") is None
    small = finding(kit.check(*parts, ("samsung-870-evo-1tb", 5)), "FIT-7", "error")
    assert small.numbers["drives_25"] == 5


# -- cards that are not placed do not count ------------------------------------------------------------------


def test_unplaced_cards_do_not_count_toward_throughput(kit: Kit) -> None:
    two = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 2)), workload=R50)
    four = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 4)), workload=R50)
    assert finding(four, "PCI-2", "error").numbers["placed"] == 2
    assert "count the 2 that fit" in finding(four, "PCI-2", "error").message.render()
    assert four.gpus_counted == 2
    total = four.estimate("throughput_total")
    assert total.value == two.estimate("throughput_total").value
    assert "2 of the build's 4 GPUs" in total.how.render()


# -- PCI-11: no P2P on GeForce 40/50 ----------------------------------------------------------------------


def test_pci11_geforce_40_cards_all_reduce_through_host_memory(kit: Kit) -> None:
    ada = kit.check(*kit.standard(gpu=("nvidia-rtx-4090", 2), board="asus-proart-x670e-creator-wifi",
                                  cpu="amd-ryzen-9-9950x", memory="corsair-vengeance-64gb-2x32gb-ddr5-6000"),
                    workload=R50)
    assert finding(ada, "PCI-11", "warning") is not None
    scaling = ada.estimate("scaling_efficiency")
    assert scaling.inputs["path"] == "host" and "host memory" in scaling.how.render()
    assert scaling.inputs["link_gbs"] < 0.985 * 2 ** (4 - 3) * 8 * 0.6  # below the x8 Gen4 link
    ampere = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 2)), workload=R50)
    assert finding(ampere, "PCI-11") is None and ampere.estimate("scaling_efficiency").inputs["path"] == "pcie"
    one = kit.check(*kit.standard(gpu="nvidia-rtx-4090"), workload=R50)
    assert finding(one, "PCI-11") is None


# -- PCI-12: NVLink bridge spacing ------------------------------------------------------------------------


def _move_second_slot(kit: Kit, board_id: str, position: int) -> None:
    board = kit.catalogue[board_id]
    assert isinstance(board, Motherboard)
    slots = [dataclasses.replace(s, position=position) if s.name == "PCIEX16_2" else s for s in board.pcie_slots]
    kit.catalogue[board_id] = dataclasses.replace(board, pcie_slots=slots)


def test_pci12_bridge_spacing_one_slot_either_side_of_the_largest_bridge(kit: Kit) -> None:
    """RTX 3090 (3 slots wide) on the ProArt B550: cards in positions 2 and 5 take a 3-slot bridge."""
    parts = kit.standard(gpu=("nvidia-rtx-3090", 2))
    ok = kit.check(*parts, nvlink_bridge=True)
    assert finding(ok, "PCI-12", "info").numbers["spacing"] == 3
    _move_second_slot(kit, "asus-proart-b550-creator", 6)  # 4 apart: the 4-slot bridge
    assert finding(kit.check(*parts, nvlink_bridge=True), "PCI-12", "error") is None
    _move_second_slot(kit, "asus-proart-b550-creator", 7)  # 5 apart: no bridge
    err = finding(kit.check(*parts, nvlink_bridge=True), "PCI-12", "error")
    assert err.numbers["spacing"] == 5 and err.numbers["bridges"] == [2, 3, 4]
    assert finding(kit.check(*parts), "PCI-12") is None  # no bridge asked for


# -- one finding per rule -----------------------------------------------------------------------------


def test_one_pwr1_and_one_pci4(kit: Kit) -> None:
    small = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 2), psu="corsair-rm750e-2023"))
    pwr1 = [f for f in small.findings if f.rule == "PWR-1"]
    assert len(pwr1) == 1 and "guide" in pwr1[0].message.render() and "vendor" in pwr1[0].message.render()
    kit.tweak("nvidia-rtx-3090", slot_width=1.0)
    four = kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 4), board="asus-pro-ws-wrx80e-sage-se-wifi",
                                   cpu="amd-ryzen-threadripper-pro-3975wx", memory=(RDIMM, 8)), nvlink_bridge=True)
    assert [f.severity for f in four.findings if f.rule == "PCI-4"] == ["warning"]


def test_gpu_parts_are_counted_for_a_build_without_a_board(kit: Kit) -> None:
    rep = kit.check(BuildPart("nvidia-rtx-3090", 2), workload=R50)
    assert rep.placement is None and rep.gpus_counted == 2
