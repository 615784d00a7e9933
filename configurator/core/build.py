"""The build file (``configurator.build/1``): reading it with a path for every bad
field, resolving its parts against the catalogue, and writing it back."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.models import KNOWN_MODELS, ModelSpec
from configurator.core.parts import AnyPart, Case, Cpu, FieldError, Gpu, Memory, Motherboard, Psu, Storage

FORMAT = "configurator.build/1"
TASKS = ("train", "infer")
PRECISIONS = ("fp32", "amp", "bf16", "fp16", "int8", "int4")
SHARDING = ("none", "zero1", "zero2", "zero3", "fsdp")
OPTIMIZERS = ("adamw", "adam", "sgd", "sgd_nomomentum", "adamw8bit")  # sgd: with momentum
# Memory options (FIT-1): attention kernel, fine-tuning method, offload, model parallelism.
ATTENTION = ("sdpa", "eager")  # sdpa: Hugging Face transformers' default since 4.36 (GPT-2, BERT, LLaMA)
FINETUNE = ("full", "lora", "qlora")
OFFLOAD = ("none", "optimizer")
PARALLEL = ("none", "tensor", "pipeline")
OS_CHOICES = ("ubuntu-24.04", "ubuntu-22.04", "ubuntu-20.04", "debian-12", "windows-11", "windows-10",
              "windows-wsl2", "other-linux")

# BUD-3 (M 四.1): AWS p3.2xlarge ~¥8000/month; hours and tariff are typical defaults, all editable.
DEFAULT_CLOUD_CNY_PER_MONTH = 8000.0
DEFAULT_HOURS_PER_DAY = 8.0
DEFAULT_ELECTRICITY_CNY_PER_KWH = 0.6


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

    def spec(self) -> ModelSpec:
        cached: ModelSpec | None = self.__dict__.get("_spec")
        if cached is None:
            cached = self._make_spec()
            object.__setattr__(self, "_spec", cached)  # frozen: cache beside the fields
        return cached

    def _make_spec(self) -> ModelSpec:
        if self.model != "custom":
            base = KNOWN_MODELS[self.model]
            return dataclasses.replace(base, image_size=self.image_size or base.image_size)
        assert self.params is not None
        if self.family == "transformer":
            return ModelSpec("custom", "transformer", self.params, "", layers=self.layers or 1,
                             hidden=self.hidden or 1, heads=self.heads or 1, vocab=self.vocab or 0,
                             context=self.seq_len or 1024, decoder=True, default_batch=8)
        return ModelSpec("custom", "cnn", self.params, "", image_size=self.image_size or 224,
                         gmacs_224=4.09 * self.params / 25.56e6, default_batch=32)

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
        if spec.family == "cnn":
            return 1
        return self.seq_len or spec.context

    @property
    def throughput_unit(self) -> str:
        """What the planner counts for this workload: images, tokens (GPT) or sequences (BERT) per second."""
        spec = self.spec()
        if spec.family == "cnn":
            return "img/s"
        return "tokens/s" if spec.decoder else "sequences/s"

    @property
    def effective_optimizer(self) -> str:
        if self.optimizer:
            return self.optimizer
        return "adamw" if self.spec().is_transformer else "sgd"


@dataclass(frozen=True)
class Build:
    parts: tuple[BuildPart, ...]
    name: str = ""
    budget_cny: float | None = None
    options: Options = field(default_factory=Options)
    workload: Workload | None = None


class BuildError(ValueError):
    """Unusable build input: every problem with the path of its field."""

    def __init__(self, errors: list[FieldError]):
        self.errors = errors
        super().__init__("; ".join(e.render() for e in errors))


def _m(template: str, **params: Any) -> Message:
    return Message("build", template, params)


_POSITIVE_INT = QT_TRANSLATE_NOOP("build", "must be a positive integer")
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
_INT4_TRAIN = QT_TRANSLATE_NOOP("build", "{precision} is for inference; training needs fp32, amp, bf16 or fp16")


class _Reader:
    def __init__(self) -> None:
        self.errors: list[FieldError] = []

    def err(self, path: str, template: str, **params: Any) -> None:
        self.errors.append(FieldError(path, _m(template, **params)))

    def obj(self, value: Any, path: str, allowed: tuple[str, ...]) -> Mapping[str, Any] | None:
        if not isinstance(value, Mapping):
            self.err(path, _OBJECT)
            return None
        for key in value:
            if key not in allowed:
                self.err(f"{path}.{key}" if path else str(key), _UNKNOWN_KEY, allowed=", ".join(allowed))
        return value

    def positive_int(self, value: Any, path: str) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            self.err(path, _POSITIVE_INT)
            return None
        return value

    def number(self, value: Any, path: str, positive: bool = False) -> float | None:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value < 0 \
                or value in (float("inf"), float("-inf")) or (positive and value == 0):
            self.err(path, _POSITIVE_INT if positive else _NONNEG_NUMBER)
            return None
        return float(value)

    def boolean(self, value: Any, path: str) -> bool | None:
        if not isinstance(value, bool):
            self.err(path, _BOOL)
            return None
        return value

    def choice(self, value: Any, path: str, choices: tuple[str, ...]) -> str | None:
        if not isinstance(value, str) or value not in choices:
            self.err(path, _CHOICE, choices=", ".join(choices), got=value)
            return None
        return value


def parse_build(data: Any, catalogue: Mapping[str, AnyPart]) -> Build:
    """Validate a build document; raise :class:`BuildError` listing every problem."""
    r = _Reader()
    top = r.obj(data, "", ("format", "name", "budget_cny", "parts", "options", "workload"))
    if top is None:
        raise BuildError(r.errors)
    if "format" not in top:
        r.err("format", _REQUIRED)
    elif top["format"] != FORMAT:
        r.err("format", _FORMAT, expected=FORMAT, got=top["format"])
    name = top.get("name", "")
    if not isinstance(name, str):
        r.err("name", _TEXT)
        name = ""
    budget = None
    if top.get("budget_cny") is not None:
        budget = r.number(top["budget_cny"], "budget_cny")

    parts: list[BuildPart] = []
    if "parts" not in top:
        r.err("parts", _REQUIRED)
    elif not isinstance(top["parts"], list):
        r.err("parts", _LIST)
    else:
        for i, item in enumerate(top["parts"]):
            path = f"parts[{i}]"
            obj = r.obj(item, path, ("id", "qty", "used"))
            if obj is None:
                continue
            pid = obj.get("id")
            if "id" not in obj:
                r.err(f"{path}.id", _REQUIRED)
                continue
            if not isinstance(pid, str):
                r.err(f"{path}.id", _TEXT)
                continue
            if pid not in catalogue:
                r.err(f"{path}.id", _UNKNOWN_PART, id=pid)
            qty = r.positive_int(obj.get("qty", 1), f"{path}.qty") or 1
            used = r.boolean(obj.get("used", False), f"{path}.used") or False
            parts.append(BuildPart(pid, qty, used))

    options = Options()
    if "options" in top:
        o = r.obj(top["options"], "options", tuple(f.name for f in dataclasses.fields(Options)))
        if o is not None:
            kw: dict[str, Any] = {}
            if "nvlink_bridge" in o and (v := r.boolean(o["nvlink_bridge"], "options.nvlink_bridge")) is not None:
                kw["nvlink_bridge"] = v
            for key in ("cloud_cny_per_month", "electricity_cny_per_kwh"):
                if key in o and (n := r.number(o[key], f"options.{key}")) is not None:
                    kw[key] = n
            if "hours_per_day" in o and (n := r.number(o["hours_per_day"], "options.hours_per_day")) is not None:
                if n > 24:
                    r.err("options.hours_per_day", _HOURS)
                else:
                    kw["hours_per_day"] = n
            if "os" in o and (c := r.choice(o["os"], "options.os", OS_CHOICES)) is not None:
                kw["os"] = c
            # FIT-1's display option (a separate block: the fields above keep their own handling)
            if "display_gpu" in o and (v := r.boolean(o["display_gpu"], "options.display_gpu")) is not None:
                kw["display_gpu"] = v
            options = Options(**kw)

    workload = _workload(r, top["workload"]) if top.get("workload") is not None else None
    if r.errors:
        raise BuildError(r.errors)
    return Build(tuple(parts), name, budget, options, workload)


_WORKLOAD_KEYS = tuple(f.name for f in dataclasses.fields(Workload))
_CUSTOM_KEYS = ("family", "params", "layers", "hidden", "heads", "vocab")


def _workload(r: _Reader, value: Any) -> Workload | None:
    w = r.obj(value, "workload", _WORKLOAD_KEYS)
    if w is None:
        return None
    n_errors = len(r.errors)
    model = w.get("model")
    if "model" not in w:
        r.err("workload.model", _REQUIRED)
    else:
        model = r.choice(model, "workload.model", (*KNOWN_MODELS, "custom"))
    task = None
    if "task" in w:
        task = r.choice(w["task"], "workload.task", TASKS)
    else:
        r.err("workload.task", _REQUIRED)
    kw: dict[str, Any] = {}
    if "precision" in w:
        kw["precision"] = r.choice(w["precision"], "workload.precision", PRECISIONS)
    for key in ("batch_size", "seq_len", "layers", "hidden", "heads", "vocab", "image_size"):
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
    _memory_options(r, w, kw, model, task)
    if len(r.errors) > n_errors or model is None or task is None:
        return None
    return Workload(model=model, task=task, **{k: v for k, v in kw.items() if v is not None})


_TRAIN_ONLY = QT_TRANSLATE_NOOP("build", "{key} applies to training only")
_INFER_ONLY = QT_TRANSLATE_NOOP("build", "{key} applies to inference only; training divides memory with sharding")
_TRANSFORMER_ONLY = QT_TRANSLATE_NOOP("build", "{key} applies to transformer models only")
_RANK = QT_TRANSLATE_NOOP("build", "must be an integer from 1 to {most}")


def _memory_options(r: _Reader, w: Mapping[str, Any], kw: dict[str, Any], model: str | None,
                    task: str | None) -> None:
    """The memory options (FIT-1): attention kernel, LoRA/QLoRA, optimizer offload, tensor/pipeline parallel."""
    if "attention" in w:
        kw["attention"] = r.choice(w["attention"], "workload.attention", ATTENTION)
    if "finetune" in w:
        kw["finetune"] = r.choice(w["finetune"], "workload.finetune", FINETUNE)
    if "lora_rank" in w:
        rank = r.positive_int(w["lora_rank"], "workload.lora_rank")
        if rank is not None and rank > 4096:
            r.err("workload.lora_rank", _RANK, most=4096)
            rank = None
        kw["lora_rank"] = rank
    if "offload" in w:
        kw["offload"] = r.choice(w["offload"], "workload.offload", OFFLOAD)
    if "parallel" in w:
        kw["parallel"] = r.choice(w["parallel"], "workload.parallel", PARALLEL)
    if task == "infer":
        for key, default in (("finetune", "full"), ("offload", "none")):
            if kw.get(key) not in (None, default):
                r.err(f"workload.{key}", _TRAIN_ONLY, key=key)
    if task == "train" and kw.get("parallel") not in (None, "none"):
        r.err("workload.parallel", _INFER_ONLY, key="parallel")
    family = kw.get("family") if model == "custom" else (KNOWN_MODELS[model].family if model in KNOWN_MODELS
                                                         else None)
    if family == "cnn" and kw.get("finetune") in ("lora", "qlora"):
        r.err("workload.finetune", _TRANSFORMER_ONLY, key="finetune")


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
        wd: dict[str, Any] = {"model": w.model, "task": w.task}
        for f in dataclasses.fields(Workload):
            if f.name in ("model", "task"):
                continue
            value = getattr(w, f.name)
            if value != f.default:
                wd[f.name] = value
        doc["workload"] = wd
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
    items: list[tuple[AnyPart, BuildPart]] = []
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
    return Resolved(build, tuple(gpus), tuple(cpus), tuple(boards), tuple(memory), tuple(storage),
                    tuple(psus), tuple(cases), tuple(items))
