"""configurator/host/: this machine read one fact per function, from files a test can pose."""

from __future__ import annotations

from pathlib import Path

from configurator.host import cpu, files, memory
from configurator.host.facts import nvml_gpus, read_facts, sampled_gpus
from configurator.host.rapl import Rapl

CPUINFO = "".join(f"processor\t: {i}\nmodel name\t: AMD EPYC 7763 64-Core Processor\ncpu MHz\t\t: 2450.123\n"
                  f"physical id\t: {i // 4}\ncore id\t\t: {i % 4 // 2}\n\n" for i in range(8))


def pose(root: Path, cpuinfo: str = CPUINFO, meminfo: str = "MemTotal:       65843412 kB\n") -> Path:
    (root / "proc").mkdir(parents=True)
    (root / "proc/cpuinfo").write_text(cpuinfo)
    (root / "proc/meminfo").write_text(meminfo)
    return root


def test_cpu_and_memory_from_proc(tmp_path: Path) -> None:
    root = pose(tmp_path)
    assert cpu.model_name(root) == cpu.model(root) == "AMD EPYC 7763 64-Core Processor"
    assert cpu.mhz(root) == 2450.1
    assert cpu.sockets(root) == 2 and cpu.counts(root)["physical"] == 4  # 2 sockets × 2 cores, 2 threads each
    assert memory.total_bytes(root) == 65843412 * 1024 and memory.ram_gib(root) == 62.8
    facts = read_facts(root=root)
    assert (facts.cpu_model, facts.sockets, facts.memory_bytes) == (cpu.model_name(root), 2, memory.total_bytes(root))


def test_what_cannot_be_read_is_none(tmp_path: Path) -> None:
    root = pose(tmp_path, cpuinfo="processor\t: 0\n", meminfo="")
    assert cpu.model_name(root) is None and cpu.model(root)  # the fingerprint still names it (platform)
    assert cpu.mhz(root) is None and cpu.sockets(root) == 1 and cpu.counts(root)["physical"] is None
    assert memory.total_bytes(root) is None
    assert files.value(tmp_path / "missing") is None and files.read(tmp_path / "missing") is None
    (tmp_path / "blank").write_text(" \n")
    assert files.value(tmp_path / "blank") is None and files.read(tmp_path / "blank") == " \n"


def test_rapl_package_domains_only(tmp_path: Path) -> None:
    for name, domain in (("intel-rapl:0", "package-0"), ("intel-rapl:0:0", "core")):
        d = tmp_path / name
        d.mkdir()
        (d / "name").write_text(domain + "\n")
        (d / "max_energy_range_uj").write_text("1000000\n")
        (d / "energy_uj").write_text("999000\n")
    rapl = Rapl(tmp_path)
    assert rapl.available and len(rapl.domains) == 1 and rapl.read() == 0.0
    (tmp_path / "intel-rapl:0" / "energy_uj").write_text("1000\n")  # wrapped around
    assert rapl.read() == 0.002


def test_gpu_identity_through_nvml_and_from_the_monitors_snapshot() -> None:
    from configurator.monitor.fake_nvml import FakeNvml, driver_not_loaded, several
    from configurator.monitor.nvml import NvmlBackend

    gpus, error = nvml_gpus(NvmlBackend(lib=FakeNvml(several(2))))
    assert error is None and len(gpus) == 2 and all(g.name and g.memory_bytes for g in gpus)
    none, why = nvml_gpus(NvmlBackend(lib=FakeNvml(driver_not_loaded())))
    assert none == [] and why is not None and "no GPU was read" in why.template
    none, why = sampled_gpus(None, "the monitor has not sampled the GPUs yet")
    assert none == [] and why is not None and why.params["error"] == "the monitor has not sampled the GPUs yet"
