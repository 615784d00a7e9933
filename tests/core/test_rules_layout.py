"""The rules are laid out by rule-ID prefix (issue #32): the checks of the PWR-* rules are in
configurator/core/rules/pwr.py and their catalogue entries in configurator/core/rules/catalogue/pwr.py,
and so on for every prefix; shared.py and order.py add no finding. A PWR finding added in pci.py, or a
PWR entry written into catalogue/pci.py, fails here."""

from __future__ import annotations

import ast
import importlib
import inspect
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from planner_kit import CATALOGUE

from configurator.core.build import Build, BuildPart, Options, Workload
from configurator.core.engine import check
from configurator.core.model_specs import KNOWN_MODELS
from configurator.core.rules import catalogue, order
from configurator.core.rules.catalogue.model import Rule
from configurator.core.rules.shared import Ctx

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "configurator" / "core" / "rules"
CATALOGUE_DIR = RULES_DIR / "catalogue"
NOT_FAMILIES = {"__init__", "shared", "order"}  # the rules package's modules that are no prefix's
CATALOGUE_NOT_FAMILIES = {"__init__", "__main__", "model", "errata"}
# Findings drawn from the estimates, added where the estimates are made (not rule checks of their own).
FROM_ESTIMATES = {"EST-1": "configurator/core/engine/guide_disagreements.py",
                  "CLU-1": "configurator/core/cluster_estimates.py"}
RULE_ID = re.compile(r"(?:[A-Z]+-\d+|TIER-[a-z]+(?:-[a-z]+)*)")


def _prefix(rule_id: str) -> str:
    return rule_id.split("-", 1)[0].lower()


def _families() -> list[str]:
    return sorted(p.stem for p in RULES_DIR.glob("*.py") if p.stem not in NOT_FAMILIES)


def _adds(path: Path, ctx_only: bool = False) -> Iterator[tuple[int, str, ast.expr | None]]:
    """(line, function, the rule argument) of every ``ctx.add(...)`` call, and unless ``ctx_only`` of
    every ``<x>.add(...)`` whose first argument is a rule ID: the findings a module adds."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add"):
                continue
            first = node.args[0] if node.args else None
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str) \
                and RULE_ID.fullmatch(first.value)
            on_ctx = isinstance(node.func.value, ast.Name) and node.func.value.id == "ctx"
            if on_ctx or (literal and not ctx_only):
                yield node.lineno, fn.name, first


def test_every_finding_is_added_in_the_module_of_its_prefix() -> None:
    wrong, unreadable, seen = [], [], set()
    for path in sorted(RULES_DIR.glob("*.py")):
        for line, fn, arg in _adds(path):
            where = f"{path.relative_to(ROOT)}:{line} ({fn})"
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                unreadable.append(where)
                continue
            seen.add(arg.value)
            if path.stem in NOT_FAMILIES or _prefix(arg.value) != path.stem:
                wrong.append(f"{arg.value} in {where}: belongs in configurator/core/rules/{_prefix(arg.value)}.py")
    assert not unreadable, f"a finding's rule ID must be a literal (this test reads it): {unreadable}"
    assert not wrong, f"findings added outside the module of their prefix: {wrong}"
    assert len(seen) >= 60  # the test reads the checks (PWR-1 … THERM-2), not an empty folder


def test_no_finding_is_added_by_a_rule_check_outside_the_rules() -> None:
    """Outside configurator/core/rules only the findings drawn from the estimates are added (``ctx.add``;
    the context is core's, so is every finding)."""
    outside = {}
    for path in sorted((ROOT / "configurator" / "core").rglob("*.py")):
        if RULES_DIR in path.parents:
            continue
        rel = str(path.relative_to(ROOT))
        for line, _fn, arg in _adds(path, ctx_only=True):
            rule = arg.value if isinstance(arg, ast.Constant) else None
            if rule is None or FROM_ESTIMATES.get(rule) != rel:
                outside[f"{rel}:{line}"] = rule
    assert not outside, f"findings added outside configurator/core/rules/<prefix>.py: {outside}"
    assert set(FROM_ESTIMATES) <= {r.id for r in catalogue.RULES}


def test_every_family_module_is_a_prefix_of_the_catalogue() -> None:
    prefixes = {r.topic.lower() for r in catalogue.RULES}
    assert set(_families()) <= prefixes, f"modules named for no rule prefix: {set(_families()) - prefixes}"
    extra = {p.stem for p in RULES_DIR.glob("*.py")} - set(_families()) - NOT_FAMILIES
    assert not extra


def _entries(module: Any) -> list[Rule]:
    return [r for value in vars(module).values() if isinstance(value, tuple)
            for r in value if isinstance(r, Rule)]


def test_every_catalogue_entry_is_in_the_catalogue_module_of_its_prefix() -> None:
    modules = {p.stem for p in CATALOGUE_DIR.glob("*.py")} - CATALOGUE_NOT_FAMILIES
    prefixes = {r.topic.lower() for r in catalogue.RULES}
    assert modules == prefixes, f"catalogue modules without rules: {modules - prefixes}; " \
                                f"prefixes without a catalogue module: {prefixes - modules}"
    placed: dict[str, str] = {}
    for name in sorted(modules):
        module = importlib.import_module(f"configurator.core.rules.catalogue.{name}")
        for r in _entries(module):
            assert r.topic.lower() == name, \
                f"{r.id} is in catalogue/{name}.py: it belongs in catalogue/{r.topic.lower()}.py"
            placed[r.id] = name
    missing = [r.id for r in catalogue.RULES if r.id not in placed]
    assert not missing, f"catalogue entries not in their prefix's module: {missing}"
    assert len(placed) == len(catalogue.RULES)  # no entry written in a module but left out of the catalogue


def test_every_planner_rule_has_its_check_module() -> None:
    """A rule the planner checks has a module of checks named for its prefix (those drawn from the
    estimates excepted), and the module of a prefix only checks that prefix's rules."""
    planner = {r.id for r in catalogue.RULES if r.status == "checked" and "planner" in r.where}
    families = set(_families())
    without = sorted(i for i in planner if _prefix(i) not in families and i not in FROM_ESTIMATES)
    assert not without, f"planner rules without a module in configurator/core/rules: {without}"


def _check_functions() -> dict[str, list[str]]:
    """Public functions of each family module that add a finding themselves."""
    out: dict[str, list[str]] = {}
    for name in _families():
        path = RULES_DIR / f"{name}.py"
        out[name] = sorted({fn for _line, fn, _arg in _adds(path) if not fn.startswith("_")})
    return out


def test_the_engine_runs_every_check_once_in_a_fixed_order() -> None:
    ran = [f"{c.__module__.rsplit('.', 1)[-1]}.{c.__name__}" for c in (*order.CHECKS, *order.AFTER_ESTIMATES)]
    assert len(ran) == len(set(ran)), "a check runs twice"
    for name in ran:
        module = sys.modules[f"configurator.core.rules.{name.split('.')[0]}"]
        assert name.split(".")[0] in _families() and inspect.isfunction(getattr(module, name.split(".")[1]))
    public = {f"{m}.{fn}" for m, fns in _check_functions().items() for fn in fns}
    assert not public - set(ran), f"checks the engine never runs (add them to rules/order.py): {public - set(ran)}"


def test_family_modules_do_not_import_each_other() -> None:
    """What two families use is in shared.py, so a family's module reads on its own."""
    families = set(_families())
    wrong = []
    for name in families:
        tree = ast.parse((RULES_DIR / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                for n in names:
                    if n.startswith("configurator.core.rules.") and n.rsplit(".", 1)[-1] in families - {name}:
                        wrong.append(f"{name}.py imports {n}")
    assert not wrong, wrong


@pytest.fixture
def adders(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """(rule, module that added it) of every finding added while the fixture is in use."""
    seen: list[tuple[str, str]] = []
    original = Ctx.add

    def add(self: Ctx, rule: str, *args: Any, **kwargs: Any) -> None:
        seen.append((rule, sys._getframe(1).f_globals["__name__"]))
        original(self, rule, *args, **kwargs)

    monkeypatch.setattr(Ctx, "add", add)
    return seen


def _builds(n: int, seed: int = 5) -> Iterator[Build]:
    """Random, often bad builds (parts of every category, several GPUs, a workload): many rules fire."""
    by_cat: dict[str, list[str]] = {}
    for part in CATALOGUE.values():
        by_cat.setdefault(part.category, []).append(part.id)
    rng = random.Random(seed)
    models = sorted(KNOWN_MODELS)
    for _ in range(n):
        items = [BuildPart(rng.choice(sorted(ids)), rng.choice((1, 2, 4)) if cat in ("gpu", "memory") else 1,
                           used=rng.random() < 0.2)
                 for cat, ids in sorted(by_cat.items()) if rng.random() < 0.9]
        task = rng.choice(("train", "infer"))
        workload = Workload(model=rng.choice(models), task=task, precision=rng.choice(("fp32", "amp", "bf16")),
                            dataset_gb=rng.choice((None, 140.0, 50_000.0)))
        yield Build(tuple(items), budget_cny=rng.choice((None, 1000.0)), workload=workload,
                    options=Options(nvlink_bridge=rng.random() < 0.3))


def test_the_engines_findings_come_from_the_modules_of_their_prefixes(adders: list[tuple[str, str]]) -> None:
    """The same, as the engine runs: each finding is added by its prefix's module (the rules' findings
    only: the test above reads the ones drawn from the estimates)."""
    for build in _builds(60):
        check(build, CATALOGUE, with_estimates=False)
    assert len({rule for rule, _m in adders}) >= 40
    wrong = sorted({(rule, module) for rule, module in adders
                    if module != f"configurator.core.rules.{_prefix(rule)}"})
    assert not wrong, f"findings added by another module than their prefix's: {wrong}"
