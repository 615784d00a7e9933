"""A small cluster posed on one machine, for the cluster benchmarks, tests and screenshots (not in the
wheel: nothing in the app uses it).

* :func:`fake_node`: this app's monitor on fake GPUs with its exporter, posing as another node
  (the exporter's ``node_name``);
* :class:`StaticPages`: a tiny HTTP server for fixed pages, e.g. a DCGM exporter's ``/metrics``
  rendered by :func:`dcgm_page` with the label set DCGM exporter writes (``gpu``, ``UUID``,
  ``pci_bus_id``, ``device``, ``modelName``, ``Hostname``, ``DCGM_FI_DRIVER_VERSION``, and
  ``hpc_job`` from its HPC job mapping);
* :class:`PrometheusServer`: a real Prometheus server (Debian's ``prometheus`` package) on a free
  loopback port with a temporary storage folder, scraping the targets it is given.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

INSTALL_PROMETHEUS = "apt-get install prometheus"
INSTALL_NODE_EXPORTER = "apt-get install prometheus-node-exporter"


class MissingTool(RuntimeError):  # noqa: N818 - a message for the person running it, not an API error
    pass


def find_tool(name: str, install: str) -> str:
    path = shutil.which(name) or (f"/usr/bin/{name}" if Path(f"/usr/bin/{name}").exists() else None)
    if path is None:
        raise MissingTool(f"{name} is not installed; install it with: {install}")
    return path


def end(proc: subprocess.Popen[bytes]) -> None:
    """Terminate a child we started, then kill it if it has not gone within 10 s."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fake_node(node_name: str, gpus: int = 2, *, interval_s: float = 0.5, scenario: Any = None) -> Any:
    """A started :class:`~configurator.monitor.service.MonitorService` on fake GPUs whose exporter
    listens on a free loopback port as ``node_name``; ``.exporter.url`` is its page. Stop it with ``.stop()``."""
    from configurator.monitor.fake_nvml import FakeNvml, several
    from configurator.monitor.nvml import NvmlBackend
    from configurator.monitor.service import MonitorService

    fake = FakeNvml(scenario if scenario is not None else several(gpus))
    service = MonitorService(NvmlBackend(fake), interval_s=interval_s, node_name=node_name)
    service.fake = fake  # type: ignore[attr-defined]  # so a demo can lose or recover a GPU
    service.start()
    service.sampler.sample_once()
    service.exporter.start("127.0.0.1", 0)
    return service


@dataclass
class DcgmGpu:
    util: float
    model: str = "NVIDIA H100 80GB HBM3"
    fb_total_mib: float = 81559.0
    fb_used_mib: float = 40000.0
    temp: float = 55.0
    power: float | None = 450.0
    job: str | None = None  # hpc_job
    profiling: bool = True  # DCGM_FI_PROF_* (a profiling module that is on)
    xid: int = 0
    namespace: str | None = None  # Kubernetes: DCGM exporter's pod attribution
    pod: str | None = None


def dcgm_page(hostname: str, gpus: Sequence[DcgmGpu], driver: str = "550.54.15") -> str:
    """A DCGM exporter's page for one node (its default counters' subset the monitor reads)."""
    fams: dict[str, tuple[str, list[str]]] = {}

    def put(name: str, help_: str, labels: str, value: float) -> None:
        fams.setdefault(name, (help_, []))[1].append(f"{name}{{{labels}}} {value:g}")

    for i, g in enumerate(gpus):
        uuid = f"GPU-{zlib.crc32(hostname.encode()):08x}-1111-2222-3333-{i:012x}"
        labels = (f'gpu="{i}",UUID="{uuid}",pci_bus_id="00000000:{0x18 + 0x10 * i:02X}:00.0",device="nvidia{i}",'
                  f'modelName="{g.model}",Hostname="{hostname}",DCGM_FI_DRIVER_VERSION="{driver}"')
        if g.job:
            labels += f',hpc_job="{g.job}"'
        if g.pod:
            labels += f',namespace="{g.namespace or "default"}",pod="{g.pod}",container="trainer"'
        put("DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", labels, g.util)
        put("DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", labels, g.fb_used_mib)
        put("DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", labels, g.fb_total_mib - g.fb_used_mib - 500)
        put("DCGM_FI_DEV_FB_RESERVED", "Framebuffer memory reserved (in MiB).", labels, 500)
        put("DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", labels, g.temp)
        if g.power is not None:
            put("DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", labels, g.power)
        put("DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).", labels, 1980)
        put("DCGM_FI_DEV_XID_ERRORS", "Value of the last XID error encountered.", labels, g.xid)
        put("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "Current clock throttle reasons.", labels, 0)
        if g.profiling:
            put("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "Ratio of time the graphics engine is active.", labels,
                g.util / 100)
            put("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "Ratio of cycles the tensor (HMMA) pipe is active.", labels,
                g.util / 250)
            put("DCGM_FI_PROF_DRAM_ACTIVE", "Ratio of cycles the device memory interface is active.", labels,
                g.util / 300)
    out = []
    for name, (help_, lines) in fams.items():
        out += [f"# HELP {name} {help_}", f"# TYPE {name} gauge", *lines]
    return "\n".join(out) + "\n"


class StaticPages:
    """Serves ``pages`` (path -> (content type, body)) on a free loopback port until :meth:`stop`."""

    def __init__(self, pages: Mapping[str, tuple[str, str]], status: int = 200):
        self.pages = dict(pages)
        self.status = status
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = urllib.parse.urlsplit(self.path).path
                ctype, body = outer.pages.get(path, outer.pages.get("*", ("text/plain", "not found\n")))
                data = body.encode()
                self.send_response(outer.status if path in outer.pages or "*" in outer.pages else 404)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = int(self.server.server_address[1])
        self.address = f"127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.server.serve_forever, name="static-pages", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(5)


@dataclass
class PrometheusServer:
    """``jobs``: scrape job name -> targets (``HOST:PORT``); ``relabel``: job -> metric_relabel_configs;
    ``binary``: the server's program, a name on the PATH (or in /usr/bin) or a path. Without it,
    :meth:`start` raises :class:`MissingTool` naming the command that installs it."""

    jobs: Mapping[str, Sequence[str]]
    rule_files: Sequence[Path] = ()
    scrape_interval_s: float = 1.0
    relabel: Mapping[str, list[dict[str, Any]]] = field(default_factory=dict)
    binary: str = "prometheus"
    port: int = 0
    folder: Path | None = None
    proc: subprocess.Popen[bytes] | None = None
    _tmp: tempfile.TemporaryDirectory[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout_s: float = 30.0) -> PrometheusServer:
        binary = find_tool(self.binary, INSTALL_PROMETHEUS)
        self._tmp = tempfile.TemporaryDirectory(prefix="configurator-prometheus-")
        self.folder = Path(self._tmp.name)
        interval = f"{max(1, round(self.scrape_interval_s * 1000))}ms"
        config = {"global": {"scrape_interval": interval, "evaluation_interval": interval,
                             "scrape_timeout": interval},
                  "rule_files": [str(p) for p in self.rule_files],
                  "scrape_configs": [{"job_name": job, "static_configs": [{"targets": list(targets)}],
                                      **({"metric_relabel_configs": self.relabel[job]} if job in self.relabel
                                         else {})}
                                     for job, targets in self.jobs.items()]}
        (self.folder / "prometheus.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
        self.port = free_port()
        log = open(self.folder / "prometheus.log", "wb")  # noqa: SIM115 - the child writes it until stop
        self.proc = subprocess.Popen(
            [binary, f"--config.file={self.folder / 'prometheus.yml'}",
             f"--storage.tsdb.path={self.folder / 'data'}", f"--web.listen-address=127.0.0.1:{self.port}",
             "--storage.tsdb.retention.time=2h", "--web.enable-lifecycle"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        log.close()
        self.wait(lambda: self.get("/-/ready") is not None, timeout_s, "Prometheus did not become ready")
        return self

    def get(self, path: str) -> bytes | None:
        try:
            with urllib.request.urlopen(self.url + path, timeout=2) as resp:
                body: bytes = resp.read()
                return body
        except (urllib.error.URLError, OSError):
            return None

    def query(self, promql: str) -> list[dict[str, Any]]:
        body = self.get("/api/v1/query?" + urllib.parse.urlencode({"query": promql}))
        if body is None:
            return []
        result: list[dict[str, Any]] = json.loads(body).get("data", {}).get("result", [])
        return result

    def wait(self, ready: Callable[[], bool], timeout_s: float, what: str) -> None:
        """Poll ``ready`` until it is true; raise with the server's log after ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                break
            if ready():
                return
            time.sleep(0.1)
        raise RuntimeError(f"{what} within {timeout_s:g} s:\n{self.log()[-3000:]}")

    def wait_for_targets(self, timeout_s: float = 30.0, scrapes: int = 2) -> None:
        """Until every target is up and has been scraped ``scrapes`` times (so rates have two points)."""
        n = sum(len(t) for t in self.jobs.values())

        def ready() -> bool:
            up = self.query(f"count_over_time(up[1h]) >= {scrapes} and up == 1")
            return len(up) >= n

        self.wait(ready, timeout_s, f"Prometheus did not scrape all {n} targets {scrapes} times")

    def log(self) -> str:
        if self.folder is None:
            return ""
        with contextlib.suppress(OSError):
            return (self.folder / "prometheus.log").read_text(encoding="utf-8", errors="replace")
        return ""

    def stop(self) -> None:
        if self.proc is not None:
            end(self.proc)
            self.proc = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None


class NodeExporter:
    """Debian's ``prometheus-node-exporter`` (CPU, load, memory, uname) on a free loopback port."""

    def __init__(self) -> None:
        binary = find_tool("prometheus-node-exporter", INSTALL_NODE_EXPORTER)
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [binary, f"--web.listen-address={self.address}", "--collector.disable-defaults",
             "--collector.cpu", "--collector.loadavg", "--collector.meminfo", "--collector.uname",
             "--collector.diskstats", "--collector.netdev"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)

    def stop(self) -> None:
        end(self.proc)
