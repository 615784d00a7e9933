"""What the Upgrade panel reads besides the build: the recordings index and the stored benchmark runs
(through callables the composition root hands in), and the work it does off the GUI thread: reading a
recording into a run report and asking the advisor (core/advise.py), which checks every candidate as
a whole build and takes seconds. The advisor and the run report are loaded when that work is first
done, not with the planner (the app's first window waits for what the planner imports)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from configurator.core.build import Build
from configurator.core.estimate.power import MeasuredPower
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.measured import power_from_benchmark
from configurator.core.parts import AnyPart

if TYPE_CHECKING:
    from configurator.core.advise import Advice
    from configurator.monitor.report import RunReport

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


@dataclass(frozen=True)
class RunRead:
    """A recording read: its run report and the draw it measured, or why it could not be read."""

    report: RunReport | None
    power: MeasuredPower | None
    error: Message | None = None  # a missing, moved or damaged file: one message


def read_run(path: Path) -> RunRead:
    from configurator.monitor.report import RecordingError, measured_power, report

    try:
        r = report(path)
    except RecordingError as exc:
        return RunRead(None, None, exc.message)
    return RunRead(r, measured_power(r))


@dataclass(frozen=True)
class Outcome:
    advice: Advice
    workload_assumed: bool  # the build has no workload: the advisor's default (ResNet-50 training) was used


def work_out(build: Build, catalogue: Mapping[str, AnyPart], run: RunReport | None,
             budget_cny: float | None, bench: Any = None) -> Outcome:
    """The advice for ``build`` with the recording's evidence and the benchmark run's (its DDP scaling),
    if any (runs on a worker thread)."""
    from configurator.core.advise import advise, with_bench
    from configurator.core.suggest import DEFAULT_WORKLOAD
    from configurator.monitor.report import evidence

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
