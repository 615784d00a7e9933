"""The Planner form's workload section: the model (from the catalogue, a Hugging Face config.json, or a custom
one), the task (training, inference, or serving under a load of requests), how it runs, and the options of
each; the widgets to and from a :class:`~configurator.core.build.Workload`.

A mixin of :class:`~configurator.ui.planner.form.BuildForm`; which fields apply is
:class:`~configurator.ui.planner.workload_rules.WorkloadRules`'s."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QLabel, QSpinBox, QWidget

from configurator.core.build import (
    ATTENTION,
    FINETUNE,
    MAX_CONCURRENCY,
    MAX_REQUEST_RATE,
    OFFLOAD,
    OPTIMIZERS,
    PARALLEL,
    PRECISIONS,
    RUNTIMES,
    SHARDING,
    TASKS,
    WORKLOAD_INT_LIMITS,
    Workload,
)
from configurator.core.estimate.quant import QUANTS
from configurator.core.i18n import fill
from configurator.core.model_specs import ModelSpec, custom_model_fields
from configurator.core.models import ConfigError, read_hf_config
from configurator.core.sheet import (
    ATTENTION_LABELS,
    FINETUNE_LABELS,
    OFFLOAD_LABELS,
    OPTIMIZER_LABELS,
    PARALLEL_LABELS,
    PRECISION_LABELS,
    RUNTIME_LABELS,
    SHARDING_LABELS,
    TASK_LABELS,
    quant_label,
)
from configurator.ui.files import open_file
from configurator.ui.i18n import translate
from configurator.ui.planner.picker import HF_CONFIG, ModelPicker
from configurator.ui.planner.workload_rules import SERVE, WorkloadRules, select
from configurator.ui.theme import colours

# A serving load's starting figures (the user's to change): 16 clients in flight, or 2 requests/s, each with a
# 1,024-token prompt and 256 generated tokens
SERVE_DEFAULTS = {"concurrency": 16, "prompt_tokens": 1024, "output_tokens": 256}
SERVE_DEFAULT_RATE = 2.0
LOADS = ("concurrency", "request_rate")


def connect_edits(widget: QWidget, slot: Any) -> None:
    for signal in ("currentIndexChanged", "valueChanged", "toggled"):
        if hasattr(widget, signal):
            getattr(widget, signal).connect(slot)


def choices(name: str, values: tuple[str | None, ...]) -> QComboBox:
    """A combo box over a workload key's values (the item's data; its text is set by ``retranslate``)."""
    combo = QComboBox()
    combo.setObjectName(name)
    for value in values:
        combo.addItem(value or "", value)
    return combo


def _spin(name: str, low: int, high: int, value: int = 0) -> QSpinBox:
    box = QSpinBox()
    box.setObjectName(name)
    box.setRange(low, high)
    box.setValue(value)
    box.setGroupSeparatorShown(True)
    return box


class WorkloadForm(WorkloadRules):
    """The workload's widgets (a mixin of the build form)."""

    def _make_workload(self) -> QGroupBox:
        self.workload_box = QGroupBox()
        self.workload_box.setCheckable(True)
        self.workload_box.toggled.connect(self._edited)
        wf = QFormLayout(self.workload_box)
        wf.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.model = ModelPicker()
        self.model.setObjectName("model")
        self.model.fill_models()
        self.model.hf_requested.connect(self.pick_hf_config)
        self.model.picked.connect(self._model_picked)
        # what was wrong with the last config.json chosen (the file, the field, why), under the model
        self.model_problem = QLabel()
        self.model_problem.setObjectName("modelProblem")
        self.model_problem.setWordWrap(True)
        self.model_problem.setVisible(False)
        self._model_error: ConfigError | None = None
        self.settings: QSettings | None = None  # the file dialogs' last folders (the tab's settings)
        self.task = choices("task", (*TASKS, SERVE))
        self.runtime = choices("runtime", (None, *RUNTIMES))
        self.precision = choices("precision", PRECISIONS)
        self.quant = choices("quant", (None, *QUANTS))
        self.kv_cache = choices("kvCache", (None, "fp8"))  # None: the model's 16-bit cache (core's default)
        self.batch = _spin("batch", 0, 65536)
        self.batch.setGroupSeparatorShown(False)
        self.seq = _spin("seqLen", 0, 1_000_000)
        self.seq.setGroupSeparatorShown(False)
        self.finetune = choices("finetune", FINETUNE)
        self.lora_rank = _spin("loraRank", 1, 4096, Workload.lora_rank)
        self.lora_rank.setGroupSeparatorShown(False)
        self.optimizer = choices("optimizer", (None, *OPTIMIZERS))
        self.opt_backward = QCheckBox()
        self.opt_backward.setObjectName("optimizerInBackward")
        self.sharding = choices("sharding", SHARDING)
        self.parallel = choices("parallel", PARALLEL)
        self.checkpointing = QCheckBox()
        self.checkpointing.setObjectName("checkpointing")
        self.offload = choices("offload", OFFLOAD)
        self.chunked_ce = QCheckBox()
        self.chunked_ce.setObjectName("chunkedCe")
        self.attention = choices("attention", ATTENTION)
        self.dataset = QDoubleSpinBox()
        self.dataset.setRange(0, 1e6)
        self.dataset.setDecimals(1)
        self.dataset.setSuffix(" GB")
        self.custom_params = QDoubleSpinBox()
        self.custom_params.setRange(0, 1e13)
        self.custom_params.setDecimals(0)
        self.custom_params.setSingleStep(1e6)
        self.custom_layers, self.custom_hidden, self.custom_heads = QSpinBox(), QSpinBox(), QSpinBox()
        self.custom_image = QSpinBox()
        for sb in (self.custom_layers, self.custom_hidden, self.custom_heads, self.custom_image):
            sb.setRange(0, 100000)
        self.custom_image.setObjectName("imageSize")
        self.custom_image.setSuffix(" px")
        self._make_load()
        self.steps = _spin("steps", 0, WORKLOAD_INT_LIMITS["steps"])
        self.workload_fields: dict[str, QWidget] = {
            "model": self.model, "params": self.custom_params, "layers": self.custom_layers,
            "hidden": self.custom_hidden, "heads": self.custom_heads, "image": self.custom_image,
            "task": self.task, "serve_load": self.serve_load, "concurrency": self.concurrency,
            "request_rate": self.request_rate, "prompt_tokens": self.prompt_tokens,
            "output_tokens": self.output_tokens, "runtime": self.runtime, "precision": self.precision,
            "quant": self.quant, "kv_cache": self.kv_cache, "batch": self.batch, "seq": self.seq, "steps": self.steps,
            "finetune": self.finetune, "lora_rank": self.lora_rank, "optimizer": self.optimizer,
            "opt_backward": self.opt_backward, "sharding": self.sharding, "parallel": self.parallel,
            "ckpt": self.checkpointing, "offload": self.offload, "chunked_ce": self.chunked_ce,
            "attention": self.attention, "dataset": self.dataset}
        self.wlabels = {k: QLabel() for k in self.workload_fields}
        for key, w in self.workload_fields.items():
            self.wlabels[key].setBuddy(w)
            wf.addRow(self.wlabels[key], w)
            connect_edits(w, self._edited)
            if key == "model":
                wf.addRow(self.model_problem)
        self._why_not: dict[str, str] = {}  # field key -> why it does not apply (the field is disabled)
        return self.workload_box

    def _make_load(self) -> None:
        """The serving load: clients in flight or arrivals per second, and each request's tokens."""
        self.serve_load = choices("serveLoad", LOADS)
        self.concurrency = _spin("concurrency", 1, MAX_CONCURRENCY, SERVE_DEFAULTS["concurrency"])
        self.request_rate = QDoubleSpinBox()
        self.request_rate.setObjectName("requestRate")
        self.request_rate.setRange(0.01, MAX_REQUEST_RATE)
        self.request_rate.setDecimals(2)
        self.request_rate.setValue(SERVE_DEFAULT_RATE)
        self.request_rate.setGroupSeparatorShown(True)
        limit = WORKLOAD_INT_LIMITS["seq_len"]
        self.prompt_tokens = _spin("promptTokens", 1, limit, SERVE_DEFAULTS["prompt_tokens"])
        self.output_tokens = _spin("outputTokens", 1, limit, SERVE_DEFAULTS["output_tokens"])

    # -- widgets <-> workload ----------------------------------------------------------------------
    def workload(self) -> Workload:
        """The workload the fields show: what applies to its task and model, as chosen."""
        self._why_not = self._reasons()
        model = str(self.model.currentData())
        kw: dict[str, Any] = {"model": model, "task": self._core_task(),
                              "precision": str(self.precision.currentData())}
        if model == HF_CONFIG:
            kw["hf_config"] = self.model.hf_path
        if self._form_task() == SERVE:
            load = str(self.serve_load.currentData())
            kw[load] = self.concurrency.value() if load == "concurrency" else self.request_rate.value()
            kw["prompt_tokens"], kw["output_tokens"] = self.prompt_tokens.value(), self.output_tokens.value()
        if self.batch.value() and self.applies("batch"):
            kw["batch_size"] = self.batch.value()
        if self.seq.value() and self.applies("seq"):
            kw["seq_len"] = self.seq.value()
        if self.steps.value() and self.row_shown("steps"):
            kw["steps"] = self.steps.value()
        if self.custom_image.value() and model != "custom" and self._vision():
            kw["image_size"] = self.custom_image.value()
        for key, name, combo in (("runtime", "runtime", self.runtime), ("finetune", "finetune", self.finetune),
                                 ("optimizer", "optimizer", self.optimizer), ("sharding", "sharding", self.sharding),
                                 ("parallel", "parallel", self.parallel), ("offload", "offload", self.offload),
                                 ("attention", "attention", self.attention), ("quant", "quant", self.quant),
                                 ("kv_cache", "kv_cache", self.kv_cache)):
            if self.applies(key) and combo.currentData() is not None:
                kw[name] = str(combo.currentData())
        if self.applies("lora_rank"):
            kw["lora_rank"] = self.lora_rank.value()
        for key, name, box in (("opt_backward", "optimizer_in_backward", self.opt_backward),
                               ("ckpt", "grad_checkpointing", self.checkpointing),
                               ("chunked_ce", "chunked_ce", self.chunked_ce)):
            if self.applies(key):
                kw[name] = box.isChecked()
        if self.dataset.value():
            kw["dataset_gb"] = self.dataset.value()
        if model == "custom":
            kw.update(custom_model_fields(self.custom_params.value(), self.custom_layers.value(),
                                          self.custom_hidden.value(), self.custom_heads.value(),
                                          self.custom_image.value()))
        return Workload(**kw)

    def _load_workload(self, w: Workload) -> None:
        """The fields set to a workload's keys (a value it does not state keeps the form's)."""
        if w.hf_config is not None:
            self._load_hf(w.hf_config)
        else:
            self.model.select(w.model)
            self._show_model_problem(None)
        select(self.task, SERVE if w.serving else w.task)
        if w.serving:
            select(self.serve_load, "concurrency" if w.concurrency is not None else "request_rate")
            if w.concurrency is not None:
                self.concurrency.setValue(w.concurrency)
            if w.request_rate is not None:
                self.request_rate.setValue(w.request_rate)
            self.prompt_tokens.setValue(w.prompt_tokens or SERVE_DEFAULTS["prompt_tokens"])
            self.output_tokens.setValue(w.output_tokens or SERVE_DEFAULTS["output_tokens"])
        select(self.runtime, w.runtime)
        select(self.precision, w.precision)
        select(self.quant, w.quant)
        select(self.kv_cache, w.kv_cache)
        self.batch.setValue(w.batch_size or 0)
        self.seq.setValue(w.seq_len or 0)
        self.steps.setValue(w.steps or 0)
        select(self.finetune, w.finetune)
        self.lora_rank.setValue(w.lora_rank)
        select(self.optimizer, w.optimizer)
        self.opt_backward.setChecked(w.optimizer_in_backward)
        select(self.sharding, w.sharding)
        select(self.parallel, w.parallel)
        self.checkpointing.setChecked(w.grad_checkpointing)
        select(self.offload, w.offload)
        self.chunked_ce.setChecked(w.chunked_ce)
        select(self.attention, w.attention)
        self.dataset.setValue(w.dataset_gb or 0)
        self.custom_params.setValue(w.params or 0)
        self.custom_layers.setValue(w.layers or 0)
        self.custom_hidden.setValue(w.hidden or 0)
        self.custom_heads.setValue(w.heads or 0)
        self.custom_image.setValue(w.image_size or 0)

    # -- a Hugging Face config.json as the model ------------------------------------------------------
    def pick_hf_config(self) -> None:
        """Ask for a config.json and read it: its model becomes the workload's, or, if it cannot be used, the
        line under the model says why (the file, the field) and the workload keeps its model."""
        settings = self.settings if self.settings is not None else QSettings()
        assert isinstance(self, QWidget)
        path = open_file(self, settings, "hf-config", translate("Planner", "Open a Hugging Face config.json"),
                         Path.home(), translate("Planner", "Hugging Face config (*.json);;All files (*)"))
        if not path:
            return
        try:
            spec = read_hf_config(Path(path), path)
        except ConfigError as exc:
            self._show_model_problem(exc)
            return
        self._show_model_problem(None)
        self.model.set_hf(path, spec)  # chosen: the form's edit follows (the same entry again: said below)
        self._edited()

    def _load_hf(self, path: str) -> None:
        """A build's config.json, read again (it may have changed or gone since the build was saved)."""
        try:
            spec: ModelSpec | None = read_hf_config(Path(path), path)
        except ConfigError as exc:
            spec = None
            self._show_model_problem(exc)
        else:
            self._show_model_problem(None)
        self.model.set_hf(path, spec)

    def _show_model_problem(self, exc: ConfigError | None) -> None:
        self._model_error = exc
        if exc is None:
            self.model_problem.clear()
            self.model_problem.setVisible(False)
            return
        field = f"{exc.field_name}: " if exc.field_name else ""
        self.model_problem.setText(fill(translate("Planner", "{file}: {field}{problem}"), file=exc.path, field=field,
                                        problem=exc.message.render(translate)))
        self.model_problem.setStyleSheet(f"color: {colours(self.model_problem.palette()).error};")
        self.model_problem.setVisible(True)

    def _model_picked(self) -> None:
        if self.model.currentData() != HF_CONFIG and not self._updating:
            self._show_model_problem(None)  # another model: the config.json's problem is no longer the form's

    # -- language ---------------------------------------------------------------------------
    def _retranslate_workload(self) -> None:
        self.workload_box.setTitle(translate("Planner", "Workload"))
        names = {
            "model": translate("Planner", "Model"),
            "task": translate("Planner", "Task"),
            "serve_load": translate("Planner", "Load"),
            "concurrency": translate("Planner", "Requests in flight"),
            "request_rate": translate("Planner", "Request rate"),
            "prompt_tokens": translate("Planner", "Prompt tokens"),
            "output_tokens": translate("Planner", "Output tokens"),
            "runtime": translate("Planner", "Runtime"),
            "precision": translate("Planner", "Precision"),
            "quant": translate("Planner", "Quantisation"),
            "kv_cache": translate("Planner", "KV cache"),
            "batch": translate("Planner", "Batch per GPU"),
            "seq": translate("Planner", "Sequence length"),
            "steps": translate("Planner", "Denoising steps"),
            "finetune": translate("Planner", "Fine-tuning"),
            "lora_rank": translate("Planner", "LoRA rank"),
            "optimizer": translate("Planner", "Optimizer"),
            "opt_backward": translate("Planner", "Optimizer step in backward"),
            "sharding": translate("Planner", "Sharding"),
            "parallel": translate("Planner", "Model parallelism"),
            "ckpt": translate("Planner", "Activation checkpointing"),
            "offload": translate("Planner", "Offload to CPU"),
            "chunked_ce": translate("Planner", "Chunked cross-entropy"),
            "attention": translate("Planner", "Attention kernel"),
            "dataset": translate("Planner", "Data set"),
            "params": translate("Planner", "Parameters"),
            "layers": translate("Planner", "Layers"),
            "hidden": translate("Planner", "Hidden size"),
            "heads": translate("Planner", "Attention heads"),
            "image": translate("Planner", "Image size"),
        }
        for key, label in self.wlabels.items():
            label.setText(names[key])
        self.opt_backward.setText(translate("Planner", "no stored gradients"))
        self.checkpointing.setText(translate("Planner", "recompute activations in backward"))
        self.chunked_ce.setText(translate("Planner", "no full-vocabulary logits kept"))
        self.model.retranslate()
        self._show_model_problem(self._model_error)
        labels = {self.task: TASK_LABELS, self.runtime: RUNTIME_LABELS, self.precision: PRECISION_LABELS,
                  self.finetune: FINETUNE_LABELS, self.optimizer: OPTIMIZER_LABELS, self.sharding: SHARDING_LABELS,
                  self.parallel: PARALLEL_LABELS, self.offload: OFFLOAD_LABELS, self.attention: ATTENTION_LABELS}
        for combo, table in labels.items():
            for i in range(combo.count()):
                value = combo.itemData(i)
                if value is not None:
                    combo.setItemText(i, translate("workload", table.get(value, value)))
        self.task.setItemText(self.task.findData(SERVE), translate("Planner", "Serving (LLM under load)"))
        self.serve_load.setItemText(0, translate("Planner", "requests in flight (concurrency)"))
        self.serve_load.setItemText(1, translate("Planner", "requests per second (rate)"))
        self.request_rate.setSuffix(" " + translate("Planner", "requests/s"))
        self.prompt_tokens.setToolTip(translate("Planner", "Mean tokens in a request's prompt"))
        self.output_tokens.setToolTip(translate("Planner", "Mean tokens generated per request"))
        self.steps.setToolTip(translate("Planner", "Denoising steps per image (the sampler's num_inference_steps)"))
        for i in range(self.quant.count()):
            self.quant.setItemText(i, translate("workload", quant_label(self.quant.itemData(i))))
        self.kv_cache.setItemText(0, translate("Planner", "16-bit (the model's, default)"))
        self.kv_cache.setItemText(1, translate("Planner", "FP8 (1 B per element: twice the tokens)"))
        self.kv_cache.setToolTip(translate("Planner", "The KV cache's element type (vLLM --kv-cache-dtype fp8, "
                                                      "TensorRT-LLM KvCacheConfig dtype fp8)"))
        default_opt = translate("Planner", "model default (AdamW for transformers, SGD for CNNs)")
        self.optimizer.setItemText(0, default_opt)
        self.update_fields()
        self.batch.setSpecialValueText(translate("Planner", "model default"))
        self.seq.setSpecialValueText(translate("Planner", "model default"))
        self.dataset.setSpecialValueText(translate("Planner", "not set"))
