"""The Monitor tab's cluster page refreshed from a real Prometheus server, against one query round trip.

3 nodes × 8 fake GPUs (this app's exporter on the fake NVML, each posing as another node), scraped every
second by a real Prometheus server on 127.0.0.1, shown by :class:`ClusterView` (offscreen). Measured in
the same run, rounds interleaved, medians:

* baseline: one ``/api/v1/query`` round trip (``up``);
* a whole refresh as a user waits for it: the four queries in the worker thread, then the nodes and
  jobs tables and the heat map (5 minutes) filled and painted on the GUI thread;
* the GUI thread's part alone (tables, heat map, paint): what could make the window stutter.

Run: ``python -m benchmarks --only cluster_ui`` (about half a minute).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from benchmarks.bench_cluster import GPUS, NODES
from benchmarks.common import report


def run(repeats: int = 7) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, QSettings
    from PySide6.QtWidgets import QApplication

    from benchmarks.demo_cluster import PrometheusServer, fake_node
    from configurator.monitor.prometheus import PrometheusClient
    from configurator.ui.monitor.cluster_view import ClusterView
    from configurator.ui.tasks import TaskRunner

    app = QApplication.instance() or QApplication([])
    nodes = [fake_node(f"node-{i + 1}", GPUS) for i in range(NODES)]
    server = PrometheusServer({"configurator": [n.exporter.url.split("/")[2] for n in nodes]})
    with tempfile.TemporaryDirectory(prefix="configurator-bench-") as tmp:
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        tasks = TaskRunner()
        view = ClusterView(settings, tasks, refresh_s=3600)
        view.resize(1500, 950)
        view.show()
        try:
            server.start()
            server.wait_for_targets(timeout_s=60, scrapes=3)
            client = PrometheusClient(server.url, timeout_s=5)

            def refresh() -> None:
                loop = QEventLoop()
                view.refreshed.connect(loop.quit)
                view.refresh()
                loop.exec()
                view.refreshed.disconnect(loop.quit)
                view.repaint()  # the tables and the heat map painted, as the window shows them

            view.set_server(server.url, save=False)
            for _ in range(3):  # warm up both sides
                client.query("up")
                refresh()
            if len(view.nodes.hostnames) != NODES or len(view.heatmap.rows) != NODES * GPUS:
                raise RuntimeError(f"expected {NODES} nodes × {GPUS} GPUs, the view shows "
                                   f"{len(view.nodes.hostnames)} / {len(view.heatmap.rows)}")
            rounds = max(20, 5 * repeats)
            base: list[float] = []
            whole: list[float] = []
            gui: list[float] = []
            for _ in range(rounds):
                start = time.perf_counter()
                client.query("up")
                base.append(time.perf_counter() - start)
                start = time.perf_counter()
                refresh()
                whole.append(time.perf_counter() - start)
                start = time.perf_counter()
                view.show_data(fresh_history=True)  # the GUI thread's share, timed alone
                view.repaint()
                gui.append(time.perf_counter() - start)
        finally:
            view.stop()
            tasks.wait(10000)
            view.close()
            app.processEvents()
            server.stop()
            for n in nodes:
                n.stop()
    report(f"cluster page: {NODES} nodes × {GPUS} fake GPUs from a real Prometheus server, {rounds} rounds",
           "one /api/v1/query round trip (up)",
           [("refresh: 4 queries in the worker + tables + heat map", whole),
            ("GUI thread alone: tables + heat map + paint", gui)], base)


if __name__ == "__main__":
    run()
