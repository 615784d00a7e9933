"""Immutable samples: what the sampler thread hands to the tab, alerts, exporter and recorder.

A field a device does not support (or that could not be read this time) is
``None``; the UI shows "n/a". Units are in the field names: bytes, percent,
watts, degrees Celsius, MHz, bytes per second.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

# Throttle / clock-event reason bits (same values as NVML's nvmlClocksEventReason*).
THROTTLE_REASONS: dict[int, str] = {
    0x1: "gpu_idle",
    0x2: "applications_clocks",
    0x4: "sw_power_cap",
    0x8: "hw_slowdown",
    0x10: "sync_boost",
    0x20: "sw_thermal",
    0x40: "hw_thermal",
    0x80: "hw_power_brake",
    0x100: "display_clocks",
}
THERMAL_REASONS = 0x20 | 0x40 | 0x8
POWER_REASONS = 0x4 | 0x80


def reason_names(mask: int | None) -> list[str]:
    if not mask:
        return []
    return [name for bit, name in THROTTLE_REASONS.items() if mask & bit]



def percent_of(used: float | None, total: float | None) -> float | None:
    """used / total in percent; None when either is unknown or the total is zero."""
    if used is None or not total:
        return None
    return 100.0 * used / total

@dataclass(frozen=True)
class GpuProcess:
    pid: int
    gpu_memory_bytes: int | None  # None: the driver does not say (e.g. WDDM)
    name: str | None
    user: str | None
    parent_pid: int | None = None
    access_denied: bool = False  # the OS refused to tell us who runs it


@dataclass(frozen=True)
class GpuSample:
    index: int  # NVML index of the physical GPU
    id: str  # "0", or "0.mig1" for a MIG device of GPU 0
    name: str
    uuid: str
    mig_parent: int | None = None
    lost: bool = False
    utilization_gpu_percent: float | None = None
    utilization_memory_percent: float | None = None
    memory_used_bytes: int | None = None
    memory_total_bytes: int | None = None
    temperature_c: float | None = None
    power_w: float | None = None
    power_limit_w: float | None = None
    fan_percent: float | None = None
    sm_clock_mhz: float | None = None
    memory_clock_mhz: float | None = None
    pcie_gen: int | None = None
    pcie_gen_max: int | None = None
    pcie_width: int | None = None
    pcie_width_max: int | None = None
    pcie_rx_bytes_per_s: float | None = None
    pcie_tx_bytes_per_s: float | None = None
    pci_id: str | None = None  # "10de:2684": the PCI vendor and device id, which name the model
    throttle_reasons: int | None = None
    ecc_uncorrected: int | None = None
    energy_j: float | None = None  # NVML's total energy counter (Volta and later): joules since the driver loaded
    processes: tuple[GpuProcess, ...] = ()
    unsupported: frozenset[str] = frozenset()

    @property
    def memory_percent(self) -> float | None:
        return percent_of(self.memory_used_bytes, self.memory_total_bytes)

    @property
    def pcie_below_max(self) -> bool:
        gen = self.pcie_gen is not None and self.pcie_gen_max is not None and self.pcie_gen < self.pcie_gen_max
        width = (self.pcie_width is not None and self.pcie_width_max is not None
                 and self.pcie_width < self.pcie_width_max)
        return gen or width


@dataclass(frozen=True)
class TrainingProcess:
    """The busiest GPU process on this host and its child processes (DataLoader workers)."""

    pid: int
    name: str
    cpu_percent: float  # of one core
    workers: int
    workers_cpu_percent: tuple[float, ...] = ()


@dataclass(frozen=True)
class HostSample:
    hostname: str
    cpu_percent: float | None = None
    per_cpu_percent: tuple[float, ...] = ()
    iowait_percent: float | None = None
    load_1m: float | None = None
    load_5m: float | None = None
    load_15m: float | None = None
    memory_used_bytes: int | None = None
    memory_total_bytes: int | None = None
    swap_used_bytes: int | None = None
    swap_total_bytes: int | None = None
    disk_read_bytes_per_s: float | None = None
    disk_write_bytes_per_s: float | None = None
    net_rx_bytes_per_s: float | None = None
    net_tx_bytes_per_s: float | None = None
    own_cpu_percent: float | None = None  # this app, of one core
    cpu_energy_j: float | None = None  # RAPL package energy (all sockets), joules since an arbitrary start
    training: TrainingProcess | None = None

    @property
    def memory_percent(self) -> float | None:
        return percent_of(self.memory_used_bytes, self.memory_total_bytes)


@dataclass(frozen=True)
class NvmlStatus:
    available: bool
    error: str | None = None  # why not, in English (the code's own words; the UI explains it)
    error_kind: str | None = None  # "no_library" | "no_driver" | "no_permission" | "other"
    driver_version: str | None = None
    init_count: int = 0


@dataclass(frozen=True)
class Snapshot:
    time: float  # seconds since the epoch
    seq: int
    host: HostSample
    nvml: NvmlStatus
    gpus: tuple[GpuSample, ...] = ()
    interval_s: float = 1.0
    sample_cost_s: float = 0.0  # how long taking this sample took (wall)
    extra: dict[str, Any] = field(default_factory=dict, compare=False)


def iso_time(t: float) -> str:
    """Seconds since the epoch as the JSON documents write a time (local time, ISO 8601, ms)."""
    return datetime.fromtimestamp(t, tz=UTC).astimezone().isoformat(timespec="milliseconds")


def gpu_to_dict(g: GpuSample) -> dict[str, Any]:
    return {
        "index": g.index,
        "id": g.id,
        "name": g.name,
        "uuid": g.uuid,
        "mig_parent": g.mig_parent,
        "lost": g.lost,
        "utilization_gpu_percent": g.utilization_gpu_percent,
        "utilization_memory_percent": g.utilization_memory_percent,
        "memory_used_bytes": g.memory_used_bytes,
        "memory_total_bytes": g.memory_total_bytes,
        "temperature_c": g.temperature_c,
        "power_w": g.power_w,
        "power_limit_w": g.power_limit_w,
        "fan_percent": g.fan_percent,
        "sm_clock_mhz": g.sm_clock_mhz,
        "memory_clock_mhz": g.memory_clock_mhz,
        "pcie_gen": g.pcie_gen,
        "pcie_gen_max": g.pcie_gen_max,
        "pcie_width": g.pcie_width,
        "pcie_width_max": g.pcie_width_max,
        "pcie_rx_bytes_per_s": g.pcie_rx_bytes_per_s,
        "pcie_tx_bytes_per_s": g.pcie_tx_bytes_per_s,
        "throttle_reasons": None if g.throttle_reasons is None else reason_names(g.throttle_reasons),
        "ecc_uncorrected": g.ecc_uncorrected,
        "unsupported": sorted(g.unsupported),
        "processes": [
            {"pid": p.pid, "name": p.name, "user": p.user, "gpu_memory_bytes": p.gpu_memory_bytes,
             "access_denied": p.access_denied}
            for p in g.processes
        ],
    }


def host_to_dict(h: HostSample) -> dict[str, Any]:
    t = h.training
    return {
        "hostname": h.hostname,
        "cpu_percent": h.cpu_percent,
        "per_cpu_percent": list(h.per_cpu_percent),
        "iowait_percent": h.iowait_percent,
        "load_1m": h.load_1m,
        "load_5m": h.load_5m,
        "load_15m": h.load_15m,
        "memory_used_bytes": h.memory_used_bytes,
        "memory_total_bytes": h.memory_total_bytes,
        "swap_used_bytes": h.swap_used_bytes,
        "swap_total_bytes": h.swap_total_bytes,
        "disk_read_bytes_per_s": h.disk_read_bytes_per_s,
        "disk_write_bytes_per_s": h.disk_write_bytes_per_s,
        "net_rx_bytes_per_s": h.net_rx_bytes_per_s,
        "net_tx_bytes_per_s": h.net_tx_bytes_per_s,
        "own_cpu_percent": h.own_cpu_percent,
        "training": None if t is None else {
            "pid": t.pid, "name": t.name, "cpu_percent": t.cpu_percent, "workers": t.workers,
            "workers_cpu_percent": list(t.workers_cpu_percent),
        },
    }


def snapshot_to_dict(s: Snapshot) -> dict[str, Any]:
    """The `configurator monitor --once --json` document."""
    return {
        "time": iso_time(s.time),
        "host": host_to_dict(s.host),
        "nvml": {"available": s.nvml.available, "error": s.nvml.error, "error_kind": s.nvml.error_kind,
                 "driver_version": s.nvml.driver_version},
        "gpus": [gpu_to_dict(g) for g in s.gpus],
    }
