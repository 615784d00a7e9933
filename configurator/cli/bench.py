"""The ``bench`` and ``doctor`` sub-commands. Heavy imports stay inside the handlers: the CLI
never imports torch itself (the benchmarks run in child processes), and ``--no-store``
never opens the database."""

from __future__ import annotations

import math
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from configurator.bench.results import STATUS_LABELS, fmt_value
from configurator.cli import bench_nodes
from configurator.cli.context import EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, Cli, Subcommands, add_command, table
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message

if TYPE_CHECKING:
    from configurator.bench.launch import Cluster
    from configurator.bench.results import RowResult, RunRecord
    from configurator.bench.runner import Event, SubprocessRunner, SuiteSession
    from configurator.store.database import Store

SUITES = ("quick", "standard", "full")
DEVICES = ("auto", "cpu", "cuda", "mps")
MAX_TIMEOUT_S = 86_400  # a day per job: the full suite's longest job takes minutes
MAX_THREADS = 1_024  # more than the logical CPUs of any one machine
MAX_ROW_ID = 2**63 - 1


def register(sub: Subcommands) -> None:
    b = add_command(sub, "bench", help="run the benchmark suite in child processes")
    b.add_argument("--suite", default="quick", choices=SUITES)
    b.add_argument("--device", default="auto", choices=DEVICES)
    b.add_argument("--only", metavar="W,..", help="comma-separated jobs or results, e.g. matmul,gpt2")
    b.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    b.add_argument("--no-store", action="store_true", help="do not open the database")
    b.add_argument("--out", metavar="F.json", help="also write the full results (settings, details) here")
    b.add_argument("--python", metavar="PATH",
                   help="interpreter to run the benchmarks under (default: this one; in the app bundle, the first "
                        "one found with torch)")
    b.add_argument("--build", type=int, metavar="ID", help="link the run to this saved build")
    b.add_argument("--timeout", type=float, metavar="S", help="seconds each job may run (default: per suite)")
    b.add_argument("--threads", type=int, default=0, metavar="N", help="torch threads in the workers")
    b.add_argument("--data-dir", metavar="DIR", help="where the DataLoader job writes its files (the disk to test)")
    b.add_argument("--verbose", action="store_true", help="also show what the workers print on stderr")
    bench_nodes.add_arguments(b)
    b.set_defaults(func=cmd_bench)
    bsub = b.add_subparsers(dest="bench_command", metavar="{interpreters}")
    bi = add_command(bsub, "interpreters", help="list the Python interpreters found here, with their torch and CUDA")
    bi.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    bi.add_argument("--import-torch", action="store_true",
                    help="also import torch in each (slower): proves it loads and tells whether CUDA is available")
    bi.set_defaults(func=cmd_interpreters)

    d = add_command(sub, "doctor", help="check drivers, CUDA, torch and the environment")
    d.add_argument("--json", action="store_true")
    d.set_defaults(func=cmd_doctor)


def _default_python(cli: Cli) -> str | None:
    from configurator.bench.interpreters import default_python
    from configurator.paths import is_frozen

    if is_frozen():
        cli.warn(cli.say(QT_TRANSLATE_NOOP("cli", "Looking for a Python interpreter with PyTorch…")))
    return default_python()


def cmd_interpreters(cli: Cli) -> int:
    """``bench interpreters``: what ``--python`` could be, the usable ones first."""
    from configurator.bench.interpreters import default_python, describe, discover, torch_summary

    a = cli.args
    found = discover(import_torch=a.import_torch)
    default = default_python(lambda: found)
    if a.json:
        cli.emit_json({"default": default, "interpreters": [p.to_json(cli.translator) for p in found]})
        return EXIT_OK
    rows = [[cli.translate("cli", "Python"), cli.translate("cli", "PyTorch"), cli.translate("cli", "CUDA"),
             "torchvision", "transformers", cli.translate("cli", "Path")]]
    notes: list[str] = []
    yes, no = "✓", "–"
    for p in found:
        if not p.ok:
            notes.append(f"{p.path}: {cli.render(describe(p))}")
            continue
        cuda = p.cuda or (f"ROCm {p.hip}" if p.hip else "—")
        if p.cuda_available is not None:
            cuda += " ✓" if p.cuda_available else " ✗"
        rows.append([p.python or "?", cli.render(torch_summary(p)) if p.torch is None or p.torch_error else p.torch,
                     cuda if p.torch else "—", yes if p.torchvision else no, yes if p.transformers else no, p.path])
    if len(rows) > 1:
        print(table(rows))
        if a.import_torch:
            print(cli.say(QT_TRANSLATE_NOOP("cli", "✓ or ✗ after the CUDA version: whether torch.cuda.is_available() "
                                                   "in that interpreter.")))
    if notes:
        print("\n" + cli.translate("cli", "Not usable:"))
        for line in notes:
            print("  " + line)
    print()
    if default is not None:
        print(cli.say(QT_TRANSLATE_NOOP("cli", "`configurator bench` runs under {path} unless --python says "
                                               "otherwise."), path=default))
    else:
        print(cli.say(QT_TRANSLATE_NOOP("cli", "No Python with PyTorch found: install it into one of these "
                                               "(python -m pip install torch torchvision) or give --python PATH.")))
    return EXIT_OK


def _row_line(cli: Cli, row: RowResult) -> str:
    impossible = row.not_measured()
    if impossible is not None:
        return cli.say(QT_TRANSLATE_NOOP("cli", "{name}: not measured — {reason}"), name=row.name,
                       reason=impossible.render(cli.translator))
    if row.status == "ok":
        return cli.say(QT_TRANSLATE_NOOP("cli", "{name}: {value} {unit} (median {median}, IQR {iqr})"),
                       name=row.name, value=fmt_value(row.value), unit=row.unit or "", median=fmt_value(row.median),
                       iqr=fmt_value(row.iqr))
    status = cli.translate("bench", STATUS_LABELS.get(row.status, row.status))
    return f"{row.name}: {status} — {row.error_text(cli.translator) or ''}"


def cmd_bench(cli: Cli) -> int:
    a = cli.args
    errors: list[tuple[str, str]] = []
    jobs = _jobs(cli, errors)
    cluster = bench_nodes.cluster_from_args(cli, jobs, errors)
    if cluster is not None and a.print_launch and not errors:
        bench_nodes.print_launch(cli, cluster, a.device)
        return EXIT_OK
    python = _python(cli, errors)
    _check_options(cli, errors)
    if errors:
        cli.fail(errors)
    store = _open_store(cli)
    runner = _runner(cli, _session(cli, jobs, python, cluster))
    interrupted = {"yes": False}

    def on_sigint(_signum: int, _frame: Any) -> None:
        interrupted["yes"] = True
        runner.cancel()

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        record = runner.run()
    finally:
        signal.signal(signal.SIGINT, previous)
    _keep(cli, record, store)
    code = _outcome(cli, record, cluster)  # printed whether or not Ctrl-C stopped it
    return EXIT_INTERRUPTED if interrupted["yes"] else code


def _jobs(cli: Cli, errors: list[tuple[str, str]]) -> list[str] | None:
    """The jobs ``--only`` names (None: the suite's), or its problem in ``errors``."""
    from configurator.bench import suites

    if cli.args.only is None:
        return None
    jobs, bad = suites.parse_only(cli.args.only)
    if bad:
        errors.append(("--only", cli.say(QT_TRANSLATE_NOOP("cli", "unknown workload(s) {names}; choose from "
                                                                  "{choices}"),
                                         names=", ".join(bad), choices=", ".join(suites.JOBS))))
    elif not jobs:
        errors.append(("--only", cli.say(QT_TRANSLATE_NOOP("cli", "names no workload"))))
    return jobs


def _python(cli: Cli, errors: list[tuple[str, str]]) -> str | None:
    """The interpreter the workers run under: ``--python``, else one found with torch (looked for only
    when nothing else is wrong), or its problem in ``errors``."""
    a = cli.args
    python: str | None = a.python
    if a.python and not Path(a.python).is_file():
        errors.append(("--python", cli.say(QT_TRANSLATE_NOOP("cli", "no such interpreter: {path}"), path=a.python)))
        return python
    if a.python or errors:
        return python
    python = _default_python(cli)
    if python is None:
        errors.append(("--python", cli.say(QT_TRANSLATE_NOOP(
            "cli", "no Python with PyTorch found on this machine; give one with --python PATH "
                   "(`configurator bench interpreters` lists the interpreters found)"))))
    return python


def _check_options(cli: Cli, errors: list[tuple[str, str]]) -> None:
    """The problems of --out, --timeout, --threads, --build and --data-dir, in that order."""
    a = cli.args
    if a.out:
        from configurator.files import refuse_link

        try:
            refuse_link(a.out)  # a link is never written through; a folder is not a file
        except OSError as exc:
            errors.append(("--out", cli.file_problem(a.out, exc)))
    # argparse's float() takes nan (which would turn the timeout off) and inf: both refused here.
    if a.timeout is not None and not (math.isfinite(a.timeout) and a.timeout > 0):
        errors.append(("--timeout", cli.say(QT_TRANSLATE_NOOP("cli", "must be more than 0 seconds"))))
    elif a.timeout is not None and a.timeout > MAX_TIMEOUT_S:
        errors.append(("--timeout", cli.say(QT_TRANSLATE_NOOP("cli", "must be at most {high:,} seconds (a day)"),
                                            high=MAX_TIMEOUT_S)))
    if a.threads < 0:
        errors.append(("--threads", cli.say(QT_TRANSLATE_NOOP("cli", "must be 0 (automatic) or more"))))
    elif a.threads > MAX_THREADS:
        errors.append(("--threads", cli.say(QT_TRANSLATE_NOOP("cli", "must be at most {high:,}"),
                                            high=MAX_THREADS)))
    if a.build is not None and not 1 <= a.build <= MAX_ROW_ID:  # SQLite keys are 64-bit
        errors.append(("--build", cli.say(QT_TRANSLATE_NOOP("cli", "no saved build {id}"), id=a.build)))
    elif a.build is not None and a.no_store:
        errors.append(("--build", cli.say(QT_TRANSLATE_NOOP("cli", "cannot link to a build with --no-store"))))
    if a.data_dir and not Path(a.data_dir).is_dir():
        errors.append(("--data-dir", cli.say(QT_TRANSLATE_NOOP("cli", "no such folder: {path}"), path=a.data_dir)))


def _open_store(cli: Cli) -> Store | None:
    """The database the run is saved in (None with --no-store); exit 2 if --build names no saved build."""
    a = cli.args
    if a.no_store:
        return None
    store = cli.open_store(writable=True)
    if a.build is not None:
        from configurator.store.repository import BuildsRepository

        if BuildsRepository(store).get(a.build) is None:
            store.close()
            cli.fail([("--build", cli.say(QT_TRANSLATE_NOOP("cli", "no saved build {id}"), id=a.build))])
    return store


def _session(cli: Cli, jobs: list[str] | None, python: str | None, cluster: Cluster | None) -> SuiteSession:
    """The suite to run: the jobs, their parameters (--data-dir, the cluster) and time limits."""
    from configurator.bench import suites
    from configurator.bench.runner import SuiteSession

    a = cli.args
    overrides: dict[str, dict[str, Any]] = {}
    if a.data_dir:
        overrides["dataloader"] = {"data_dir": str(Path(a.data_dir).resolve())}
    timeout = a.timeout
    if cluster is not None:
        overrides["ddp"] = cluster.to_params()
        if timeout is None:  # the job waits for the other nodes first
            timeout = suites.TIMEOUTS[a.suite] + cluster.timeout_s + 30.0
    return SuiteSession(a.suite, a.device, jobs, python, overrides=overrides, timeout_s=timeout,
                        threads=a.threads)


def _runner(cli: Cli, session: SuiteSession) -> SubprocessRunner:
    """A runner for ``session`` that tells its progress on stderr."""
    from configurator.bench.runner import SubprocessRunner

    total = len(session.jobs)
    counter = {"n": 0}

    def on_event(ev: Event) -> None:
        if ev.kind == "job_started" and ev.job != "fingerprint":
            counter["n"] += 1
            cli.warn(f"[{counter['n']}/{total}] {ev.job} …")
        elif ev.kind == "row" and ev.row is not None:
            cli.warn("    " + _row_line(cli, ev.row))
        elif ev.kind == "log" and ev.message is not None:
            cli.warn("    " + cli.render(ev.message))
        elif ev.kind == "garbage":
            cli.warn("    " + cli.say(QT_TRANSLATE_NOOP("cli", "output not understood: {line}"), line=ev.text))
        elif ev.kind == "stderr" and cli.args.verbose:
            cli.warn("      | " + ev.text)

    return SubprocessRunner(session, on_event)


def _keep(cli: Cli, record: RunRecord, store: Store | None) -> None:
    """Save the run in the database (then close it) and write --out."""
    from configurator.bench.results import export_json

    a = cli.args
    try:
        if store is not None:
            from configurator.store.bench_results import BenchResultsRepository

            BenchResultsRepository(store).save(record, build_id=a.build)
    finally:
        if store is not None:
            store.close()
    if a.out:
        try:
            export_json(record, a.out, cli.translator)
        except OSError as exc:
            cli.fail([(str(a.out), cli.file_problem(str(a.out), exc))], code=EXIT_FINDINGS)


def _outcome(cli: Cli, record: RunRecord, cluster: Cluster | None) -> int:
    """Print the run (JSON or a table) and why it failed: EXIT_FINDINGS if the suite could not run or
    the run across nodes failed, else EXIT_OK."""
    if cli.args.json:
        cli.emit_json(record.to_json(translate=cli.translator))
    else:
        _print_human(cli, record)
    if record.error is not None:
        cli.warn(cli.say(QT_TRANSLATE_NOOP("cli", "The suite could not run: {reason}"),
                         reason=record.error.render(cli.translator)))
        return EXIT_FINDINGS
    if cluster is not None:  # across nodes the one job is the run: a script (sbatch) must see it fail
        row = record.row("ddp-scaling")
        if row is not None and row.status not in ("ok", "skipped"):
            cli.warn(cli.say(QT_TRANSLATE_NOOP("cli", "The run across nodes failed: {reason}"),
                             reason=row.error_text(cli.translator) or row.status))
            return EXIT_FINDINGS
    return EXIT_OK


def _print_human(cli: Cli, record: RunRecord) -> None:
    from configurator.bench.fingerprint import summary

    if record.fingerprint:
        print(summary(record.fingerprint))
    rows = [[cli.translate("cli", "Workload"), cli.translate("cli", "Status"), cli.translate("cli", "Value"),
             cli.translate("cli", "Unit"), cli.translate("cli", "Median"), cli.translate("cli", "IQR"),
             cli.translate("cli", "Note")]]
    for r in record.rows:
        rows.append([r.name, cli.translate("bench", STATUS_LABELS.get(r.status, r.status)), fmt_value(r.value),
                     r.unit or "", fmt_value(r.median),
                     fmt_value(r.iqr), (r.error_text(cli.translator) or "")[:90]])
    if len(rows) > 1:
        print(table(rows))
    bench_nodes.print_ranks(cli, record)
    print(cli.say(QT_TRANSLATE_NOOP("cli", "Suite {suite} on {device}: {status} in {seconds} s{saved}."),
                  suite=record.suite, device=record.resolved_device or record.device,
                  status=cli.translate("bench", STATUS_LABELS.get(record.status, record.status)),
                  seconds=record.duration_s,
                  saved=cli.say(QT_TRANSLATE_NOOP("cli", ", saved as run {id}"), id=record.run_id)
                  if record.run_id is not None else ""))


VERDICT_MARKS = {"pass": "✓", "warn": "!", "fail": "✗", "skip": "–"}


def cmd_doctor(cli: Cli) -> int:
    from configurator.bench.doctor import exit_code, run_checks

    checks = run_checks()
    rendered = [c.render(cli.translator) for c in checks]
    code = exit_code(checks)
    if cli.args.json:
        cli.emit_json({"ok": code == 0, "checks": rendered})
        return code
    for c in rendered:
        rules = f"  [{', '.join(c['rules'])}]" if c["rules"] else ""
        print(f"{VERDICT_MARKS.get(c['verdict'], '?')} {c['check']}: {c['detail']}{rules}")
        if c["fix"]:
            print("    " + cli.say(QT_TRANSLATE_NOOP("cli", "Fix: {fix}"), fix=c["fix"]))
    counts = {v: sum(1 for c in checks if c.verdict == v) for v in VERDICT_MARKS}
    print(cli.render(Message("cli", QT_TRANSLATE_NOOP(
        "cli", "{passed} passed, {warned} warnings, {failed} failed, {skipped} not applicable."),
        {"passed": counts["pass"], "warned": counts["warn"], "failed": counts["fail"], "skipped": counts["skip"]})))
    return code
