"""The upgrade advisor on recordings shaped like each bottleneck: GPUs from the fake NVML read by the
real NVML backend, the host from a fake, written by the monitor's CsvRecorder, read back by the run
report, and judged by core/advise.py against the entry tier's build (RTX 3060 12 GB, Ryzen 5 5600X)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from configurator.core import presets
from configurator.core.advise import Evidence, advice_to_dict, advise
from configurator.core.catalogue import load_catalogue
from configurator.core.engine import check
from configurator.monitor import fake_nvml
from configurator.monitor.nvml import NvmlBackend
from configurator.monitor.recorder import CsvRecorder
from configurator.monitor.report import evidence, report
from configurator.monitor.snapshot import HostSample, NvmlStatus, Snapshot, TrainingProcess

GiB = 1024**3
CATALOGUE = {p.id: p for p in load_catalogue()}


def entry_build():  # type: ignore[no-untyped-def]
    return presets.presets(CATALOGUE)[0].build


def recording(tmp_path: Path, *, util: float = 95.0, memory: float = 0.6, gen: int = 4, workers_cpu: float = 40.0,
              iowait: float = 1.0, seconds: int = 90) -> Path:
    now = [1000.0]
    gpu = fake_nvml.FakeGpu(name="NVIDIA GeForce RTX 3060", memory_total=12 * GiB, power_limit_w=170.0,
                            base_util=util, swing=2.0, memory_fraction=memory, pcie_gen=gen, pcie_gen_max=4,
                            processes=[fake_nvml.FakeProcess(pid=4242, used_memory=8 * GiB,
                                                             name="python train.py")])
    backend = NvmlBackend(fake_nvml.FakeNvml(fake_nvml.Scenario([gpu]), clock=lambda: now[0]))
    backend.start()
    path = tmp_path / "run.csv"
    rec = CsvRecorder(path)
    for i in range(seconds):
        _status, gpus = backend.sample(slow=True)
        host = HostSample("box", cpu_percent=35.0, iowait_percent=iowait,
                          training=TrainingProcess(4242, "python train.py", 50.0, 4, (workers_cpu,) * 4))
        rec(Snapshot(1_764_000_000.0 + i, i, host, NvmlStatus(True), gpus))
        now[0] += 1.0
    rec.close()
    backend.close()
    return path


@pytest.mark.parametrize(("shape", "kw", "resource", "rule", "first_kind"), [
    ("DataLoader-bound", {"util": 40.0, "workers_cpu": 99.0}, "cpu", "BAL-1", "cpu"),
    ("disk-bound", {"util": 40.0, "iowait": 30.0}, "storage", "STO-1", "storage"),
    ("VRAM-bound", {"util": 92.0, "memory": 0.99}, "vram", "OOM-1", "vram"),
    ("PCIe-degraded", {"util": 45.0, "gen": 1}, "pcie", "PCI-3", None),
    ("compute-bound", {"util": 97.0}, "gpu", "GPU-6", "gpu"),
])
def test_each_bottleneck_is_named_with_the_right_kind_of_upgrade_first(
        tmp_path: Path, shape: str, kw: dict[str, float], resource: str, rule: str, first_kind: str | None) -> None:
    ev = evidence(report(recording(tmp_path, **kw)))
    a = advise(entry_build(), CATALOGUE, ev)
    assert (a.limit.resource, a.limit.rule) == (resource, rule), (shape, a.limit)
    assert "run.csv" in a.limit.evidence.render()
    if first_kind is None:
        # the board already gives the card its full link: nothing to buy, say what to check
        assert not a.upgrades and any("riser" in m.render() for m in a.guide)
        return
    assert a.upgrades and a.upgrades[0].kind == first_kind
    for u in a.upgrades:  # every change was checked by the engine as a whole build
        assert u.report.ok and u.price_cny > 0
    if resource == "vram":
        assert all(CATALOGUE[u.buy[0][0]].vram_gb > 12 for u in a.upgrades)  # type: ignore[attr-defined]
        # the run was on CUDA: a card that would need ROCm is a port, not an upgrade
        assert all(CATALOGUE[u.buy[0][0]].vendor == "nvidia" for u in a.upgrades)  # type: ignore[attr-defined]
        assert any("largest batch" in m.render() for m in a.guide)
    if resource == "storage":
        # a data drive, not another boot drive: it holds a data set and reads well above the 970 EVO Plus's
        # 3,500 MB/s the build has
        for u in a.upgrades:
            drive = CATALOGUE[u.buy[0][0]]
            assert drive.capacity_gb >= 1000 and drive.seq_read_mbs >= 5250, drive  # type: ignore[attr-defined]
        assert "3,500 MB/s" in a.upgrades[0].basis.render()


def test_disk_bound_with_a_hard_disk_says_to_move_the_data_and_buys_no_drive_the_slot_slows() -> None:
    """The research tier has a 990 PRO (7,450 MB/s) beside an 8 TB hard disk, on a board with Gen4 M.2
    slots: a Gen5 drive would read no faster there, so none is bought; the data set belongs on the SSD."""
    ev = Evidence(gpu_util_median=40.0, iowait_median=30.0, source="run.csv")
    a = advise(presets.presets(CATALOGUE)[1].build, CATALOGUE, ev)
    assert a.limit.resource == "storage" and not a.upgrades
    assert any("hard disk" in m.render() and "990 PRO" in m.render() for m in a.guide)


def test_from_the_plan_alone_at_least_three_checked_upgrades_with_prices_and_gains() -> None:
    a = advise(entry_build(), CATALOGUE)
    assert a.limit.resource == "gpu" and "plan alone" in a.limit.evidence.render()
    doc = advice_to_dict(a, CATALOGUE)
    assert len(doc["upgrades"]) >= 3
    for u in doc["upgrades"]:
        assert u["price_cny"] > 0 and u["gain_percent"] > 2 and u["buy"][0]["name"]
        assert u["gain_low_percent"] is not None and u["gain_high_percent"] >= u["gain_percent"]
    per = [u["cny_per_percent"] for u in doc["upgrades"]]
    assert per == sorted(per)  # cheapest per percent of gain first
    # the user's code runs on CUDA: no card that would need ROCm instead
    assert all(CATALOGUE[u["buy"][0]["id"]].vendor == "nvidia" for u in doc["upgrades"])  # type: ignore[attr-defined]
    # a GPU that needs more power brings its PSU, priced in
    assert all(sum(CATALOGUE[b["id"]].price_cny * b["qty"] for b in u["buy"]) == u["price_cny"]
               for u in doc["upgrades"])
    assert any("UPG-1" in g and "H100" in g for g in doc["guide"])  # the long-term path, for a GPU-bound build


def test_a_vram_bound_plan_says_so_and_a_budget_bounds_the_picks() -> None:
    from configurator.core.build import Workload

    b = replace(entry_build(), workload=Workload(model="gpt2", task="train", precision="amp", batch_size=48))
    a = advise(b, CATALOGUE)
    assert a.limit.resource == "vram" and "VRAM-bound at batch 48" in a.limit.evidence.render()
    # the guide's short-term path, with its erratum: an A4000 is not more VRAM than a 3090
    assert any("UPG-1" in m.render() and "A4000 has 16 GB" in m.render() for m in a.guide)
    cheap = advise(b, CATALOGUE, budget_cny=3000)
    assert all(u.price_cny <= 3000 for u in cheap.upgrades)


def two_gpu_build():  # type: ignore[no-untyped-def]
    """The entry tier with two RTX 3060 and an 850 W supply: on its B550 board the second card's slot is
    the chipset's Gen3 x4."""
    from configurator.core.build import BuildPart

    b = entry_build()
    parts = tuple(BuildPart(p.id, 2) if p.id == "nvidia-rtx-3060-12gb" else p for p in b.parts
                  if CATALOGUE[p.id].category != "psu")
    return replace(b, parts=(*parts, BuildPart("seasonic-focus-gx-850", 1)))


def ddp_run(efficiency: float, device: str = "cuda", iqr: float = 1.0):  # type: ignore[no-untyped-def]
    from datetime import datetime

    from configurator.bench.results import RowResult, RunRecord

    r = RunRecord("quick", device, "/py", datetime(2026, 12, 1, 9), resolved_device=device, status="finished",
                  run_id=7)
    r.rows = [RowResult("ddp-scaling", "ddp", "ok", efficiency, "%", efficiency, iqr, {"procs": [1, 2]},
                        {"runs": []})]
    return r


def test_slow_all_reduce_from_a_ddp_benchmark_is_the_interconnect_and_a_board_with_a_faster_link_first() -> None:
    from configurator.core.advise import with_bench

    ev = with_bench(None, ddp_run(62.0))
    assert ev is not None and (ev.scaling_percent, ev.scaling_gpus, ev.scaling_run) == (62.0, 2, 7)
    a = advise(two_gpu_build(), CATALOGUE, ev)
    assert (a.limit.resource, a.limit.rule) == ("interconnect", "PCI-5"), a.limit
    assert "62 % of ideal scaling" in a.limit.evidence.render() and "benchmark run 7" in a.limit.evidence.render()
    first = a.upgrades[0]
    assert first.kind == "interconnect" and CATALOGUE[first.buy[0][0]].category == "motherboard"
    assert first.report.ok and first.remove == ("gigabyte-b550-aorus-pro",)
    assert "3.9 → 15.8 GB/s" in first.basis.render()  # the chipset's Gen3 x4 → the CPU's Gen4 x8
    assert 0 < first.gain_low < first.gain < first.gain_high  # type: ignore[operator]
    assert any("nvidia-smi topo -m" in m.render() for m in a.guide)
    # the same build scaling well: the GPUs, not their link
    assert advise(two_gpu_build(), CATALOGUE, with_bench(None, ddp_run(93.0))).limit.resource == "gpu"


def test_a_cpu_or_unstable_ddp_result_is_no_evidence_of_the_interconnect() -> None:
    from configurator.core.advise import with_bench

    assert with_bench(None, ddp_run(62.0, device="cpu")) is None  # the processes shared one set of cores
    assert with_bench(None, ddp_run(62.0, iqr=30.0)) is None  # a spread too wide to read as a fact


def test_mixed_cards_can_be_matched_by_one_card_not_only_both_replaced() -> None:
    """An RTX 4090 beside an RTX 3090 (data-parallel training runs at the slower card's pace): besides
    new pairs, the advisor offers one card to match the other, priced as one card and checked as a build."""
    from configurator.core.build import BuildPart

    b = presets.presets(CATALOGUE)[1].build  # two RTX 3090 on a WRX80 board, 2000 W, NVLink bridge
    parts = tuple(p for p in b.parts if p.id != "nvidia-rtx-3090")
    mixed = replace(b, parts=(*parts, BuildPart("nvidia-rtx-4090"), BuildPart("nvidia-rtx-3090")))
    a = advise(mixed, CATALOGUE, limit_n=20)  # new pairs come first per percent of gain; the match is further down
    matches = [u for u in a.upgrades if "slowest card" in u.basis.render()]
    match = next(u for u in matches if u.buy == (("nvidia-rtx-3090", 1),))
    assert match.remove == ("nvidia-rtx-4090",)  # a bridged pair again
    # the guide's tier stacks its two open-air cards (THERM-2): the build has that error before and after,
    # so the change is not refused for it, and it adds none
    assert {f.rule for f in match.report.errors} <= {f.rule for f in check(mixed, CATALOGUE).errors}
    assert {f.rule for f in match.report.errors} == {"THERM-2"}  # the mismatched pair's bridge error (PCI-4) is gone
    assert match.price_cny == CATALOGUE["nvidia-rtx-3090"].price_cny and match.gain > 0.02
    cards = {(p.id, p.qty) for p in match.report.build.parts if p.id.startswith("nvidia-rtx")}
    assert cards == {("nvidia-rtx-3090", 2)}
    assert any(len(u.remove) == 2 for u in a.upgrades)  # and new pairs, replacing both


def test_a_degraded_link_on_a_board_that_wires_a_card_to_the_chipset_gets_a_board_first(tmp_path: Path) -> None:
    """Two RTX 3060 on the B550 board: the second card's slot is the chipset's Gen3 x4 (PCI-3). A run on a
    link below its maximum then gets boards that give both cards a full link from the CPU."""
    ev = evidence(report(recording(tmp_path, util=45.0, gen=1)))
    a = advise(two_gpu_build(), CATALOGUE, ev)
    assert (a.limit.resource, a.limit.rule) == ("pcie", "PCI-3")
    first = a.upgrades[0]
    assert first.kind == "pcie" and CATALOGUE[first.buy[0][0]].category == "motherboard" and first.report.ok
    assert not [f for f in first.report.findings if f.rule == "PCI-3" and f.severity != "info"]
