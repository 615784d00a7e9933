"""What a build sheet contains (data, not layout): the PDF writer and the planner tab's
summary both render this."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from configurator.core.build import MAX_NAME_CHARS, Build, Workload, resolve
from configurator.core.engine import Report, check
from configurator.core.engine import main_throughput as main_estimate
from configurator.core.estimate.quant import QUANTS
from configurator.core.estimate.throughput import runtime_used
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.model_specs import KNOWN_MODELS, ModelSpec
from configurator.core.parts import FIELD_LABELS, SUMMARY_FIELDS, AnyPart, field_unit, part_to_dict
from configurator.core.pcie import Seat
from configurator.core.presets import Preset, presets


@dataclass(frozen=True)
class SheetRow:
    qty: int
    part: AnyPart
    used: bool
    specs: tuple[tuple[str, str, str, object], ...]  # (field, label, unit, value)

    @property
    def subtotal(self) -> int:
        return self.part.price_cny * self.qty

    @property
    def unverified(self) -> tuple[tuple[str, str], ...]:
        """The part's figures no vendor source confirmed (its ``unverified`` list): (field, label), in its order."""
        return tuple((f, FIELD_LABELS.get(f, (f, ""))[0]) for f in self.part.unverified)


# A figure of a part that no vendor page, manual or review confirmed (the part's ``unverified`` list) is shown
# with this mark after its value, and a note says what it means (the Parts tab's table, the PDF sheet).
UNVERIFIED_MARK = "?"
UNVERIFIED_NOTE = QT_TRANSLATE_NOOP("Sheet", "? not found on the vendor's page: check the vendor's figure before "
                                             "relying on it")


@dataclass(frozen=True)
class Bar:
    key: str  # "price", "power", "vram", "ram"
    value: float
    limit: float | None
    unit: str

    @property
    def ratio(self) -> float | None:
        return self.value / self.limit if self.limit else None


@dataclass(frozen=True)
class ChartPoint:
    label: str
    value: float
    this_build: bool


@dataclass
class Sheet:
    title: str
    day: date
    build: Build
    report: Report
    rows: list[SheetRow]
    bars: list[Bar]
    seats: list[Seat]
    chart: list[ChartPoint] = field(default_factory=list)
    chart_unit: str = ""
    benchmark: list[tuple[str, float, str]] = field(default_factory=list)  # linked run: workload, value, unit


# -- the workload in words: one readable, translatable label per value of the build file's workload keys --------
# (the planner's form and the PDF sheet both show these; context "workload")
TASK_LABELS: dict[str, str] = {
    "train": QT_TRANSLATE_NOOP("workload", "Training"),
    "infer": QT_TRANSLATE_NOOP("workload", "Inference"),
}
PRECISION_LABELS: dict[str, str] = {
    "fp32": QT_TRANSLATE_NOOP("workload", "FP32"),
    "amp": QT_TRANSLATE_NOOP("workload", "Mixed precision (AMP: fp16 compute, fp32 weights)"),
    "bf16": QT_TRANSLATE_NOOP("workload", "BF16"),
    "fp16": QT_TRANSLATE_NOOP("workload", "FP16"),
    "int8": QT_TRANSLATE_NOOP("workload", "INT8 weights"),
    "int4": QT_TRANSLATE_NOOP("workload", "INT4 weights"),
    "fp8": QT_TRANSLATE_NOOP("workload", "FP8 (Ada, Hopper and newer tensor cores)"),
}
RUNTIME_LABELS: dict[str, str] = {
    "transformers": QT_TRANSLATE_NOOP("workload", "Hugging Face transformers (generate)"),
    "torch-compile": QT_TRANSLATE_NOOP("workload", "PyTorch with torch.compile"),
    "vllm": QT_TRANSLATE_NOOP("workload", "vLLM"),
    "llama.cpp": QT_TRANSLATE_NOOP("workload", "llama.cpp"),
    "exllamav2": QT_TRANSLATE_NOOP("workload", "ExLlamaV2"),
    "tensorrt-llm": QT_TRANSLATE_NOOP("workload", "TensorRT-LLM"),
    "pytorch": QT_TRANSLATE_NOOP("workload", "PyTorch (eager)"),
}
FINETUNE_LABELS: dict[str, str] = {
    "full": QT_TRANSLATE_NOOP("workload", "Full (every weight trained)"),
    "lora": QT_TRANSLATE_NOOP("workload", "LoRA (adapters on frozen weights)"),
    "qlora": QT_TRANSLATE_NOOP("workload", "QLoRA (adapters on 4-bit frozen weights)"),
}
OPTIMIZER_LABELS: dict[str, str] = {
    "adamw": QT_TRANSLATE_NOOP("workload", "AdamW (fp32 states)"),
    "adam": QT_TRANSLATE_NOOP("workload", "Adam (fp32 states)"),
    "adamw-bf16": QT_TRANSLATE_NOOP("workload", "AdamW with bf16 states"),
    "sgd": QT_TRANSLATE_NOOP("workload", "SGD with momentum"),
    "sgd_nomomentum": QT_TRANSLATE_NOOP("workload", "SGD without momentum"),
    "adamw8bit": QT_TRANSLATE_NOOP("workload", "AdamW 8-bit (bitsandbytes)"),
    "paged-adamw8bit": QT_TRANSLATE_NOOP("workload", "Paged AdamW 8-bit (bitsandbytes)"),
}
SHARDING_LABELS: dict[str, str] = {
    "none": QT_TRANSLATE_NOOP("workload", "None (a full copy per GPU)"),
    "zero1": QT_TRANSLATE_NOOP("workload", "ZeRO-1 (optimizer states split)"),
    "zero2": QT_TRANSLATE_NOOP("workload", "ZeRO-2 (optimizer states and gradients split)"),
    "zero3": QT_TRANSLATE_NOOP("workload", "ZeRO-3 (states, gradients and weights split)"),
    "fsdp": QT_TRANSLATE_NOOP("workload", "FSDP (fully sharded)"),
}
PARALLEL_LABELS: dict[str, str] = {
    "none": QT_TRANSLATE_NOOP("workload", "None (the whole model on each GPU)"),
    "tensor": QT_TRANSLATE_NOOP("workload", "Tensor parallel (each layer split over the GPUs)"),
    "pipeline": QT_TRANSLATE_NOOP("workload", "Pipeline parallel (layers split over the GPUs)"),
    "expert": QT_TRANSLATE_NOOP("workload", "Expert parallel (the experts spread over the GPUs)"),
}
OFFLOAD_LABELS: dict[str, str] = {
    "none": QT_TRANSLATE_NOOP("workload", "None"),
    "optimizer": QT_TRANSLATE_NOOP("workload", "Optimizer states to CPU memory"),
    "activations": QT_TRANSLATE_NOOP("workload", "Activations to CPU memory"),
    "all": QT_TRANSLATE_NOOP("workload", "Optimizer states and activations to CPU memory"),
}
QUANT_LABELS: dict[str, str] = {  # core/estimate/quant.py QUANTS, in words
    "awq": QT_TRANSLATE_NOOP("workload", "AWQ 4-bit (group 128)"),
    "gptq": QT_TRANSLATE_NOOP("workload", "GPTQ 4-bit (group 128)"),
    "bnb-nf4": QT_TRANSLATE_NOOP("workload", "bitsandbytes NF4 (4-bit)"),
    "bnb-int8": QT_TRANSLATE_NOOP("workload", "bitsandbytes LLM.int8 (8-bit)"),
    "gguf-q4_k_m": QT_TRANSLATE_NOOP("workload", "GGUF Q4_K_M (about 4.85 bits per weight)"),
    "gguf-q8_0": QT_TRANSLATE_NOOP("workload", "GGUF Q8_0 (8.5 bits per weight)"),
    "torchao-int4": QT_TRANSLATE_NOOP("workload", "torchao int4 weight-only (group 128)"),
    "torchao-int8": QT_TRANSLATE_NOOP("workload", "torchao int8 weight-only"),
    "fp8": QT_TRANSLATE_NOOP("workload", "FP8 weight-only (W8A16)"),
    "fp8-w8a8": QT_TRANSLATE_NOOP("workload", "FP8 weights and activations (W8A8)"),
    "exl2": QT_TRANSLATE_NOOP("workload", "EXL2 (4.65 bits per weight)"),
}
_NO_QUANT = QT_TRANSLATE_NOOP("workload", "None (the precision's bit width)")


def quant_label(quant: str | None) -> str:
    """A quantisation format's words (untranslated): its label here, else the name core gives it, else its key."""
    if quant is None:
        return _NO_QUANT
    return QUANT_LABELS.get(quant) or (QUANTS[quant].name if quant in QUANTS else quant)


ATTENTION_LABELS: dict[str, str] = {
    "sdpa": QT_TRANSLATE_NOOP("workload", "SDPA (flash / memory-efficient kernels)"),
    "eager": QT_TRANSLATE_NOOP("workload", "Eager (keeps the attention scores)"),
}
WORKLOAD_LABELS: dict[str, str] = {  # the rows of the sheet's workload table
    "model": QT_TRANSLATE_NOOP("workload", "Model"),
    "task": QT_TRANSLATE_NOOP("workload", "Task"),
    "runtime": QT_TRANSLATE_NOOP("workload", "Runtime"),
    "precision": QT_TRANSLATE_NOOP("workload", "Precision"),
    "quant": QT_TRANSLATE_NOOP("workload", "Quantisation"),
    "kv_cache": QT_TRANSLATE_NOOP("workload", "KV cache"),  # LLM inference's, shown when FP8
    "batch": QT_TRANSLATE_NOOP("workload", "Batch per GPU"),
    "seq_len": QT_TRANSLATE_NOOP("workload", "Sequence length"),
    "finetune": QT_TRANSLATE_NOOP("workload", "Fine-tuning"),
    "optimizer": QT_TRANSLATE_NOOP("workload", "Optimizer"),
    "sharding": QT_TRANSLATE_NOOP("workload", "Sharding"),
    "parallel": QT_TRANSLATE_NOOP("workload", "Parallelism"),
    "ckpt": QT_TRANSLATE_NOOP("workload", "Activation checkpointing"),
    "offload": QT_TRANSLATE_NOOP("workload", "Offload"),
    "chunked_ce": QT_TRANSLATE_NOOP("workload", "Chunked cross-entropy"),
    "attention": QT_TRANSLATE_NOOP("workload", "Attention"),
    "load": QT_TRANSLATE_NOOP("workload", "Load"),  # a serving workload's
    "tokens": QT_TRANSLATE_NOOP("workload", "Tokens per request"),
    "steps": QT_TRANSLATE_NOOP("workload", "Denoising steps"),  # a diffusion model's inference
    "image": QT_TRANSLATE_NOOP("workload", "Image size"),  # a CNN's, a vision transformer's, a diffusion model's
}
_ON = QT_TRANSLATE_NOOP("workload", "on")
_KV_FP8 = QT_TRANSLATE_NOOP("workload", "FP8 (1 B per cached element)")
_OFF = QT_TRANSLATE_NOOP("workload", "off")
_DEFAULT_OF = QT_TRANSLATE_NOOP("workload", "{runtime} (default)")
_WITH_RANK = QT_TRANSLATE_NOOP("workload", "{method}, rank {rank}")
_IN_BACKWARD = QT_TRANSLATE_NOOP("workload", "{optimizer}, stepped in backward (no stored gradients)")
_MODEL_DEFAULT_OPT = QT_TRANSLATE_NOOP("workload", "{optimizer} (the model's default)")
_MODEL_WITH_SIZE = QT_TRANSLATE_NOOP("workload", "{name} · {size}")
_MOE_SIZE = QT_TRANSLATE_NOOP("workload", "{size} ({active} active)")
_CUSTOM = QT_TRANSLATE_NOOP("workload", "Custom model")
_SERVING = QT_TRANSLATE_NOOP("workload", "Serving (LLM under load)")
_IN_FLIGHT = QT_TRANSLATE_NOOP("workload", "{n} requests in flight")
_RATE = QT_TRANSLATE_NOOP("workload", "{rate} requests/s (Poisson arrivals)")
_TOKENS = QT_TRANSLATE_NOOP("workload", "{prompt} prompt + {output} output")
_SERVING_AT = QT_TRANSLATE_NOOP("workload", "Serving at {load}, {tokens} tokens per request")
_VALUE_DEFAULT = QT_TRANSLATE_NOOP("workload", "{value} (default)")


def _w(text: str, **params: object) -> Message:
    return Message("workload", text, params)


def params_text(n: float) -> str:
    """A parameter count as people write it: 124 M, 6.7 B, 1.2 T (no word to translate)."""
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if n >= scale:
            v = n / scale
            return f"{v:.1f} {suffix}" if v < 100 else f"{v:.0f} {suffix}"
    return f"{n:.0f}"


def model_name(model_id: str, spec: ModelSpec | None = None) -> str:
    """A model's name as its makers write it (the catalogue's ``title``: "Llama 3.1 8B"), else its id."""
    spec = spec if spec is not None else KNOWN_MODELS.get(model_id)
    return (spec.title if spec is not None else "") or model_id


def model_size(spec: ModelSpec) -> Message | str:
    """The parameter count; a mixture-of-experts model's with the parameters active per token."""
    size = params_text(spec.params)
    if spec.active_params < spec.params:
        return _w(_MOE_SIZE, size=size, active=params_text(spec.active_params))
    return size


def model_label(model_id: str, spec: ModelSpec | None = None) -> Message:
    """``Llama 3.1 8B · 8.0 B``: the model's name and its parameter count."""
    spec = spec if spec is not None else KNOWN_MODELS.get(model_id)
    if spec is None:
        return _w(_CUSTOM) if model_id == "custom" else _w("{name}", name=model_id)
    return _w(_MODEL_WITH_SIZE, name=model_name(model_id, spec), size=model_size(spec))


def serving_load(w: Workload) -> Message:
    """A serving workload's load in words: "64 requests in flight" or "4 requests/s (Poisson arrivals)"."""
    if w.concurrency is not None:
        return _w(_IN_FLIGHT, n=f"{w.concurrency:,}")
    return _w(_RATE, rate=f"{w.request_rate or 0:,g}")


def serving_tokens(w: Workload) -> Message:
    """A serving workload's mean tokens per request: "512 prompt + 256 output"."""
    return _w(_TOKENS, prompt=f"{w.prompt_tokens or 0:,}", output=f"{w.output_tokens or 0:,}")


def serving_heading(w: Workload) -> Message:
    """What a serving workload's figures are at: "Serving at 64 requests in flight, 512 prompt + 256 output tokens
    per request" (the CLI's, the planner's and the PDF's heading of the serving estimates)."""
    return _w(_SERVING_AT, load=serving_load(w), tokens=serving_tokens(w))


def workload_summary(w: Workload) -> list[tuple[str, Message | str]]:
    """What the workload is, row by row (key of :data:`WORKLOAD_LABELS`, value in words): what was chosen
    and what applies to its task (no optimizer for inference, no sharding for one copy per GPU …): a serving
    workload's load and tokens per request (its batch is the runtime's, not a setting), a diffusion model's
    denoising steps, an image model's image size; the runtime the estimate runs it in (an encoder, a CNN or a
    diffusion model's inference in PyTorch, whatever the task's default runtime is)."""
    train = w.task == "train"
    spec = w.spec()
    rows: list[tuple[str, Message | str]] = []
    if w.model == "custom":
        rows.append(("model", _w(_MODEL_WITH_SIZE, name=_w(_CUSTOM), size=params_text(spec.params))))
    else:
        rows.append(("model", model_label(w.model, spec)))
    if w.serving:
        rows += [("task", _w(_SERVING)), ("load", serving_load(w)), ("tokens", serving_tokens(w))]
    else:
        rows.append(("task", _w(TASK_LABELS.get(w.task, w.task))))
    used = runtime_used(w)
    runtime = _w(RUNTIME_LABELS.get(used, used))
    if w.runtime is None:
        runtime = _w(_DEFAULT_OF, runtime=runtime)
    rows.append(("runtime", runtime))
    rows.append(("precision", _w(PRECISION_LABELS.get(w.precision, w.precision))))
    if not train and w.quant is not None:  # the format of the weights (core refuses it for training)
        rows.append(("quant", _w(quant_label(w.quant))))
    if not train and w.kv_cache == "fp8":  # the 16-bit cache, the default, is not a row
        rows.append(("kv_cache", _w(_KV_FP8)))
    if not w.serving:
        rows.append(("batch", str(w.effective_batch)))
    if spec.unet is not None and not train:
        rows.append(("steps", str(w.steps) if w.steps else _w(_VALUE_DEFAULT, value=str(spec.steps))))
    if spec.family != "transformer" or spec.patch_size:
        side = f"{spec.image_size} × {spec.image_width}" if spec.image_width else f"{spec.image_size}"
        rows.append(("image", f"{side} px" if w.image_size else _w(_VALUE_DEFAULT, value=f"{side} px")))
    if spec.is_transformer:
        if not w.serving and not spec.patch_size:  # a ViT's tokens follow from its image; a request's are above
            rows.append(("seq_len", str(w.effective_seq_len)))
        if w.attention != "sdpa":
            rows.append(("attention", _w(ATTENTION_LABELS.get(w.attention, w.attention))))
    if train:
        method = _w(FINETUNE_LABELS.get(w.finetune, w.finetune))
        rows.append(("finetune", _w(_WITH_RANK, method=method, rank=w.lora_rank) if w.finetune != "full"
                     else method))
        opt = _w(OPTIMIZER_LABELS.get(w.effective_optimizer, w.effective_optimizer))
        if w.optimizer is None:
            opt = _w(_MODEL_DEFAULT_OPT, optimizer=opt)
        if w.optimizer_in_backward:
            opt = _w(_IN_BACKWARD, optimizer=opt)
        rows.append(("optimizer", opt))
        rows.append(("sharding", _w(SHARDING_LABELS.get(w.sharding, w.sharding))))
        rows.append(("ckpt", _w(_ON if w.grad_checkpointing else _OFF)))
        rows.append(("offload", _w(OFFLOAD_LABELS.get(w.offload, w.offload))))
        if spec.is_transformer:
            rows.append(("chunked_ce", _w(_ON if w.chunked_ce else _OFF)))
    else:
        rows.append(("parallel", _w(PARALLEL_LABELS.get(w.parallel, w.parallel))))
    return rows


def sheet_title(name: str) -> str:
    """The build's name as a sheet shows it: at most MAX_NAME_CHARS characters (a build file cannot name a
    longer one; a build made in code is clipped, with an ellipsis)."""
    return name if len(name) <= MAX_NAME_CHARS else name[:MAX_NAME_CHARS - 1] + "…"


def _specs(part: AnyPart) -> tuple[tuple[str, str, str, object], ...]:
    d = part_to_dict(part)
    return tuple((f, FIELD_LABELS[f][0], field_unit(part.category, f), d[f]) for f in SUMMARY_FIELDS[part.category][:4])


def build_sheet(build: Build, catalogue: Mapping[str, AnyPart], report: Report | None = None,
                with_chart: bool = True, today: date | None = None) -> Sheet:
    report = report or check(build, catalogue)
    r = resolve(build, catalogue)
    rows = [SheetRow(bp.qty, part, bp.used, _specs(part)) for part, bp in r.items]
    bars = [Bar("price", report.total_cny, build.budget_cny, "¥")]
    peak = report.estimate("peak_power_w")
    if peak is not None and peak.value is not None and r.items:
        bars.append(Bar("power", peak.value, float(r.psu_watts) if r.psus else None, "W"))  # PWR-5: all supplies
    vram = report.estimate("vram_per_gpu_gib")
    if vram is not None and vram.value is not None and r.gpu_list:
        bars.append(Bar("vram", vram.value, float(min(g.vram_gb for g in r.gpu_list)), "GiB"))
    ram = report.estimate("ram_first_principles_gib")
    if ram is not None and ram.value is not None:
        bars.append(Bar("ram", ram.value, float(r.ram_gb) if r.memory else None, "GiB"))
    # the engine's layout: slots per CPU socket, lanes after M.2 sharing (PCI-9, PCI-10)
    seats: list[Seat] = list(report.placement.seats) if report.placement is not None else []
    sheet = Sheet(sheet_title(build.name or ""), today or date.today(), build, report, rows, bars, seats)
    if with_chart and build.workload is not None:
        sheet.chart, sheet.chart_unit = throughput_chart(build, catalogue, report)
    return sheet


def main_throughput(report: Report) -> tuple[float | None, str]:
    """The build's throughput (the machine's total, a serving workload's output tokens/s at its load, or the CPU
    alone's) and its unit."""
    est = main_estimate(report)
    if est is None:
        return None, ""
    return (float(est.value) if est.value is not None else None), est.unit


def throughput_chart(build: Build, catalogue: Mapping[str, AnyPart], report: Report,
                     tiers: list[Preset] | None = None) -> tuple[list[ChartPoint], str]:
    """This build's estimate beside the guides' tiers, each estimated for the same workload."""
    value, unit = main_throughput(report)
    points = [ChartPoint(sheet_title(build.name) or "this build", value or 0.0, True)]
    for preset in tiers if tiers is not None else presets(catalogue):
        tier_build = Build(preset.build.parts, name=preset.tier.id, options=preset.build.options,
                           workload=build.workload)
        v, tier_unit = main_throughput(check(tier_build, catalogue))
        unit = unit or tier_unit  # an empty build has no estimate of its own: the axis still gets its unit
        points.append(ChartPoint(preset.tier.id, v or 0.0, False))
    return points, unit



def round_ticks(top: float, count: int = 4) -> list[float]:
    """Axis ticks from 0 to at least ``top`` on a round step (1, 2, 2.5 or 5 × 10^k), about ``count`` of them."""
    if top <= 0:
        return [0.0, 1.0]
    raw = top / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    n = math.ceil(top / step - 1e-9)
    return [round(i * step, 10) for i in range(n + 1)]


def tick_text(value: float, ticks: list[float]) -> str:
    """A tick's label: whole numbers with thousands separators, fractions only where the step has them."""
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    return f"{value:,.0f}" if float(step).is_integer() else f"{value:,.2f}".rstrip("0").rstrip(".")
