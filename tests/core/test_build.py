"""Reading build files: every bad field named by its path; nothing malformed crashes the checker."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from planner_kit import CATALOGUE

from configurator.cli.entry import main
from configurator.core.build import FORMAT, BuildError, Workload, build_to_dict, parse_build
from configurator.core.engine import check

_FOLDER = Path(tempfile.mkdtemp(prefix="构建-"))

EXAMPLE = {
    "format": FORMAT, "name": "Two 3090s", "budget_cny": 40000,
    "parts": [{"id": "nvidia-rtx-3090", "qty": 2, "used": True}, {"id": "amd-ryzen-9-5950x"}],
    "options": {"nvlink_bridge": True, "cloud_cny_per_month": 8000, "hours_per_day": 8,
                "electricity_cny_per_kwh": 0.6, "os": "ubuntu-24.04"},
    "workload": {"model": "gpt2-medium", "task": "train", "precision": "amp", "batch_size": 8, "seq_len": 1024,
                 "optimizer": "adamw", "grad_checkpointing": False, "sharding": "none", "dataset_gb": 40},
}


def errors(doc: Any) -> dict[str, str]:
    with pytest.raises(BuildError) as info:
        parse_build(doc, CATALOGUE)
    return {e.path: e.message.render() for e in info.value.errors}


def test_the_issue_example_reads_and_round_trips() -> None:
    build = parse_build(EXAMPLE, CATALOGUE)
    assert build.parts[0].qty == 2 and build.parts[0].used and build.parts[1].qty == 1
    assert build.options.nvlink_bridge and build.workload and build.workload.batch_size == 8
    assert parse_build(build_to_dict(build), CATALOGUE) == build


def test_only_format_and_parts_are_required_and_defaults_apply() -> None:
    build = parse_build({"format": FORMAT, "parts": [], "workload": {"model": "resnet50", "task": "train"}},
                        CATALOGUE)
    w = build.workload
    assert w is not None and w.precision == "fp32" and w.effective_optimizer == "sgd"
    gpt = Workload(model="gpt2", task="train")
    assert gpt.effective_optimizer == "adamw" and gpt.effective_seq_len == 1024


def test_bad_fields_are_named_by_path() -> None:
    doc = {**EXAMPLE, "parts": [{"id": "nvidia-rtx-3090"}, {"id": "amd-ryzen-9-5950x"}, {"id": "x", "qty": 0},
                                {"id": "nvidia-rtx-4090", "qty": "2", "colour": "red"}], "extra": 1}
    errs = errors(doc)
    assert errs["parts[2].qty"] == "must be a positive integer"
    assert "no part 'x'" in errs["parts[2].id"]
    assert errs["parts[3].qty"] == "must be a positive integer"
    assert "unknown key" in errs["parts[3].colour"] and "unknown key" in errs["extra"]


def test_workload_errors() -> None:
    errs = errors({"format": FORMAT, "parts": [],
                   "workload": {"model": "gpt5", "task": "learn", "precision": "fp6", "batch_size": -1}})
    assert set(errs) == {"workload.model", "workload.task", "workload.precision", "workload.batch_size"}
    errs = errors({"format": FORMAT, "parts": [], "workload": {"model": "custom", "task": "train",
                                                                 "family": "transformer"}})
    assert {"workload.params", "workload.layers", "workload.hidden", "workload.heads"} <= set(errs)
    assert "inference" in errors({"format": FORMAT, "parts": [],
                                  "workload": {"model": "gpt2", "task": "train", "precision": "int4"}})[
        "workload.precision"]


def test_custom_models() -> None:
    t = parse_build({"format": FORMAT, "parts": [], "workload": {
        "model": "custom", "task": "train", "params": 1.3e9, "layers": 24, "hidden": 2048, "heads": 16,
        "vocab": 50257, "seq_len": 2048}}, CATALOGUE).workload
    assert t is not None and t.spec().is_transformer and t.effective_seq_len == 2048
    c = parse_build({"format": FORMAT, "parts": [], "workload": {
        "model": "custom", "task": "train", "params": 5e6, "image_size": 128}}, CATALOGUE).workload
    assert c is not None and c.spec().family == "cnn"


def test_a_build_with_no_gpu_is_allowed() -> None:
    rep = check(parse_build({"format": FORMAT, "parts": [{"id": "amd-ryzen-9-5950x"}]}, CATALOGUE), CATALOGUE)
    assert any(f.rule == "GPU-7" for f in rep.findings)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | st.floats(allow_nan=True) | st.text(max_size=8)
    | st.sampled_from(["nvidia-rtx-3090", "amd-ryzen-9-5950x", FORMAT, "gpt2", "train", "custom", "amp"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["format", "parts", "id", "qty", "used", "workload", "model", "task", "options",
                         "budget_cny", "precision", "batch_size", "params", "layers", "nvlink_bridge", "os", "x"]),
        children, max_size=5),
    max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_no_document_crashes_the_reader_or_the_engine(doc: Any) -> None:
    try:
        build = parse_build(doc, CATALOGUE)
    except BuildError as exc:
        assert exc.errors and all(e.path is not None and e.message.render() for e in exc.errors)
        return
    check(build, CATALOGUE)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(doc=json_values | st.builds(lambda parts: {"format": FORMAT, "parts": parts},
                                   st.lists(st.fixed_dictionaries({"id": st.sampled_from(sorted(CATALOGUE)),
                                                                   "qty": st.integers(1, 3)}), max_size=6)))
def test_check_cli_exits_0_1_or_2_with_a_message(doc: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = _FOLDER / "build.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    try:
        code = main(["--db", str(_FOLDER / "c.db"), "check", str(path), "--json"])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    result = json.loads(out)
    if code == 2:
        assert result["ok"] is False and result["errors"] and err.strip()
        assert "Traceback" not in err
    else:
        assert result["ok"] is (code == 0) and "findings" in result


def test_a_workload_made_in_code_gets_the_file_readers_verdict() -> None:
    from configurator.core.build import Workload, workload_errors
    from configurator.core.model_specs import CUSTOM_DEFAULTS, custom_model_fields

    errors = workload_errors(Workload(model="gpt2", task="train", precision="int8"))
    assert [e.path for e in errors] == ["workload.precision"]
    assert workload_errors(Workload(model="gpt2", task="infer", precision="int8")) == []
    transformer = custom_model_fields(5e8, 24, 0, 0, 0)
    assert transformer["family"] == "transformer" and transformer["hidden"] == CUSTOM_DEFAULTS["hidden"]
    assert workload_errors(Workload(model="custom", task="train", **transformer)) == []  # type: ignore[arg-type]
    cnn = custom_model_fields(0, 0, 0, 0, 0)
    assert cnn == {"params": CUSTOM_DEFAULTS["params"], "family": "cnn", "image_size": 224}
