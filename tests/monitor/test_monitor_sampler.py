"""The sampler thread, the exporter, the recorder and the service around them."""

from __future__ import annotations

import csv
import threading
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from configurator.monitor import fake_nvml
from configurator.monitor.exporter import AddressError, parse_address
from configurator.monitor.fake_nvml import FakeNvml
from configurator.monitor.host import HostBackend
from configurator.monitor.nvml import NvmlBackend
from configurator.monitor.sampler import Sampler
from configurator.monitor.service import MonitorService
from configurator.monitor.snapshot import Snapshot, snapshot_to_dict


def wait_for(n: int, sampler: Sampler, timeout: float = 10.0) -> list[Snapshot]:
    got: list[Snapshot] = []
    done = threading.Event()

    def listener(s: Snapshot) -> None:
        got.append(s)
        if len(got) >= n:
            done.set()

    sampler.subscribe(listener)
    assert done.wait(timeout), f"only {len(got)} snapshots"
    sampler.unsubscribe(listener)
    return got


def test_sampler_thread_produces_snapshots_and_stops() -> None:
    fake = FakeNvml(fake_nvml.several(2))
    sampler = Sampler(NvmlBackend(fake), HostBackend(), interval_s=0.02, slow_every_s=0.1)
    sampler.start()
    try:
        snaps = wait_for(5, sampler)
    finally:
        sampler.stop()
    assert not sampler.running
    assert [s.seq for s in snaps] == sorted(s.seq for s in snaps)
    assert all(len(s.gpus) == 2 for s in snaps) and snaps[-1].host.cpu_percent is not None
    assert len(sampler.history) >= 5
    # immutable
    with pytest.raises(AttributeError):
        snaps[0].gpus[0].utilization_gpu_percent = 1.0  # type: ignore[misc]
    assert fake.count("nvmlInit") == 1
    assert fake.count("nvmlDeviceGetTemperature") < fake.count("nvmlDeviceGetUtilizationRates")


def test_a_failing_listener_does_not_stop_sampling() -> None:
    sampler = Sampler(NvmlBackend(FakeNvml(fake_nvml.several(1))), HostBackend(), interval_s=0.02)

    def broken(_s: Snapshot) -> None:
        raise RuntimeError("boom")

    sampler.subscribe(broken)
    sampler.start()
    try:
        wait_for(3, sampler)
    finally:
        sampler.stop()
    assert sampler.listener_errors >= 3


def test_lost_gpu_mid_session_keeps_the_thread_going() -> None:
    fake = FakeNvml(fake_nvml.several(2))
    sampler = Sampler(NvmlBackend(fake, retry_s=0.05), HostBackend(), interval_s=0.02)
    sampler.start()
    try:
        wait_for(2, sampler)
        fake.lose(0)
        snaps = wait_for(2, sampler)
        assert snaps[-1].gpus[0].lost and not snaps[-1].gpus[1].lost
        fake.recover(0)
        for _ in range(100):
            s = wait_for(1, sampler)[-1]
            if not s.gpus[0].lost:
                break
        assert not s.gpus[0].lost and s.nvml.init_count >= 2
    finally:
        sampler.stop()


def test_interval_validation_and_change() -> None:
    sampler = Sampler(NvmlBackend(FakeNvml(fake_nvml.several(1))), HostBackend(), interval_s=1.0)
    with pytest.raises(ValueError, match="interval"):
        sampler.set_interval(0)
    sampler.set_interval(0.5)
    assert sampler.interval_s == 0.5 and sampler.history.capacity == 7201


def test_json_document_shape() -> None:
    sampler = Sampler(NvmlBackend(FakeNvml(fake_nvml.mig())), HostBackend())
    d = snapshot_to_dict(sampler.sample_once())
    assert set(d) == {"time", "host", "nvml", "gpus"}
    assert d["nvml"]["available"] is True and d["nvml"]["error"] is None
    assert [g["id"] for g in d["gpus"]] == ["0", "1", "1.mig0", "1.mig1"]
    assert d["gpus"][2]["utilization_gpu_percent"] is None and isinstance(d["gpus"][0]["memory_total_bytes"], int)
    assert isinstance(d["host"]["per_cpu_percent"], list) and d["host"]["memory_total_bytes"] > 0


# -- exporter -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expect"), [
    ("127.0.0.1:9400", ("127.0.0.1", 9400)), (":9500", ("127.0.0.1", 9500)), ("9401", ("127.0.0.1", 9401)),
    ("0.0.0.0:80", ("0.0.0.0", 80)), ("[::1]:9400", ("::1", 9400)), ("localhost:1", ("localhost", 1)),
    ("gpu-box.lan:9400", ("gpu-box.lan", 9400)),
])
def test_parse_address(text: str, expect: tuple[str, int]) -> None:
    assert parse_address(text) == expect


@pytest.mark.parametrize("text", ["127.0.0.1:x", "1.2.3.4:70000", "[::1]9400", "bad host:1", ""])
def test_parse_address_rejects(text: str) -> None:
    with pytest.raises(AddressError):
        parse_address(text)


def scrape(url: str) -> dict[str, list]:  # type: ignore[type-arg]
    with urllib.request.urlopen(url, timeout=5) as resp:
        text = resp.read().decode()
    out: dict[str, list] = {}  # type: ignore[type-arg]
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            out.setdefault(s.name, []).append(s)
    return out


def test_exporter_serves_the_latest_snapshot_in_base_units() -> None:
    service = MonitorService(NvmlBackend(FakeNvml(fake_nvml.several(2))), interval_s=0.05)
    try:
        snap = service.sampler.sample_once()
        url = service.exporter.start("127.0.0.1", 0)
        assert url.startswith("http://127.0.0.1:") and url.endswith("/metrics")
        m = scrape(url)
        util = m["configurator_gpu_utilization_ratio"]
        assert {s.labels["gpu"] for s in util} == {"0", "1"}
        assert set(util[0].labels) == {"gpu", "uuid", "name", "hostname"}
        assert 0 <= util[0].value <= 1  # a ratio, not percent
        g0 = snap.gpus[0]
        used = next(s for s in m["configurator_gpu_memory_used_bytes"] if s.labels["gpu"] == "0")
        assert used.value == g0.memory_used_bytes and used.labels["uuid"] == g0.uuid
        power = next(s for s in m["configurator_gpu_power_watts"] if s.labels["gpu"] == "0")
        assert power.value == pytest.approx(g0.power_w)
        clock = next(s for s in m["configurator_gpu_sm_clock_hertz"] if s.labels["gpu"] == "0")
        assert clock.value > 1e9  # Hz
        assert m["configurator_nvml_up"][0].value == 1.0
        assert m["configurator_host_memory_total_bytes"][0].value > 0
        assert "configurator_gpu_ecc_uncorrected_errors_total" in m
        assert {s.labels["reason"] for s in m["configurator_gpu_clocks_event_active"]} >= {"hw_thermal"}
    finally:
        service.stop()
    assert not service.exporter.running


def test_exporter_without_driver_and_a_lost_gpu() -> None:
    fake = FakeNvml(fake_nvml.several(2))
    service = MonitorService(NvmlBackend(fake, retry_s=999))
    try:
        service.sampler.sample_once()
        fake.lose(1)
        service.sampler.sample_once()
        url = service.exporter.start("127.0.0.1", 0)
        m = scrape(url)
        up = {s.labels["gpu"]: s.value for s in m["configurator_gpu_up"]}
        assert up == {"0": 1.0, "1": 0.0}
        assert {s.labels["gpu"] for s in m["configurator_gpu_utilization_ratio"]} == {"0"}
    finally:
        service.stop()
    service = MonitorService(NvmlBackend(FakeNvml(fake_nvml.no_library())))
    try:
        service.sampler.sample_once()
        m = scrape(service.exporter.start("127.0.0.1", 0))
        assert m["configurator_nvml_up"][0].value == 0.0 and "configurator_gpu_up" not in m
        assert m["configurator_host_cpu_utilization_ratio"]
    finally:
        service.stop()


def test_exporter_port_in_use_is_an_oserror() -> None:
    a = MonitorService(NvmlBackend(FakeNvml(fake_nvml.several(1))))
    b = MonitorService(NvmlBackend(FakeNvml(fake_nvml.several(1))))
    try:
        url = a.exporter.start("127.0.0.1", 0)
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        with pytest.raises(OSError):
            b.exporter.start("127.0.0.1", port)
    finally:
        a.stop()
        b.stop()


# -- recorder -------------------------------------------------------------------------------------------------------


def test_recording_with_markers_to_a_chinese_path(tmp_path: Path) -> None:
    service = MonitorService(NvmlBackend(FakeNvml(fake_nvml.several(2))), interval_s=0.02)
    path = tmp_path / "训练记录" / "运行 1.csv"
    path.parent.mkdir()
    rec = service.start_recording(path)
    service.sampler.sample_once()
    rec.mark("第二个 epoch")
    service.sampler.sample_once()
    service.sampler.sample_once()
    done = service.stop_recording()
    service.sampler.sample_once()  # no longer recorded
    service.stop()
    assert done is rec and rec.closed and rec.rows == 3 and rec.gpus == 2
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    assert header[:3] == ["time", "epoch_s", "marker"] and "gpu0.util (%)" in header and "gpu1.power (W)" in header
    assert len(rows) == 4 and [r[2] for r in rows[1:]] == ["", "第二个 epoch", ""]
    assert float(rows[1][header.index("gpu0.util (%)")]) > 0
    assert rec.markers[0]["label"] == "第二个 epoch"


def test_a_marker_after_the_last_sample_is_kept(tmp_path: Path) -> None:
    service = MonitorService(NvmlBackend(FakeNvml(fake_nvml.several(1))))
    path = tmp_path / "m.csv"
    rec = service.start_recording(path)
    service.sampler.sample_once()
    rec.mark("stopped by hand")
    service.stop()
    rows = list(csv.reader(path.open(encoding="utf-8", newline="")))
    assert len(rows) == 3 and rows[2][2] == "stopped by hand" and rows[2][3] == ""


def test_recording_to_a_missing_folder_fails_at_once(tmp_path: Path) -> None:
    service = MonitorService(NvmlBackend(FakeNvml(fake_nvml.several(1))))
    with pytest.raises(OSError):
        service.start_recording(tmp_path / "no" / "such" / "dir.csv")
    assert service.recorder is None
    service.stop()
