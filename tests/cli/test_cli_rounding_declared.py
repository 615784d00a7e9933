"""`--json` rounds a record's field by the precision its declaration gives (core/parts.py, through
core/schema_precision.py), not by its key's suffix."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

import configurator.core
from configurator.cli import rounding
from configurator.core.parts import PART_TYPES, Gpu, M2Slot, PcieSlot
from configurator.core.schema import precisions
from configurator.core.schema_precision import (
    DECIMAL_1,
    DECLARED,
    ESTIMATES,
    GHZ,
    MILLISECONDS,
    SIZES,
    THROUGHPUT,
    WATTS,
    declare,
)
from configurator.monitor.snapshot import GpuSample, HostSample


def test_every_float_field_of_a_part_declares_its_precision() -> None:
    for cls in (*PART_TYPES.values(), PcieSlot, M2Slot):
        declared = precisions(cls)
        floats = {f.name for f in dataclasses.fields(cls) if "float" in str(f.type) or "Number" in str(f.type)}
        assert floats <= set(declared), (cls.__name__, floats - set(declared))


def test_the_declared_precision_rounds_the_key() -> None:
    assert precisions(Gpu)["slot_width"] is DECIMAL_1 and DECLARED["base_ghz"] is GHZ
    assert rounding.rule_for_key("slot_width") is DECIMAL_1  # no suffix says it: only the declaration
    assert rounding.rule_for_key("nvlink_gbs_per_gpu") is THROUGHPUT
    assert rounding.tidy({"slot_width": 2.75001, "fp32_tflops": 82.5812}) == {"slot_width": 2.8, "fp32_tflops": 82.58}


def test_a_key_suffix_declares_nothing() -> None:
    """The suffix rules are gone: a new ``*_w`` key is undeclared (shown with FIGURE) and reported."""
    assert rounding.rule_for_key("new_thing_w") is None
    assert rounding.undeclared({"gpus": [{"new_thing_w": 51.00000000001239, "power_w": 51.0}]}) == [
        ".gpus[0].new_thing_w"]
    assert rounding.tidy({"new_thing_w": 51.00000000001239}) == {"new_thing_w": 51.0}  # FIGURE: 2 decimals
    assert rounding.undeclared({"value": 3.0, "unit": "furlongs"}) == [".value"]


def test_an_estimate_is_rounded_by_its_key_and_a_row_by_its_unit() -> None:
    assert ESTIMATES["vram_per_gpu_gib"] is SIZES and ESTIMATES["serving_ttft_ms"] is MILLISECONDS
    estimate = {"key": "largest_batch", "value": 12.4, "unit": "samples", "inputs": {"weights": 1.23456}}
    assert rounding.tidy(estimate) == {**estimate, "value": 12, "inputs": {"weights": 1}}
    assert rounding.undeclared(estimate) == []
    row = {"name": "matmul-fp32", "value": 0.1930658336457885, "unit": "TFLOPS", "iqr": 0.003326518110257165}
    assert rounding.tidy(row) == {**row, "value": 0.193, "iqr": 0.00333}
    assert rounding.tidy({"value": 0.51234, "unit": "ratio_to:nvidia-rtx-3090"})["value"] == 0.5123


def test_a_name_has_one_precision() -> None:
    declare("power_w", WATTS)  # the same again: fine
    with pytest.raises(ValueError, match="power_w"):
        declare("power_w", SIZES)
    assert DECLARED["power_w"] is WATTS


def test_every_number_of_a_monitor_sample_is_declared() -> None:
    """The samples `monitor --json` prints: each numeric field of GpuSample and HostSample has a precision."""
    for cls in (GpuSample, HostSample):
        numeric = {f.name for f in dataclasses.fields(cls) if "float" in str(f.type)}
        assert numeric and numeric <= set(DECLARED), (cls.__name__, numeric - set(DECLARED))


def test_every_estimate_key_of_the_engine_is_declared() -> None:
    """Each key an estimate is made with (core/, ``Estimate("key"`` or a serving ``est("key"``) declares how
    its value is shown."""
    root = Path(configurator.core.__file__).parent
    keys = {m.group(1) for p in root.rglob("*.py")
            for m in re.finditer(r'(?:\bEstimate|\best)\(\s*"([a-z_0-9]+)"', p.read_text(encoding="utf-8"))}
    assert len(keys) > 15 and keys <= set(ESTIMATES), keys - set(ESTIMATES)
