"""The Benchmark tab's peak-memory and energy cells: what a result row measured beside the planner's
VRAM estimate for the same settings, and the energy with how it was measured (n/a where it was not)."""

from __future__ import annotations

from configurator.bench.energy import NVML, NVML_POWER, RAPL
from configurator.bench.results import RowResult
from configurator.core.i18n import fill
from configurator.core.measured import vram_estimate
from configurator.core.units import GIB
from configurator.ui.bench.fmt import pct
from configurator.ui.i18n import translate


def memory_cell(r: RowResult, device: str) -> tuple[str, str]:
    """(text, tooltip): CUDA's peak allocated memory against the planner's tensor estimate."""
    peak = r.peak_memory_bytes
    if peak is None:
        if device == "cuda":
            return translate("BenchmarkTab", "not recorded"), translate(
                "BenchmarkTab", "This result was stored before peak memory was recorded.")
        return translate("BenchmarkTab", "n/a"), translate(
            "BenchmarkTab", "Peak memory is measured on CUDA only (torch.cuda.max_memory_allocated, reset before "
                            "each workload); the CPU has no allocator count of its tensors.")
    est = vram_estimate(r.name, r.settings)
    measured = f"{peak / GIB:.2f} GiB"
    if est is None:
        return (fill(translate("BenchmarkTab", "{peak} peak"), peak=measured),
                translate("BenchmarkTab", "torch.cuda.max_memory_allocated during this workload; the planner has "
                                          "no VRAM estimate for it."))
    tensors, _total, how = est
    text = fill(translate("BenchmarkTab", "{peak} against {estimate} estimated, {pct}"),
                peak=measured, estimate=f"{tensors / GIB:.2f} GiB",
                pct=pct(100 * (peak / tensors - 1) if tensors > 0 else None))
    tip = fill(translate("BenchmarkTab", "Measured: torch.cuda.max_memory_allocated during this workload (tensors "
                                         "only, reset before it). {how}"), how=how.render(translate))
    return text, tip


def energy_cell(r: RowResult, device: str) -> tuple[str, str]:
    """(text, tooltip): joules per unit of work and the energy, with how they were measured."""
    e = r.energy
    if e is None:
        why = (translate("BenchmarkTab", "NVML reports neither an energy counter nor the power draw of this GPU "
                                         "here (or pynvml is missing from the benchmark's Python).")
               if device == "cuda" else
               translate("BenchmarkTab", "The CPU's RAPL energy counters (/sys/class/powercap) are not readable "
                                         "here; they are often readable by root only."))
        return translate("BenchmarkTab", "n/a"), why
    methods = {NVML: translate("BenchmarkTab", "NVML energy counter"),
               NVML_POWER: translate("BenchmarkTab", "NVML power draw sampled every 0.1 s"),
               RAPL: translate("BenchmarkTab", "RAPL, whole CPU package")}
    method = methods.get(str(e.get("method")), str(e.get("method")))
    per = e.get("per")
    pers = {"image": translate("BenchmarkTab", "J/image"), "token": translate("BenchmarkTab", "J/token"),
            "TFLOP": translate("BenchmarkTab", "J/TFLOP"), "GB": translate("BenchmarkTab", "J/GB"),
            "sequence": translate("BenchmarkTab", "J/sequence")}
    jps = r.joules_per_sample
    head = f"{jps:.3g} {pers.get(str(per), 'J')}" if jps is not None else f"{float(e['joules']):,.0f} J"
    text = f"{head} · {method}"
    tip = fill(translate("BenchmarkTab", "{joules} J in {seconds} s (mean {watts} W) over the timed runs and their "
                                         "warm-up, measured by the {method}; per unit of work = mean power ÷ the "
                                         "median rate."),
               joules=f"{float(e['joules']):,.1f}", seconds=f"{float(e.get('seconds') or 0):.1f}",
               watts=f"{float(e.get('mean_w') or 0):.0f}", method=method)
    return text, tip
