"""The build file (``configurator.build/1``): reading it with a path for every bad field, resolving its
parts against the catalogue, and writing it back.

What each key may hold (type, bounds, choices, the keys of each object) is declared once, in
core/schema_build.py; reading a file validates it with that declaration and words each verdict as the
build file's messages say it (:class:`~configurator.core.build.wording.Checked`), in the order the reading
reaches the fields, and adds the rules between keys (a custom model's sizes, a serving workload's load, a
runtime's precisions, the catalogue's parts and the per-category totals).

The package's modules: ``limits`` (the format, the choices, the defaults and the limits), ``records`` (Build,
BuildPart, Options, Workload, Cluster, the errors), ``wording`` (how a problem is worded, with its path),
``read`` (reading a build file), ``workload_read`` (reading its workload), ``workload_rules`` (the rules
between a workload's keys, and what it asks of the GPUs), ``write`` (the build back as a document) and
``resolved`` (the parts looked up in the catalogue). What the rest of the program uses is exported here."""

from configurator.core.build.limits import (
    ATTENTION,
    DEFAULT_CLOUD_CNY_PER_MONTH,
    DEFAULT_DIFFUSION_STEPS,
    DEFAULT_ELECTRICITY_CNY_PER_KWH,
    DEFAULT_HOURS_PER_DAY,
    DEFAULT_RUNTIME,
    DEFAULT_SEQ_LEN,
    FILE_TASKS,
    FINETUNE,
    FORMAT,
    HF_CONFIG,
    INFER_RUNTIMES,
    KV_CACHES,
    MAX_BUDGET_CNY,
    MAX_BUILD_FILE_BYTES,
    MAX_CHECKPOINTS_KEPT,
    MAX_CLOUD_CNY_PER_MONTH,
    MAX_CONCURRENCY,
    MAX_DATASET_GB,
    MAX_DEPTH,
    MAX_ELECTRICITY_CNY_PER_KWH,
    MAX_ERRORS,
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
    PART_LIMITS,
    PRECISIONS,
    RUNTIMES,
    SERVE_DEFAULT_RUNTIME,
    SERVE_RUNTIMES,
    SHARDING,
    TASKS,
    TRAIN_RUNTIMES,
    WORKLOAD_INT_LIMITS,
)
from configurator.core.build.read import CATEGORY_WORDS, load_build_json, parse_build
from configurator.core.build.records import Build, BuildError, BuildFileError, BuildPart, Cluster, Options, Workload
from configurator.core.build.resolved import Resolved, resolve
from configurator.core.build.wording import refused_character, short_repr
from configurator.core.build.workload_read import SERVE_DEFAULT_PRECISION, read_workload, workload_errors
from configurator.core.build.workload_rules import RUNTIME_PRECISIONS, gpu_errors
from configurator.core.build.write import build_to_dict

__all__ = ["ATTENTION", "CATEGORY_WORDS", "DEFAULT_CLOUD_CNY_PER_MONTH", "DEFAULT_DIFFUSION_STEPS",
           "DEFAULT_ELECTRICITY_CNY_PER_KWH", "DEFAULT_HOURS_PER_DAY", "DEFAULT_RUNTIME", "DEFAULT_SEQ_LEN",
           "FILE_TASKS", "FINETUNE", "FORMAT", "HF_CONFIG", "INFER_RUNTIMES", "KV_CACHES", "MAX_BUDGET_CNY",
           "MAX_BUILD_FILE_BYTES", "MAX_CHECKPOINTS_KEPT", "MAX_CLOUD_CNY_PER_MONTH", "MAX_CONCURRENCY",
           "MAX_DATASET_GB", "MAX_DEPTH", "MAX_ELECTRICITY_CNY_PER_KWH", "MAX_ERRORS", "MAX_ID_CHARS",
           "MAX_NAME_CHARS", "MAX_PARAMS", "MAX_PART_ENTRIES", "MAX_QTY", "MAX_REQUEST_RATE", "OFFLOAD", "OPTIMIZERS",
           "OS_CHOICES", "PARALLEL", "PART_LIMITS", "PRECISIONS", "RUNTIMES", "RUNTIME_PRECISIONS",
           "SERVE_DEFAULT_PRECISION", "SERVE_DEFAULT_RUNTIME", "SERVE_RUNTIMES", "SHARDING", "TASKS",
           "TRAIN_RUNTIMES", "WORKLOAD_INT_LIMITS",
           "Build", "BuildError", "BuildFileError", "BuildPart", "Cluster", "Options", "Resolved", "Workload",
           "build_to_dict", "gpu_errors", "load_build_json", "parse_build", "read_workload", "refused_character",
           "resolve", "short_repr", "workload_errors"]
