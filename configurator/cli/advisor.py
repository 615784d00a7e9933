"""`configurator detect`, `report` and `advise`: this machine as a build, a training run's report, and
the cheapest upgrade (issue "Close the loop")."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from configurator.cli.context import EXIT_OK, Cli, Subcommands, add_command, qt_for_pdf
from configurator.cli.inputs import load_catalogue, read_build_file
from configurator.core.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from configurator.core.detect import DetectedMachine
    from configurator.core.parts import AnyPart

MAX_TARIFF = 100.0  # ¥/kWh
MAX_BUDGET = 1e8  # ¥


def register(sub: Subcommands) -> None:
    d = add_command(sub, "detect", help="this machine as a build of catalogue parts (NVML, /proc, /sys)")
    d.add_argument("--json", action="store_true")
    d.add_argument("--save", action="store_true", help="save it as the build \"This machine\" (replacing an older one)")
    d.set_defaults(func=cmd_detect)
    r = add_command(sub, "report", help="a report of a training run from a monitor recording")
    r.add_argument("recording", help="RECORDING.csv (what `monitor --record` or the Monitor tab writes)")
    out = r.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true")
    out.add_argument("--pdf", metavar="OUT.pdf", help="write the report as an A4 PDF")
    r.add_argument("--tariff", type=float, default=None, metavar="CNY",
                   help="electricity price in ¥/kWh (default 0.6, the planner's)")
    r.set_defaults(func=cmd_report)
    a = add_command(sub, "advise", help="what holds a build back, and the cheapest checked upgrade")
    a.add_argument("build", nargs="?", help="BUILD.json (default: this machine, detected)")
    a.add_argument("--recording", metavar="F.csv", help="evidence: a monitor recording of a training run")
    a.add_argument("--bench", metavar="RUN_ID", type=int, help="evidence: a stored benchmark run (its machine)")
    a.add_argument("--budget", type=float, metavar="CNY", help="only upgrades up to this price")
    a.add_argument("--json", action="store_true")
    a.set_defaults(func=cmd_advise)


# -- detect ----------------------------------------------------------------------------------------------


def detect_machine(cli: Cli, catalogue: dict[str, AnyPart]) -> DetectedMachine:
    from configurator.core.detect import detect
    from configurator.host.facts import nvml_gpus, read_facts
    from configurator.monitor.service import make_gpu_backend

    gpus, error = nvml_gpus(make_gpu_backend(cli.fake_gpus))
    return detect(read_facts(gpus, error), catalogue)


def _detected_json(cli: Cli, m: DetectedMachine, catalogue: dict[str, AnyPart]) -> dict[str, Any]:
    return {"parts": [{"category": p.category, "reported": p.reported, "id": p.part_id,
                       "name": catalogue[p.part_id].name if p.part_id else None, "qty": p.qty,
                       "confidence": p.confidence, "alternatives": list(p.alternatives),
                       "why": cli.render(p.why) if p.why else None} for p in m.parts],
            "notes": [cli.render(n) for n in m.notes]}


def cmd_detect(cli: Cli) -> int:
    from configurator.core.build import build_to_dict
    from configurator.store.repository import BuildsRepository

    errors = cli.fake_gpus_problems()
    if errors:
        cli.fail(errors)
    catalogue = load_catalogue(cli)
    m = detect_machine(cli, catalogue)
    saved = None
    if cli.args.save:
        build = m.build(cli.translate("detect", "This machine"))
        store = cli.open_store(writable=True)
        try:
            repo = BuildsRepository(store)
            old = next((b.id for b in repo.list() if b.name == build.name), None)
            saved = repo.save(build.name, build_to_dict(build), old)
        finally:
            store.close()
    if cli.args.json:
        cli.emit_json({**_detected_json(cli, m, catalogue), "saved_build_id": saved})
        return EXIT_OK
    for p in m.parts:
        name = catalogue[p.part_id].name if p.part_id else cli.translate("detect", "unknown: pick it")
        qty = f"{p.qty} × " if p.qty > 1 else ""
        sure = "" if p.confidence >= 1 else f"  ({cli.translate('detect', 'confidence')} {p.confidence:.0%})"
        print(f"{p.category:<12} {qty}{name}{sure}\n{'':<12} ← {p.reported}")
        if p.why is not None:
            print(f"{'':<12}   {cli.render(p.why)}")
    for n in m.notes:
        print(cli.render(n))
    if saved is not None:
        cli.warn(cli.say(QT_TRANSLATE_NOOP("cli", "Saved as the build \u201c{name}\u201d."),
                         name=cli.translate("detect", "This machine")))
    return EXIT_OK


# -- report ----------------------------------------------------------------------------------------------


def _tariff(cli: Cli) -> float:
    from configurator.core.build import DEFAULT_ELECTRICITY_CNY_PER_KWH

    t = cli.args.tariff
    if t is None:
        return DEFAULT_ELECTRICITY_CNY_PER_KWH
    if not (math.isfinite(t) and 0 <= t <= MAX_TARIFF):
        cli.fail([("--tariff", cli.say(QT_TRANSLATE_NOOP("cli", "must be a number from 0 to {high:g} ¥/kWh"),
                                       high=MAX_TARIFF))])
    return float(t)


def cmd_report(cli: Cli) -> int:
    from configurator.monitor.report import RecordingError, report, report_to_dict

    tariff = _tariff(cli)
    try:
        r = report(cli.args.recording, tariff_cny_per_kwh=tariff)
    except RecordingError as exc:
        cli.fail([(cli.args.recording, cli.render(exc.message))])
    if cli.args.pdf:
        _report_pdf(cli, r)
        return EXIT_OK
    doc = report_to_dict(r, render=cli.render, translate=cli.translate)
    if cli.args.json:
        cli.emit_json(doc)
        return EXIT_OK
    print(_report_text(cli, doc, [g.label for g in r.gpus]))
    return EXIT_OK


def _n(v: Any, fmt: str = "{:.0f}") -> str:
    return "n/a" if v is None else fmt.format(v)


# How a GPU's energy was measured, in the words the PDF uses (its "Report" context).
def _energy_method(t: Callable[[str, str], str], method: str | None) -> str:
    if method == "nvml-counter":
        return t("Report", "NVML energy counter")
    if method == "integrated-power":
        return t("Report", "power × time")
    return "—"


def _report_text(cli: Cli, doc: dict[str, Any], labels: list[str]) -> str:
    """``labels``: each GPU's (GpuReport.label), in the order of ``doc["gpus"]``."""
    from configurator.monitor.report import duration_text

    t = cli.translate
    lines = [cli.say(QT_TRANSLATE_NOOP("cli", "{path}: {duration}, {samples} samples"), path=doc["recording"],
                     duration=duration_text(doc["duration_s"] or 0, cli.translator), samples=doc["samples"]),
             f"[{doc['verdict']['rule'] or '—'}] {doc['verdict']['text']}", ""]
    for g, label in zip(doc["gpus"], labels, strict=True):
        lines.append(cli.say(QT_TRANSLATE_NOOP(
            "cli", "{gpu}: utilisation median {med} %, p95 {p95} %; memory peak {peak} of {cap} GiB; power "
                   "median {power} W; energy {kj} kJ ({method}); throttled {thr} s {why}"),
            gpu=label, med=_n(g["util_median_percent"]), p95=_n(g["util_p95_percent"]),
            peak=_n(g["memory_peak_gib"], "{:.1f}"), cap=_n(g["memory_capacity_gib"], "{:.1f}"),
            power=_n(g["power_median_w"]), kj=_n(None if g["energy_j"] is None else g["energy_j"] / 1000, "{:.1f}"),
            method=_energy_method(t, g["energy_method"]), thr=_n(g["throttled_s"]),
            why=", ".join(g["throttle_reasons"])).rstrip())  # no reasons: no trailing space
    h = doc["host"]
    lines.append(cli.say(QT_TRANSLATE_NOOP(
        "cli", "Host: CPU median {cpu} % (p95 {cpu95} %), iowait median {io} % (p95 {io95} %), training process "
               "and workers {train} % of a core"),
        cpu=_n(h["cpu_median"]), cpu95=_n(h["cpu_p95"]), io=_n(h["iowait_median"], "{:.1f}"),
        io95=_n(h["iowait_p95"], "{:.1f}"), train=_n(h["train_cpu_median"])))
    for rule, seconds in doc["alert_seconds"].items():
        lines.append(f"  {rule}: {duration_text(seconds, t)}")
    e = doc["energy"]
    if e["kwh"] is not None:
        lines.append(cli.say(QT_TRANSLATE_NOOP("cli", "Energy {kwh:.3f} kWh × ¥{tariff:g}/kWh = ¥{cost:.2f}"),
                             kwh=e["kwh"], tariff=e["tariff_cny_per_kwh"], cost=e["cost_cny"] or 0.0))
    else:
        lines.append(t("cli", "Energy: the recording has neither an energy counter nor power readings."))
    return "\n".join(lines)


def _report_pdf(cli: Cli, r: Any) -> None:
    _qt = qt_for_pdf(cli)  # kept until the PDF is written

    from configurator.ui.report_pdf import write_report_pdf

    out = Path(cli.args.pdf)
    try:
        write_report_pdf(r, out)
    except OSError as exc:
        cli.fail([(str(out), cli.file_problem(str(out), exc))])
    cli.warn(cli.say(QT_TRANSLATE_NOOP("cli", "Wrote {path}."), path=str(out)))


# -- advise ----------------------------------------------------------------------------------------------


def cmd_advise(cli: Cli) -> int:
    from configurator.core.advise import Evidence, advice_to_dict, advise, with_bench
    from configurator.monitor.report import RecordingError, evidence, report

    args = cli.args
    if args.budget is not None and not (math.isfinite(args.budget) and 0 < args.budget <= MAX_BUDGET):
        cli.fail([("--budget", cli.say(QT_TRANSLATE_NOOP("cli", "must be a price above 0 and at most ¥{high:,.0f}"),
                                       high=MAX_BUDGET))])
    errors = cli.fake_gpus_problems()
    if errors:
        cli.fail(errors)
    catalogue = load_catalogue(cli)
    if args.build:
        build = read_build_file(cli, Path(args.build), catalogue)
    else:
        from configurator.core.build import Workload

        machine = detect_machine(cli, catalogue)
        build = machine.build(cli.translate("detect", "This machine"))
        if not build.parts:
            cli.fail([("build", cli.say(QT_TRANSLATE_NOOP(
                "cli", "no part of this machine matched the catalogue: give a build file")))])
        from dataclasses import replace

        build = replace(build, workload=Workload(model="resnet50", task="train", precision="amp"))
    ev: Evidence | None = None
    if args.recording:
        try:
            ev = evidence(report(args.recording))
        except RecordingError as exc:
            cli.fail([(args.recording, cli.render(exc.message))])
    run = _bench_run(cli, args.bench) if args.bench is not None else None
    measured = _bench_measured(run) if run is not None else None
    a = advise(build, catalogue, with_bench(ev, run), budget_cny=args.budget)
    doc = advice_to_dict(a, catalogue, render=cli.render)
    if measured is not None:
        doc["bench"] = measured
    if args.json:
        cli.emit_json(doc)
        return EXIT_OK
    lim = doc["limit"]
    print(f"[{lim['rule']}] {lim['evidence']}")
    if not doc["upgrades"]:
        print(cli.translate("cli", "No catalogue change that the engine accepts lifts it."))
    for i, u in enumerate(doc["upgrades"], 1):
        parts = " + ".join(f"{b['qty']} × {b['name']}" if b["qty"] > 1 else b["name"] for b in u["buy"])
        low, high = u["gain_low_percent"], u["gain_high_percent"]
        span = "" if low is None or high is None else f" ({low:+.0f}…{high:+.0f} %)"
        print(f"{i}. {parts}: ¥{u['price_cny']:,}, {u['gain_percent']:+.0f} %{span}, "
              f"¥{u['cny_per_percent']:,}/%\n   {u['basis']}")
    for g in doc["guide"]:
        print("· " + g)
    if measured is not None:
        print(cli.say(QT_TRANSLATE_NOOP("cli", "Benchmark run {id} ({device}):"), id=measured["run"],
                      device=measured["device"]) + " " + ", ".join(
            f"{r['workload']} {r['value']:,.4g} {r['unit'] or ''}" for r in measured["results"]))
    return EXIT_OK


def _bench_run(cli: Cli, run_id: int) -> Any:
    from configurator.store.bench_results import BenchResultsRepository

    store = cli.open_store()
    try:
        run = BenchResultsRepository(store).get(run_id)
    finally:
        store.close()
    if run is None:
        cli.fail([("--bench", cli.say(QT_TRANSLATE_NOOP("cli", "no stored benchmark run {id}"), id=run_id))])
    return run


def _bench_measured(run: Any) -> dict[str, Any]:
    """What a stored benchmark run measured on its machine, shown beside the advice (its DDP scaling is
    evidence of the interconnect; for utilisation the limit comes from a recording or the plan)."""
    return {"run": run.run_id, "device": run.resolved_device or run.device, "started_at": run.started_at.isoformat(),
            "results": [{"workload": r.name, "value": r.value, "unit": r.unit} for r in run.rows
                        if r.status == "ok" and r.value is not None]}
