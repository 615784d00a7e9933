"""The units are defined once (core/units.py) and imported everywhere else."""

from __future__ import annotations

import ast
from pathlib import Path

import configurator
from configurator.core import units

PACKAGE = Path(configurator.__file__).parent
UNIT_NAMES = {"GIB", "GiB", "MIB", "MiB", "KIB", "KiB"}


def test_binary_units_are_powers_of_two() -> None:
    assert units.MIB == 2**20 and units.GIB == 2**30


def test_no_module_but_core_units_defines_a_unit() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == Path(units.__file__):
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AnnAssign) else []
            found += [f"{path.relative_to(PACKAGE)}: {t.id}" for t in targets
                      if isinstance(t, ast.Name) and t.id in UNIT_NAMES]
    assert not found, f"define units in configurator/core/units.py and import them: {found}"
