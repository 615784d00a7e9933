"""`--json` rounds a record's field by the precision its declaration gives (core/parts.py, through
core/schema_precision.py), not by its key's suffix."""

from __future__ import annotations

import dataclasses

from configurator.cli import rounding
from configurator.core.parts import PART_TYPES, Gpu, M2Slot, PcieSlot
from configurator.core.schema import precisions
from configurator.core.schema_precision import DECIMAL_1, DECLARED, GHZ, THROUGHPUT


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
