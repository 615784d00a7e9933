"""`configurator measurements list`: the published measurements the throughput model is fitted to."""

from __future__ import annotations

import dataclasses

from configurator.cli.context import EXIT_OK, Cli, Subcommands, add_command, table
from configurator.core.i18n import QT_TRANSLATE_NOOP


def cmd_measurements_list(cli: Cli) -> int:
    from configurator.core import measurements as ms

    try:
        rows = ms.load()
    except ms.MeasurementError as exc:  # a packaging bug, but still one line
        cli.fail([(f"{exc.path}:{exc.line}" if exc.line else exc.path, exc.message)])
    gpu = cli.args.gpu
    family = cli.args.family
    rows = [m for m in rows if (gpu is None or m.gpu == gpu) and (family is None or m.family == family)]
    if cli.args.json:
        cli.emit_json([{**dataclasses.asdict(m), "flags": list(m.flags)} for m in rows])
        return EXIT_OK
    head = [cli.translate("cli", t) for t in ("GPU", "×", "Model", "Task", "Precision", "Batch", "Value",
                                              "Software", "Source")]
    lines = [head]
    for m in rows:
        software = " ".join(x for x in (m.framework, m.framework_version) if x) or "—"
        where = m.source_url.split("/blob/")[0].removeprefix("https://github.com/") if m.source_url else m.source_ref
        lines.append([m.gpu.removeprefix("nvidia-"), str(m.gpu_count), m.model, m.task, m.precision or "—",
                      "—" if m.batch_size is None else str(m.batch_size), f"{m.value:,g} {m.unit}", software, where])
    if len(lines) > 1:
        print(table(lines))
    print("\n" + cli.say(QT_TRANSLATE_NOOP(
        "cli", "{n} published measurements from {sources} sources; --json gives every field with its URL."),
        n=len(rows), sources=len({m.origin for m in rows})))
    return EXIT_OK


def register(sub: Subcommands) -> None:
    m = add_command(sub, "measurements", help="the published measurements behind the throughput estimates")
    msub = m.add_subparsers(dest="measurements_command", required=True)  # the same contract-keeping parser
    ml = add_command(msub, "list", help="list them (with source URL and software)")
    ml.add_argument("--gpu", help="only this catalogue GPU id")
    ml.add_argument("--family", help="cnn-train, bert-train, gpt-train, llm-prefill, llm-decode")
    ml.add_argument("--json", action="store_true")
    ml.set_defaults(func=cmd_measurements_list)
