"""A cluster through a real Prometheus server: this app's exporters on fake GPUs posing as nodes, pages
shaped like DCGM exporter's (Slurm and Kubernetes labels), node_exporter, and the client against them.

Prometheus (Debian's ``prometheus``) and node_exporter (``prometheus-node-exporter``) must be installed:
without them these tests fail with the command that installs them.
"""

from __future__ import annotations

import json
import math
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from waiting import wait_until

from benchmarks.demo_cluster import (
    DcgmGpu,
    NodeExporter,
    PrometheusServer,
    StaticPages,
    dcgm_page,
    fake_node,
    free_port,
)
from configurator.monitor import fake_nvml
from configurator.monitor.alerts import Thresholds
from configurator.monitor.cluster import ClusterSnapshot, PrometheusCluster, cluster_to_dict
from configurator.monitor.prometheus import (
    NoDataError,
    NotPrometheusError,
    PrometheusClient,
    QueryFailedError,
    QueryTimeoutError,
    UnreachableError,
)
from configurator.monitor.snapshot import gpu_to_dict, host_to_dict
from configurator.paths import RESOURCES_DIR

WINDOW_S = 3.0  # GPU-6's and DIST-1's windows here (the monitor's default is 30 s)
TH = Thresholds(util_sustain_s=WINDOW_S, spread_sustain_s=WINDOW_S)
PAGE = "text/plain; version=0.0.4; charset=utf-8"


@dataclass
class Stack:
    server: PrometheusServer
    nodes: list[Any]
    cluster: PrometheusCluster
    snap: ClusterSnapshot
    doc: dict[str, Any]


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    # node-a: 2 healthy fake GPUs; node-b: 2 fake GPUs, one without power readings and one lost.
    scenario = fake_nvml.several(3)
    scenario.gpus[1].unsupported |= {"nvmlDeviceGetPowerUsage", "nvmlDeviceGetEnforcedPowerLimit"}
    nodes = [fake_node("node-a", 2), fake_node("node-b", scenario=scenario)]
    nodes[1].fake.lose(2)
    pages = [
        # Slurm job 4242 spans dgx-1 and dgx-2; dgx-2's GPU 1 lags (DIST-1). Job 5151 idles (GPU-6).
        StaticPages({"/metrics": (PAGE, dcgm_page("dgx-1", [DcgmGpu(95, job="4242"), DcgmGpu(93, job="4242")]))}),
        StaticPages({"/metrics": (PAGE, dcgm_page("dgx-2", [
            DcgmGpu(91, job="4242", power=None, profiling=False), DcgmGpu(35, job="4242", power=None, profiling=False),
            DcgmGpu(20, job="5151", profiling=False), DcgmGpu(25, job="5151", profiling=False)]))}),
        # Kubernetes: one pod with two A100s, no Slurm
        StaticPages({"/metrics": (PAGE, dcgm_page("k8s-gpu-1", [
            DcgmGpu(80, model="NVIDIA A100-SXM4-80GB", namespace="team-a", pod="bert-0"),
            DcgmGpu(82, model="NVIDIA A100-SXM4-80GB", namespace="team-a", pod="bert-0")]))}),
    ]
    node_exporter = NodeExporter()
    server = PrometheusServer(
        {"configurator": [n.exporter.url.split("/")[2] for n in nodes], "dcgm": [p.address for p in pages],
         "node": [node_exporter.address]},
        rule_files=[RESOURCES_DIR / "prometheus" / "configurator-alerts.yml"],
        # this machine's node_exporter poses as dgx-1's
        relabel={"node": [{"source_labels": ["nodename"], "regex": ".+", "target_label": "nodename",
                           "replacement": "dgx-1"}]})
    try:
        server.start()
        # every target scraped for longer than the judgement windows (a series younger than the window
        # is not judged), then until the judgement shows
        server.wait_for_targets(timeout_s=45, scrapes=int(WINDOW_S) + 2)
        cluster = PrometheusCluster(server.url, timeout_s=5, thresholds=TH)
        snap = wait_until(cluster.snapshot,
                          lambda s: len(s.jobs) >= 5 and all(j.alerts for j in s.jobs if j.name in ("4242", "5151")),
                          timeout_s=30, what="the jobs judged")
        yield Stack(server, nodes, cluster, snap, json.loads(json.dumps(cluster_to_dict(snap), allow_nan=False)))
    finally:
        server.stop()
        node_exporter.stop()
        for p in pages:
            p.stop()
        for n in nodes:
            n.stop()


def node(doc: dict[str, Any], hostname: str) -> dict[str, Any]:
    return next(n for n in doc["nodes"] if n["hostname"] == hostname)


def test_nodes_and_gpus_are_found(stack: Stack) -> None:
    doc = stack.doc
    assert set(doc) == {"time", "source", "nodes", "jobs"} and doc["source"] == stack.server.url
    assert [n["hostname"] for n in doc["nodes"]] == ["dgx-1", "dgx-2", "k8s-gpu-1", "node-a", "node-b"]
    assert [len(n["gpus"]) for n in doc["nodes"]] == [2, 4, 2, 2, 3]
    dgx1 = node(doc, "dgx-1")
    assert dgx1["exporters"] == ["dcgm", "node"]
    g = dgx1["gpus"][0]
    assert (g["name"], g["utilization_gpu_percent"], g["power_w"], g["temperature_c"]) == (
        "NVIDIA H100 80GB HBM3", 95.0, 450.0, 55.0)
    assert g["memory_used_bytes"] == 40000 * 1024**2 and g["memory_total_bytes"] == 81559 * 1024**2
    assert g["uuid"].startswith("GPU-") and g["tensor_active_percent"] == pytest.approx(38.0)
    a0 = node(doc, "node-a")["gpus"][0]
    assert a0["name"] == "NVIDIA GeForce RTX 4090" and 0 < a0["utilization_gpu_percent"] <= 100
    assert a0["memory_total_bytes"] == 24 * 1024**3 and a0["exporters"] == ["configurator"]
    assert a0["throttle_reasons"] == [] and g["throttle_reasons"] == []  # reported, none active (not n/a)


def test_same_field_names_as_the_local_json(stack: Stack) -> None:
    local = stack.nodes[0].sampler.latest
    gpu_keys, host_keys = set(gpu_to_dict(local.gpus[0])), set(host_to_dict(local.host))
    for n in stack.doc["nodes"]:
        assert set(n["host"]) == host_keys
        for g in n["gpus"]:
            assert gpu_keys <= set(g), gpu_keys - set(g)


def test_a_metric_a_node_does_not_export_is_null_not_zero(stack: Stack) -> None:
    dgx2 = node(stack.doc, "dgx-2")
    assert [g["power_w"] for g in dgx2["gpus"]] == [None, None, 450.0, 450.0]
    assert all(g["tensor_active_percent"] is None for g in dgx2["gpus"])  # profiling is off there
    assert dgx2["host"]["cpu_percent"] is None and dgx2["host"]["memory_total_bytes"] is None  # no node_exporter
    b1 = node(stack.doc, "node-b")["gpus"][1]
    assert b1["power_w"] is None and b1["power_limit_w"] is None and b1["temperature_c"] is not None
    assert node(stack.doc, "node-a")["gpus"][0]["tensor_active_percent"] is None  # not from our exporter


def test_host_from_node_exporter(stack: Stack) -> None:
    host = node(stack.doc, "dgx-1")["host"]
    assert host["hostname"] == "dgx-1"
    assert host["cpu_percent"] is not None and 0 <= host["cpu_percent"] <= 100
    assert host["iowait_percent"] is not None and 0 <= host["iowait_percent"] <= 100
    assert host["memory_total_bytes"] > host["memory_used_bytes"] > 0 and host["load_1m"] is not None


def test_a_lost_gpu(stack: Stack) -> None:
    lost = node(stack.doc, "node-b")["gpus"][2]
    assert lost["lost"] is True and lost["utilization_gpu_percent"] is None
    assert not any(g["lost"] for n in stack.doc["nodes"] for g in n["gpus"] if g is not lost)


def test_jobs_are_grouped_across_nodes(stack: Stack) -> None:
    jobs = {j["id"]: j for j in stack.doc["jobs"]}
    assert set(jobs) == {"slurm:4242", "slurm:5151", "k8s:team-a/bert-0", "proc:node-a:python train.py",
                         "proc:node-b:python train.py"}
    j = jobs["slurm:4242"]
    assert (j["kind"], j["name"], j["label"], j["nodes"]) == ("slurm", "4242", "hpc_job", ["dgx-1", "dgx-2"])
    assert [(g["hostname"], g["id"]) for g in j["gpus"]] == [("dgx-1", "0"), ("dgx-1", "1"), ("dgx-2", "0"),
                                                             ("dgx-2", "1")]
    assert j["utilization_gpu_percent_min"] == 35.0 and j["utilization_gpu_percent_max"] == 95.0
    k = jobs["k8s:team-a/bert-0"]
    assert (k["kind"], k["label"], len(k["gpus"])) == ("kubernetes", "pod", 2)
    assert len(jobs["proc:node-b:python train.py"]["gpus"]) == 2  # the lost GPU is in no job
    assert node(stack.doc, "dgx-2")["gpus"][2]["job"] == "slurm:5151"


def test_pods_through_the_prometheus_operator_and_the_exporters_own_pod() -> None:
    """Scraped through a ServiceMonitor (honorLabels false), DCGM exporter's pod labels come back as
    exported_pod/exported_namespace and pod/namespace name the exporter's own pod: the GPU's job is the
    workload's pod, and an idle GPU (only the exporter's pod) is in no job."""
    from configurator.monitor.cluster.metrics import read_nodes
    from configurator.monitor.prometheus import Sample

    target = {"Hostname": "k8s-gpu-2", "modelName": "NVIDIA A100-SXM4-80GB", "namespace": "gpu-operator",
              "pod": "nvidia-dcgm-exporter-x7k2p", "container": "nvidia-dcgm-exporter",
              "service": "nvidia-dcgm-exporter"}
    busy = {**target, "__name__": "DCGM_FI_DEV_GPU_UTIL", "gpu": "0", "UUID": "GPU-0", "exported_pod": "bert-1",
            "exported_namespace": "team-a", "exported_container": "trainer"}
    idle = {**target, "__name__": "DCGM_FI_DEV_GPU_UTIL", "gpu": "1", "UUID": "GPU-1"}
    helm = {"__name__": "DCGM_FI_DEV_GPU_UTIL", "Hostname": "k8s-gpu-3", "gpu": "0", "UUID": "GPU-2",
            "namespace": "monitoring", "pod": "dcgm-exporter-6ldbb"}  # the Helm chart's exporter, honorLabels true
    nodes, _keys, info = read_nodes([Sample(busy, 90.0), Sample(idle, 0.0), Sample(helm, 0.0)], [])
    gpus = {(g.hostname, g.id): g.job for n in nodes for g in n.gpus}
    assert gpus == {("k8s-gpu-2", "0"): "k8s:team-a/bert-1", ("k8s-gpu-2", "1"): None, ("k8s-gpu-3", "0"): None}
    assert info == {"k8s:team-a/bert-1": ("kubernetes", "team-a/bert-1", "exported_pod")}


def test_dist1_and_gpu6_are_judged_per_job(stack: Stack) -> None:
    jobs = {j["id"]: j for j in stack.doc["jobs"]}
    (dist,) = jobs["slurm:4242"]["alerts"]
    assert dist["rule"] == "DIST-1" and dist["source"] == "G 六.2"
    assert "differ by 60 points" in dist["message"] and "GPU 1 on dgx-2 averages 35 %" in dist["message"]
    (low,) = jobs["slurm:5151"]["alerts"]
    assert low["rule"] == "GPU-6" and "All 2 GPUs of job 5151" in low["message"]
    assert "no host metrics for dgx-2" in low["message"]  # no node_exporter there to judge from
    assert jobs["k8s:team-a/bert-0"]["alerts"] == []  # 80 % and 82 %: neither rule
    # the fake GPUs swing around 80-88 % and stay within 30 points of each other
    assert all(a["rule"] != "GPU-6" for j in jobs.values() if j["kind"] == "process" for a in j["alerts"])


def test_history_for_the_heat_map(stack: Stack) -> None:
    h = stack.cluster.history(20.0)
    assert h.step_s == 1.0 and len(h.times) == 21
    assert h.hostnames == ("dgx-1", "dgx-2", "k8s-gpu-1", "node-a", "node-b")
    assert h.values.shape == (5, 4, 21)  # nodes × the widest node's GPUs × time
    assert h.gpu_ids[1] == ("0", "1", "2", "3") and h.gpu_ids[4] == ("0", "1")  # node-b's lost GPU reports none
    assert np.isnan(h.values[0, 2:]).all()  # dgx-1 has only two GPUs: padding
    assert np.nanmax(h.values[1, 1]) == 35.0
    recent = h.values[:, :, -3:]
    assert np.isfinite(recent[1]).all() and np.isfinite(recent[3, :2]).all()
    assert np.isnan(h.values[0, 0, 0])  # 20 s ago the server had not scraped dgx-1 yet (n/a, not 0)
    labels, rows = h.rows()
    assert len(labels) == rows.shape[0] == 2 + 4 + 2 + 2 + 2 and labels[0] == ("dgx-1", "0")


def test_a_nodes_vram_and_host_lines_for_its_drill_down(stack: Stack) -> None:
    end = time.time()
    h = stack.cluster.history(20.0, end=end)
    times, lines = stack.cluster.node_series("dgx-1", 20.0, end=end)
    assert np.array_equal(times, h.times)  # the heat map's steps: one ring row per step
    # DCGM's framebuffer (40000 MiB used of 81559) and node_exporter's CPU, found through node_uname_info
    assert set(lines) == {"gpu0.mem", "gpu1.mem", "host.cpu", "host.iowait", "host.mem"}
    assert np.nanmax(lines["gpu0.mem"]) == pytest.approx(100 * 40000 / 81559)
    assert np.isfinite(lines["host.cpu"][-3:]).any() and np.isnan(lines["gpu0.mem"][0])
    _t, ours = stack.cluster.node_series("node-b", 20.0, end=end)  # this app's exporter
    assert {"gpu0.mem", "gpu1.mem", "host.cpu", "host.mem"} <= set(ours)
    _t, k8s = stack.cluster.node_series("k8s-gpu-1", 20.0, end=end)  # DCGM only: no host lines, not zeros
    assert set(k8s) == {"gpu0.mem", "gpu1.mem"}


def test_the_alerting_rules_evaluate_on_the_real_server(stack: Stack) -> None:
    rules = json.loads(stack.server.get("/api/v1/rules") or b"{}")["data"]["groups"]
    flat = [r for g in rules for r in g["rules"]]
    assert len(flat) == 11 and all(r["health"] == "ok" for r in flat), [r.get("lastError") for r in flat]
    assert {r["labels"]["rule_id"] for r in flat} == {"GPU-6", "DIST-1", "OOM-1", "MON-1", "PWR-2"}

    def alerts() -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for a in stack.server.query("ALERTS"):
            m = a["metric"]
            out.setdefault(m["alertname"], set()).add(m.get("hpc_job") or m.get("pod") or m.get("hostname", ""))
        return out

    stack.server.wait(lambda: {"JobGpusUnderUsed", "JobGpusOutOfStep", "GpuLost"} <= set(alerts()), 15,
                      "the alerting rules did not raise their alerts")
    got = alerts()
    assert got["JobGpusUnderUsed"] == {"5151"} and got["JobGpusOutOfStep"] == {"4242"}
    assert got["GpuLost"] == {"node-b"} and "PodGpusUnderUsed" not in got


def test_every_dashboard_query_runs_on_the_real_server(stack: Stack) -> None:
    dash = json.loads((RESOURCES_DIR / "grafana" / "configurator-dashboard.json").read_text(encoding="utf-8"))
    client = PrometheusClient(stack.server.url, timeout_s=5)
    cluster_rows = 0
    for p in dash["panels"]:
        for t in p.get("targets", []):
            expr = (t["expr"].replace("$hostname", ".*").replace("$gpu", ".*").replace("$__rate_interval", "1m"))
            result = client.query(expr)  # raises QueryFailedError on a bad expression
            if "by (node)" in expr or "hpc_job" in expr:
                cluster_rows += bool(result)
    assert cluster_rows >= 4


# -- errors --------------------------------------------------------------------------------------------------------

def test_an_empty_result_is_no_data(stack: Stack) -> None:
    with pytest.raises(NoDataError, match="holds no metrics from this app's exporter, the DCGM exporter or "
                                          "node_exporter") as err:
        stack.cluster.snapshot(at=time.time() - 3 * 3600)  # before the server had scraped anything
    assert "\n" not in err.value.message.render()


def test_a_bad_query_is_the_servers_one_line(stack: Stack) -> None:
    with pytest.raises(QueryFailedError, match=r"refused the query \(bad_data\)") as err:
        PrometheusClient(stack.server.url).query("sum(")
    assert "\n" not in err.value.message.render()


def test_unreachable_html_and_silent_servers() -> None:
    with pytest.raises(UnreachableError):
        PrometheusCluster(f"127.0.0.1:{free_port()}", timeout_s=2).snapshot()
    html = StaticPages({"*": ("text/html", "<html><body><h1>Welcome to nginx!</h1></body></html>")})
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    try:
        with pytest.raises(NotPrometheusError, match="is not a Prometheus server"):
            PrometheusCluster(html.address, timeout_s=2).snapshot()
        t0 = time.monotonic()
        with pytest.raises(QueryTimeoutError):
            PrometheusCluster(f"127.0.0.1:{sock.getsockname()[1]}", timeout_s=0.5).history(60)
        assert time.monotonic() - t0 < 2
    finally:
        html.stop()
        sock.close()


def test_time_in_the_json_is_the_snapshots(stack: Stack) -> None:
    from datetime import datetime

    assert math.isclose(datetime.fromisoformat(stack.doc["time"]).timestamp(), stack.snap.time, abs_tol=0.01)


def test_the_command_line_reads_the_cluster_from_the_server(stack: Stack, capsys: pytest.CaptureFixture[str]) -> None:
    from cli_run import run

    code, out, err = run(capsys, "monitor", "--prometheus", stack.server.url, "--once", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert set(doc) >= {"time", "source", "nodes", "jobs"}
    assert {"node-a", "node-b", "dgx-1", "dgx-2", "k8s-gpu-1"} <= {n["hostname"] for n in doc["nodes"]}
    # the same field names as the local --once --json, where the quantity is the same
    code, local, _ = run(capsys, "monitor", "--fake-gpus", "1", "--once", "--json")
    gpu_keys = set(json.loads(local)["gpus"][0])
    assert gpu_keys <= set(node(doc, "node-a")["gpus"][0])
    code, text, err = run(capsys, "monitor", "--prometheus", stack.server.url, "--once")
    assert code == 0, err  # (default windows: the jobs are not judged yet)
    lines = text.splitlines()
    assert lines[0] == f"5 nodes from {stack.server.url}"
    assert "dgx-2: CPU n/a %, iowait n/a %, RAM n/a/n/a GiB" in lines  # no node_exporter there: n/a, not 0
    assert "  GPU 0 NVIDIA H100 80GB HBM3: 95 % busy, VRAM 39.1/79.6 GiB, 55 °C, 450 W, job 4242" in lines
    assert "  GPU 0 NVIDIA H100 80GB HBM3: 91 % busy, VRAM 39.1/79.6 GiB, 55 °C, n/a W, job 4242" in lines
    assert any(line.startswith("  GPU 2 ") and line.endswith(": LOST") for line in lines)  # node-b's
    assert "Slurm job 4242 on dgx-1, dgx-2: 4 GPUs, 78 % busy (35–95)" in lines
    assert "Kubernetes pod team-a/bert-0 on k8s-gpu-1: 2 GPUs, 81 % busy (80–82)" in lines


@pytest.mark.full_env  # the command line's Chinese comes through Qt's translator (PySide6)
def test_the_command_lines_cluster_in_chinese(stack: Stack, capsys: pytest.CaptureFixture[str]) -> None:
    from cli_run import run

    code, text, err = run(capsys, "--lang", "zh_CN", "monitor", "--prometheus", stack.server.url, "--once")
    assert code == 0, err
    assert "Slurm 作业 4242 位于 dgx-1, dgx-2：4 块 GPU，占用 78 %（35–95）" in text.splitlines()


def test_the_command_line_says_one_line_for_a_server_it_cannot_use(capsys: pytest.CaptureFixture[str]) -> None:
    from cli_run import run

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    code, _out, err = run(capsys, "monitor", "--prometheus", f"http://127.0.0.1:{port}", "--once", "--json")
    assert code == 2 and err.count("\n") == 1 and "--prometheus" in err
    code, _out, err = run(capsys, "monitor", "--prometheus", "ftp://x", "--once")
    assert code == 2 and "--prometheus" in err
    code, _out, err = run(capsys, "monitor", "--prometheus", "http://127.0.0.1:1", "--serve", "127.0.0.1:0")
    assert code == 2 and "--serve" in err


def test_a_continuous_run_says_a_later_failure_once_and_carries_on(capsys: pytest.CaptureFixture[str]) -> None:
    """A proxy in front of the server answers 502 for two refreshes between two good ones: one line on
    stderr for both, and the run goes on to its --count."""
    import threading
    import urllib.parse
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from cli_run import run

    gauges = {"status": "success", "data": {"resultType": "vector", "result": [
        {"metric": {"__name__": "configurator_gpu_utilization_ratio", "hostname": "n1", "gpu": "0", "uuid": "GPU-1",
                    "name": "NVIDIA GeForce RTX 4090"}, "value": [0, "0.5"]}]}}
    empty = {"status": "success", "data": {"resultType": "vector", "result": []}}
    snapshots: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query).get("query", [""])[0]
            if "__name__=~" in query:
                snapshots.append(1)
            down = len(snapshots) in (2, 3)
            body = (b"<html><body>502 Bad Gateway</body></html>" if down else
                    json.dumps(gauges if "__name__=~" in query else empty).encode())
            self.send_response(502 if down else 200)
            self.send_header("Content-Type", "text/html" if down else "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        code, out, err = run(capsys, "monitor", "--prometheus", f"127.0.0.1:{server.server_address[1]}",
                             "--interval", "1", "--count", "2")
    finally:
        server.shutdown()
        server.server_close()
    assert code == 0 and out.count("1 nodes from") == 2 and len(snapshots) == 4
    assert err.count("\n") == 1 and "answered HTTP 502 with HTML" in err
