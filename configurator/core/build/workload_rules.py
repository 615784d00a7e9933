"""The rules between a workload's keys: a serving workload's load, lengths and runtime
(:func:`check_serving`); the memory options, what applies to training or inference only, and the precisions
each runtime runs (:func:`check_memory_options`, :data:`RUNTIME_PRECISIONS`); a quantised format's task,
runtime and precision (:func:`check_quant`); and what a workload asks of the build's GPUs (:func:`gpu_errors`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from configurator.core.build.limits import (
    ATTENTION,
    FINETUNE,
    HF_CONFIG,
    INFER_RUNTIMES,
    KV_CACHES,
    OFFLOAD,
    PARALLEL,
    PRECISIONS,
    RUNTIMES,
    SERVE_DEFAULT_RUNTIME,
    SERVE_RUNTIMES,
    TRAIN_RUNTIMES,
)
from configurator.core.build.records import Workload
from configurator.core.build.wording import Checked, Shown, message
from configurator.core.estimate.quant import FP8_MIN_CC, FP8_RUNTIMES, KERNEL_NEEDS, NO_FP8, QUANTS
from configurator.core.estimate.quant import kernel_for as quant_kernel
from configurator.core.estimate.quant import needs as quant_needs
from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.model_specs import KNOWN_MODELS
from configurator.core.parts import FieldError, Gpu

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


def check_serving(r: Checked, w: Mapping[str, Any], kw: dict[str, Any], model: str | None) -> None:
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
    for key in ("optimizer", "grad_checkpointing", "sharding", "lora_rank"):  # the others: check_memory_options
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
        r.err("workload.parallel", _SERVE_PARALLEL, got=Shown(w["parallel"]))
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


def check_memory_options(r: Checked, w: Mapping[str, Any], kw: dict[str, Any], model: str | None,
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
    quantised = w.get("quant") is not None  # the format's own check (check_quant) says which runtimes run it
    if runtime in RUNTIME_PRECISIONS and precision is not None and precision not in RUNTIME_PRECISIONS[runtime] \
            and not quantised:
        r.err("workload.runtime", _RUNTIME_PRECISION, runtime=runtime, precision=precision,
              allowed=", ".join(RUNTIME_PRECISIONS[runtime]))
    if "quant" in w and w["quant"] is not None:
        check_quant(r, w, kw, task, family, runtime)
    if "kv_cache" in w and w["kv_cache"] is not None:
        check_kv_cache(r, w, kw, model, task)


def check_quant(r: Checked, w: Mapping[str, Any], kw: dict[str, Any], task: str | None, family: str | None,
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


# llama.cpp's KV cache types (-ctk / -ctv): f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1, no FP8
# (common/arg.cpp's kv_cache_types: https://github.com/ggml-org/llama.cpp/blob/
# 145b6280d6aa1890e22457143dad0badb3fd6820/common/arg.cpp). vLLM (--kv-cache-dtype fp8:
# https://docs.vllm.ai/en/v0.6.6/quantization/fp8_e4m3_kvcache.html) and TensorRT-LLM (KvCacheConfig(dtype="fp8"):
# https://nvidia.github.io/TensorRT-LLM/1.0.0/features/quantization.html) keep one. No source read here on
# transformers', torch.compile's or ExLlamaV2's caches: those are not refused.
NO_FP8_KV_RUNTIMES = ("llama.cpp",)
FP8_KV_RUNTIMES = ("vllm", "tensorrt-llm")
_KV_LLM_ONLY = QT_TRANSLATE_NOOP(
    "build", "kv_cache applies to the inference and serving of generative (decoder) language models only")
_KV_RUNTIME = QT_TRANSLATE_NOOP(
    "build", "runtime {runtime} has no FP8 KV cache (its cache types: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, "
             "q5_0, q5_1); an FP8 KV cache runs in {allowed} (set workload.runtime)")


def check_kv_cache(r: Checked, w: Mapping[str, Any], kw: dict[str, Any], model: str | None,
                   task: str | None) -> None:
    """workload.kv_cache: "16-bit" or "fp8", for a decoder language model's inference or serving, in a runtime
    that keeps an FP8 cache (not llama.cpp). "16-bit" is the default (stored as None)."""
    kv = r.choice(w["kv_cache"], "workload.kv_cache", KV_CACHES)
    if kv is None:
        return
    decoder = (model == HF_CONFIG or (model == "custom" and kw.get("family") == "transformer")
               or (model is not None and model in KNOWN_MODELS and KNOWN_MODELS[model].decoder))
    if task != "infer" or (model is not None and not decoder):
        r.err("workload.kv_cache", _KV_LLM_ONLY)
        return
    # the runtime it would run in (Workload.effective_runtime): the stated one, else a quantised format's own
    # (GGUF: llama.cpp); otherwise vLLM, the default for serving and for an FP8 cache
    quant = kw.get("quant")
    runtime = kw.get("runtime") or (QUANTS[quant].default_runtime if quant in QUANTS and task == "infer"
                                    and "concurrency" not in kw and "request_rate" not in kw else None)
    if kv == "fp8" and runtime in NO_FP8_KV_RUNTIMES:
        r.err("workload.kv_cache", _KV_RUNTIME, runtime=runtime, allowed=" or ".join(FP8_KV_RUNTIMES))
        return
    kw["kv_cache"] = kv if kv != "16-bit" else None


# TensorRT-LLM's precisions by architecture: Hopper (SM90) and Ada Lovelace (SM89) FP32, FP16, BF16, FP8, INT8, INT4;
# Ampere (SM80, SM86) FP32, FP16, BF16, INT8, INT4, no FP8 (its support matrix, "Precision":
# https://github.com/NVIDIA/TensorRT-LLM/blob/03dad6287acb4cd95294360a420ea72e91ffde7f/docs/source/reference/
# support-matrix.md). vLLM's FP8 KV cache states no compute capability (docs v0.6.6, fp8_e4m3_kvcache): not judged.
FP8_KV_MIN_CC = {"tensorrt-llm": 8.9}
_KV_NEEDS = QT_TRANSLATE_NOOP(
    "build", "{gpu} (compute capability {cc}) cannot keep an FP8 KV cache in {runtime}: it runs FP8 on compute "
             "capability {need} or newer (Ada, Hopper); use kv_cache 16-bit or runtime vllm")


def gpu_errors(workload: Workload, gpus: Iterable[Gpu]) -> list[FieldError]:
    """What the workload asks of the build's GPUs that a card cannot do: precision fp8 without FP8 tensor cores
    (compute capability < 8.9), an FP8 KV cache in TensorRT-LLM below 8.9, a quantised format whose kernel needs a
    newer card. One line per card model;
    cards whose compute capability the catalogue does not state (other vendors) are not judged."""
    out: list[FieldError] = []
    seen: set[str] = set()
    for g in gpus:
        if g.id in seen or not g.compute_capability or g.vendor != "nvidia":
            continue
        seen.add(g.id)
        cc = float(g.compute_capability)
        if workload.precision == "fp8" and cc < FP8_MIN_CC:
            out.append(FieldError("workload.precision", message(NO_FP8, gpu=g.name, cc=g.compute_capability,
                                                           need=FP8_MIN_CC)))
        need_kv = FP8_KV_MIN_CC.get(workload.effective_runtime)
        if workload.kv_cache == "fp8" and workload.task == "infer" and need_kv is not None and cc < need_kv:
            out.append(FieldError("workload.kv_cache", message(_KV_NEEDS, gpu=g.name, cc=g.compute_capability,
                                                          runtime=workload.effective_runtime, need=need_kv)))
        q = workload.quant
        if q is not None and workload.task == "infer" and quant_kernel(q, workload.effective_runtime, cc) is None:
            first = QUANTS[q].kernels.get(workload.effective_runtime)
            need = quant_needs(q, workload.effective_runtime)
            if first is not None and need is not None:
                out.append(FieldError("workload.quant", message(KERNEL_NEEDS, gpu=g.name, cc=g.compute_capability,
                                                           quant=q, runtime=workload.effective_runtime,
                                                           kernel=first.name, need=need)))
    return out
