"""Cooling, physical fit and several supplies (THERM-1/2, FIT-4/5/6, PWR-5), each one unit either side of its
threshold."""

from __future__ import annotations

import dataclasses
import math

from planner_kit import Kit, finding

from configurator.core.build import BuildPart, resolve
from configurator.core.estimate.power import TRANSIENT_FRACTION, estimate_power
from configurator.core.parts import Motherboard, PcieSlot, part_from_dict, part_to_dict

SERVER = "supermicro-cse-747btq-r2k04b"
PWS = "supermicro-pws-2k04a-1r"
DESKTOP = "corsair-4000d-airflow"
BIG = "fractal-design-define-7-xl"  # the kit's standard case


def _all(report, rule: str, severity: str | None = None) -> list:  # type: ignore[no-untyped-def]
    return [f for f in report.findings if f.rule == rule and (severity is None or f.severity == severity)]


# -- THERM-1 -----------------------------------------------------------------------------------------------


def test_therm1_passive_card_needs_server_airflow(kit: Kit) -> None:
    parts = kit.standard(gpu="nvidia-l40s", case=DESKTOP, psu="seasonic-prime-px-1600")
    err = finding(kit.check(*parts), "THERM-1", "error")
    assert err is not None and "NVIDIA L40S" in err.message.render() and "front-to-back" in err.message.render()
    kit.tweak(DESKTOP, server_airflow=True)  # the same case with a server fan wall
    assert finding(kit.check(*parts), "THERM-1") is None


def test_therm1_the_server_chassis_is_a_legal_home(kit: Kit) -> None:
    parts = kit.standard(gpu=("nvidia-h100-pcie", 2), case=SERVER, psu=None, cpu="amd-epyc-7543",
                         board="asrock-rack-romed8-2t",
                         memory="samsung-m393a2k40db3-cwe-128gb-8x16gb-ddr4-3200-rdimm")
    rep = kit.check(*parts, (PWS, 2))
    assert finding(rep, "THERM-1") is None and finding(rep, "FIT-4") is None and finding(rep, "FIT-5") is None


def test_therm1_without_a_case_is_info_and_sxm_is_not_its_business(kit: Kit) -> None:
    assert finding(kit.check(*kit.standard(gpu="nvidia-a100-80gb-pcie", case=None)), "THERM-1").severity == "info"
    assert finding(kit.check(*kit.standard(gpu="nvidia-a100-80gb-sxm", case=DESKTOP)), "THERM-1") is None
    assert finding(kit.check(*kit.standard(case=DESKTOP)), "THERM-1") is None  # the 3090 has fans


# -- THERM-2 -----------------------------------------------------------------------------------------------


def _two_slot_board(kit: Kit, second_position: int) -> str:
    board = kit.catalogue["asus-proart-b550-creator"]
    assert isinstance(board, Motherboard)
    slots = [PcieSlot(name="SLOT_A", position=1, physical_lanes=16, electrical_lanes=16, gen=4, source="cpu"),
             PcieSlot(name="SLOT_B", position=second_position, physical_lanes=16, electrical_lanes=16, gen=4,
                      source="cpu")]
    return kit.tweak(board.id, pcie_slots=slots)


def test_therm2_open_air_cards_with_no_gap_and_with_one(kit: Kit) -> None:
    kit.tweak("nvidia-rtx-3090", slot_width=2.0)  # covers positions 1 and 2
    parts = kit.standard(gpu=("nvidia-rtx-3090", 2))
    _two_slot_board(kit, 3)  # the second card starts right under the first: no gap
    warn = finding(kit.check(*parts), "THERM-2", "error")  # an error, not a penalty (issue 29)
    assert warn is not None and warn.numbers["gap_slots"] == 0 and "SLOT_A" in warn.message.render()
    _two_slot_board(kit, 4)  # one free slot between them
    assert finding(kit.check(*parts), "THERM-2") is None


def test_therm2_blower_cards_stack(kit: Kit) -> None:
    parts = kit.standard(gpu=("nvidia-rtx-a6000", 2))  # 2-slot blowers
    _two_slot_board(kit, 3)
    assert finding(kit.check(*parts), "THERM-2") is None
    kit.tweak("nvidia-rtx-a6000", cooling="open_air")
    assert finding(kit.check(*parts), "THERM-2", "error") is not None
    # a rack chassis's fan wall forces air through stacked cards
    kit.tweak(BIG, server_airflow=True)
    assert finding(kit.check(*parts), "THERM-2") is None


def test_therm2_more_than_two_open_air_cards_in_a_mid_tower(kit: Kit) -> None:
    kit.tweak(BIG, form_factor="Mid tower")
    parts = kit.standard(gpu=("nvidia-rtx-3090", 3), board="asus-pro-ws-wrx80e-sage-se-wifi",
                         cpu="amd-ryzen-threadripper-pro-3975wx",
                         memory=("samsung-m393a2k40db3-cwe-16gb-ddr4-3200-rdimm", 8))
    errs = [f for f in kit.check(*parts).findings if f.rule == "THERM-2" and "open_air_cards" in f.numbers]
    assert errs and errs[0].severity == "error" and errs[0].numbers["open_air_cards"] == 3
    assert errs[0].numbers["heat_w"] == 3 * kit.catalogue["nvidia-rtx-3090"].board_power_w  # type: ignore[attr-defined]
    kit.tweak(BIG, form_factor="Full tower")
    assert not [f for f in kit.check(*parts).findings if "open_air_cards" in f.numbers]


# -- FIT-4 -------------------------------------------------------------------------------------------------


def test_fit4_psu_form_factor_against_the_case(kit: Kit) -> None:
    sff = "cooler-master-masterbox-nr200p"
    assert finding(kit.check(*kit.standard(case=sff, psu="corsair-sf750")), "FIT-4") is None
    err = finding(kit.check(*kit.standard(case=sff)), "FIT-4", "error")  # an ATX supply in an SFX bay
    assert err is not None and err.numbers["case_psu_form_factors"] == ["SFX", "SFX-L"]
    # an SFX supply in an ATX bay works with a bracket
    assert finding(kit.check(*kit.standard(case=DESKTOP, psu="corsair-sf750")), "FIT-4").severity == "warning"
    # a server's redundant module does not go in a desktop case, nor an ATX supply in the server
    assert finding(kit.check(*kit.standard(case=DESKTOP, psu=PWS)), "FIT-4", "error") is not None
    assert finding(kit.check(*kit.standard(case=SERVER)), "FIT-4", "error") is not None


# -- FIT-5 -------------------------------------------------------------------------------------------------


def test_fit5_board_width_and_depth_one_mm_either_side(kit: Kit) -> None:
    parts = kit.standard(case=DESKTOP)  # E-ATX up to 277 mm wide, 305 mm deep
    board = "asus-proart-b550-creator"
    kit.tweak(board, width_mm=277)
    assert finding(kit.check(*parts), "FIT-5") is None
    kit.tweak(board, width_mm=278)
    err = finding(kit.check(*parts), "FIT-5", "error")
    assert err is not None and "278 mm wide" in err.message.render() and err.numbers["case_max_width_mm"] == 277
    kit.tweak(board, width_mm=244, depth_mm=305)
    assert finding(kit.check(*parts), "FIT-5") is None
    kit.tweak(board, depth_mm=306)
    assert "306 mm deep" in finding(kit.check(*parts), "FIT-5", "error").message.render()


def test_fit5_e_atx_widths_differ_between_vendors(kit: Kit) -> None:
    """A 330 mm-wide dual-socket board does not fit the 4000D's 277 mm, though both say E-ATX."""
    parts = kit.standard(case=DESKTOP, board="supermicro-x12dpi-nt6", cpu=("intel-xeon-platinum-8380", 2))
    assert kit.catalogue["supermicro-x12dpi-nt6"].form_factor in kit.catalogue[DESKTOP].board_form_factors
    assert finding(kit.check(*parts), "FIT-5", "error") is not None
    kit.tweak(DESKTOP, max_board_width_mm=None)  # no published limit: say so, do not fail
    assert finding(kit.check(*parts), "FIT-5").severity == "info"


# -- FIT-6 -------------------------------------------------------------------------------------------------


def test_fit6_socket(kit: Kit) -> None:
    assert finding(kit.check(*kit.standard(), "deepcool-ak400"), "FIT-6", "error") is None
    err = finding(kit.check(*kit.standard(), "noctua-nh-u14s-dx-4189"), "FIT-6", "error")
    assert err is not None and "AM4" in err.message.render()


def test_fit6_air_cooler_height_one_mm_either_side(kit: Kit) -> None:
    parts = kit.standard(case=DESKTOP)  # 170 mm
    kit.tweak("deepcool-ak400", height_mm=170)
    assert finding(kit.check(*parts, "deepcool-ak400"), "FIT-6", "error") is None
    kit.tweak("deepcool-ak400", height_mm=171)
    err = finding(kit.check(*parts, "deepcool-ak400"), "FIT-6", "error")
    assert err is not None and err.numbers["case_max_mm"] == 170


def test_fit6_radiator_size(kit: Kit) -> None:
    aio = "arctic-liquid-freezer-iii-360"
    assert finding(kit.check(*kit.standard(case=DESKTOP), aio), "FIT-6", "error") is None
    err = finding(kit.check(*kit.standard(case="cooler-master-masterbox-nr200p", psu="corsair-sf750"), aio),
                  "FIT-6", "error")
    assert err is not None and "280" in err.message.render()
    assert "no radiator mount" in finding(kit.check(*kit.standard(case=SERVER), aio), "FIT-6", "error").message.render()


def test_fit6_rating_one_watt_either_side_of_the_cpu_maximum(kit: Kit) -> None:
    cpu = kit.catalogue["amd-ryzen-9-5950x"]
    kit.tweak("deepcool-ak400", rated_tdp_w=cpu.max_power_w)  # type: ignore[union-attr]
    assert finding(kit.check(*kit.standard(), "deepcool-ak400"), "FIT-6") is None
    kit.tweak("deepcool-ak400", rated_tdp_w=cpu.max_power_w - 1)  # type: ignore[union-attr]
    warn = finding(kit.check(*kit.standard(), "deepcool-ak400"), "FIT-6", "warning")
    assert warn is not None and warn.numbers["cpu_max_power_w"] == cpu.max_power_w  # type: ignore[union-attr]
    kit.tweak("deepcool-ak400", rated_tdp_w=None)  # no rating published: say so
    assert finding(kit.check(*kit.standard(), "deepcool-ak400"), "FIT-6").severity == "info"


def test_fit6_no_cooler_is_info_only_where_the_cpu_comes_without_one(kit: Kit) -> None:
    assert finding(kit.check(*kit.standard()), "FIT-6").severity == "info"  # the 5950X ships without one
    boxed = kit.check(*kit.standard(cpu="amd-ryzen-5-5600x"))
    assert finding(boxed, "FIT-6") is None and not boxed.errors


def test_fit6_one_cooler_per_cpu(kit: Kit) -> None:
    parts = kit.standard(cpu=("intel-xeon-platinum-8380", 2), board="supermicro-x12dpi-nt6", case=SERVER, psu=None)
    one = kit.check(*parts, (PWS, 2), "noctua-nh-u14s-dx-4189")
    assert finding(one, "FIT-6").numbers == {"coolers": 1, "cpus": 2}
    two = kit.check(*parts, (PWS, 2), ("noctua-nh-u14s-dx-4189", 2))
    assert not [f for f in _all(two, "FIT-6") if "cpus" in f.numbers]


# -- PWR-5 -------------------------------------------------------------------------------------------------


def _peak(kit: Kit, parts: list) -> int:  # type: ignore[type-arg]
    return estimate_power(resolve(kit.build(*parts), kit.catalogue)).peak_w


def test_pwr5_two_supplies_add_up_one_watt_either_side(kit: Kit) -> None:
    psu = "seasonic-prime-px-1600"
    parts = kit.standard(gpu=("nvidia-rtx-3090", 2), psu=(psu, 2))
    peak = _peak(kit, parts)
    kit.tweak(psu, watts=math.ceil(peak / 2))
    rep = kit.check(*parts)
    assert finding(rep, "PWR-2", "error") is None
    assert finding(rep, "PWR-2").numbers["psu_w"] == 2 * math.ceil(peak / 2)
    assert "add up" in next(f for f in _all(rep, "PWR-5", "info")).message.render()
    kit.tweak(psu, watts=math.ceil(peak / 2) - 1)
    assert finding(kit.check(*parts), "PWR-2", "error") is not None


def test_pwr5_cables_of_two_supplies_add_up(kit: Kit) -> None:
    psu = "seasonic-prime-px-1600"
    kit.tweak("nvidia-rtx-3090", power_8pin=3, power_12v2x6=0)
    kit.tweak(psu, pcie_8pin=2, connector_12v2x6=0)
    assert finding(kit.check(*kit.standard()), "PWR-3", "error") is not None
    assert finding(kit.check(*kit.standard(psu=(psu, 2))), "PWR-3") is None


def test_pwr5_redundant_modules_keep_one_spare(kit: Kit) -> None:
    parts = kit.standard(case=SERVER, psu=(PWS, 2))
    rep = kit.check(*parts)
    assert finding(rep, "PWR-2").numbers["psu_w"] == 2000  # 1+1: one module's worth
    assert "N+1" in next(f for f in _all(rep, "PWR-5", "info")).message.render()


def test_pwr5_above_90_percent_is_a_warning_one_watt_either_side(kit: Kit) -> None:
    psu = "seasonic-prime-px-1600"
    parts = kit.standard()
    peak = _peak(kit, parts)
    at_90 = math.ceil(peak * 100 / 90)  # the smallest rating with the peak at or under 90 %
    kit.tweak(psu, watts=at_90)
    rep = kit.check(*parts)
    peak_warnings = [f for f in _all(rep, "PWR-5", "warning") if "sustained_limit_pct" not in f.numbers]
    assert not peak_warnings and finding(rep, "PWR-2").severity == "info"
    kit.tweak(psu, watts=at_90 - 1)
    warn = next(f for f in _all(kit.check(*parts), "PWR-5", "warning") if "sustained_limit_pct" not in f.numbers)
    assert warn is not None and warn.numbers["peak_w"] == peak and f"{at_90} W or more" in warn.message.render()


def test_pwr5_atx3_headroom_follows_the_excursion_rule(kit: Kit) -> None:
    psu = "seasonic-prime-px-1600"  # ATX 3.0
    parts = kit.standard()
    atx3 = estimate_power(resolve(kit.build(*parts), kit.catalogue))
    assert atx3.atx3 and atx3.transient_w == max(0, round(atx3.gpu_w - atx3.sustained_w / 2))
    assert "200 %" in atx3.formula.render() and "100 µs" in atx3.formula.render()
    kit.tweak(psu, atx_version=None)  # an ATX12V 2.x unit: the older 30 %
    old = estimate_power(resolve(kit.build(*parts), kit.catalogue))
    assert not old.atx3 and old.transient_w == round(old.gpu_w * TRANSIENT_FRACTION)
    assert atx3.transient_w < old.transient_w  # one 3090 and a 5950X: less headroom for the ATX 3.0 unit
    kit.tweak(psu, atx_version="3.0")
    mixed = kit.check(*kit.standard(psu=None), psu, "corsair-rm1000x-2021")  # ATX 3.0 beside an older unit
    assert any("30 %" in f.message.render() for f in _all(mixed, "PWR-5", "info"))


# -- data and older files ----------------------------------------------------------------------------------


def test_every_gpu_and_case_says_how_it_is_cooled(kit: Kit) -> None:
    gpus = [p for p in kit.catalogue.values() if p.category == "gpu"]
    assert {g.cooling for g in gpus} == {"open_air", "blower", "passive"}  # type: ignore[union-attr]
    pcie_passive = {g.id for g in gpus if g.cooling == "passive" and g.form_factor == "pcie"}  # type: ignore[union-attr]
    assert {"nvidia-a100-80gb-pcie", "nvidia-h100-pcie", "nvidia-h200-nvl", "nvidia-l40s",
            "nvidia-tesla-v100-pcie-16gb", "amd-instinct-mi210"} <= pcie_passive
    assert any(c.server_airflow for c in kit.catalogue.values() if c.category == "case")  # type: ignore[union-attr]
    boards = [p for p in kit.catalogue.values() if isinstance(p, Motherboard)]
    assert all(b.width_mm and b.depth_mm for b in boards)


def test_cooler_catalogue_has_air_and_aio_with_their_sizes(kit: Kit) -> None:
    coolers = [p for p in kit.catalogue.values() if p.category == "cooler"]
    assert len(coolers) >= 10
    for c in coolers:
        assert c.cpu_sockets  # type: ignore[union-attr]
        assert (c.height_mm if c.kind == "air" else c.radiator_mm)  # type: ignore[union-attr]
    assert {c.kind for c in coolers} == {"air", "aio"}  # type: ignore[union-attr]


def test_an_older_files_spellings_still_load() -> None:
    """A CSV or custom part saved before the change: cooling "active" and a single psu_form_factor."""
    from planner_kit import CATALOGUE
    gpu = {**part_to_dict(CATALOGUE["nvidia-rtx-3090"]), "cooling": "active"}
    assert part_from_dict(gpu).cooling == "open_air"  # type: ignore[union-attr]
    case = {k: v for k, v in part_to_dict(CATALOGUE[DESKTOP]).items() if k != "psu_form_factors"}
    case["psu_form_factor"] = "SFX"
    assert part_from_dict(case).psu_form_factors == ["SFX"]  # type: ignore[union-attr]
    assert dataclasses.replace(CATALOGUE[DESKTOP]).psu_form_factors == ["ATX"]  # type: ignore[union-attr]


def test_a_build_file_may_list_two_supplies_and_a_cooler(kit: Kit) -> None:
    from configurator.core.build import parse_build
    doc = {"format": "configurator.build/1",
           "parts": [{"id": "seasonic-prime-px-1600", "qty": 2}, {"id": "noctua-nh-d15"}]}
    build = parse_build(doc, kit.catalogue)
    r = resolve(build, kit.catalogue)
    assert r.psu_watts == 3200 and [c.id for c, _q in r.coolers] == ["noctua-nh-d15"]
    assert BuildPart("noctua-nh-d15") in build.parts


def test_the_sheet_counts_every_supply_and_lists_the_cooler(kit: Kit) -> None:
    from configurator.core.sheet import build_sheet
    build = kit.build(*kit.standard(psu=("seasonic-prime-px-1600", 2)), "noctua-nh-d15")
    sheet = build_sheet(build, kit.catalogue, with_chart=False)
    power = next(b for b in sheet.bars if b.key == "power")
    assert power.limit == 3200
    cooler = next(row for row in sheet.rows if row.part.category == "cooler")
    assert ("height_mm", "Height", "mm", 165) in cooler.specs


def test_pwr5_sustained_draw_above_80_percent_is_a_warning_one_watt_either_side(kit: Kit) -> None:
    psu = "seasonic-prime-px-1600"
    parts = kit.standard()
    sustained = estimate_power(resolve(kit.build(*parts), kit.catalogue)).sustained_w
    at_80 = math.ceil(sustained * 100 / 80)
    kit.tweak(psu, watts=at_80)
    assert not [f for f in _all(kit.check(*parts), "PWR-5", "warning") if "sustained_limit_pct" in f.numbers]
    kit.tweak(psu, watts=at_80 - 1)
    warn = next(f for f in _all(kit.check(*parts), "PWR-5", "warning") if "sustained_limit_pct" in f.numbers)
    assert warn.numbers["sustained_w"] == sustained and f"{at_80} W or more" in warn.message.render()


def test_pwr5_one_redundant_module_alone_has_no_spare(kit: Kit) -> None:
    parts = kit.standard(case=SERVER, psu=PWS)
    lone = [f for f in _all(kit.check(*parts), "PWR-5", "warning") if f.numbers.get("modules") == 1]
    assert lone
    two = [p if p != PWS else (PWS, 2) for p in parts]
    assert not [f for f in _all(kit.check(*two), "PWR-5", "warning") if f.numbers.get("modules") == 1]


def test_fit4_two_supplies_in_a_case_with_one_mount(kit: Kit) -> None:
    parts = kit.standard()
    psu = "seasonic-prime-px-1600"
    two = [p if p != psu else (psu, 2) for p in parts]
    err = [f for f in kit.check(*two).findings if f.rule == "FIT-4" and "psu_mounts" in f.numbers]
    assert err and err[0].severity == "error"
    # The case's psu_mounts is not confirmed by a vendor source (catalogue: unverified), and the finding says so.
    assert err[0].numbers == {"supplies": 2, "psu_mounts": 1, "unverified": [f"{BIG}.psu_mounts"]}
    assert "check the vendor's figure" in err[0].message.render()
    kit.tweak(BIG, psu_mounts=2)
    assert not [f for f in kit.check(*two).findings if f.rule == "FIT-4" and "psu_mounts" in f.numbers]


def test_pwr3_workstation_card_takes_its_eps_adapter_with_a_warning_naming_it(kit: Kit) -> None:
    parts = kit.standard(gpu=("nvidia-rtx-a6000", 1))
    psu = "seasonic-prime-px-1600"
    kit.tweak(psu, eps_8pin=1)  # the CPU takes the supply's only EPS cable
    rep = kit.check(*parts)
    assert not [f for f in rep.errors if f.rule == "PWR-3"]  # not a false "EPS connectors needed" error
    warn = [f for f in _all(rep, "PWR-3", "warning") if f.numbers.get("eps_adapted")]
    assert warn and "NVIDIA RTX A6000" in warn[0].message.render() and "2 × PCIe 8-pin" in warn[0].message.render()
    kit.tweak("nvidia-rtx-a6000", power_adapter_8pin=None)  # no adapter in the box: the error stands
    assert [f for f in kit.check(*parts).errors if f.rule == "PWR-3"]


# -- FIT-1 / RAM-4: what makes it fit, with its figure; no speed for a build it does not fit ------------------


def test_fit1_names_the_options_that_make_llama_training_fit_with_their_figures(kit: Kit) -> None:
    from configurator.core.build import Workload
    from configurator.core.estimate.memory import verdict, vram_per_gpu
    from configurator.core.units import GIB

    w = Workload(model="llama-7b", task="train", precision="bf16")
    rep = kit.check(*kit.standard(), workload=w)  # one RTX 3090 24 GB
    err = finding(rep, "FIT-1", "error")
    tip = finding(rep, "RAM-4", "info")
    assert err is not None and tip is not None
    options = {o["option"]: o for o in err.numbers["options"]}
    # every option of a full bf16 AdamW fine-tune of a transformer, and nothing that does not apply (amp: not fp32)
    assert set(options) == {"lora", "qlora", "offload", "checkpointing", "adamw8bit", "adamw-bf16", "fsdp"}
    for key, change in (("qlora", {"finetune": "qlora"}), ("offload", {"offload": "optimizer"}),
                        ("adamw8bit", {"optimizer": "adamw8bit"})):
        v = vram_per_gpu(dataclasses.replace(w, **change), 1)
        assert options[key]["gib"] == round(v.total / GIB, 2) and options[key]["verdict"] == verdict(v, 24)
    assert options["qlora"]["verdict"] == "fits"  # QLoRA holds 7B on 24 GB; the text says so with the figure
    said = err.message.render()
    assert "It fits with: QLoRA (4-bit base, rank 16) " in said and f"{options['qlora']['gib']:.1f} GiB" in said
    sharded = options["fsdp"]
    assert sharded["gpus"] >= 2 and sharded["verdict"] != "does_not_fit"
    assert verdict(vram_per_gpu(dataclasses.replace(w, sharding="fsdp"), sharded["gpus"] - 1), 24) == "does_not_fit" \
        or sharded["gpus"] == 2  # the fewest GPUs it fits over
    listed = tip.message.render()
    assert all(f"{o['gib']:.1f} GiB" in listed for o in err.numbers["options"])
    # a build that cannot run the workload has no speed: one sentence why, value null
    keys = {e.key for e in rep.estimates}
    assert not keys & {"throughput_one_gpu", "throughput_total", "throughput_per_kcny", "throughput_cpu"}
    none = rep.estimate("throughput_not_estimated")
    assert none is not None and none.value is None and none.inputs["reason"] == "does_not_fit"
    assert none.to_json()["value"] is None and "does not fit" in none.to_json()["how"]


def test_fit1_inference_options_are_quantisation_and_tensor_parallel(kit: Kit) -> None:
    from configurator.core.build import Workload

    w = Workload(model="llama-3.1-70b", task="infer", precision="bf16")
    err = finding(kit.check(*kit.standard(), workload=w), "FIT-1", "error")
    options = {o["option"]: o for o in err.numbers["options"]}
    assert set(options) == {"int8", "int4", "tensor"}  # no training option for inference
    assert options["tensor"]["gpus"] in (2, 4, 8) and options["tensor"]["verdict"] == "fits"  # 64 heads split evenly
    assert options["int4"]["gib"] < options["int8"]["gib"]


def test_fit1_a_cnn_lists_only_what_saves_memory(kit: Kit) -> None:
    from configurator.core.build import Workload

    w = Workload(model="resnet50", task="train", precision="fp32", batch_size=512)
    rep = kit.check(*kit.standard(), workload=w)
    options = {o["option"] for o in finding(rep, "FIT-1", "error").numbers["options"]}
    assert {"batch", "checkpointing", "amp"} <= options
    assert not options & {"lora", "qlora", "fsdp", "offload"}  # a 25M-parameter CNN's activations dominate
    fitting = kit.check(*kit.standard(), workload=dataclasses.replace(w, batch_size=64))
    assert finding(fitting, "RAM-4") is None and fitting.estimate("throughput_total") is not None


# -- messages that fix: the drive that takes a GPU's lanes, the boards that take every card ---------------------

_AM5 = dict(cpu="amd-ryzen-9-9950x", board="asus-rog-strix-x870e-e-gaming-wifi",
            memory="corsair-vengeance-64gb-2x32gb-ddr5-6000", storage=None)


def test_pci10_names_the_drive_and_the_fix(kit: Kit) -> None:
    """X870E-E: three of its five M.2 connectors leave the x16 slot alone; a fourth drive goes in one that halves it."""
    from configurator.core.build import Workload

    r50 = Workload(model="resnet50", task="train")
    four = kit.check(*kit.standard(**_AM5), ("samsung-990-pro-1tb", 4), workload=r50)
    warn = finding(four, "PCI-10", "warning")
    said = warn.message.render()
    assert warn.numbers["drive"] == "samsung-990-pro-1tb" and "Samsung 990 PRO 1TB" in said
    assert f"in {warn.numbers['m2']}" in said and "x8 instead of x16" in said
    clear = warn.numbers["clear_m2"]
    assert len(clear) == 3 and warn.numbers["m2"] not in clear and ", ".join(clear) in said
    assert "one M.2 drive fewer" in said and "a SATA drive instead (4 of 4 SATA ports free)" in said
    three = kit.check(*kit.standard(**_AM5), ("samsung-990-pro-1tb", 3), workload=r50)
    assert finding(three, "PCI-10", "warning") is None  # the fix holds: one drive fewer keeps x16


def test_pci2_four_cards_on_a_consumer_board_offer_the_boards_that_take_four(kit: Kit) -> None:
    from configurator.core.build import Workload
    from configurator.core.pcie import layout

    r50 = Workload(model="resnet50", task="train")
    rep = kit.check(*kit.standard(gpu=("nvidia-rtx-a4000", 4)), workload=r50)  # ProArt B550: three x16 slots
    err = finding(rep, "PCI-2", "error")
    boards = err.numbers["boards"]
    assert boards and len(boards) <= 4
    prices = [kit.catalogue[b].price_cny for b in boards]
    assert prices == sorted(prices)
    a4000 = kit.catalogue["nvidia-rtx-a4000"]
    for b in boards:
        board = kit.catalogue[b]
        pl = layout([a4000] * 4, board, None, None, board.sockets)  # type: ignore[arg-type]
        assert not pl.unplaced and all(s.lanes >= 8 and s.slot.source == "cpu" for s in pl.seats)
        assert f"{board.name} (" in err.message.render() and f"¥{board.price_cny:,}" in err.message.render()
    # every board in the catalogue that does the same and is cheaper than the last named is named
    named_max = max(prices)
    for p in kit.catalogue.values():
        if p.category == "motherboard" and p.price_cny < named_max and p.id != "asus-proart-b550-creator":
            pl = layout([a4000] * 4, p, None, None, p.sockets)  # type: ignore[arg-type]
            if not pl.unplaced and all(s.lanes >= 8 and s.slot.source == "cpu" for s in pl.seats):
                assert p.id in boards
    # three cards fit the three slots, the third on the chipset's x4: the same boards as a tip
    three = kit.check(*kit.standard(gpu=("nvidia-rtx-a4000", 3)), workload=r50)
    tip = [f for f in three.findings if f.rule == "PCI-3" and f.severity == "info" and "boards" in f.numbers]
    assert tip and tip[0].numbers["boards"]
    # triple-slot cards: no board seats four; the fix says which cards would fit
    wide = finding(kit.check(*kit.standard(gpu=("nvidia-rtx-3090", 4)), workload=r50), "PCI-2", "error")
    assert wide.numbers["boards"] == [] and "cards two slots wide" in wide.message.render()
