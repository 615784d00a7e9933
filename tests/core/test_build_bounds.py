"""Every count and size a build file holds is bounded, with the limit in the message: one unit either side
of each limit. Nothing a file can say makes the reader overflow a float, print a 5,000-digit number, or
let a control or bidirectional-override character through."""

from __future__ import annotations

import json
import math
import time
from typing import Any

import pytest
from planner_kit import CATALOGUE

from configurator.core.build import (
    FORMAT,
    MAX_BUDGET_CNY,
    MAX_BUILD_FILE_BYTES,
    MAX_CLOUD_CNY_PER_MONTH,
    MAX_DATASET_GB,
    MAX_DEPTH,
    MAX_ELECTRICITY_CNY_PER_KWH,
    MAX_ERRORS,
    MAX_ID_CHARS,
    MAX_NAME_CHARS,
    MAX_PARAMS,
    MAX_PART_ENTRIES,
    MAX_QTY,
    PART_LIMITS,
    WORKLOAD_INT_LIMITS,
    BuildError,
    BuildFileError,
    load_build_json,
    parse_build,
    short_repr,
)
from configurator.core.engine import check
from configurator.core.parts import Memory

PART_OF = {
    "gpu": "nvidia-rtx-3090", "cpu": "amd-ryzen-9-5950x", "motherboard": "asus-proart-b550-creator",
    "memory": "corsair-vengeance-lpx-16gb-2x8gb-ddr4-3200", "storage": "samsung-990-pro-2tb",
    "psu": "seasonic-prime-px-1600", "case": "fractal-design-define-7-xl", "cooler": "noctua-nh-d15",
    "platform": "nvidia-hgx-h100-8-gpu",
}
WORDS = {"gpu": "GPUs", "cpu": "CPUs", "motherboard": "motherboards", "memory": "memory modules",
         "storage": "drives", "psu": "power supplies", "case": "cases", "cooler": "CPU coolers",
         "platform": "GPU baseboards"}
TRANSFORMER = {"model": "custom", "task": "train", "params": 1.3e9, "layers": 24, "hidden": 2048, "heads": 16,
               "vocab": 50257, "seq_len": 2048}


def errors(doc: Any) -> dict[str, str]:
    with pytest.raises(BuildError) as info:
        parse_build(doc, CATALOGUE)
    return {e.path: e.message.render() for e in info.value.errors}


def doc_with(**top: Any) -> dict[str, Any]:
    return {"format": FORMAT, "parts": [], **top}


def finite_json(build: Any) -> None:
    """The engine runs on the build and its report is strict JSON (no NaN, no Infinity)."""
    json.dumps(check(build, CATALOGUE).to_json(), allow_nan=False)


# -- parts ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("category", sorted(PART_LIMITS))
def test_each_category_holds_its_limit_and_not_one_more(category: str) -> None:
    part = CATALOGUE[PART_OF[category]]
    per = part.modules if isinstance(part, Memory) else 1
    limit = PART_LIMITS[category]
    assert limit % per == 0
    build = parse_build(doc_with(parts=[{"id": part.id, "qty": limit // per}]), CATALOGUE)
    finite_json(build)
    over = limit // per + 1
    assert errors(doc_with(parts=[{"id": part.id, "qty": over}])) == {
        "parts[0].qty": f"{WORDS[category]}: at most {limit} in one build, this one has {over * per}"}


def test_the_limit_counts_every_entry_of_a_category() -> None:
    gpu, other = "nvidia-rtx-3090", "nvidia-rtx-4090"
    parse_build(doc_with(parts=[{"id": gpu, "qty": 8}, {"id": other, "qty": 8}]), CATALOGUE)
    errs = errors(doc_with(parts=[{"id": gpu, "qty": 8}, {"id": other, "qty": 8}, {"id": gpu}]))
    assert errs == {"parts[2].qty": "GPUs: at most 16 in one build, this one has 17"}


@pytest.mark.parametrize("qty", [10**9, 10**30, 2**70, 10**400], ids=["1e9", "1e30", "2^70", "1e400"])
def test_a_huge_quantity_is_refused_before_anything_expands_it(qty: int) -> None:
    start = time.perf_counter()
    errs = errors(doc_with(parts=[{"id": "nvidia-rtx-3090", "qty": qty}]))
    assert time.perf_counter() - start < 0.5  # gpu_list would make one entry per GPU
    message = errs["parts[0].qty"]
    assert message.startswith("GPUs: at most 16 in one build") and len(message) < 120


def test_a_part_not_in_the_catalogue_is_bounded_by_the_largest_limit() -> None:
    assert set(errors(doc_with(parts=[{"id": "nope", "qty": MAX_QTY}]))) == {"parts[0].id"}
    errs = errors(doc_with(parts=[{"id": "nope", "qty": MAX_QTY + 1}]))
    assert errs["parts[0].qty"] == f"must be at most {MAX_QTY}"


def test_the_parts_list_is_bounded() -> None:
    assert "parts" not in errors(doc_with(parts=[{"id": "nope"}] * MAX_PART_ENTRIES))
    assert errors(doc_with(parts=[{"id": "nope"}] * (MAX_PART_ENTRIES + 1))) == {
        "parts": f"must list at most {MAX_PART_ENTRIES} parts, not {MAX_PART_ENTRIES + 1}"}


# -- numbers ----------------------------------------------------------------------------------------------
DIFFUSION = {"model": "sd15-unet", "task": "infer", "precision": "fp16"}  # steps: diffusion inference only


def with_field(path: str, value: Any) -> dict[str, Any]:
    doc = doc_with(workload=dict(DIFFUSION if path == "workload.steps" else TRANSFORMER))
    where, key = (doc, path) if "." not in path else (doc.setdefault(path.split(".")[0], {}),
                                                       path.split(".")[1])
    where[key] = value
    return doc


INT_FIELDS = {f"workload.{k}": v for k, v in WORKLOAD_INT_LIMITS.items()}
NUMBER_FIELDS = {"budget_cny": MAX_BUDGET_CNY, "options.cloud_cny_per_month": MAX_CLOUD_CNY_PER_MONTH,
                 "options.electricity_cny_per_kwh": MAX_ELECTRICITY_CNY_PER_KWH,
                 "workload.dataset_gb": MAX_DATASET_GB, "workload.params": MAX_PARAMS}


@pytest.mark.parametrize(("path", "limit"), sorted({**INT_FIELDS, **NUMBER_FIELDS}.items()))
def test_each_number_holds_its_limit_and_not_one_more(path: str, limit: int) -> None:
    build = parse_build(with_field(path, limit), CATALOGUE)
    finite_json(build)  # the estimators stay finite at every limit
    assert errors(with_field(path, limit + 1)) == {path: f"must be at most {limit:,}"}


def test_the_engine_stays_finite_with_every_workload_limit_at_once() -> None:
    workload = {**TRANSFORMER, **WORKLOAD_INT_LIMITS, "params": MAX_PARAMS, "dataset_gb": MAX_DATASET_GB}
    del workload["image_size"], workload["steps"]
    build = parse_build(doc_with(parts=[{"id": "nvidia-rtx-3090", "qty": 16}, {"id": "amd-ryzen-9-5950x"}],
                                 budget_cny=MAX_BUDGET_CNY, workload=workload), CATALOGUE)
    finite_json(build)
    cnn = parse_build(doc_with(parts=[{"id": "nvidia-rtx-3090"}], workload={
        "model": "resnet50", "task": "train", "batch_size": 65_536, "image_size": 8_192}), CATALOGUE)
    finite_json(cnn)
    diffusion = parse_build(doc_with(parts=[{"id": "nvidia-rtx-3090"}], workload={
        **DIFFUSION, "batch_size": 65_536, "image_size": 8_192, "steps": WORKLOAD_INT_LIMITS["steps"]}), CATALOGUE)
    finite_json(diffusion)


def test_hours_per_day_is_0_to_24() -> None:
    for hours in (0, 24, 23.5):
        assert parse_build(with_field("options.hours_per_day", hours), CATALOGUE).options.hours_per_day == hours
    for hours in (25, 24.01, 10**400, float("inf")):
        assert errors(with_field("options.hours_per_day", hours)) == {
            "options.hours_per_day": "must be between 0 and 24"}


@pytest.mark.parametrize("path", sorted({**INT_FIELDS, **NUMBER_FIELDS, "options.hours_per_day": 24}))
@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), -1, 10**309, 10**5000, "1", True],
                         ids=["nan", "inf", "-inf", "-1", "1e309", "1e5000", "text", "bool"])
def test_no_number_is_non_finite_negative_overflowing_or_of_the_wrong_type(path: str, value: Any) -> None:
    message = errors(with_field(path, value))[path]
    assert message.startswith("must be") and len(message) < 80


# -- text -------------------------------------------------------------------------------------------------
def test_names_and_ids_have_a_length_limit() -> None:
    assert parse_build(doc_with(name="名" * MAX_NAME_CHARS), CATALOGUE).name == "名" * MAX_NAME_CHARS
    assert errors(doc_with(name="x" * (MAX_NAME_CHARS + 1))) == {
        "name": f"must be at most {MAX_NAME_CHARS} characters, not {MAX_NAME_CHARS + 1}"}
    assert "no part" in errors(doc_with(parts=[{"id": "x" * MAX_ID_CHARS}]))["parts[0].id"]
    assert errors(doc_with(parts=[{"id": "x" * (MAX_ID_CHARS + 1)}])) == {
        "parts[0].id": f"must be at most {MAX_ID_CHARS} characters, not {MAX_ID_CHARS + 1}"}


REFUSED = ["\x00", "\n", "\t", "\x1b", "\x7f", "\x85", "\ud800", "\udfff", "\u2028", "\u2029",
           *(chr(c) for c in range(0x202A, 0x202F)), *(chr(c) for c in range(0x2066, 0x206A))]


@pytest.mark.parametrize("char", REFUSED, ids=[f"U+{ord(c):04X}" for c in REFUSED])
def test_control_bidi_and_surrogate_characters_are_refused_in_names_and_ids(char: str) -> None:
    errs = errors(doc_with(name=f"ab{char}c", parts=[{"id": f"{char}nvidia-rtx-3090"}]))
    code = f"U+{ord(char):04X}"
    assert errs["name"].startswith(f"must not contain {code} (character 3)")
    assert errs["parts[0].id"].startswith(f"must not contain {code} (character 1)")


def test_ordinary_unicode_names_are_kept() -> None:
    for name in ("双 3090 训练机", "Ünïcödé", "👩\u200d💻 dev box", "e\u0301"):
        assert parse_build(doc_with(name=name), CATALOGUE).name == name


def test_echoed_values_are_short_and_escaped() -> None:
    errs = errors({"format": "\u202e" + "x" * 10_000, "parts": [{"id": "\u202eevil" * 1000}],
                   "workload": {"model": [[[]]], "task": {"a": 1}}})
    for message in errs.values():
        assert "\u202e" not in message and len(message) < 400
    assert "'\\u202exxxxx" in errs["format"] and "…" in errs["format"]
    assert short_repr(10**5000) == "≈1e5000" and short_repr(-(10**50)) == "-≈1e50"
    assert short_repr("\ud800") == "'\\ud800'"


def test_odd_keys_are_escaped_in_paths() -> None:
    errs = errors({**doc_with(), "\u202e\n": 1, "k" * 1000: 2, "ok_key": 3})
    assert "['\\u202e\\n']" in errs and "ok_key" in errs
    assert all(len(path) < 80 and "\u202e" not in path for path in errs)


def test_a_flood_of_problems_is_capped() -> None:
    with pytest.raises(BuildError) as info:
        parse_build({**doc_with(), **{f"k{i}": i for i in range(MAX_ERRORS + 50)}}, CATALOGUE)
    errs = info.value.errors
    assert len(errs) == MAX_ERRORS + 1
    assert errs[-1].path == "" and errs[-1].message.render() == "50 more problems not shown"


# -- the file itself --------------------------------------------------------------------------------------
def file_error(raw: bytes) -> tuple[str, str]:
    with pytest.raises(BuildFileError) as info:
        load_build_json(raw)
    (e,) = info.value.errors
    return e.path, e.message.render()


def test_file_size_limit() -> None:
    doc = json.dumps(doc_with()).encode()
    assert load_build_json(doc.ljust(MAX_BUILD_FILE_BYTES)) == doc_with()
    assert file_error(doc.ljust(MAX_BUILD_FILE_BYTES + 1)) == (
        "", "is too large: a build file may be at most 1,048,576 bytes")


def test_nesting_limit() -> None:
    assert load_build_json(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH) is not None
    too_deep = ("", f"is nested too deeply: a build file may be at most {MAX_DEPTH} levels deep")
    assert file_error(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)) == too_deep
    assert file_error(b'{"a":' * 2000 + b"1" + b"}" * 2000) == too_deep  # RecursionError in json.loads
    assert file_error(b"[" * 100_000) == too_deep  # unclosed, and too deep before json.loads sees the end


def test_digit_limit() -> None:
    assert load_build_json(b"1" * 4300) == int("1" * 4300)
    assert file_error(b"1" * 4301) == ("", "has a number with more than 4,300 digits")


def test_encoding_and_syntax() -> None:
    assert file_error(b"\xff\xfe{}") == ("", "is not UTF-8 text")
    assert file_error(b'{"name": "\xed\xa0\x80"}') == ("", "is not UTF-8 text")  # an encoded surrogate
    path, message = file_error(b'{"format":\n  }')
    assert path == "2:3" and message.startswith("not valid JSON")
    assert file_error(b'{"name": "a\x00b"}')[1].startswith("not valid JSON")  # a raw NUL in a string
    assert load_build_json("\ufeff{}".encode()) == {}


def test_json_constants_are_refused_where_they_land() -> None:
    data = load_build_json(b'{"format": "configurator.build/1", "parts": [], "budget_cny": NaN}')
    assert math.isnan(data["budget_cny"])
    assert errors(data) == {"budget_cny": "must be a number, zero or more"}


def test_a_sheet_clips_a_name_made_in_code() -> None:
    from configurator.core.build import Build, BuildPart
    from configurator.core.sheet import build_sheet

    sheet = build_sheet(Build((BuildPart("nvidia-rtx-3090"),), name="x" * 100_000), CATALOGUE, with_chart=False)
    assert len(sheet.title) == MAX_NAME_CHARS and sheet.title.endswith("…")
    assert build_sheet(Build((), name="名" * MAX_NAME_CHARS), CATALOGUE).title == "名" * MAX_NAME_CHARS


def test_checking_sixteen_different_gpus_on_a_big_board_is_quick() -> None:
    """The GPU limit, every card a different model, on a 7-slot board: place() used to try every
    assignment of cards to slots (about 4 minutes for this build)."""
    from configurator.core.parts import Gpu

    gpus = sorted((p for p in CATALOGUE.values() if isinstance(p, Gpu) and p.form_factor == "pcie"),
                  key=lambda g: (g.slot_width or 0, g.id))  # SXM/OAM modules take no slot (PCI-8)
    doc = doc_with(parts=[*({"id": g.id} for g in gpus[:PART_LIMITS["gpu"]]),
                          {"id": "asus-pro-ws-wrx80e-sage-se-wifi"}])
    build = parse_build(doc, CATALOGUE)
    check(parse_build(doc_with(parts=[{"id": gpus[0].id}]), CATALOGUE), CATALOGUE)  # one-time work: the fit
    start = time.perf_counter()
    report = check(build, CATALOGUE)
    assert time.perf_counter() - start < 1  # about 0.01 s
    # four single-slot cards in 3-6, two-slot cards in 1 (covering 2) and 7
    assert [f.numbers["placed"] for f in report.findings if f.rule == "PCI-2" and "placed" in f.numbers] == [6]
