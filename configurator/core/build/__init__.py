"""The build file (``configurator.build/1``): reading it with a path for every bad
field, resolving its parts against the catalogue, and writing it back.

What each key may hold (type, bounds, choices, the keys of each object) is declared once, in
core/schema_build.py; reading a file validates it with that declaration and words each verdict as the
build file's messages say it (:class:`_Checked`), in the order the reading below reaches the fields, and
adds the rules between keys (a custom model's sizes, a serving workload's load, a runtime's precisions, the
catalogue's parts and the per-category totals)."""

from __future__ import annotations

import dataclasses
import json
import math
import sys
import typing
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from configurator.core.estimate.cluster import INTERCONNECT_IDS
from configurator.core.estimate.quant import (
    FP8_DEFAULT_INFER_RUNTIME,
    FP8_MIN_CC,
    FP8_RUNTIMES,
    KERNEL_NEEDS,
    NO_FP8,
    QUANTS,
)
from configurator.core.estimate.quant import kernel_for as quant_kernel
from configurator.core.estimate.quant import needs as quant_needs
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.model_specs import KNOWN_MODELS, ModelSpec
from configurator.core.models import ConfigError, read_hf_config
from configurator.core.parts import (
    AnyPart,
    Case,
    Cooler,
    Cpu,
    FieldError,
    Gpu,
    Memory,
    Motherboard,
    Platform,
    Psu,
    Storage,
)
from configurator.core.schema import Problem, Schema, SchemaError, bounds_of, path_of, record_keys

FORMAT = "configurator.build/1"
TASKS = ("train", "infer")
# "serve": LLM inference under a serving load (core/estimate/serving.py): in the file ``task: serve`` with
# concurrency or request_rate and prompt_tokens / output_tokens; in a Workload task "infer" with those keys set.
FILE_TASKS = (*TASKS, "serve")
# Runtimes that serve: continuous batching and a paged KV cache (vLLM's PagedAttention, TensorRT-LLM's paged
# KV cache with in-flight batching). llama.cpp's server batches continuously but gives each of its -np slots a
# fixed share of one KV cache (not paged); transformers' generate and a compiled loop batch statically;
# exllamav2's dynamic generator is not modelled: those are refused for serving.
SERVE_RUNTIMES = ("vllm", "tensorrt-llm")
SERVE_DEFAULT_RUNTIME = "vllm"
MAX_CONCURRENCY = 65_536
MAX_REQUEST_RATE = 1_000_000.0  # requests/s
# fp8: the GEMMs in FP8 on FP8 tensor cores (compute capability >= 8.9), training (Transformer Engine, torchao
# float8) and inference (vLLM / TensorRT-LLM fp8, W8A8)
PRECISIONS = ("fp32", "amp", "bf16", "fp16", "int8", "int4", "fp8")
SHARDING = ("none", "zero1", "zero2", "zero3", "fsdp")
# sgd: with momentum. adamw-bf16: AdamW with its two states (and the update) in bf16, no fp32 master copy kept
# apart (torchao / "pure bf16" recipes); adamw8bit: bitsandbytes' blockwise 8-bit states; paged-adamw8bit: the
# same states in CUDA unified memory, paged to host RAM under memory pressure (bitsandbytes PagedAdamW8bit).
OPTIMIZERS = ("adamw", "adam", "adamw-bf16", "sgd", "sgd_nomomentum", "adamw8bit", "paged-adamw8bit")
# Memory options (FIT-1): attention kernel, fine-tuning method, offload, model parallelism.
ATTENTION = ("sdpa", "eager")  # sdpa: Hugging Face transformers' default since 4.36 (GPT-2, BERT, LLaMA)
FINETUNE = ("full", "lora", "qlora")
# optimizer: ZeRO-Offload / FSDP CPU offload of the optimizer states (and the step); activations: the tensors
# saved for backward go to pinned host memory (torch.autograd.graph.save_on_cpu); all: both.
OFFLOAD = ("none", "optimizer", "activations", "all")
# tensor / pipeline: one model split over the build's GPUs (Megatron-style tensor parallel, layer split);
# expert: a mixture-of-experts model's experts spread over the GPUs (expert parallel), attention replicated.
PARALLEL = ("none", "tensor", "pipeline", "expert")
# How the model is run. Inference: Hugging Face transformers' generate (eager), a torch.compile'd static-KV
# decode loop (gpt-fast style), vLLM, llama.cpp, ExLlamaV2, TensorRT-LLM. Training: eager PyTorch, or with
# torch.compile. None: the default for the task (DEFAULT_RUNTIME), stated beside every estimate.
INFER_RUNTIMES = ("transformers", "torch-compile", "vllm", "llama.cpp", "exllamav2", "tensorrt-llm")
TRAIN_RUNTIMES = ("pytorch", "torch-compile")
RUNTIMES = (*INFER_RUNTIMES, "pytorch")
# The sequence length a workload without seq_len runs at: the model's context, at most 4,096 tokens (Llama 2's
# context, the length fine-tuning recipes and the published fine-tuning measurements use). Llama 3.1's
# 131,072-token context is what it can read, not what a run is sized for: set seq_len for long-context work.
DEFAULT_SEQ_LEN = 4096
DEFAULT_RUNTIME = {"infer": "llama.cpp", "train": "pytorch"}
OS_CHOICES = ("ubuntu-24.04", "ubuntu-22.04", "ubuntu-20.04", "debian-12", "windows-11", "windows-10",
              "windows-wsl2", "other-linux")

# BUD-3 (M 四.1): AWS p3.2xlarge ~¥8000/month; hours and tariff are typical defaults, all editable.
DEFAULT_CLOUD_CNY_PER_MONTH = 8000.0
DEFAULT_HOURS_PER_DAY = 8.0
DEFAULT_ELECTRICITY_CNY_PER_KWH = 0.6

# -- Limits: what one build can hold, so no input can make the checker expand a quantity without bound. --
# A build file is a few hundred bytes and three levels deep; these leave room for any real one.
MAX_BUILD_FILE_BYTES = 1024 * 1024
MAX_DEPTH = 32
MAX_NAME_CHARS = 200  # also keeps the PDF title short enough to lay out at once
MAX_ID_CHARS = 200
MAX_PART_ENTRIES = 136  # one line per part; the category limits below add up to 134
MAX_ERRORS = 100  # problems reported for one file; the rest are counted
# Per category, counted in what the category holds: GPUs 16 (DGX-2 / HGX-2: 16 GPUs in one system), CPUs 8
# (8-socket servers), one board and one case (a build is one machine), memory 32 modules (2 sockets x 8
# channels x 2 DIMMs), drives 64 (a 60-bay storage server), PSUs 4 (2 + 2 redundant server supplies), CPU
# coolers 8 (one per CPU), GPU baseboards 2 (HGX-2: two 8-GPU boards).
PART_LIMITS: dict[str, int] = {"gpu": 16, "cpu": 8, "motherboard": 1, "memory": 32, "storage": 64, "psu": 4,
                               "case": 1, "cooler": 8, "platform": 2}
MAX_QTY = max(PART_LIMITS.values())  # a part not in the catalogue: the largest category limit
MAX_BUDGET_CNY = 100_000_000
MAX_CLOUD_CNY_PER_MONTH = 10_000_000  # a rack of 8-GPU cloud servers is about ¥2,000,000 a month
MAX_ELECTRICITY_CNY_PER_KWH = 10  # tariffs are ¥0.3-1.5/kWh
MAX_DATASET_GB = 1_000_000  # 1 PB
MAX_CHECKPOINTS_KEPT = 1000
MAX_PARAMS = 10**13  # ten trillion; the largest published models have about 2 trillion
WORKLOAD_INT_LIMITS: dict[str, int] = {
    "batch_size": 65_536,  # the largest published training batches (LAMB, BERT) are 64 Ki
    "seq_len": 1_048_576,  # 1 Mi tokens, the longest contexts offered
    "layers": 1_024, "hidden": 65_536, "heads": 1_024, "vocab": 1_048_576, "image_size": 8_192,
    "steps": 1_000,  # a diffusion sampler's denoising steps (DDPM's schedule has 1,000)
}
# diffusers' StableDiffusionPipeline / StableDiffusionXLPipeline.__call__: num_inference_steps = 50
DEFAULT_DIFFUSION_STEPS = 50


@dataclass(frozen=True)
class BuildPart:
    id: str
    qty: int = 1
    used: bool = False


@dataclass(frozen=True)
class Options:
    nvlink_bridge: bool = False
    cloud_cny_per_month: float = DEFAULT_CLOUD_CNY_PER_MONTH
    hours_per_day: float = DEFAULT_HOURS_PER_DAY
    electricity_cny_per_kwh: float = DEFAULT_ELECTRICITY_CNY_PER_KWH
    os: str = "ubuntu-24.04"
    display_gpu: bool = False  # the first GPU also drives the desktop's display (FIT-1 counts what it takes)


@dataclass(frozen=True)
class Workload:
    model: str
    task: str
    precision: str = "fp32"
    batch_size: int | None = None
    seq_len: int | None = None
    optimizer: str | None = None
    grad_checkpointing: bool = False
    sharding: str = "none"
    dataset_gb: float | None = None
    # Checkpoints the run keeps on disk (BAL-4); None: the default per model (rules/bal.py's
    # default_checkpoints: 2 for training, the latest and the best; 0 for inference).
    checkpoints_kept: int | None = None
    # model: "custom"
    family: str | None = None
    params: float | None = None
    layers: int | None = None
    hidden: int | None = None
    heads: int | None = None
    vocab: int | None = None
    image_size: int | None = None
    # memory options (FIT-1)
    attention: str = "sdpa"
    finetune: str = "full"
    lora_rank: int = 16
    offload: str = "none"
    parallel: str = "none"
    runtime: str | None = None  # None: DEFAULT_RUNTIME[task]
    # inference: the weights' format (a key of core/estimate/quant.py QUANTS); None: the precision's bit width
    quant: str | None = None
    optimizer_in_backward: bool = False  # the optimizer steps each parameter in backward: no stored gradients
    chunked_ce: bool = False  # the loss is computed over chunks of the sequence: no full-vocabulary logits kept
    steps: int | None = None  # diffusion inference: denoising steps per image (None: DEFAULT_DIFFUSION_STEPS)
    # serving (the file's ``task: serve``): the load, as clients in flight (concurrency) or arrivals per second
    # (request_rate, Poisson), and each request's mean prompt and generated tokens
    concurrency: int | None = None
    request_rate: float | None = None
    prompt_tokens: int | None = None
    output_tokens: int | None = None
    # model {"hf_config": path}: a Hugging Face config.json, relative to the working directory (model "hf_config")
    hf_config: str | None = None

    def spec(self) -> ModelSpec:
        cached: ModelSpec | None = self.__dict__.get("_spec")
        if cached is None:
            cached = self._make_spec()
            object.__setattr__(self, "_spec", cached)  # frozen: cache beside the fields
        return cached

    def _make_spec(self) -> ModelSpec:
        if self.hf_config is not None:
            base = read_hf_config(Path(self.hf_config), self.hf_config)
            return dataclasses.replace(base, image_size=self.image_size or base.image_size)
        if self.model != "custom":
            base = KNOWN_MODELS[self.model]
            size = self.image_size or base.image_size
            # a non-square input (a detector's 800 × 1333) keeps its aspect ratio when image_size sets its short side
            width = round(base.image_width * size / base.image_size) if base.image_width else 0
            steps = (self.steps or DEFAULT_DIFFUSION_STEPS) if base.unet is not None and self.task == "infer" else 0
            return dataclasses.replace(base, image_size=size, image_width=width, steps=steps)
        assert self.params is not None
        if self.family == "transformer":
            return ModelSpec("custom", "transformer", self.params, "", layers=self.layers or 1,
                             hidden=self.hidden or 1, heads=self.heads or 1, vocab=self.vocab or 0,
                             context=self.seq_len or 1024, decoder=True, default_batch=8)
        return ModelSpec("custom", "cnn", self.params, "", image_size=self.image_size or 224,
                         gmacs_224=4.09 * self.params / 25.56e6, default_batch=32)

    @property
    def serving(self) -> bool:
        """A serving workload (the file's ``task: serve``): LLM inference under a load of requests."""
        return self.task == "infer" and (self.concurrency is not None or self.request_rate is not None)

    @property
    def effective_batch(self) -> int:
        if self.batch_size is not None:
            return self.batch_size
        spec = self.spec()
        if self.task == "infer" and spec.decoder:
            return 1
        return spec.default_batch

    @property
    def effective_seq_len(self) -> int:
        spec = self.spec()
        if spec.family != "transformer":
            return 1
        if spec.patch_size:  # a vision transformer: one token per patch, plus the class token
            return (spec.image_size // spec.patch_size) ** 2 + 1
        if self.serving and self.prompt_tokens and self.output_tokens:
            return self.prompt_tokens + self.output_tokens  # one request's full length (FIT-1: one must fit)
        return self.seq_len or min(spec.context, DEFAULT_SEQ_LEN)

    @property
    def throughput_unit(self) -> str:
        """What the planner counts for this workload: images (CNN, ViT, diffusion), tokens (GPT) or sequences
        (BERT, T5) per second."""
        spec = self.spec()
        if spec.family != "transformer" or spec.patch_size:
            return "img/s"
        return "tokens/s" if spec.decoder else "sequences/s"

    @property
    def effective_runtime(self) -> str:
        """The stated runtime, else the default of the task: a quantised format's usual runtime (GGUF llama.cpp,
        AWQ/GPTQ/bitsandbytes transformers, torchao torch.compile, fp8 vLLM), else DEFAULT_RUNTIME."""
        if self.runtime:
            return self.runtime
        if self.serving:
            return SERVE_DEFAULT_RUNTIME
        if self.task == "infer" and self.quant in QUANTS:
            return QUANTS[self.quant].default_runtime
        if self.task == "infer" and self.precision == "fp8":
            return FP8_DEFAULT_INFER_RUNTIME
        return DEFAULT_RUNTIME.get(self.task, "pytorch")

    @property
    def effective_optimizer(self) -> str:
        if self.optimizer:
            return self.optimizer
        return "sgd" if self.spec().family == "cnn" else "adamw"  # diffusers' training scripts: AdamW


@dataclass(frozen=True)
class Cluster:
    """``nodes`` machines like this build, joined by ``interconnect`` (a key of
    :data:`configurator.core.estimate.cluster.INTERCONNECTS`)."""

    nodes: int
    interconnect: str


@dataclass(frozen=True)
class Build:
    parts: tuple[BuildPart, ...]
    name: str = ""
    budget_cny: float | None = None
    options: Options = field(default_factory=Options)
    workload: Workload | None = None
    cluster: Cluster | None = None  # the build is one node of it


class BuildError(ValueError):
    """Unusable build input: every problem with the path of its field."""

    def __init__(self, errors: list[FieldError]):
        self.errors = errors
        super().__init__("; ".join(e.render() for e in errors))


class BuildFileError(BuildError):
    """The file itself is unusable (size, encoding, JSON syntax, nesting): each path is ``""`` (the whole
    file) or ``line:column``."""


def _m(template: str, **params: Any) -> Message:
    return Message("build", template, params)


_POSITIVE_INT = QT_TRANSLATE_NOOP("build", "must be a positive integer")
_POSITIVE_NUMBER = QT_TRANSLATE_NOOP("build", "must be a number greater than 0")
_AT_MOST = QT_TRANSLATE_NOOP("build", "must be at most {high:,}")
_TOO_MANY = QT_TRANSLATE_NOOP("build", "{what}: at most {limit} in one build, this one has {n}")
_TOO_MANY_ENTRIES = QT_TRANSLATE_NOOP("build", "must list at most {high} parts, not {n:,}")
_TOO_LONG = QT_TRANSLATE_NOOP("build", "must be at most {high} characters, not {n:,}")
_BAD_CHAR = QT_TRANSLATE_NOOP("build", "must not contain {char} (character {pos}): control, "
                                       "bidirectional-override and unpaired surrogate characters are not allowed")
_MORE_ERRORS = QT_TRANSLATE_NOOP("build", "{n:,} more problems not shown")
_FILE_TOO_BIG = QT_TRANSLATE_NOOP("build", "is too large: a build file may be at most {limit:,} bytes")
_TOO_DEEP = QT_TRANSLATE_NOOP("build", "is nested too deeply: a build file may be at most {limit} levels deep")
_TOO_MANY_DIGITS = QT_TRANSLATE_NOOP("build", "has a number with more than {limit:,} digits")
# The CLI's own wording for these two (context "cli"), kept so their translations stay.
_NOT_UTF8 = QT_TRANSLATE_NOOP("cli", "is not UTF-8 text")
_NOT_JSON = QT_TRANSLATE_NOOP("cli", "not valid JSON: {error}")
CATEGORY_WORDS: dict[str, str] = {
    "gpu": QT_TRANSLATE_NOOP("build", "GPUs"),
    "cpu": QT_TRANSLATE_NOOP("build", "CPUs"),
    "motherboard": QT_TRANSLATE_NOOP("build", "motherboards"),
    "memory": QT_TRANSLATE_NOOP("build", "memory modules"),
    "storage": QT_TRANSLATE_NOOP("build", "drives"),
    "psu": QT_TRANSLATE_NOOP("build", "power supplies"),
    "case": QT_TRANSLATE_NOOP("build", "cases"),
    "cooler": QT_TRANSLATE_NOOP("build", "CPU coolers"),
    "platform": QT_TRANSLATE_NOOP("build", "GPU baseboards"),
}
_NONNEG_NUMBER = QT_TRANSLATE_NOOP("build", "must be a number, zero or more")
_BOOL = QT_TRANSLATE_NOOP("build", "must be true or false")
_TEXT = QT_TRANSLATE_NOOP("build", "must be text")
_OBJECT = QT_TRANSLATE_NOOP("build", "must be an object")
_LIST = QT_TRANSLATE_NOOP("build", "must be a list")
_UNKNOWN_KEY = QT_TRANSLATE_NOOP("build", "unknown key (allowed: {allowed})")
_REQUIRED = QT_TRANSLATE_NOOP("build", "is required")
_CHOICE = QT_TRANSLATE_NOOP("build", "must be one of {choices}, not {got!r}")
_UNKNOWN_PART = QT_TRANSLATE_NOOP("build", "no part {id!r} in the catalogue (`configurator parts list` shows the ids)")
_FORMAT = QT_TRANSLATE_NOOP("build", "must be {expected!r}, not {got!r}")
_HOURS = QT_TRANSLATE_NOOP("build", "must be between 0 and 24")
_CUSTOM_NEEDS = QT_TRANSLATE_NOOP("build", "a custom model needs {what}")
_ONLY_CUSTOM = QT_TRANSLATE_NOOP("build", "only a custom model takes {key}")
_INT4_TRAIN = QT_TRANSLATE_NOOP("build", "{precision} is for inference; training needs fp32, amp, bf16, fp16 or fp8")


_BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
_REFUSED_CATEGORIES = ("Cc", "Cs", "Zl", "Zp")  # controls (NUL, newline, escape …), lone surrogates, line breaks


def refused_character(text: str) -> tuple[int, str] | None:
    """The first character a name may not hold (position, character): a control character, an unpaired
    surrogate, a line or paragraph separator, or a bidirectional embedding, override or isolate
    (U+202A–U+202E, U+2066–U+2069), which could make a name print as something else."""
    for i, ch in enumerate(text):
        if ch in _BIDI_CONTROLS or unicodedata.category(ch) in _REFUSED_CATEGORIES:
            return i, ch
    return None


def short_repr(value: Any, width: int = 40) -> str:
    """A bounded, escaped rendering of any input value for a message: never the whole of a long text,
    never a raw control or bidi character (repr escapes them), never a 5,000-digit number."""
    if isinstance(value, str):
        return repr(value[:width]) + ("…" if len(value) > width else "")
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        if -10**width < value < 10**width:
            return repr(value)
        return f"{'-' if value < 0 else ''}≈1e{int(math.log10(abs(value)))}"  # log10 takes any int
    if isinstance(value, list):
        return "[…]"
    if isinstance(value, Mapping):
        return "{…}"
    return type(value).__name__


class _Shown:
    """A value in a message template (``{got!r}``): its repr is :func:`short_repr`."""

    def __init__(self, value: Any):
        self.value = value

    def __repr__(self) -> str:
        return short_repr(self.value)

    def __str__(self) -> str:
        return short_repr(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Shown) and short_repr(other.value) == short_repr(self.value)

    def __hash__(self) -> int:
        return hash(short_repr(self.value))


def _key_path(path: str, key: Any) -> str:
    """The path of a key in an object; a key that is not a plain name is shown escaped and shortened."""
    if isinstance(key, str) and 0 < len(key) <= 40 and all(c.isascii() and (c.isalnum() or c in "_-") for c in key):
        return f"{path}.{key}" if path else key
    return f"{path}[{short_repr(key)}]"


class _Checked:
    """A build file's problems in the order a user reads them. Whether a value has its key's type, bounds and
    choices, and which keys an object may have, is the schema's verdict (core/schema_build.py, the one
    declaration of the file); each method words the verdict on one field as the build file words it, where
    the reading of the file reaches that field, and the rules between keys add theirs with :meth:`err`."""

    def __init__(self) -> None:
        self.errors: list[FieldError] = []
        self._at: dict[str, list[Problem]] = {}
        self._unknown: set[tuple[str, str]] = set()

    def check(self, schema: Schema[Any], value: Any, prefix: str) -> None:
        """Validate ``value`` (found at ``prefix``) with ``schema``: its verdicts wait for the reading below."""
        try:
            schema.validate(value)
        except SchemaError as exc:
            for p in exc.problems:
                if p.kind == "unknown":
                    self._unknown.add((path_of(p.loc[:-1], prefix), str(p.loc[-1])))
                elif p.kind != "missing":  # a missing key: the reading says so where it needs it
                    self._at.setdefault(path_of(p.loc, prefix), []).append(p)

    def drop(self, path: str) -> None:
        """Forget the verdicts on a value read on its own (a workload's model: an id, or an object checked
        with its own schema)."""
        self._at = {k: v for k, v in self._at.items() if not (k == path or k.startswith((path + ".", path + "[")))}
        self._unknown = {u for u in self._unknown if not (u[0] == path or u[0].startswith(path + "."))}

    def _verdict(self, path: str) -> Problem | None:
        found = self._at.pop(path, None)
        return found[0] if found else None

    def err(self, path: str, template: str, **params: Any) -> None:
        self.errors.append(FieldError(path, _m(template, **params)))

    def obj(self, value: Any, path: str, keys: tuple[str, ...]) -> Mapping[str, Any] | None:
        """An object: each key the declaration does not have (``keys``) named, in the file's order."""
        self._verdict(path)
        if not isinstance(value, Mapping):
            self.err(path, _OBJECT)
            return None
        for key in value:
            if (path, key) in self._unknown or not isinstance(key, str):
                self.err(_key_path(path, key), _UNKNOWN_KEY, allowed=", ".join(keys))
        return value

    def positive_int(self, value: Any, path: str, bounded: bool = True) -> int | None:
        """A whole number from 1 to its declared bound (``bounded`` False: the caller bounds it instead)."""
        problem = self._verdict(path)
        if problem is not None and problem.kind == "bound":
            if not bounded:
                return typing.cast(int, value)
            self.err(path, _AT_MOST, high=problem.expected)
            return None
        if problem is not None or value is None:
            self.err(path, _POSITIVE_INT)
            return None
        return typing.cast(int, value)

    def number(self, value: Any, path: str, positive: bool = False, over: str = _AT_MOST) -> float | None:
        """A finite number, zero or more (``positive``: above zero), up to its declared bound (``over``: the
        words for a number above it)."""
        problem = self._verdict(path)
        # 10**309: too large for a float, so a type problem; infinity is above a bound with its own words (hours)
        if problem is not None and (problem.kind == "bound" or (type(value) is int and value > 0) or (
                over is not _AT_MOST and value == math.inf)):
            bound = problem.expected if problem.kind == "bound" else (
                bounds_of(problem.owner).get(problem.field) if problem.owner is not None else None)
            self.err(path, over, high=bound)
            return None
        if problem is not None or value is None:
            self.err(path, _POSITIVE_NUMBER if positive else _NONNEG_NUMBER)
            return None
        return float(value)

    def boolean(self, value: Any, path: str) -> bool | None:
        if self._verdict(path) is not None or value is None:
            self.err(path, _BOOL)
            return None
        return typing.cast(bool, value)

    def choice(self, value: Any, path: str, choices: tuple[str, ...]) -> str | None:
        """One of the declared choices; ``choices``: those this workload may take (a training run's runtimes
        are fewer than the declaration's)."""
        if self._verdict(path) is not None or value is None or value not in choices:
            self.err(path, _CHOICE, choices=", ".join(choices), got=_Shown(value))
            return None
        return typing.cast(str, value)

    def text(self, value: Any, path: str) -> str | None:
        """Text up to its declared length that prints as itself (see :func:`refused_character`)."""
        problem = self._verdict(path)
        if not isinstance(value, str):
            self.err(path, _TEXT)
            return None
        if problem is not None and problem.kind == "bound":
            self.err(path, _TOO_LONG, high=problem.expected, n=len(value))
            return None
        bad = refused_character(value)  # a lone surrogate the schema refuses as text is named here
        if bad is not None:
            self.err(path, _BAD_CHAR, char=f"U+{ord(bad[1]):04X}", pos=bad[0] + 1)
            return None
        if problem is not None:
            self.err(path, _TEXT)
            return None
        return value


def _capped(errors: list[FieldError]) -> list[FieldError]:
    if len(errors) <= MAX_ERRORS:
        return errors
    return [*errors[:MAX_ERRORS], FieldError("", _m(_MORE_ERRORS, n=len(errors) - MAX_ERRORS))]


def _depth(value: Any) -> int:
    """How deeply lists and objects nest (a scalar: 0), without recursion; stops counting past MAX_DEPTH."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(item, Mapping):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def load_build_json(raw: bytes) -> Any:
    """The bytes of a build file as a JSON value, bounded in size and depth.

    Raises :class:`BuildFileError`."""
    def fail(path: str, template: str, **params: Any) -> BuildFileError:
        return BuildFileError([FieldError(path, _m(template, **params))])

    if len(raw) > MAX_BUILD_FILE_BYTES:
        raise fail("", _FILE_TOO_BIG, limit=MAX_BUILD_FILE_BYTES)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BuildFileError([FieldError("", Message("cli", _NOT_UTF8))]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BuildFileError([FieldError(f"{exc.lineno}:{exc.colno}",
                                          Message("cli", _NOT_JSON, {"error": exc.msg}))]) from None
    except RecursionError:
        raise fail("", _TOO_DEEP, limit=MAX_DEPTH) from None
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise fail("", _TOO_MANY_DIGITS, limit=_int_max_digits()) from None
    if _depth(data) > MAX_DEPTH:
        raise fail("", _TOO_DEEP, limit=MAX_DEPTH)
    return data


def _int_max_digits() -> int:
    get = getattr(sys, "get_int_max_str_digits", None)
    return int(get()) if get is not None else 4300


def parse_build(data: Any, catalogue: Mapping[str, AnyPart]) -> Build:
    """Validate a build document; raise :class:`BuildError` listing every problem.

    Every count and size is bounded here (PART_LIMITS, WORKLOAD_INT_LIMITS, MAX_*), before anything
    expands a quantity (:attr:`Resolved.gpu_list` makes one entry per GPU)."""
    from configurator.core.schema_build import BUILD_SCHEMA, BuildDocument

    r = _Checked()
    r.check(BUILD_SCHEMA, data, "")
    r.drop("workload.model")
    top = r.obj(data, "", record_keys(BuildDocument))
    if top is None:
        raise BuildError(r.errors)
    if "format" not in top:
        r.err("format", _REQUIRED)
    elif top["format"] != FORMAT:
        r.err("format", _FORMAT, expected=FORMAT, got=_Shown(top["format"]))
    name = ""
    if "name" in top:
        name = r.text(top["name"], "name") or ""
    budget = None
    if top.get("budget_cny") is not None:
        budget = r.number(top["budget_cny"], "budget_cny")

    parts: list[BuildPart] = []
    if "parts" not in top:
        r.err("parts", _REQUIRED)
    elif not isinstance(top["parts"], list):
        r.err("parts", _LIST)
    elif len(top["parts"]) > MAX_PART_ENTRIES:
        r.err("parts", _TOO_MANY_ENTRIES, high=MAX_PART_ENTRIES, n=len(top["parts"]))
    else:
        parts = _parts(r, top["parts"], catalogue)

    options = Options()
    if "options" in top:
        from configurator.core.schema_build import OptionsEntry

        o = r.obj(top["options"], "options", record_keys(OptionsEntry))
        if o is not None:
            kw: dict[str, Any] = {}
            if "nvlink_bridge" in o and (v := r.boolean(o["nvlink_bridge"], "options.nvlink_bridge")) is not None:
                kw["nvlink_bridge"] = v
            for key in ("cloud_cny_per_month", "electricity_cny_per_kwh"):
                if key in o and (n := r.number(o[key], f"options.{key}")) is not None:
                    kw[key] = n
            if "hours_per_day" in o and (n := r.number(o["hours_per_day"], "options.hours_per_day",
                                                      over=_HOURS)) is not None:
                kw["hours_per_day"] = n
            if "os" in o and (c := r.choice(o["os"], "options.os", OS_CHOICES)) is not None:
                kw["os"] = c
            # FIT-1's display option (a separate block: the fields above keep their own handling)
            if "display_gpu" in o and (v := r.boolean(o["display_gpu"], "options.display_gpu")) is not None:
                kw["display_gpu"] = v
            options = Options(**kw)

    workload = _workload(r, top["workload"]) if top.get("workload") is not None else None
    if workload is not None:  # what the workload asks of the build's cards (fp8, a kernel's compute capability)
        r.errors.extend(gpu_errors(workload, [g for p in parts if isinstance(g := catalogue.get(p.id), Gpu)]))
    cluster = _cluster(r, top["cluster"]) if top.get("cluster") is not None else None
    if r.errors:
        raise BuildError(_capped(r.errors))
    return Build(tuple(parts), name, budget, options, workload, cluster)


def _cluster(r: _Checked, value: Any) -> Cluster | None:
    from configurator.core.schema_build import ClusterEntry

    c = r.obj(value, "cluster", record_keys(ClusterEntry))
    if c is None:
        return None
    nodes = interconnect = None
    for key in ("nodes", "interconnect"):
        if key not in c:
            r.err(f"cluster.{key}", _REQUIRED)
    if "nodes" in c:
        nodes = r.positive_int(c["nodes"], "cluster.nodes")
    if "interconnect" in c:
        interconnect = r.choice(c["interconnect"], "cluster.interconnect", INTERCONNECT_IDS)
    return Cluster(nodes, interconnect) if nodes is not None and interconnect is not None else None


def _parts(r: _Checked, items: list[Any], catalogue: Mapping[str, AnyPart]) -> list[BuildPart]:
    from configurator.core.schema_build import PartEntry

    parts: list[BuildPart] = []
    counted: list[tuple[str, str, int]] = []  # (qty path, category, units: modules for memory, else qty)
    for i, item in enumerate(items):
        path = f"parts[{i}]"
        obj = r.obj(item, path, record_keys(PartEntry))
        if obj is None:
            continue
        if "id" not in obj:
            r.err(f"{path}.id", _REQUIRED)
            continue
        pid = r.text(obj["id"], f"{path}.id")
        if pid is None:
            continue
        part = catalogue.get(pid)
        if part is None:
            r.err(f"{path}.id", _UNKNOWN_PART, id=_Shown(pid))
        # A known part is bounded by its category's total below; any other by the largest limit.
        qty = r.positive_int(obj.get("qty", 1), f"{path}.qty", bounded=part is None)
        used = r.boolean(obj.get("used", False), f"{path}.used") or False
        if qty is not None and part is not None and part.category in PART_LIMITS:
            counted.append((f"{path}.qty", part.category, qty * (part.modules if isinstance(part, Memory) else 1)))
        parts.append(BuildPart(pid, qty or 1, used))
    totals: dict[str, int] = {}
    for _path, category, units in counted:
        totals[category] = totals.get(category, 0) + units
    running: dict[str, int] = {}
    for path, category, units in counted:
        before = running.get(category, 0)
        running[category] = before + units
        limit = PART_LIMITS[category]
        if before <= limit < running[category]:  # the entry that goes over names the category's total
            r.err(path, _TOO_MANY, what=Message("build", CATEGORY_WORDS[category]), limit=limit,
                  n=short_repr(totals[category]))
    return parts


_WORKLOAD_KEYS = tuple(f.name for f in dataclasses.fields(Workload) if f.name != "hf_config")
_CUSTOM_KEYS = ("family", "params", "layers", "hidden", "heads", "vocab")
HF_CONFIG = "hf_config"  # Workload.model of a workload that names a config.json
_UNKNOWN_MODEL = QT_TRANSLATE_NOOP("build", "no model {got} in the catalogue (`configurator models list` shows the "
                                            "ids; or \"custom\", or {{\"hf_config\": \"path/config.json\"}})")
_HF_CONFIG_PROBLEM = QT_TRANSLATE_NOOP("build", "{file}: {field}{problem}")


def _model(r: _Checked, value: Any, kw: dict[str, Any]) -> str | None:
    """workload.model: a catalogue id, "custom", or {"hf_config": path} (a Hugging Face config.json, read now,
    relative to the working directory)."""
    if isinstance(value, Mapping):
        from configurator.core.schema_build import HF_SCHEMA, HfConfigEntry

        r.check(HF_SCHEMA, value, "workload.model")
        obj = r.obj(value, "workload.model", record_keys(HfConfigEntry))
        if obj is None or HF_CONFIG not in obj:
            if obj is not None:
                r.err(f"workload.model.{HF_CONFIG}", _REQUIRED)
            return None
        path = r.text(obj[HF_CONFIG], f"workload.model.{HF_CONFIG}")
        if path is None:
            return None
        try:
            read_hf_config(Path(path), path)
        except ConfigError as exc:
            r.err(f"workload.model.{HF_CONFIG}", _HF_CONFIG_PROBLEM, file=exc.path,
                  field=f"{exc.field_name}: " if exc.field_name else "", problem=exc.message)
            return None
        kw[HF_CONFIG] = path
        return HF_CONFIG
    if not isinstance(value, str) or (value not in KNOWN_MODELS and value != "custom"):
        r.err("workload.model", _UNKNOWN_MODEL, got=_Shown(value))
        return None
    return value


def _workload(r: _Checked, value: Any) -> Workload | None:
    from configurator.core.schema_build import WorkloadEntry

    w = r.obj(value, "workload", record_keys(WorkloadEntry))
    if w is None:
        return None
    n_errors = len(r.errors)
    model = w.get("model")
    kw: dict[str, Any] = {}
    if "model" not in w:
        r.err("workload.model", _REQUIRED)
    else:
        model = _model(r, model, kw)
    task = None
    if "task" in w:
        task = r.choice(w["task"], "workload.task", FILE_TASKS)
        if task == "serve":
            _serving(r, w, kw, model)
            task = "infer"
    else:
        r.err("workload.task", _REQUIRED)
    if "precision" in w:
        kw["precision"] = r.choice(w["precision"], "workload.precision", PRECISIONS)
    for key in ("batch_size", "seq_len", "layers", "hidden", "heads", "vocab", "image_size", "steps"):
        if key in w:
            kw[key] = r.positive_int(w[key], f"workload.{key}")
    if "optimizer" in w:
        kw["optimizer"] = r.choice(w["optimizer"], "workload.optimizer", OPTIMIZERS)
    if "grad_checkpointing" in w:
        kw["grad_checkpointing"] = r.boolean(w["grad_checkpointing"], "workload.grad_checkpointing")
    if "sharding" in w:
        kw["sharding"] = r.choice(w["sharding"], "workload.sharding", SHARDING)
    if "dataset_gb" in w and w["dataset_gb"] is not None:
        kw["dataset_gb"] = r.number(w["dataset_gb"], "workload.dataset_gb")
    if "checkpoints_kept" in w and w["checkpoints_kept"] is not None:
        kept = w["checkpoints_kept"]  # 0 is allowed: a run that keeps none
        kw["checkpoints_kept"] = 0 if kept == 0 and not isinstance(kept, bool) else r.positive_int(
            kept, "workload.checkpoints_kept")
    if "params" in w:
        kw["params"] = r.number(w["params"], "workload.params", positive=True)
    if "family" in w:
        kw["family"] = r.choice(w["family"], "workload.family", ("cnn", "transformer"))
    if model == "custom":
        family = kw.get("family") or ("transformer" if "layers" in w or "hidden" in w else
                                      "cnn" if "image_size" in w else None)
        if family is None:
            r.err("workload.family", _CUSTOM_NEEDS, what="family (cnn or transformer), or its layers/image_size")
        kw["family"] = family
        if "params" not in w:
            r.err("workload.params", _CUSTOM_NEEDS, what="params")
        if family == "transformer":
            for key in ("layers", "hidden", "heads"):
                if key not in w:
                    r.err(f"workload.{key}", _CUSTOM_NEEDS, what=key)
    elif model is not None:
        for key in _CUSTOM_KEYS:
            if key in w:
                r.err(f"workload.{key}", _ONLY_CUSTOM, key=key)
    if task == "train" and kw.get("precision") in ("int8", "int4"):
        r.err("workload.precision", _INT4_TRAIN, precision=kw["precision"])
    if w.get("task") != "serve":
        for key in _SERVE_KEYS:
            if key in w:
                r.err(f"workload.{key}", _SERVE_ONLY, key=key)
    _memory_options(r, w, kw, model, task)
    if len(r.errors) > n_errors or model is None or task is None:
        return None
    return Workload(model=model, task=task, **{k: v for k, v in kw.items() if v is not None})


_SERVE_KEYS = ("concurrency", "request_rate", "prompt_tokens", "output_tokens")
_SERVE_ONLY = QT_TRANSLATE_NOOP("build", "{key} applies to task serve only")
_SERVE_LOAD = QT_TRANSLATE_NOOP("build", "a serving workload needs its load: concurrency (requests in flight) or "
                                         "request_rate (requests/s)")
_SERVE_BOTH = QT_TRANSLATE_NOOP("build", "give concurrency or request_rate, not both")
_SERVE_LENGTHS = QT_TRANSLATE_NOOP("build", "a serving workload needs {key} (mean tokens per request)")
_SERVE_NOT_KEY = QT_TRANSLATE_NOOP(
    "build", "{key} does not apply to task serve: its load is concurrency or request_rate with prompt_tokens and "
             "output_tokens")
_SERVE_RUNTIME = QT_TRANSLATE_NOOP(
    "build", "runtime {runtime} cannot serve: serving needs continuous batching and a paged KV cache ({allowed})")
_SERVE_MODEL = QT_TRANSLATE_NOOP("build", "task serve applies to generative (decoder) language models only")
_SERVE_PARALLEL = QT_TRANSLATE_NOOP(
    "build", "serving splits a model over the GPUs with parallel tensor, or runs a copy on each (none), not {got}")
_SERVE_QUANT = QT_TRANSLATE_NOOP(
    "build", "{quant} does not run in {runtime}, the runtime serving uses; {quant} runs in {allowed} (set "
             "workload.runtime)")


def _serving(r: _Checked, w: Mapping[str, Any], kw: dict[str, Any], model: str | None) -> None:
    """task serve: its load (concurrency or request_rate), its lengths, a runtime that serves, no training or
    batch keys."""
    if "concurrency" in w:
        kw["concurrency"] = r.positive_int(w["concurrency"], "workload.concurrency")
    if "request_rate" in w:
        kw["request_rate"] = r.number(w["request_rate"], "workload.request_rate", positive=True)
    if "concurrency" in w and "request_rate" in w:
        r.err("workload.request_rate", _SERVE_BOTH)
    elif "concurrency" not in w and "request_rate" not in w:
        r.err("workload.concurrency", _SERVE_LOAD)
    for key in ("prompt_tokens", "output_tokens"):
        if key in w:
            kw[key] = r.positive_int(w[key], f"workload.{key}")
        else:
            r.err(f"workload.{key}", _SERVE_LENGTHS, key=key)
    for key in ("batch_size", "seq_len"):
        if key in w:
            r.err(f"workload.{key}", _SERVE_NOT_KEY, key=key)
    for key in ("optimizer", "grad_checkpointing", "sharding", "lora_rank"):  # the others: _memory_options
        if key in w:
            r.err(f"workload.{key}", _TRAIN_ONLY, key=key)
    decoder = (model == HF_CONFIG or (model == "custom" and w.get("family", "transformer") == "transformer")
               or (model is not None and model in KNOWN_MODELS and KNOWN_MODELS[model].decoder))
    if model is not None and not decoder:
        r.err("workload.task", _SERVE_MODEL)
    runtime = w.get("runtime")
    if isinstance(runtime, str) and runtime in RUNTIMES and runtime not in SERVE_RUNTIMES:
        r.err("workload.runtime", _SERVE_RUNTIME, runtime=runtime, allowed=", ".join(SERVE_RUNTIMES))
    if w.get("parallel") in ("pipeline", "expert"):
        r.err("workload.parallel", _SERVE_PARALLEL, got=_Shown(w["parallel"]))
    quant = w.get("quant")
    used = runtime if isinstance(runtime, str) and runtime in SERVE_RUNTIMES else SERVE_DEFAULT_RUNTIME
    if isinstance(quant, str) and quant in QUANTS and used not in QUANTS[quant].kernels and "runtime" not in w:
        r.err("workload.quant", _SERVE_QUANT, quant=quant, runtime=used, allowed=", ".join(QUANTS[quant].kernels))


_TRAIN_ONLY = QT_TRANSLATE_NOOP("build", "{key} applies to training only")
_INFER_ONLY = QT_TRANSLATE_NOOP("build", "{key} applies to inference only; training divides memory with sharding")
_TRANSFORMER_ONLY = QT_TRANSLATE_NOOP("build", "{key} applies to transformer models only")
_DIFFUSION_INFER_ONLY = QT_TRANSLATE_NOOP(
    "build", "{key} applies to diffusion models' inference only (the denoising steps per image)")
_RUNTIME_PRECISION = QT_TRANSLATE_NOOP(
    "build", "runtime {runtime} cannot run precision {precision}; it runs {allowed} (set workload.precision)")
# The precisions (weight formats) each runtime runs; amp (PyTorch autocast over FP32 weights) is PyTorch's.
# transformers: any PyTorch dtype, bitsandbytes LLM.int8 / NF4 for int8 / int4; torch-compile: the same, int8 /
# int4 weight-only (gpt-fast: https://github.com/pytorch-labs/gpt-fast/blob/0f925b5d4ce457b89a7ca6c9ce50f42bf2576945/
# README.md); vLLM: --dtype {auto,half,float16,bfloat16,float,float32}, --quantization awq/gptq/fp8/marlin
# (https://docs.vllm.ai/en/v0.5.3/models/engine_args.html); llama.cpp: GGUF F32, F16, BF16, Q8_0, Q4_0/Q4_K_M;
# exllamav2: EXL2/GPTQ quantised weights only ("Float32/16 is not supported": https://github.com/premAI-io/
# benchmarks/blob/main/bench_exllamav2/README.md); TensorRT-LLM: FP32, FP16, BF16, INT8 weight-only /
# SmoothQuant, INT4 AWQ/GPTQ (https://nvidia.github.io/TensorRT-LLM/reference/precision.html).
RUNTIME_PRECISIONS: dict[str, tuple[str, ...]] = {
    "transformers": PRECISIONS,
    "torch-compile": PRECISIONS,
    "pytorch": PRECISIONS,
    "vllm": ("fp32", "bf16", "fp16", "int8", "int4", "fp8"),
    "llama.cpp": ("fp32", "bf16", "fp16", "int8", "int4"),
    "exllamav2": ("int8", "int4"),
    "tensorrt-llm": ("fp32", "bf16", "fp16", "int8", "int4", "fp8"),
}
# fp8 (FP8_RUNTIMES): PyTorch with Transformer Engine or torchao float8 (training and inference), vLLM's and
# TensorRT-LLM's fp8; transformers' generate and the GGUF / EXL2 runtimes have no FP8 GEMMs.
RUNTIME_PRECISIONS["transformers"] = tuple(p for p in PRECISIONS if p != "fp8")
assert all(("fp8" in v) == (k in FP8_RUNTIMES) for k, v in RUNTIME_PRECISIONS.items())


def _memory_options(r: _Checked, w: Mapping[str, Any], kw: dict[str, Any], model: str | None,
                    task: str | None) -> None:
    """The memory options (FIT-1): attention kernel, LoRA/QLoRA, optimizer offload, tensor/pipeline parallel."""
    if "attention" in w:
        kw["attention"] = r.choice(w["attention"], "workload.attention", ATTENTION)
    if "finetune" in w:
        kw["finetune"] = r.choice(w["finetune"], "workload.finetune", FINETUNE)
    if "lora_rank" in w:
        kw["lora_rank"] = r.positive_int(w["lora_rank"], "workload.lora_rank")
    if "offload" in w:
        kw["offload"] = r.choice(w["offload"], "workload.offload", OFFLOAD)
    if "parallel" in w:
        kw["parallel"] = r.choice(w["parallel"], "workload.parallel", PARALLEL)
    if "runtime" in w and w["runtime"] is not None:
        kw["runtime"] = r.choice(w["runtime"], "workload.runtime",
                                 TRAIN_RUNTIMES if task == "train" else INFER_RUNTIMES if task == "infer" else RUNTIMES)
    for key in ("optimizer_in_backward", "chunked_ce"):
        if key in w:
            kw[key] = r.boolean(w[key], f"workload.{key}")
    if task == "infer":
        for key, default in (("finetune", "full"), ("offload", "none"), ("optimizer_in_backward", False),
                             ("chunked_ce", False)):
            if kw.get(key) not in (None, default):
                r.err(f"workload.{key}", _TRAIN_ONLY, key=key)
    if task == "train" and kw.get("parallel") not in (None, "none"):
        r.err("workload.parallel", _INFER_ONLY, key="parallel")
    family = kw.get("family") if model == "custom" else (
        KNOWN_MODELS[model].family if model is not None and model in KNOWN_MODELS
        else "transformer" if model == HF_CONFIG else None)
    if (family == "cnn" and kw.get("finetune") in ("lora", "qlora")) or (
            family == "diffusion" and kw.get("finetune") == "qlora"):
        r.err("workload.finetune", _TRANSFORMER_ONLY, key="finetune")
    if "steps" in w and (family != "diffusion" or task != "infer"):
        r.err("workload.steps", _DIFFUSION_INFER_ONLY, key="steps")
    runtime = kw.get("runtime")
    precision = kw.get("precision") or (None if "precision" in w else Workload.precision)  # None: refused already
    quantised = w.get("quant") is not None  # the format's own check (_quant) says which runtimes run it
    if runtime in RUNTIME_PRECISIONS and precision is not None and precision not in RUNTIME_PRECISIONS[runtime] \
            and not quantised:
        r.err("workload.runtime", _RUNTIME_PRECISION, runtime=runtime, precision=precision,
              allowed=", ".join(RUNTIME_PRECISIONS[runtime]))
    if "quant" in w and w["quant"] is not None:
        _quant(r, w, kw, task, family, runtime)


def _quant(r: _Checked, w: Mapping[str, Any], kw: dict[str, Any], task: str | None, family: str | None,
           runtime: str | None) -> None:
    """workload.quant: a format of QUANTS, for LLM inference, in a runtime that runs it, with a precision
    that is its compute dtype (fp16, bf16) or its own bit width."""
    quant = r.choice(w["quant"], "workload.quant", tuple(QUANTS))
    if quant is None:
        return
    q = QUANTS[quant]
    if task == "train":
        r.err("workload.quant", _QUANT_TRAIN)
        return
    if family == "cnn":
        r.err("workload.quant", _TRANSFORMER_ONLY, key="quant")
        return
    if runtime is not None and runtime not in q.kernels:
        r.err("workload.quant", _QUANT_RUNTIME, runtime=runtime, quant=quant, allowed=", ".join(q.kernels))
        return
    precision = kw.get("precision")
    if "precision" in w and precision is not None and precision not in ("fp16", "bf16", q.width):
        r.err("workload.precision", _QUANT_PRECISION, quant=quant, width=q.width, precision=precision)
        return
    kw["quant"] = quant


_QUANT_TRAIN = QT_TRANSLATE_NOOP(
    "build", "quant applies to inference only; training on quantised weights is finetune qlora, in 8 bits precision "
             "fp8")
_QUANT_RUNTIME = QT_TRANSLATE_NOOP(
    "build", "runtime {runtime} cannot run {quant}; {quant} runs in {allowed} (set workload.runtime)")
_QUANT_PRECISION = QT_TRANSLATE_NOOP(
    "build", "{quant} stores {width} weights and computes in 16 bits: precision must be fp16, bf16 or {width}, "
             "not {precision}")


def gpu_errors(workload: Workload, gpus: Iterable[Gpu]) -> list[FieldError]:
    """What the workload asks of the build's GPUs that a card cannot do: precision fp8 without FP8 tensor cores
    (compute capability < 8.9), a quantised format whose kernel needs a newer card. One line per card model;
    cards whose compute capability the catalogue does not state (other vendors) are not judged."""
    out: list[FieldError] = []
    seen: set[str] = set()
    for g in gpus:
        if g.id in seen or not g.compute_capability or g.vendor != "nvidia":
            continue
        seen.add(g.id)
        cc = float(g.compute_capability)
        if workload.precision == "fp8" and cc < FP8_MIN_CC:
            out.append(FieldError("workload.precision", _m(NO_FP8, gpu=g.name, cc=g.compute_capability,
                                                           need=FP8_MIN_CC)))
        q = workload.quant
        if q is not None and workload.task == "infer" and quant_kernel(q, workload.effective_runtime, cc) is None:
            first = QUANTS[q].kernels.get(workload.effective_runtime)
            need = quant_needs(q, workload.effective_runtime)
            if first is not None and need is not None:
                out.append(FieldError("workload.quant", _m(KERNEL_NEEDS, gpu=g.name, cc=g.compute_capability,
                                                           quant=q, runtime=workload.effective_runtime,
                                                           kernel=first.name, need=need)))
    return out


def read_workload(value: Any) -> tuple[Workload | None, list[FieldError]]:
    """A workload from a mapping as a build file's ``workload`` holds it (the command line's suggest options):
    the workload, or None and every problem with its path (``workload.task``)."""
    r = _workload_checked(value)
    workload = _workload(r, value)
    return (workload if not r.errors else None), r.errors


def _workload_checked(value: Any) -> _Checked:
    from configurator.core.schema_build import WORKLOAD_SCHEMA

    r = _Checked()
    r.check(WORKLOAD_SCHEMA, value, "workload")
    r.drop("workload.model")
    return r


def workload_errors(workload: Workload) -> list[FieldError]:
    """What the build file's reader would say about this workload (made in code, e.g. by the planner's
    form): the same rules, so a form cannot hold a workload a file may not (int8 training)."""
    doc = build_to_dict(Build((), workload=workload))["workload"]
    r = _workload_checked(doc)
    _workload(r, doc)
    return r.errors


def build_to_dict(build: Build) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": FORMAT}
    if build.name:
        doc["name"] = build.name
    if build.budget_cny is not None:
        doc["budget_cny"] = int(build.budget_cny) if float(build.budget_cny).is_integer() else build.budget_cny
    doc["parts"] = []
    for p in build.parts:
        item: dict[str, Any] = {"id": p.id}
        if p.qty != 1:
            item["qty"] = p.qty
        if p.used:
            item["used"] = True
        doc["parts"].append(item)
    defaults = Options()
    opts = {f.name: getattr(build.options, f.name) for f in dataclasses.fields(Options)
            if getattr(build.options, f.name) != getattr(defaults, f.name)}
    if opts:
        doc["options"] = opts
    if build.workload is not None:
        w = build.workload
        wd: dict[str, Any] = {"model": {HF_CONFIG: w.hf_config} if w.hf_config is not None else w.model,
                              "task": "serve" if w.serving else w.task}
        for f in dataclasses.fields(Workload):
            if f.name in ("model", "task", HF_CONFIG):
                continue
            value = getattr(w, f.name)
            if value != f.default:
                wd[f.name] = value
        doc["workload"] = wd
    if build.cluster is not None:
        doc["cluster"] = {"nodes": build.cluster.nodes, "interconnect": build.cluster.interconnect}
    return doc


@dataclass(frozen=True)
class Resolved:
    """A build's parts looked up in the catalogue and grouped by category."""

    build: Build
    gpus: tuple[tuple[Gpu, int, bool], ...]
    cpus: tuple[tuple[Cpu, int], ...]
    boards: tuple[Motherboard, ...]
    memory: tuple[tuple[Memory, int], ...]
    storage: tuple[tuple[Storage, int], ...]
    psus: tuple[Psu, ...]
    cases: tuple[Case, ...]
    items: tuple[tuple[AnyPart, BuildPart], ...]
    coolers: tuple[tuple[Cooler, int], ...] = ()
    platforms: tuple[Platform, ...] = ()

    @property
    def gpu_list(self) -> list[Gpu]:
        return [g for g, qty, _used in self.gpus for _ in range(qty)]

    @property
    def cpu(self) -> Cpu | None:
        return self.cpus[0][0] if self.cpus else None

    @property
    def cpu_count(self) -> int:
        return sum(q for _c, q in self.cpus)

    @property
    def board(self) -> Motherboard | None:
        return self.boards[0] if self.boards else None

    @property
    def psu(self) -> Psu | None:
        return self.psus[0] if self.psus else None

    @property
    def case(self) -> Case | None:
        return self.cases[0] if self.cases else None

    @property
    def psu_watts(self) -> int:
        """What the supplies deliver together (PWR-5): their ratings add up, except that an N+1 redundant
        set of modules keeps one module spare (two 2000 W modules in 1+1 deliver 2000 W)."""
        plain = sum(p.watts for p in self.psus if not p.redundant)
        modules = sorted((p.watts for p in self.psus if p.redundant), reverse=True)
        return plain + sum(modules[1:] if len(modules) > 1 else modules)

    @property
    def platform(self) -> Platform | None:
        return self.platforms[0] if self.platforms else None

    @property
    def module_gpus(self) -> list[Gpu]:
        """SXM/OAM modules: they sit on a baseboard, not in PCIe slots (PCI-8)."""
        return [g for g in self.gpu_list if g.form_factor != "pcie"]

    @property
    def ram_gb(self) -> int:
        return sum(m.capacity_gb * q for m, q in self.memory)

    @property
    def modules(self) -> int:
        return sum(m.modules * q for m, q in self.memory)


def resolve(build: Build, catalogue: Mapping[str, AnyPart]) -> Resolved:
    gpus: list[tuple[Gpu, int, bool]] = []
    cpus: list[tuple[Cpu, int]] = []
    boards: list[Motherboard] = []
    memory: list[tuple[Memory, int]] = []
    storage: list[tuple[Storage, int]] = []
    psus: list[Psu] = []
    cases: list[Case] = []
    coolers: list[tuple[Cooler, int]] = []
    items: list[tuple[AnyPart, BuildPart]] = []
    platforms: list[Platform] = []
    for bp in build.parts:
        part = catalogue[bp.id]
        items.append((part, bp))
        if isinstance(part, Gpu):
            gpus.append((part, bp.qty, bp.used))
        elif isinstance(part, Cpu):
            cpus.append((part, bp.qty))
        elif isinstance(part, Motherboard):
            boards.extend([part] * bp.qty)
        elif isinstance(part, Memory):
            memory.append((part, bp.qty))
        elif isinstance(part, Storage):
            storage.append((part, bp.qty))
        elif isinstance(part, Psu):
            psus.extend([part] * bp.qty)
        elif isinstance(part, Case):
            cases.extend([part] * bp.qty)
        elif isinstance(part, Cooler):
            coolers.append((part, bp.qty))
        elif isinstance(part, Platform):
            platforms.extend([part] * bp.qty)
    return Resolved(build, tuple(gpus), tuple(cpus), tuple(boards), tuple(memory), tuple(storage),
                    tuple(psus), tuple(cases), tuple(items), tuple(coolers), tuple(platforms))
