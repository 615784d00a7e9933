"""The model catalogue (db/models) and Hugging Face config.json files (configurator.core.models)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from configurator.core.build import BuildError, Workload, build_to_dict, parse_build
from configurator.core.model_specs import KNOWN_MODELS
from configurator.core.models import ConfigError, catalogue, load_catalogue, parse_config, read_hf_config

IDS_THE_CODE_USES = ("resnet18", "resnet50", "bert-base", "bert-large", "gpt2", "gpt2-medium", "gpt2-large",
                     "gpt2-xl", "llama-7b", "llama-2-7b", "llama-3-8b", "llama-3-70b")


def test_at_least_thirty_models_with_a_70b_and_a_moe_each_with_a_source() -> None:
    records = catalogue()
    assert len(records) >= 30
    assert set(IDS_THE_CODE_USES) <= set(records)
    assert any(r.spec.params > 65e9 for r in records.values())
    assert any(r.spec.experts for r in records.values())
    for r in records.values():
        assert r.source.startswith("https://"), r.id
        assert not r.read_from or r.read_from.startswith("https://"), r.id
    assert {r.spec.family for r in records.values()} == {"transformer", "cnn", "diffusion"}
    assert list(KNOWN_MODELS) == list(records)  # the public mapping is the catalogue


def test_formula_within_two_percent_of_every_published_count() -> None:
    checked = 0
    for r in catalogue().values():
        if r.params_published is not None and r.params_basis == "config":
            assert r.spec.params == pytest.approx(r.params_published, rel=0.02), r.id
            checked += 1
        if r.active_params_published is not None:
            assert r.spec.active_params == pytest.approx(r.active_params_published, rel=0.02), r.id
    assert checked >= 7


def test_known_counts_and_mixture_of_experts() -> None:
    k = KNOWN_MODELS
    assert k["llama-3.1-8b"].params == pytest.approx(8.03e9, rel=0.001)
    assert k["qwen2.5-7b"].params == pytest.approx(7.6e9, rel=0.005)
    assert k["qwen2.5-72b"].params == 72_706_203_648  # the safetensors total of its checkpoint
    mixtral = k["mixtral-8x7b"]
    assert mixtral.params == pytest.approx(46.7e9, rel=0.002) and mixtral.active_params == pytest.approx(12.9e9,
                                                                                                         rel=0.002)
    assert (mixtral.experts, mixtral.experts_per_token, mixtral.expert_intermediate) == (8, 2, 14336)
    dense = k["mistral-7b"]
    assert dense.active_params == dense.params and dense.experts == 0
    # an MoE's forward FLOPs count the experts a token visits, not all of them
    assert mixtral.forward_flops_per_sample(1) < 0.35 * 2 * mixtral.params
    # GQA does not change the attention-score FLOPs: Mistral's scores term uses all 32 query heads
    s = 4096
    scores = dense.forward_flops_per_sample(s) - s * 2 * (dense.non_embedding_params)
    assert scores == pytest.approx(s * 4 * 32 * s * 4096)
    gemma = k["gemma-2-9b"]  # heads × head_dim (16 × 256) ≠ hidden (3584)
    assert gemma.head_dim == 256 and gemma.attention_width == 4096 and gemma.tied_head


def test_existing_ids_keep_their_figures() -> None:
    k = KNOWN_MODELS
    assert k["gpt2"].params == pytest.approx(124e6, rel=0.005) and k["gpt2"].fused_qkv
    assert k["gpt2-xl"].params == pytest.approx(1558e6, rel=0.001)
    assert k["llama-7b"].params == pytest.approx(6.74e9, rel=0.001) and not k["llama-7b"].tied_head
    assert k["bert-base"].params == pytest.approx(110e6, rel=0.01)
    assert (k["resnet50"].params, k["resnet50"].gmacs_224) == (25_557_032, 4.089)
    assert k["llama-3-8b"].kv_heads == 8 and k["llama-2-7b"].context == 4096


def test_vision_transformer_counts_patches_and_images() -> None:
    w = Workload(model="vit-b-16", task="train")
    assert w.effective_seq_len == 197 and w.throughput_unit == "img/s"
    assert KNOWN_MODELS["vit-b-16"].params == pytest.approx(86e6, rel=0.01)
    assert Workload(model="vit-b-16", task="train", image_size=384).effective_seq_len == 577


def test_diffusion_unet_gets_no_invented_throughput() -> None:
    """A UNet's compute comes from its layout ([model.unet], #36); a diffusion record without one gets none."""
    import dataclasses

    from configurator.core.models import throughput_note

    assert KNOWN_MODELS["sdxl-unet"].compute_known
    unet = dataclasses.replace(KNOWN_MODELS["sdxl-unet"], unet=None)
    assert unet.family == "diffusion" and not unet.compute_known
    note = throughput_note(unet)
    assert note is not None and "not estimated" in note.render()
    assert throughput_note(KNOWN_MODELS["resnet50"]) is None


def test_load_time_is_small() -> None:
    from configurator.paths import DB_DIR

    start = time.perf_counter()
    load_catalogue(DB_DIR / "models")
    assert time.perf_counter() - start < 0.5


def _write(tmp_path: Path, data: object, name: str = "config.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_hf_config_matches_the_catalogue(tmp_path: Path) -> None:
    record = catalogue()["qwen2.5-14b"]
    spec = read_hf_config(_write(tmp_path, dict(record.config)))
    assert spec.params == record.spec.params and spec.kv_heads == 8
    gpt = read_hf_config(_write(tmp_path, {"n_embd": 768, "n_layer": 12, "n_head": 12, "n_positions": 1024,
                                            "vocab_size": 50257}))  # no model_type: GPT-2 by its keys
    assert gpt.params == KNOWN_MODELS["gpt2"].params


@pytest.mark.parametrize(("content", "field"), [
    (None, ""),  # missing
    ("{not json", ""),
    ([1, 2], ""),
    ({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32}, "num_hidden_layers"),
    ({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 2, "num_attention_heads": 32,
      "intermediate_size": -1, "vocab_size": 10}, "intermediate_size"),
    ({"model_type": "mamba", "d_state": 16}, "model_type"),
    ({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 8,
      "num_key_value_heads": 3, "intermediate_size": 128, "vocab_size": 10}, "num_key_value_heads"),
])
def test_bad_config_names_file_and_field(tmp_path: Path, content: object, field: str) -> None:
    path = tmp_path / "config.json"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    elif content is not None:
        _write(tmp_path, content)
    with pytest.raises(ConfigError) as exc:
        read_hf_config(path, "my/config.json")
    assert exc.value.path == "my/config.json" and exc.value.field_name == field
    assert "\n" not in str(exc.value)


def test_build_file_hf_config_round_trips_and_bad_one_is_refused(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, dict(catalogue()["mixtral-8x7b"].config))
    doc = {"format": "configurator.build/1", "parts": [],
           "workload": {"model": {"hf_config": "config.json"}, "task": "infer", "precision": "int4"}}
    build = parse_build(doc, {})
    assert build.workload is not None and build.workload.spec().experts == 8
    assert build_to_dict(build) == doc
    doc["workload"]["model"] = {"hf_config": "missing.json"}  # type: ignore[index]
    with pytest.raises(BuildError) as exc:
        parse_build(doc, {})
    [error] = exc.value.errors
    assert error.path == "workload.model.hf_config" and "missing.json" in error.render()
    doc["workload"]["model"] = "llama-9000b"  # type: ignore[index]
    with pytest.raises(BuildError) as exc:
        parse_build(doc, {})
    assert "models list" in exc.value.errors[0].render()


def test_malformed_record_names_file_and_field(tmp_path: Path) -> None:
    (tmp_path / "x.toml").write_text('[[model]]\nid = "m"\nname = "M"\nfamily = "transformer"\n'
                                     'source = "https://example.org"\n[model.config]\nmodel_type = "llama"\n'
                                     'hidden_size = 64\nnum_attention_heads = 8\n', encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        load_catalogue(tmp_path)
    assert exc.value.path == "db/models/x.toml" and exc.value.field_name == "num_hidden_layers"
    (tmp_path / "x.toml").write_text('[[model]]\nid = "m"\nname = "M"\nfamily = "cnn"\nsource = "ftp://x"\n'
                                     'params = 1\n', encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        load_catalogue(tmp_path)
    assert exc.value.field_name == "m.source"


def test_parse_config_reads_moe_variants() -> None:
    deepseek = parse_config(dict(catalogue()["deepseek-moe-16b"].config), "x")
    assert (deepseek.experts, deepseek.moe_layers, deepseek.shared_expert_intermediate) == (64, 27, 2816)
    assert KNOWN_MODELS["deepseek-moe-16b"].active_params == pytest.approx(2.83e9, rel=0.01)
