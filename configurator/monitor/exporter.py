"""Prometheus exporter: a custom collector that reads the sampler's latest snapshot.

Base units (bytes, watts, hertz, seconds, ratios 0–1, degrees Celsius), labels
``gpu``, ``uuid``, ``name``, ``hostname``. The HTTP server binds to 127.0.0.1
unless told otherwise. Scraping never calls NVML: it only formats the snapshot
the sampler thread already took.

The HTTP server is our own (:class:`MetricsServer`): one thread and a selector, so an
idle connection costs a descriptor and a few bytes, not a thread. Every connection must
send its whole request within ``request_timeout_s`` or it is closed; at most
``max_connections`` are open at once (a new one pushes out the oldest that has not
finished its request); the listen backlog is a real server's; when ``accept`` runs out
of descriptors the server closes its oldest connection or stops accepting for a moment
rather than spin. It answers ``GET``/``HEAD`` for ``/metrics`` and ``/``; 404 otherwise.
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import selectors
import socket
import threading
import time
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder, gzip_accepted
from prometheus_client.registry import Collector, CollectorRegistry

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.monitor.snapshot import THROTTLE_REASONS, Snapshot

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 9400
GPU_LABELS = ["gpu", "uuid", "name", "hostname"]
REQUEST_TIMEOUT_S = 5.0  # to send the whole request (and, separately, to take each part of the answer)
MAX_CONNECTIONS = 64  # open at once; Prometheus needs one per scrape
BACKLOG = 128  # the listen queue, as a real server's (socketserver's default is 5)
MAX_REQUEST_BYTES = 8192  # request line and headers
ACCEPT_BACKOFF_S = 0.5  # no descriptor to accept with and none of ours to give back: wait this long


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
    """``node_name``: the ``hostname`` label on every series (None: the snapshot's host name, this
    host's), so several exporters on one machine can pose as several nodes of a cluster."""

    def __init__(self, latest: Callable[[], Snapshot | None], node_name: str | None = None):
        self.latest = latest
        self.node_name = node_name

    def describe(self) -> list[Metric]:  # no metrics at registration: don't sample for it
        return []

    def collect(self) -> Iterator[Metric]:
        s = self.latest()
        if s is None:
            return
        host = self.node_name or s.host.hostname
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


def exposure_warning(url: str, bound: str) -> Message | None:
    """The warning to show when the exporter listens on ``bound`` (an IP address) other than loopback."""
    try:
        if ipaddress.ip_address(bound.split("%", 1)[0]).is_loopback:
            return None
    except ValueError:
        pass
    return Message("monitor", QT_TRANSLATE_NOOP(
        "monitor", "Anyone who can reach {url} can read these metrics without a password: they name this host, "
                   "its GPUs and the processes using them (names and PIDs). Serve on 127.0.0.1 unless a firewall "
                   "or an authenticating proxy guards the port."), {"url": url})


_REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
            431: "Request Header Fields Too Large", 500: "Internal Server Error"}
_INDEX = (b"<!DOCTYPE html><html><head><meta charset='utf-8'><title>configurator exporter</title></head>"
          b"<body><h1>configurator exporter</h1><p><a href='/metrics'>/metrics</a></p></body></html>\n")


class _Connection:
    __slots__ = ("deadline", "opened", "out", "received", "sent", "sock")

    def __init__(self, sock: socket.socket, now: float, timeout_s: float):
        self.sock = sock
        self.opened = now
        self.deadline = now + timeout_s
        self.received = b""
        self.out: bytes | None = None  # the answer, once the request is complete
        self.sent = 0


class MetricsServer:
    """A small HTTP server for a registry; see the module docstring. ``start`` runs it on a thread."""

    def __init__(self, registry: CollectorRegistry, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
                 request_timeout_s: float = REQUEST_TIMEOUT_S, max_connections: int = MAX_CONNECTIONS,
                 backlog: int = BACKLOG):
        self.registry = registry
        self.request_timeout_s = request_timeout_s
        self.max_connections = max(1, max_connections)
        family, kind, proto, _name, sockaddr = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        listener = socket.socket(family, kind, proto)
        try:
            if hasattr(socket, "SO_REUSEADDR"):  # a restart right after a stop finds the port in TIME_WAIT
                listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(sockaddr)
            listener.listen(backlog)
            listener.setblocking(False)
        except OSError:
            listener.close()
            raise
        self._listener = listener
        bound = listener.getsockname()
        self.server_address: tuple[str, int] = (str(bound[0]), int(bound[1]))
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._conns: dict[int, _Connection] = {}
        self._sel = selectors.DefaultSelector()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.accept_backoffs = 0  # how often accept found no descriptor (for tests and diagnostics)

    @property
    def open_connections(self) -> int:
        return len(self._conns)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._serve, name="exporter-http", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        else:
            self._close_all()

    # -- the loop -------------------------------------------------------------------------------
    def _serve(self) -> None:
        sel = self._sel
        sel.register(self._wake_r, selectors.EVENT_READ, "wake")
        sel.register(self._listener, selectors.EVENT_READ, "listen")
        accept_paused_until: float | None = None
        try:
            while not self._stop.is_set():
                now = time.monotonic()
                if accept_paused_until is not None and now >= accept_paused_until:
                    sel.register(self._listener, selectors.EVENT_READ, "listen")
                    accept_paused_until = None
                wake_at = min((c.deadline for c in self._conns.values()), default=now + 1.0)
                if accept_paused_until is not None:
                    wake_at = min(wake_at, accept_paused_until)
                for key, events in sel.select(max(0.0, min(wake_at - now, 1.0))):
                    if key.data == "wake":
                        with contextlib.suppress(OSError):
                            self._wake_r.recv(64)
                    elif key.data == "listen":
                        if not self._accept():
                            sel.unregister(self._listener)
                            accept_paused_until = time.monotonic() + ACCEPT_BACKOFF_S
                            self.accept_backoffs += 1
                    else:
                        conn = self._conns.get(key.fd)
                        if conn is not None:
                            if events & selectors.EVENT_READ:
                                self._read(conn)
                            elif events & selectors.EVENT_WRITE:
                                self._write(conn)
                now = time.monotonic()
                for conn in [c for c in self._conns.values() if c.deadline <= now]:
                    self._close(conn)  # a request not sent in time, or an answer not taken
        finally:
            self._close_all()

    def _accept(self) -> bool:
        """Accept what is waiting; False when out of descriptors with none of ours to give back."""
        for _ in range(64):  # then let the other connections have a turn
            try:
                sock, _addr = self._listener.accept()
            except BlockingIOError:
                return True
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    if self._evict_oldest():
                        continue
                    return False
                if exc.errno in (errno.ECONNABORTED, errno.EPROTO, errno.EINTR):
                    continue
                raise
            if len(self._conns) >= self.max_connections and not self._evict_oldest():
                sock.close()  # every slot is busy answering: this one must try again
                continue
            sock.setblocking(False)
            conn = _Connection(sock, time.monotonic(), self.request_timeout_s)
            self._conns[sock.fileno()] = conn
            self._sel.register(sock, selectors.EVENT_READ, "conn")
        return True

    def _evict_oldest(self) -> bool:
        """Close the oldest connection still sending its request; False if there is none."""
        waiting = [c for c in self._conns.values() if c.out is None]
        if not waiting:
            return False
        self._close(min(waiting, key=lambda c: c.opened))
        return True

    def _read(self, conn: _Connection) -> None:
        try:
            data = conn.sock.recv(4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._close(conn)
            return
        conn.received += data
        end = conn.received.find(b"\r\n\r\n")
        if end < 0:
            end = conn.received.find(b"\n\n")
        if end < 0:
            if len(conn.received) > MAX_REQUEST_BYTES:
                self._answer(conn, 431, b"request too large\n", "text/plain; charset=utf-8")
            return
        self._respond(conn, conn.received[:end].decode("latin-1"))

    def _respond(self, conn: _Connection, head: str) -> None:
        lines = head.replace("\r\n", "\n").split("\n")
        parts = lines[0].split()
        if len(parts) != 3 or not parts[2].startswith("HTTP/"):
            self._answer(conn, 400, b"bad request\n", "text/plain; charset=utf-8")
            return
        method, target, _version = parts
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        head_only = method == "HEAD"
        if method not in ("GET", "HEAD"):
            self._answer(conn, 405, b"only GET and HEAD\n", "text/plain; charset=utf-8", allow="GET, HEAD")
            return
        url = urlsplit(target)
        if url.path == "/":
            self._answer(conn, 200, _INDEX, "text/html; charset=utf-8", head_only=head_only)
        elif url.path == "/metrics":
            try:
                encoder, content_type = choose_encoder(headers.get("accept", ""))
                body = encoder(self.registry)
            except Exception as exc:  # a broken collector must not end the server
                self._answer(conn, 500, f"{type(exc).__name__}: {exc}\n".encode(), "text/plain; charset=utf-8")
                return
            extra: dict[str, str] = {}
            if gzip_accepted(headers.get("accept-encoding", "")):
                import gzip

                body = gzip.compress(body)
                extra["content_encoding"] = "gzip"
            self._answer(conn, 200, body, content_type, head_only=head_only, **extra)
        else:
            self._answer(conn, 404, b"not found: try /metrics\n", "text/plain; charset=utf-8", head_only=head_only)

    def _answer(self, conn: _Connection, status: int, body: bytes, content_type: str, *, head_only: bool = False,
                **headers: str) -> None:
        lines = [f"HTTP/1.1 {status} {_REASONS.get(status, '')}", f"Content-Type: {content_type}",
                 f"Content-Length: {len(body)}", "Connection: close",
                 *(f"{k.replace('_', '-').title()}: {v}" for k, v in headers.items())]
        conn.out = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (b"" if head_only else body)
        conn.deadline = time.monotonic() + self.request_timeout_s
        self._sel.modify(conn.sock, selectors.EVENT_WRITE, "conn")
        self._write(conn)

    def _write(self, conn: _Connection) -> None:
        assert conn.out is not None
        try:
            n = conn.sock.send(memoryview(conn.out)[conn.sent:])
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._close(conn)
            return
        conn.sent += n
        conn.deadline = time.monotonic() + self.request_timeout_s  # each part of the answer has its own time
        if conn.sent >= len(conn.out):
            with contextlib.suppress(OSError):
                conn.sock.shutdown(socket.SHUT_WR)
            self._close(conn)

    def _close(self, conn: _Connection) -> None:
        fd = conn.sock.fileno()
        self._conns.pop(fd, None)
        with contextlib.suppress(KeyError, ValueError):
            self._sel.unregister(conn.sock)
        conn.sock.close()

    def _close_all(self) -> None:
        for conn in list(self._conns.values()):
            self._close(conn)
        for s in (self._listener, self._wake_r, self._wake_w):
            s.close()
        self._sel.close()


class Exporter:
    """The HTTP server for ``/metrics``; ``start`` raises OSError if the address is taken.

    After ``start``, ``warning`` is a message to show when the address is not loopback
    (the metrics are unauthenticated), else None. ``node_name`` sets the ``hostname`` label
    (default: this host's name); it can be changed later through :attr:`node_name`.
    """

    def __init__(self, latest: Callable[[], Snapshot | None], *, request_timeout_s: float = REQUEST_TIMEOUT_S,
                 max_connections: int = MAX_CONNECTIONS, node_name: str | None = None):
        self.registry = CollectorRegistry(auto_describe=False)
        self.collector = SnapshotCollector(latest, (node_name or "").strip() or None)
        self.registry.register(self.collector)
        self.request_timeout_s = request_timeout_s
        self.max_connections = max_connections
        self._server: MetricsServer | None = None
        self.address: tuple[str, int] | None = None
        self.warning: Message | None = None

    @property
    def running(self) -> bool:
        return self._server is not None

    @property
    def node_name(self) -> str | None:
        return self.collector.node_name

    @node_name.setter
    def node_name(self, name: str | None) -> None:
        self.collector.node_name = (name or "").strip() or None

    @property
    def server(self) -> MetricsServer | None:
        return self._server

    @property
    def url(self) -> str | None:
        if self.address is None:
            return None
        host, port = self.address
        return f"http://{f'[{host}]' if ':' in host else host}:{port}/metrics"

    def start(self, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> str:
        self.stop()
        server = MetricsServer(self.registry, host, port, request_timeout_s=self.request_timeout_s,
                               max_connections=self.max_connections)
        server.start()
        self._server = server
        self.address = (host, server.server_address[1])
        url = self.url or ""
        self.warning = exposure_warning(url, server.server_address[0])
        return url

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None
        self.address = None
        self.warning = None
