"""The build's records: :class:`Build` (its parts, name, budget, options, workload, cluster), :class:`BuildPart`,
:class:`Options`, :class:`Workload` (a model and a task with its settings, and what follows from them: the
model's spec, the batch, the sequence length, the runtime), :class:`Cluster`; and the errors a bad build
raises (:class:`BuildError`, :class:`BuildFileError`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from configurator.core.build.limits import (
    DEFAULT_CLOUD_CNY_PER_MONTH,
    DEFAULT_ELECTRICITY_CNY_PER_KWH,
    DEFAULT_HOURS_PER_DAY,
    DEFAULT_RUNTIME,
    DEFAULT_SEQ_LEN,
    SERVE_DEFAULT_RUNTIME,
)
from configurator.core.estimate.quant import FP8_DEFAULT_INFER_RUNTIME, QUANTS
from configurator.core.model_specs import KNOWN_MODELS, ModelSpec, default_steps
from configurator.core.models import read_hf_config
from configurator.core.parts import FieldError


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
    # LLM inference and serving: the KV cache's element type (limits.KV_CACHES); None: the model's 16-bit cache
    kv_cache: str | None = None
    optimizer_in_backward: bool = False  # the optimizer steps each parameter in backward: no stored gradients
    chunked_ce: bool = False  # the loss is computed over chunks of the sequence: no full-vocabulary logits kept
    steps: int | None = None  # diffusion inference: denoising steps per image (None: the model's default_steps)
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
            steps = (self.steps or default_steps(base)) if base.unet is not None and self.task == "infer" else 0
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
        AWQ/GPTQ/bitsandbytes transformers, torchao torch.compile, fp8 weights or an FP8 KV cache vLLM), else
        DEFAULT_RUNTIME."""
        if self.runtime:
            return self.runtime
        if self.serving:
            return SERVE_DEFAULT_RUNTIME
        if self.task == "infer" and self.quant in QUANTS:
            return QUANTS[self.quant].default_runtime
        if self.task == "infer" and (self.precision == "fp8" or self.kv_cache == "fp8"):
            return FP8_DEFAULT_INFER_RUNTIME  # llama.cpp, the usual default, has no FP8 KV cache
        return DEFAULT_RUNTIME.get(self.task, "pytorch")

    @property
    def kv_cache_dtype(self) -> str | None:
        """The KV cache's element type as core/estimate/serving.py's KV_DTYPE_BYTES names it: "fp8", or None for
        the model's own 16-bit cache (a workload without kv_cache, or kv_cache "16-bit")."""
        return "fp8" if self.kv_cache == "fp8" else None

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
