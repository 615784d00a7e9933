"""What a user sees of this machine's benchmarks: the planner's estimate calibrated by them, and the
Benchmark tab's peak memory against the VRAM estimate and energy per sample."""

from __future__ import annotations

from datetime import datetime, timedelta

from PySide6.QtCore import QSettings

from configurator.bench.results import RowResult, RunRecord
from configurator.core.build import Build, BuildPart, Workload
from configurator.core.measured import estimate_measurement
from configurator.store.bench_results import BenchResultsRepository
from configurator.store.database import Store
from configurator.store.repository import BuildsRepository, PartsRepository
from configurator.ui.bench.results_panel import ResultsPanel
from configurator.ui.planner.tab import PlannerTab

CPU_FP = {"cpu": "AMD Ryzen 9 5950X 16-Core Processor", "cpu_mhz": 3400, "cpu_usable": 16, "torch": "2.5.1",
          "gpus": []}
CPU_SETTINGS = {"device": "cpu", "threads": 16, "torch": "2.5.1", "batch": 8, "image": 64, "amp": None}
GPU_FP = {"cpu": "AMD Ryzen 9 5950X", "torch": "2.5.1", "cuda": "12.4",
          "gpus": [{"name": "NVIDIA GeForce RTX 3090", "memory_gib": 24.0}]}
WHEN = datetime(2026, 12, 1, 9, 30)


def cpu_run(value: float) -> RunRecord:
    """A CPU run as the runner stores it: this machine's fingerprint, the result row and its settings."""
    r = RunRecord("quick", "cpu", "/usr/bin/python3", WHEN, resolved_device="cpu",
                  finished_at=WHEN + timedelta(minutes=2), status="finished", fingerprint=CPU_FP, machine="m1")
    r.rows = [RowResult("resnet18-train", "resnet18", "ok", value, "img/s", value, value * 0.02, CPU_SETTINGS,
                        {"best": value, "peak_memory_bytes": None, "energy": None})]
    return r


def test_a_cpu_benchmark_here_changes_the_cpu_estimate_and_the_planner_says_so(qtbot, store: Store,  # type: ignore[no-untyped-def]
                                                                              tmp_path) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    tab = PlannerTab(PartsRepository(store), BuildsRepository(store), settings, load_presets=False)
    qtbot.addWidget(tab)
    build = Build((BuildPart("amd-ryzen-9-5950x"),), "CPU only", None,
                  workload=Workload(model="resnet50", task="train", precision="fp32", batch_size=32))
    tab.doc.start_new(build, lambda: "test")
    before = tab.report.estimate("throughput_cpu")  # type: ignore[union-attr]
    assert before is not None and before.calibration is None
    assert "Calibrated" not in tab.results.estimates_label.toPlainText()

    model = estimate_measurement(tab.catalogue, CPU_FP, "resnet18-train", CPU_SETTINGS)
    assert model is not None
    BenchResultsRepository(store).save(cpu_run(round(model[0] * 0.6, 2)))
    tab.reload_local_measurements()  # what the Benchmark tab's run_saved signal calls
    after = tab.report.estimate("throughput_cpu")  # type: ignore[union-attr]
    assert after is not None and after.calibration is not None
    assert after.value == before.value and abs(after.calibration.value - before.value * 0.6) < 0.05  # type: ignore[operator]
    text = tab.results.estimates_label.toPlainText()
    assert "Calibrated on this machine's benchmark of 2026-12-01: ×0.60" in text
    assert f"×0.60 → {after.calibration.value:,.1f}" in text
    assert "resnet18-train measured" in text and "torch 2.5.1" in text
    assert after.to_json()["calibration"]["factor"] == 0.6


def test_benchmark_tab_shows_peak_memory_against_the_vram_estimate_and_energy(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = ResultsPanel()
    qtbot.addWidget(panel)
    rec = RunRecord("quick", "cuda", "/py", WHEN, resolved_device="cuda", finished_at=WHEN + timedelta(minutes=1),
                    status="finished", fingerprint=GPU_FP, machine="m1")
    settings = {"device": "cuda", "batch": 64, "image": 224, "amp": "bf16", "torch": "2.5.1"}
    energy = {"joules": 1500.0, "seconds": 5.0, "mean_w": 300.0, "method": "nvml-energy-counter",
              "joules_per_sample": 0.6, "per": "image"}
    rec.rows = [RowResult("resnet50-train", "resnet50", "ok", 500.0, "img/s", 500.0, 4.0, settings,
                          {"peak_memory_bytes": 3 * 1024**3, "peak_memory_gib": 3.0, "energy": energy}),
                RowResult("matmul-fp32", "matmul", "ok", 20.0, "TFLOPS", 19.0, 0.1, {"device": "cpu"},
                          {"energy": None})]
    panel.record = rec
    panel.retranslate()
    header = [panel.table.horizontalHeaderItem(c).text() for c in range(panel.table.columnCount())]
    assert header[-2:] == ["Peak memory vs VRAM estimate", "Energy"]
    peak = panel.table.item(0, 7)
    assert peak.text().startswith("3.00 GiB against ") and " GiB estimated, " in peak.text()
    assert "max_memory_allocated" in peak.toolTip() and "batch 64" in peak.toolTip()
    assert panel.table.item(0, 8).text() == "0.6 J/image · NVML energy counter"
    assert "1,500.0 J in 5.0 s (mean 300 W)" in panel.table.item(0, 8).toolTip()
    assert panel.table.item(1, 7).text() == "n/a" and "CUDA only" in panel.table.item(1, 7).toolTip()
    assert panel.table.item(1, 8).text() == "n/a" and "RAPL" in panel.table.item(1, 8).toolTip()
