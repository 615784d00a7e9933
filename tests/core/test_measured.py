from __future__ import annotations

from planner_kit import CATALOGUE

from configurator.core.measured import estimate_measurement, match_cpu, match_gpu


def test_gpu_names_as_torch_reports_them() -> None:
    assert match_gpu("NVIDIA GeForce RTX 3090", 24.0, CATALOGUE).id == "nvidia-rtx-3090"  # type: ignore[union-attr]
    assert match_gpu("NVIDIA GeForce RTX 3090 Ti", 24.0, CATALOGUE).id == "nvidia-rtx-3090-ti"  # type: ignore[union-attr]
    assert match_gpu("NVIDIA A100-SXM4-80GB", 79.2, CATALOGUE).vram_gb == 80  # type: ignore[union-attr]
    assert match_gpu("NVIDIA H200", 139.8, CATALOGUE).id.startswith("nvidia-h200")  # type: ignore[union-attr]
    assert match_gpu("Some Unknown Accelerator", 8.0, CATALOGUE) is None


def test_cpu_by_name() -> None:
    assert match_cpu("AMD Ryzen 9 5950X 16-Core Processor", CATALOGUE).id == "amd-ryzen-9-5950x"  # type: ignore[union-attr]


def test_estimate_for_a_cpu_run_uses_the_benchmark_settings() -> None:
    fp = {"cpu": "Intel(R) Xeon(R) Processor", "cpu_mhz": 2600.0, "cpu_capability": "AVX512", "gpus": []}
    small = estimate_measurement(CATALOGUE, fp, "resnet18-train", {"device": "cpu", "threads": 2, "batch": 16,
                                                                     "image": 64, "amp": None})
    big = estimate_measurement(CATALOGUE, fp, "resnet18-train", {"device": "cpu", "threads": 2, "batch": 16,
                                                                   "image": 224, "amp": None})
    assert small is not None and big is not None and small[1] == "img/s"
    # FLOPs and activation traffic scale with the pixels; launch overhead and optimizer traffic do not
    assert 0.9 * (224 / 64) ** 2 < small[0] / big[0] <= (224 / 64) ** 2
    assert "batch 16" in small[2].render()
    assert estimate_measurement(CATALOGUE, {"gpus": []}, "matmul-fp32", {"device": "cpu"}) is None


def test_estimate_for_a_cuda_decode_run() -> None:
    fp = {"gpus": [{"name": "NVIDIA GeForce RTX 4090", "memory_gib": 23.6}]}
    settings = {"device": "cuda", "batch": 1, "prompt": 128, "dtype": "fp16",
                "model": {"n_layer": 12, "n_embd": 768, "n_head": 12, "params_m": 124.4}}
    est = estimate_measurement(CATALOGUE, fp, "gpt2-decode", settings)
    assert est is not None and est[1] == "tokens/s" and est[0] > 0


def test_cuda_bf16_matmul_is_compared_with_the_spec_sheet() -> None:
    fp = {"gpus": [{"name": "NVIDIA H200", "memory_gib": 139.8}]}
    est = estimate_measurement(CATALOGUE, fp, "matmul-bf16", {"device": "cuda"})
    assert est is not None and est[1] == "TFLOPS" and est[0] == 989.4
    assert "spec-sheet dense BF16 peak" in est[2].render()
    assert estimate_measurement(CATALOGUE, fp, "matmul-bf16", {"device": "cpu"}) is None
