"""Which of the Planner form's workload fields apply to the task and model chosen: the others are disabled,
saying why, or (the custom model's shape, the serving load, a diffusion model's steps, a vision model's image
size) hidden. Also core's problems with the workload, on the fields they name.

A mixin of :class:`~configurator.ui.planner.form.BuildForm` (its widgets are made by
:class:`~configurator.ui.planner.workload_form.WorkloadForm`); it decides nothing about the workload itself:
core's build reader does, and the results say why a choice cannot be."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QLabel, QSpinBox, QWidget

from configurator.core.build import (
    DEFAULT_DIFFUSION_STEPS,
    DEFAULT_RUNTIME,
    INFER_RUNTIMES,
    RUNTIMES,
    SERVE_DEFAULT_RUNTIME,
    SERVE_RUNTIMES,
    TRAIN_RUNTIMES,
    Workload,
)
from configurator.core.build.workload_rules import FP8_KV_RUNTIMES, NO_FP8_KV_RUNTIMES
from configurator.core.estimate.quant import QUANTS
from configurator.core.i18n import fill
from configurator.core.model_specs import KNOWN_MODELS, ModelSpec, default_steps
from configurator.core.parts import FieldError
from configurator.core.sheet import RUNTIME_LABELS
from configurator.ui.i18n import translate
from configurator.ui.planner.picker import HF_CONFIG, ModelPicker, mark_invalid

SERVE = "serve"  # the task combo's third value: inference under a load of requests (the file's ``task: serve``)
CUSTOM_ROWS = ("params", "layers", "hidden", "heads")  # the custom model's shape: shown for it only
SERVE_ROWS = ("serve_load", "concurrency", "request_rate", "prompt_tokens", "output_tokens")

# core's field paths -> the form's field keys
PROBLEM_FIELDS = {
    "workload.precision": "precision", "workload.task": "task", "workload.batch_size": "batch",
    "workload.seq_len": "seq", "workload.params": "params", "workload.layers": "layers",
    "workload.hidden": "hidden", "workload.heads": "heads", "workload.image_size": "image",
    "workload.optimizer": "optimizer", "workload.sharding": "sharding",
    "workload.runtime": "runtime", "workload.finetune": "finetune", "workload.lora_rank": "lora_rank",
    "workload.parallel": "parallel", "workload.offload": "offload", "workload.model": "model",
    "workload.optimizer_in_backward": "opt_backward", "workload.chunked_ce": "chunked_ce",
    "workload.attention": "attention", "workload.grad_checkpointing": "ckpt",
    "workload.dataset_gb": "dataset", "workload.quant": "quant", "workload.kv_cache": "kv_cache",
    "workload.model.hf_config": "model", "workload.steps": "steps",
    "workload.concurrency": "concurrency", "workload.request_rate": "request_rate",
    "workload.prompt_tokens": "prompt_tokens", "workload.output_tokens": "output_tokens",
}


def select(combo: QComboBox, value: object) -> None:
    combo.setCurrentIndex(max(combo.findData(value), 0))


def enable_item(combo: QComboBox, value: str, enabled: bool, why: str) -> None:
    """Let ``value`` be chosen, or grey it out in the list with ``why`` as its tooltip (a value already
    chosen stays chosen: the results say what is wrong with it)."""
    model = combo.model()
    i = combo.findData(value)
    if i < 0 or not isinstance(model, QStandardItemModel):
        return
    item = model.item(i)
    if item is None:
        return
    if item.isEnabled() != enabled:
        item.setEnabled(enabled)
    tip = "" if enabled else why
    if item.toolTip() != tip:  # greyed out for another reason now (training's runtime, then serving's)
        item.setToolTip(tip)


def _is_moe(spec: ModelSpec) -> bool:
    """A mixture-of-experts model (the catalogue's ``experts``)."""
    return spec.experts > 1


class WorkloadRules:
    """What applies to the workload chosen (a mixin over the form's workload widgets)."""

    # made by WorkloadForm._make_workload
    workload_box: QGroupBox
    workload_fields: dict[str, QWidget]
    wlabels: dict[str, QLabel]
    model: ModelPicker
    task: QComboBox
    runtime: QComboBox
    precision: QComboBox
    quant: QComboBox
    kv_cache: QComboBox
    finetune: QComboBox
    parallel: QComboBox
    serve_load: QComboBox
    request_rate: QDoubleSpinBox
    custom_layers: QSpinBox
    custom_image: QSpinBox
    steps: QSpinBox
    opt_backward: QCheckBox
    _updating: bool
    _why_not: dict[str, str]
    _edited: Callable[..., None]

    # -- the model ------------------------------------------------------------------------------
    def _spec(self) -> ModelSpec | None:
        model = self.model.currentData()
        if model == HF_CONFIG:
            return self.model.hf_spec
        return KNOWN_MODELS.get(str(model))

    def _family(self) -> str:
        model = self.model.currentData()
        if model == "custom":
            return "transformer" if self.custom_layers.value() else "cnn"
        spec = self._spec()
        return spec.family if spec is not None else "transformer"

    def _moe(self) -> bool:
        spec = self._spec()
        return spec is not None and _is_moe(spec)

    def _generative(self) -> bool:
        """A decoder language model (what task serve applies to, and what the inference runtimes run; an
        encoder, a CNN or a diffusion UNet runs in PyTorch): a config.json's, a custom transformer."""
        model = self.model.currentData()
        if model == "custom":
            return bool(self.custom_layers.value())
        spec = self._spec()
        if model == HF_CONFIG:
            return spec is None or spec.decoder
        return spec is not None and spec.decoder and spec.family == "transformer" and not spec.patch_size

    def _vision(self) -> bool:
        """A catalogue model that takes images (a CNN, a detector, a ViT, a diffusion UNet): its image size
        applies."""
        spec = KNOWN_MODELS.get(str(self.model.currentData()))
        return spec is not None and (spec.family != "transformer" or bool(spec.patch_size))

    def _form_task(self) -> str:
        """The task combo's value: train, infer or serve."""
        return str(self.task.currentData() or "train")

    def _core_task(self) -> str:
        """The workload's task (serving is inference under a load)."""
        task = self._form_task()
        return "infer" if task == SERVE else task

    # -- which fields apply --------------------------------------------------------------------------
    def _reasons(self) -> dict[str, str]:
        """Why each field that does not apply to this task and model does not (it is disabled, its value
        kept for when it applies again, and left out of the build)."""
        why: dict[str, str] = {}
        task = self._form_task()
        train = task == "train"
        cnn = self._family() == "cnn"
        if train:
            why["parallel"] = translate("Planner", "Applies to inference only: training divides a model's memory "
                                                   "over the GPUs with sharding")
        else:
            only = translate("Planner", "Applies to training only")
            for key in ("finetune", "lora_rank", "optimizer", "opt_backward", "sharding", "ckpt", "offload",
                        "chunked_ce"):
                why[key] = only
        if task == SERVE:
            why["batch"] = translate("Planner", "Serving: the runtime batches the requests in flight itself")
            why["seq"] = translate("Planner", "Serving: a request's length is its prompt and output tokens")
        if train:
            why["quant"] = translate("Planner", "Applies to inference only: training on quantised weights is QLoRA "
                                                "(Fine-tuning), in 8 bits precision FP8")
        elif cnn:
            why["quant"] = translate("Planner", "Quantised formats apply to transformer models only")
        if train:
            why["kv_cache"] = translate("Planner", "Applies to LLM inference and serving only")
        elif not self._generative():
            why["kv_cache"] = translate("Planner", "Applies to generative language models only (their KV cache)")
        if cnn:
            why.setdefault("finetune", translate("Planner", "LoRA and QLoRA apply to transformer models only: a "
                                                            "CNN is trained in full"))
            why.setdefault("seq", translate("Planner", "A CNN takes images, not sequences"))
            why.setdefault("chunked_ce", translate("Planner", "Applies to language models only (a loss over "
                                                              "the vocabulary)"))
            why["attention"] = translate("Planner", "Applies to transformer models only")
        if self._family() == "diffusion":
            why.setdefault("seq", translate("Planner", "A diffusion model's work follows from its image size and "
                                                       "denoising steps, not a sequence length"))
        elif self._vision() and self._family() == "transformer":
            why.setdefault("seq", translate("Planner", "A vision transformer's sequence follows from its image size "
                                                       "(one token per patch)"))
        if "lora_rank" not in why:
            if "finetune" in why:
                why["lora_rank"] = why["finetune"]
            elif self.finetune.currentData() == "full":
                why["lora_rank"] = translate("Planner", "Applies to LoRA and QLoRA only")
        return why

    def _shown_rows(self) -> dict[str, bool]:
        """The rows shown only where they apply: the custom model's shape, the image size (a custom or vision
        model), the serving load (task serve: concurrency or request rate) and the denoising steps
        (a diffusion model's inference)."""
        custom = self.model.currentData() == "custom"
        serve = self._form_task() == SERVE
        rate = self.serve_load.currentData() == "request_rate"
        shown = {key: custom for key in CUSTOM_ROWS}
        shown["image"] = custom or self._vision()
        shown.update({key: serve for key in SERVE_ROWS})
        shown["concurrency"] = serve and not rate
        shown["request_rate"] = serve and rate
        shown["steps"] = self._family() == "diffusion" and self._form_task() == "infer"
        return shown

    def row_shown(self, key: str) -> bool:
        """Whether the workload field ``key``'s row is shown (the rows that appear only where they apply)."""
        return self._shown_rows().get(key, True)

    def update_fields(self) -> None:
        """The rows that apply shown, and which fields apply (the others disabled, saying why)."""
        layout = self.workload_box.layout()
        assert isinstance(layout, QFormLayout)
        for key, shown in self._shown_rows().items():
            layout.setRowVisible(self.wlabels[key], shown)
        self._update_defaults()
        self._update_choices()
        self._why_not = why = self._reasons()
        on = self.workload_box.isChecked()  # unchecked: the group box greys every field out itself
        for key, widget in self.workload_fields.items():
            reason = why.get(key)
            widget.setEnabled(on and reason is None)
            self.wlabels[key].setEnabled(on and reason is None)
            self.wlabels[key].setToolTip(reason or "")
            if reason is not None:
                widget.setToolTip(reason)
                widget.setProperty("whyNot", True)
            elif widget.property("whyNot"):
                widget.setToolTip("")
                widget.setProperty("whyNot", False)

    def _update_defaults(self) -> None:
        """What 0 stands for in the image size and steps: the model's own figure."""
        spec = KNOWN_MODELS.get(str(self.model.currentData()))
        if spec is not None and self._vision():
            self.custom_image.setSpecialValueText(fill(translate("Planner", "model default ({size} px)"),
                                                       size=spec.image_size))
        else:
            self.custom_image.setSpecialValueText(translate("Planner", "model default"))
        steps = default_steps(spec) if spec is not None else DEFAULT_DIFFUSION_STEPS
        self.steps.setSpecialValueText(fill(translate("Planner", "default ({steps})"), steps=steps))

    def _update_choices(self) -> None:
        """The runtimes, precisions, formats and parallelisms the task and model can use; the others greyed out
        in their lists, saying why."""
        task = self._form_task()
        serve = task == SERVE
        runtimes = TRAIN_RUNTIMES if task == "train" else SERVE_RUNTIMES if serve else INFER_RUNTIMES
        if not self._updating and self.runtime.currentData() not in (None, *runtimes):
            select(self.runtime, None)  # the task's runtimes differ: its default, not another task's runtime
        # the default follows the format (AWQ: transformers, GGUF: llama.cpp) and fp8, as core's effective_runtime
        core_task = self._core_task()
        quant = self.quant.currentData() if core_task != "train" else None
        kv = self.kv_cache.currentData() if core_task != "train" else None
        chosen = Workload("custom", core_task, precision=str(self.precision.currentData()),
                          quant=str(quant) if quant is not None else None, kv_cache=str(kv) if kv else None,
                          concurrency=1 if serve else None).effective_runtime
        if core_task == "infer" and not self._generative() and chosen != "torch-compile":
            chosen = "pytorch"  # as the estimate runs it (throughput.runtime_used)
        default = translate("workload", RUNTIME_LABELS.get(chosen, RUNTIME_LABELS[DEFAULT_RUNTIME[core_task]]))
        self.runtime.setItemText(0, fill(translate("Planner", "default ({runtime})"), runtime=default))
        for_task = (translate("Planner", "Not for training") if task == "train"
                    else translate("Planner", "Cannot serve: serving needs continuous batching and a paged KV cache")
                    if serve else translate("Planner", "Not for inference"))
        for value in RUNTIMES:
            enable_item(self.runtime, value, value in runtimes, for_task)
        for value in ("int8", "int4"):
            enable_item(self.precision, value, task != "train",
                        translate("Planner", "For inference only: training needs fp32, amp, bf16, fp16 or fp8"))
        enable_item(self.task, SERVE, self._generative(),
                    translate("Planner", "For generative language models only"))
        serve_parallel = translate("Planner", "Serving splits a model over the GPUs with tensor parallelism, or runs "
                                              "a copy on each")
        enable_item(self.parallel, "pipeline", not serve, serve_parallel)
        enable_item(self.parallel, "expert", self._moe() and not serve,
                    serve_parallel if serve else translate("Planner", "For mixture-of-experts models only"))
        # an FP8 KV cache: not in a runtime without one (core's workload_rules.NO_FP8_KV_RUNTIMES)
        kv_runtime = self.runtime.currentData()
        if kv_runtime is None and quant is not None and not serve:
            kv_runtime = QUANTS[str(quant)].default_runtime
        enable_item(self.kv_cache, "fp8", kv_runtime not in NO_FP8_KV_RUNTIMES,
                    fill(translate("Planner", "{runtime} has no FP8 KV cache; it runs in {allowed}"),
                         runtime=translate("workload", RUNTIME_LABELS.get(str(kv_runtime), str(kv_runtime))),
                         allowed=", ".join(translate("workload", RUNTIME_LABELS.get(r, r)) for r in FP8_KV_RUNTIMES)))
        runtime = self.runtime.currentData()
        if runtime is None and serve:
            runtime = SERVE_DEFAULT_RUNTIME  # serving's default runs only its own formats
        shown = translate("workload", RUNTIME_LABELS.get(str(runtime), str(runtime)))
        for value, q in QUANTS.items():  # a stated runtime runs only some formats (core/estimate/quant.py)
            allowed = ", ".join(translate("workload", RUNTIME_LABELS.get(r, r)) for r in q.kernels)
            enable_item(self.quant, value, runtime is None or runtime in q.kernels,
                        fill(translate("Planner", "{runtime} cannot run this format; it runs in {allowed}"),
                             runtime=shown, allowed=allowed))

    def show_custom_fields(self) -> None:
        self.update_fields()

    def applies(self, key: str) -> bool:
        """Whether the workload field ``key`` applies to the task and model chosen (else it is disabled)."""
        return key not in self._why_not

    def show_problems(self, errors: tuple[FieldError, ...] | list[FieldError]) -> None:
        """Core's problems with the workload, on the fields they name (``workload.precision``)."""
        problems: dict[str, list[str]] = {}
        for e in errors:
            key = PROBLEM_FIELDS.get(e.path)
            if key is not None:
                problems.setdefault(key, []).append(e.message.render(translate))
        for key, widget in self.workload_fields.items():
            target = self.model.lineEdit() if key == "model" else widget
            if key in self._why_not:
                if target is not None and target.property("invalid"):
                    mark_invalid(target, None)  # an old problem's colour goes
                    widget.setToolTip(self._why_not[key])  # disabled: its tooltip says why it does not apply
                continue
            if target is not None:
                mark_invalid(target, "\n".join(problems[key]) if key in problems else None)
