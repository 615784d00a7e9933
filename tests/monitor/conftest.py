"""Fixtures for the monitor: a controllable clock and backends on the fake NVML."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from configurator.monitor.fake_nvml import FakeNvml, Scenario
from configurator.monitor.nvml import NvmlBackend


class Clock:
    def __init__(self, t: float = 1000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        self.t += dt


@pytest.fixture
def clock() -> Clock:
    return Clock()


MakeBackend = Callable[..., tuple[NvmlBackend, FakeNvml]]


@pytest.fixture
def make_backend(clock: Clock) -> MakeBackend:
    """The production backend on a fresh fake NVML running ``scenario``."""

    def make(scenario: Scenario, **kwargs: Any) -> tuple[NvmlBackend, FakeNvml]:
        fake = FakeNvml(scenario, clock=clock)
        return NvmlBackend(fake, clock=clock, **kwargs), fake

    return make
