"""`configurator detect`, `report` and `advise` on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from configurator.core import presets
from configurator.core.build import build_to_dict
from configurator.core.catalogue import load_catalogue
from configurator.monitor.recorder import CsvRecorder
from configurator.monitor.snapshot import GpuProcess, GpuSample, HostSample, NvmlStatus, Snapshot, TrainingProcess
from tests.cli_run import run

GiB = 1024**3


def recording(path: Path, util: float = 40.0, workers_cpu: float = 99.0) -> Path:
    rec = CsvRecorder(path)
    for i in range(60):
        g = GpuSample(0, "0", "NVIDIA GeForce RTX 3060", "GPU-0", utilization_gpu_percent=util,
                      memory_used_bytes=6 * GiB, memory_total_bytes=12 * GiB, power_w=150.0, energy_j=150.0 * i,
                      throttle_reasons=0, processes=(GpuProcess(7, GiB, "python train.py", "me", parent_pid=3),))
        host = HostSample("box", cpu_percent=60.0, iowait_percent=1.0,
                          training=TrainingProcess(7, "python train.py", 50.0, 4, (workers_cpu,) * 4))
        if i == 30:
            rec.mark("epoch 1 done")
        rec(Snapshot(1_764_000_000.0 + i, i, host, NvmlStatus(True), (g,)))
    rec.close()
    return path


def test_detect_lists_this_machine_and_saves_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "detect", "--json", "--save", "--fake-gpus", "2")
    assert code == 0, err
    doc = json.loads(out)
    gpus = [p for p in doc["parts"] if p["category"] == "gpu"]
    assert {p["id"] for p in gpus} == {"nvidia-rtx-4090", "nvidia-rtx-3090"}  # the fake NVML's first two
    # with the PCI ids NVML reads (vendor:device)
    assert {p["reported"] for p in gpus} == {"NVIDIA GeForce RTX 4090 (PCI 10de:2684)",
                                             "NVIDIA GeForce RTX 3090 (PCI 10de:2204)"}
    assert doc["saved_build_id"] and any("power supply" in n for n in doc["notes"])
    code, out, _ = run(capsys, "detect", "--json", "--save", "--fake-gpus", "1")
    assert json.loads(out)["saved_build_id"] == doc["saved_build_id"]  # "This machine" replaced, not added


@pytest.mark.full_env  # Chinese output or a PDF: PySide6
def test_report_json_text_and_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = recording(tmp_path / "run.csv")
    code, out, err = run(capsys, "report", str(rec), "--json", "--tariff", "1.2")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["verdict"]["rule"] == "GPU-6" and "DataLoader" in doc["verdict"]["text"]
    assert doc["gpus"][0]["energy_method"] == "nvml-counter" and doc["energy"]["tariff_cny_per_kwh"] == 1.2
    code, text, _ = run(capsys, "--lang", "zh_CN", "report", str(rec))
    assert code == 0 and "利用率中位数" in text and "NVML 能耗计数器" in text and "nvml-counter" not in text
    pdf = tmp_path / "报告.pdf"
    code, _out, err = run(capsys, "--lang", "zh_CN", "report", str(rec), "--pdf", str(pdf))
    assert code == 0, err
    from pypdf import PdfReader

    page = PdfReader(str(pdf)).pages[0].extract_text()
    assert "训练运行报告" in page and "GPU-6" in page
    en = tmp_path / "run.pdf"
    code, _out, err = run(capsys, "--lang", "en", "report", str(rec), "--pdf", str(en))
    assert code == 0, err
    text = " ".join(PdfReader(str(en)).pages[0].extract_text().split())
    # the DataLoader signal over the run (every worker at 99 % of a core) and the run's marker
    assert "at a full core (the training process, without workers): 100 % of the run" in text, text
    assert "epoch 1 done" in text


@pytest.mark.parametrize(("argv", "where"), [
    (["report", "missing.csv"], "missing.csv"),
    (["report", "{rec}", "--tariff", "nan"], "--tariff"),
    (["report", "{rec}", "--tariff", "-1"], "--tariff"),
    (["advise", "{build}", "--budget", "inf"], "--budget"),
    (["advise", "{build}", "--bench", "999"], "--bench"),
    (["advise", "{build}", "--recording", "nope.csv"], "nope.csv"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                                          where: str) -> None:
    rec = recording(tmp_path / "run.csv")
    build = tmp_path / "b.json"
    build.write_text(json.dumps(build_to_dict(presets.presets({p.id: p for p in load_catalogue()})[0].build)))
    args = [a.format(rec=rec, build=build) for a in argv]
    code, _out, err = run(capsys, *args)
    assert code == 2 and err.count("\n") == 1 and where in err, err


def test_advise_a_build_file_with_and_without_evidence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cat = {p.id: p for p in load_catalogue()}
    build = tmp_path / "entry.json"
    build.write_text(json.dumps(build_to_dict(presets.presets(cat)[0].build)))
    code, out, err = run(capsys, "advise", str(build), "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["limit"]["resource"] == "gpu" and len(doc["upgrades"]) >= 3
    assert all(u["price_cny"] > 0 and u["gain_percent"] > 0 for u in doc["upgrades"])
    code, out, err = run(capsys, "advise", str(build), "--recording", str(recording(tmp_path / "r.csv")), "--json")
    doc = json.loads(out)
    assert doc["limit"]["rule"] == "BAL-1" and doc["upgrades"][0]["kind"] == "cpu"
    code, text, _ = run(capsys, "advise", str(build), "--budget", "2500")
    assert code == 0 and "UPG-1" in text


@pytest.mark.full_env  # Chinese output or a PDF: PySide6
def test_advise_with_a_benchmark_run_whose_ddp_scaling_is_poor(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from datetime import datetime

    from configurator.bench.results import RowResult, RunRecord
    from configurator.core.build import BuildPart
    from configurator.store.bench_results import BenchResultsRepository
    from configurator.store.database import open_store
    from configurator.store.seed import seed_store

    db = tmp_path / "a.db"
    store = open_store(db, seed=seed_store)
    try:
        r = RunRecord("quick", "cuda", "/py", datetime(2026, 12, 1, 9), resolved_device="cuda", status="finished")
        r.rows = [RowResult("ddp-scaling", "ddp", "ok", 61.0, "%", 61.0, 1.0, {"procs": [1, 2]}, {})]
        run_id = BenchResultsRepository(store).save(r)
    finally:
        store.close()
    cat = {p.id: p for p in load_catalogue()}
    entry = presets.presets(cat)[0].build
    parts = [BuildPart(p.id, 2) if p.id == "nvidia-rtx-3060-12gb" else p for p in entry.parts
             if cat[p.id].category != "psu"]
    from dataclasses import replace

    build = tmp_path / "two.json"
    build.write_text(json.dumps(build_to_dict(replace(entry, parts=(*parts, BuildPart("seasonic-focus-gx-850"))))))
    code, out, err = run(capsys, "--db", str(db), "advise", str(build), "--bench", str(run_id), "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["limit"]["resource"] == "interconnect" and doc["limit"]["rule"] == "PCI-5"
    assert doc["upgrades"][0]["kind"] == "interconnect" and doc["bench"]["run"] == run_id
    code, text, _ = run(capsys, "--db", str(db), "--lang", "zh_CN", "advise", str(build), "--bench", str(run_id))
    assert code == 0 and "PCI-5" in text and "基准测试运行" in text
