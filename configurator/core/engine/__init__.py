"""The planner engine: a build and the catalogue in, findings and estimates out.

One engine serves the planner tab, the PDF sheet and ``configurator check``; the UI never
computes a rule itself. No Qt, no database: the caller hands over the catalogue.

This module holds ``check()`` and the order of the estimates; each kind of estimate has a module of its own:
``report`` (the :class:`Report`, the main throughput, how a throughput is rounded), ``gpus`` (which GPUs count),
``links`` (the link between GPUs, host memory), ``power_draw``, ``vram`` (GPU memory), ``host_ram``,
``one_gpu``, ``decode`` (a decoder's prefill and batch), ``scaling`` (data-parallel scaling, the machine's
total), ``gpu_throughput``, ``cpu_throughput``, ``ranges`` (likely ranges and their basis),
``serving_estimates``, ``cluster_node`` (CLU-1) and ``guide_disagreements`` (EST-1).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence

from configurator.core import calibration
from configurator.core.build import Build, Workload, gpu_errors, resolve, workload_errors
from configurator.core.cloud import CloudPrice, load_cloud_prices
from configurator.core.engine.cluster_node import cluster_node_estimates
from configurator.core.engine.cpu_throughput import cpu_throughput
from configurator.core.engine.gpu_throughput import gpu_throughput, throughput_blocked
from configurator.core.engine.gpus import counted_gpus, m2_drives, usable_gpus
from configurator.core.engine.guide_disagreements import guide_disagreements
from configurator.core.engine.host_ram import GUIDE_RAM_MARGIN, ram_estimates
from configurator.core.engine.links import host_memory_bytes_per_s
from configurator.core.engine.one_gpu import QUANT_ROW_PRECISION
from configurator.core.engine.power_draw import power_estimates
from configurator.core.engine.ranges import MIN_FORMAT_ROWS
from configurator.core.engine.report import MAIN_THROUGHPUT, Report, break_even, main_throughput, throughput_figure
from configurator.core.engine.serving_estimates import serving_estimates
from configurator.core.engine.vram import vram_estimates
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import throughput as tp
from configurator.core.estimate.memory import host_ram, vram_per_gpu
from configurator.core.estimate.power import MeasuredPower, estimate_power
from configurator.core.findings import SEVERITY_ORDER, Estimate
from configurator.core.measurements import Measurement
from configurator.core.parts import AnyPart, FieldError, Gpu
from configurator.core.pcie import layout
from configurator.core.rules import bud, order, pwr
from configurator.core.rules.shared import Ctx

__all__ = ["GUIDE_RAM_MARGIN", "MAIN_THROUGHPUT", "MIN_FORMAT_ROWS", "QUANT_ROW_PRECISION", "Report", "break_even",
           "check", "counted_gpus", "host_memory_bytes_per_s", "m2_drives", "main_throughput", "shipped_cloud_prices",
           "throughput_figure", "usable_gpus"]


_SHIPPED_CLOUD: list[tuple[CloudPrice, ...]] = []


def shipped_cloud_prices() -> tuple[CloudPrice, ...]:
    """db/cloud_prices.toml, read once."""
    if not _SHIPPED_CLOUD:
        _SHIPPED_CLOUD.append(tuple(load_cloud_prices()))
    return _SHIPPED_CLOUD[0]


def check(build: Build, catalogue: Mapping[str, AnyPart],
          measurements: Sequence[Measurement] | None = None,
          cloud_prices: Sequence[CloudPrice] | None = None,
          local: Sequence[calibration.LocalMeasurement] = (), measured_power: MeasuredPower | None = None,
          with_estimates: bool = True) -> Report:
    """``measurements``: the published rows the throughput model is fitted to (default: the shipped ones);
    ``cloud_prices``: BUD-3's rental prices (default: the shipped table; the store adds the user's edits);
    ``local``: this machine's benchmark results, which calibrate the throughput estimates of a build
    with the same GPU or CPU (:mod:`configurator.core.calibration`);
    ``measured_power``: the draw measured on the machine this build is (PWR-4 and BUD-3 use it);
    ``with_estimates=False``: the rules' findings only, without the estimates and the info findings drawn
    from them (EST-1, performance per watt): what Suggest needs to judge the thousands of builds it
    tries, at a fraction of the cost."""
    problems = _problems(build.workload) if build.workload is not None else ()
    if build.workload is not None and not problems:  # what it asks of the cards: fp8, a kernel's compute capability
        problems = tuple(gpu_errors(build.workload, [g for p in build.parts
                                                     if isinstance(g := catalogue.get(p.id), Gpu)]))
    r = resolve(dataclasses.replace(build, workload=None) if problems else build, catalogue)
    power = estimate_power(r)
    board = r.board
    cpu = r.cpu
    placement = layout(r.gpu_list, board, cpu.pcie_gen if cpu else None, None, r.cpu_count or 1,
                       m2_drives(r)) if board else None
    w = r.build.workload
    gpus = counted_gpus(r, placement)
    n = len(gpus)
    vram = vram_per_gpu(w, n, display_gpu=build.options.display_gpu) if w is not None and gpus else None
    ram = host_ram(w, n) if w is not None else None
    cloud = shipped_cloud_prices() if cloud_prices is None else tuple(cloud_prices)
    ctx = Ctx(r, power, placement, vram, ram, counted=gpus, cloud=cloud, measured=measured_power,
              catalogue=catalogue if with_estimates else {})

    order.run(ctx)

    total = bud.total_cny(ctx)
    if not with_estimates:
        findings = sorted(ctx.findings, key=lambda f: SEVERITY_ORDER[f.severity])
        return Report(build, total, tuple(findings), (), placement, n, problems)
    # The throughput model is fitted (once per process, a tenth of a second) only when there is a GPU or a
    # CPU to estimate, and the published rows (the GPUs' estimates and EST-1 compare with them) are read only when
    # there is a GPU: an empty build, the planner's first at start-up, waits for neither.
    f = fitting.factors_for(measurements) if gpus or cpu is not None else tp.FACTORS
    rows = (fitting.shipped() if measurements is None else measurements) if gpus else ()
    estimates = _estimates(ctx, gpus, total, f, rows)
    if w is not None and w.serving:
        estimates += serving_estimates(ctx, gpus, f)
    if local and w is not None:
        estimates = calibration.apply(estimates, [g.id for g in gpus], cpu.id if cpu else None,
                                      fitting.family_of(w), local, catalogue)
    if r.build.cluster is not None:
        estimates += cluster_node_estimates(ctx, gpus, total, f, estimates)
    guide_disagreements(ctx, gpus, f, rows)
    main = next((e for e in estimates if e.key in MAIN_THROUGHPUT), None)
    if main is not None and main.value:
        pwr.per_watt(ctx, main.value, main.unit)
    findings = sorted(ctx.findings, key=lambda f: SEVERITY_ORDER[f.severity])
    return Report(build, total, tuple(findings), tuple(estimates), placement, n, problems)


def _problems(workload: Workload) -> tuple[FieldError, ...]:
    """The workload's problems. A workload that names a config.json is read again each time (the file may have
    gone or changed since), so a missing file is a workload error here, not an exception in the estimates."""
    return tuple(workload_errors(workload)) if workload.hf_config is not None else _workload_problems(workload)


@functools.lru_cache(maxsize=64)
def _workload_problems(workload: Workload) -> tuple[FieldError, ...]:
    return tuple(workload_errors(workload))


def _estimates(ctx: Ctx, gpus: list[Gpu], total: int, f: tp.Factors,
               rows: Sequence[Measurement]) -> list[Estimate]:
    """The build's estimates, in the order the report lists them: power; then, with a workload, GPU memory, host
    RAM and throughput (on the counted GPUs, then on the CPU alone). A model whose compute no source states, or a
    workload that does not fit in GPU memory, has one ``throughput_not_estimated`` in place of the throughputs.

    A serving workload (task serve) has its own figures in place of the throughputs (``serving_estimates``:
    requests in flight, output tokens/s, requests/s, TTFT, TPOT at its load): one stream decoding alone, a batch
    of 1 prefilled, the largest batch that fits and the CPU alone are not what a server under load does, and its
    batch is the runtime's, not a setting."""
    w = ctx.r.build.workload
    out = power_estimates(ctx, serving=w is not None and w.serving)
    if w is None:
        return out
    if gpus and ctx.vram is not None:
        out += vram_estimates(ctx, gpus, w, ctx.vram)
        if w.serving:
            out = [e for e in out if e.key != "largest_batch"]
    if ctx.ram is not None:
        out += ram_estimates(gpus, w, ctx.ram)
    if w.serving:
        return out
    blocked = throughput_blocked(ctx, gpus, w)
    if blocked is not None:
        return [*out, blocked]
    if gpus:  # counted_gpus: only cards in a slot and modules on a baseboard
        out += gpu_throughput(ctx, gpus, total, f, rows, w)
    cpu = ctx.r.cpu
    if cpu is not None:
        out.append(cpu_throughput(ctx.r, cpu, w, f))
    return out
