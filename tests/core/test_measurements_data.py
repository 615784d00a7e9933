"""The shipped published measurements (db/measurements) meet the dataset's requirements, and a
malformed file fails with an error naming the file and line."""

from __future__ import annotations

import math
import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from configurator.core import measurements as meas
from configurator.paths import CATALOGUE_DIR, MEASUREMENTS_DIR


def _catalogue_gpus() -> dict[str, str]:
    with (CATALOGUE_DIR / "gpu.toml").open("rb") as f:
        data = tomllib.load(f)
    parts = next(v for v in data.values() if isinstance(v, list))
    return {p["id"]: p["architecture"] for p in parts}


GPUS = _catalogue_gpus()
ROWS = meas.load(known_gpus=GPUS)
PUBLISHED = meas.published(ROWS)


def test_enough_rows() -> None:
    assert len(ROWS) >= 60
    assert len(PUBLISHED) >= 60


def test_at_least_three_independent_sources_contribute() -> None:
    keys = Counter(m.source_key for m in PUBLISHED)
    assert len(keys) >= 3, keys
    assert sum(1 for n in keys.values() if n >= 10) >= 3, keys  # each contributes meaningfully
    assert len(meas.origins(PUBLISHED)) >= 3


def test_gpu_and_architecture_coverage() -> None:
    gpus = {m.gpu for m in PUBLISHED}
    assert len(gpus) >= 12, sorted(gpus)
    nvidia_arch = {GPUS[g] for g in gpus if g.startswith("nvidia-")}
    assert len(nvidia_arch & {"Volta", "Turing", "Ampere", "Ada Lovelace", "Hopper", "Blackwell"}) >= 4, nvidia_arch


def test_every_gpu_is_a_catalogue_id() -> None:
    for m in ROWS:
        assert m.gpu in GPUS, m.id
        if m.is_ratio:
            assert m.ratio_reference in GPUS, m.id


def test_every_family_is_covered() -> None:
    fams = {meas.family(m) for m in PUBLISHED}
    for fam in (meas.CNN_TRAIN, meas.BERT_TRAIN, meas.GPT_TRAIN, meas.LLM_PREFILL, meas.LLM_DECODE):
        assert fam in fams, fam
    assert set(meas.FAMILIES) >= fams


def test_sources_urls_dates_and_values() -> None:
    ids = [m.id for m in ROWS]
    assert len(ids) == len(set(ids))
    for m in PUBLISHED:
        assert m.source_url is not None and m.source_url.startswith("https://"), m.id
        assert m.source_ref, m.id
        assert m.source_date is not None and re.fullmatch(r"\d{4}-\d{2}(-\d{2})?", m.source_date), m.id
    for m in ROWS:
        assert math.isfinite(m.value) and m.value > 0, m.id
        assert m.gpu_count >= 1
        assert m.peak_memory_gb is None or (math.isfinite(m.peak_memory_gb) and m.peak_memory_gb > 0)
        assert m.task in meas.TASKS and m.family in meas.FAMILIES
        assert m.unit in meas.UNITS or m.is_ratio


def test_families_match_tasks() -> None:
    for m in ROWS:
        if m.family in (meas.CNN_TRAIN, meas.BERT_TRAIN, meas.GPT_TRAIN):
            assert m.task == "train", m.id
        elif m.family == meas.LLM_PREFILL:
            assert m.task == "prefill", m.id
        elif m.family == meas.LLM_DECODE:
            assert m.task == "decode", m.id


def test_guide_reference_figures_are_present() -> None:
    ref1 = {(m.gpu_count, m.precision): (m.value, m.peak_memory_gb) for m in meas.guide_rows(ROWS, "REF-1")}
    assert ref1 == {(1, "fp32"): (230, 10.2), (2, "fp32"): (420, 18.7), (1, "amp"): (460, 5.8), (2, "amp"): (850, 11.2)}
    for m in meas.guide_rows(ROWS, "REF-1"):
        assert m.gpu == "nvidia-rtx-3090" and m.model == "resnet50" and m.family == meas.CNN_TRAIN
        assert "G 五" in m.source_ref and m.framework_version == "1.12.1" and m.data == "real"
    (ref2,) = meas.guide_rows(ROWS, "REF-2")
    assert (ref2.gpu, ref2.model, ref2.value, ref2.ratio_reference) == (
        "nvidia-gtx-1660-super", "resnet18", 0.37, "nvidia-rtx-3090")
    assert "G 二.1" in ref2.source_ref
    (ref3,) = meas.guide_rows(ROWS, "REF-3")
    assert (ref3.gpu, ref3.model, ref3.family, ref3.gen_len, ref3.value) == (
        "nvidia-rtx-3060-12gb", "gpt2", meas.LLM_DECODE, 512, 64)
    assert "M 2.1" in ref3.source_ref
    for m in meas.guide_rows(ROWS):
        assert m.source_url is None and m.origin.startswith(meas.GUIDE_PREFIX)


def test_helpers() -> None:
    rtx3090 = meas.for_gpu(ROWS, "nvidia-rtx-3090")
    assert rtx3090 and all(m.gpu == "nvidia-rtx-3090" for m in rtx3090)
    assert all(m.gpu_count == 2 for m in meas.for_gpu(ROWS, "nvidia-rtx-3090", count=2))
    assert all(m.family == meas.LLM_DECODE for m in meas.for_family(ROWS, meas.LLM_DECODE))
    with pytest.raises(ValueError):
        meas.for_family(ROWS, "nope")
    splits = list(meas.leave_one_origin_out(ROWS))
    assert len(splits) == len(meas.origins(ROWS))
    for origin, train, test in splits:
        assert test and all(m.origin == origin for m in test)
        assert len(train) + len(test) == len(ROWS) and all(m.origin != origin for m in train)
    two = next(m for m in ROWS if m.gpu_count == 2 and not m.is_ratio)
    assert two.per_gpu_value == two.value / 2


def test_default_folder_is_shipped() -> None:
    assert MEASUREMENTS_DIR.is_dir() and any(MEASUREMENTS_DIR.glob("*.csv"))
    assert len(meas.load()) == len(ROWS)


# --- malformed files -------------------------------------------------------------------------

HEADER = ",".join(meas.COLUMNS)
GOOD = ("x1,test-src,resnet50,train,cnn-train,amp,256,,,,224,nvidia-rtx-3090,1,,,pytorch,,,,synthetic,905,"
        "images/s,,https://github.com/o/r/blob/abc/f.csv,row 1,2022-10-24,")


def _write(tmp_path: Path, *lines: str) -> Path:
    p = tmp_path / "bad.csv"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def test_good_row_parses(tmp_path: Path) -> None:
    (m,) = meas.load(_write(tmp_path, HEADER, GOOD), known_gpus=GPUS)
    assert (m.id, m.value, m.precision, m.batch_size, m.data) == ("x1", 905.0, "amp", 256, "synthetic")


@pytest.mark.parametrize(("bad", "message"), [
    (GOOD.replace(",905,", ",-3,"), "value"),
    (GOOD.replace(",905,", ",nan,"), "value"),
    (GOOD.replace(",amp,", ",fp64,"), "precision"),
    (GOOD.replace("cnn-train", "cnn"), "family"),
    (GOOD.replace("nvidia-rtx-3090", "nvidia-rtx-9999"), "gpu"),
    (GOOD.replace("https://github.com/o/r/blob/abc/f.csv", "http://example.com/x"), "source_url"),
    (GOOD.replace("2022-10-24", "24/10/2022"), "source_date"),
    (GOOD.replace(",256,", ",many,"), "batch_size"),
    (GOOD.replace("images/s", "img per sec"), "unit"),
    (GOOD + ",extra", "fields"),
])
def test_bad_row_names_file_and_line(tmp_path: Path, bad: str, message: str) -> None:
    path = _write(tmp_path, HEADER, GOOD.replace("x1,", "x0,", 1), bad)
    with pytest.raises(meas.MeasurementError) as err:
        meas.load(path, known_gpus=GPUS)
    assert err.value.path == str(path) and err.value.line == 3
    assert str(err.value).startswith(f"{path}:3: ") and message in str(err.value)


def test_bad_header_and_duplicate_id(tmp_path: Path) -> None:
    with pytest.raises(meas.MeasurementError, match=r"bad\.csv:1: header"):
        meas.load(_write(tmp_path, HEADER.replace("value", "val"), GOOD))
    with pytest.raises(meas.MeasurementError, match=r"bad\.csv:3: duplicate id 'x1'"):
        meas.load(_write(tmp_path, HEADER, GOOD, GOOD))


def test_guide_rows_may_not_carry_a_url(tmp_path: Path) -> None:
    row = GOOD.replace("test-src", "guide-g")
    with pytest.raises(meas.MeasurementError, match="source_url"):
        meas.load(_write(tmp_path, HEADER, row))


def test_dec_2023_prompt_rows_state_the_prompt_their_runs_processed() -> None:
    """The Dec-2023 LLaMA-2 table's runs processed one 494-token prompt with ./main (its notebooks'
    llama_print_timings); DLE's 2019 pre-training rows state the accumulation their LAMB step ran with."""
    dec = [m for m in ROWS if m.origin == "xiongjiedai-llm" and m.task == "prefill" and m.model == "llama-2-7b"]
    assert len(dec) == 12 and all(m.prompt_len == 494 and "494 tokens" in (m.note or "") for m in dec)
    pre = [m for m in ROWS if m.origin == "nvidia-dle" and "pre-training" in m.flags]
    assert pre and all(any(f.startswith("grad-accum-") for f in m.flags) for m in pre)
    for m in pre:
        (n,) = (int(f.removeprefix("grad-accum-")) for f in m.flags if f.startswith("grad-accum-"))
        global_batch = 65536 if m.seq_len == 128 else 32768
        assert n * (m.batch_size or 0) * m.gpu_count == global_batch, m.id

