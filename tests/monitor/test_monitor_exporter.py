"""The exporter's own HTTP server under abuse: idle and half-sent connections, more sockets than descriptors.

The 1,100-connection test runs the exporter in a child process whose descriptor limit is 1,024 (as a
desktop session's often is) and opens the sockets from this process.
"""

from __future__ import annotations

import contextlib
import os
import resource
import select
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from prometheus_client.parser import text_string_to_metric_families

from configurator.monitor import fake_nvml
from configurator.monitor.exporter import Exporter, exposure_warning
from configurator.monitor.fake_nvml import FakeNvml
from configurator.monitor.nvml import NvmlBackend
from configurator.monitor.service import MonitorService
from configurator.monitor.snapshot import Snapshot

ROOT = Path(__file__).resolve().parents[2]
IDLE = 1100

CHILD = r"""
import resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))
from configurator.monitor import fake_nvml
from configurator.monitor.exporter import Exporter
from configurator.monitor.fake_nvml import FakeNvml
from configurator.monitor.nvml import NvmlBackend
from configurator.monitor.service import MonitorService
service = MonitorService(NvmlBackend(FakeNvml(fake_nvml.several(2))))
snap = service.sampler.sample_once()
service.stop()
exporter = Exporter(lambda: snap, max_connections=int(sys.argv[1]))
exporter.start("127.0.0.1", 0)
print(exporter.address[1], flush=True)
sys.stdin.read()  # until the test closes our stdin
backoffs = exporter.server.accept_backoffs
exporter.stop()
print("backoffs", backoffs, flush=True)
"""


@pytest.fixture
def snapshot() -> Snapshot:
    service = MonitorService(NvmlBackend(FakeNvml(fake_nvml.several(2))))
    try:
        return service.sampler.sample_once()
    finally:
        service.stop()


@pytest.fixture
def exporter(snapshot: Snapshot) -> Iterator[Exporter]:
    exp = Exporter(lambda: snapshot, request_timeout_s=0.5, max_connections=4)
    exp.start("127.0.0.1", 0)
    yield exp
    exp.stop()


@contextlib.contextmanager
def soft_nofile(at_least: int) -> Iterator[None]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < at_least:
        pytest.skip(f"this test needs {at_least} descriptors; the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, at_least), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def get(url: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def closed_by_server(sock: socket.socket, within_s: float) -> float:
    """Seconds until the server closed ``sock`` (reading EOF), failing after ``within_s``."""
    start = time.monotonic()
    sock.settimeout(within_s)
    with contextlib.suppress(ConnectionResetError):  # reset: closed before it was accepted
        while sock.recv(4096):
            pass
    return time.monotonic() - start


def check_metrics(text: str) -> dict[str, list]:  # type: ignore[type-arg]
    out: dict[str, list] = {}  # type: ignore[type-arg]
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            out.setdefault(s.name, []).append(s)
    promtool = shutil.which("promtool")
    if promtool:  # not installed here: the parser above is the check then
        done = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True, text=True,
                              timeout=30)
        assert done.returncode == 0, done.stdout + done.stderr
    return out


@pytest.mark.parametrize("max_connections", [64, 4096], ids=["capped", "cap-above-the-descriptor-limit"])
def test_1100_idle_connections_under_1024_descriptors_and_a_scrape_still_answers(max_connections: int) -> None:
    """With the default cap the server never nears its limit; with a cap above it, accept meets EMFILE
    and must give back its oldest idle connection instead of spinning (the old server: 100 % CPU)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(max_connections)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    socks: list[socket.socket] = []
    try:
        assert child.stdout is not None and child.stdin is not None
        port = int(child.stdout.readline())
        with soft_nofile(IDLE + 400):
            try:
                for _ in range(IDLE):
                    socks.append(socket.create_connection(("127.0.0.1", port), timeout=5))
                proc = psutil.Process(child.pid)
                fds = proc.num_fds()
                start = time.monotonic()
                status, headers, body = get(f"http://127.0.0.1:{port}/metrics")
                took = time.monotonic() - start
                assert status == 200 and headers["Content-Type"].startswith("text/plain")
                m = check_metrics(body.decode())
                assert {s.labels["gpu"] for s in m["configurator_gpu_up"]} == {"0", "1"}
                assert took < 3, f"the scrape took {took:.2f} s"

                before = proc.cpu_times()
                with pytest.raises(psutil.TimeoutExpired):
                    proc.wait(timeout=2)  # it must stay up, and idle
                after = proc.cpu_times()
                cpu = (after.user - before.user) + (after.system - before.system)
                assert cpu < 0.3, f"the exporter used {cpu:.2f} s of CPU in 2 s with {IDLE} idle sockets"
                assert fds <= 1024
                if max_connections == 64:
                    assert fds < 100, f"{fds} descriptors open"
                print(f"\n[{max_connections}] {IDLE} idle sockets: child fds {fds}, scrape {took * 1000:.0f} ms, "
                      f"CPU {cpu * 1000:.0f} ms in 2 s")
            finally:
                for s in socks:
                    s.close()
        out, _ = child.communicate("", timeout=20)
        assert child.returncode == 0
        backoffs = int(out.split()[-1])
        assert backoffs <= 4  # it gave back connections instead of pausing (or spinning)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_an_idle_and_a_half_sent_request_are_closed_after_the_timeout(exporter: Exporter) -> None:
    assert exporter.address is not None
    idle = socket.create_connection(exporter.address, timeout=5)
    half = socket.create_connection(exporter.address, timeout=5)
    with idle, half:
        half.sendall(b"GET /metr")
        took_idle = closed_by_server(idle, 5)
        took_half = closed_by_server(half, 5)
    assert 0.3 < took_idle < 2.5 and took_half < 2.5, (took_idle, took_half)
    status, _, _ = get(exporter.url or "")
    assert status == 200


def test_a_request_trickled_a_byte_at_a_time_is_closed_at_its_deadline(exporter: Exporter) -> None:
    assert exporter.address is not None
    sock = socket.create_connection(exporter.address, timeout=5)
    start = time.monotonic()
    with sock:
        for byte in b"GET /metrics HTTP/1.1\r\nHost: x\r\n" * 40:
            readable, _, _ = select.select([sock], [], [], 0.05)  # wait for the server, not a clock
            if readable:
                assert sock.recv(100) == b""
                break
            try:
                sock.send(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                break
        else:
            pytest.fail("the server kept a trickled request open")
    assert time.monotonic() - start < 2.5


def test_more_connections_than_the_cap_push_out_the_oldest_idle_one(exporter: Exporter) -> None:
    assert exporter.address is not None and exporter.server is not None
    socks = [socket.create_connection(exporter.address, timeout=5) for _ in range(10)]
    try:
        status, _, body = get(exporter.url or "")
        assert status == 200 and b"configurator_gpu_up" in body
        assert exporter.server.open_connections <= 4
        assert closed_by_server(socks[0], 2) < 2  # the first, pushed out long before its timeout
    finally:
        for s in socks:
            s.close()


def test_routes_head_and_errors(exporter: Exporter) -> None:
    assert exporter.address is not None
    host, port = exporter.address
    base = f"http://{host}:{port}"
    status, headers, body = get(base + "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html") and b"/metrics" in body
    status, headers, body = get(base + "/metrics", method="HEAD")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) > 1000
    assert get(base + "/nothing-here")[0] == 404
    assert get(base + "/metrics", method="POST")[0] == 405
    assert get(base + "/metrics?x=1")[0] == 200
    with socket.create_connection(exporter.address, timeout=5) as sock:
        sock.sendall(b"NONSENSE\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.1 400 ")
    with socket.create_connection(exporter.address, timeout=5) as sock:
        sock.sendall(b"GET /" + b"x" * 10000)
        assert sock.recv(100).startswith(b"HTTP/1.1 431 ")


def test_gzip_when_asked(exporter: Exporter) -> None:
    import gzip

    req = urllib.request.Request(exporter.url or "", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req, timeout=5) as resp:
        assert resp.headers["Content-Encoding"] == "gzip"
        assert b"configurator_gpu_up" in gzip.decompress(resp.read())


def test_a_restart_on_the_same_port_and_stop_closes_everything(snapshot: Snapshot) -> None:
    exp = Exporter(lambda: snapshot)
    try:
        exp.start("127.0.0.1", 0)
        assert exp.address is not None
        port = exp.address[1]
        idle = socket.create_connection(exp.address, timeout=5)
        exp.stop()
        with idle:
            assert closed_by_server(idle, 2) < 2
        exp.start("127.0.0.1", port)  # no "address in use" after a stop
        assert get(exp.url or "")[0] == 200
    finally:
        exp.stop()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_warning_for_a_non_loopback_address(exporter: Exporter) -> None:
    assert exporter.warning is None  # 127.0.0.1
    assert exposure_warning("http://[::1]:9400/metrics", "::1") is None
    for bound in ("0.0.0.0", "::", "192.168.1.20"):
        msg = exposure_warning("http://x:9400/metrics", bound)
        assert msg is not None and msg.context == "monitor"
        text = msg.render()
        assert "http://x:9400/metrics" in text and "PIDs" in text and "password" in text
