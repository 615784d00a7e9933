"""The parts search's words: each term names the fields it matches."""

from __future__ import annotations

from configurator.core.search import Term, parse_search


def test_a_number_is_a_size_or_a_model_number() -> None:
    (t,) = parse_search("24")
    assert t.kind == "number" and t.value == 24 and "vram_gb" in t.fields and "capacity_gb" in t.fields and t.in_name


def test_units_narrow_a_number_to_their_fields() -> None:
    assert parse_search("24gb") == parse_search("24 GB")
    assert parse_search("24gb")[0].fields == ("vram_gb", "capacity_gb") and not parse_search("24gb")[0].in_name
    assert parse_search("2tb")[0] == Term("number", "2tb", 2000, ("capacity_gb",))
    assert parse_search("850W")[0].fields == ("watts", "board_power_w", "tdp_w")
    assert parse_search("16c")[0].fields == ("cores",)


def test_capabilities_and_pcie_generations() -> None:
    assert [t.kind for t in parse_search("24 nvlink")] == ["number", "flag"]
    assert parse_search("nvlink")[0].fields == ("nvlink",)
    assert parse_search("ECC")[0].fields == ("ecc",)
    assert [(t.kind, t.value) for t in parse_search("gen4 pcie5")] == [("gen", 4), ("gen", 5)]


def test_other_words_are_text() -> None:
    assert [(t.kind, t.word) for t in parse_search("RTX ddr5 a5000")] == [
        ("text", "rtx"), ("text", "ddr5"), ("text", "a5000")]
    assert parse_search("   ") == []
