"""The training-run report, from recordings written by the monitor's own CsvRecorder."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from configurator.monitor.recorder import CsvRecorder
from configurator.monitor.report import RecordingError, report, report_to_dict
from configurator.monitor.snapshot import GpuProcess, GpuSample, HostSample, NvmlStatus, Snapshot, TrainingProcess

GiB = 1024**3
T0 = 1_764_000_000.0


def record(path: Path, seconds: int, gpu: Callable[[int, int], GpuSample], host: Callable[[int], HostSample],
           gpus: int = 2) -> Path:
    rec = CsvRecorder(path)
    for i in range(seconds):
        rec(Snapshot(T0 + i, i, host(i), NvmlStatus(True), tuple(gpu(i, k) for k in range(gpus))))
    rec.close()
    return path


def busy_gpu(util: float = 95.0, energy_counter: bool = True, throttle: int = 0, mem_gib: float = 18.0,
             gen: int = 4) -> Callable[[int, int], GpuSample]:
    def make(i: int, k: int) -> GpuSample:
        return GpuSample(k, str(k), "NVIDIA GeForce RTX 4090", f"GPU-{k}", utilization_gpu_percent=util,
                         memory_used_bytes=int(mem_gib * GiB), memory_total_bytes=24 * GiB, power_w=400.0,
                         energy_j=1000.0 + 400.0 * i if energy_counter else None, throttle_reasons=throttle,
                         pcie_gen=gen, pcie_gen_max=4, pcie_width=16, pcie_width_max=16,
                         processes=(GpuProcess(100 + k, 20 * GiB, "python train.py", "me", parent_pid=99),))
    return make


def host(workers_cpu: float = 40.0, iowait: float = 1.0) -> Callable[[int], HostSample]:
    return lambda i: HostSample("box", cpu_percent=30.0, iowait_percent=iowait, cpu_energy_j=50.0 * i,
                                training=TrainingProcess(99, "python train.py", 60.0, 4, (workers_cpu,) * 4))


def test_a_busy_run_two_gpus_energy_from_the_counter(tmp_path: Path) -> None:
    r = report(record(tmp_path / "run.csv", 120, busy_gpu(), host()), tariff_cny_per_kwh=1.0)
    assert r.samples == 120 and r.duration_s == 119
    g0 = r.gpus[0]
    assert (g0.util_median, g0.util_p95) == (95.0, 95.0)
    assert g0.memory_peak_gib == pytest.approx(18.0) and g0.memory_capacity_gib == pytest.approx(24.0)
    # the counter: 400 J a second over 119 s
    assert g0.energy_method == "nvml-counter" and g0.energy_j == pytest.approx(400 * 119)
    assert r.cpu_energy_j == pytest.approx(50 * 119)
    assert r.energy_kwh == pytest.approx((2 * 400 * 119 + 50 * 119) / 3.6e6)
    assert r.cost_cny == pytest.approx(r.energy_kwh)
    assert r.rule == "GPU-6" and "busy" in r.verdict.render() and not r.alerts
    doc = json.loads(json.dumps(report_to_dict(r)))
    assert doc["gpus"][0]["energy_method"] == "nvml-counter" and doc["energy"]["cost_cny"] == round(r.cost_cny, 4)


def test_without_the_counter_energy_is_integrated_power_and_says_so(tmp_path: Path) -> None:
    r = report(record(tmp_path / "run.csv", 60, busy_gpu(energy_counter=False), host(), gpus=1))
    assert r.gpus[0].energy_method == "integrated-power"
    # each sample stands for the second to the next one: 60 samples a second apart span 59 s
    assert r.gpus[0].energy_j == pytest.approx(400 * 59) and r.duration_s == pytest.approx(59)


def test_a_dataloader_bound_run_names_gpu6_and_the_workers(tmp_path: Path) -> None:
    r = report(record(tmp_path / "run.csv", 90, busy_gpu(util=40.0), host(workers_cpu=99.0)))
    assert r.rule == "GPU-6" and "waited" in r.verdict.render() and "DataLoader workers" in r.verdict.render()
    spans = r.alert_seconds()
    assert spans["GPU-6"] == pytest.approx(2 * (89 - 30), abs=2)  # raised after 30 s on each GPU


def test_a_disk_bound_run_blames_iowait(tmp_path: Path) -> None:
    r = report(record(tmp_path / "run.csv", 60, busy_gpu(util=35.0), host(iowait=30.0), gpus=1))
    assert "iowait" in r.verdict.render()


def test_throttling_time_and_reasons_and_vram_alert(tmp_path: Path) -> None:
    r = report(record(tmp_path / "run.csv", 40, busy_gpu(throttle=0x40 | 0x1, mem_gib=23.5), host(), gpus=1))
    g = r.gpus[0]
    assert g.throttled_s == pytest.approx(r.duration_s) == pytest.approx(39)  # throttled throughout, not longer
    assert g.throttle_reasons == ("thermal (hardware)",)
    assert g.busy_s == pytest.approx(r.duration_s)  # the table's training time is the header's duration
    assert {"OOM-1", "MON-1"} <= set(r.alert_seconds())


@pytest.mark.parametrize(("content", "words"), [
    (b"", "not a monitor recording"),
    (b"name,price\nx,1\n", "not a monitor recording"),
    (b"time,epoch_s,marker,host.cpu (%)\n2026-01-01,1.0,,5\n", "at least two"),
    (b"\xff\xfe\x00garbage", "UTF-8"),
])
def test_bad_recordings_give_one_line(tmp_path: Path, content: bytes, words: str) -> None:
    p = tmp_path / "bad.csv"
    p.write_bytes(content)
    with pytest.raises(RecordingError) as e:
        report(p)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_a_torn_last_row_is_ignored(tmp_path: Path) -> None:
    p = record(tmp_path / "run.csv", 10, busy_gpu(), host(), gpus=1)
    with p.open("a", encoding="utf-8") as f:
        f.write("2026-12-01T00:00:10.000,17640")  # killed mid-write
    assert report(p).samples == 10


def test_rapl_package_energy_across_a_wraparound(tmp_path: Path) -> None:
    from configurator.host.rapl import Rapl

    pkg = tmp_path / "intel-rapl:0"
    sub = tmp_path / "intel-rapl:0:0"  # the core sub-domain: inside the package, not added again
    for d, name in ((pkg, "package-0"), (sub, "core")):
        d.mkdir()
        (d / "name").write_text(name + "\n")
        (d / "max_energy_range_uj").write_text("1000000\n")
        (d / "energy_uj").write_text("900000\n")
    rapl = Rapl(tmp_path)
    assert rapl.available and len(rapl.domains) == 1
    assert rapl.read() == 0.0
    (pkg / "energy_uj").write_text("100000\n")  # wrapped: 0.1 J to the top, 0.1 J after it
    assert rapl.read() == pytest.approx(0.2)
    (pkg / "energy_uj").chmod(0)  # root-only counters (CVE-2020-8694): no reading, not a guess
    import os
    if os.geteuid() != 0:
        assert rapl.read() is None
    assert not Rapl(tmp_path / "none").available and Rapl(tmp_path / "none").read() is None


def test_fake_nvml_energy_counter_is_the_integral_of_its_power() -> None:
    from configurator.monitor import fake_nvml

    now = [100.0]
    lib = fake_nvml.FakeNvml(fake_nvml.several(1), clock=lambda: now[0])
    lib.nvmlInit()
    h = lib.nvmlDeviceGetHandleByIndex(0)
    e0 = lib.nvmlDeviceGetTotalEnergyConsumption(h)
    joules = 0.0
    for _ in range(1000):  # 10 s in steps of 10 ms
        joules += lib.nvmlDeviceGetPowerUsage(h) / 1000 * 0.01
        now[0] += 0.01
    assert (lib.nvmlDeviceGetTotalEnergyConsumption(h) - e0) / 1000 == pytest.approx(joules, rel=0.01)


def test_the_measured_draw_for_the_planner(tmp_path: Path) -> None:
    from configurator.monitor.report import measured_power

    r = report(record(tmp_path / "run.csv", 60, busy_gpu(), host()))
    m = measured_power(r)
    assert m is not None and m.cpu  # RAPL was read
    assert m.mean_w == pytest.approx(2 * 400 + 50)  # two GPUs at 400 W by their counters, the CPU at 50 W
    assert m.peak_w == pytest.approx(2 * 400 + 50)
    assert "run.csv" in m.source.render()  # type: ignore[union-attr]


def test_the_fake_counter_follows_a_load_that_changes_between_readings() -> None:
    """A demo's phases change a fake GPU's load mid-run: its counter keeps rising at the power it reports."""
    from configurator.monitor import fake_nvml

    now = [100.0]
    gpu = fake_nvml.FakeGpu(base_util=90.0, swing=0.0)
    lib = fake_nvml.FakeNvml(fake_nvml.Scenario([gpu]), clock=lambda: now[0])
    lib.nvmlInit()
    h = lib.nvmlDeviceGetHandleByIndex(0)
    e0 = lib.nvmlDeviceGetTotalEnergyConsumption(h)
    gpu.base_util = 20.0
    watts = lib.nvmlDeviceGetPowerUsage(h) / 1000
    now[0] += 60.0
    e1 = lib.nvmlDeviceGetTotalEnergyConsumption(h)
    assert (e1 - e0) / 1000 == pytest.approx(watts * 60, rel=0.001)


def test_the_report_names_each_gpu_as_the_driver_did(tmp_path: Path) -> None:
    def mixed(i: int, k: int) -> GpuSample:
        g = busy_gpu()(i, k)
        return GpuSample(g.index, g.id, ["NVIDIA GeForce RTX 3090", "NVIDIA RTX A4000, rev. 2"][k], g.uuid,
                         utilization_gpu_percent=g.utilization_gpu_percent, power_w=g.power_w)
    path = record(tmp_path / "run.csv", 10, mixed, host())
    rows = path.read_text(encoding="utf-8").splitlines()
    assert rows[0].endswith(",gpu0.name,gpu1.name")
    assert rows[1].endswith(',NVIDIA GeForce RTX 3090,"NVIDIA RTX A4000, rev. 2"') and rows[2].endswith(",,")
    r = report(path)
    assert [g.label for g in r.gpus] == ["GPU 0 · NVIDIA GeForce RTX 3090", "GPU 1 · NVIDIA RTX A4000, rev. 2"]
    assert [g["name"] for g in report_to_dict(r)["gpus"]] == ["NVIDIA GeForce RTX 3090", "NVIDIA RTX A4000, rev. 2"]
    assert r.gpus[1].util_median == 95.0  # the name column is not read as a figure


def test_a_recording_made_before_names_were_recorded_names_gpus_by_index(tmp_path: Path) -> None:
    path = record(tmp_path / "run.csv", 10, busy_gpu(), host())
    rows = path.read_text(encoding="utf-8").splitlines()
    old = "\n".join(",".join(row.split(",")[:-2]) for row in rows) + "\n"  # without the two name columns
    path.write_text(old, encoding="utf-8")
    r = report(path)
    assert [g.label for g in r.gpus] == ["GPU 0", "GPU 1"] and r.gpus[0].util_median == 95.0
    assert report_to_dict(r)["gpus"][0]["name"] is None


def test_a_short_recording_reads_in_seconds_and_its_gpus_not_longer(tmp_path: Path) -> None:
    from configurator.monitor.report import duration_text

    r = report(record(tmp_path / "run.csv", 17, busy_gpu(), host(), gpus=1))  # 17 samples a second apart
    assert duration_text(r.duration_s) == "16 s" and duration_text(r.gpus[0].busy_s) == "16 s"
    assert duration_text(32) == "32 s" and duration_text(30 * 60) == "30.0 min" and duration_text(3 * 3600) == "3.0 h"
