"""The CPU alone's throughput (``throughput_cpu``): its peak FLOPs and memory bandwidth at the stated
priors' efficiencies."""

from __future__ import annotations

from configurator.core.build import Resolved, Workload
from configurator.core.engine.report import message as _m
from configurator.core.engine.report import throughput_figure
from configurator.core.estimate import throughput as tp
from configurator.core.findings import Estimate
from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.numbers import unit_message
from configurator.core.parts import Cpu


def cpu_throughput(r: Resolved, cpu: Cpu, w: Workload, f: tp.Factors) -> Estimate:
    """The CPU alone (``throughput_cpu``): its peak FLOPs and memory bandwidth at the stated priors' efficiencies
    (no CPU measurements), a factor of 2 either way."""
    unit = w.throughput_unit
    mts = min((m.speed_mts for m, _q in r.memory), default=cpu.memory_max_mts) or cpu.memory_max_mts
    mts = min(mts, cpu.memory_max_mts) if cpu.memory_max_mts else mts
    channels = min(cpu.memory_channels, sum(m.modules * q for m, q in r.memory) or cpu.memory_channels)
    bandwidth = channels * mts * 1e6 * 8 * max(r.cpu_count, 1)
    c = tp.cpu_only(cpu, max(r.cpu_count, 1), bandwidth, w, f)
    value = c.headline(w)
    return Estimate(
        "throughput_cpu", throughput_figure(value), unit,
        _m(QT_TRANSLATE_NOOP(
            "estimates",
            "≈ {value:,.3g} {unit}, likely {low:,.3g}–{high:,.3g} (no CPU measurements: the stated priors, a "
            "factor of 2 either way). CPU alone: {cores} cores × {lanes} FP32 lanes × 2 FMA units × 2 FLOPs × "
            "{ghz:.2f} GHz = {peak:.2f} TFLOPS peak, {eff:.0%} reached; {bw:.0f} GB/s memory ({channels} "
            "channels), {bw_eff:.0%} reached."),
           value=value, unit=unit_message(unit), low=value / 2, high=value * 2,
           cores=cpu.cores * max(r.cpu_count, 1), lanes=16 if cpu.avx512 else 8,
           ghz=(cpu.base_ghz + cpu.boost_ghz) / 2, peak=tp.cpu_peak_flops(cpu, max(r.cpu_count, 1)) / 1e12,
           eff=f.efficiency("cpu"), bw=bandwidth / 1e9, channels=channels * max(r.cpu_count, 1),
           bw_eff=f.efficiency("bw.cpu")),
        {"memory_bandwidth_gbs": round(bandwidth / 1e9, 1)}, "low", throughput_figure(value / 2),
        throughput_figure(value * 2),
        {"family": None, "measurements": 0, "prior": True, "matched": []})
