"""The NVML backend: every NVIDIA GPU (and MIG device) through ``pynvml`` (nvidia-ml-py).

Rules it keeps (DESIGN.md convention 6):

* NVML is initialised once, and again only to recover a lost GPU; nvidia-smi is
  never spawned.
* A field a device does not support is ``None`` and is not asked again.
* One failing call never stops sampling: it gives ``None`` for that field, this time.
* A GPU lost mid-session is marked lost, the others go on, and recovery is tried
  every ``retry_s`` seconds.
* Slow fields (temperature, fan, ECC, limits, PCIe throughput, which blocks for
  about 20 ms per counter in the driver) are read only when asked (``slow=True``).

Only the sampler thread calls :meth:`NvmlBackend.sample`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psutil
import pynvml

from configurator.monitor.snapshot import GpuProcess, GpuSample, NvmlStatus

log = logging.getLogger(__name__)

# Process queries, newest first; one that the driver lacks (FunctionNotFound) is dropped for good.
PROCESS_FUNCTIONS = (
    "nvmlDeviceGetComputeRunningProcesses_v3",
    "nvmlDeviceGetComputeRunningProcesses_v2",
    "nvmlDeviceGetComputeRunningProcesses",
)
THROTTLE_FUNCTIONS = ("nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons")

# Errors meaning "this device will never answer this": remember and stop asking.
_NEVER = (pynvml.NVMLError_NotSupported, pynvml.NVMLError_FunctionNotFound, pynvml.NVMLError_InvalidArgument)


def _text(value: Any) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def pci_id(info: Any) -> str | None:
    """NVML's PCI info as "vendor:device" ("10de:2684"): its pciDeviceId holds the device id in the high
    16 bits and the vendor's in the low."""
    raw = getattr(info, "pciDeviceId", None)
    if not raw:
        return None
    return f"{int(raw) & 0xFFFF:04x}:{int(raw) >> 16 & 0xFFFF:04x}"


def classify_init_error(exc: BaseException) -> str:
    if isinstance(exc, pynvml.NVMLError_LibraryNotFound):
        return "no_library"
    if isinstance(exc, pynvml.NVMLError_DriverNotLoaded):
        return "no_driver"
    if isinstance(exc, pynvml.NVMLError_NoPermission):
        return "no_permission"
    return "other"


class _LostError(Exception):
    pass


@dataclass
class _Device:
    index: int
    id: str
    handle: Any
    name: str
    uuid: str
    mig_parent: int | None = None
    unsupported: set[str] = field(default_factory=set)
    lost: bool = False
    lost_at: float = 0.0
    slow: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ProcessInfo:
    name: str | None
    user: str | None
    parent_pid: int | None
    access_denied: bool


def describe_process(pid: int) -> ProcessInfo | None:
    """Name, user and parent of a host process by psutil; None if it is not ours to see (other PID namespace)."""
    try:
        proc = psutil.Process(pid)
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return None
    except psutil.AccessDenied:
        return ProcessInfo(None, None, None, True)
    denied = False
    name: str | None = None
    user: str | None = None
    parent: int | None = None
    try:
        with proc.oneshot():
            try:
                cmd = proc.cmdline()
                if cmd:
                    name = " ".join([os.path.basename(cmd[0]), *cmd[1:]])[:80]
            except psutil.AccessDenied:
                denied = True
            if not name:
                name = proc.name()
            try:
                user = proc.username()
            except (psutil.AccessDenied, KeyError):  # KeyError: uid without a passwd entry
                denied = True
            parent = proc.ppid()
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return None
    except psutil.AccessDenied:
        denied = True
    return ProcessInfo(name, user, parent, denied)


class NvmlBackend:
    """Reads every GPU; ``lib`` is the ``pynvml`` module (default) or a stand-in with the same functions."""

    def __init__(self, lib: Any = None, *, retry_s: float = 10.0,
                 clock: Callable[[], float] = time.monotonic,
                 describe: Callable[[int], ProcessInfo | None] = describe_process):
        self.lib: Any = lib if lib is not None else pynvml
        self.retry_s = retry_s
        self.clock = clock
        self.describe = describe
        self.devices: list[_Device] = []
        self.status = NvmlStatus(False, "not initialised", "other")
        self.init_count = 0
        self.errors = 0  # failed calls, all fields together (for tests and the log)
        self._process_functions = list(PROCESS_FUNCTIONS)
        self._throttle_functions = list(THROTTLE_FUNCTIONS)
        self._pid_cache: dict[int, ProcessInfo] = {}
        self._started = False

    # -- lifecycle -------------------------------------------------------------------------------------------------
    def start(self) -> NvmlStatus:
        """Initialise NVML once. Never raises: a missing driver is a status, not an error."""
        if self._started:
            return self.status
        self._started = True
        try:
            self.lib.nvmlInit()
        except pynvml.NVMLError as exc:
            self.status = NvmlStatus(False, str(exc), classify_init_error(exc))
            log.info("NVML not available: %s", exc)
            return self.status
        except OSError as exc:  # a broken libnvidia-ml
            self.status = NvmlStatus(False, str(exc), "no_library")
            return self.status
        self.init_count += 1
        driver = None
        with contextlib.suppress(pynvml.NVMLError):
            driver = _text(self.lib.nvmlSystemGetDriverVersion())
        self.devices = self._enumerate([])
        self.status = NvmlStatus(True, None, None, driver, self.init_count)
        return self.status

    def close(self) -> None:
        if self._started and self.status.available:
            with contextlib.suppress(pynvml.NVMLError):
                self.lib.nvmlShutdown()
        self._started = False
        self.status = NvmlStatus(False, "not initialised", "other")

    def _enumerate(self, previous: list[_Device]) -> list[_Device]:
        known = {d.uuid: d for d in previous}
        old_by_index = {d.id: d for d in previous}
        try:
            count = int(self.lib.nvmlDeviceGetCount())
        except pynvml.NVMLError as exc:
            log.warning("nvmlDeviceGetCount failed: %s", exc)
            return previous
        devices: list[_Device] = []
        now = self.clock()
        for i in range(count):
            try:
                handle = self.lib.nvmlDeviceGetHandleByIndex(i)
                name = _text(self.lib.nvmlDeviceGetName(handle))
                uuid = _text(self.lib.nvmlDeviceGetUUID(handle))
            except pynvml.NVMLError as exc:
                old = old_by_index.get(str(i))
                lost = old if old is not None else _Device(i, str(i), None, f"GPU {i}", "")
                lost.handle, lost.lost = None, True
                lost.lost_at = now if not old or not old.lost else old.lost_at
                log.warning("GPU %d not reachable: %s", i, exc)
                devices.append(lost)
                continue
            dev = known.get(uuid) or _Device(i, str(i), handle, name, uuid)
            dev.handle, dev.name, dev.lost, dev.index = handle, name, False, i
            devices.append(dev)
            devices.extend(self._mig_devices(dev, known))
        return devices

    def _mig_devices(self, parent: _Device, known: dict[str, _Device]) -> list[_Device]:
        if "mig" in parent.unsupported:
            return []
        try:
            current, _pending = self.lib.nvmlDeviceGetMigMode(parent.handle)
        except _NEVER:
            parent.unsupported.add("mig")
            return []
        except pynvml.NVMLError:
            return []
        if current != pynvml.NVML_DEVICE_MIG_ENABLE:
            return []
        out: list[_Device] = []
        try:
            n = int(self.lib.nvmlDeviceGetMaxMigDeviceCount(parent.handle))
        except pynvml.NVMLError:
            return []
        for m in range(n):
            try:
                handle = self.lib.nvmlDeviceGetMigDeviceHandleByIndex(parent.handle, m)
                name = _text(self.lib.nvmlDeviceGetName(handle))
                uuid = _text(self.lib.nvmlDeviceGetUUID(handle))
            except pynvml.NVMLError:
                continue  # NotFound: an empty MIG slot
            dev = known.get(uuid) or _Device(parent.index, f"{parent.index}.mig{m}", handle, name, uuid,
                                             mig_parent=parent.index)
            dev.handle, dev.lost = handle, False
            out.append(dev)
        return out

    def _recover(self) -> None:
        """Initialise NVML again (the only other time it is) and look for the lost GPUs."""
        log.info("trying to recover lost GPUs")
        with contextlib.suppress(pynvml.NVMLError):
            self.lib.nvmlShutdown()
        try:
            self.lib.nvmlInit()
        except pynvml.NVMLError as exc:
            log.warning("NVML re-initialisation failed: %s", exc)
            now = self.clock()
            for d in self.devices:
                if d.lost:
                    d.lost_at = now
            return
        self.init_count += 1
        self.devices = self._enumerate(self.devices)
        self.status = NvmlStatus(True, None, None, self.status.driver_version, self.init_count)

    # -- reading ----------------------------------------------------------------------------------------------------
    def _call(self, dev: _Device, key: str, function: str, *args: Any) -> Any:
        if key in dev.unsupported:
            return None
        try:
            return getattr(self.lib, function)(dev.handle, *args)
        except _NEVER:
            dev.unsupported.add(key)
            return None
        except pynvml.NVMLError_GpuIsLost:
            raise _LostError() from None
        except pynvml.NVMLError as exc:
            self.errors += 1
            log.debug("%s on GPU %s failed: %s", function, dev.id, exc)
            return None

    def _first(self, dev: _Device, key: str, functions: list[str]) -> Any:
        """Try versions newest first; drop (for every device) one the driver does not have."""
        if key in dev.unsupported:
            return None
        while functions:
            name = functions[0]
            try:
                return getattr(self.lib, name)(dev.handle)
            except (pynvml.NVMLError_FunctionNotFound, pynvml.NVMLLibraryMismatchError, AttributeError):
                log.info("%s not in this driver; falling back", name)
                functions.pop(0)
            except (pynvml.NVMLError_NotSupported, pynvml.NVMLError_InvalidArgument):
                dev.unsupported.add(key)
                return None
            except pynvml.NVMLError_GpuIsLost:
                raise _LostError() from None
            except pynvml.NVMLError as exc:
                self.errors += 1
                log.debug("%s on GPU %s failed: %s", name, dev.id, exc)
                return None
        dev.unsupported.add(key)
        return None

    def _process(self, pid: int, used: int | None) -> GpuProcess:
        info = self._pid_cache.get(pid)
        if info is None:
            host = self.describe(pid)
            name = host.name if host else None
            denied = host.access_denied if host else False
            if not name:  # not visible to psutil (another PID namespace, or denied): ask the driver
                try:
                    name = _text(self.lib.nvmlSystemGetProcessName(pid)) or None
                except pynvml.NVMLError_NoPermission:
                    denied = True
                except pynvml.NVMLError:
                    pass
            info = ProcessInfo(name, host.user if host else None, host.parent_pid if host else None, denied)
            self._pid_cache[pid] = info
        return GpuProcess(pid, used, info.name, info.user, info.parent_pid, info.access_denied)

    def _processes(self, dev: _Device) -> tuple[GpuProcess, ...]:
        procs = self._first(dev, "processes", self._process_functions)
        if not procs:
            return ()
        out = []
        for p in procs:
            used = getattr(p, "usedGpuMemory", None)
            out.append(self._process(int(p.pid), None if used is None else int(used)))
        return tuple(out)

    def _read(self, dev: _Device, slow: bool) -> GpuSample:
        lib = self.lib
        util = self._call(dev, "utilization", "nvmlDeviceGetUtilizationRates")
        mem = self._call(dev, "memory", "nvmlDeviceGetMemoryInfo")
        power = self._call(dev, "power", "nvmlDeviceGetPowerUsage")
        sm = self._call(dev, "sm_clock", "nvmlDeviceGetClockInfo", lib.NVML_CLOCK_SM)
        memclk = self._call(dev, "memory_clock", "nvmlDeviceGetClockInfo", lib.NVML_CLOCK_MEM)
        gen = self._call(dev, "pcie_gen", "nvmlDeviceGetCurrPcieLinkGeneration")
        width = self._call(dev, "pcie_width", "nvmlDeviceGetCurrPcieLinkWidth")
        throttle = self._first(dev, "throttle", self._throttle_functions)
        energy = self._call(dev, "energy", "nvmlDeviceGetTotalEnergyConsumption")
        processes = self._processes(dev)
        if slow or not dev.slow:
            rx = self._call(dev, "pcie_rx", "nvmlDeviceGetPcieThroughput", lib.NVML_PCIE_UTIL_RX_BYTES)
            tx = self._call(dev, "pcie_tx", "nvmlDeviceGetPcieThroughput", lib.NVML_PCIE_UTIL_TX_BYTES)
            limit = self._call(dev, "power_limit", "nvmlDeviceGetEnforcedPowerLimit")
            dev.slow = {
                "temperature_c": self._call(dev, "temperature", "nvmlDeviceGetTemperature",
                                            lib.NVML_TEMPERATURE_GPU),
                "fan_percent": self._call(dev, "fan", "nvmlDeviceGetFanSpeed"),
                "ecc_uncorrected": self._call(dev, "ecc", "nvmlDeviceGetTotalEccErrors",
                                              lib.NVML_MEMORY_ERROR_TYPE_UNCORRECTED, lib.NVML_VOLATILE_ECC),
                "power_limit_w": None if limit is None else limit / 1000.0,
                "pcie_gen_max": self._call(dev, "pcie_gen_max", "nvmlDeviceGetMaxPcieLinkGeneration"),
                "pcie_width_max": self._call(dev, "pcie_width_max", "nvmlDeviceGetMaxPcieLinkWidth"),
                "pci_id": pci_id(self._call(dev, "pci", "nvmlDeviceGetPciInfo")),
                "pcie_rx_bytes_per_s": None if rx is None else rx * 1024.0,
                "pcie_tx_bytes_per_s": None if tx is None else tx * 1024.0,
            }
        s = dev.slow
        return GpuSample(
            index=dev.index, id=dev.id, name=dev.name, uuid=dev.uuid, mig_parent=dev.mig_parent,
            utilization_gpu_percent=None if util is None else float(util.gpu),
            utilization_memory_percent=None if util is None else float(util.memory),
            memory_used_bytes=None if mem is None else int(mem.used),
            memory_total_bytes=None if mem is None else int(mem.total),
            temperature_c=None if s["temperature_c"] is None else float(s["temperature_c"]),
            power_w=None if power is None else power / 1000.0,
            power_limit_w=s["power_limit_w"],
            fan_percent=None if s["fan_percent"] is None else float(s["fan_percent"]),
            sm_clock_mhz=None if sm is None else float(sm),
            memory_clock_mhz=None if memclk is None else float(memclk),
            pcie_gen=gen, pcie_gen_max=s["pcie_gen_max"], pcie_width=width, pcie_width_max=s["pcie_width_max"],
            pcie_rx_bytes_per_s=s["pcie_rx_bytes_per_s"], pcie_tx_bytes_per_s=s["pcie_tx_bytes_per_s"],
            pci_id=s.get("pci_id"),
            throttle_reasons=None if throttle is None else int(throttle),
            ecc_uncorrected=s["ecc_uncorrected"],
            energy_j=None if energy is None else energy / 1000.0,
            processes=processes,
            unsupported=frozenset(dev.unsupported),
        )

    def sample(self, slow: bool = True) -> tuple[NvmlStatus, tuple[GpuSample, ...]]:
        if not self._started:
            self.start()
        if not self.status.available:
            return self.status, ()
        now = self.clock()
        if any(d.lost and now - d.lost_at >= self.retry_s for d in self.devices):
            self._recover()
        out: list[GpuSample] = []
        seen: set[int] = set()
        for dev in list(self.devices):
            if not dev.lost:
                try:
                    sample = self._read(dev, slow)
                except _LostError:
                    log.warning("GPU %s (%s) is lost", dev.id, dev.name)
                    dev.lost, dev.lost_at, dev.slow = True, now, {}
                else:
                    out.append(sample)
                    seen.update(p.pid for p in sample.processes)
                    continue
            out.append(GpuSample(index=dev.index, id=dev.id, name=dev.name, uuid=dev.uuid,
                                 mig_parent=dev.mig_parent, lost=True, unsupported=frozenset(dev.unsupported)))
        for pid in [p for p in self._pid_cache if p not in seen]:
            del self._pid_cache[pid]
        return self.status, tuple(out)
