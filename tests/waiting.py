"""Waiting on a condition outside Qt (qtbot.waitUntil is the Qt tests' way): for state that only a
real engine's answer can show, such as a Prometheus server's rule evaluation."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(probe: Callable[[], T], done: Callable[[T], bool], *, timeout_s: float, what: str,
               every_s: float = 0.25) -> T:
    """Call ``probe`` until ``done`` holds for its answer, at most ``timeout_s``; the last answer is returned
    (or named in the AssertionError when time ran out)."""
    deadline = time.monotonic() + timeout_s
    pause = threading.Event()  # never set: its wait is the pause between two asks
    while True:
        answer = probe()
        if done(answer):
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not within {timeout_s:g} s: last {answer!r}")
        pause.wait(every_s)
