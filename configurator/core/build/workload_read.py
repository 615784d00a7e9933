"""Reading a build file's workload (also the command line's and the planner form's): the model (a catalogue
id, "custom" with its sizes, or a Hugging Face config.json), the task and every setting, with a path for
every bad field (:func:`parse_workload`, :func:`read_workload`, :func:`workload_errors`); the rules between
its keys are in :mod:`configurator.core.build.workload_rules`."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from configurator.core.build.limits import FILE_TASKS, HF_CONFIG, OPTIMIZERS, PRECISIONS, SHARDING
from configurator.core.build.records import Build, Workload
from configurator.core.build.wording import REQUIRED, Checked, Shown
from configurator.core.build.workload_rules import check_memory_options, check_serving
from configurator.core.build.write import build_to_dict
from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.model_specs import KNOWN_MODELS
from configurator.core.models import ConfigError, read_hf_config
from configurator.core.parts import FieldError
from configurator.core.schema import record_keys

_WORKLOAD_KEYS = tuple(f.name for f in dataclasses.fields(Workload) if f.name != "hf_config")
_CUSTOM_KEYS = ("family", "params", "layers", "hidden", "heads", "vocab")
_UNKNOWN_MODEL = QT_TRANSLATE_NOOP("build", "no model {got} in the catalogue (`configurator models list` shows the "
                                            "ids; or \"custom\", or {{\"hf_config\": \"path/config.json\"}})")
_HF_CONFIG_PROBLEM = QT_TRANSLATE_NOOP("build", "{file}: {field}{problem}")
_CUSTOM_NEEDS = QT_TRANSLATE_NOOP("build", "a custom model needs {what}")
_ONLY_CUSTOM = QT_TRANSLATE_NOOP("build", "only a custom model takes {key}")
# A serving workload that names no precision serves 16-bit weights, as vLLM's and TensorRT-LLM's dtype "auto" does
# with a checkpoint's bf16 / fp16 weights (a float32 checkpoint is served in fp16): never fp32, the other tasks'
# default; bf16 as `configurator suggest` assumes for serving
SERVE_DEFAULT_PRECISION = "bf16"
_INT4_TRAIN = QT_TRANSLATE_NOOP("build", "{precision} is for inference; training needs fp32, amp, bf16, fp16 or fp8")
_SERVE_KEYS = ("concurrency", "request_rate", "prompt_tokens", "output_tokens")
_SERVE_ONLY = QT_TRANSLATE_NOOP("build", "{key} applies to task serve only")


def _model(r: Checked, value: Any, kw: dict[str, Any]) -> str | None:
    """workload.model: a catalogue id, "custom", or {"hf_config": path} (a Hugging Face config.json, read now,
    relative to the working directory)."""
    if isinstance(value, Mapping):
        from configurator.core.schema_build import HF_SCHEMA, HfConfigEntry

        r.check(HF_SCHEMA, value, "workload.model")
        obj = r.obj(value, "workload.model", record_keys(HfConfigEntry))
        if obj is None or HF_CONFIG not in obj:
            if obj is not None:
                r.err(f"workload.model.{HF_CONFIG}", REQUIRED)
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
        r.err("workload.model", _UNKNOWN_MODEL, got=Shown(value))
        return None
    return value


def parse_workload(r: Checked, value: Any) -> Workload | None:
    from configurator.core.schema_build import WorkloadEntry

    w = r.obj(value, "workload", record_keys(WorkloadEntry))
    if w is None:
        return None
    n_errors = len(r.errors)
    model = w.get("model")
    kw: dict[str, Any] = {}
    if "model" not in w:
        r.err("workload.model", REQUIRED)
    else:
        model = _model(r, model, kw)
    task = None
    if "task" in w:
        task = r.choice(w["task"], "workload.task", FILE_TASKS)
        if task == "serve":
            check_serving(r, w, kw, model)
            task = "infer"
    else:
        r.err("workload.task", REQUIRED)
    if "precision" in w:
        kw["precision"] = r.choice(w["precision"], "workload.precision", PRECISIONS)
    elif w.get("task") == "serve":
        kw["precision"] = SERVE_DEFAULT_PRECISION
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
    check_memory_options(r, w, kw, model, task)
    if len(r.errors) > n_errors or model is None or task is None:
        return None
    return Workload(model=model, task=task, **{k: v for k, v in kw.items() if v is not None})


def read_workload(value: Any) -> tuple[Workload | None, list[FieldError]]:
    """A workload from a mapping as a build file's ``workload`` holds it (the command line's suggest options):
    the workload, or None and every problem with its path (``workload.task``)."""
    r = workload_checked(value)
    workload = parse_workload(r, value)
    return (workload if not r.errors else None), r.errors


def workload_checked(value: Any) -> Checked:
    from configurator.core.schema_build import WORKLOAD_SCHEMA

    r = Checked()
    r.check(WORKLOAD_SCHEMA, value, "workload")
    r.drop("workload.model")
    return r


def workload_errors(workload: Workload) -> list[FieldError]:
    """What the build file's reader would say about this workload (made in code, e.g. by the planner's
    form): the same rules, so a form cannot hold a workload a file may not (int8 training)."""
    doc = build_to_dict(Build((), workload=workload))["workload"]
    r = workload_checked(doc)
    parse_workload(r, doc)
    return r.errors
