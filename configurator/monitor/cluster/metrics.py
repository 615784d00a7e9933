"""What the exporters' series say: one instant query's samples -> nodes, their hosts and GPUs, jobs."""

from __future__ import annotations

import urllib.parse
from dataclasses import fields, replace
from typing import Any

from configurator.core.units import MIB
from configurator.monitor.cluster.model import ClusterGpu, ClusterNode
from configurator.monitor.prometheus import Sample
from configurator.monitor.snapshot import THROTTLE_REASONS, GpuProcess, HostSample

JOB_LABELS = ("hpc_job", "slurm_job_id", "slurm_job", "slurm_jobid", "jobid", "job_id")
HOST_LABELS = ("Hostname", "hostname", "nodename", "kubernetes_node", "node")
UTIL = "DCGM_FI_DEV_GPU_UTIL"
OUR_UTIL = "configurator_gpu_utilization_ratio"
UTIL_EXPR = f"{UTIL} or 100 * {OUR_UTIL}"  # percent, one series per GPU and exporter

# metric -> (GpuSample field or a private name, factor to the field's unit)
DCGM_GPU = {
    UTIL: ("utilization_gpu_percent", 1.0), "DCGM_FI_DEV_MEM_COPY_UTIL": ("utilization_memory_percent", 1.0),
    "DCGM_FI_DEV_FB_USED": ("_fb_used", MIB), "DCGM_FI_DEV_FB_FREE": ("_fb_free", MIB),
    "DCGM_FI_DEV_FB_RESERVED": ("_fb_reserved", MIB), "DCGM_FI_DEV_GPU_TEMP": ("temperature_c", 1.0),
    "DCGM_FI_DEV_POWER_USAGE": ("power_w", 1.0), "DCGM_FI_DEV_POWER_MGMT_LIMIT": ("power_limit_w", 1.0),
    "DCGM_FI_DEV_FAN_SPEED": ("fan_percent", 1.0), "DCGM_FI_DEV_SM_CLOCK": ("sm_clock_mhz", 1.0),
    "DCGM_FI_DEV_MEM_CLOCK": ("memory_clock_mhz", 1.0), "DCGM_FI_DEV_PCIE_LINK_GEN": ("pcie_gen", 1.0),
    "DCGM_FI_DEV_PCIE_MAX_LINK_GEN": ("pcie_gen_max", 1.0), "DCGM_FI_DEV_PCIE_LINK_WIDTH": ("pcie_width", 1.0),
    "DCGM_FI_DEV_PCIE_MAX_LINK_WIDTH": ("pcie_width_max", 1.0),
    "DCGM_FI_PROF_PCIE_RX_BYTES": ("pcie_rx_bytes_per_s", 1.0),
    "DCGM_FI_PROF_PCIE_TX_BYTES": ("pcie_tx_bytes_per_s", 1.0),
    "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS": ("throttle_reasons", 1.0),
    "DCGM_FI_DEV_CLOCKS_EVENT_REASONS": ("throttle_reasons", 1.0),
    "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL": ("ecc_uncorrected", 1.0), "DCGM_FI_DEV_XID_ERRORS": ("xid_last", 1.0),
    "DCGM_FI_PROF_GR_ENGINE_ACTIVE": ("graphics_active_percent", 100.0),
    "DCGM_FI_PROF_SM_ACTIVE": ("sm_active_percent", 100.0),
    "DCGM_FI_PROF_SM_OCCUPANCY": ("sm_occupancy_percent", 100.0),
    "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": ("tensor_active_percent", 100.0),
    "DCGM_FI_PROF_DRAM_ACTIVE": ("dram_active_percent", 100.0),
}
OUR_GPU = {
    OUR_UTIL: ("utilization_gpu_percent", 100.0),
    "configurator_gpu_memory_utilization_ratio": ("utilization_memory_percent", 100.0),
    "configurator_gpu_memory_used_bytes": ("memory_used_bytes", 1.0),
    "configurator_gpu_memory_total_bytes": ("memory_total_bytes", 1.0),
    "configurator_gpu_temperature_celsius": ("temperature_c", 1.0), "configurator_gpu_power_watts": ("power_w", 1.0),
    "configurator_gpu_power_limit_watts": ("power_limit_w", 1.0), "configurator_gpu_fan_ratio": ("fan_percent", 100.0),
    "configurator_gpu_sm_clock_hertz": ("sm_clock_mhz", 1e-6),
    "configurator_gpu_memory_clock_hertz": ("memory_clock_mhz", 1e-6),
    "configurator_gpu_pcie_link_generation": ("pcie_gen", 1.0),
    "configurator_gpu_pcie_link_generation_max": ("pcie_gen_max", 1.0),
    "configurator_gpu_pcie_link_width": ("pcie_width", 1.0),
    "configurator_gpu_pcie_link_width_max": ("pcie_width_max", 1.0),
    "configurator_gpu_pcie_rx_bytes_per_second": ("pcie_rx_bytes_per_s", 1.0),
    "configurator_gpu_pcie_tx_bytes_per_second": ("pcie_tx_bytes_per_s", 1.0),
    "configurator_gpu_ecc_uncorrected_errors_total": ("ecc_uncorrected", 1.0),
}
OUR_HOST = {
    "configurator_host_cpu_utilization_ratio": ("cpu_percent", 100.0),
    "configurator_host_iowait_ratio": ("iowait_percent", 100.0),
    "configurator_host_load1": ("load_1m", 1.0), "configurator_host_load5": ("load_5m", 1.0),
    "configurator_host_load15": ("load_15m", 1.0),
    "configurator_host_memory_used_bytes": ("memory_used_bytes", 1.0),
    "configurator_host_memory_total_bytes": ("memory_total_bytes", 1.0),
    "configurator_host_swap_used_bytes": ("swap_used_bytes", 1.0),
    "configurator_host_swap_total_bytes": ("swap_total_bytes", 1.0),
    "configurator_host_disk_read_bytes_per_second": ("disk_read_bytes_per_s", 1.0),
    "configurator_host_disk_write_bytes_per_second": ("disk_write_bytes_per_s", 1.0),
    "configurator_host_network_receive_bytes_per_second": ("net_rx_bytes_per_s", 1.0),
    "configurator_host_network_transmit_bytes_per_second": ("net_tx_bytes_per_s", 1.0),
    "configurator_monitor_cpu_ratio": ("own_cpu_percent", 100.0),
}
NODE_HOST = {"node_load1": "load_1m", "node_load5": "load_5m", "node_load15": "load_15m",
             "node_memory_MemTotal_bytes": "_mem_total", "node_memory_MemAvailable_bytes": "_mem_avail",
             "node_memory_SwapTotal_bytes": "_swap_total", "node_memory_SwapFree_bytes": "_swap_free"}
_INT_FIELDS = {"pcie_gen", "pcie_gen_max", "pcie_width", "pcie_width_max", "throttle_reasons", "ecc_uncorrected",
               "memory_used_bytes", "memory_total_bytes", "swap_used_bytes", "swap_total_bytes", "xid_last"}
XID_FALLEN_OFF_BUS = 79  # NVIDIA's Xid catalogue: "GPU has fallen off the bus"
REPORTED = "configurator_gpu_clocks_event_reported"  # made by the query: the GPU reports its reasons
# One instant query for every gauge read: exact names (the server looks each up in its index, where a
# pattern would scan every name); of the throttle reasons only the active ones, plus one series per GPU
# that says it reports them (so "none active" is 0, and a GPU that does not say is n/a).
_NAMES = "|".join([*DCGM_GPU, *OUR_GPU, *OUR_HOST, "configurator_gpu_up", "configurator_gpu_process_memory_bytes",
                   "configurator_host_core_utilization_ratio", "configurator_nvml_up", "node_uname_info",
                   *NODE_HOST])
GAUGES_QUERY = (f'{{__name__=~"{_NAMES}"}} or configurator_gpu_clocks_event_active == 1 '
                f'or label_replace(count by (hostname, gpu, uuid, name) (configurator_gpu_clocks_event_active), '
                f'"__name__", "{REPORTED}", "", "")')
_REASON_BITS = {name: bit for bit, name in THROTTLE_REASONS.items()}


def host_of(labels: dict[str, str], uname: dict[str, str]) -> str:
    for key in HOST_LABELS:
        if labels.get(key):
            return labels[key]
    inst = labels.get("instance", "")
    if inst in uname:
        return uname[inst]
    return urllib.parse.urlsplit("//" + inst).hostname or inst or "?"


def gpu_key(labels: dict[str, str], host: str) -> tuple[str, str, str]:
    uuid = labels.get("UUID") or labels.get("uuid") or ""
    return host, uuid or "gpu" + labels.get("gpu", "?"), labels.get("GPU_I_ID", "")


def _job_of(labels: dict[str, str]) -> tuple[str, str, str, str] | None:
    """(key, kind, name, label) of the job a series' labels name, if any."""
    for label in JOB_LABELS:
        if labels.get(label):
            return f"slurm:{labels[label]}", "slurm", labels[label], label
    # DCGM exporter names the pod using the GPU as pod/namespace. Scraped through the Prometheus Operator
    # (honorLabels false, its default), those clash with the target's own labels, which name the exporter's
    # pod: Prometheus keeps the exporter's as pod/namespace and renames the workload's exported_pod and
    # exported_namespace. A pod that is the exporter itself is no job (its idle GPUs would all be one).
    if labels.get("exported_pod"):
        pod, ns, label = labels["exported_pod"], labels.get("exported_namespace", ""), "exported_pod"
    elif labels.get("pod") and not _is_exporter(labels):
        pod, ns, label = labels["pod"], labels.get("namespace", ""), "pod"
    else:
        return None
    name = f"{ns}/{pod}" if ns else pod
    return f"k8s:{name}", "kubernetes", name, label


def _is_exporter(labels: dict[str, str]) -> bool:
    """The series' pod is DCGM exporter's own (nvidia-dcgm-exporter-… from the GPU Operator, dcgm-exporter-…
    from its Helm chart), as the scrape's target labels name it."""
    return "dcgm-exporter" in labels.get("pod", "") or "dcgm-exporter" in labels.get("container", "")


def _command(name: str) -> str:
    # "python train.py --local-rank 3" -> "python train.py" (as the local alerts group processes)
    return " ".join([w for w in name.split() if not w.startswith("-") and not w.isdigit()][:3])


class _Gpu:
    def __init__(self, host: str, labels: dict[str, str]):
        self.host = host
        self.values: dict[str, Any] = {}
        self.labels = labels
        self.exporters: list[str] = []
        self.reasons: int | None = None
        self.processes: list[GpuProcess] = []
        self.lost = False
        self.job: tuple[str, str, str, str] | None = None

    def put(self, fieldname: str, value: float | None, exporter: str) -> None:
        if exporter not in self.exporters:
            self.exporters.append(exporter)
        if value is not None and self.values.get(fieldname) is None:
            self.values[fieldname] = value

    def build(self) -> ClusterGpu:
        v = self.values
        lab = self.labels
        if v.get("memory_total_bytes") is None and v.get("_fb_used") is not None and v.get("_fb_free") is not None:
            v["memory_total_bytes"] = v["_fb_used"] + v["_fb_free"] + (v.get("_fb_reserved") or 0.0)
        if v.get("memory_used_bytes") is None:
            v["memory_used_bytes"] = v.get("_fb_used")
        if v.get("throttle_reasons") is None:
            v["throttle_reasons"] = self.reasons
        gpu = lab.get("gpu", "0")
        mig = lab.get("GPU_I_ID")
        try:
            index = int(gpu.split(".", 1)[0])
        except ValueError:
            index = 0
        gid = f"{gpu}.mig{mig}" if mig else gpu
        lost = self.lost or v.get("xid_last") == XID_FALLEN_OFF_BUS
        kw: dict[str, Any] = {
            f.name: (int(v[f.name]) if f.name in _INT_FIELDS and v.get(f.name) is not None else v.get(f.name))
            for f in fields(ClusterGpu) if f.name in v and not f.name.startswith("_")}
        return ClusterGpu(index=index, id=gid, name=lab.get("modelName") or lab.get("name") or "",
                          uuid=lab.get("UUID") or lab.get("uuid") or "",
                          mig_parent=index if (mig or "." in gpu) else None, lost=lost,
                          processes=tuple(self.processes), hostname=self.host,
                          job=self.job[0] if self.job else None, exporters=tuple(self.exporters), **kw)


Jobs = dict[str, tuple[str, str, str | None]]


class _Nodes:
    """The series gathered per host (its exporters, host fields, per-core shares) and per GPU."""

    def __init__(self, gauges: list[Sample]):
        self.uname = {s.labels.get("instance", ""): s.labels["nodename"] for s in gauges
                      if s.labels.get("__name__") == "node_uname_info" and s.labels.get("nodename")}
        self.hosts: dict[str, dict[str, Any]] = {}
        self.exporters: dict[str, list[str]] = {}
        self.per_cpu: dict[str, dict[int, float]] = {}
        self.gpus: dict[tuple[str, str, str], _Gpu] = {}

    def seen(self, host: str, exporter: str) -> dict[str, Any]:
        ex = self.exporters.setdefault(host, [])
        if exporter not in ex:
            ex.append(exporter)
        return self.hosts.setdefault(host, {})

    def gpu_of(self, labels: dict[str, str], host: str) -> _Gpu:
        key = gpu_key(labels, host)
        g = self.gpus.get(key)
        if g is None:
            g = self.gpus[key] = _Gpu(host, labels)
        if g.job is None:
            g.job = _job_of(labels)
        return g

    def gauge(self, s: Sample) -> None:
        """One instant sample: a GPU's field, a host's, or only that its exporter is there."""
        lab = s.labels
        name = lab.get("__name__", "")
        host = host_of(lab, self.uname)
        if name in DCGM_GPU:
            self.seen(host, "dcgm")
            fieldname, factor = DCGM_GPU[name]
            self.gpu_of(lab, host).put(fieldname, None if s.value is None else s.value * factor, "dcgm")
        elif name.startswith("DCGM_"):
            self.seen(host, "dcgm")
        elif name in OUR_GPU:
            self.seen(host, "configurator")
            fieldname, factor = OUR_GPU[name]
            self.gpu_of(lab, host).put(fieldname, None if s.value is None else s.value * factor, "configurator")
        elif name == "configurator_gpu_up":
            self.seen(host, "configurator")
            g = self.gpu_of(lab, host)
            g.put("_up", s.value, "configurator")
            g.lost = g.lost or s.value == 0
        elif name == "configurator_gpu_clocks_event_active":
            g = self.gpu_of(lab, host)
            g.reasons = (g.reasons or 0) | (_REASON_BITS.get(lab.get("reason", ""), 0) if s.value else 0)
        elif name == REPORTED:
            g = self.gpu_of(lab, host)
            g.reasons = g.reasons or 0
        elif name == "configurator_gpu_process_memory_bytes":
            g = self.gpu_of(lab, host)
            pid = int(lab["pid"]) if lab.get("pid", "").isdigit() else 0
            g.processes.append(GpuProcess(pid, None if s.value is None else int(s.value),
                                          lab.get("process") or None, None))
        elif name in OUR_HOST:
            fieldname, factor = OUR_HOST[name]
            h = self.seen(host, "configurator")
            if s.value is not None and h.get(fieldname) is None:
                h[fieldname] = s.value * factor
        elif name == "configurator_host_core_utilization_ratio" and s.value is not None:
            self.per_cpu.setdefault(host, {})[int(lab.get("cpu", "0"))] = s.value * 100
        elif name.startswith("configurator_"):
            self.seen(host, "configurator")
        elif name in NODE_HOST or name == "node_uname_info":
            h = self.seen(host, "node")
            if name in NODE_HOST and s.value is not None:
                h.setdefault("_node", {})[NODE_HOST[name]] = s.value

    def rates(self, rates: list[Sample]) -> None:
        """node_exporter's rates: the CPU's busy and iowait shares, and the rest as they come."""
        cpu: dict[str, dict[str, float]] = {}
        for s in rates:
            host = host_of(s.labels, self.uname)
            h = self.seen(host, "node")
            q = s.labels.get("q", "")
            if s.value is None:
                continue
            if q == "cpu":
                cpu.setdefault(host, {})[s.labels.get("mode", "")] = s.value
            else:
                h.setdefault("_node", {})[q] = s.value
        for host, modes in cpu.items():
            total = sum(modes.values())
            if total > 0:
                idle, wait = modes.get("idle", 0.0), modes.get("iowait", 0.0)
                node = self.hosts[host].setdefault("_node", {})
                node["cpu_percent"] = max(0.0, min(100.0, 100.0 * (total - idle - wait) / total))
                node["iowait_percent"] = 100.0 * wait / total

    def node(self, host: str) -> ClusterNode:
        """One host: our exporter's fields, node_exporter's where ours say nothing, and its GPUs."""
        h = self.hosts[host]
        n = h.pop("_node", {})
        if n.get("_mem_total") is not None and n.get("_mem_avail") is not None:
            n["memory_used_bytes"], n["memory_total_bytes"] = n["_mem_total"] - n["_mem_avail"], n["_mem_total"]
        if n.get("_swap_total") is not None and n.get("_swap_free") is not None:
            n["swap_used_bytes"], n["swap_total_bytes"] = n["_swap_total"] - n["_swap_free"], n["_swap_total"]
        for k, v in n.items():  # node_exporter fills what our exporter does not say
            if not k.startswith("_") and h.get(k) is None:
                h[k] = v
        for k in list(h):
            if k in _INT_FIELDS and h[k] is not None:
                h[k] = int(h[k])
        cores = self.per_cpu.get(host, {})
        sample = HostSample(hostname=host, per_cpu_percent=tuple(cores[i] for i in sorted(cores)), **h)
        node_gpus = sorted((g.build() for g in self.gpus.values() if g.host == host), key=lambda g: (g.index, g.id))
        return ClusterNode(host, sample, tuple(node_gpus), tuple(self.exporters.get(host, ())))

    def labelled_jobs(self) -> tuple[dict[tuple[str, str, str], tuple[str, str]], Jobs]:
        """Each GPU's key -> (hostname, GPU id); the jobs the GPUs' labels name."""
        keys = {}
        info: Jobs = {}
        for key, g in self.gpus.items():
            keys[key] = (g.host, g.build().id)
            if g.job is not None:
                info.setdefault(g.job[0], (g.job[1], g.job[2], g.job[3]))
        return keys, info


def _process_jobs(n: ClusterNode, info: Jobs) -> ClusterNode:
    """A GPU with no job label whose processes our exporter names: one job per node and command
    (added to ``info``)."""
    node_gpus = []
    for cg in n.gpus:
        cmd = next((_command(p.name) for p in cg.processes if p.name), "") if cg.job is None else ""
        if cmd:
            job = f"proc:{n.hostname}:{cmd}"
            info.setdefault(job, ("process", f"{n.hostname}: {cmd}", None))
            cg = replace(cg, job=job)
        node_gpus.append(cg)
    return replace(n, gpus=tuple(node_gpus))


def read_nodes(gauges: list[Sample], rates: list[Sample]) -> tuple[
        tuple[ClusterNode, ...], dict[tuple[str, str, str], tuple[str, str]], Jobs]:
    """The nodes; each GPU's key (as :func:`gpu_key` makes it) -> (hostname, GPU id); each job's
    key -> (kind, name, label)."""
    found = _Nodes(gauges)
    # DCGM's series first, so its numbers win where a node has both exporters
    for s in sorted(gauges, key=lambda s: not s.labels.get("__name__", "").startswith("DCGM_")):
        found.gauge(s)
    found.rates(rates)
    nodes = [found.node(host) for host in sorted(found.hosts)]
    keys, info = found.labelled_jobs()
    return tuple(_process_jobs(n, info) for n in nodes), keys, info


# -- jobs and their judgement ----------------------------------------------------------------------------
