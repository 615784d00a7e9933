"""`configurator check`, `suggest`, `presets` and `export-pdf`: the planner engine on the command line."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from configurator.cli.context import EXIT_FINDINGS, EXIT_OK, Cli, Subcommands, add_command, qt_for_pdf
from configurator.cli.inputs import catalogue_from, load_catalogue, load_suggest_candidates, read_build_file
from configurator.core.findings import CONFIDENCE_LABELS, SERVING_KEYS, estimate_label, source_text
from configurator.core.i18n import QT_TRANSLATE_NOOP, fill
from configurator.core.numbers import range_text, unit_text, value_text

if TYPE_CHECKING:
    from collections.abc import Mapping

    from configurator.core.build import Workload
    from configurator.core.engine import Report
    from configurator.core.findings import Estimate
    from configurator.core.i18n import Message
    from configurator.core.parts import AnyPart
    from configurator.core.suggest import Suggestion, SuggestOptions


_LIKELY = QT_TRANSLATE_NOOP("cli", "{value} (likely {range})")
# counts, shown whole (143 requests, not 143.0); shares, shown as percentages
_WHOLE = ("largest_batch", "serving_max_concurrency")
_SHARES = ("scaling_efficiency", "cluster_scaling_efficiency")

SEVERITY_TITLES = {
    "error": QT_TRANSLATE_NOOP("cli", "Errors"),
    "warning": QT_TRANSLATE_NOOP("cli", "Warnings"),
    "info": QT_TRANSLATE_NOOP("cli", "Information"),
}


def print_report(cli: Cli, report: Report, missing: tuple[str, ...] = ()) -> None:
    """The report as text; ``missing``: the essential categories the build has none of (core.verdict),
    named first as the Planner does."""
    from configurator.core.verdict import still_to_choose

    tr = cli.translator
    b = report.build
    title = b.name or cli.translate("cli", "Build")
    budget = f" / ¥{b.budget_cny:,.0f}" if b.budget_cny is not None else ""
    print(f"{title}: ¥{report.total_cny:,}{budget}")
    if missing:
        print(still_to_choose(missing, tr))
    for severity in ("error", "warning", "info"):
        group = [f for f in report.findings if f.severity == severity]
        if not group:
            continue
        print(f"\n{cli.translate('cli', SEVERITY_TITLES[severity])} ({len(group)})")
        for f in group:
            print(f"  [{f.rule} · {source_text(f.source, tr)}] {f.message.render(tr)}")
    if report.estimates:
        print("\n" + cli.translate("cli", "Estimates"))
        w = b.workload
        for e in report.estimates:
            if w is not None and w.serving and e.key in (SERVING_KEYS[0], "serving_not_estimated"):
                from configurator.core.sheet import serving_heading

                print(f"  {serving_heading(w).render(tr)}")  # the load the serving figures are at
            confidence = cli.translate("estimates", CONFIDENCE_LABELS.get(e.confidence, e.confidence))
            print(f"  {estimate_label(e.key, cli.translate)}: {estimate_text(cli, e)}  ({confidence})")
            print(f"      {e.how.render(tr)}")


def estimate_text(cli: Cli, e: Estimate) -> str:
    """An estimate's figure in words: its value at a precision that suits its size (0.0312 img/s, not 0.0), its
    unit in the reader's language and its likely range."""
    if e.value is None:
        return "—"
    if e.key in _SHARES:
        return f"{e.value:.0%}"
    unit = unit_text(e.unit, cli.translator)
    if e.unit == "CNY":
        return f"¥{e.value:,.0f}"
    value = f"{e.value:,.0f}" if e.key in _WHOLE or isinstance(e.value, int) else value_text(e.value)
    shown = f"{value} {unit}".strip()
    span = range_text(e.low, e.high, whole=e.key in _WHOLE)
    if span is None:
        return shown
    return fill(cli.translate("cli", _LIKELY), value=shown, range=f"{span} {unit}".strip())


def cmd_check(cli: Cli) -> int:
    from configurator.core.engine import check
    from configurator.store.cloud_prices import cloud_prices
    from configurator.store.measurements import MeasurementsRepository

    store = cli.open_store()  # once: opening checks the whole file
    try:
        catalogue = catalogue_from(cli, store)
        prices = cloud_prices(store)  # BUD-3, with the user's own prices
        local = MeasurementsRepository(store).local()  # this machine's benchmarks calibrate its hardware
    finally:
        store.close()
    build = read_build_file(cli, Path(cli.args.build), catalogue)
    report = check(build, catalogue, cloud_prices=prices, local=local)
    from configurator.core.verdict import missing_parts

    missing = missing_parts(build, catalogue)
    if cli.args.json:
        # still_to_choose: the categories every machine needs that the build has none of (as the Planner says)
        cli.emit_json({**report.to_json(cli.translator), "still_to_choose": list(missing)})
    else:
        print_report(cli, report, missing)
    return EXIT_OK if report.ok else EXIT_FINDINGS


_WORKLOAD_FLAGS = {"model": "--workload", "task": "--task", "precision": "--precision", "batch_size": "--batch-size",
                   "seq_len": "--seq-len", "sharding": "--sharding", "finetune": "--finetune",
                   "dataset_gb": "--dataset-gb", "checkpoints_kept": "--checkpoints-kept",
                   "request_rate": "--request-rate", "concurrency": "--request-rate",
                   "prompt_tokens": "--prompt-tokens", "output_tokens": "--output-tokens", "runtime": "--runtime",
                   "quant": "--precision", "kv_cache": "--kv-cache"}
_OPTION_FLAGS = {"goal": "--goal", "target_throughput": "--target-throughput", "gpus": "--min-gpus/--max-gpus",
                 "case": "--case", "memory": "--memory", "relax": "--relax", "max_ttft_ms": "--max-ttft-ms",
                 "max_tpot_ms": "--max-tpot-ms"}


def _suggest_workload(cli: Cli) -> tuple[dict[str, Any], Workload]:
    """The workload the options give (a serving one with --request-rate: task serve), or one line per bad field."""
    from configurator.core.build import SERVE_DEFAULT_PRECISION, BuildError, Workload, read_workload
    from configurator.core.suggest import DEFAULT_WORKLOAD

    a = cli.args
    serve = a.request_rate is not None or a.task == "serve"
    doc: dict[str, Any] = {"model": a.workload or DEFAULT_WORKLOAD.model,
                           "task": a.task or ("serve" if serve else DEFAULT_WORKLOAD.task)}
    doc["precision"] = a.precision or (SERVE_DEFAULT_PRECISION if serve else DEFAULT_WORKLOAD.precision)
    for key in ("batch_size", "seq_len", "sharding", "finetune", "dataset_gb", "checkpoints_kept", "request_rate",
                "prompt_tokens", "output_tokens", "runtime", "kv_cache"):
        if getattr(a, key) is not None:
            doc[key] = getattr(a, key)
    workload, bad = read_workload(doc)
    if bad or workload is None:
        cli.fail([(_WORKLOAD_FLAGS.get(e.path.removeprefix("workload."), e.path), e.message.render(cli.translator))
                  for e in BuildError(bad).errors])
    assert isinstance(workload, Workload)
    return doc, workload


def cmd_suggest(cli: Cli) -> int:
    import math

    from configurator.core.build import MAX_BUDGET_CNY
    from configurator.core.suggest import SuggestOptions, suggest, why_nothing

    a = cli.args
    target = a.target_throughput
    goal = a.goal or ("cheapest" if target is not None or a.request_rate is not None else "fastest")
    # argparse's float() takes nan, inf and 1e400 (= inf): refuse them here, and bound the rest.
    if a.budget is None and goal != "cheapest":
        cli.fail([("--budget", cli.translate("cli", "is required (or give --target-throughput for the cheapest "
                                                    "build that reaches it)"))])
    budget = float(MAX_BUDGET_CNY) if a.budget is None else a.budget
    if not math.isfinite(budget) or budget <= 0:
        cli.fail([("--budget", cli.say(QT_TRANSLATE_NOOP("cli", "must be a positive number of yuan")))])
    if budget > MAX_BUDGET_CNY:
        cli.fail([("--budget", cli.say(QT_TRANSLATE_NOOP("cli", "must be at most ¥{high:,}"), high=MAX_BUDGET_CNY))])
    doc, workload = _suggest_workload(cli)
    sizes = frozenset(s.strip() for s in (a.case or "").split(",") if s.strip())
    relax = frozenset(s.strip().upper() for s in (a.relax or "").split(",") if s.strip())
    # A given sharding is kept as it is; a given fine-tuning method is kept, but may still be sharded.
    prefs = SuggestOptions(goal="cheapest" if goal == "cheapest" else "fastest", target_throughput=target,
                           min_gpus=a.min_gpus, max_gpus=a.max_gpus, case_sizes=sizes, allow_used=a.allow_used,
                           memory="as-given" if a.sharding else a.memory, relax=relax,
                           keep_finetune=a.finetune is not None, max_ttft_ms=a.max_ttft_ms, max_tpot_ms=a.max_tpot_ms)
    problems = prefs.problems(workload)
    if problems:
        cli.fail([(_OPTION_FLAGS[k], m.render(cli.translator)) for k, m in problems])
    alternatives = 3  # the best build and up to three others with different GPUs
    catalogue = load_suggest_candidates(cli, alternatives)  # one record per distinct specification
    found = suggest(catalogue, budget, workload, alternatives=alternatives, prefs=prefs)
    nothing = why_nothing(catalogue, budget, workload, prefs) if not found else []
    if a.json:
        _suggest_json(cli, goal, doc, workload, prefs, found, nothing)
    elif not found:
        _print_nothing(cli, budget, workload, prefs, nothing)
    else:
        _print_suggestions(cli, catalogue, workload, relax, found)
    return EXIT_OK if found else EXIT_FINDINGS


def _suggest_json(cli: Cli, goal: str, doc: dict[str, Any], workload: Workload, prefs: SuggestOptions,
                  found: list[Suggestion], nothing: list[Message]) -> None:
    from configurator.core.build import build_to_dict

    tr = cli.translator
    bounds = {k: v for k, v in (("max_ttft_ms", prefs.max_ttft_ms), ("max_tpot_ms", prefs.max_tpot_ms))
              if v is not None}
    cli.emit_json({
        "ok": bool(found),
        "budget_cny": cli.args.budget,
        "goal": goal,
        **({"target_throughput": prefs.target_throughput} if prefs.target_throughput is not None else {}),
        **bounds,
        "workload": doc,
        "relaxed": sorted(prefs.relax),
        "defaults": _defaults(workload),
        **({"why_nothing": [m.render(tr) for m in nothing]} if not found else {}),
        "suggestions": [{
            "build": build_to_dict(s.build), "total_cny": s.total_cny,
            "throughput": s.throughput, "score": s.score, "unit": s.unit,
            "penalties": [{"rule": p.rule, "weight": p.weight, "why": p.why.render(tr)} for p in s.penalties],
            ("reasons" if i == 0 else "trade"): ([m.render(tr) for m in s.reasons] if i == 0 else
                                                 (s.reasons[0].render(tr) if s.reasons else None)),
            **({"binding": s.binding.render(tr)} if s.binding is not None else {}),
            **({"strategy": s.strategy.render(tr)} if s.strategy is not None and i == 0 else {}),
            **({"serving": s.serving.to_json()} if s.serving is not None else {}),
            "findings": [f.to_json(tr) for f in s.report.findings if f.severity != "info"]}
            for i, s in enumerate(found)],
    })


def _print_nothing(cli: Cli, budget: float, workload: Workload, prefs: SuggestOptions, nothing: list[Message]) -> None:
    from configurator.core.suggest import serve_target, target_message

    tr = cli.translator
    serving = serve_target(workload, prefs)
    if serving is not None:
        print(cli.say(QT_TRANSLATE_NOOP(
            "cli", "No build without errors within ¥{budget:,.0f} serves {rate:,g} requests/s of this "
                   "workload{bounds}."), budget=budget, rate=serving.rate, bounds=target_message(serving)))
    elif prefs.goal == "cheapest":
        print(cli.say(QT_TRANSLATE_NOOP(
            "cli", "No build without errors within ¥{budget:,.0f} reaches {target:,.0f} {unit} for this "
                   "workload."), budget=budget, target=prefs.target_throughput,
            unit=unit_text(workload.throughput_unit, tr)))
    else:
        print(cli.say(QT_TRANSLATE_NOOP("cli", "No build without errors fits ¥{budget:,.0f} for this workload."),
                      budget=budget))
    for m in nothing:
        print(f"  · {m.render(tr)}")


def _print_suggestions(cli: Cli, catalogue: Mapping[str, AnyPart], workload: Workload, relax: frozenset[str],
                       found: list[Suggestion]) -> None:
    tr = cli.translator
    print(cli.say(QT_TRANSLATE_NOOP(
        "cli", "Assumed: {dataset:,.0f} GB of data{ds_how}, {kept} checkpoint(s) kept{kept_how}, {env:.0f} GB of "
               "system and environment; storage needed {need:,.0f} GB (BAL-4)."), **_defaults(workload, cli)))
    if relax:
        print(cli.say(QT_TRANSLATE_NOOP("cli", "Relaxed at your request: {rules} (a suggestion may warn on them)."),
                      rules=", ".join(sorted(relax))))
    for i, s in enumerate(found):
        head = cli.translate("cli", "Best build") if i == 0 else cli.say(
            QT_TRANSLATE_NOOP("cli", "Alternative {n}"), n=i)
        scored = ""
        if s.penalties:
            scored = " " + cli.say(QT_TRANSLATE_NOOP("cli", "(scored {score:,.1f}: {penalties})"), score=s.score,
                                   penalties=", ".join(f"{p.rule} −{p.weight:.0%}" for p in s.penalties))
        print(f"\n{head}: ¥{s.total_cny:,} — {s.throughput:,.1f} {unit_text(s.unit, tr)}{scored}")
        if i == 0:
            for m in s.reasons:
                print(f"  · {m.render(tr)}")
            if s.binding is not None:
                print(f"  · {s.binding.render(tr)}")
        elif s.reasons:
            print(f"  · {s.reasons[0].render(tr)}")
        for m in s.serving.messages() if s.serving is not None else ():
            print(f"  · {m.render(tr)}")
        for p in s.build.parts:
            part = catalogue[p.id]
            qty = f"{p.qty} × " if p.qty > 1 else ""
            used = " " + cli.translate("cli", "(used)") if p.used else ""
            print(f"  {qty}{part.name}{used}  (¥{part.price_cny * p.qty:,})")


def _defaults(workload: Any, cli: Cli | None = None) -> dict[str, Any]:
    """What Suggest assumed where the workload says nothing (BAL-4): the data set, the checkpoints kept,
    the environment, and the storage they need."""
    from configurator.core.rules.bal import storage_need

    need = storage_need(workload)
    out: dict[str, Any] = {"dataset": need.dataset_gb, "kept": need.checkpoints, "env": need.environment_gb,
                           "need": need.total_gb}
    if cli is None:
        return {"dataset_gb": round(need.dataset_gb, 1), "dataset_default": need.dataset_default,
                "checkpoints_kept": need.checkpoints, "checkpoints_default": need.checkpoints_default,
                "checkpoint_gb": round(need.checkpoint_gb, 1), "environment_gb": need.environment_gb,
                "weights_gb": round(need.weights_gb, 1), "storage_need_gb": round(need.total_gb, 1)}
    out["ds_how"] = cli.translate("cli", " (the default for this model; give dataset_gb)") \
        if need.dataset_default else ""
    out["kept_how"] = cli.translate("cli", " (the default; give checkpoints_kept)") \
        if need.checkpoints_default else ""
    return out


def cmd_presets(cli: Cli) -> int:
    from configurator.core.build import build_to_dict
    from configurator.core.presets import presets, tier_label

    catalogue = load_catalogue(cli)
    items = presets(catalogue)
    if cli.args.json:
        cli.emit_json([{"id": p.tier.id, "source": p.tier.source, "name": p.tier.name,
                        "label": tier_label(p.tier.id, cli.translator), "guide": p.tier.guide_text,
                        "build": build_to_dict(p.build), "filled": list(p.filled)} for p in items])
        return EXIT_OK
    for p in items:
        # the tier's name in the reader's language (the guide's own Chinese name in Chinese)
        print(f"\n{p.tier.id} · {p.tier.source} · {tier_label(p.tier.id, cli.translator)}\n"
              f"  {cli.translate('tiers', p.tier.guide_text)}")
        for bp in p.build.parts:
            mark = "  " + cli.translate("cli", "(filled: cheapest compatible part)") if bp.id in p.filled else ""
            qty = f"{bp.qty} × " if bp.qty > 1 else ""
            print(f"    {qty}{catalogue[bp.id].name}{mark}")
    return EXIT_OK


def register(sub: Subcommands) -> None:
    c = add_command(sub, "check", help="check a build file against the guides' rules")
    c.add_argument("build", help="BUILD.json")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_check)
    s = add_command(sub, "suggest", help="the best build for a budget and workload")
    s.add_argument("--budget", type=float, help="CNY (required unless --target-throughput is given)")
    s.add_argument("--workload", help="resnet18, resnet50, bert-base, gpt2, llama-7b … (default resnet50, as the "
                                     "Suggest dialog)")
    s.add_argument("--task", help="train, infer or serve (default train; serve with --request-rate)")
    s.add_argument("--precision", help="fp32, amp, bf16, fp16, int8 or int4 (default amp, as the Suggest dialog; "
                                       "serving bf16)")
    s.add_argument("--batch-size", type=int)
    s.add_argument("--seq-len", type=int)
    s.add_argument("--dataset-gb", type=float, help="the data set in GB (default: ImageNet-1k for image training)")
    s.add_argument("--checkpoints-kept", type=int, help="checkpoints the run keeps (default 2 for training)")
    s.add_argument("--sharding", help="none, zero1, zero2, zero3 or fsdp (given: Suggest keeps it)")
    s.add_argument("--finetune", help="full, lora or qlora (given: Suggest keeps it)")
    s.add_argument("--memory", choices=("auto", "as-given"), default="auto",
                   help="auto (default): LLM training that fits no GPU may be sharded (FSDP) or use LoRA/QLoRA, "
                        "and the answer says which")
    s.add_argument("--goal", choices=("fastest", "cheapest"),
                   help="fastest within the budget (default), or cheapest that reaches --target-throughput")
    s.add_argument("--target-throughput", type=float, metavar="N",
                   help="in the workload's unit (img/s, samples/s, tokens/s); implies --goal cheapest")
    s.add_argument("--min-gpus", type=int, default=0, help="0 (default) allows a CPU-only build")
    s.add_argument("--max-gpus", type=int, default=4, help="default 4, at most 8")
    s.add_argument("--case", metavar="SIZES", help="allowed case sizes, comma-separated: sff, mid, full, rack")
    s.add_argument("--allow-used", action="store_true",
                   help="also cards sold used only (discontinued); they are marked used in the build (BUD-4)")
    s.add_argument("--request-rate", type=float, metavar="N",
                   help="serve N requests/s (task serve, open loop): with --goal cheapest (implied) the cheapest build "
                        "whose estimate serves them")
    s.add_argument("--prompt-tokens", type=int, metavar="N", help="serving: mean prompt tokens per request")
    s.add_argument("--output-tokens", type=int, metavar="N", help="serving: mean output tokens per request")
    s.add_argument("--runtime", help="serving: vllm (default) or tensorrt-llm")
    s.add_argument("--kv-cache", metavar="TYPE",
                   help="LLM inference and serving: the KV cache's element type, 16-bit (default) or fp8 (twice the "
                        "tokens in the same memory)")
    s.add_argument("--max-ttft-ms", type=float, metavar="MS",
                   help="serving: the median time to first token at most MS (judged on the central estimate)")
    s.add_argument("--max-tpot-ms", type=float, metavar="MS",
                   help="serving: the median time per output token at most MS (judged on the central estimate)")
    s.add_argument("--relax", metavar="RULES",
                   help="rules a suggestion may warn on, comma-separated (BAL-1 cores per GPU, BAL-2 memory "
                        "channels, BAL-3 RAM against VRAM, BAL-4 storage; for training CUD-4 an AMD card under ROCm, "
                        "PCI-3 a GPU on a chipset or x4 link); by default they are constraints")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_suggest)
    e = add_command(sub, "export-pdf", help="write a build sheet (A4 PDF); works without a display")
    e.add_argument("build", help="BUILD.json")
    e.add_argument("out", help="OUT.pdf")
    e.set_defaults(func=cmd_export_pdf, json=False)
    p = add_command(sub, "presets", help="the guides' tiers as build files")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_presets)


def cmd_export_pdf(cli: Cli) -> int:
    from configurator.files import refuse_link

    out = Path(cli.args.out)
    try:
        refuse_link(out)  # before anything else: a link is never written through
    except OSError as exc:
        cli.fail([(str(out), cli.file_problem(str(out), exc))])
    catalogue = load_catalogue(cli)
    build = read_build_file(cli, Path(cli.args.build), catalogue)
    _qt = qt_for_pdf(cli)  # kept until the sheet is written

    from configurator.core.sheet import build_sheet
    from configurator.ui.pdf import write_sheet_pdf

    try:
        write_sheet_pdf(build_sheet(build, catalogue), out)
    except OSError as exc:
        cli.fail([(str(out), cli.file_problem(str(out), exc))])
    cli.warn(cli.say(QT_TRANSLATE_NOOP("cli", "Wrote {path}."), path=str(out)))
    return EXIT_OK


