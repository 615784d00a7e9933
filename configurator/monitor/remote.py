"""Remote hosts by their Prometheus ``/metrics`` URL: ours, NVIDIA's DCGM exporter, or node_exporter.

:meth:`RemoteTarget.scrape` fetches and parses one page into a
:class:`RemoteSample` (GPU utilisation, VRAM, temperature, power; host CPU and
RAM) and appends it to the target's own :class:`History`, so the tab plots it
beside the local machine. CPU from node_exporter is a rate of counters, so it
needs two scrapes. It blocks for at most ``timeout`` seconds: call it off the
GUI thread.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field

from prometheus_client.parser import text_string_to_metric_families

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.units import MIB
from configurator.monitor.ring import History
from configurator.monitor.snapshot import percent_of

CTX = "monitor"
MAX_BYTES = 16 * 1024 * 1024


class RemoteError(Exception):
    def __init__(self, message: Message):
        self.message = message
        super().__init__(message.render())


def normalise_url(text: str) -> str:
    """Accept ``host:port``, ``http://host:port`` or a full URL; default path ``/metrics``."""
    raw = text.strip()
    if not raw:
        raise RemoteError(Message("monitor", QT_TRANSLATE_NOOP("monitor", "enter the URL of a /metrics page")))
    if "://" not in raw:
        raw = "http://" + raw
    parts = urllib.parse.urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RemoteError(Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "{url!r} is not an http(s) URL such as http://gpu-server:9400/metrics"), {"url": text}))
    try:
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError:
        raise RemoteError(Message("monitor", QT_TRANSLATE_NOOP("monitor", "{url!r} has an invalid port"),
                                  {"url": text})) from None
    path = parts.path if parts.path not in ("", "/") else "/metrics"
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


@dataclass(frozen=True)
class RemoteGpu:
    id: str
    name: str
    utilization_percent: float | None = None
    memory_used_bytes: float | None = None
    memory_total_bytes: float | None = None
    temperature_c: float | None = None
    power_w: float | None = None

    @property
    def memory_percent(self) -> float | None:
        return percent_of(self.memory_used_bytes, self.memory_total_bytes)


@dataclass(frozen=True)
class RemoteSample:
    url: str
    time: float
    hostname: str
    kinds: tuple[str, ...]  # which exporters the page came from: configurator, dcgm, node
    gpus: tuple[RemoteGpu, ...] = ()
    cpu_percent: float | None = None
    memory_used_bytes: float | None = None
    memory_total_bytes: float | None = None

    @property
    def memory_percent(self) -> float | None:
        return percent_of(self.memory_used_bytes, self.memory_total_bytes)


@dataclass
class _Gpu:
    name: str = ""
    util: float | None = None
    used: float | None = None
    total: float | None = None
    free: float | None = None
    reserved: float | None = None
    temp: float | None = None
    power: float | None = None


@dataclass
class RemoteTarget:
    url: str
    timeout: float = 3.0
    history: History = field(default_factory=lambda: History(1.0))
    latest: RemoteSample | None = None
    error: Message | None = None
    failures: int = 0  # scrapes failed in a row; the next try waits longer after each (back-off)
    retry_at: float = 0.0  # time.monotonic() before which the host is not asked again
    backoff_s: float = 0.0  # the wait before the next try, after the last failure
    _cpu: tuple[float, float] | None = None  # node_exporter: (idle, total) seconds at the last scrape

    # Back-off after a failed scrape: 2, 4, 8 … seconds, at most a minute, so a host that is down
    # costs a connection attempt a minute, not one a second.
    BACKOFF_FIRST_S = 2.0
    BACKOFF_MAX_S = 60.0

    def __post_init__(self) -> None:
        self.url = normalise_url(self.url)

    def fetch(self) -> str:
        req = urllib.request.Request(self.url, headers={"Accept": "text/plain;version=0.0.4"})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                body: bytes = resp.read(MAX_BYTES + 1)
        except urllib.error.HTTPError as exc:
            raise RemoteError(Message("monitor", QT_TRANSLATE_NOOP("monitor", "{url} answered HTTP {code}"),
                                      {"url": self.url, "code": exc.code})) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise RemoteError(Message("monitor", QT_TRANSLATE_NOOP("monitor", "cannot reach {url}: {reason}"),
                                      {"url": self.url, "reason": str(reason)})) from None
        if len(body) > MAX_BYTES:
            raise RemoteError(Message("monitor", QT_TRANSLATE_NOOP("monitor", "{url} sent more than 16 MiB"),
                                      {"url": self.url}))
        return body.decode("utf-8", errors="replace")

    def due(self, now: float | None = None) -> bool:
        """Whether to scrape now: always while it answers, after the back-off once it has not."""
        return (time.monotonic() if now is None else now) >= self.retry_at

    def scrape(self) -> RemoteSample:
        try:
            sample = self.parse(self.fetch(), time.time())
        except RemoteError as exc:
            self.error = exc.message
            self.failures += 1
            self.backoff_s = min(self.BACKOFF_MAX_S, self.BACKOFF_FIRST_S * 2 ** min(self.failures - 1, 10))
            self.retry_at = time.monotonic() + self.backoff_s
            raise
        self.error = None
        self.failures = 0
        self.retry_at = self.backoff_s = 0.0
        self.latest = sample
        values: dict[str, float | None] = {"host.cpu": sample.cpu_percent, "host.mem": sample.memory_percent}
        for g in sample.gpus:
            values[f"gpu{g.id}.util"] = g.utilization_percent
            values[f"gpu{g.id}.mem"] = g.memory_percent
            values[f"gpu{g.id}.temp"] = g.temperature_c
            values[f"gpu{g.id}.power"] = g.power_w
        self.history.append(sample.time, values)
        return sample

    def parse(self, text: str, now: float) -> RemoteSample:
        try:
            families = list(text_string_to_metric_families(text))
        except (ValueError, TypeError, IndexError) as exc:
            raise RemoteError(Message("monitor", QT_TRANSLATE_NOOP(
                "monitor", "{url} is not a Prometheus metrics page ({error})"), {"url": self.url, "error": str(exc)}),
            ) from None
        gpus: dict[str, _Gpu] = {}
        kinds: list[str] = []
        hostname = ""
        cpu: float | None = None
        mem_used: float | None = None
        mem_total: float | None = None
        mem_avail: float | None = None
        idle = total = 0.0
        node_cpu = False

        def gpu(labels: dict[str, str], name_key: str) -> _Gpu:
            key = labels.get("gpu", "?")
            g = gpus.setdefault(key, _Gpu())
            g.name = labels.get(name_key, g.name)
            return g

        for fam in families:
            for s in fam.samples:
                n, lab, v = s.name, s.labels, float(s.value)
                hostname = hostname or lab.get("hostname") or lab.get("Hostname", "")
                if n.startswith("configurator_"):
                    if "configurator" not in kinds:
                        kinds.append("configurator")
                    if n == "configurator_gpu_utilization_ratio":
                        gpu(lab, "name").util = v * 100
                    elif n == "configurator_gpu_memory_used_bytes":
                        gpu(lab, "name").used = v
                    elif n == "configurator_gpu_memory_total_bytes":
                        gpu(lab, "name").total = v
                    elif n == "configurator_gpu_temperature_celsius":
                        gpu(lab, "name").temp = v
                    elif n == "configurator_gpu_power_watts":
                        gpu(lab, "name").power = v
                    elif n == "configurator_host_cpu_utilization_ratio":
                        cpu = v * 100
                    elif n == "configurator_host_memory_used_bytes":
                        mem_used = v
                    elif n == "configurator_host_memory_total_bytes":
                        mem_total = v
                elif n.startswith("DCGM_FI_"):
                    if "dcgm" not in kinds:
                        kinds.append("dcgm")
                    if n == "DCGM_FI_DEV_GPU_UTIL":
                        gpu(lab, "modelName").util = v
                    elif n == "DCGM_FI_DEV_FB_USED":
                        gpu(lab, "modelName").used = v * MIB
                    elif n == "DCGM_FI_DEV_FB_FREE":
                        gpu(lab, "modelName").free = v * MIB
                    elif n == "DCGM_FI_DEV_FB_RESERVED":
                        gpu(lab, "modelName").reserved = v * MIB
                    elif n == "DCGM_FI_DEV_GPU_TEMP":
                        gpu(lab, "modelName").temp = v
                    elif n == "DCGM_FI_DEV_POWER_USAGE":
                        gpu(lab, "modelName").power = v
                elif n.startswith("node_"):
                    if "node" not in kinds:
                        kinds.append("node")
                    if n == "node_cpu_seconds_total":
                        node_cpu = True
                        total += v
                        if lab.get("mode") == "idle" or lab.get("mode") == "iowait":
                            idle += v
                    elif n == "node_memory_MemTotal_bytes":
                        mem_total = v
                    elif n == "node_memory_MemAvailable_bytes":
                        mem_avail = v
                    elif n == "node_uname_info":
                        hostname = lab.get("nodename", hostname)
        if not kinds:
            raise RemoteError(Message("monitor", QT_TRANSLATE_NOOP(
                "monitor", "{url} has no metrics from this app, the DCGM exporter or node_exporter"),
                {"url": self.url}))
        if node_cpu and cpu is None:
            if self._cpu is not None and total > self._cpu[1]:
                busy = 1 - (idle - self._cpu[0]) / (total - self._cpu[1])
                cpu = max(0.0, min(100.0, busy * 100))
            self._cpu = (idle, total)
        if mem_used is None and mem_total is not None and mem_avail is not None:
            mem_used = mem_total - mem_avail
        out = []
        for key in sorted(gpus, key=lambda k: (len(k), k)):
            g = gpus[key]
            gtotal = g.total
            if gtotal is None and g.used is not None and g.free is not None:
                gtotal = g.used + g.free + (g.reserved or 0.0)
            out.append(RemoteGpu(key, g.name, g.util, g.used, gtotal, g.temp, g.power))
        if not hostname:
            hostname = urllib.parse.urlsplit(self.url).hostname or self.url
        return RemoteSample(self.url, now, hostname, tuple(kinds), tuple(out), cpu, mem_used, mem_total)
