"""The fits kept between runs (core/estimate/theta_cache.py): read back to the bit, only for the shipped rows on
the shipped specs, and a damaged, foreign or unwritable cache costs time, never a wrong figure."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from configurator.core.estimate import fit as fitting
from configurator.core.estimate import least_squares, theta_cache


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> theta_cache.ThetaCache:
    """A cache of its own in ``tmp_path`` in place of the process's."""
    kept = theta_cache.ThetaCache(tmp_path)
    monkeypatch.setattr(theta_cache, "CACHE", kept)
    return kept


def _gpu_rows() -> tuple[list[Any], dict[str, Any]]:
    """The rows of two GPUs' fit (a leave-one-GPU-out refit's size, quick) and the shipped specs."""
    gpus = fitting.measured_gpus()
    use = fitting.fit_rows(fitting.shipped(), gpus)
    pick = sorted({m.gpu for m in use})[:2]
    rows = [m for m in use if m.gpu in pick]
    return rows, {g: gpus[g] for g in pick}


def _refuse_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("fitted again, not read back")

    monkeypatch.setattr(least_squares, "fit_theta", refuse)


def test_a_kept_fit_is_read_back_to_the_bit(cache: theta_cache.ThetaCache, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    rows, gpus = _gpu_rows()
    theta, fitted = fitting.fit_theta(rows, gpus)
    cache.write()
    doc = json.loads((tmp_path / theta_cache.FILE_NAME).read_text(encoding="utf-8"))
    assert len(doc["fits"]) == 1 and doc["format"] == theta_cache.FORMAT
    # the next run (a new cache on the same folder) reads it back without fitting
    monkeypatch.setattr(theta_cache, "CACHE", theta_cache.ThetaCache(tmp_path))
    _refuse_fits(monkeypatch)
    assert fitting.fit_theta(rows, gpus) == (theta, fitted)
    # another starting point is another fit
    with pytest.raises(AssertionError, match="fitted again"):
        fitting.fit_theta(rows, gpus, theta)


def test_only_the_shipped_rows_on_the_shipped_specs_are_kept(cache: theta_cache.ThetaCache, tmp_path: Path) -> None:
    rows, gpus = _gpu_rows()
    # equal copies are a caller's own rows and parts: fitted, never kept (a caller may change any field)
    fitting.fit_theta([dataclasses.replace(m) for m in rows], gpus)
    fitting.fit_theta(rows, {g: dataclasses.replace(p) for g, p in gpus.items()})
    cache.write()
    assert not (tmp_path / theta_cache.FILE_NAME).exists()


@pytest.mark.parametrize("content", ["{not json", '{"format": 1, "context": "another version", "fits": '
                                     '{"k": [[1.0], [2.0]]}}', '{"format": 1, "fits": 7}', "[]"])
def test_a_damaged_or_foreign_cache_is_fitted_again_and_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 content: str) -> None:
    (tmp_path / theta_cache.FILE_NAME).write_text(content, encoding="utf-8")
    kept = theta_cache.ThetaCache(tmp_path)
    monkeypatch.setattr(theta_cache, "CACHE", kept)
    rows, gpus = _gpu_rows()
    with theta_cache.CACHE.bypassed():
        expected = fitting.fit_theta(rows, gpus)
    assert fitting.fit_theta(rows, gpus) == expected
    kept.write()
    doc = json.loads((tmp_path / theta_cache.FILE_NAME).read_text(encoding="utf-8"))
    assert doc["context"] != "another version" and len(doc["fits"]) == 1


def test_a_cache_folder_that_cannot_be_written_costs_nothing_but_time(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    kept = theta_cache.ThetaCache(blocked / "cache")
    monkeypatch.setattr(theta_cache, "CACHE", kept)
    rows, gpus = _gpu_rows()
    theta, _fitted = fitting.fit_theta(rows, gpus)
    kept.write()  # logged, not raised
    assert blocked.read_text(encoding="utf-8") == "not a folder" and theta


def test_a_changed_source_file_is_another_context(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    core = tmp_path / "core"
    (core / "estimate").mkdir(parents=True)
    (core / "estimate" / "fit.py").write_text("A = 1\n", encoding="utf-8")
    monkeypatch.setattr(theta_cache, "CORE_DIR", core)
    before = theta_cache._files_digest()
    (core / "estimate" / "fit.py").write_text("A = 2\n", encoding="utf-8")
    assert before is not None and theta_cache._files_digest() not in (None, before)
    # no source to read (the frozen app): nothing is kept
    monkeypatch.setattr(theta_cache, "CORE_DIR", tmp_path / "nothing")
    assert theta_cache._files_digest() is None


def test_the_command_line_keeps_its_fits_and_says_the_same(tmp_path: Path) -> None:
    """Two `configurator check` runs: the first keeps its fits in the cache folder, the second reads them; the
    JSON both print is the same byte for byte. CONFIGURATOR_FIT_CACHE=0 keeps nothing."""
    build = tmp_path / "b.json"
    build.write_text(json.dumps({"format": "configurator.build/1", "name": "one 4090",
                                 "parts": [{"id": "nvidia-rtx-4090"}],
                                 "workload": {"model": "resnet50", "task": "train", "precision": "amp"}}),
                     encoding="utf-8")

    def check(cache_home: Path, **extra: str) -> str:
        env = {**os.environ, "XDG_CACHE_HOME": str(cache_home), "CONFIGURATOR_DB": str(tmp_path / "c.db"),
               **extra}
        proc = subprocess.run([sys.executable, "-m", "configurator", "--lang", "en", "check", "--json", str(build)],
                              env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode in (0, 1), proc.stderr[-2000:]
        return proc.stdout

    first = check(tmp_path / "cache")
    kept = tmp_path / "cache" / "configurator" / theta_cache.FILE_NAME
    assert kept.is_file() and len(json.loads(kept.read_text(encoding="utf-8"))["fits"]) > 10
    assert check(tmp_path / "cache") == first
    assert check(tmp_path / "off", CONFIGURATOR_FIT_CACHE="0") == first
    assert not (tmp_path / "off").exists()
