"""How busy the machine was around each workload, and results that are not steady enough to be facts."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from datetime import datetime

import psutil
import pytest

from configurator.bench.load import (
    BUSY_CPU_PERCENT,
    UNSTABLE_SPREAD,
    LoadMeter,
    busy_reasons,
    impossible_reason,
    unstable_reason,
)
from configurator.bench.results import RowResult, RunRecord
from configurator.bench.runner import SubprocessRunner, SuiteSession
from configurator.monitor.fake_nvml import FakeNvml, FakeProcess, several
from configurator.monitor.nvml import NvmlBackend

FAULT = "tests.support.fault_worker"
HOG = "import time\nend = time.monotonic() + 60\nwhile time.monotonic() < end: pass\n"


def session(jobs: list[str], **kw) -> SuiteSession:  # type: ignore[no-untyped-def]
    kw.setdefault("timeout_s", 20.0)
    return SuiteSession("quick", "cpu", jobs, worker_module=FAULT, fingerprint=False, **kw)


def test_others_cpu_is_the_machines_busy_time_less_ours_over_all_cores() -> None:
    ticks = iter([(0.0, 100.0, 10.0, 4), (2.0, 104.0, 11.0, 4)])  # 4 cores × 2 s; busy +4 s, ours +1 s
    meter = LoadMeter(counters=lambda: next(ticks))
    meter.open()
    w = meter.close()
    assert w.cpu_percent == pytest.approx(100 * 3 / 8) and w.seconds == 2.0
    load = {"before": w.to_json(), "during": {"cpu_percent": 2.0}}
    [reason] = busy_reasons(load)
    assert reason.render() == "before: other processes used 38 % of the CPU"
    assert busy_reasons({"before": {"cpu_percent": BUSY_CPU_PERCENT - 1}, "during": {}}) == []


def test_gpu_use_by_others_is_read_from_nvml_samples_on_the_fake_nvml() -> None:
    scenario = several(1)  # a training job's process on GPU 0, at about 88 % utilisation
    backend = NvmlBackend(FakeNvml(scenario))
    ours = 4_200_000
    scenario.gpus[0].processes.append(FakeProcess(pid=ours, used_memory=1 << 30, name="python -m worker"))
    meter = LoadMeter(gpus=lambda: backend.sample()[1])
    meter.open([ours])
    meter.sample_gpus([ours])
    w = meter.close([ours])
    assert w.gpu_percent is not None and w.gpu_percent > 50
    assert [p["pid"] for p in w.gpu_processes] == [4_000_000]  # ours is not "other"
    texts = [m.render() for m in busy_reasons({"before": w.to_json()})]
    assert any(t.startswith("before: the GPU was") for t in texts)
    assert "before: other processes on the GPU: python train.py --local-rank 0 (4000000)" in texts
    # During our own GPU job the utilisation is ours: only other processes count then.
    meter.open([ours])
    during = meter.close([ours], gpu_utilisation=False)
    assert during.gpu_percent is None and len(during.gpu_processes) == 1


def test_a_run_records_a_busy_machine_before_and_during_a_real_child() -> None:
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(psutil.cpu_count() or 1)]
    try:
        rec = SubprocessRunner(session(["spin"], settle_s=0.6, overrides={"spin": {"seconds": 0.6}})).run()
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    [row] = rec.rows
    assert row.status == "ok" and row.load is not None
    before, during = row.load["before"], row.load["during"]
    assert before["seconds"] >= 0.5 and before["cpu_percent"] > BUSY_CPU_PERCENT
    assert during["cpu_percent"] > BUSY_CPU_PERCENT
    assert [m.render().split(":")[0] for m in row.busy()] == ["before", "during"]


def test_the_childs_own_cpu_is_not_counted_as_others() -> None:
    """The child spins one core for a second; what it used is ours (its parent's reaped-children time)."""
    start = os.times()
    rec = SubprocessRunner(session(["spin"], settle_s=0.0, overrides={"spin": {"seconds": 1.0}})).run()
    used = (os.times().children_user + os.times().children_system) - (start.children_user + start.children_system)
    [row] = rec.rows
    assert used >= 0.9  # the child's spin is in our children's time, which the meter subtracts
    assert row.load is not None and row.load["during"]["seconds"] >= 1.0


def test_cancel_in_the_pause_before_a_child_cancels_the_job_without_starting_it() -> None:
    s = session(["ok", "ok"], settle_s=30.0)
    runner = SubprocessRunner(s)
    threading.Timer(0.3, runner.cancel).start()
    rec = runner.run()
    assert rec.status == "cancelled" and [r.status for r in rec.rows] == ["cancelled"]
    assert rec.duration_s is not None and rec.duration_s < 5


def test_a_wide_spread_is_unstable_and_a_narrow_one_is_not() -> None:
    rec = SubprocessRunner(session(["noisy"], overrides={"noisy": {"median": 100.0, "iqr": 30.0}})).run()
    reason = rec.rows[0].unstable()
    assert reason is not None
    assert reason.render() == "unstable: the spread (IQR) is 30 % of the median, more than 10 %"
    assert unstable_reason("noisy", 100.0, 100 * UNSTABLE_SPREAD, {}) is None


def test_ddp_scaling_above_ideal_is_a_measurement_problem() -> None:
    details = {"runs": [{"processes": 1, "efficiency": 1.0}, {"processes": 2, "efficiency": 1.31}]}
    reason = unstable_reason("ddp-scaling", 131.0, 2.0, details)
    assert reason is not None and reason.render().startswith(
        "a measurement problem: 2 processes scaled to 131 % of ideal")
    assert reason.render().endswith("run it again: configurator bench --only ddp-scaling")
    fine = {"runs": [{"processes": 1, "efficiency": 1.0}, {"processes": 2, "efficiency": 0.93}]}
    assert unstable_reason("ddp-scaling", 93.0, 2.0, fine) is None


def test_a_spread_wider_than_the_median_is_not_a_measurement_but_a_wide_one_is_unstable() -> None:
    assert impossible_reason("resnet50-train", 7.46, 44.8, {}) is not None  # "7.46 ± 44.8 img/s"
    assert impossible_reason("resnet50-train", 100.0, 30.0, {}) is None  # unstable, still a measurement
    assert unstable_reason("resnet50-train", 100.0, 30.0, {}) is not None


def impossible_run() -> RunRecord:
    rec = RunRecord("quick", "cpu", sys.executable, datetime(2026, 12, 6, 10, 0), resolved_device="cpu")
    rec.rows = [RowResult("ddp-scaling", "ddp", "ok", 433.0, "%", 433.0, 2.0,
                          {"device": "cpu"}, {"runs": [{"processes": 1, "efficiency": 1.0, "speedup": 1.0},
                                                       {"processes": 2, "efficiency": 4.33, "speedup": 8.66}]}),
                RowResult("resnet50-train", "resnet", "ok", 7.46, "img/s", 7.46, 44.8, {"device": "cpu"})]
    return rec


def test_an_impossible_value_is_null_in_the_json_and_csv_with_its_reason() -> None:
    rec = impossible_run()
    for row in rec.to_json()["results"]:
        assert row["value"] is None and row["median"] is None and row["iqr"] is None
        assert row["not_measured"].startswith("a measurement problem")
    full = rec.to_json(full=True)["results"][0]
    assert full["discarded"] == {"value": 433.0, "median": 433.0, "iqr": 2.0}  # kept apart, not as the value
    lines = rec.csv_text().splitlines()[1:]
    assert all(",ok,,%," in line or ",ok,,img/s," in line for line in lines)
    assert all("a measurement problem" in line for line in lines)


def test_a_cpu_result_is_not_blamed_on_the_gpus_processes() -> None:
    load = {"before": {"cpu_percent": 2.0, "gpu_percent": 98.0,
                       "gpu_processes": [{"gpu": "0", "pid": 4000000, "name": "python train.py"}]}}
    cpu = RowResult("resnet50-train", "resnet", "ok", 100.0, "img/s", 100.0, 1.0, {"device": "cpu"}, load=load)
    gpu = RowResult("resnet50-train", "resnet", "ok", 100.0, "img/s", 100.0, 1.0, {"device": "cuda"}, load=load)
    assert cpu.busy() == []
    assert [m.render() for m in gpu.busy()] == ["before: the GPU was 98 % busy with other work",
                                                "before: other processes on the GPU: python train.py (4000000)"]
