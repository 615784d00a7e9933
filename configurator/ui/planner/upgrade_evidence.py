"""What the Upgrade panel reads besides the build: the recordings index and the stored benchmark runs
(through callables the composition root hands in), and the work it does off the GUI thread: reading a
recording into a run report and asking the advisor (core/advise.py), which checks every candidate as
a whole build and takes seconds."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from configurator.core.advise import Advice, advise, with_bench
from configurator.core.build import Build
from configurator.core.estimate.power import MeasuredPower
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.measured import power_from_benchmark
from configurator.core.parts import AnyPart
from configurator.core.suggest import DEFAULT_WORKLOAD
from configurator.monitor.report import RunReport, evidence, measured_power, report

THIS_MACHINE_NAMES = ("This machine",)  # core.detect.THIS_MACHINE; the translated name is added by the caller


def _none() -> list[Any]:
    return []


@dataclass
class UpgradeSources:
    """Where the evidence comes from: the recordings index (store.recordings.Recording rows, newest
    first), the stored benchmark runs (store.bench_results.RunSummary, newest first) and one run's
    record (bench.results.RunRecord) by id."""

    recordings: Callable[[], list[Any]] = _none
    bench_runs: Callable[[], list[Any]] = _none
    bench_run: Callable[[int], Any] = field(default=lambda _id: None)


def read_run(path: Path) -> tuple[RunReport, MeasuredPower | None]:
    """A recording's run report and the draw it measured (raises RecordingError with one message)."""
    r = report(path)
    return r, measured_power(r)


@dataclass(frozen=True)
class Outcome:
    advice: Advice
    workload_assumed: bool  # the build has no workload: the advisor's default (ResNet-50 training) was used


def work_out(build: Build, catalogue: Mapping[str, AnyPart], run: RunReport | None,
             budget_cny: float | None, bench: Any = None) -> Outcome:
    """The advice for ``build`` with the recording's evidence and the benchmark run's (its DDP scaling),
    if any (runs on a worker thread)."""
    assumed = build.workload is None
    if assumed:
        build = replace(build, workload=DEFAULT_WORKLOAD)
    ev = with_bench(evidence(run) if run is not None else None, bench)
    return Outcome(advise(build, catalogue, ev, budget_cny), assumed)


def bench_power(run: Any) -> MeasuredPower | None:
    """A benchmark run's measured draw, where its results carry joules per sample."""
    if run is None:
        return None
    rows = [(r.value, r.unit, r.joules_per_sample) for r in run.rows if r.status == "ok"]
    return power_from_benchmark(rows, Message("planner", QT_TRANSLATE_NOOP("planner", "benchmark run {id}"),
                                              {"id": run.run_id}))


def bench_summary(run: Any) -> str:
    """What a benchmark run measured, as the advisor's command line shows it."""
    results = [f"{r.name} {r.value:,.4g} {r.unit or ''}".strip() for r in run.rows
               if r.status == "ok" and r.value is not None]
    return ", ".join(results)
