from __future__ import annotations

import pytest
from planner_kit import CATALOGUE, Kit

from configurator.core.parts import AnyPart


@pytest.fixture
def catalogue() -> dict[str, AnyPart]:
    return dict(CATALOGUE)


@pytest.fixture
def kit(catalogue: dict[str, AnyPart]) -> Kit:
    return Kit(catalogue)
