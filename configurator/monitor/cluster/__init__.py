"""A cluster as its Prometheus server sees it: nodes, their GPUs and host, the jobs, and history.

:class:`PrometheusCluster` reads what the exporters already on the nodes publish:

* NVIDIA's DCGM exporter (``DCGM_FI_DEV_*``, ``DCGM_FI_PROF_*`` where profiling is on; labels
  ``Hostname``, ``gpu``, ``UUID``, ``modelName``, ``GPU_I_ID`` for MIG, and the job labels below);
* node_exporter (CPU busy and iowait from ``rate(node_cpu_seconds_total)``, load, memory, swap,
  disk and network rates; the node's name from ``node_uname_info``);
* this app's exporter (``configurator_*``, label ``hostname``: see :mod:`configurator.monitor.exporter`).

A metric a node does not export is ``None`` (n/a), never 0. Where a node has both DCGM and this
app's exporter, one GPU (same UUID) is one row, DCGM's numbers first.

Jobs come from labels: a Slurm job id (DCGM exporter's HPC job mapping ``hpc_job``, or
``slurm_job_id``/``slurm_job``/``jobid``/``job_id`` from Slurm exporters and relabelling), a
Kubernetes pod (``namespace``/``pod``, as DCGM exporter labels it, or ``exported_namespace``/
``exported_pod`` where the Prometheus Operator renamed them; never the exporter's own pod), else the
command line of the processes our exporter names on a node. GPU-6 and DIST-1 (:mod:`configurator.monitor.alerts`)
are judged over the GPUs of one job, across nodes, over a window the server keeps: GPU-6 when
every GPU of the job stayed under the threshold for the whole window (``max_over_time``), DIST-1
when their mean utilisations over the window differ by the spread or more.

One :meth:`PrometheusCluster.snapshot` costs three queries; :meth:`PrometheusCluster.history`
one range query. Both block for at most a few timeouts: call them off the GUI thread.
"""

from configurator.monitor.cluster.metrics import JOB_LABELS, UTIL_EXPR
from configurator.monitor.cluster.model import (
    ClusterGpu,
    ClusterJob,
    ClusterNode,
    ClusterSnapshot,
    UtilHistory,
    choose_step,
    cluster_to_dict,
    gpu_dict,
    job_to_dict,
)
from configurator.monitor.cluster.source import PrometheusCluster

__all__ = ["JOB_LABELS", "UTIL_EXPR", "ClusterGpu", "ClusterJob", "ClusterNode", "ClusterSnapshot", "PrometheusCluster",
           "UtilHistory", "choose_step", "cluster_to_dict", "gpu_dict", "job_to_dict"]
