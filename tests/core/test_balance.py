"""Balance (BAL-1..3), CPU-5 for desktop CPUs only, GPU-5's wording and BUD-3 against cloud rental;
threshold rules one unit either side."""

from __future__ import annotations

import dataclasses

import pytest
from planner_kit import Kit, finding

from configurator.core.build import Workload
from configurator.core.cloud import CloudPriceError, check_override, load_cloud_prices, price_for, with_overrides
from configurator.core.engine import check, shipped_cloud_prices

R50 = Workload(model="resnet50", task="train")
CPU = "amd-ryzen-9-5950x"
TR_PRO = "amd-ryzen-threadripper-pro-3975wx"
WRX80 = "asus-pro-ws-wrx80e-sage-se-wifi"
RDIMM = "samsung-m393a2k40db3-cwe-16gb-ddr4-3200-rdimm"


def test_bal1_one_core_either_side_of_five_per_gpu(kit: Kit) -> None:
    parts = kit.standard(gpu=("nvidia-rtx-3090", 2))  # 2 GPUs: 2 × (4 workers + 1) = 10 cores
    kit.tweak(CPU, cores=10, threads=20)
    assert finding(kit.check(*parts, workload=R50), "BAL-1") is None
    kit.tweak(CPU, cores=9, threads=18)
    warn = finding(kit.check(*parts, workload=R50), "BAL-1", "warning")
    assert warn.numbers == {"cores": 9, "gpus": 2, "needed": 10, "workers_per_gpu": 4}
    assert finding(kit.check(*parts, workload=Workload(model="resnet50", task="infer")), "BAL-1") is None


def test_bal2_one_dimm_on_an_eight_channel_cpu_gets_an_eighth(kit: Kit) -> None:
    parts = kit.standard(gpu=None, cpu=TR_PRO, board=WRX80, memory=None)
    one = finding(kit.check(*parts, RDIMM), "BAL-2", "warning")
    assert one.numbers["bandwidth_share"] == 0.125 and "12.5%" in one.message.render()
    assert finding(kit.check(*parts, (RDIMM, 7)), "BAL-2", "warning").numbers["channels_filled"] == 7
    assert finding(kit.check(*parts, (RDIMM, 8)), "BAL-2") is None


def test_bal3_ram_one_gib_either_side_of_the_total_vram(kit: Kit) -> None:
    mem = "corsair-vengeance-lpx-64gb-2x32gb-ddr4-3200"
    parts = kit.standard(gpu=("nvidia-rtx-3090", 2))  # 48 GiB of VRAM
    kit.tweak(mem, capacity_gb=48)
    assert finding(kit.check(*parts), "BAL-3") is None
    kit.tweak(mem, capacity_gb=47)
    warn = finding(kit.check(*parts), "BAL-3", "warning")
    assert warn.numbers["vram_gb"] == 48 and warn.numbers["ram_gb"] == 47
    assert warn.numbers["source"].startswith("https://timdettmers.com/")


def test_cpu5_clock_minimum_is_for_desktop_cpus(kit: Kit) -> None:
    kit.tweak(CPU, boost_ghz=3.6)
    assert finding(kit.check(*kit.standard()), "CPU-5") is None
    kit.tweak(CPU, boost_ghz=3.5)
    assert finding(kit.check(*kit.standard()), "CPU-5", "warning") is not None
    # A server CPU at the same clock (Xeon Platinum 8380: 3.4 GHz boost, 40 cores) is not judged by it.
    server = kit.standard(gpu=None, cpu="intel-xeon-platinum-8380", board="supermicro-x12dpi-nt6",
                          memory=("samsung-m393a2k40db3-cwe-16gb-ddr4-3200-rdimm", 8))
    assert finding(kit.check(*server), "CPU-5") is None
    kit.tweak("intel-xeon-platinum-8380", threads=11, cores=11)
    assert finding(kit.check(*server), "CPU-5", "warning") is not None  # the thread minimum still applies


def test_gpu5_names_the_rtx_3060_12gb_as_the_minimum(kit: Kit) -> None:
    gpt2 = Workload(model="gpt2", task="train", precision="amp")
    small = finding(kit.check(*kit.standard(gpu="nvidia-rtx-3060-ti"), workload=gpt2), "GPU-5", "warning")
    assert "RTX 3060 12 GB" in small.message.render() and small.numbers["recommended_gb"] == 12
    assert finding(kit.check(*kit.standard(gpu="nvidia-rtx-3060-12gb"), workload=gpt2), "GPU-5") is None
    medium = Workload(model="gpt2-medium", task="train", precision="amp")
    rec = finding(kit.check(*kit.standard(gpu="nvidia-rtx-3060-12gb"), workload=medium), "GPU-5", "warning")
    assert "RTX 3060 12 GB" in rec.message.render() and "GPT-2 Medium" in rec.message.render()


# -- BUD-3: renting comparable GPUs -------------------------------------------------------------------------


def test_cloud_table_is_dated_and_sourced_and_covers_the_guide_gpus() -> None:
    prices = load_cloud_prices()
    assert prices and all(p.source.startswith("https://") and len(p.date) >= 7 for p in prices)
    for gpu in ("nvidia-rtx-3090", "nvidia-rtx-4090", "nvidia-a100-80gb-sxm", "nvidia-tesla-v100-pcie-16gb"):
        assert price_for(gpu, prices) is not None, gpu


def test_bud3_rent_of_comparable_gpus_beside_the_guides_flat_figure(kit: Kit) -> None:
    parts = kit.standard(gpu=("nvidia-rtx-3090", 2))
    rep = kit.check(*parts, hours_per_day=10)
    f = finding(rep, "BUD-3")
    n = f.numbers
    rate = price_for("nvidia-rtx-3090", shipped_cloud_prices())
    assert rate is not None
    assert n["rent_cny_per_month"] == round(2 * rate.cny_per_gpu_hour * 10 * 30, 1)
    saving = n["rent_cny_per_month"] - n["electricity_cny_per_month"]
    assert abs(n["rent_months"] - n["total_cny"] / saving) < 0.11
    assert n["cloud_cny_per_month"] == 8000 and n["months"] is not None  # the guide's figure stays
    assert "the guide's figure" in f.message.render() and "AutoDL" in f.message.render()


def test_bud3_user_override_changes_the_rent(kit: Kit) -> None:
    shipped = shipped_cloud_prices()
    edited = with_overrides(shipped, {"rtx-3090": (3.16, "2026-11-30")})
    rate = price_for("nvidia-rtx-3090", edited)
    assert rate is not None and rate.user_edited and rate.cny_per_gpu_hour == 3.16
    build = kit.build(*kit.standard(gpu=("nvidia-rtx-3090", 2)))
    base = finding(check(build, kit.catalogue), "BUD-3").numbers["rent_cny_per_month"]
    mine = finding(check(build, kit.catalogue, cloud_prices=edited), "BUD-3").numbers
    assert mine["rent_cny_per_month"] == pytest.approx(base * 2, rel=0.01)
    assert mine["rent_prices"][0]["user_edited"] is True


def test_bud3_no_comparable_rental_says_so(kit: Kit) -> None:
    f = finding(kit.check(*kit.standard(gpu="nvidia-gtx-1650-super")), "BUD-3")
    assert "no comparable rental" in f.message.render() and "rent_months" not in f.numbers


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), 10_001, True, "3"])
def test_cloud_override_must_be_a_sane_price(bad: object) -> None:
    with pytest.raises(CloudPriceError):
        check_override(bad)
    assert check_override(10_000) == 10_000.0


def test_cloud_prices_are_plain_data() -> None:
    p = load_cloud_prices()[0]
    assert dataclasses.asdict(p)["gpu_class"] == p.gpu_class
