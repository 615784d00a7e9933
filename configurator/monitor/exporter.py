"""Prometheus exporter: a custom collector that reads the sampler's latest snapshot.

Base units (bytes, watts, hertz, seconds, ratios 0–1, degrees Celsius), labels
``gpu``, ``uuid``, ``name``, ``hostname``. The HTTP server binds to 127.0.0.1
unless told otherwise. Scraping never calls NVML: it only formats the snapshot
the sampler thread already took.
"""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Callable, Iterator
from wsgiref.simple_server import WSGIServer

from prometheus_client import start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector, CollectorRegistry

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.monitor.snapshot import THROTTLE_REASONS, Snapshot

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 9400
GPU_LABELS = ["gpu", "uuid", "name", "hostname"]


class AddressError(ValueError):
    def __init__(self, message: Message):
        self.message = message
        super().__init__(message.render())


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``[v6]:PORT``, ``:PORT`` or ``PORT`` (host 127.0.0.1)."""
    raw = text.strip()
    host, port_text = DEFAULT_HOST, raw
    if raw.startswith("["):
        end = raw.find("]")
        if end < 0 or not raw[end + 1:].startswith(":"):
            raise AddressError(Message("monitor", QT_TRANSLATE_NOOP(
                "monitor", "{text!r} is not HOST:PORT (for IPv6: [ADDRESS]:PORT)"), {"text": text}))
        host, port_text = raw[1:end], raw[end + 2:]
    elif ":" in raw:
        host, port_text = raw.rsplit(":", 1)
        host = host or DEFAULT_HOST
    try:
        port = int(port_text)
    except ValueError:
        raise AddressError(Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "{text!r} is not HOST:PORT: the port must be a number"), {"text": text})) from None
    if not 0 <= port <= 65535:
        raise AddressError(Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "port {port} is out of range (0–65535)"), {"port": port}))
    if host != "localhost":
        try:
            ipaddress.ip_address(host)
        except ValueError:
            if not all(part and (part.isalnum() or "-" in part) for part in host.split(".")):
                raise AddressError(Message("monitor", QT_TRANSLATE_NOOP(
                    "monitor", "{host!r} is not an IP address or host name"), {"host": host})) from None
    return host, port


class SnapshotCollector(Collector):
    def __init__(self, latest: Callable[[], Snapshot | None]):
        self.latest = latest

    def describe(self) -> list[Metric]:  # no metrics at registration: don't sample for it
        return []

    def collect(self) -> Iterator[Metric]:
        s = self.latest()
        if s is None:
            return
        host = s.host.hostname
        yield GaugeMetricFamily("configurator_snapshot_timestamp_seconds", "Time of the snapshot served",
                                value=s.time)
        nvml = GaugeMetricFamily("configurator_nvml_up", "1 if NVML (the NVIDIA driver) is available",
                                 labels=["hostname"])
        nvml.add_metric([host], 1.0 if s.nvml.available else 0.0)
        yield nvml

        def gauge(name: str, doc: str) -> GaugeMetricFamily:
            return GaugeMetricFamily(name, doc, labels=GPU_LABELS)

        up = gauge("configurator_gpu_up", "1 if the GPU answers, 0 if it is lost")
        fams: dict[str, tuple[GaugeMetricFamily, Callable[..., float | None]]] = {
            "util": (gauge("configurator_gpu_utilization_ratio", "Fraction of time a kernel ran (SM)"),
                     lambda g: None if g.utilization_gpu_percent is None else g.utilization_gpu_percent / 100),
            "memutil": (gauge("configurator_gpu_memory_utilization_ratio", "Fraction of time memory was read/written"),
                        lambda g: None if g.utilization_memory_percent is None
                        else g.utilization_memory_percent / 100),
            "mem_used": (gauge("configurator_gpu_memory_used_bytes", "VRAM used"), lambda g: g.memory_used_bytes),
            "mem_total": (gauge("configurator_gpu_memory_total_bytes", "VRAM total"),
                          lambda g: g.memory_total_bytes),
            "temp": (gauge("configurator_gpu_temperature_celsius", "GPU core temperature"),
                     lambda g: g.temperature_c),
            "power": (gauge("configurator_gpu_power_watts", "Board power draw"), lambda g: g.power_w),
            "limit": (gauge("configurator_gpu_power_limit_watts", "Enforced power limit"),
                      lambda g: g.power_limit_w),
            "fan": (gauge("configurator_gpu_fan_ratio", "Fan speed as a fraction of its maximum"),
                    lambda g: None if g.fan_percent is None else g.fan_percent / 100),
            "sm": (gauge("configurator_gpu_sm_clock_hertz", "SM clock"),
                   lambda g: None if g.sm_clock_mhz is None else g.sm_clock_mhz * 1e6),
            "memclk": (gauge("configurator_gpu_memory_clock_hertz", "Memory clock"),
                       lambda g: None if g.memory_clock_mhz is None else g.memory_clock_mhz * 1e6),
            "gen": (gauge("configurator_gpu_pcie_link_generation", "Current PCIe link generation"),
                    lambda g: g.pcie_gen),
            "gen_max": (gauge("configurator_gpu_pcie_link_generation_max", "Maximum PCIe link generation"),
                        lambda g: g.pcie_gen_max),
            "width": (gauge("configurator_gpu_pcie_link_width", "Current PCIe link width (lanes)"),
                      lambda g: g.pcie_width),
            "width_max": (gauge("configurator_gpu_pcie_link_width_max", "Maximum PCIe link width (lanes)"),
                          lambda g: g.pcie_width_max),
            "rx": (gauge("configurator_gpu_pcie_rx_bytes_per_second", "PCIe receive throughput"),
                   lambda g: g.pcie_rx_bytes_per_s),
            "tx": (gauge("configurator_gpu_pcie_tx_bytes_per_second", "PCIe transmit throughput"),
                   lambda g: g.pcie_tx_bytes_per_s),
        }
        ecc = CounterMetricFamily("configurator_gpu_ecc_uncorrected_errors",
                                  "Uncorrected ECC errors since the driver loaded", labels=GPU_LABELS)
        reasons = GaugeMetricFamily("configurator_gpu_clocks_event_active",
                                    "1 while this throttle / clock-event reason is active",
                                    labels=[*GPU_LABELS, "reason"])
        procs = GaugeMetricFamily("configurator_gpu_process_memory_bytes", "VRAM used by a process",
                                  labels=[*GPU_LABELS, "pid", "process"])
        for g in s.gpus:
            labels = [g.id, g.uuid, g.name, host]
            up.add_metric(labels, 0.0 if g.lost else 1.0)
            if g.lost:
                continue
            for fam, get in fams.values():
                value = get(g)
                if value is not None:
                    fam.add_metric(labels, float(value))
            if g.ecc_uncorrected is not None:
                ecc.add_metric(labels, float(g.ecc_uncorrected))
            if g.throttle_reasons is not None:
                for bit, reason in THROTTLE_REASONS.items():
                    reasons.add_metric([*labels, reason], 1.0 if g.throttle_reasons & bit else 0.0)
            for p in g.processes:
                if p.gpu_memory_bytes is not None:
                    procs.add_metric([*labels, str(p.pid), p.name or ""], float(p.gpu_memory_bytes))
        yield up
        for fam, _get in fams.values():
            yield fam
        yield ecc
        yield reasons
        yield procs

        h = s.host

        def host_gauge(name: str, doc: str, value: float | None) -> GaugeMetricFamily | None:
            if value is None:
                return None
            fam = GaugeMetricFamily(name, doc, labels=["hostname"])
            fam.add_metric([host], float(value))
            return fam

        def pct(v: float | None) -> float | None:
            return None if v is None else v / 100

        for fam_or_none in (
            host_gauge("configurator_host_cpu_utilization_ratio", "CPU busy, all cores", pct(h.cpu_percent)),
            host_gauge("configurator_host_iowait_ratio", "CPU time waiting for I/O", pct(h.iowait_percent)),
            host_gauge("configurator_host_load1", "1-minute load average", h.load_1m),
            host_gauge("configurator_host_load5", "5-minute load average", h.load_5m),
            host_gauge("configurator_host_load15", "15-minute load average", h.load_15m),
            host_gauge("configurator_host_memory_used_bytes", "RAM in use (total - available)", h.memory_used_bytes),
            host_gauge("configurator_host_memory_total_bytes", "RAM installed", h.memory_total_bytes),
            host_gauge("configurator_host_swap_used_bytes", "Swap in use", h.swap_used_bytes),
            host_gauge("configurator_host_swap_total_bytes", "Swap size", h.swap_total_bytes),
            host_gauge("configurator_host_disk_read_bytes_per_second", "Disk reads", h.disk_read_bytes_per_s),
            host_gauge("configurator_host_disk_write_bytes_per_second", "Disk writes", h.disk_write_bytes_per_s),
            host_gauge("configurator_host_network_receive_bytes_per_second", "Network in", h.net_rx_bytes_per_s),
            host_gauge("configurator_host_network_transmit_bytes_per_second", "Network out", h.net_tx_bytes_per_s),
            host_gauge("configurator_monitor_cpu_ratio", "CPU used by the monitor app, of one core",
                       pct(h.own_cpu_percent)),
        ):
            if fam_or_none is not None:
                yield fam_or_none
        if h.per_cpu_percent:
            cores = GaugeMetricFamily("configurator_host_core_utilization_ratio", "CPU busy per core",
                                      labels=["hostname", "cpu"])
            for i, v in enumerate(h.per_cpu_percent):
                cores.add_metric([host, str(i)], v / 100)
            yield cores


class Exporter:
    """The HTTP server for ``/metrics``; ``start`` raises OSError if the address is taken."""

    def __init__(self, latest: Callable[[], Snapshot | None]):
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(SnapshotCollector(latest))
        self._server: WSGIServer | None = None
        self._thread: threading.Thread | None = None
        self.address: tuple[str, int] | None = None

    @property
    def running(self) -> bool:
        return self._server is not None

    @property
    def url(self) -> str | None:
        if self.address is None:
            return None
        host, port = self.address
        return f"http://{f'[{host}]' if ':' in host else host}:{port}/metrics"

    def start(self, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> str:
        self.stop()
        server, thread = start_http_server(port, addr=host, registry=self.registry)
        self._server, self._thread = server, thread
        self.address = (host, int(server.server_address[1]))
        return self.url or ""

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        self.address = None
