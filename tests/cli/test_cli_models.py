"""`configurator models list|show` and a build that names a config.json, through `configurator check`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_run import run


def test_list_json_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "models", "list", "--json")
    assert code == 0
    models = json.loads(out)
    assert len(models) >= 30
    by_id = {m["id"]: m for m in models}
    assert by_id["mixtral-8x7b"]["active_params"] < by_id["mixtral-8x7b"]["params"]
    assert by_id["llama-3.1-70b"]["kv_heads"] == 8 and by_id["gpt2"]["active_params"] is None
    code, out, _ = run(capsys, "models", "show", "gemma-2-9b", "--json")
    shown = json.loads(out)
    assert code == 0 and shown["head_dim"] == 256 and shown["config"]["model_type"] == "gemma2"
    assert shown["unverified"] == ["tied_embeddings"] and shown["source"].startswith("https://")
    assert {k: v for k, v in shown.items() if k != "config"} == by_id["gemma-2-9b"]


def test_human_list_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "models", "list")
    assert code == 0 and "qwen2.5-72b" in out and "12.88 B" in out  # Mixtral's active parameters
    code, out, _ = run(capsys, "models", "show", "sdxl-unet")
    assert code == 0 and "2,567,000,000" in out and "throughput_estimated" in out


def test_unknown_id_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "models", "show", "gpt-5")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "gpt-5" in err
    code, out, _ = run(capsys, "models", "show", "gpt-5", "--json")
    assert code == 2 and json.loads(out)["ok"] is False


def _build(tmp_path: Path, model: object) -> Path:
    path = tmp_path / "build.json"
    path.write_text(json.dumps({"format": "configurator.build/1", "parts": [{"id": "nvidia-rtx-4090"}],
                                "workload": {"model": model, "task": "infer", "precision": "bf16"}}),
                    encoding="utf-8")
    return path


def test_check_with_hf_config(capsys: pytest.CaptureFixture[str], seeded_db: Path, tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({
        "model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 32,
        "num_key_value_heads": 8, "head_dim": 64, "intermediate_size": 8192, "vocab_size": 128256,
        "max_position_embeddings": 131072, "tie_word_embeddings": True}), encoding="utf-8")
    build = _build(tmp_path, {"hf_config": "config.json"})
    code, out, _ = run(capsys, "--db", str(seeded_db), "check", str(build), "--json")
    assert code in (0, 1)
    keys = {e["key"] for e in json.loads(out)["estimates"]}
    assert "vram_per_gpu_gib" in keys and "throughput_one_gpu" in keys
    (tmp_path / "config.json").write_text('{"model_type": "llama"}', encoding="utf-8")
    code, out, err = run(capsys, "--db", str(seeded_db), "check", str(build))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "config.json" in err and "hidden_size" in err
