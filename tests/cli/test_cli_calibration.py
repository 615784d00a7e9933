"""`check --json` carries this machine's calibration; `measurements list` shows this machine's rows."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from configurator.bench.results import RowResult, RunRecord
from configurator.core.build import Build, BuildPart, Workload, build_to_dict
from configurator.store.bench_results import BenchResultsRepository
from configurator.store.database import open_store
from configurator.store.seed import seed_store
from tests.cli_run import run

FP = {"cpu": "AMD Ryzen 9 5950X 16-Core Processor", "cpu_mhz": 3400, "torch": "2.5.1", "cuda": "12.4",
      "gpus": [{"name": "NVIDIA GeForce RTX 3090", "memory_gib": 24.0}]}


def test_check_json_carries_the_calibration_and_measurements_list_this_machine(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "c.db"
    store = open_store(db, seed=seed_store)
    try:
        when = datetime(2026, 12, 1, 8)
        r = RunRecord("quick", "cuda", "/py", when, resolved_device="cuda", finished_at=when + timedelta(minutes=3),
                      status="finished", fingerprint=FP, machine="m1")
        r.rows = [RowResult("resnet50-train", "resnet50", "ok", 400.0, "img/s", 400.0, 3.0,
                            {"device": "cuda", "batch": 64, "image": 224, "amp": "bf16", "torch": "2.5.1"}, {})]
        BenchResultsRepository(store).save(r)
    finally:
        store.close()
    path = tmp_path / "build.json"
    build = Build((BuildPart("nvidia-rtx-3090"), BuildPart("amd-ryzen-9-5950x")), "t", None,
                  workload=Workload(model="resnet50", task="train", precision="amp", batch_size=64))
    path.write_text(json.dumps(build_to_dict(build)), encoding="utf-8")
    code, out, _ = run(capsys, "--db", str(db), "--lang", "en", "check", str(path), "--json")
    assert code in (0, 1)
    est = {e["key"]: e for e in json.loads(out)["estimates"]}
    cal = est["throughput_one_gpu"]["calibration"]
    assert cal["date"] == "2026-12-01" and cal["hardware"] == "nvidia-rtx-3090" and cal["measurements"][0]["run"] == 1
    assert abs(cal["value"] - est["throughput_one_gpu"]["value"] * cal["factor"]) < 1
    assert cal["how"].startswith("Calibrated on this machine's benchmark of 2026-12-01: ×")
    assert est["throughput_cpu"]["calibration"] is None  # a GPU benchmark calibrates the GPU only
    code, out, _ = run(capsys, "--db", str(db), "measurements", "list", "--source", "local", "--json")
    assert code == 0
    rows = json.loads(out)
    assert [(m["provenance"], m["workload"], m["value"]) for m in rows] == [("local", "resnet50-train", 400.0)]
    code, out, _ = run(capsys, "--db", str(db), "--lang", "en", "measurements", "list")
    assert "this machine, run 1, 2026-12-01" in out and "1 measurements of this machine's benchmarks" in out
