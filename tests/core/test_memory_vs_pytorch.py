"""The VRAM estimator against PyTorch itself: real training steps on the CPU, counted by
benchmarks/memory_counts.py (its docstring says what is counted and how the CPU stands in for CUDA).
The estimator's terms must be within 10 % of those counts (they agree to well under 1 %); `make bench
--only memory` prints the whole measured-vs-estimated table."""

from __future__ import annotations

import pytest

from benchmarks.memory_counts import RESNET_CASES, TRANSFORMER_CASES, Measured, measure_resnet, measure_transformer

pytestmark = [pytest.mark.full_env, pytest.mark.integration]  # torch, torchvision and transformers
TOLERANCE = 0.10


def _within_tolerance(m: Measured) -> None:
    assert m.params_counted == pytest.approx(m.params_estimated)  # the layout's parameter count is exact
    for row in m.rows:
        assert row.estimated == pytest.approx(row.measured, rel=TOLERANCE), row


@pytest.mark.parametrize(("family", "layers", "hidden", "heads", "vocab", "batch", "seq", "amp", "attention",
                          "ckpt"), TRANSFORMER_CASES)
def test_transformer_step_matches_the_estimate(family: str, layers: int, hidden: int, heads: int, vocab: int,
                                               batch: int, seq: int, amp: bool, attention: str,
                                               ckpt: bool) -> None:
    _within_tolerance(measure_transformer(family, layers, hidden, heads, vocab, batch, seq, amp, attention, ckpt))


@pytest.mark.parametrize(("arch", "batch", "side", "amp", "ckpt"), RESNET_CASES)
def test_resnet_step_matches_the_estimate(arch: str, batch: int, side: int, amp: bool, ckpt: bool) -> None:
    _within_tolerance(measure_resnet(arch, batch, side, amp, ckpt))
