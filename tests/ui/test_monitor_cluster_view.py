"""The Monitor tab's cluster page against a real Prometheus server (Debian's ``prometheus``) scraping two of
this app's exporters on fake GPUs, each posing as a node. Without ``prometheus`` these fail with the command
that installs it."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QSettings

from benchmarks.demo_cluster import DcgmGpu, PrometheusServer, StaticPages, dcgm_page, fake_node
from configurator.monitor import fake_nvml
from configurator.monitor.alerts import Thresholds
from configurator.ui.monitor import MonitorTab
from configurator.ui.monitor.cluster_view import SETTINGS_URL, ClusterView
from configurator.ui.tasks import TaskRunner


@pytest.fixture(scope="module")
def server() -> Iterator[PrometheusServer]:
    lagging = fake_nvml.several(3)  # node-b's GPU 2 lags its job's other GPUs (DIST-1)
    lagging.gpus[2].base_util, lagging.gpus[2].swing = 20.0, 0.0
    nodes = [fake_node("node-a", 2, interval_s=0.25), fake_node("node-b", scenario=lagging, interval_s=0.25)]
    prom = PrometheusServer({"configurator": [n.exporter.url.split("/")[2] for n in nodes]},
                            scrape_interval_s=0.5)
    try:
        prom.start()
        prom.wait_for_targets(timeout_s=30, scrapes=3)
        yield prom
    finally:
        prom.stop()
        for n in nodes:
            n.stop()


@pytest.fixture
def view(qtbot: Any, settings: QSettings) -> Iterator[ClusterView]:
    tasks = TaskRunner()
    v = ClusterView(settings, tasks, refresh_s=60, timeout_s=3)
    qtbot.addWidget(v)
    v.resize(1200, 800)
    v.show()
    qtbot.waitExposed(v)
    yield v
    v.stop()
    assert tasks.wait(10000)


def refreshed(qtbot: Any, view: ClusterView, url: str) -> None:
    with qtbot.waitSignal(view.refreshed, timeout=15000):
        assert view.set_server(url)


def test_overview_lists_both_nodes_with_their_gpus(qtbot: Any, view: ClusterView, server: PrometheusServer,
                                                    settings: QSettings) -> None:
    refreshed(qtbot, view, server.url)
    assert view.error is None, view.state.text()
    table = view.nodes.table
    rows = {table.item(r, 0).text(): [table.item(r, c).text() for c in range(table.columnCount())]
            for r in range(table.rowCount())}
    assert set(rows) == {"node-a", "node-b"}
    assert rows["node-a"][1] == "2" and rows["node-b"][1] == "3"
    assert rows["node-a"][2].endswith(")") and "%" in rows["node-a"][2]  # mean (lowest–highest)
    assert "GiB" in rows["node-b"][3] and rows["node-b"][4].endswith("W")
    assert "2 nodes, 5 GPUs" in view.state.text()
    assert settings.value(SETTINGS_URL) == server.url  # remembered for the next start
    again = ClusterView(settings, view.tasks, refresh_s=60, timeout_s=3)
    qtbot.addWidget(again)
    again.show()
    with qtbot.waitSignal(again.refreshed, timeout=15000):
        again.restore()
    assert again.nodes.hostnames == ["node-a", "node-b"] and again.url_edit.text() == server.url
    again.stop()


def test_heat_map_has_a_row_per_gpu_and_a_column_per_step(qtbot: Any, view: ClusterView,
                                                          server: PrometheusServer) -> None:
    refreshed(qtbot, view, server.url)
    hm = view.heatmap
    assert hm.rows == [("node-a", "0"), ("node-a", "1"), ("node-b", "0"), ("node-b", "1"), ("node-b", "2")]
    hist = view.history
    assert hist is not None and hist.step_s == 2.0  # 5 minutes in at most 240 columns
    assert hm.image_data.shape == (5, len(hist.times)) == (5, 151)
    assert hm.image.image.shape == (151, 5)  # drawn: time along x, one GPU per y
    recent = hm.image_data[:, -3:]
    assert np.isfinite(recent).any() and np.nanmax(recent) <= 100
    assert np.isnan(hm.image_data[:, 0]).all()  # before the exporters started: no sample, not 0 %
    assert hm.labels() == ["node-a · GPU 0", "GPU 1", "node-b · GPU 0", "GPU 1", "GPU 2"]
    with qtbot.waitSignal(view.refreshed, timeout=15000):
        view.window_combo.setCurrentIndex(2)  # 1 h: one range query, steps of 15 s
    assert view.history is not None and view.history.step_s == 15.0
    assert hm.image_data.shape == (5, 241)


def test_jobs_carry_their_verdicts(qtbot: Any, settings: QSettings, server: PrometheusServer) -> None:
    tasks = TaskRunner()
    view = ClusterView(settings, tasks, refresh_s=0.5, timeout_s=3,
                       thresholds=Thresholds(util_sustain_s=2.0, spread_sustain_s=2.0))
    qtbot.addWidget(view)
    view.show()
    table = view.jobs.table

    def verdicts() -> dict[str, str]:
        return {table.item(r, 2).text(): table.item(r, 5).text() for r in range(table.rowCount())}

    try:
        view.set_server(server.url)
        qtbot.waitUntil(lambda: verdicts().get("node-b", "").startswith("DIST-1"), timeout=15000)
        got = verdicts()
        assert got["node-a"] == "OK"  # its two GPUs keep step
        assert "out of step" in got["node-b"]
        row = next(r for r in range(table.rowCount()) if table.item(r, 2).text() == "node-b")
        assert "NCCL_DEBUG=INFO" in table.item(row, 5).toolTip() and table.item(row, 3).text() == "3"
    finally:
        view.stop()
        assert tasks.wait(10000)


def test_drill_down_shows_the_nodes_gpu_cards(qtbot: Any, view: ClusterView, server: PrometheusServer) -> None:
    refreshed(qtbot, view, server.url)
    row = view.nodes.hostnames.index("node-b")
    view.nodes.table.activated.emit(view.nodes.table.model().index(row, 0))
    assert view.pages.currentWidget() is view.detail
    cards = view.detail.cards
    assert sorted(cards.gpu_cards) == ["0", "1", "2"]
    card = cards.gpu_cards["1"]
    assert "%" in card.values["util"].text() and "GiB" in card.values["vram"].text()
    assert "node-b" in cards.host_card.title.text()
    assert cards.host_card.values["training"].text() == "n/a"  # the local process view: not what exporters say
    # the plots come from the server's history: the ring holds the range query's steps and the snapshot
    assert view.detail.ring is not None and len(view.detail.ring) == len(view.history.times) + 1
    assert "4 queries" in view.state.text()

    def plotted() -> int:  # the utilisation line's points in GPU 1's plot
        _x, y = card.plot.curves["gpu1.util"].getData()
        return int(np.isfinite(y).sum())

    qtbot.waitUntil(lambda: plotted() >= 2, timeout=3000)
    # opening the node asked for its VRAM and host lines too (one more range query)
    qtbot.waitUntil(lambda: view.series is not None, timeout=10000)
    assert {"gpu0.mem", "gpu1.mem", "gpu2.mem", "host.cpu", "host.mem"} <= set(view.series[1])
    assert "5 queries" in view.state.text()

    def vram_plotted() -> int:
        _x, y = card.plot.curves["gpu1.mem"].getData()
        return int(np.isfinite(y).sum())

    qtbot.waitUntil(lambda: vram_plotted() >= 2, timeout=3000)
    with qtbot.waitSignal(view.refreshed, timeout=15000):
        view.refresh()
    assert view.pages.currentWidget() is view.detail and sorted(cards.gpu_cards) == ["0", "1", "2"]
    view.detail.back_button.click()
    assert view.pages.currentWidget() is view.overview


def test_unreachable_server_shows_the_error_and_keeps_the_window_responsive(qtbot: Any, view: ClusterView,
                                                                            capfd: Any) -> None:
    with socket.socket() as s:  # a loopback port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    refreshed(qtbot, view, f"127.0.0.1:{port}")
    assert view.error is not None and view.error.kind == "unreachable"
    assert "cannot reach" in view.state.text() and "trying again" in view.state.text()
    assert not view.nodes.table.isVisible() and view.pages.currentWidget() is view.empty_page  # nothing to show
    with qtbot.waitSignal(view.refreshed, timeout=15000):
        view.refresh()
    err = capfd.readouterr().err
    assert err.count("cannot reach") == 1  # one line on stderr, not one per refresh


def test_bad_url_and_html_answer(qtbot: Any, view: ClusterView) -> None:
    assert not view.set_server("ftp://nowhere")
    assert view.error is not None and view.error.kind == "bad_url" and "not an http(s) URL" in view.state.text()
    page = StaticPages({"*": ("text/html", "<html><body>Grafana login</body></html>")})
    try:
        refreshed(qtbot, view, f"http://{page.address}")
    finally:
        page.stop()
    assert view.error is not None and view.error.kind == "not_prometheus"
    assert "is not a Prometheus server" in view.state.text() and "HTML" in view.state.text()


def test_monitor_tab_has_the_cluster_page(qtbot: Any, window: Any, services: Any,
                                          server: PrometheusServer) -> None:
    tab = window.tab(MonitorTab)
    window.tabs.setCurrentWidget(tab)
    tab.sources.setCurrentWidget(tab.cluster)
    with qtbot.waitSignal(tab.cluster.refreshed, timeout=15000):
        tab.cluster.url_edit.setText(server.url.removeprefix("http://"))
        tab.cluster.connect_button.click()
    assert tab.cluster.nodes.hostnames == ["node-a", "node-b"]
    assert tab.cluster.settings.value(SETTINGS_URL) == server.url
    services.languages.install("zh_CN")  # live: the page, its tables and the heat map in Chinese
    qtbot.waitUntil(lambda: tab.sources.tabText(1) == "集群（Prometheus）", timeout=3000)  # LanguageChange is posted
    assert tab.cluster.nodes.table.horizontalHeaderItem(0).text() == "节点"
    assert tab.cluster.nodes.hostnames == ["node-a", "node-b"] and "个节点" in tab.cluster.state.text()
    assert tab.cluster.heatmap.labels()[0] == "node-a · GPU 0"
    services.languages.install("en")
    qtbot.waitUntil(lambda: tab.cluster.jobs.table.horizontalHeaderItem(0).text() == "Job", timeout=3000)
    tab.cluster.forget()
    assert tab.cluster.settings.value(SETTINGS_URL) is None and not tab.cluster.nodes.hostnames


def test_timeout_and_empty_server_are_states_not_a_frozen_window(qtbot: Any, settings: QSettings) -> None:
    tasks = TaskRunner()
    view = ClusterView(settings, tasks, refresh_s=60, timeout_s=0.5)
    qtbot.addWidget(view)
    view.show()
    silent = socket.socket()  # accepts connections (the kernel's backlog) and never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    empty = StaticPages({
        "/api/v1/query": ("application/json", '{"status": "success", "data": {"resultType": "vector", "result": []}}'),
        "/api/v1/query_range": ("application/json",
                                '{"status": "success", "data": {"resultType": "matrix", "result": []}}')})
    try:
        with qtbot.waitSignal(view.refreshed, timeout=10000):
            started = time.monotonic()
            view.set_server(f"127.0.0.1:{silent.getsockname()[1]}")
            assert time.monotonic() - started < 0.2  # the query runs off the GUI thread
            assert "Asking" in view.state.text()
        assert view.error is not None and view.error.kind == "timeout"
        assert "did not answer within 0.5 s" in view.state.text()
        with qtbot.waitSignal(view.refreshed, timeout=10000):
            view.set_server(f"http://{empty.address}")
        assert view.error is not None and view.error.kind == "no_data"
        assert "holds no metrics" in view.state.text()
        assert view.heatmap.rows == [] and not view.nodes.hostnames
    finally:
        view.stop()
        assert tasks.wait(10000)
        silent.close()
        empty.stop()


def test_dcgm_nodes_a_job_across_them_and_na_where_a_node_exports_nothing(qtbot: Any, view: ClusterView) -> None:
    """Two nodes seen only through pages shaped like DCGM exporter's: Slurm job 4242 spans both, one GPU
    reports no power, and neither node runs node_exporter (host CPU and I/O wait: n/a, not 0 %)."""
    page = "text/plain; version=0.0.4"
    pages = [StaticPages({"/metrics": (page, dcgm_page("dgx-1", [DcgmGpu(95, job="4242"),
                                                                  DcgmGpu(93, job="4242", power=None)]))}),
             StaticPages({"/metrics": (page, dcgm_page("dgx-2", [DcgmGpu(90, job="4242"), DcgmGpu(15, job="77")]))})]
    prom = PrometheusServer({"dcgm": [p.address for p in pages]}, scrape_interval_s=0.5)
    try:
        prom.start()
        prom.wait_for_targets(timeout_s=30, scrapes=2)
        refreshed(qtbot, view, prom.url)
    finally:
        prom.stop()
        for p in pages:
            p.stop()
    assert view.error is None, view.state.text()
    table = view.nodes.table
    rows = {table.item(r, 0).text(): [table.item(r, c).text() for c in range(table.columnCount())]
            for r in range(table.rowCount())}
    assert rows["dgx-1"][1:] == ["2", "94 % (93–95)", "78.1 GiB of 159 GiB", "450 W (1 of 2 GPUs)", "max 55 °C",
                                 "n/a", "n/a", "4242"]
    assert rows["dgx-2"][4] == "900 W" and rows["dgx-2"][8] == "4242, 77"
    jobs = view.jobs.table
    job_rows = {jobs.item(r, 0).text(): [jobs.item(r, c).text() for c in range(jobs.columnCount())]
                for r in range(jobs.rowCount())}
    assert job_rows["4242"][1:5] == ["Slurm job", "dgx-1, dgx-2", "3", "93 % (90–95)"]
    assert job_rows["77"][1:4] == ["Slurm job", "dgx-2", "1"]
    assert view.heatmap.labels() == ["dgx-1 · GPU 0", "GPU 1", "dgx-2 · GPU 0", "GPU 1"]
