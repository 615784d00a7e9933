"""Alerts: hysteresis in time and level, rule IDs, the named bottleneck."""

from __future__ import annotations

from dataclasses import replace

from configurator.monitor.alerts import AlertEngine, Thresholds, alert_to_dict, bottleneck
from configurator.monitor.snapshot import GpuProcess, GpuSample, HostSample, NvmlStatus, Snapshot, TrainingProcess

GiB = 1024**3


def gpu(i: int, util: float | None = 95.0, *, procs: bool = True, **kw) -> GpuSample:  # type: ignore[no-untyped-def]
    p = (GpuProcess(1000 + i, 4 * GiB, f"python train.py --local-rank {i}", "me", parent_pid=999),) if procs else ()
    base = dict(utilization_gpu_percent=util, memory_used_bytes=8 * GiB, memory_total_bytes=24 * GiB,
                pcie_gen=4, pcie_gen_max=4, pcie_width=16, pcie_width_max=16, throttle_reasons=0, processes=p)
    base.update(kw)
    return GpuSample(i, str(i), "RTX 3090", f"GPU-{i}", **base)


def snap(t: float, gpus: tuple[GpuSample, ...], host: HostSample | None = None) -> Snapshot:
    return Snapshot(t, int(t), host or HostSample("h", cpu_percent=20.0, iowait_percent=0.0), NvmlStatus(True), gpus)


def run(engine: AlertEngine, start: float, end: float, make) -> list:  # type: ignore[no-untyped-def]
    events = []
    t = start
    while t <= end:
        events += engine.evaluate(make(t))
        t += 1.0
    return events


def test_gpu6_needs_sustained_low_utilisation_and_clears_with_margin() -> None:
    e = AlertEngine()
    assert run(e, 0, 28, lambda t: snap(t, (gpu(0, 50.0),))) == []  # 29 s: not yet
    ev = run(e, 29, 31, lambda t: snap(t, (gpu(0, 50.0),)))
    assert [(x.kind, x.alert.rule) for x in ev] == [("raised", "GPU-6")]
    alert = ev[0].alert
    assert alert.severity == "warning" and alert.source == "M 1.1" and alert.since == 30
    assert "under 70 % busy (50 % now)" in alert.message.render()
    # 72 % is above the raise level but below the clear level: stays active
    assert run(e, 32, 80, lambda t: snap(t, (gpu(0, 72.0),))) == []
    assert "GPU-6:GPU-0" in e.active
    # 9 s at 80 % is not enough, 10 s is
    assert run(e, 81, 89, lambda t: snap(t, (gpu(0, 80.0),))) == []
    ev = run(e, 90, 91, lambda t: snap(t, (gpu(0, 80.0),)))
    assert [x.kind for x in ev] == ["cleared"] and ev[0].alert.cleared == 91
    assert e.all_alerts()[0].cleared == 91


def test_gpu6_only_while_training() -> None:
    e = AlertEngine()
    assert run(e, 0, 100, lambda t: snap(t, (gpu(0, 5.0, procs=False),))) == []


def test_a_dip_resets_the_timer() -> None:
    e = AlertEngine()
    ev = run(e, 0, 100, lambda t: snap(t, (gpu(0, 50.0 if int(t) % 20 else 90.0),)))
    assert ev == []


def test_bottleneck_names_the_workers_iowait_or_pcie() -> None:
    g = gpu(0, 40.0)
    busy = HostSample("h", cpu_percent=60.0, training=TrainingProcess(1, "python", 30.0, 4, (97.0, 99.0, 95.0, 98.0)))
    assert "4 DataLoader workers are saturating the CPU" in bottleneck(busy, g).render()
    single = HostSample("h", cpu_percent=50.0, training=TrainingProcess(1, "python", 99.0, 0, ()))
    assert "num_workers" in bottleneck(single, g).render()
    io = HostSample("h", cpu_percent=30.0, iowait_percent=25.0)
    assert "25 % iowait" in bottleneck(io, g).render()
    slow_link = replace(g, pcie_gen=3, pcie_width=8)
    text = bottleneck(HostSample("h", cpu_percent=10.0, iowait_percent=1.0), slow_link).render()
    assert "Gen3 x8" in text and "Gen4 x16" in text
    assert "no bottleneck" in bottleneck(HostSample("h", cpu_percent=10.0), g).render()
    e = AlertEngine(Thresholds(util_sustain_s=0))
    ev = e.evaluate(snap(0, (g,), busy))
    assert "DataLoader workers" in ev[0].alert.message.render()


def test_dist1_gpus_of_one_job_far_apart() -> None:
    e = AlertEngine()
    ev = run(e, 0, 40, lambda t: snap(t, (gpu(0, 98.0), gpu(1, 97.0), gpu(2, 55.0))))
    rules = [x.alert.rule for x in ev]
    assert "DIST-1" in rules
    dist = next(x.alert for x in ev if x.alert.rule == "DIST-1")
    text = dist.message.render()
    assert "GPUs 0, 1, 2" in text and "GPU 2 at 55 %" in text and "NCCL_DEBUG=INFO" in text
    assert dist.source == "G 六.2"
    # GPUs running different jobs are not compared
    e2 = AlertEngine()
    other = gpu(1, 40.0, procs=False)
    other = replace(other, processes=(GpuProcess(5, GiB, "python other.py", "you", parent_pid=5000),))
    ev = run(e2, 0, 40, lambda t: snap(t, (gpu(0, 98.0), other)))
    assert "DIST-1" not in [x.alert.rule for x in ev]


def test_oom1_vram_nearly_full() -> None:
    e = AlertEngine()
    full = gpu(0, 99.0, memory_used_bytes=int(23.5 * GiB))
    ev = run(e, 0, 6, lambda t: snap(t, (full,)))
    assert [x.alert.rule for x in ev] == ["OOM-1"]
    text = ev[0].alert.message.render()
    assert "98 % full (23.5 of 24.0 GiB)" in text and "torch.cuda.memory_summary()" in text
    # 92 %: between clear and raise levels: stays
    assert run(e, 7, 30, lambda t: snap(t, (gpu(0, 99.0, memory_used_bytes=int(22 * GiB)),))) == []
    ev = run(e, 31, 45, lambda t: snap(t, (gpu(0, 99.0, memory_used_bytes=int(12 * GiB)),)))
    assert [x.kind for x in ev] == ["cleared"]


def test_thermal_and_power_throttling() -> None:
    e = AlertEngine()
    ev = run(e, 0, 12, lambda t: snap(t, (gpu(0, 99.0, throttle_reasons=0x40, temperature_c=91.0),
                                          gpu(1, 99.0, throttle_reasons=0x80))))
    got = {(x.alert.rule, x.alert.severity) for x in ev}
    assert got == {("MON-1", "warning"), ("PWR-2", "warning")}
    thermal = next(x.alert for x in ev if x.alert.rule == "MON-1")
    assert "91 °C" in thermal.message.render()


def test_lost_gpu_is_immediate_and_clears_when_back() -> None:
    e = AlertEngine()
    lost = GpuSample(1, "1", "RTX 3090", "GPU-1", lost=True)
    ev = e.evaluate(snap(0, (gpu(0), lost)))
    assert [(x.kind, x.alert.rule, x.alert.severity) for x in ev] == [("raised", "MON-1", "error")]
    assert ev[0].alert.title.render() == "GPU 1 lost"
    ev = e.evaluate(snap(1, (gpu(0), gpu(1))))
    assert [x.kind for x in ev] == ["cleared"]
    d = alert_to_dict(ev[0].alert)
    assert d["rule"] == "MON-1" and d["cleared"] == 1 and d["severity"] == "error"
