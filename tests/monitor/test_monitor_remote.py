"""Remote hosts: our exporter, DCGM exporter and node_exporter pages, and the errors."""

from __future__ import annotations

import pytest

from configurator.monitor import fake_nvml
from configurator.monitor.fake_nvml import FakeNvml
from configurator.monitor.host import HostBackend
from configurator.monitor.nvml import NvmlBackend
from configurator.monitor.remote import RemoteError, RemoteTarget, normalise_url
from configurator.monitor.service import MonitorService

DCGM = """# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).
# TYPE DCGM_FI_DEV_GPU_UTIL gauge
DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-a",device="nvidia0",modelName="NVIDIA A100-SXM4-80GB",Hostname="dgx1"} 87
DCGM_FI_DEV_GPU_UTIL{gpu="1",UUID="GPU-b",device="nvidia1",modelName="NVIDIA A100-SXM4-80GB",Hostname="dgx1"} 12
# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).
# TYPE DCGM_FI_DEV_FB_USED gauge
DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-a",modelName="NVIDIA A100-SXM4-80GB",Hostname="dgx1"} 40960
DCGM_FI_DEV_FB_FREE{gpu="0",UUID="GPU-a",modelName="NVIDIA A100-SXM4-80GB",Hostname="dgx1"} 40960
DCGM_FI_DEV_GPU_TEMP{gpu="0",UUID="GPU-a",modelName="NVIDIA A100-SXM4-80GB",Hostname="dgx1"} 61
DCGM_FI_DEV_POWER_USAGE{gpu="0",UUID="GPU-a",modelName="NVIDIA A100-SXM4-80GB",Hostname="dgx1"} 312.5
"""


def node(idle: float, user: float) -> str:
    return f"""# TYPE node_cpu_seconds_total counter
node_cpu_seconds_total{{cpu="0",mode="idle"}} {idle}
node_cpu_seconds_total{{cpu="0",mode="user"}} {user}
node_cpu_seconds_total{{cpu="0",mode="iowait"}} 0
# TYPE node_memory_MemTotal_bytes gauge
node_memory_MemTotal_bytes 6.8719476736e+10
node_memory_MemAvailable_bytes 1.7179869184e+10
node_uname_info{{nodename="worker-7",sysname="Linux"}} 1
"""


@pytest.mark.parametrize(("text", "url"), [
    ("gpu-box:9400", "http://gpu-box:9400/metrics"),
    ("http://gpu-box:9400", "http://gpu-box:9400/metrics"),
    ("https://h/custom/metrics?x=1", "https://h/custom/metrics?x=1"),
])
def test_normalise_url(text: str, url: str) -> None:
    assert normalise_url(text) == url


@pytest.mark.parametrize("text", ["", "ftp://x/metrics", "http://:99", "http://h:notaport/"])
def test_bad_urls(text: str) -> None:
    with pytest.raises(RemoteError):
        normalise_url(text)


def test_dcgm_page() -> None:
    t = RemoteTarget("http://dgx1:9400/metrics")
    s = t.parse(DCGM, 100.0)
    assert s.kinds == ("dcgm",) and s.hostname == "dgx1"
    g0, g1 = s.gpus
    assert (g0.id, g0.name, g0.utilization_percent, g0.temperature_c, g0.power_w) == (
        "0", "NVIDIA A100-SXM4-80GB", 87.0, 61.0, 312.5)
    assert g0.memory_used_bytes == 40 * 1024**3 and g0.memory_percent == pytest.approx(50.0)
    assert g1.utilization_percent == 12.0 and g1.memory_percent is None


def test_node_exporter_cpu_needs_two_scrapes() -> None:
    t = RemoteTarget("http://worker-7:9100/metrics")
    first = t.parse(node(1000, 1000), 0.0)
    assert first.cpu_percent is None and first.hostname == "worker-7" and first.kinds == ("node",)
    assert first.memory_percent == pytest.approx(75.0)
    second = t.parse(node(1010, 1030), 1.0)  # 10 s idle of 40 s
    assert second.cpu_percent == pytest.approx(75.0)


def test_not_a_metrics_page() -> None:
    t = RemoteTarget("http://x/metrics")
    with pytest.raises(RemoteError, match="no metrics"):
        t.parse("# just a comment\nfoo_bar 1\n", 0.0)
    with pytest.raises(RemoteError):
        t.parse("<html><body>hello</body></html>", 0.0)


def test_scrape_our_own_exporter_and_plot_history() -> None:
    service = MonitorService(NvmlBackend(FakeNvml(fake_nvml.several(3))))
    try:
        service.sampler.sample_once()
        url = service.exporter.start("127.0.0.1", 0)
        target = RemoteTarget(url.replace("/metrics", ""))
        s = target.scrape()
        target.scrape()
        assert s.kinds == ("configurator",) and len(s.gpus) == 3
        assert s.gpus[0].name == "NVIDIA GeForce RTX 4090" and 0 < s.gpus[0].utilization_percent <= 100
        assert s.memory_percent is not None and s.cpu_percent is not None
        _t, y = target.history.series("gpu0.util", 60)
        assert len(y) == 2 and target.error is None
    finally:
        service.stop()


def test_unreachable_host_is_a_clear_error() -> None:
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    t = RemoteTarget(f"127.0.0.1:{port}", timeout=2)
    with pytest.raises(RemoteError, match="cannot reach"):
        t.scrape()
    assert t.error is not None and "cannot reach" in t.error.render()


def test_grafana_dashboard_uses_only_metrics_the_exporter_serves() -> None:
    import json
    import re

    from prometheus_client import generate_latest

    from configurator.paths import RESOURCES_DIR

    dash = json.loads((RESOURCES_DIR / "grafana" / "configurator-dashboard.json").read_text(encoding="utf-8"))
    exprs = [t["expr"] for p in dash["panels"] for t in p.get("targets", [])]  # a row has none
    used = {m for e in exprs for m in re.findall(r"configurator_[a-z0-9_]+", e)}
    now = [1000.0]
    host = HostBackend(clock=lambda: now[0])
    service = MonitorService(NvmlBackend(FakeNvml(fake_nvml.several(1))), host)
    try:
        now[0] += 1.0  # a sample a second after the start: every rate has its window (this app's CPU share too)
        service.sampler.sample_once()
        served = set(re.findall(r"^(configurator_[a-z0-9_]+)", generate_latest(service.exporter.registry).decode(),
                                re.MULTILINE))
    finally:
        service.stop()
    assert used and used <= served, used - served
