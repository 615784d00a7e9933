"""The rules catalogue (configurator/core/rules/catalogue/) is the one source of docs/rules.md and
agrees with the code: every rule ID the app cites has an entry, every severity it gives is one the
entry documents, and an entry marked checked is cited by the code (advice and planned ones are not)."""

from __future__ import annotations

import ast
import io
import random
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest
from planner_kit import CATALOGUE

from configurator.core import presets
from configurator.core.build import OS_CHOICES, Build, BuildPart, Options, Workload
from configurator.core.engine import check
from configurator.core.model_specs import KNOWN_MODELS
from configurator.core.rules import catalogue

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "configurator"
OWN = PACKAGE / "core" / "rules" / "catalogue"
PREFIXES = "BUD|PWR|PCI|CUD|GPU|CPU|RAM|STO|COMP|FIT|REF|MON|OOM|DIST|ENV|UPG|THERM|BAL|EST|CLU"
RULE_ID = re.compile(rf"\b(?:(?:{PREFIXES})-\d+|TIER-[a-z]+(?:-[a-z]+)*)\b")
RULE_SEVERITY = re.compile(rf"\"((?:{PREFIXES})-\d+)\",\s*\"(error|warning|info)\"")


def _code_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if OWN not in p.parents)


def _strings(path: Path) -> Iterator[str]:
    """The string literals of a module (comments and docstrings' neighbours do not count as citing)."""
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        if tok.type == tokenize.STRING or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            yield tok.string


def _cited_in_code() -> dict[str, set[str]]:
    cited: dict[str, set[str]] = {}
    for path in _code_files():
        for s in _strings(path):
            for rule in RULE_ID.findall(s):
                cited.setdefault(rule, set()).add(str(path.relative_to(ROOT)))
    return cited


def _cited_in_data() -> set[str]:
    """Shipped data that names rules: the published measurements, the Grafana dashboard and alert rules."""
    files = [*(ROOT / "db" / "measurements").glob("*.csv"), *(ROOT / "resources").rglob("*.json"),
             *(ROOT / "resources").rglob("*.yml"), *(ROOT / "resources").rglob("*.yaml")]
    return {rule for f in files for rule in RULE_ID.findall(f.read_text(encoding="utf-8"))}


def test_docs_rules_md_is_the_generated_catalogue() -> None:
    shipped = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert shipped == catalogue.markdown(), "docs/rules.md is stale: run `make docs`"


def test_ids_are_unique_and_entries_complete() -> None:
    ids = [r.id for r in catalogue.RULES]
    assert len(ids) == len(set(ids))
    for r in catalogue.RULES:
        assert RULE_ID.fullmatch(r.id), r.id
        assert r.source and r.title and r.checks, r.id
        assert set(r.severity) <= set(catalogue.SEVERITY_KEYS), r.id
        if r.status == "checked" and not r.id.startswith(("REF-", "TIER-")) and r.id != "MON-2" \
                and r.where != ("advisor",):  # the advisor's advice is not a finding: no severity
            assert r.severity, f"{r.id}: a checked rule says which severities it gives"


def test_errata_and_rules_point_at_each_other() -> None:
    numbers = [e.number for e in catalogue.ERRATA]
    assert numbers == list(range(1, len(numbers) + 1))
    for e in catalogue.ERRATA:
        for rule in e.rules:
            entry = catalogue.get(rule)
            assert entry is not None, f"erratum {e.number} names unknown rule {rule}"
            assert e.number in entry.errata, f"{rule} does not list erratum {e.number}"
    for r in catalogue.RULES:
        for n in r.errata:
            assert r.id in catalogue.ERRATA[n - 1].rules, f"erratum {n} does not name {r.id}"


def test_every_rule_id_in_the_code_has_an_entry() -> None:
    unknown = {rule: sorted(files) for rule, files in _cited_in_code().items() if catalogue.get(rule) is None}
    assert not unknown, f"rule IDs without a catalogue entry: {unknown}"


def _written_severities() -> set[tuple[str, str, str]]:
    """(rule, severity, file) of every ``"ID", "severity"`` pair in the code: findings and alerts."""
    return {(rule, severity, str(path.relative_to(ROOT))) for path in _code_files()
            for rule, severity in RULE_SEVERITY.findall(path.read_text(encoding="utf-8"))}


def test_every_severity_written_in_the_code_is_documented() -> None:
    wrong = {(rule, sev, f) for rule, sev, f in _written_severities()
             if (entry := catalogue.get(rule)) is None or sev not in entry.severity}
    assert not wrong, f"findings or alerts with a severity their catalogue entry does not give: {sorted(wrong)}"


def _doctor_verdicts() -> set[tuple[str, str]]:
    """(rule, verdict) of every ``Check(id, verdict, …, rules=(…))`` the environment doctor can give."""
    pairs = set()
    for node in ast.walk(ast.parse((PACKAGE / "bench" / "doctor.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Check":
            verdict = node.args[1]
            assert isinstance(verdict, ast.Constant), f"line {node.lineno}: a verdict the test cannot read"
            for kw in node.keywords:
                if kw.arg == "rules" and isinstance(kw.value, ast.Tuple):
                    pairs |= {(e.value, verdict.value) for e in kw.value.elts if isinstance(e, ast.Constant)}
    return pairs


def test_the_doctors_verdicts_are_documented_and_nothing_more() -> None:
    given = {(rule, v) for rule, v in _doctor_verdicts() if v in ("fail", "warn")}
    assert len(given) >= 5
    undocumented = sorted(p for p in given if (e := catalogue.get(p[0])) is None or p[1] not in e.severity)
    assert not undocumented, f"doctor verdicts their catalogue entry does not give: {undocumented}"
    documented = {(r.id, k) for r in catalogue.RULES for k in r.severity if k in ("fail", "warn")}
    assert not documented - given, f"documented doctor verdicts the doctor never gives: {sorted(documented - given)}"


def test_checked_entries_are_cited_and_the_others_are_not() -> None:
    code = _cited_in_code()
    cited = set(code) | _cited_in_data()
    never = [r.id for r in catalogue.RULES if r.status == "checked" and r.id not in cited]
    assert not never, f"marked checked, but nothing in the code or the shipped data cites them: {never}"
    stale = {r.id: (r.status, sorted(code[r.id])) for r in catalogue.RULES if r.status != "checked" and r.id in code}
    assert not stale, f"the code cites these now: change their catalogue status to checked: {stale}"


def _builds(n: int, seed: int = 17) -> Iterator[Build]:
    """The guides' presets, then random (often bad) builds: mismatched sockets, too small supplies,
    too many cards, used cards, no budget or a tiny one, every OS, assorted workloads."""
    for p in presets.presets(CATALOGUE):
        yield p.build
    by_cat: dict[str, list[str]] = {}
    for part in CATALOGUE.values():
        by_cat.setdefault(part.category, []).append(part.id)
    rng = random.Random(seed)
    models = sorted(KNOWN_MODELS)
    for _ in range(n):
        items = []
        for cat, ids in sorted(by_cat.items()):
            if rng.random() < 0.85:
                qty = rng.choice((1, 1, 1, 2, 4)) if cat in ("gpu", "memory", "storage", "cpu") else 1
                items.append(BuildPart(rng.choice(sorted(ids)), qty, used=cat == "gpu" and rng.random() < 0.2))
        task = rng.choice(("train", "infer"))
        workload = Workload(model=rng.choice(models), task=task, precision=rng.choice(("fp32", "amp", "bf16")),
                            batch_size=rng.choice((None, 8, 64, 512)),
                            sharding=rng.choice(("none", "none", "zero3", "fsdp")) if task == "train" else "none",
                            dataset_gb=rng.choice((None, 10.0, 140.0, 50_000.0)))
        yield Build(tuple(items), budget_cny=rng.choice((None, 1000.0, 50_000.0, 10_000_000.0)),
                    options=Options(nvlink_bridge=rng.random() < 0.3, os=rng.choice(OS_CHOICES)),
                    workload=workload if rng.random() < 0.9 else None)


@pytest.mark.slow
def test_what_the_engine_emits_is_catalogued_with_its_severity() -> None:
    seen: dict[tuple[str, str], int] = {}
    for build in _builds(150):
        for f in check(build, CATALOGUE).findings:
            seen[(f.rule, f.severity)] = seen.get((f.rule, f.severity), 0) + 1
    wrong = sorted(k for k in seen if (e := catalogue.get(k[0])) is None or k[1] not in e.severity)
    assert not wrong, f"the engine gave these (rule, severity) pairs the catalogue does not document: {wrong}"
    assert {"error", "warning", "info"} <= {sev for _rule, sev in seen}  # the builds reach every severity
    given = set(seen) | {(rule, sev) for rule, sev, _f in _written_severities()}
    documented = {(r.id, k) for r in catalogue.RULES if r.status == "checked" for k in r.severity
                  if k in ("error", "warning", "info")}
    assert not documented - given, f"documented severities nothing gives: {sorted(documented - given)}"
    assert len({rule for rule, _sev in seen}) >= 40


def test_markdown_and_summary_cover_every_rule_and_erratum() -> None:
    text = catalogue.markdown()
    summary = catalogue.summary_markdown(full_text="docs/rules.md")
    for r in catalogue.RULES:
        assert f"### {r.id}: " in text
        assert f"| {r.id} |" in summary
    for e in catalogue.ERRATA:
        assert f'id="erratum-{e.number}"' in text
    translated = catalogue.summary_markdown(lambda _ctx, s: f"«{s}»")
    assert "«Budget and cost»" in translated and "«The parts' total stays within the budget»" in translated
