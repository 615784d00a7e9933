"""The cluster behind one Prometheus server: a snapshot (three queries), the jobs' judgement, history."""

from __future__ import annotations

import math
import time

import numpy as np
import numpy.typing as npt

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.monitor.alerts import Alert, Thresholds, bottleneck
from configurator.monitor.cluster.metrics import GAUGES_QUERY, OUR_UTIL, UTIL, UTIL_EXPR, gpu_key, host_of, read_nodes
from configurator.monitor.cluster.model import (
    ClusterGpu,
    ClusterJob,
    ClusterNode,
    ClusterSnapshot,
    UtilHistory,
    choose_step,
)
from configurator.monitor.prometheus import DEFAULT_TIMEOUT_S, NoDataError, PrometheusClient, Sample, duration
from configurator.monitor.snapshot import HostSample


class PrometheusCluster:
    """The cluster behind one Prometheus server. ``thresholds``: GPU-6's and DIST-1's levels and windows."""

    def __init__(self, url: str, timeout_s: float = DEFAULT_TIMEOUT_S, *, thresholds: Thresholds | None = None,
                 rate_window_s: float = 60.0):
        self.client = PrometheusClient(url, timeout_s)
        self.th = thresholds or Thresholds()
        self.rate_window_s = rate_window_s

    @property
    def url(self) -> str:
        return self.client.url

    # -- one refresh ----------------------------------------------------------------------------------------------
    def snapshot(self, at: float | None = None) -> ClusterSnapshot:
        """Every node, GPU and job now (or at ``at``); raises a :class:`PrometheusError` (``NoDataError`` when the
        server holds nothing from the exporters above)."""
        start = time.perf_counter()
        now = time.time() if at is None else at
        gauges = self.client.query(GAUGES_QUERY, now)
        w = duration(self.rate_window_s)
        rates = self.client.query(" or ".join([
            f'label_replace(sum by (instance, mode) (rate(node_cpu_seconds_total[{w}])), "q", "cpu", "", "")',
            *(f'label_replace(sum by (instance) (rate({m}[{w}])), "q", "{q}", "", "")' for m, q in (
                ("node_disk_read_bytes_total", "disk_read_bytes_per_s"),
                ("node_disk_written_bytes_total", "disk_write_bytes_per_s"),
                ('node_network_receive_bytes_total{device!="lo"}', "net_rx_bytes_per_s"),
                ('node_network_transmit_bytes_total{device!="lo"}', "net_tx_bytes_per_s")))]), now)
        judged = self.client.query(self._judge_expr(), now)
        nodes, keys, info = read_nodes(gauges, rates)
        if not nodes:
            raise NoDataError(Message("monitor", QT_TRANSLATE_NOOP(
                "monitor", "{url} answers, but holds no metrics from this app's exporter, the DCGM exporter or "
                           "node_exporter: check its scrape configuration"), {"url": self.url}))
        jobs = self._jobs(nodes, keys, info, judged, now)
        return ClusterSnapshot(now, self.url, nodes, jobs, time.perf_counter() - start)

    def _judge_expr(self) -> str:
        parts = []
        for stat, fn, window in (("max", "max_over_time", self.th.util_sustain_s),
                                 ("avg", "avg_over_time", self.th.spread_sustain_s)):
            w = duration(window)
            for metric, scale in ((UTIL, ""), (OUR_UTIL, "100 * ")):
                parts.append(f'label_replace({scale}{fn}({metric}[{w}]) and {metric} offset {w}, '
                             f'"stat", "{stat}", "", "")')
        return " or ".join(parts)

    def _jobs(self, nodes: tuple[ClusterNode, ...], keys: dict[tuple[str, str, str], tuple[str, str]],
              info: dict[str, tuple[str, str, str | None]], judged: list[Sample], now: float,
              ) -> tuple[ClusterJob, ...]:
        stats: dict[tuple[str, str], dict[str, float]] = {}  # (host, GPU id) -> {max, avg} over the windows
        for s in judged:
            where = keys.get(gpu_key(s.labels, host_of(s.labels, {})))
            if where is not None and s.value is not None:
                stats.setdefault(where, {}).setdefault(s.labels.get("stat", ""), s.value)
        members: dict[str, list[ClusterGpu]] = {}
        hosts = {n.hostname: n.host for n in nodes}
        for n in nodes:
            for g in n.gpus:
                if g.job is not None and not g.lost:
                    members.setdefault(g.job, []).append(g)
        jobs = []
        for key in sorted(members):
            gpus = members[key]
            kind, name, label = info[key]
            alerts = self._judge(key, name, gpus, stats, hosts, now)
            jobs.append(ClusterJob(key, kind, name, label, tuple((g.hostname, g.id) for g in gpus), tuple(alerts)))
        return tuple(jobs)

    def _judge(self, key: str, name: str, gpus: list[ClusterGpu], stats: dict[tuple[str, str], dict[str, float]],
               hosts: dict[str, HostSample], now: float) -> list[Alert]:
        th = self.th
        alerts: list[Alert] = []
        maxes = [stats.get((g.hostname, g.id), {}).get("max") for g in gpus]
        if maxes and all(m is not None for m in maxes) and all(m < th.util_low for m in maxes if m is not None):
            low = min(gpus, key=lambda g: stats[(g.hostname, g.id)]["max"])
            alerts.append(Alert(f"GPU-6:{key}", "GPU-6", "warning",
                                Message("monitor", QT_TRANSLATE_NOOP("monitor", "Job {job} under-uses its GPUs"),
                                        {"job": name}),
                                Message("monitor", QT_TRANSLATE_NOOP(
                                    "monitor", "All {n} GPUs of job {job} (on {nodes}) stayed under {threshold} % "
                                               "busy for the last {window} s (GPU {gpu} on {node} at most {util} %); "
                                               "likely bottleneck on {node}: {cause}."),
                                    {"n": len(gpus), "job": name, "nodes": ", ".join(dict.fromkeys(
                                        g.hostname for g in gpus)), "threshold": f"{th.util_low:.0f}",
                                     "window": f"{th.util_sustain_s:g}", "gpu": low.id, "node": low.hostname,
                                     "util": f"{stats[(low.hostname, low.id)]['max']:.0f}",
                                     "cause": _cause(hosts[low.hostname], low, th)}),
                                now - th.util_sustain_s))
        means = [(stats.get((g.hostname, g.id), {}).get("avg"), g) for g in gpus]
        known = [(m, g) for m, g in means if m is not None]
        if len(known) >= 2:
            hi, lo = max(known, key=lambda x: x[0]), min(known, key=lambda x: x[0])
            spread = hi[0] - lo[0]
            if spread >= th.spread:
                alerts.append(Alert(f"DIST-1:{key}", "DIST-1", "warning",
                                    Message("monitor", QT_TRANSLATE_NOOP(
                                        "monitor", "GPUs of job {job} out of step"), {"job": name}),
                                    Message("monitor", QT_TRANSLATE_NOOP(
                                        "monitor", "The GPUs of job {job} (on {nodes}) differ by {spread} points of "
                                                   "utilisation over the last {window} s: GPU {low} on {low_node} "
                                                   "averages {low_util} %, GPU {high} on {high_node} {high_util} %. "
                                                   "An uneven data split, a slow rank or a slow link between "
                                                   "nodes: run with NCCL_DEBUG=INFO and check that every rank "
                                                   "gets the same batch size."),
                                        {"job": name, "nodes": ", ".join(dict.fromkeys(g.hostname for g in gpus)),
                                         "spread": f"{spread:.0f}", "window": f"{th.spread_sustain_s:g}",
                                         "low": lo[1].id, "low_node": lo[1].hostname, "low_util": f"{lo[0]:.0f}",
                                         "high": hi[1].id, "high_node": hi[1].hostname,
                                         "high_util": f"{hi[0]:.0f}"}),
                                    now - th.spread_sustain_s))
        return alerts

    # -- history for the heat map -----------------------------------------------------------------------------
    def history(self, window_s: float, end: float | None = None, step_s: float | None = None) -> UtilHistory:
        """Every GPU's utilisation over the last ``window_s`` (one range query), nodes and GPUs in the order
        :meth:`snapshot` lists them."""
        end = time.time() if end is None else end
        step = step_s or choose_step(window_s)
        start = end - window_s
        series = self.client.query_range(UTIL_EXPR, start, end, step)
        times = start + step * np.arange(math.floor(window_s / step + 1e-9) + 1, dtype=np.float64)
        rows: dict[tuple[str, str, str], tuple[int, str, npt.NDArray[np.float64]]] = {}
        for s in series:
            host = host_of(s.labels, {})
            key = gpu_key(s.labels, host)
            if key in rows:  # the same GPU through a second exporter: keep the first (DCGM)
                continue
            gpu, mig = s.labels.get("gpu", "0"), s.labels.get("GPU_I_ID")
            row = np.full(len(times), np.nan)
            idx = np.rint((s.times - start) / step).astype(int)
            ok = (idx >= 0) & (idx < len(times))
            row[idx[ok]] = s.values[ok]
            try:
                index = int(gpu.split(".", 1)[0])
            except ValueError:
                index = 0
            rows[key] = (index, f"{gpu}.mig{mig}" if mig else gpu, row)
        hostnames = tuple(sorted({k[0] for k in rows}))
        ids: list[tuple[str, ...]] = []
        width = 0
        per_host: list[list[tuple[int, str, npt.NDArray[np.float64]]]] = []
        for h in hostnames:
            mine = sorted((v for k, v in rows.items() if k[0] == h), key=lambda v: (v[0], v[1]))
            per_host.append(mine)
            ids.append(tuple(v[1] for v in mine))
            width = max(width, len(mine))
        values = np.full((len(hostnames), width, len(times)), np.nan)
        for i, mine in enumerate(per_host):
            for j, (_index, _gid, row) in enumerate(mine):
                values[i, j] = row
        return UtilHistory(times, hostnames, tuple(ids), values, step)

    def node_series(self, hostname: str, window_s: float, end: float | None = None, step_s: float | None = None,
                    ) -> tuple[npt.NDArray[np.float64], dict[str, npt.NDArray[np.float64]]]:
        """One node's other plotted lines over the last ``window_s`` (one range query), on the grid
        :meth:`history` uses: ``gpu<id>.mem`` (VRAM used, percent), ``host.cpu``, ``host.iowait`` and
        ``host.mem`` (percent), from DCGM exporter, node_exporter or this app's exporter, whichever the node
        has. A line the node does not export is missing (n/a), not zeros."""
        end = time.time() if end is None else end
        step = step_s or choose_step(window_s)
        start = end - window_s
        w = duration(max(2 * step, self.rate_window_s))
        fb = "DCGM_FI_DEV_FB_USED + DCGM_FI_DEV_FB_FREE + DCGM_FI_DEV_FB_RESERVED"
        uname = "* on (instance) group_left (nodename) node_uname_info"
        exprs = {
            "mem": [f"100 * DCGM_FI_DEV_FB_USED / ({fb})",
                    "100 * configurator_gpu_memory_used_bytes / configurator_gpu_memory_total_bytes"],
            "cpu": ["100 * configurator_host_cpu_utilization_ratio",
                    f'100 * (1 - avg by (instance) (rate(node_cpu_seconds_total{{mode="idle"}}[{w}]))) {uname}'],
            "iowait": ["100 * configurator_host_iowait_ratio",
                       f'100 * avg by (instance) (rate(node_cpu_seconds_total{{mode="iowait"}}[{w}])) {uname}'],
            "hostmem": ["100 * configurator_host_memory_used_bytes / configurator_host_memory_total_bytes",
                        f"100 * (1 - node_memory_MemAvailable_bytes / node_memory_MemTotal_bytes) {uname}"],
        }
        promql = " or ".join(f'label_replace({e}, "q", "{q}", "", "")' for q, es in exprs.items() for e in es)
        times = start + step * np.arange(math.floor(window_s / step + 1e-9) + 1, dtype=np.float64)
        out: dict[str, npt.NDArray[np.float64]] = {}
        for series in self.client.query_range(promql, start, end, step):
            labels = series.labels
            if host_of(labels, {}) != hostname:
                continue
            q = labels.get("q", "")
            if q == "mem":
                gpu, mig = labels.get("gpu", "0"), labels.get("GPU_I_ID")
                key = f"gpu{gpu}.mig{mig}.mem" if mig else f"gpu{gpu}.mem"
            else:
                key = {"cpu": "host.cpu", "iowait": "host.iowait", "hostmem": "host.mem"}.get(q, "")
            if not key or key in out:  # the first exporter's line (DCGM, this app's) where two have it
                continue
            row = np.full(len(times), np.nan)
            idx = np.rint((series.times - start) / step).astype(int)
            ok = (idx >= 0) & (idx < len(times))
            row[idx[ok]] = series.values[ok]
            out[key] = row
        return times, out


def _cause(host: HostSample, gpu: ClusterGpu, th: Thresholds) -> Message:
    """The local monitor's bottleneck, unless the server has nothing about the node's host to judge from."""
    if host.cpu_percent is None and host.iowait_percent is None and not gpu.pcie_below_max:
        return Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "Prometheus has no host metrics for {node} (CPU, iowait): run node_exporter there to "
                       "tell a data-loading bottleneck"), {"node": host.hostname})
    return bottleneck(host, gpu, th)
