"""The production NVML backend, unchanged, on the fake NVML: every failure mode."""

from __future__ import annotations

import psutil
import pynvml
import pytest

from configurator.monitor import fake_nvml
from configurator.monitor.fake_nvml import FakeNvml, patched
from configurator.monitor.nvml import NvmlBackend, describe_process

GiB = 1024**3


def test_several_gpus_values_and_units(make_backend) -> None:  # type: ignore[no-untyped-def]
    backend, fake = make_backend(fake_nvml.several(4))
    status, gpus = backend.sample()
    assert status.available and status.driver_version == "550.54.15" and status.error is None
    assert [g.id for g in gpus] == ["0", "1", "2", "3"]
    g = gpus[0]
    assert g.name == "NVIDIA GeForce RTX 4090" and g.uuid.startswith("GPU-")
    assert g.memory_total_bytes == 24 * GiB and 0 < g.memory_used_bytes < g.memory_total_bytes
    assert 0 <= g.utilization_gpu_percent <= 100
    assert 30 < g.power_w <= 450 and g.power_limit_w == 450.0  # mW → W
    assert g.pcie_rx_bytes_per_s > 1e6  # KB/s → B/s
    assert (g.pcie_gen, g.pcie_gen_max, g.pcie_width, g.pcie_width_max) == (4, 4, 16, 16)
    assert g.temperature_c is not None and g.fan_percent is not None and g.ecc_uncorrected == 0
    assert g.throttle_reasons == 0
    assert len(g.processes) == 1 and g.processes[0].gpu_memory_bytes == 12 * GiB
    assert g.processes[0].name == "python train.py --local-rank 0"  # not a host pid: the driver's name
    assert fake.count("nvmlInit") == 1


def test_backend_runs_unchanged_on_the_patched_pynvml_module() -> None:
    fake = FakeNvml(fake_nvml.several(2))
    with patched(fake):
        backend = NvmlBackend()  # the default: the real `pynvml` module
        status, gpus = backend.sample()
        backend.close()
    assert status.available and len(gpus) == 2
    assert fake.count("nvmlDeviceGetMemoryInfo") == 2
    assert pynvml.nvmlInit is not fake.nvmlInit  # restored


def test_real_pynvml_without_a_driver_is_a_state_not_a_crash() -> None:
    backend = NvmlBackend()
    status, gpus = backend.sample()
    if status.available:
        backend.close()
        pytest.skip("this machine has an NVIDIA driver")
    assert gpus == () and status.error_kind in ("no_library", "no_driver")
    assert "Not Found" in (status.error or "") or "Driver" in (status.error or "")
    backend.sample()
    backend.close()


@pytest.mark.parametrize(("scenario", "kind"), [(fake_nvml.no_library, "no_library"),
                                                (fake_nvml.driver_not_loaded, "no_driver")])
def test_no_library_or_driver(make_backend, scenario, kind) -> None:  # type: ignore[no-untyped-def]
    backend, fake = make_backend(scenario())
    for _ in range(3):
        status, gpus = backend.sample()
        assert not status.available and status.error_kind == kind and gpus == ()
    assert fake.count("nvmlInit") == 1  # initialised (tried) once


def test_unsupported_field_is_none_and_not_asked_again(make_backend) -> None:  # type: ignore[no-untyped-def]
    backend, fake = make_backend(fake_nvml.unsupported_fields())
    for _ in range(5):
        _status, gpus = backend.sample(slow=True)
    g0, g1 = gpus
    assert g0.fan_percent is None and g0.ecc_uncorrected is None and {"fan", "ecc"} <= g0.unsupported
    assert g1.fan_percent is not None and g1.power_w is None and g1.power_limit_w is None
    assert g1.pcie_rx_bytes_per_s is None and "power" in g1.unsupported
    assert fake.count("nvmlDeviceGetFanSpeed", gpu=0) == 1
    assert fake.count("nvmlDeviceGetFanSpeed", gpu=1) == 5
    assert fake.count("nvmlDeviceGetPowerUsage", gpu=1) == 1
    assert fake.count("nvmlDeviceGetPowerUsage", gpu=0) == 5


def test_a_failing_call_is_none_this_time_and_sampling_goes_on(make_backend) -> None:  # type: ignore[no-untyped-def]
    scenario = fake_nvml.several(2)
    scenario.gpus[0].failing.add("nvmlDeviceGetUtilizationRates")
    backend, _fake = make_backend(scenario)
    _s, gpus = backend.sample()
    assert gpus[0].utilization_gpu_percent is None and gpus[0].memory_used_bytes is not None
    assert gpus[1].utilization_gpu_percent is not None and backend.errors == 1
    scenario.gpus[0].failing.clear()
    _s, gpus = backend.sample()
    assert gpus[0].utilization_gpu_percent is not None  # asked again: it was not "not supported"


def test_slow_fields_are_read_less_often(make_backend) -> None:  # type: ignore[no-untyped-def]
    backend, fake = make_backend(fake_nvml.several(1))
    backend.sample(slow=True)
    for _ in range(4):
        _s, gpus = backend.sample(slow=False)
    assert fake.count("nvmlDeviceGetUtilizationRates") == 5
    assert fake.count("nvmlDeviceGetTemperature") == 1 and fake.count("nvmlDeviceGetFanSpeed") == 1
    assert fake.count("nvmlDeviceGetTotalEccErrors") == 1
    assert gpus[0].temperature_c is not None  # the last slow reading is carried forward


def test_gpu_lost_mid_session_is_marked_others_go_on_then_recovered(make_backend, clock) -> None:  # type: ignore[no-untyped-def]
    backend, fake = make_backend(fake_nvml.several(3), retry_s=10.0)
    _s, gpus = backend.sample()
    assert not any(g.lost for g in gpus)
    fake.lose(1)
    clock.advance(1)
    _s, gpus = backend.sample()
    assert [g.lost for g in gpus] == [False, True, False]
    assert gpus[1].name == "NVIDIA GeForce RTX 3090" and gpus[1].utilization_gpu_percent is None
    assert gpus[0].utilization_gpu_percent is not None and gpus[2].utilization_gpu_percent is not None
    calls = fake.count("nvmlDeviceGetUtilizationRates", gpu=1)
    clock.advance(5)
    _s, gpus = backend.sample()  # before retry_s: not asked, not re-initialised
    assert gpus[1].lost and fake.count("nvmlDeviceGetUtilizationRates", gpu=1) == calls
    assert fake.count("nvmlInit") == 1
    clock.advance(6)
    _s, gpus = backend.sample()  # retried, still lost
    assert gpus[1].lost and fake.count("nvmlInit") == 2
    fake.recover(1)
    clock.advance(11)
    status, gpus = backend.sample()
    assert [g.lost for g in gpus] == [False, False, False] and gpus[1].utilization_gpu_percent is not None
    assert fake.count("nvmlInit") == 3 and status.init_count == 3


def test_gpu_lost_at_start(make_backend, clock) -> None:  # type: ignore[no-untyped-def]
    scenario = fake_nvml.several(2)
    scenario.gpus[1].lost = True
    backend, fake = make_backend(scenario, retry_s=1.0)
    _s, gpus = backend.sample()
    assert [g.lost for g in gpus] == [False, True] and gpus[1].name == "GPU 1"
    fake.recover(1)
    clock.advance(2)
    _s, gpus = backend.sample()
    assert [g.lost for g in gpus] == [False, False] and gpus[1].name == "NVIDIA GeForce RTX 3090"


def test_function_not_found_falls_back_to_older_process_query(make_backend) -> None:  # type: ignore[no-untyped-def]
    backend, fake = make_backend(fake_nvml.old_driver())
    for _ in range(3):
        _s, gpus = backend.sample()
    assert all(len(g.processes) == 1 for g in gpus)
    assert fake.count("nvmlDeviceGetComputeRunningProcesses_v3") == 1  # tried once, then never again
    assert fake.count("nvmlDeviceGetComputeRunningProcesses_v2") == 6
    assert gpus[0].throttle_reasons == 0  # via the older ClocksThrottleReasons
    assert fake.count("nvmlDeviceGetCurrentClocksThrottleReasons") == 6
    assert "processes" not in gpus[0].unsupported


def test_no_process_query_at_all_marks_processes_unsupported(make_backend) -> None:  # type: ignore[no-untyped-def]
    scenario = fake_nvml.several(1)
    scenario.missing_functions |= {"nvmlDeviceGetComputeRunningProcesses_v3",
                                   "nvmlDeviceGetComputeRunningProcesses_v2"}
    backend, _fake = make_backend(scenario)
    _s, gpus = backend.sample()
    assert gpus[0].processes == () and "processes" in gpus[0].unsupported
    assert gpus[0].utilization_gpu_percent is not None


def test_access_denied_by_the_driver(make_backend) -> None:  # type: ignore[no-untyped-def]
    backend, _fake = make_backend(fake_nvml.access_denied())
    _s, gpus = backend.sample()
    mine, other = gpus[0].processes
    assert mine.name and not mine.access_denied
    assert other.name is None and other.user is None and other.access_denied
    assert other.gpu_memory_bytes == 2 * GiB  # the memory is still known


def test_access_denied_by_the_os(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    class Denied:
        def __init__(self, pid: int):
            self.pid = pid

        def oneshot(self):  # type: ignore[no-untyped-def]
            import contextlib
            return contextlib.nullcontext()

        def cmdline(self) -> list[str]:
            raise psutil.AccessDenied(self.pid)

        def name(self) -> str:
            return "python3"

        def username(self) -> str:
            raise psutil.AccessDenied(self.pid)

        def ppid(self) -> int:
            return 1

    monkeypatch.setattr(psutil, "Process", Denied)
    info = describe_process(12345)
    assert info is not None and info.name == "python3" and info.user is None and info.access_denied


def test_own_process_is_described() -> None:
    import getpass
    import os

    info = describe_process(os.getpid())
    assert info is not None and info.user and getpass.getuser() in info.user and "python" in (info.name or "")
    assert describe_process(2**22 + 12345) is None


def test_mig_devices(make_backend) -> None:  # type: ignore[no-untyped-def]
    backend, _fake = make_backend(fake_nvml.mig())
    _s, gpus = backend.sample()
    assert [g.id for g in gpus] == ["0", "1", "1.mig0", "1.mig1"]
    parent, m0, m1 = gpus[1:]
    assert parent.mig_parent is None and m0.mig_parent == 1 and m1.mig_parent == 1
    assert "MIG" in m0.name and m0.uuid.startswith("MIG-")
    assert m0.utilization_gpu_percent is None and "utilization" in m0.unsupported  # NVML has none per MIG
    assert m0.memory_total_bytes == 20 * GiB and m1.memory_total_bytes == 10 * GiB
    assert [p.pid for p in m0.processes] == [4_200_000] and m1.processes == ()
    assert parent.memory_used_bytes == 7 * GiB and parent.temperature_c is not None
    assert "mig" not in parent.unsupported and "mig" in gpus[0].unsupported


def test_throttle_reasons(make_backend) -> None:  # type: ignore[no-untyped-def]
    from configurator.monitor.snapshot import reason_names

    backend, _fake = make_backend(fake_nvml.throttling())
    _s, gpus = backend.sample()
    assert reason_names(gpus[0].throttle_reasons) == ["sw_thermal", "hw_thermal"]
    assert reason_names(gpus[1].throttle_reasons) == ["hw_power_brake"]


def test_unimplemented_function_answers_like_an_old_driver() -> None:
    fake = FakeNvml(fake_nvml.several(1))
    fake.nvmlInit()
    with pytest.raises(pynvml.NVMLError_FunctionNotFound):
        fake.nvmlDeviceGetBAR1MemoryInfo(fake.nvmlDeviceGetHandleByIndex(0))
    assert fake.NVML_CLOCK_SM == pynvml.NVML_CLOCK_SM
    fake.nvmlShutdown()
    with pytest.raises(pynvml.NVMLError_Uninitialized):
        fake.nvmlDeviceGetCount()
