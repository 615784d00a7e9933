from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from configurator.core.parts import (
    PART_TYPES,
    Gpu,
    Motherboard,
    PartValidationError,
    parse_text_value,
    part_from_dict,
    part_to_dict,
)

BASE = {"name": "Test card", "brand": "NVIDIA", "price_cny": 1000, "price_date": "2026-11",
        "source": "https://www.nvidia.com/en-us/some/spec-page/"}
GPU = {**BASE, "id": "nvidia-test-card", "category": "gpu", "vendor": "nvidia", "architecture": "Ampere",
       "form_factor": "pcie", "vram_gb": 12, "vram_type": "GDDR6", "memory_bandwidth_gbs": 360.0,
       "fp32_tflops": 12.7, "tensor_cores": True, "board_power_w": 170, "pcie_gen": 4, "pcie_lanes": 16,
       "cooling": "active", "nvlink": False}


def errors_of(data: dict, category: str | None = None) -> dict[str, str]:
    with pytest.raises(PartValidationError) as info:
        part_from_dict(data, category)
    return {e.path: e.message.render() for e in info.value.errors}


def test_valid_gpu_round_trips_through_flat_json() -> None:
    gpu = part_from_dict(GPU)
    assert isinstance(gpu, Gpu)
    d = part_to_dict(gpu)
    assert d["category"] == "gpu" and d["vram_gb"] == 12 and d["nvlink"] is False
    assert part_from_dict(d) == gpu


def test_every_bad_field_is_reported_with_its_path() -> None:
    bad = {**GPU, "vram_gb": "12", "price_cny": -5, "bogus": 1, "id": "NVIDIA Test", "source": "https://nvidia.com"}
    del bad["board_power_w"]
    errs = errors_of(bad)
    assert "must be an integer" in errs["vram_gb"]
    assert "negative" in errs["price_cny"]
    assert "unknown field" in errs["bogus"]
    assert "lowercase" in errs["id"]
    assert "spec page" in errs["source"]  # a bare domain is not a source
    assert errs["board_power_w"] == "is required"


def test_nested_slot_errors_name_the_slot() -> None:
    board = {**BASE, "id": "asus-test-board", "category": "motherboard", "socket": "AM4", "chipset": "B550",
             "form_factor": "ATX", "memory_type": "DDR4", "memory_slots": 4, "max_memory_gb": 128,
             "ecc": False, "rdimm": False,
             "pcie_slots": [{"name": "A", "position": 1, "physical_lanes": 16, "electrical_lanes": 16, "gen": 4,
                             "from": "cpu"},
                            {"name": "B", "position": 4, "physical_lanes": 16, "electrical_lanes": 4, "gen": 0,
                             "from": "southbridge"}]}
    errs = errors_of(board)
    assert set(errs) == {"pcie_slots[1].gen", "pcie_slots[1].from"}
    board["pcie_slots"][1].update(gen=3, **{"from": "chipset"})
    mb = part_from_dict(board)
    assert isinstance(mb, Motherboard) and mb.pcie_slots[1].source == "chipset"
    assert part_to_dict(mb)["pcie_slots"][1]["from"] == "chipset"


def test_memory_types_must_be_ddr4_or_ddr5() -> None:
    errs = errors_of({**GPU, "category": "memory", "memory_type": "DDR3", "capacity_gb": 16, "modules": 2,
                      "speed_mts": 1600, "ecc": False, "rdimm": False}, "memory")
    assert "DDR4 or DDR5" in errs["memory_type"]


def test_unknown_category() -> None:
    assert "must be one of" in errors_of({**GPU, "category": "fan"})["category"]


def test_every_category_has_a_record_type() -> None:
    assert set(PART_TYPES) == {"gpu", "cpu", "motherboard", "memory", "storage", "psu", "case", "cooler", "platform"}


@given(st.integers(min_value=-10**9, max_value=10**9))
def test_int_text_parses_back(n: int) -> None:
    assert parse_text_value(str(n), int) == n
    assert parse_text_value(f"{n:,}", int) == n


@given(st.floats(allow_nan=False, allow_infinity=False, width=32))
def test_float_text_parses_back(x: float) -> None:
    assert parse_text_value(repr(x), float) == pytest.approx(x)


@pytest.mark.parametrize(("text", "value"), [("true", True), ("是", True), ("no", False), ("否", False)])
def test_bool_text(text: str, value: bool) -> None:
    assert parse_text_value(text, bool) is value


def test_list_text_accepts_json_and_semicolons() -> None:
    assert parse_text_value("DDR4; DDR5", list[str]) == ["DDR4", "DDR5"]
    assert parse_text_value('["DDR5"]', list[str]) == ["DDR5"]


def test_trusted_construction_matches_validated_and_falls_back_on_bad_data() -> None:
    from configurator.core.parts import part_from_trusted

    assert part_from_trusted(GPU) == part_from_dict(GPU)
    with pytest.raises(PartValidationError):
        part_from_trusted({**GPU, "from_a_newer_version": 1})


# A user's own GPU: only what the rules and estimates read.
MINIMAL_GPU = {"id": "my-used-rtx-3090", "category": "gpu", "name": "RTX 3090 (used)", "price_cny": 5200,
               "vendor": "nvidia", "vram_gb": 24, "memory_bandwidth_gbs": 936.2, "fp32_tflops": 35.6,
               "tensor_cores": True, "board_power_w": 350, "pcie_gen": 4, "pcie_lanes": 16}


def test_a_users_gpu_needs_only_what_the_rules_read_and_the_rest_take_their_stated_defaults() -> None:
    import datetime

    gpu = part_from_dict(MINIMAL_GPU)
    assert isinstance(gpu, Gpu)
    assert (gpu.brand, gpu.source, gpu.architecture, gpu.vram_type) == ("", "", "", "")
    assert (gpu.form_factor, gpu.cooling, gpu.nvlink) == ("pcie", "open_air", False)
    assert gpu.price_date == datetime.date.today().isoformat()
    for key in MINIMAL_GPU:  # each of these is still required
        if key in ("category",):
            continue
        assert errors_of({k: v for k, v in MINIMAL_GPU.items() if k != key}) == {key: "is required"}


@pytest.mark.parametrize("source", ["seller's listing on Xianyu, 2026-03", "measured on my own machine", "",
                                    "https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3090/"])
def test_source_may_be_any_text_for_a_users_part(source: str) -> None:
    assert part_from_dict({**MINIMAL_GPU, "source": source}).source == source


@pytest.mark.parametrize("source", ["https://nvidia.com", "http://", "HTTPS://www.nvidia.com/", "ftp://x/y",
                                   "https://www.nvidia.com/a page"])
def test_a_url_source_is_checked_to_be_a_page(source: str) -> None:
    assert "is a URL but not a page's" in errors_of({**MINIMAL_GPU, "source": source})["source"]


def test_the_shipped_catalogue_states_what_a_users_part_may_leave_out() -> None:
    """The defaults are for a user's own part: every shipped part gives these fields itself, with a spec
    page as its source."""
    import tomllib

    from configurator.core.parts import _is_spec_url
    from configurator.paths import CATALOGUE_DIR

    stated = {"brand", "price_date", "source"}
    per_category = {"gpu": {"architecture", "form_factor", "vram_type", "cooling", "nvlink"},
                    "cpu": {"architecture", "integrated_graphics"}}
    checked = 0
    for f in sorted(CATALOGUE_DIR.glob("*.toml")):
        data = tomllib.loads(f.read_text(encoding="utf-8"))
        need = stated | per_category.get(data["category"], set())
        for row in data["part"]:
            assert need <= row.keys(), (row["id"], need - row.keys())
            assert _is_spec_url(row["source"]), row["id"]
            checked += 1
    assert checked > 100


def test_choice_values_read_as_words() -> None:
    from configurator.core.parts import VALUE_LABELS, value_label

    assert value_label("cooling", "open_air") == "Open-air (axial fans)"
    assert value_label("kind", "nvme") == "NVMe SSD" and value_label("kind", "aio") == "All-in-one liquid cooler"
    assert value_label("form_factor", "ATX") == "ATX"  # a board's form factor is already words
    # Every value a Literal field allows has its words.
    import typing

    for cls in PART_TYPES.values():
        for name, tp in typing.get_type_hints(cls).items():
            base = next((a for a in typing.get_args(tp) if a is not type(None)), tp)
            if typing.get_origin(base) is typing.Literal and name in VALUE_LABELS:
                assert set(typing.get_args(base)) <= set(VALUE_LABELS[name]), (cls.__name__, name)
    assert {"cooling", "kind", "modular", "topology", "module_form_factor"} <= set(VALUE_LABELS)
