"""A fake NVML: the ``pynvml`` functions themselves, backed by scenario fixtures.

:class:`FakeNvml` has the same function names as ``pynvml`` (``nvmlInit``,
``nvmlDeviceGetMemoryInfo`` …), returns the same ctypes structures
(``c_nvmlMemory_t``, ``c_nvmlUtilization_t``, process-info objects built the
way pynvml builds them) and raises the real ``pynvml.NVMLError_*`` classes, so
the production backend (:mod:`configurator.monitor.nvml`) runs unchanged on it:
either handed the fake as its library, or with the fake patched into the
``pynvml`` module (:func:`patched`). Anything it does not implement answers like
an old driver would: ``NVMLError_FunctionNotFound``.

Scenarios cover the failure modes the monitor must survive: no library, driver
not loaded, a field not supported, a GPU lost mid-session (and recovered), no
``_v3`` process query (older driver), a process we may not inspect, MIG.
"""

from __future__ import annotations

import math
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pynvml

from configurator.core.units import GIB


@dataclass
class FakeProcess:
    pid: int
    used_memory: int
    name: str = "python train.py"
    gpu_instance: int = 0xFFFFFFFF
    compute_instance: int = 0xFFFFFFFF


@dataclass
class FakeMig:
    name: str = "NVIDIA A100-SXM4-40GB MIG 3g.20gb"
    memory_total: int = 20 * GIB
    memory_used: int = 6 * GIB
    processes: list[FakeProcess] = field(default_factory=list)


@dataclass
class FakeGpu:
    name: str = "NVIDIA GeForce RTX 3090"
    memory_total: int = 24 * GIB
    power_limit_w: float = 350.0
    idle_power_w: float = 30.0
    pcie_gen_max: int = 4
    pcie_width_max: int = 16
    pcie_gen: int = 4
    pcie_width: int = 16
    base_util: float = 85.0  # percent; the fake swings around it
    swing: float = 10.0
    memory_fraction: float = 0.6
    throttle: int = 0
    ecc_errors: int = 0
    unsupported: set[str] = field(default_factory=set)  # pynvml function names answering NotSupported
    failing: set[str] = field(default_factory=set)  # function names answering NVMLError_Unknown
    processes: list[FakeProcess] = field(default_factory=list)
    mig: list[FakeMig] | None = None  # MIG mode on, with these instances
    lost: bool = False
    uuid: str = ""
    pci_device_id: int | None = None  # PCI device id; None: the id of a model in PCI_DEVICE_IDS, else NotSupported


@dataclass
class Scenario:
    gpus: list[FakeGpu]
    library_missing: bool = False
    driver_not_loaded: bool = False
    missing_functions: set[str] = field(default_factory=set)  # FunctionNotFound (older driver)
    denied_pids: set[int] = field(default_factory=set)  # nvmlSystemGetProcessName: NoPermission
    driver_version: str = "550.54.15"


# PCI device ids (vendor 10de) of the fake's models, as the PCI ID Repository lists them.
PCI_DEVICE_IDS = {"NVIDIA GeForce RTX 4090": 0x2684, "NVIDIA GeForce RTX 3090": 0x2204, "NVIDIA RTX A6000": 0x2230,
                  "NVIDIA GeForce RTX 3060": 0x2503}
NVIDIA_PCI_VENDOR = 0x10DE

# -- scenario fixtures ------------------------------------------------------------------------------------------

_MODELS = [
    ("NVIDIA GeForce RTX 4090", 24, 450.0, 4),
    ("NVIDIA GeForce RTX 3090", 24, 350.0, 4),
    ("NVIDIA RTX A6000", 48, 300.0, 4),
    ("NVIDIA GeForce RTX 3060", 12, 170.0, 4),
]


def several(n: int = 4, *, model: int | None = None) -> Scenario:
    """n healthy GPUs under a training job, one process per GPU (like torchrun)."""
    gpus = []
    for i in range(n):
        name, vram, limit, gen = _MODELS[(model if model is not None else i) % len(_MODELS)]
        gpus.append(FakeGpu(
            name=name, memory_total=vram * GIB, power_limit_w=limit, pcie_gen_max=gen, pcie_gen=gen,
            base_util=88.0 - 4 * (i % 3), memory_fraction=0.55 + 0.08 * (i % 4),
            processes=[FakeProcess(pid=4_000_000 + i, used_memory=int(vram * GIB * 0.5),
                                   name=f"python train.py --local-rank {i}")]))
    return Scenario(gpus)


def no_library() -> Scenario:
    return Scenario([], library_missing=True)


def driver_not_loaded() -> Scenario:
    return Scenario([], driver_not_loaded=True)


def unsupported_fields() -> Scenario:
    """A consumer card without fan or ECC readings, and a laptop GPU without power readings."""
    s = several(2)
    s.gpus[0].unsupported |= {"nvmlDeviceGetFanSpeed", "nvmlDeviceGetTotalEccErrors"}
    s.gpus[1].unsupported |= {"nvmlDeviceGetPowerUsage", "nvmlDeviceGetEnforcedPowerLimit",
                              "nvmlDeviceGetPcieThroughput"}
    return s


def old_driver() -> Scenario:
    """A driver without the _v3 process query (and without the newer clock-event reasons)."""
    s = several(2)
    s.missing_functions |= {"nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetCurrentClocksEventReasons"}
    return s


def access_denied() -> Scenario:
    """Another user's process on GPU 0: the driver will not name it."""
    s = several(1)
    other = FakeProcess(pid=4_100_000, used_memory=2 * GIB, name="")
    s.gpus[0].processes.append(other)
    s.denied_pids.add(other.pid)
    return s


def mig() -> Scenario:
    """An A100 in MIG mode with two instances, next to an ordinary GPU."""
    s = several(1)
    a100 = FakeGpu(name="NVIDIA A100-SXM4-40GB", memory_total=40 * GIB, power_limit_w=400.0,
                   mig=[FakeMig(processes=[FakeProcess(pid=4_200_000, used_memory=5 * GIB)]),
                        FakeMig(name="NVIDIA A100-SXM4-40GB MIG 2g.10gb", memory_total=10 * GIB,
                                memory_used=1 * GIB)])
    s.gpus.append(a100)
    return s


def throttling() -> Scenario:
    s = several(2)
    s.gpus[0].throttle = 0x40 | 0x20  # thermal
    s.gpus[1].throttle = 0x80  # power brake
    return s


SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "several": several, "no_library": no_library, "driver_not_loaded": driver_not_loaded,
    "unsupported_fields": unsupported_fields, "old_driver": old_driver, "access_denied": access_denied,
    "mig": mig, "throttling": throttling,
}


# -- the fake library -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Handle:
    gpu: int
    mig: int | None = None


def _err(cls_name: str) -> pynvml.NVMLError:
    cls: type[pynvml.NVMLError] = getattr(pynvml, cls_name)
    return cls()


class FakeNvml:
    """Stands in for the ``pynvml`` module. Thread-safe enough for one sampler thread plus a test."""

    # Functions implemented here (and patched into pynvml by :func:`patched`).
    FUNCTIONS = (
        "nvmlInit", "nvmlShutdown", "nvmlSystemGetDriverVersion", "nvmlSystemGetProcessName",
        "nvmlDeviceGetCount", "nvmlDeviceGetHandleByIndex", "nvmlDeviceGetName", "nvmlDeviceGetUUID",
        "nvmlDeviceGetMemoryInfo", "nvmlDeviceGetUtilizationRates", "nvmlDeviceGetTemperature",
        "nvmlDeviceGetPowerUsage", "nvmlDeviceGetEnforcedPowerLimit", "nvmlDeviceGetFanSpeed",
        "nvmlDeviceGetClockInfo", "nvmlDeviceGetCurrPcieLinkGeneration", "nvmlDeviceGetMaxPcieLinkGeneration",
        "nvmlDeviceGetCurrPcieLinkWidth", "nvmlDeviceGetMaxPcieLinkWidth", "nvmlDeviceGetPcieThroughput",
        "nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons",
        "nvmlDeviceGetTotalEccErrors", "nvmlDeviceGetComputeRunningProcesses_v3",
        "nvmlDeviceGetComputeRunningProcesses_v2", "nvmlDeviceGetComputeRunningProcesses",
        "nvmlDeviceGetMigMode", "nvmlDeviceGetMaxMigDeviceCount", "nvmlDeviceGetMigDeviceHandleByIndex",
        "nvmlDeviceIsMigDeviceHandle", "nvmlDeviceGetTotalEnergyConsumption",
    )

    def __init__(self, scenario: Scenario, clock: Callable[[], float] = time.monotonic):
        self.scenario = scenario
        self.clock = clock
        self.initialised = False
        self.init_count = 0
        self.calls: Counter[tuple[str, int | None]] = Counter()  # (function, gpu index)
        self._lock = threading.Lock()
        self._energy: dict[int, tuple[float, float]] = {}  # GPU index → (clock, joules) at its last reading
        for i, g in enumerate(scenario.gpus):
            if not g.uuid:
                g.uuid = f"GPU-fa6e{i:04x}-0000-4000-8000-{i:012x}"

    # -- scenario control (tests, demos) -------------------------------------------------------------------------
    def lose(self, index: int) -> None:
        self.scenario.gpus[index].lost = True

    def recover(self, index: int) -> None:
        self.scenario.gpus[index].lost = False

    def count(self, function: str, gpu: int | None = None) -> int:
        return sum(n for (name, g), n in self.calls.items() if name == function and (gpu is None or g == gpu))

    # -- plumbing --------------------------------------------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        # Constants, structures and error classes are pynvml's own.
        value = getattr(pynvml, name)
        if name.startswith("nvml") and callable(value) and not isinstance(value, type):
            def missing(*_args: Any, **_kwargs: Any) -> Any:
                raise _err("NVMLError_FunctionNotFound")
            return missing
        return value

    def _enter(self, function: str, handle: _Handle | None = None) -> FakeGpu | None:
        with self._lock:
            self.calls[(function, handle.gpu if handle else None)] += 1
        if function in self.scenario.missing_functions:
            raise _err("NVMLError_FunctionNotFound")
        if not self.initialised:
            raise _err("NVMLError_Uninitialized")
        if handle is None:
            return None
        if not isinstance(handle, _Handle) or handle.gpu >= len(self.scenario.gpus):
            raise _err("NVMLError_InvalidArgument")
        gpu = self.scenario.gpus[handle.gpu]
        if gpu.lost:
            raise _err("NVMLError_GpuIsLost")
        if function in gpu.unsupported:
            raise _err("NVMLError_NotSupported")
        if function in gpu.failing:
            raise _err("NVMLError_Unknown")
        return gpu

    def _phase(self, handle: _Handle) -> float:
        return self.clock() / 7.0 + handle.gpu * 1.3

    def _util(self, gpu: FakeGpu, handle: _Handle) -> float:
        u = gpu.base_util + gpu.swing * math.sin(self._phase(handle))
        return max(0.0, min(100.0, u))

    # -- init ------------------------------------------------------------------------------------------------------
    def nvmlInit(self) -> None:
        with self._lock:
            self.calls[("nvmlInit", None)] += 1
        if self.scenario.library_missing:
            raise _err("NVMLError_LibraryNotFound")
        if self.scenario.driver_not_loaded:
            raise _err("NVMLError_DriverNotLoaded")
        self.initialised = True
        self.init_count += 1

    def nvmlShutdown(self) -> None:
        self._enter("nvmlShutdown")
        self.initialised = False

    def nvmlSystemGetDriverVersion(self) -> str:
        self._enter("nvmlSystemGetDriverVersion")
        return self.scenario.driver_version

    def nvmlSystemGetProcessName(self, pid: int) -> str:
        self._enter("nvmlSystemGetProcessName")
        if pid in self.scenario.denied_pids:
            raise _err("NVMLError_NoPermission")
        for p in self._all_processes():
            if p.pid == pid:
                return p.name
        raise _err("NVMLError_NotFound")

    def _all_processes(self) -> Iterator[FakeProcess]:
        for g in self.scenario.gpus:
            yield from g.processes
            for m in g.mig or ():
                yield from m.processes

    # -- enumeration -----------------------------------------------------------------------------------------------
    def nvmlDeviceGetCount(self) -> int:
        self._enter("nvmlDeviceGetCount")
        return len(self.scenario.gpus)

    def nvmlDeviceGetHandleByIndex(self, index: int) -> _Handle:
        self._enter("nvmlDeviceGetHandleByIndex")
        if not 0 <= index < len(self.scenario.gpus):
            raise _err("NVMLError_InvalidArgument")
        if self.scenario.gpus[index].lost:
            raise _err("NVMLError_GpuIsLost")
        return _Handle(index)

    def nvmlDeviceGetName(self, handle: _Handle) -> str:
        gpu = self._enter("nvmlDeviceGetName", handle)
        assert gpu is not None
        if handle.mig is not None and gpu.mig:
            return gpu.mig[handle.mig].name
        return gpu.name

    def nvmlDeviceGetUUID(self, handle: _Handle) -> str:
        gpu = self._enter("nvmlDeviceGetUUID", handle)
        assert gpu is not None
        if handle.mig is not None:
            return f"MIG-{gpu.uuid[4:-4]}{handle.mig:04x}"
        return gpu.uuid

    def nvmlDeviceGetMigMode(self, handle: _Handle) -> list[int]:
        gpu = self._enter("nvmlDeviceGetMigMode", handle)
        assert gpu is not None
        if gpu.mig is None:
            raise _err("NVMLError_NotSupported")
        return [1, 1]

    def nvmlDeviceGetMaxMigDeviceCount(self, handle: _Handle) -> int:
        gpu = self._enter("nvmlDeviceGetMaxMigDeviceCount", handle)
        assert gpu is not None
        return 7 if gpu.mig is not None else 0

    def nvmlDeviceGetMigDeviceHandleByIndex(self, handle: _Handle, index: int) -> _Handle:
        gpu = self._enter("nvmlDeviceGetMigDeviceHandleByIndex", handle)
        assert gpu is not None
        if not gpu.mig or index >= len(gpu.mig):
            raise _err("NVMLError_NotFound")
        return _Handle(handle.gpu, index)

    def nvmlDeviceIsMigDeviceHandle(self, handle: _Handle) -> int:
        self._enter("nvmlDeviceIsMigDeviceHandle", handle)
        return int(handle.mig is not None)

    # -- fast fields -------------------------------------------------------------------------------------------------
    def nvmlDeviceGetMemoryInfo(self, handle: _Handle, version: int | None = None) -> Any:
        gpu = self._enter("nvmlDeviceGetMemoryInfo", handle)
        assert gpu is not None
        mem = pynvml.c_nvmlMemory_t()
        if handle.mig is not None and gpu.mig:
            m = gpu.mig[handle.mig]
            total, used = m.memory_total, m.memory_used
        else:
            total = gpu.memory_total
            used = int(total * min(0.99, gpu.memory_fraction + 0.02 * math.sin(self._phase(handle) / 3)))
            if gpu.mig:
                used = sum(m.memory_used for m in gpu.mig)
        mem.total, mem.used, mem.free = total, used, total - used
        return mem

    def nvmlDeviceGetUtilizationRates(self, handle: _Handle) -> Any:
        gpu = self._enter("nvmlDeviceGetUtilizationRates", handle)
        assert gpu is not None
        if gpu.mig is not None:  # NVML does not report utilisation per MIG device, nor for its parent
            raise _err("NVMLError_NotSupported")
        util = pynvml.c_nvmlUtilization_t()
        u = self._util(gpu, handle)
        util.gpu = round(u)
        util.memory = round(u * 0.45)
        return util

    def _physical_only(self, gpu: FakeGpu, handle: _Handle) -> None:
        if handle.mig is not None:
            raise _err("NVMLError_NotSupported")

    def nvmlDeviceGetPowerUsage(self, handle: _Handle) -> int:
        gpu = self._enter("nvmlDeviceGetPowerUsage", handle)
        assert gpu is not None
        self._physical_only(gpu, handle)
        u = 50.0 if gpu.mig is not None else self._util(gpu, handle)
        return int((gpu.idle_power_w + (gpu.power_limit_w - gpu.idle_power_w) * u / 100 * 0.95) * 1000)

    def nvmlDeviceGetTotalEnergyConsumption(self, handle: _Handle) -> int:
        """mJ since the fake driver loaded (clock 0): the integral of nvmlDeviceGetPowerUsage's power,
        idle + (limit − idle)·0.95·u/100 with u = base + swing·sin(t/7 + φ), in closed form from the last
        reading on, so a scenario whose load changes between readings (a demo's phases) keeps a counter
        that only rises, at the power it reported."""
        gpu = self._enter("nvmlDeviceGetTotalEnergyConsumption", handle)
        assert gpu is not None
        self._physical_only(gpu, handle)
        t = self.clock()
        phi = handle.gpu * 1.3
        with self._lock:
            a, joules = self._energy.get(handle.gpu, (0.0, 0.0))
            if t > a:
                util_seconds = gpu.base_util * (t - a) + gpu.swing * 7.0 * (math.cos(a / 7.0 + phi)
                                                                            - math.cos(t / 7.0 + phi))
                joules += max(gpu.idle_power_w * (t - a)
                              + (gpu.power_limit_w - gpu.idle_power_w) * 0.95 * util_seconds / 100, 0.0)
                self._energy[handle.gpu] = (t, joules)
        return int(joules * 1000)

    def nvmlDeviceGetClockInfo(self, handle: _Handle, clock_type: int) -> int:
        gpu = self._enter("nvmlDeviceGetClockInfo", handle)
        assert gpu is not None
        self._physical_only(gpu, handle)
        if clock_type == pynvml.NVML_CLOCK_MEM:
            return 9751
        return int(1395 + 5.5 * (self._util(gpu, handle) if gpu.mig is None else 50))

    def nvmlDeviceGetCurrPcieLinkGeneration(self, handle: _Handle) -> int:
        gpu = self._enter("nvmlDeviceGetCurrPcieLinkGeneration", handle)
        assert gpu is not None
        self._physical_only(gpu, handle)
        return gpu.pcie_gen

    def nvmlDeviceGetCurrPcieLinkWidth(self, handle: _Handle) -> int:
        gpu = self._enter("nvmlDeviceGetCurrPcieLinkWidth", handle)
        assert gpu is not None
        self._physical_only(gpu, handle)
        return gpu.pcie_width

    def nvmlDeviceGetCurrentClocksEventReasons(self, handle: _Handle) -> int:
        gpu = self._enter("nvmlDeviceGetCurrentClocksEventReasons", handle)
        assert gpu is not None
        self._physical_only(gpu, handle)
        return gpu.throttle

    def nvmlDeviceGetCurrentClocksThrottleReasons(self, handle: _Handle) -> int:
        gpu = self._enter("nvmlDeviceGetCurrentClocksThrottleReasons", handle)
        assert gpu is not None
        self._physical_only(gpu, handle)
        return gpu.throttle

    def _procs(self, function: str, handle: _Handle) -> list[Any]:
        gpu = self._enter(function, handle)
        assert gpu is not None
        if handle.mig is not None and gpu.mig:
            procs = gpu.mig[handle.mig].processes
        elif gpu.mig is not None:
            procs = []  # under MIG the processes are listed on the MIG devices
        else:
            procs = gpu.processes
        out = []
        for p in procs:
            info = pynvml.c_nvmlProcessInfo_v2_t()
            info.pid, info.usedGpuMemory = p.pid, p.used_memory
            info.gpuInstanceId, info.computeInstanceId = p.gpu_instance, p.compute_instance
            out.append(pynvml.nvmlStructToFriendlyObject(info))
        return out

    def nvmlDeviceGetComputeRunningProcesses_v3(self, handle: _Handle) -> list[Any]:
        return self._procs("nvmlDeviceGetComputeRunningProcesses_v3", handle)

    def nvmlDeviceGetComputeRunningProcesses_v2(self, handle: _Handle) -> list[Any]:
        return self._procs("nvmlDeviceGetComputeRunningProcesses_v2", handle)

    def nvmlDeviceGetComputeRunningProcesses(self, handle: _Handle) -> list[Any]:
        # pynvml's unversioned wrapper calls _v3 and turns FunctionNotFound into NVMLLibraryMismatchError.
        try:
            return self.nvmlDeviceGetComputeRunningProcesses_v3(handle)
        except pynvml.NVMLError_FunctionNotFound:
            raise pynvml.NVMLLibraryMismatchError("Unversioned function called and the pyNVML version does "
                                                  "not match the NVML lib version.") from None

    # -- slow fields -------------------------------------------------------------------------------------------------
    def nvmlDeviceGetTemperature(self, handle: _Handle, sensor: int) -> int:
        gpu = self._enter("nvmlDeviceGetTemperature", handle)
        assert gpu is not None
        self._physical_only(gpu, handle)
        hot = 20 if gpu.throttle & 0x60 else 0
        return int(38 + 0.42 * (self._util(gpu, handle) if gpu.mig is None else 50) + hot)

    def nvmlDeviceGetFanSpeed(self, handle: _Handle) -> int:
        gpu = self._enter("nvmlDeviceGetFanSpeed", handle)
        assert gpu is not None
        self._physical_only(gpu, handle)
        return int(30 + 0.5 * (self._util(gpu, handle) if gpu.mig is None else 50))

    def nvmlDeviceGetTotalEccErrors(self, handle: _Handle, error_type: int, counter_type: int) -> int:
        gpu = self._enter("nvmlDeviceGetTotalEccErrors", handle)
        assert gpu is not None
        return gpu.ecc_errors

    def nvmlDeviceGetEnforcedPowerLimit(self, handle: _Handle) -> int:
        gpu = self._enter("nvmlDeviceGetEnforcedPowerLimit", handle)
        assert gpu is not None
        self._physical_only(gpu, handle)
        return int(gpu.power_limit_w * 1000)

    def nvmlDeviceGetPciInfo(self, handle: _Handle) -> Any:
        gpu = self._enter("nvmlDeviceGetPciInfo", handle)
        assert gpu is not None
        self._physical_only(gpu, handle)
        device = gpu.pci_device_id if gpu.pci_device_id is not None else PCI_DEVICE_IDS.get(gpu.name)
        if device is None:
            raise _err("NVMLError_NotSupported")
        info = pynvml.nvmlPciInfo_t()
        info.pciDeviceId = device << 16 | NVIDIA_PCI_VENDOR
        info.bus = handle.gpu + 1
        return info

    def nvmlDeviceGetMaxPcieLinkGeneration(self, handle: _Handle) -> int:
        gpu = self._enter("nvmlDeviceGetMaxPcieLinkGeneration", handle)
        assert gpu is not None
        self._physical_only(gpu, handle)
        return gpu.pcie_gen_max

    def nvmlDeviceGetMaxPcieLinkWidth(self, handle: _Handle) -> int:
        gpu = self._enter("nvmlDeviceGetMaxPcieLinkWidth", handle)
        assert gpu is not None
        self._physical_only(gpu, handle)
        return gpu.pcie_width_max

    def nvmlDeviceGetPcieThroughput(self, handle: _Handle, counter: int) -> int:
        gpu = self._enter("nvmlDeviceGetPcieThroughput", handle)
        assert gpu is not None
        self._physical_only(gpu, handle)
        u = self._util(gpu, handle) if gpu.mig is None else 50
        kb = 120_000 + 40_000 * u if counter == pynvml.NVML_PCIE_UTIL_RX_BYTES else 30_000 + 2_000 * u
        return int(kb)  # KB/s, like NVML


@contextmanager
def patched(fake: FakeNvml) -> Iterator[FakeNvml]:
    """Replace the functions of the real ``pynvml`` module by the fake's, for the duration."""
    saved = {name: getattr(pynvml, name) for name in FakeNvml.FUNCTIONS if hasattr(pynvml, name)}
    try:
        for name in FakeNvml.FUNCTIONS:
            setattr(pynvml, name, getattr(fake, name))
        yield fake
    finally:
        for name in FakeNvml.FUNCTIONS:
            if name in saved:
                setattr(pynvml, name, saved[name])
            else:
                delattr(pynvml, name)
