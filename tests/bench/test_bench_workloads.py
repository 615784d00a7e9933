"""Real torch workloads at tiny sizes, in-process (a few seconds in total; marked full_env: the main suite
runs them), and the worker's imports (the headless step, where torch is not installed)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest

from configurator.bench.protocol import Emitter, decode
from configurator.bench.workloads import get
from configurator.bench.workloads.common import Context

FAST = {"min_time": 0.0, "min_reps": 2, "warmup": 1}


def run_job(job: str, params: dict[str, Any]) -> dict[str, dict[str, Any]]:
    import torch

    buf = io.StringIO()
    ctx = Context(job, torch, "cpu", {**FAST, **params}, Emitter(buf))
    get(job)(ctx)
    msgs = [decode(line) for line in buf.getvalue().splitlines()]
    return {m["name"]: m for m in msgs if m["type"] in ("result", "skipped")}


@pytest.mark.full_env
def test_matmul_membw_copies_vram() -> None:
    rows = run_job("matmul", {"shapes": [[32, 32, 32], [64, 32, 48]], "dtypes": ["fp32", "tf32"]})
    fp32 = rows["matmul-fp32"]
    assert fp32["type"] == "result" and fp32["unit"] == "TFLOPS" and fp32["value"] >= fp32["median"] > 0
    assert fp32["settings"]["tf32_matmul"] is False and fp32["settings"]["threads"] >= 1
    assert [s["k"] for s in fp32["details"]["shapes"]] == [32, 48]
    assert rows["matmul-tf32"]["type"] == "skipped"
    bw = run_job("membw", {"mib": 1})["membw"]
    assert bw["unit"] == "GB/s" and bw["value"] > 0
    assert {r["type"] for r in run_job("copies", {"mib": 1}).values()} == {"skipped"}
    assert run_job("vram", {})["vram-test"]["type"] == "skipped"


@pytest.mark.full_env
def test_resnet_training_step() -> None:
    row = run_job("resnet18", {"batch": 2, "image": 32, "classes": 10, "amp": "off"})["resnet18-train"]
    assert row["unit"] == "img/s" and row["value"] > 0
    assert row["settings"]["layout"] == "channels_last" and row["settings"]["amp"] is None


@pytest.mark.full_env
def test_gpt2_prefill_and_decode_apart() -> None:
    rows = run_job("gpt2", {"model": {"n_layer": 1, "n_embd": 32, "n_head": 2}, "batch": 1, "prompt": 8,
                            "new_tokens": 4, "dtype": "auto"})
    assert rows["gpt2-prefill"]["unit"] == rows["gpt2-decode"]["unit"] == "tokens/s"
    assert rows["gpt2-prefill"]["value"] > 0 and rows["gpt2-decode"]["value"] > 0
    assert rows["gpt2-decode"]["settings"]["weights"] == "random"


@pytest.mark.full_env
def test_dataloader_cold_and_warm(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rows = run_job("dataloader", {"files": 8, "image": 8, "batch": 4, "workers": [0], "data_dir": str(tmp_path)})
    warm = rows["dataloader-warm"]
    assert warm["unit"] == "samples/s" and warm["details"]["per_workers"][0]["num_workers"] == 0
    assert rows["dataloader-cold"]["type"] in ("result", "skipped")
    assert list(tmp_path.iterdir()) == []  # its files are removed


@pytest.mark.full_env
@pytest.mark.integration
def test_ddp_with_torchrun_two_processes() -> None:
    rows = run_job("ddp", {"procs": [2], "batch": 4, "hidden": 16, "layers": 1, "steps": 3,
                           "warmup_steps": 1, "threads": 2, "timeout": 60})
    row = rows["ddp-scaling"]
    runs = row["details"]["runs"]
    assert [r["processes"] for r in runs] == [2] and runs[0]["speedup"] == 1.0
    assert runs[0]["threads_per_process"] == 1 and runs[0]["backend"] == "gloo"
    assert row["unit"] == "%" and row["value"] > 0


def test_worker_imports_no_qt_no_database() -> None:
    code = ("import sys; import configurator.bench.worker, configurator.bench.workloads.compute, "
            "configurator.bench.workloads.networks, configurator.bench.workloads.data, "
            "configurator.bench.workloads.ddp, "
            "configurator.bench.doctor, configurator.bench.fingerprint, configurator.bench.ddp_child; "
            "print([m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'sqlalchemy', "
            "'platformdirs', 'alembic') or m.startswith(('configurator.store', 'configurator.ui', "
            "'configurator.core'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out.replace("'", '"')) == []


def test_worker_process_reports_bad_input() -> None:
    p = subprocess.run([sys.executable, "-m", "configurator.bench.worker", "warp-drive"], capture_output=True,
                       text=True)
    assert p.returncode == 2
    msgs = [decode(line) for line in p.stdout.splitlines()]
    assert msgs[0]["type"] == "hello" and msgs[-1]["type"] == "error" and "warp-drive" in str(msgs[-1]["params"])
