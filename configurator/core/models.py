"""The model catalogue (``db/models/*.toml``) and Hugging Face ``config.json`` files.

Each record in ``db/models`` holds the keys of the model's published ``config.json`` (copied, under
``[model.config]``), where they were read (``source`` and ``read_from``), and, where a model card or a
paper states one, the published parameter count (``params_published``, ``params_source``). A figure that
could not be read in a source is listed in the record's ``unverified``. Models without a ``config.json``
(torchvision CNNs, diffusion UNets) give their figures directly (``params``, ``gmacs_224``).

The same parser reads a user's ``config.json`` (``"model": {"hf_config": "path"}`` in a build file), so a
catalogue record and a user's file become the same :class:`ModelSpec`.

Parameter count from a config (:func:`config_params`), per architecture:

* gated decoders (llama, mistral, mixtral, qwen2, qwen2_moe, gemma, gemma2, phi3, deepseek): per layer
  Q and O projections ``2·h·(H·d)``, K and V ``2·h·(K·d)`` (H heads, K key/value heads, d head_dim),
  Q/K/V biases where the architecture has them (qwen2), a gated MLP ``3·h·I`` (or, in a mixture-of-experts
  layer, ``E·3·h·I_e`` + the router ``h·E`` + shared experts ``3·h·I_s``), RMSNorm weights (2·h, Gemma 2:
  4·h); plus the token embedding ``V·h``, the output head ``V·h`` unless tied, and the final norm ``h``;
* GPT-2: fused QKV and output projections with biases, an MLP of ``n_inner`` (4·h) with biases, two
  LayerNorms per layer, token and position embeddings, final LayerNorm; the head is tied;
* BERT / RoBERTa: token, position and token-type embeddings with a LayerNorm, per layer Q/K/V/O and the
  MLP with biases and two LayerNorms, and the pooler (what the model cards count: 110 M, 125 M);
* T5: the shared embedding, encoder layers (Q/K/V/O without biases, a ReLU or gated-GELU MLP, two
  RMS-style norms), decoder layers (self- and cross-attention, MLP, three norms), one relative-position
  bias table per stack, two final norms, the head unless tied;
* ViT: the patch projection (a convolution of C·p·p·h + h), the class token, ``(image/patch)² + 1`` position
  embeddings, BERT-like layers, the final LayerNorm and the 1000-class classifier.

Active parameters (what one token uses) = all − the experts a token does not visit:
``moe_layers · (E − k) · 3 · h · I_e``.
"""

from __future__ import annotations

import functools
import json
import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.model_specs import FluxLayout, ModelSpec, UNetLayout

MAX_CONFIG_BYTES = 4 * 1024 * 1024  # a config.json is a few kB; tokenizer files are not configs

# Architectures whose MLP is gated (SwiGLU / GeGLU: gate, up and down projections).
GATED = ("llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "gemma", "gemma2", "phi3", "deepseek")
ENCODERS = ("bert", "roberta")
MODEL_TYPES = (*GATED, "gpt2", *ENCODERS, "t5", "vit")
# transformers' config classes' defaults for tie_word_embeddings where config.json leaves it out
# (LlamaConfig, MistralConfig, MixtralConfig, Qwen2Config, Qwen2MoeConfig, Phi3Config: False; GemmaConfig,
# Gemma2Config, T5Config and the GPT-2 / BERT heads: True).
TIED_BY_DEFAULT = ("gemma", "gemma2", "t5", "gpt2", "bert", "roberta")
QKV_BIAS = ("qwen2", "qwen2_moe")  # attention Q/K/V projections with biases
FAMILIES = ("transformer", "cnn", "diffusion")


@dataclass(frozen=True)
class ConfigError(ValueError):
    """A config.json (or catalogue record) that cannot be used: the file, the field and why."""

    path: str
    field_name: str
    message: Message

    def __str__(self) -> str:
        return f"{self.path}: {self.field_name}: {self.message.render()}"


def _m(template: str, **params: Any) -> Message:
    return Message("models", template, params)


_MISSING = QT_TRANSLATE_NOOP("models", "is required")
_NOT_INT = QT_TRANSLATE_NOOP("models", "must be a positive integer, not {got}")
_NOT_NUMBER = QT_TRANSLATE_NOOP("models", "must be a number greater than 0, not {got}")
_NOT_TEXT = QT_TRANSLATE_NOOP("models", "must be text")
_NOT_BOOL = QT_TRANSLATE_NOOP("models", "must be true or false")
_NOT_OBJECT = QT_TRANSLATE_NOOP("models", "the file must hold a JSON object (a config.json), not {got}")
_NOT_FOUND = QT_TRANSLATE_NOOP("models", "no such file")
_UNREADABLE = QT_TRANSLATE_NOOP("models", "cannot be read: {reason}")
_TOO_BIG = QT_TRANSLATE_NOOP("models", "is too large for a config.json ({size:,} bytes; at most {limit:,})")
_NOT_JSON = QT_TRANSLATE_NOOP("models", "is not valid JSON: {error} (line {line})")
_NOT_TOML = QT_TRANSLATE_NOOP("models", "is not valid TOML: {error}")
_UNKNOWN_TYPE = QT_TRANSLATE_NOOP(
    "models", "unknown model_type {got!r} and no usable fields (hidden_size, num_hidden_layers, "
              "num_attention_heads): supported are {types}")
_NOT_DIVISIBLE = QT_TRANSLATE_NOOP("models", "{heads} attention heads do not share {kv} key/value heads evenly")
_DUPLICATE = QT_TRANSLATE_NOOP("models", "id {id!r} is also used in {other}")
_CHOICE = QT_TRANSLATE_NOOP("models", "must be one of {choices}, not {got!r}")
_NEEDS_SOURCE = QT_TRANSLATE_NOOP("models", "must be an https:// URL")
_EXPERTS_PER_TOKEN = QT_TRANSLATE_NOOP("models", "must be at most the number of experts ({experts})")
THROUGHPUT_NOT_ESTIMATED = QT_TRANSLATE_NOOP(
    "models", "Throughput is not estimated for {name}: no published source states its compute per image "
              "(a UNet's convolution MACs depend on the resolution and the sampler's steps), and the planner "
              "does not invent one; memory is estimated from its {params:,.0f} M parameters.")


# -- reading values ------------------------------------------------------------------------------------
class _Fields:
    """Typed reads of one JSON/TOML object, each failure naming the file and the field."""

    def __init__(self, data: Mapping[str, Any], path: str, prefix: str = ""):
        self.data = data
        self.path = path
        self.prefix = prefix

    def fail(self, key: str, template: str, **params: Any) -> ConfigError:
        return ConfigError(self.path, f"{self.prefix}{key}", _m(template, **params))

    def integer(self, key: str, default: int | None = None, *, alt: tuple[str, ...] = ()) -> int:
        for name in (key, *alt):
            value = self.data.get(name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise self.fail(name, _NOT_INT, got=_short(value))
            return value
        if default is None:
            raise self.fail(key, _MISSING)
        return default

    def opt_int(self, key: str, *, alt: tuple[str, ...] = ()) -> int | None:
        if all(self.data.get(k) is None for k in (key, *alt)):
            return None
        return self.integer(key, alt=alt)

    def number(self, key: str, default: float | None = None) -> float:
        value = self.data.get(key)
        if value is None:
            if default is None:
                raise self.fail(key, _MISSING)
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
            raise self.fail(key, _NOT_NUMBER, got=_short(value))
        return float(value)

    def fraction(self, key: str, default: float) -> float:
        value = self.data.get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1:
            raise self.fail(key, _NOT_NUMBER, got=_short(value))
        return float(value)

    def flag(self, key: str, default: bool) -> bool:
        value = self.data.get(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.fail(key, _NOT_BOOL)
        return value

    def text(self, key: str, default: str | None = None) -> str:
        value = self.data.get(key)
        if value is None:
            if default is None:
                raise self.fail(key, _MISSING)
            return default
        if not isinstance(value, str):
            raise self.fail(key, _NOT_TEXT)
        return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


# -- config.json → architecture ------------------------------------------------------------------------
@dataclass(frozen=True)
class Arch:
    """What a config.json says about a model's shape, in one vocabulary for every architecture."""

    model_type: str
    hidden: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int
    vocab: int
    context: int
    tied: bool
    decoder: bool  # generates tokens
    gated: bool = False
    norm: str = "layernorm"
    learned_positions: bool = False
    fused_qkv: bool = False
    activation: str = "gelu"
    dropout: float = 0.0
    attention_dropout: float = 0.0
    experts: int = 0
    experts_per_token: int = 0
    expert_intermediate: int = 0
    shared_expert_intermediate: int = 0
    moe_layers: int = 0
    decoder_layers: int = 0  # T5: the decoder stack's layers (``layers`` is the encoder's)
    patch_size: int = 0
    image_size: int = 0
    channels: int = 3
    type_vocab: int = 0
    buckets: int = 0  # T5 relative-attention buckets
    classes: int = 0


def parse_config(data: Any, path: str) -> Arch:
    """A config.json's object as an :class:`Arch`; raises :class:`ConfigError` naming the field."""
    if not isinstance(data, Mapping):
        raise ConfigError(path, "", _m(_NOT_OBJECT, got=type(data).__name__))
    f = _Fields(data, path)
    model_type = data.get("model_type")
    if model_type is not None and not isinstance(model_type, str):
        raise f.fail("model_type", _NOT_TEXT)
    if model_type == "gpt2" or (model_type not in MODEL_TYPES and "n_embd" in data):
        return _gpt2(f)
    if model_type == "t5" or (model_type not in MODEL_TYPES and "d_model" in data and "d_ff" in data):
        return _t5(f)
    if model_type == "vit" or (model_type not in MODEL_TYPES and "patch_size" in data):
        return _vit(f)
    if model_type in ENCODERS:
        return _encoder(f, model_type)
    if model_type in GATED:
        return _gated(f, model_type)
    if all(k in data for k in ("hidden_size", "num_hidden_layers", "num_attention_heads")):
        # An architecture this list does not name: read as a llama-like decoder (gated MLP, RMSNorm).
        return _gated(f, str(model_type or "llama"))
    raise f.fail("model_type", _UNKNOWN_TYPE, got=str(model_type), types=", ".join(MODEL_TYPES))


def _kv(f: _Fields, heads: int) -> int:
    kv = f.integer("num_key_value_heads", heads)
    if heads % kv:
        raise f.fail("num_key_value_heads", _NOT_DIVISIBLE, heads=heads, kv=kv)
    return kv


def _gated(f: _Fields, model_type: str) -> Arch:
    hidden = f.integer("hidden_size")
    layers = f.integer("num_hidden_layers")
    heads = f.integer("num_attention_heads")
    kv = _kv(f, heads)
    head_dim = f.integer("head_dim", hidden // heads if hidden % heads == 0 else 0) or hidden // heads
    intermediate = f.integer("intermediate_size")
    experts = f.integer("num_local_experts", 0, alt=("num_experts", "n_routed_experts")) \
        if any(f.data.get(k) for k in ("num_local_experts", "num_experts", "n_routed_experts")) else 0
    k = 0
    expert_i = shared_i = moe_layers = 0
    if experts:
        k = f.integer("num_experts_per_tok")
        if k > experts:
            raise f.fail("num_experts_per_tok", _EXPERTS_PER_TOKEN, experts=experts)
        # Mixtral: every layer's MLP is the experts, each of intermediate_size; Qwen2-MoE / DeepSeek-MoE give the
        # expert width apart (moe_intermediate_size) and keep intermediate_size for dense layers.
        expert_i = f.integer("moe_intermediate_size", intermediate)
        if model_type == "deepseek":
            shared_i = f.integer("n_shared_experts", 0) * expert_i if f.data.get("n_shared_experts") else 0
            dense = f.integer("first_k_dense_replace", 0) if f.data.get("first_k_dense_replace") else 0
            step = f.integer("moe_layer_freq", 1)
            moe_layers = sum(1 for i in range(dense, layers) if i % step == 0)
        else:
            shared_i = f.integer("shared_expert_intermediate_size", 0) \
                if f.data.get("shared_expert_intermediate_size") else 0
            step = f.integer("decoder_sparse_step", 1)
            only_mlp = f.data.get("mlp_only_layers") or []
            if not isinstance(only_mlp, list):
                raise f.fail("mlp_only_layers", _NOT_INT, got=_short(only_mlp))
            moe_layers = sum(1 for i in range(layers) if i not in only_mlp and (i + 1) % step == 0)
    return Arch(
        model_type=model_type, hidden=hidden, layers=layers, heads=heads, kv_heads=kv, head_dim=head_dim,
        intermediate=intermediate, vocab=f.integer("vocab_size"),
        context=f.integer("max_position_embeddings", 2048),
        tied=f.flag("tie_word_embeddings", model_type in TIED_BY_DEFAULT), decoder=True, gated=True,
        norm="rmsnorm", activation="swiglu", attention_dropout=f.fraction("attention_dropout", 0.0),
        experts=experts, experts_per_token=k, expert_intermediate=expert_i, shared_expert_intermediate=shared_i,
        moe_layers=moe_layers)


def _gpt2(f: _Fields) -> Arch:
    hidden = f.integer("n_embd")
    heads = f.integer("n_head")
    return Arch(
        model_type="gpt2", hidden=hidden, layers=f.integer("n_layer"), heads=heads, kv_heads=heads,
        head_dim=hidden // heads, intermediate=f.integer("n_inner", 4 * hidden), vocab=f.integer("vocab_size"),
        context=f.integer("n_positions", alt=("n_ctx",)), tied=f.flag("tie_word_embeddings", True), decoder=True,
        learned_positions=True, fused_qkv=True, activation="gelu_new",
        dropout=f.fraction("resid_pdrop", 0.1), attention_dropout=f.fraction("attn_pdrop", 0.1))


def _encoder(f: _Fields, model_type: str) -> Arch:
    hidden = f.integer("hidden_size")
    heads = f.integer("num_attention_heads")
    positions = f.integer("max_position_embeddings")
    return Arch(
        model_type=model_type, hidden=hidden, layers=f.integer("num_hidden_layers"), heads=heads, kv_heads=heads,
        head_dim=hidden // heads, intermediate=f.integer("intermediate_size", 4 * hidden),
        vocab=f.integer("vocab_size"),
        # RoBERTa's table has 514 rows: 512 positions after its padding offset of 2 (padding_idx + 1)
        context=positions - 2 if model_type == "roberta" and positions > 2 else positions,
        tied=True, decoder=False, learned_positions=True, activation="gelu",
        dropout=f.fraction("hidden_dropout_prob", 0.1),
        attention_dropout=f.fraction("attention_probs_dropout_prob", 0.1),
        type_vocab=f.integer("type_vocab_size", 2))


def _t5(f: _Fields) -> Arch:
    d = f.integer("d_model")
    heads = f.integer("num_heads")
    layers = f.integer("num_layers")
    proj = f.text("feed_forward_proj", "relu")
    return Arch(
        model_type="t5", hidden=d, layers=layers, heads=heads, kv_heads=heads, head_dim=f.integer("d_kv", d // heads),
        intermediate=f.integer("d_ff"), vocab=f.integer("vocab_size"), context=f.integer("n_positions", 512),
        tied=f.flag("tie_word_embeddings", True), decoder=False, gated=proj.startswith("gated"),
        norm="rmsnorm", activation="gelu" if "gelu" in proj else "relu",
        dropout=f.fraction("dropout_rate", 0.1), attention_dropout=f.fraction("dropout_rate", 0.1),
        decoder_layers=f.integer("num_decoder_layers", layers),
        buckets=f.integer("relative_attention_num_buckets", 32))


def _vit(f: _Fields) -> Arch:
    hidden = f.integer("hidden_size")
    heads = f.integer("num_attention_heads")
    image = f.integer("image_size", 224)
    patch = f.integer("patch_size")
    labels = f.data.get("id2label")
    classes = len(labels) if isinstance(labels, Mapping) and labels else 1000
    return Arch(
        model_type="vit", hidden=hidden, layers=f.integer("num_hidden_layers"), heads=heads, kv_heads=heads,
        head_dim=hidden // heads, intermediate=f.integer("intermediate_size", 4 * hidden), vocab=0,
        context=(image // patch) ** 2 + 1, tied=True, decoder=False, learned_positions=True,
        dropout=f.fraction("hidden_dropout_prob", 0.0),
        attention_dropout=f.fraction("attention_probs_dropout_prob", 0.0),
        patch_size=patch, image_size=image, channels=f.integer("num_channels", 3), classes=classes)


def config_params(a: Arch) -> tuple[int, int]:
    """(all parameters, parameters one token uses) of an architecture: the formulas in the module docstring."""
    h, v = a.hidden, a.vocab
    if a.model_type == "gpt2":
        per_layer = 2 * 2 * h + (h * 3 * h + 3 * h) + (h * h + h) + (h * a.intermediate + a.intermediate) \
            + (a.intermediate * h + h)
        total = v * h + a.context * h + a.layers * per_layer + 2 * h + (0 if a.tied else v * h)
        return total, total
    if a.model_type in ENCODERS:
        per_layer = 4 * (h * h + h) + 2 * h + (h * a.intermediate + a.intermediate) + (a.intermediate * h + h) \
            + 2 * h
        positions = a.context + (2 if a.model_type == "roberta" else 0)
        embeddings = (v + positions + a.type_vocab) * h + 2 * h
        total = embeddings + a.layers * per_layer + (h * h + h)  # + pooler
        return total, total
    if a.model_type == "t5":
        inner = a.heads * a.head_dim
        attn = 4 * h * inner
        mlp = (3 if a.gated else 2) * h * a.intermediate
        enc = a.layers * (attn + mlp + 2 * h) + a.buckets * a.heads + h
        dec = a.decoder_layers * (2 * attn + mlp + 3 * h) + a.buckets * a.heads + h
        total = v * h + enc + dec + (0 if a.tied else v * h)
        return total, total
    if a.model_type == "vit":
        patches = (a.image_size // a.patch_size) ** 2
        embed = a.channels * a.patch_size ** 2 * h + h + h + (patches + 1) * h
        per_layer = 4 * (h * h + h) + (h * a.intermediate + a.intermediate) + (a.intermediate * h + h) + 4 * h
        total = embed + a.layers * per_layer + 2 * h + (h * a.classes + a.classes)
        return total, total
    # gated decoders
    q = a.heads * a.head_dim
    kv = a.kv_heads * a.head_dim
    attn = h * q + 2 * h * kv + q * h + ((q + 2 * kv) if a.model_type in QKV_BIAS else 0)
    norms = (4 if a.model_type == "gemma2" else 2) * h
    dense_mlp = 3 * h * a.intermediate
    expert = 3 * h * a.expert_intermediate
    moe = 0
    if a.experts:
        shared = 3 * h * a.shared_expert_intermediate + (h if a.model_type == "qwen2_moe" and
                                                         a.shared_expert_intermediate else 0)
        moe = a.experts * expert + h * a.experts + shared
    dense_layers = a.layers - a.moe_layers
    total = a.layers * (attn + norms) + dense_layers * dense_mlp + a.moe_layers * moe + v * h + h \
        + (0 if a.tied else v * h)
    active = total - a.moe_layers * (a.experts - a.experts_per_token) * expert
    return total, active


def arch_spec(a: Arch, name: str, source: str, *, params: float | None = None, default_batch: int | None = None,
              title: str = "") -> ModelSpec:
    """The :class:`ModelSpec` of an architecture (``params``: a published count to use instead of the formula's)."""
    total, active = config_params(a)
    vision = a.model_type == "vit"
    return ModelSpec(
        name, "transformer", float(params if params is not None else total), source, layers=a.layers + a.decoder_layers,
        hidden=a.hidden, heads=a.heads, vocab=a.vocab, context=a.context, decoder=a.decoder,
        intermediate=a.intermediate, activation=a.activation, norm=a.norm, dropout=a.dropout,
        attention_dropout=a.attention_dropout, fused_qkv=a.fused_qkv, learned_positions=a.learned_positions,
        tied_head=a.tied, kv_heads=a.kv_heads if a.kv_heads != a.heads else 0,
        head_dim=a.head_dim if a.head_dim * a.heads != a.hidden else 0,
        experts=a.experts, experts_per_token=a.experts_per_token,
        expert_intermediate=a.expert_intermediate if a.experts else 0,
        shared_expert_intermediate=a.shared_expert_intermediate, moe_layers=a.moe_layers,
        inactive_params=float(total - active),
        patch_size=a.patch_size, image_size=a.image_size or 224, classes=a.classes or 1000,
        encoder_decoder=a.model_type == "t5", model_type=a.model_type, title=title,
        default_batch=default_batch or (32 if vision else 1 if a.decoder and total > 1e9 else 8 if a.decoder else 32))


# -- a user's config.json ------------------------------------------------------------------------------
def read_hf_config(path: Path, shown: str | None = None) -> ModelSpec:
    """A Hugging Face config.json on disk as a :class:`ModelSpec`, its parameters counted from the config.

    Raises :class:`ConfigError` (the file as ``shown``, the field, the reason): missing, unreadable, too
    large, not JSON, not an object, without the fields needed or of an unknown architecture."""
    where = shown or str(path)
    try:
        size = path.stat().st_size
        if size > MAX_CONFIG_BYTES:
            raise ConfigError(where, "", _m(_TOO_BIG, size=size, limit=MAX_CONFIG_BYTES))
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(where, "", _m(_NOT_FOUND)) from None
    except OSError as exc:
        raise ConfigError(where, "", _m(_UNREADABLE, reason=exc.strerror or type(exc).__name__)) from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise ConfigError(where, "", _m(_UNREADABLE, reason=str(exc.reason))) from None
    except json.JSONDecodeError as exc:
        raise ConfigError(where, "", _m(_NOT_JSON, error=exc.msg, line=exc.lineno)) from None
    except (RecursionError, ValueError):
        raise ConfigError(where, "", _m(_NOT_JSON, error="too deep or too long a number", line=1)) from None
    arch = parse_config(data, where)
    name = data.get("_name_or_path") if isinstance(data.get("_name_or_path"), str) else ""
    return arch_spec(arch, "hf_config", where, title=(name or path.parent.name or path.name)[:200])


# -- the catalogue ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ModelRecord:
    """One entry of db/models: the spec the estimators use and what the record says about its sources."""

    id: str
    name: str
    spec: ModelSpec
    source: str
    read_from: str
    file: str
    hf_id: str = ""
    params_published: float | None = None
    params_source: str = ""
    active_params_published: float | None = None
    params_basis: str = "config"  # "config": counted from config.json by config_params; "published": as stated
    unverified: tuple[str, ...] = ()
    note: str = ""
    config: Mapping[str, Any] = field(default_factory=dict)

    @property
    def family(self) -> str:
        return self.spec.family

    def to_json(self) -> dict[str, Any]:
        s = self.spec
        return {
            "id": self.id, "name": self.name, "family": s.family, "model_type": s.model_type or None,
            "params": s.params, "active_params": s.active_params if s.experts else None,
            "params_published": self.params_published,
            "active_params_published": self.active_params_published,
            "params_source": self.params_source or None,
            "params_basis": self.params_basis,
            "layers": s.layers or None, "hidden": s.hidden or None, "heads": s.heads or None,
            "kv_heads": (s.kv_heads or s.heads) or None, "head_dim": s.attention_head_dim or None,
            "intermediate": s.ffn if s.hidden else None, "vocab": s.vocab or None, "context": s.context or None,
            "tied_embeddings": s.tied_head if s.is_transformer else None, "decoder": s.decoder,
            "experts": s.experts or None, "experts_per_token": s.experts_per_token or None,
            "expert_intermediate": s.expert_intermediate or None,
            "patch_size": s.patch_size or None, "image_size": s.image_size if s.family != "transformer"
            or s.patch_size else None, "gmacs_224": s.gmacs_224 if s.gmacs_224 and not s.gmacs_pixels else None,
            "arch": s.arch or None, "image_width": s.image_width or None,
            "gmacs": s.gmacs_224 if s.gmacs_pixels else None, "frozen_params": s.frozen_params or None,
            "throughput_estimated": s.compute_known,
            "hf_id": self.hf_id or None, "source": self.source, "read_from": self.read_from or None,
            "file": self.file, "unverified": list(self.unverified), "note": self.note or None,
        }


_RECORD_KEYS = ("id", "name", "family", "hf_id", "source", "read_from", "params_published", "params_source",
                "unverified", "note", "default_batch", "config", "params", "gmacs_224", "blocks", "bottleneck",
                "image_size", "params_basis", "active_params_published", "arch", "image_width", "gmacs",
                "gmacs_at", "classes", "unet", "transformer", "frozen_params", "vae_params", "text_params",
                "trainable_backbone_layers", "frozen_bn", "default_steps")
_UNET_KEYS = ("channels", "attention", "depth", "layers", "heads", "head_channels", "context_dim",
              "linear_projection", "vae_channels")
# a Flux-class transformer's [model.transformer]: diffusers' FluxTransformer2DModel config keys, the T5 context's
# max_sequence_length and the VAE's latent channels
_FLUX_KEYS = ("num_layers", "num_single_layers", "num_attention_heads", "attention_head_dim", "joint_attention_dim",
              "in_channels", "guidance_embeds", "max_sequence_length", "latent_channels")
ARCHS = ("fasterrcnn", "maskrcnn", "retinanet", "yolo", "detr")


def _record(item: Any, file: str, index: int) -> ModelRecord:
    where = f"model[{index}]"
    if not isinstance(item, Mapping):
        raise ConfigError(file, where, _m(_NOT_OBJECT, got=type(item).__name__))
    f = _Fields(item, file, f"{where}.")
    rid = f.text("id")
    f.prefix = f"{rid}."
    for key in item:
        if key not in _RECORD_KEYS:
            raise f.fail(key, _CHOICE, choices=", ".join(_RECORD_KEYS), got=key)
    family = f.text("family")
    if family not in FAMILIES:
        raise f.fail("family", _CHOICE, choices=", ".join(FAMILIES), got=family)
    source = f.text("source")
    if not source.startswith("https://"):
        raise f.fail("source", _NEEDS_SOURCE)
    read_from = f.text("read_from", "")
    if read_from and not read_from.startswith("https://"):
        raise f.fail("read_from", _NEEDS_SOURCE)
    unverified = item.get("unverified", [])
    if not isinstance(unverified, list) or not all(isinstance(u, str) for u in unverified):
        raise f.fail("unverified", _NOT_TEXT)
    published = f.number("params_published") if item.get("params_published") is not None else None
    active_published = f.number("active_params_published") \
        if item.get("active_params_published") is not None else None
    batch = f.integer("default_batch", 0) if item.get("default_batch") is not None else None
    name = f.text("name")
    if family == "transformer":
        config = item.get("config")
        if not isinstance(config, Mapping):
            raise f.fail("config", _MISSING)
        arch = parse_config(config, file)
        basis = f.text("params_basis", "config")
        if basis not in ("config", "published"):
            raise f.fail("params_basis", _CHOICE, choices="config, published", got=basis)
        if basis == "published" and published is None:
            raise f.fail("params_published", _MISSING)
        spec = arch_spec(arch, rid, source, params=published if basis == "published" else None,
                         default_batch=batch, title=name)
    else:
        config, basis = {}, "published"
        params = f.number("params")
        gmacs = f.number("gmacs_224") if item.get("gmacs_224") is not None else 0.0
        blocks = item.get("blocks", [])
        if not isinstance(blocks, list) or not all(isinstance(b, int) and not isinstance(b, bool) and b > 0
                                                   for b in blocks):
            raise f.fail("blocks", _NOT_INT, got=_short(blocks))
        extra = {"gmacs_224": gmacs, **_vision_fields(f, family)}
        if item.get("default_steps") is not None:  # a diffusion pipeline's own number of steps
            extra["default_steps"] = f.integer("default_steps")
        spec = ModelSpec(rid, family, params, source, blocks=tuple(blocks),  # type: ignore[arg-type]
                         bottleneck=f.flag("bottleneck", False), image_size=f.integer("image_size", 224),
                         default_batch=batch or 32, title=name, **extra)
    return ModelRecord(rid, name, spec, source, read_from, file, f.text("hf_id", ""), published,
                       f.text("params_source", ""), active_published, basis, tuple(unverified),
                       f.text("note", ""), dict(config))


def _int_list(f: _Fields, key: str, n: int | None = None) -> tuple[int, ...]:
    value = f.data.get(key)
    if not isinstance(value, list) or not value or (n is not None and len(value) != n) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
        raise f.fail(key, _NOT_INT, got=_short(value))
    return tuple(value)


def _vision_fields(f: _Fields, family: str) -> dict[str, Any]:
    """A detector's or diffusion model's fields: ``arch``, ``image_width``, ``gmacs`` at ``gmacs_at`` = [height,
    width] (the size its source counts at), ``classes``; a diffusion model's ``[model.unet]`` layout, the parts
    it runs frozen (``vae_params``, ``text_params``: the text encoders, 77 tokens a prompt)."""
    out: dict[str, Any] = {}
    if f.data.get("arch") is not None:
        arch = f.text("arch")
        if arch not in ARCHS:
            raise f.fail("arch", _CHOICE, choices=", ".join(ARCHS), got=arch)
        out["arch"] = arch
    if f.data.get("image_width") is not None:
        out["image_width"] = f.integer("image_width")
    if f.data.get("classes") is not None:
        out["classes"] = f.integer("classes")
    if f.data.get("trainable_backbone_layers") is not None:
        n = f.integer("trainable_backbone_layers")
        if not 0 <= n <= 5:
            raise f.fail("trainable_backbone_layers", _CHOICE, choices="0, 1, 2, 3, 4, 5", got=n)
        out["trainable_stages"] = n
    if f.data.get("frozen_bn") is not None:
        out["frozen_bn"] = f.flag("frozen_bn", False)
    if f.data.get("gmacs") is not None:
        at = _int_list(f, "gmacs_at", 2)
        out.update(gmacs_224=f.number("gmacs"), gmacs_pixels=float(at[0] * at[1]))
    if f.data.get("transformer") is not None:
        out.update(_flux_fields(f, family))
    unet = f.data.get("unet")
    if unet is not None:
        if family != "diffusion" or not isinstance(unet, Mapping):
            raise f.fail("unet", _NOT_OBJECT, got=type(unet).__name__)
        u = _Fields(unet, f.path, f"{f.prefix}unet.")
        for key in unet:
            if key not in _UNET_KEYS:
                raise u.fail(key, _CHOICE, choices=", ".join(_UNET_KEYS), got=key)
        channels = _int_list(u, "channels")
        attention = unet.get("attention")
        if not isinstance(attention, list) or len(attention) != len(channels) or not all(
                isinstance(a, bool) for a in attention):
            raise u.fail("attention", _NOT_BOOL)
        heads = u.integer("heads", 0) if unet.get("heads") is not None else 0
        head_channels = u.integer("head_channels", 0) if unet.get("head_channels") is not None else 0
        if not heads and not head_channels:
            raise u.fail("heads", _MISSING)
        out["unet"] = UNetLayout(channels, tuple(attention), _int_list(u, "depth", len(channels)),
                                 layers=u.integer("layers", 2), heads=heads, head_channels=head_channels,
                                 context_dim=u.integer("context_dim"),
                                 linear_projection=u.flag("linear_projection", False),
                                 vae_channels=_int_list(u, "vae_channels") if unet.get("vae_channels") else
                                 (128, 256, 512, 512))
        vae = f.number("vae_params")
        text = f.number("text_params")
        out.update(arch="unet", vae_params=vae, frozen_params=vae + text, text_gmacs=text * 77 / 1e9)
    return out


def _flux_fields(f: _Fields, family: str) -> dict[str, Any]:
    """A Flux-class transformer's ``[model.transformer]`` (FluxLayout), its VAE and text encoders (T5 on
    max_sequence_length tokens, CLIP on 77: the text encoders' MACs counted at max_sequence_length, CLIP's share
    over-counted, under 1 % of a pipeline call)."""
    cfg = f.data.get("transformer")
    if family != "diffusion" or not isinstance(cfg, Mapping):
        raise f.fail("transformer", _NOT_OBJECT, got=type(cfg).__name__)
    u = _Fields(cfg, f.path, f"{f.prefix}transformer.")
    for key in cfg:
        if key not in _FLUX_KEYS:
            raise u.fail(key, _CHOICE, choices=", ".join(_FLUX_KEYS), got=key)
    layout = FluxLayout(u.integer("num_layers"), u.integer("num_single_layers"), u.integer("num_attention_heads"),
                        u.integer("attention_head_dim"), context_dim=u.integer("joint_attention_dim"),
                        context_tokens=u.integer("max_sequence_length"), in_channels=u.integer("in_channels"),
                        latent_channels=u.integer("latent_channels"), guidance=u.flag("guidance_embeds", False))
    vae = f.number("vae_params")
    text = f.number("text_params")
    return {"unet": layout, "arch": "flux", "vae_params": vae, "frozen_params": vae + text,
            "text_gmacs": text * layout.context_tokens / 1e9}


def load_catalogue(folder: Path) -> dict[str, ModelRecord]:
    """Every record of every ``*.toml`` in ``folder``, by id; raises :class:`ConfigError` on the first bad one."""
    records: dict[str, ModelRecord] = {}
    for path in sorted(folder.glob("*.toml")):
        name = f"db/models/{path.name}"
        try:
            doc = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(name, "", _m(_NOT_TOML, error=str(exc))) from None
        items = doc.get("model", [])
        if not isinstance(items, list):
            raise ConfigError(name, "model", _m(_NOT_OBJECT, got=type(items).__name__))
        for i, item in enumerate(items):
            rec = _record(item, name, i)
            if rec.id in records:
                raise ConfigError(name, f"{rec.id}.id", _m(_DUPLICATE, id=rec.id, other=records[rec.id].file))
            records[rec.id] = rec
    # listed CNNs first (the planner's first choice stays resnet18), then transformers, then UNets; by size within
    rank = {"cnn": 0, "transformer": 1, "diffusion": 2}
    return dict(sorted(records.items(), key=lambda kv: (rank[kv[1].spec.family], kv[1].spec.params)))


@functools.cache
def catalogue() -> dict[str, ModelRecord]:
    """The shipped catalogue (db/models), read once per process."""
    from configurator.paths import DB_DIR

    return load_catalogue(DB_DIR / "models")


def throughput_note(spec: ModelSpec) -> Message | None:
    """The sentence saying why throughput is not estimated for this model, or None where it is."""
    if spec.compute_known:
        return None
    return _m(THROUGHPUT_NOT_ESTIMATED, name=spec.title or spec.name, params=spec.params / 1e6)
