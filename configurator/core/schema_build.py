"""The build file (``configurator.build/1``) declared as schema records: every key, its type, its bounds and
its choices, from core/build/limits.py. :func:`configurator.core.build.parse_build` reads a file with it
(and words each verdict in the build file's messages); ``configurator schema build`` prints its JSON Schema.

Rules between keys (a custom model's layers, a serving workload's load, a runtime's precisions, a part
that must be in the catalogue, the per-category totals) are not in a JSON Schema: core/build/ checks them
(read.py, workload_read.py, workload_rules.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from annotated_types import Le, MaxLen

from configurator.core.build import ATTENTION as ATTENTIONS
from configurator.core.build import (
    DEFAULT_CLOUD_CNY_PER_MONTH,
    DEFAULT_ELECTRICITY_CNY_PER_KWH,
    DEFAULT_HOURS_PER_DAY,
    FILE_TASKS,
    FINETUNE,
    FORMAT,
    KV_CACHES,
    MAX_BUDGET_CNY,
    MAX_CHECKPOINTS_KEPT,
    MAX_CLOUD_CNY_PER_MONTH,
    MAX_CONCURRENCY,
    MAX_DATASET_GB,
    MAX_ELECTRICITY_CNY_PER_KWH,
    MAX_ID_CHARS,
    MAX_NAME_CHARS,
    MAX_PARAMS,
    MAX_PART_ENTRIES,
    MAX_QTY,
    MAX_REQUEST_RATE,
    OFFLOAD,
    OPTIMIZERS,
    OS_CHOICES,
    PARALLEL,
    PRECISIONS,
    RUNTIMES,
    SHARDING,
    TRAIN_RUNTIMES,
    WORKLOAD_INT_LIMITS,
)
from configurator.core.estimate.cluster import INTERCONNECT_IDS
from configurator.core.estimate.cluster import MAX_NODES as MAX_CLUSTER_NODES
from configurator.core.estimate.quant import QUANTS
from configurator.core.schema import (
    CNY,
    DECIMAL_1,
    SIZES,
    TARIFF,
    Count,
    Flag,
    Number,
    Positive,
    PositiveNumber,
    Schema,
    Text,
    record,
)

QUANT_IDS = tuple(QUANTS)
ALL_RUNTIMES = tuple(dict.fromkeys((*RUNTIMES, *TRAIN_RUNTIMES)))
_L = WORKLOAD_INT_LIMITS
BATCH, SEQ, LAYERS, HIDDEN = _L["batch_size"], _L["seq_len"], _L["layers"], _L["hidden"]
HEADS, VOCAB, IMAGE, STEPS = _L["heads"], _L["vocab"], _L["image_size"], _L["steps"]
MAX_LORA_RANK = 4096
MAX_HF_CONFIG_PATH = 4096

# mypy reads a Literal of a tuple constant as invalid; at run time it is Literal["a", "b", …] of its items.
Os = Literal[OS_CHOICES]  # type: ignore[valid-type]


@record
@dataclass(frozen=True, kw_only=True)
class PartEntry:
    """One line of ``parts``: a catalogue id, how many, and whether it is bought used."""

    id: Annotated[Text, MaxLen(MAX_ID_CHARS)]
    qty: Annotated[Positive, Le(MAX_QTY)] = 1
    used: Flag = False


@record
@dataclass(frozen=True, kw_only=True)
class OptionsEntry:
    nvlink_bridge: Flag = False
    cloud_cny_per_month: Annotated[Number, Le(MAX_CLOUD_CNY_PER_MONTH), CNY] = DEFAULT_CLOUD_CNY_PER_MONTH
    hours_per_day: Annotated[Number, Le(24), DECIMAL_1] = DEFAULT_HOURS_PER_DAY
    electricity_cny_per_kwh: Annotated[Number, Le(MAX_ELECTRICITY_CNY_PER_KWH), TARIFF] = \
        DEFAULT_ELECTRICITY_CNY_PER_KWH
    os: Literal[OS_CHOICES] = "ubuntu-24.04"  # type: ignore[valid-type]
    display_gpu: Flag = False


@record
@dataclass(frozen=True, kw_only=True)
class HfConfigEntry:
    """``workload.model`` as ``{"hf_config": "path/config.json"}`` (relative to the working directory)."""

    hf_config: Annotated[Text, MaxLen(MAX_HF_CONFIG_PATH)]


@record
@dataclass(frozen=True, kw_only=True)
class WorkloadEntry:
    model: Text | HfConfigEntry  # a `configurator models list` id, "custom", or a config.json
    task: Literal[FILE_TASKS]  # type: ignore[valid-type]
    precision: Literal[PRECISIONS] = "fp32"  # type: ignore[valid-type]
    batch_size: Annotated[Positive, Le(BATCH)] | None = None
    seq_len: Annotated[Positive, Le(SEQ)] | None = None
    optimizer: Literal[OPTIMIZERS] | None = None  # type: ignore[valid-type]
    grad_checkpointing: Flag = False
    sharding: Literal[SHARDING] = "none"  # type: ignore[valid-type]
    dataset_gb: Annotated[Number, Le(MAX_DATASET_GB), SIZES] | None = None
    checkpoints_kept: Annotated[Count, Le(MAX_CHECKPOINTS_KEPT)] | None = None
    family: Literal["cnn", "transformer"] | None = None  # model "custom"
    params: Annotated[PositiveNumber, Le(MAX_PARAMS)] | None = None
    layers: Annotated[Positive, Le(LAYERS)] | None = None
    hidden: Annotated[Positive, Le(HIDDEN)] | None = None
    heads: Annotated[Positive, Le(HEADS)] | None = None
    vocab: Annotated[Positive, Le(VOCAB)] | None = None
    image_size: Annotated[Positive, Le(IMAGE)] | None = None
    attention: Literal[ATTENTIONS] = "sdpa"  # type: ignore[valid-type]
    finetune: Literal[FINETUNE] = "full"  # type: ignore[valid-type]
    lora_rank: Annotated[Positive, Le(MAX_LORA_RANK)] = 16
    offload: Literal[OFFLOAD] = "none"  # type: ignore[valid-type]
    parallel: Literal[PARALLEL] = "none"  # type: ignore[valid-type]
    runtime: Literal[ALL_RUNTIMES] | None = None  # type: ignore[valid-type]
    quant: Literal[QUANT_IDS] | None = None  # type: ignore[valid-type]
    kv_cache: Literal[KV_CACHES] | None = None  # type: ignore[valid-type]  # LLM inference / serving
    optimizer_in_backward: Flag = False
    chunked_ce: Flag = False
    steps: Annotated[Positive, Le(STEPS)] | None = None
    concurrency: Annotated[Positive, Le(MAX_CONCURRENCY)] | None = None  # task "serve"
    request_rate: Annotated[PositiveNumber, Le(MAX_REQUEST_RATE)] | None = None
    prompt_tokens: Annotated[Positive, Le(SEQ)] | None = None
    output_tokens: Annotated[Positive, Le(SEQ)] | None = None


@record
@dataclass(frozen=True, kw_only=True)
class ClusterEntry:
    nodes: Annotated[Positive, Le(MAX_CLUSTER_NODES)]
    interconnect: Literal[INTERCONNECT_IDS]  # type: ignore[valid-type]


@record
@dataclass(frozen=True, kw_only=True)
class BuildDocument:
    """A build file (``configurator.build/1``)."""

    format: Literal[FORMAT]  # type: ignore[valid-type]
    name: Annotated[Text, MaxLen(MAX_NAME_CHARS)] = ""
    budget_cny: Annotated[Number, Le(MAX_BUDGET_CNY), CNY] | None = None
    parts: Annotated[list[PartEntry], MaxLen(MAX_PART_ENTRIES)]
    options: OptionsEntry = field(default_factory=OptionsEntry)
    workload: WorkloadEntry | None = None
    cluster: ClusterEntry | None = None


BUILD_SCHEMA: Schema[BuildDocument] = Schema(BuildDocument)
WORKLOAD_SCHEMA: Schema[WorkloadEntry] = Schema(WorkloadEntry)
HF_SCHEMA: Schema[HfConfigEntry] = Schema(HfConfigEntry)


def build_json_schema() -> dict[str, Any]:
    """The JSON Schema of a build file (draft 2020-12, as pydantic writes it)."""
    doc = BUILD_SCHEMA.json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": FORMAT, **doc}
