"""`configurator measurements list`: the measurements in the database: the published ones the throughput
model is fitted to (shipped) and this machine's benchmark results (local), which calibrate its estimates."""

from __future__ import annotations

import dataclasses

from configurator.cli.context import EXIT_OK, Cli, Subcommands, add_command, table
from configurator.cli.rounding import tidy
from configurator.core.i18n import QT_TRANSLATE_NOOP, fill

# A published measurement's task (core.measurements.TASKS), as people read it.
TASK_WORDS = {
    "train": QT_TRANSLATE_NOOP("cli", "training"),
    "inference": QT_TRANSLATE_NOOP("cli", "inference"),
    "prefill": QT_TRANSLATE_NOOP("cli", "prefill"),
    "decode": QT_TRANSLATE_NOOP("cli", "decode"),
    "serve": QT_TRANSLATE_NOOP("cli", "serving"),
}


def cmd_measurements_list(cli: Cli) -> int:
    from configurator.core.numbers import unit_text
    from configurator.store.measurements import LOCAL, SHIPPED, MeasurementsRepository

    a = cli.args
    store = cli.open_store()
    try:
        repo = MeasurementsRepository(store)
        rows = repo.shipped() if a.source in ("all", SHIPPED) else []
        local = repo.local() if a.source in ("all", LOCAL) else []
    finally:
        store.close()
    rows = [m for m in rows if (a.gpu is None or m.gpu == a.gpu) and (a.family is None or m.family == a.family)]
    if a.gpu is not None:  # a catalogue GPU id: this machine's rows say their GPU by name
        local = []
    local = [m for m in local if a.family is None or m.family == a.family]
    if a.json:
        # published figures exactly as shipped (198.848 tokens/s stays so); this machine's results rounded
        cli.emit_json([{**dataclasses.asdict(m), "flags": list(m.flags), "provenance": SHIPPED} for m in rows]
                      + [tidy({**m.to_json(), "provenance": LOCAL}) for m in local], rounded=False)
        return EXIT_OK
    head = [cli.translate("cli", t) for t in (
        "GPU", "×", QT_TRANSLATE_NOOP("cli", "Model"), QT_TRANSLATE_NOOP("cli", "Task"),
        QT_TRANSLATE_NOOP("cli", "Precision"), QT_TRANSLATE_NOOP("cli", "Batch"), QT_TRANSLATE_NOOP("cli", "Value"),
        QT_TRANSLATE_NOOP("cli", "Software"), QT_TRANSLATE_NOOP("cli", "Source"))]
    lines = [head]
    for m in rows:
        software = " ".join(x for x in (m.framework, m.framework_version) if x) or "—"
        where = m.source_url.split("/blob/")[0].removeprefix("https://github.com/") if m.source_url else m.source_ref
        task = cli.translate("cli", TASK_WORDS[m.task]) if m.task in TASK_WORDS else m.task
        lines.append([m.gpu.removeprefix("nvidia-"), str(m.gpu_count), m.model, task, m.precision or "—",
                      "—" if m.batch_size is None else str(m.batch_size),
                      f"{m.value:,g} {unit_text(m.unit, cli.translate)}", software, where])
    this = cli.translate("cli", "this machine, run {run}, {date}")
    for lm in local:
        batch = lm.settings.get("batch")
        lines.append([lm.hardware_name or lm.device, "1", lm.workload, lm.device,
                      str(lm.settings.get("dtype") or lm.settings.get("amp") or "—"),
                      "—" if batch is None else str(batch), f"{lm.value:,.4g} {unit_text(lm.unit, cli.translate)}",
                      lm.software,
                      fill(this, run=str(lm.run_id), date=lm.date)])
    if len(lines) > 1:
        print(table(lines))
    print("\n" + cli.say(QT_TRANSLATE_NOOP(
        "cli", "{n} published measurements from {sources} sources; --json gives every field with its URL."),
        n=len(rows), sources=len({m.origin for m in rows})))
    if local:
        print(cli.say(QT_TRANSLATE_NOOP(
            "cli", "{n} measurements of this machine's benchmarks: they calibrate the estimates of builds with "
                   "the same GPU or CPU."), n=len(local)))
    return EXIT_OK


def register(sub: Subcommands) -> None:
    m = add_command(sub, "measurements", help="the published measurements behind the throughput estimates")
    msub = m.add_subparsers(dest="measurements_command", required=True)  # the same contract-keeping parser
    ml = add_command(msub, "list", help="list them (with source URL and software)")
    ml.add_argument("--gpu", help="only this catalogue GPU id")
    ml.add_argument("--family", help="cnn-train, bert-train, gpt-train, llm-prefill, llm-decode")
    ml.add_argument("--source", choices=("all", "shipped", "local"), default="all",
                    help="shipped (published) or local (this machine's benchmarks); default both")
    ml.add_argument("--json", action="store_true")
    ml.set_defaults(func=cmd_measurements_list)
