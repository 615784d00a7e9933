"""The cluster's data model and its JSON (the ``monitor --prometheus URL --once --json`` document)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from configurator.monitor.alerts import Alert, alert_to_dict
from configurator.monitor.snapshot import GpuSample, HostSample, gpu_to_dict, host_to_dict, iso_time


@dataclass(frozen=True)
class ClusterGpu(GpuSample):
    """A GPU of a node: the local sample's fields (the drill-down's cards take it) and DCGM's profiling."""

    hostname: str = ""
    job: str | None = None  # the key of its ClusterJob
    graphics_active_percent: float | None = None
    sm_active_percent: float | None = None
    sm_occupancy_percent: float | None = None
    tensor_active_percent: float | None = None
    dram_active_percent: float | None = None
    xid_last: int | None = None  # DCGM: the last Xid error the driver logged for it
    exporters: tuple[str, ...] = ()  # dcgm, configurator


@dataclass(frozen=True)
class ClusterNode:
    hostname: str
    host: HostSample
    gpus: tuple[ClusterGpu, ...] = ()
    exporters: tuple[str, ...] = ()  # which exporters it is seen through: dcgm, node, configurator


@dataclass(frozen=True)
class ClusterJob:
    id: str  # "slurm:4242", "k8s:team-a/bert-worker-0", "proc:node-a:python train.py"
    kind: str  # slurm | kubernetes | process
    name: str  # the job id or pod as its scheduler spells it
    label: str | None  # the label it came from (hpc_job, pod ...); None for processes
    gpus: tuple[tuple[str, str], ...]  # (hostname, GPU id)
    alerts: tuple[Alert, ...] = ()

    @property
    def nodes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(h for h, _g in self.gpus))


@dataclass(frozen=True)
class ClusterSnapshot:
    time: float
    source: str  # the server's URL
    nodes: tuple[ClusterNode, ...]
    jobs: tuple[ClusterJob, ...] = ()
    query_s: float = 0.0  # wall time of the queries behind it

    def gpu(self, hostname: str, gpu_id: str) -> ClusterGpu | None:
        for n in self.nodes:
            if n.hostname == hostname:
                return next((g for g in n.gpus if g.id == gpu_id), None)
        return None


@dataclass(frozen=True)
class UtilHistory:
    """GPU utilisation (percent) over a window, for the heat map: ``values[node, gpu, time]``, NaN
    where the server has no sample (and where a node has fewer GPUs than the widest)."""

    times: npt.NDArray[np.float64]  # (T,) seconds since the epoch
    hostnames: tuple[str, ...]  # (N,)
    gpu_ids: tuple[tuple[str, ...], ...]  # per node, its GPUs' ids in order
    values: npt.NDArray[np.float64]  # (N, G, T)
    step_s: float

    def rows(self) -> tuple[list[tuple[str, str]], npt.NDArray[np.float64]]:
        """One row per real GPU (no padding): [(hostname, GPU id)], array (rows, T)."""
        labels = [(h, g) for h, ids in zip(self.hostnames, self.gpu_ids, strict=True) for g in ids]
        parts = [self.values[i, : len(ids)] for i, ids in enumerate(self.gpu_ids)]
        data = np.concatenate(parts) if parts else np.empty((0, len(self.times)))
        return labels, data


def choose_step(window_s: float, points: int = 240) -> float:
    """The smallest round step (1 s, 2 s, 5 s, 10 s … 1 h …) that keeps the window within ``points`` columns."""
    need = max(1.0, window_s / max(1, points))
    for step in (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400):
        if step >= need:
            return float(step)
    return float(math.ceil(need / 86400) * 86400)


def job_to_dict(j: ClusterJob, snap: ClusterSnapshot, render: Any = None) -> dict[str, Any]:
    utils = [g.utilization_gpu_percent for h, gid in j.gpus
             if (g := snap.gpu(h, gid)) is not None and g.utilization_gpu_percent is not None]
    return {"id": j.id, "kind": j.kind, "name": j.name, "label": j.label, "nodes": list(j.nodes),
            "gpus": [{"hostname": h, "id": gid} for h, gid in j.gpus],
            "utilization_gpu_percent": sum(utils) / len(utils) if utils else None,
            "utilization_gpu_percent_min": min(utils) if utils else None,
            "utilization_gpu_percent_max": max(utils) if utils else None,
            "alerts": [alert_to_dict(a, render) for a in j.alerts]}


def gpu_dict(g: ClusterGpu) -> dict[str, Any]:
    return {**gpu_to_dict(g), "job": g.job, "graphics_active_percent": g.graphics_active_percent,
            "sm_active_percent": g.sm_active_percent, "sm_occupancy_percent": g.sm_occupancy_percent,
            "tensor_active_percent": g.tensor_active_percent, "dram_active_percent": g.dram_active_percent,
            "xid_last": g.xid_last, "exporters": list(g.exporters)}


def cluster_to_dict(s: ClusterSnapshot, render: Any = None) -> dict[str, Any]:
    """The ``configurator monitor --prometheus URL --once --json`` document. ``render`` turns an alert's
    Message into text (the CLI's translator); default English."""
    return {"time": iso_time(s.time), "source": s.source,
            "nodes": [{"hostname": n.hostname, "exporters": list(n.exporters), "host": host_to_dict(n.host),
                       "gpus": [gpu_dict(g) for g in n.gpus]} for n in s.nodes],
            "jobs": [job_to_dict(j, s, render) for j in s.jobs]}
