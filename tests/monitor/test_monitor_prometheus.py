"""The Prometheus API client's errors, the alerting rules file and the dashboard's cluster row (no server needed)."""

from __future__ import annotations

import json
import socket
import subprocess
import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest

from benchmarks.demo_cluster import (
    INSTALL_PROMETHEUS,
    MissingTool,
    PrometheusServer,
    StaticPages,
    find_tool,
    free_port,
)
from configurator.monitor.cluster import choose_step
from configurator.monitor.prometheus import (
    BadUrlError,
    NotPrometheusError,
    PrometheusClient,
    QueryFailedError,
    QueryTimeoutError,
    UnreachableError,
    normalise_server_url,
)
from configurator.paths import RESOURCES_DIR

RULES = RESOURCES_DIR / "prometheus" / "configurator-alerts.yml"
DASHBOARD = RESOURCES_DIR / "grafana" / "configurator-dashboard.json"


@pytest.mark.parametrize(("text", "url"), [
    ("prom:9090", "http://prom:9090"),
    ("prom", "http://prom:9090"),
    ("http://prom:9090/", "http://prom:9090"),
    ("http://prom:9090/graph", "http://prom:9090"),
    ("https://gw.example/prometheus/api/v1/query", "https://gw.example/prometheus"),
    ("http://[::1]:9090", "http://[::1]:9090"),
])
def test_server_urls(text: str, url: str) -> None:
    assert normalise_server_url(text) == url


@pytest.mark.parametrize("text", ["", "  ", "ftp://prom/", "http://:9090", "http://prom:port/"])
def test_bad_server_urls_are_one_clear_line(text: str) -> None:
    with pytest.raises(BadUrlError) as err:
        PrometheusClient(text)
    line = err.value.message.render()
    assert line and "\n" not in line and err.value.kind == "bad_url"


def test_unreachable_port() -> None:
    client = PrometheusClient(f"127.0.0.1:{free_port()}", timeout_s=2)  # nothing listens there
    t0 = time.monotonic()
    with pytest.raises(UnreachableError, match="cannot reach"):
        client.query("up")
    assert time.monotonic() - t0 < 2


@pytest.fixture
def silent_server() -> Iterator[int]:
    """Accepts connections (the kernel does, from the backlog) and never answers a byte."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    yield sock.getsockname()[1]
    sock.close()


def test_a_server_that_never_answers_times_out(silent_server: int) -> None:
    client = PrometheusClient(f"127.0.0.1:{silent_server}", timeout_s=0.5)
    t0 = time.monotonic()
    with pytest.raises(QueryTimeoutError, match=r"did not answer within 0\.5 s"):
        client.query("up")
    assert time.monotonic() - t0 < 2


def test_a_server_that_trickles_is_cut_at_the_deadline() -> None:
    """One byte every 0.2 s keeps each read under the socket timeout; the deadline still ends it."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(4)
    stop = threading.Event()

    def serve() -> None:
        conn, _ = sock.accept()
        conn.recv(4096)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
        while not stop.wait(0.2):
            try:
                conn.sendall(b" ")
            except OSError:
                break
        conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    client = PrometheusClient(f"127.0.0.1:{sock.getsockname()[1]}", timeout_s=1.0)
    t0 = time.monotonic()
    try:
        with pytest.raises(QueryTimeoutError):
            client.query("up")
        assert time.monotonic() - t0 < 2.5
    finally:
        stop.set()
        thread.join(5)
        sock.close()


@pytest.mark.parametrize(("ctype", "body", "status", "match"), [
    ("text/html; charset=utf-8", "<!DOCTYPE html><html><body>Grafana</body></html>", 200, "with HTML"),
    ("text/html", "<html><body>502 Bad Gateway</body></html>", 502, "HTTP 502 with HTML"),
    ("text/plain", "hello", 200, "not the API's JSON"),
    ("application/json", '{"foo": 1}', 200, "not the API's JSON"),
    ("application/json", '{"status": "success", "data": {"resultType": "matrix", "result": []}}', 200,
     "not Prometheus's query result"),
])
def test_not_a_prometheus_server(ctype: str, body: str, status: int, match: str) -> None:
    pages = StaticPages({"*": (ctype, body)}, status=status)
    try:
        with pytest.raises(NotPrometheusError, match=match) as err:
            PrometheusClient(pages.address, timeout_s=2).query("up")
        assert "\n" not in err.value.message.render()
    finally:
        pages.stop()


def test_a_prometheus_error_response_is_its_one_line() -> None:
    body = json.dumps({"status": "error", "errorType": "bad_data",
                       "error": "invalid parameter \"query\": 1:5: parse error: unclosed left parenthesis\nmore"})
    pages = StaticPages({"/api/v1/query": ("application/json", body)}, status=400)
    try:
        with pytest.raises(QueryFailedError, match=r"refused the query \(bad_data\): invalid parameter") as err:
            PrometheusClient(pages.address, timeout_s=2).query("sum(")
        assert "\n" not in err.value.message.render()
    finally:
        pages.stop()


def test_the_servers_own_query_timeout() -> None:
    body = json.dumps({"status": "error", "errorType": "timeout", "error": "query timed out in expression evaluation"})
    pages = StaticPages({"/api/v1/query": ("application/json", body)}, status=503)
    try:
        with pytest.raises(QueryTimeoutError, match="gave up the query"):
            PrometheusClient(pages.address, timeout_s=2).query("up")
    finally:
        pages.stop()


def test_range_results_keep_gaps_as_nan() -> None:
    body = json.dumps({"status": "success", "data": {"resultType": "matrix", "result": [
        {"metric": {"gpu": "0"}, "values": [[100, "50"], [102, "NaN"], [103, "60"]]}]}})
    pages = StaticPages({"/api/v1/query_range": ("application/json", body)})
    try:
        (s,) = PrometheusClient(pages.address, timeout_s=2).query_range("x", 100, 103, 1)
    finally:
        pages.stop()
    assert s.labels == {"gpu": "0"} and list(s.times) == [100, 102, 103]
    assert s.values[0] == 50 and np.isnan(s.values[1]) and s.values[2] == 60


@pytest.mark.parametrize(("window", "step"), [(60, 1), (300, 2), (3600, 15), (6 * 3600, 120), (86400, 600)])
def test_step_from_the_window(window: float, step: float) -> None:
    assert choose_step(window) == step
    assert window / step <= 240


def test_alerting_rules_pass_promtool() -> None:
    promtool = find_tool("promtool", INSTALL_PROMETHEUS)
    done = subprocess.run([promtool, "check", "rules", str(RULES)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS: 11 rules found" in done.stdout


def test_dashboard_structure_and_cluster_row() -> None:
    dash = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    panels = dash["panels"]
    ids = [p["id"] for p in panels]
    assert len(ids) == len(set(ids)), "panel ids must be unique"
    cells: set[tuple[int, int]] = set()
    for p in panels:
        g = p["gridPos"]
        assert g["x"] >= 0 and g["x"] + g["w"] <= 24 and g["h"] >= 1, p["title"]
        mine = {(x, y) for x in range(g["x"], g["x"] + g["w"]) for y in range(g["y"], g["y"] + g["h"])}
        assert not mine & cells, f"{p['title']!r} overlaps another panel"
        cells |= mine
        if p["type"] == "row":
            continue
        assert p["datasource"] == {"type": "prometheus", "uid": "${datasource}"}
        assert p["targets"] and all(t["expr"].strip() and t["refId"] for t in p["targets"])
        assert len({t["refId"] for t in p["targets"]}) == len(p["targets"])
    (row,) = [p for p in panels if p["type"] == "row"]
    below = [p for p in panels if p["gridPos"]["y"] > row["gridPos"]["y"]]
    exprs = " ".join(t["expr"] for p in below for t in p["targets"])
    assert "by (node)" in exprs and "by (hpc_job)" in exprs and "by (namespace, pod)" in exprs
    assert "DCGM_FI_DEV_GPU_UTIL" in exprs and "configurator_gpu_utilization_ratio" in exprs
    assert "node_cpu_seconds_total" in exprs


def test_the_exporters_hostname_label_is_settable() -> None:
    import re

    from prometheus_client import generate_latest

    from configurator.monitor import fake_nvml
    from configurator.monitor.fake_nvml import FakeNvml
    from configurator.monitor.nvml import NvmlBackend
    from configurator.monitor.service import MonitorService

    service = MonitorService(NvmlBackend(FakeNvml(fake_nvml.several(1))), node_name="gpu-node-7")
    try:
        snap = service.sampler.sample_once()

        def hostnames() -> set[str]:
            return set(re.findall(r'hostname="([^"]*)"', generate_latest(service.exporter.registry).decode()))

        assert hostnames() == {"gpu-node-7"}
        service.exporter.node_name = "  "  # blank: back to this host's name
        assert service.exporter.node_name is None and hostnames() == {snap.host.hostname} == {socket.gethostname()}
    finally:
        service.stop()


def test_without_prometheus_the_cluster_tests_fail_with_the_command_that_installs_it() -> None:
    """The integration tests start Prometheus through PrometheusServer.start: where the program is missing,
    they fail (an error, never a skip) saying how to install it."""
    with pytest.raises(MissingTool) as err:
        PrometheusServer({"configurator": ["127.0.0.1:1"]}, binary="prometheus-that-is-not-installed").start()
    assert str(err.value) == ("prometheus-that-is-not-installed is not installed; install it with: "
                              "apt-get install prometheus")
    assert not isinstance(err.value, pytest.skip.Exception)


POD_RULES_TEST = """
rule_files: [{rules}]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      # scraped through a ServiceMonitor (honorLabels false): the workload's pod renamed exported_pod, pod is
      # the exporter's own; the node's other GPU is idle and only the exporter's pod names it
      - series: 'DCGM_FI_DEV_GPU_UTIL{{Hostname="n1",gpu="0",namespace="gpu-operator",pod="nvidia-dcgm-exporter-a",
          exported_namespace="team-a",exported_pod="bert-0"}}'
        values: '20x10'
      - series: 'DCGM_FI_DEV_GPU_UTIL{{Hostname="n1",gpu="1",namespace="gpu-operator",pod="nvidia-dcgm-exporter-a"}}'
        values: '0x10'
      # DCGM exporter's own pod labels (honorLabels true)
      - series: 'DCGM_FI_DEV_GPU_UTIL{{Hostname="n2",gpu="0",namespace="team-b",pod="gpt-0"}}'
        values: '90x10'
      - series: 'DCGM_FI_DEV_GPU_UTIL{{Hostname="n2",gpu="1",namespace="team-b",pod="gpt-0"}}'
        values: '30x10'
    alert_rule_test:
      - eval_time: 8m
        alertname: PodGpusUnderUsed
        exp_alerts:
          - exp_labels: {{namespace: team-a, pod: bert-0, rule_id: GPU-6, severity: warning}}
            exp_annotations:
              source: "M 1.1"
              summary: "Pod team-a/bert-0: every GPU under 70 % busy"
              description: "All GPUs of pod team-a/bert-0 have stayed under 70 % utilisation for 5 minutes."
      - eval_time: 8m
        alertname: PodGpusOutOfStep
        exp_alerts:
          - exp_labels: {{namespace: team-b, pod: gpt-0, rule_id: DIST-1, severity: warning}}
            exp_annotations:
              source: "G 六.2"
              summary: "Pod team-b/gpt-0: GPUs out of step"
              description: "The GPUs of pod team-b/gpt-0 differ by 60 points of utilisation (5-minute means)."
"""


def test_pod_rules_name_the_workloads_pod_never_the_exporters(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """promtool's own rule tests: GPU-6 and DIST-1 per pod, with DCGM exporter's pod labels as they are and as
    the Prometheus Operator renames them; an idle GPU under the exporter's own pod raises nothing."""
    promtool = find_tool("promtool", INSTALL_PROMETHEUS)
    spec = tmp_path / "pods.yml"
    spec.write_text(POD_RULES_TEST.format(rules=json.dumps(str(RULES))), encoding="utf-8")
    done = subprocess.run([promtool, "test", "rules", str(spec)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
