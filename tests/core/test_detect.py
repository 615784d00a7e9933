"""This machine as a build: names as NVML, /proc/cpuinfo, DMI and /sys/block report them, matched
to catalogue parts, and the reader of /proc and /sys on a fake tree."""

from __future__ import annotations

from pathlib import Path

import pytest
from planner_kit import CATALOGUE

from configurator.core.detect import DriveFact, GpuFact, MachineFacts, detect
from configurator.core.units import GIB
from configurator.host.facts import read_facts

# (as NVML names it, memory it reports in GiB, catalogue id)
GPUS = [
    ("NVIDIA GeForce RTX 4090", 23.6, "nvidia-rtx-4090"),
    ("NVIDIA GeForce RTX 4090 D", 23.6, "nvidia-rtx-4090-d"),
    ("NVIDIA GeForce RTX 3060", 11.8, "nvidia-rtx-3060-12gb"),
    ("NVIDIA GeForce RTX 3060 Ti", 7.8, "nvidia-rtx-3060-ti"),
    ("NVIDIA GeForce RTX 4060 Ti", 15.7, "nvidia-rtx-4060-ti-16gb"),
    ("NVIDIA GeForce RTX 4060 Ti", 7.7, "nvidia-rtx-4060-ti-8gb"),
    ("NVIDIA GeForce RTX 4070 Ti SUPER", 15.7, "nvidia-rtx-4070-ti-super"),
    ("NVIDIA GeForce RTX 3080", 9.8, "nvidia-rtx-3080-10gb"),
    ("NVIDIA A100-SXM4-80GB", 79.3, "nvidia-a100-80gb-sxm"),
    ("NVIDIA A100-PCIE-40GB", 39.4, "nvidia-a100-40gb-pcie"),
    ("NVIDIA H100 80GB HBM3", 79.6, "nvidia-h100-sxm"),  # the SXM5 module; the PCIe card has HBM2e
    ("NVIDIA H100 PCIe", 79.6, "nvidia-h100-pcie"),
    ("Tesla V100-SXM2-32GB", 31.7, "nvidia-tesla-v100-sxm2-32gb"),
    ("NVIDIA RTX 6000 Ada Generation", 47.5, "nvidia-rtx-6000-ada"),
    ("NVIDIA RTX A6000", 47.5, "nvidia-rtx-a6000"),
    ("Tesla T4", 15.0, "nvidia-tesla-t4"),
]


@pytest.mark.parametrize(("name", "gib", "expected"), GPUS)
def test_each_gpu_as_nvml_names_it_is_its_catalogue_card(name: str, gib: float, expected: str) -> None:
    (part,) = detect(MachineFacts(gpus=(GpuFact(name, int(gib * GIB)),)), CATALOGUE).parts
    assert part.part_id == expected and part.confidence == 1.0, part


@pytest.mark.parametrize(("cpu", "expected"), [
    ("AMD Ryzen 9 7950X 16-Core Processor", "amd-ryzen-9-7950x"),
    ("AMD Ryzen 7 7800X3D 8-Core Processor", "amd-ryzen-7-7800x3d"),
    ("Intel(R) Core(TM) i9-13900K", "intel-core-i9-13900k"),
    ("12th Gen Intel(R) Core(TM) i5-12400F", "intel-core-i5-12400f"),
    ("Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz", "intel-xeon-platinum-8380"),
    ("AMD EPYC 7763 64-Core Processor", "amd-epyc-7763"),
])
def test_each_cpu_as_cpuinfo_names_it(cpu: str, expected: str) -> None:
    (part,) = detect(MachineFacts(cpu_model=cpu), CATALOGUE).parts
    assert part.part_id == expected and part.confidence == 1.0


def test_a_variant_is_never_taken_for_its_base_model() -> None:
    """A 3090 Ti is not a 3090; a Ryzen 9 7950X3D is not the 7950X beside it."""
    parts = detect(MachineFacts(gpus=(GpuFact("NVIDIA GeForce RTX 3090 Ti", 24 * GIB),),
                                cpu_model="AMD Ryzen 9 7950X3D 16-Core Processor"), CATALOGUE).parts
    cpu, gpu = (next(p for p in parts if p.category == c) for c in ("cpu", "gpu"))
    assert gpu.part_id == "nvidia-rtx-3090-ti"
    assert cpu.part_id != "amd-ryzen-9-7950x"  # not in the catalogue as X3D: unknown, never the 7950X


def test_unknown_and_doubtful_parts_say_so() -> None:
    m = detect(MachineFacts(gpus=(GpuFact("NVIDIA H100 NVL", 94 * GIB), GpuFact("NVIDIA GeForce RTX 3080", 12 * GIB),
                                  GpuFact("NVIDIA H200", 141 * GIB))), CATALOGUE)
    h100nvl, rtx3080_12, h200 = m.parts
    assert h100nvl.part_id is None and h100nvl.confidence == 0 and "pick it" in h100nvl.why.render()
    assert rtx3080_12.part_id == "nvidia-rtx-3080-10gb" and rtx3080_12.confidence == 0.5
    assert "12 GB" in rtx3080_12.why.render()
    # NVML's "NVIDIA H200" fits both the SXM module and the NVL card (141 GB each)
    assert h200.confidence == 0.5 and {h200.part_id, *h200.alternatives} == {"nvidia-h200-sxm", "nvidia-h200-nvl"}
    assert m.unknown() == [h100nvl]


def test_a_whole_machine_becomes_a_build_the_planner_checks() -> None:
    facts = MachineFacts(
        gpus=(GpuFact("NVIDIA GeForce RTX 4090", 24 * GIB),) * 2, cpu_model="AMD Ryzen 9 7950X 16-Core Processor",
        memory_bytes=int(62.4 * GIB), board_vendor="ASUSTeK COMPUTER INC.", board_name="ProArt X670E-CREATOR WIFI",
        drives=(DriveFact("Samsung SSD 990 PRO 2TB", 2_000_398_934_016, nvme=True),
                DriveFact("WDC WD80EFPX-68C4ZN0", 8_001_563_222_016, rotational=True)))
    m = detect(facts, CATALOGUE)
    got = {p.category: p for p in m.parts}
    assert got["gpu"].part_id == "nvidia-rtx-4090" and got["gpu"].qty == 2
    assert got["motherboard"].part_id == "asus-proart-x670e-creator-wifi"
    assert got["memory"].part_id is not None and got["memory"].confidence < 1  # size only: a guess, said so
    assert CATALOGUE[got["memory"].part_id].memory_type == "DDR5"  # the CPU's memory type
    assert [p.part_id for p in m.parts if p.category == "storage"] == ["samsung-990-pro-2tb", "wd-red-plus-8tb"]
    build = m.build()
    assert build.name == "This machine"
    assert {(p.id, p.qty) for p in build.parts} >= {("nvidia-rtx-4090", 2), ("amd-ryzen-9-7950x", 1)}
    assert any("power supply" in n.render() for n in m.notes)


def test_the_reader_of_proc_and_sys_on_a_fake_tree(tmp_path: Path) -> None:
    def put(rel: str, text: str) -> None:
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)

    put("proc/cpuinfo", "processor\t: 0\nmodel name\t: AMD EPYC 7763 64-Core Processor\nphysical id\t: 0\n\n"
        "processor\t: 1\nmodel name\t: AMD EPYC 7763 64-Core Processor\nphysical id\t: 1\n")
    put("proc/meminfo", "MemTotal:       527958016 kB\n")
    put("sys/class/dmi/id/board_vendor", "Supermicro\n")
    put("sys/class/dmi/id/board_name", "H13SSL-N\n")
    put("sys/block/nvme0n1/device/model", "Samsung SSD 990 PRO 2TB                 \n")
    put("sys/block/nvme0n1/size", "3907029168\n")
    put("sys/block/nvme0n1/queue/rotational", "0\n")
    put("sys/block/loop0/size", "8\n")
    put("sys/block/sda/device/model", "WDC WD80EFPX-68C\n")
    put("sys/block/sda/size", "15628053168\n")
    put("sys/block/sda/queue/rotational", "1\n")
    f = read_facts(root=tmp_path)
    assert f.cpu_model == "AMD EPYC 7763 64-Core Processor" and f.sockets == 2
    assert f.memory_bytes == 527958016 * 1024
    assert (f.board_vendor, f.board_name) == ("Supermicro", "H13SSL-N")
    assert [(d.model, d.nvme, d.rotational) for d in f.drives] == [
        ("Samsung SSD 990 PRO 2TB", True, False), ("WDC WD80EFPX-68C", False, True)]
    assert f.drives[0].size_bytes == 3907029168 * 512
    got = {p.category: p.part_id for p in detect(f, CATALOGUE).parts}
    assert got["cpu"] == "amd-epyc-7763" and got["motherboard"] == "supermicro-h13ssl-n"


def test_an_unreadable_tree_gives_no_facts_and_no_error(tmp_path: Path) -> None:
    f = read_facts(root=tmp_path / "missing")
    assert f.cpu_model is None and f.drives == () and f.board_name is None


def test_the_pci_id_is_shown_and_names_a_card_the_driver_does_not() -> None:
    """NVML calls a card newer than its driver "NVIDIA Graphics Device": its PCI id is what the user can
    look up, so detect shows it and says so."""
    m = detect(MachineFacts(gpus=(GpuFact("NVIDIA GeForce RTX 4090", 24 * GIB, "10de:2684"),
                                  GpuFact("NVIDIA Graphics Device", 32 * GIB, "10de:2b85"))), CATALOGUE)
    known, new = m.parts
    assert known.part_id == "nvidia-rtx-4090" and known.reported == "NVIDIA GeForce RTX 4090 (PCI 10de:2684)"
    assert new.part_id is None and "10de:2b85" in new.why.render() and "driver" in new.why.render()
