"""This machine's benchmarks calibrate the planner's estimates of builds with the same GPU or CPU."""

from __future__ import annotations

from datetime import datetime

from planner_kit import CATALOGUE

from configurator.core import calibration as cal
from configurator.core.build import Build, BuildPart, Workload
from configurator.core.engine import check
from configurator.core.measured import estimate_measurement, vram_estimate

FP = {"cpu": "AMD Ryzen 9 5950X 16-Core Processor", "cpu_mhz": 3400, "cpu_usable": 16, "torch": "2.5.1",
      "cuda": "12.4", "gpus": [{"name": "NVIDIA GeForce RTX 3090", "memory_gib": 24.0}]}
GPU_SETTINGS = {"device": "cuda", "threads": 8, "torch": "2.5.1", "batch": 64, "image": 224, "amp": "bf16"}
CPU_SETTINGS = {"device": "cpu", "threads": 16, "torch": "2.5.1", "batch": 8, "image": 64, "amp": None}
DAY = datetime(2026, 12, 1, 10, 0)
RESNET = Workload(model="resnet50", task="train", precision="amp", batch_size=64)


def local(workload: str, value: float, settings: dict, run: int = 1, day: datetime = DAY, fp: dict = FP
          ) -> cal.LocalMeasurement:
    m = cal.from_result(run, workload, "ok", value, "img/s" if "resnet" in workload else "tokens/s", settings,
                        {}, fp, "m1", day)
    assert m is not None
    return m


def build(*parts: str, workload: Workload = RESNET) -> Build:
    return Build(tuple(BuildPart(p) for p in parts), "t", None, workload=workload)


def test_a_gpu_benchmark_corrects_the_estimate_by_measured_over_the_models_estimate_of_it() -> None:
    model = estimate_measurement(CATALOGUE, FP, "resnet50-train", GPU_SETTINGS)
    assert model is not None
    measured = model[0] * 0.92
    b = build("nvidia-rtx-3090", "amd-ryzen-9-5950x")
    plain = check(b, CATALOGUE)
    got = check(b, CATALOGUE, local=[local("resnet50-train", measured, GPU_SETTINGS)])
    one, before = got.estimate("throughput_one_gpu"), plain.estimate("throughput_one_gpu")
    assert one is not None and before is not None and one.calibration is not None
    assert one.value == before.value  # the fit and the model's figure are unchanged
    assert abs(one.calibration.factor - 0.92) < 0.002
    assert abs(one.calibration.value - before.value * 0.92) < 0.5
    doc = one.to_json()["calibration"]
    assert doc["date"] == "2026-12-01" and doc["measurements"][0]["workload"] == "resnet50-train"
    assert "Calibrated on this machine's benchmark of 2026-12-01: ×0.92" in doc["how"]
    assert got.estimate("throughput_total").calibration is not None  # type: ignore[union-attr]
    # a build with another GPU is not calibrated by this machine's RTX 3090
    other = check(build("nvidia-rtx-4090", "amd-ryzen-9-5950x"), CATALOGUE,
                  local=[local("resnet50-train", measured, GPU_SETTINGS)])
    assert other.estimate("throughput_one_gpu").calibration is None  # type: ignore[union-attr]


def test_the_same_family_calibrates_and_the_newest_run_counts() -> None:
    gpt = {"device": "cuda", "torch": "2.5.1", "batch": 1, "prompt": 128, "new_tokens": 64, "dtype": "fp16",
           "model": {"n_layer": 12, "n_embd": 768, "n_head": 12, "params_m": 124.4, "vocab_size": 50257}}
    est_r = estimate_measurement(CATALOGUE, FP, "resnet50-train", GPU_SETTINGS)
    est_d = estimate_measurement(CATALOGUE, FP, "gpt2-decode", gpt)
    assert est_r is not None and est_d is not None
    rows = [local("resnet50-train", est_r[0] * 2.0, GPU_SETTINGS, run=1, day=datetime(2026, 11, 1)),
            local("resnet50-train", est_r[0] * 1.1, GPU_SETTINGS, run=2),
            local("gpt2-decode", est_d[0] * 0.5, gpt, run=2)]
    c = cal.calibration_for("nvidia-rtx-3090", "cuda", "cnn-train", rows, CATALOGUE)
    assert c is not None and c.same_family and abs(c.factor - 1.1) < 0.01  # not the older ×2, not GPT-2's ×0.5
    bert = cal.calibration_for("nvidia-rtx-3090", "cuda", "bert-train", rows, CATALOGUE)
    assert bert is not None and not bert.same_family
    assert abs(bert.factor - (1.1 * 0.5) ** 0.5) < 0.01  # no BERT benchmark: all of this GPU's, geometric mean


def test_a_cpu_benchmark_changes_the_cpu_estimate_of_a_build_with_this_cpu() -> None:
    model = estimate_measurement(CATALOGUE, FP, "resnet18-train", CPU_SETTINGS)
    assert model is not None
    b = build("amd-ryzen-9-5950x")
    plain = check(b, CATALOGUE).estimate("throughput_cpu")
    got = check(b, CATALOGUE, local=[local("resnet18-train", model[0] * 0.6, CPU_SETTINGS)]).estimate(
        "throughput_cpu")
    assert plain is not None and got is not None and got.calibration is not None
    assert abs(got.calibration.value - plain.value * 0.6) < 0.05  # type: ignore[operator]
    assert "no CPU measurements" in got.how.render() and "×0.60" in got.calibration.how.render()
    # another CPU is not calibrated; matmul results are measurements but calibrate nothing
    assert check(build("amd-ryzen-5-3600"), CATALOGUE, local=[local("resnet18-train", 1.0, CPU_SETTINGS)]
                 ).estimate("throughput_cpu").calibration is None  # type: ignore[union-attr]
    mm = cal.from_result(1, "matmul-fp32", "ok", 1.2, "TFLOPS", CPU_SETTINGS, {}, FP, "m1", DAY)
    assert mm is not None and check(b, CATALOGUE, local=[mm]).estimate("throughput_cpu").calibration is None  # type: ignore[union-attr]


def test_only_successful_cpu_or_cuda_measurements_are_kept() -> None:
    assert cal.from_result(1, "resnet50-train", "failed", None, None, GPU_SETTINGS, {}, FP, "m", DAY) is None
    assert cal.from_result(1, "dataloader-warm", "ok", 900.0, "img/s", CPU_SETTINGS, {}, FP, "m", DAY) is None
    assert cal.from_result(1, "resnet50-train", "ok", 9.0, "img/s", {**GPU_SETTINGS, "device": "mps"}, {}, FP,
                           "m", DAY) is None
    m = cal.from_result(7, "resnet50-train", "ok", 500.0, "img/s", GPU_SETTINGS, {"peak_memory_gib": 9.5}, FP, "m",
                        DAY)
    assert m is not None and m.id == "local-7-resnet50-train" and m.software == "torch 2.5.1, CUDA 12.4"
    assert m.hardware_name == "NVIDIA GeForce RTX 3090" and m.peak_memory_gib == 9.5


def test_vram_estimate_for_a_benchmark_leaves_out_context_and_margin() -> None:
    got = vram_estimate("resnet50-train", GPU_SETTINGS)
    assert got is not None
    tensors, total, how = got
    assert 0 < tensors < total and "batch 64" in how.render()
    bigger = vram_estimate("resnet50-train", {**GPU_SETTINGS, "batch": 128})
    assert bigger is not None and bigger[0] > tensors * 1.5  # activations grow with the batch
    assert vram_estimate("matmul-bf16", {"device": "cuda"}) is None
