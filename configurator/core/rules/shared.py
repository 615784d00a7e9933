"""What the rules of more than one family use (rule modules are named for their ID prefix: pwr.py holds
PWR-*): the check context (the resolved build and the estimates computed once per check), the note on
figures not verified against a vendor source, the draw while training (BUD-3, PWR-4), the case classes a
mid tower covers (THERM-2, Suggest) and the workload's memory options (FIT-1 names the ones that fit,
RAM-4 lists them all)."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from configurator.core.build import Resolved, Workload, workload_errors
from configurator.core.cloud import CloudPrice
from configurator.core.estimate.memory import RamEstimate, VramBreakdown, largest_batch, verdict, vram_per_gpu
from configurator.core.estimate.power import MeasuredPower, PowerEstimate, measured_draw_w, training_draw_w
from configurator.core.findings import Finding, Severity
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import FIELD_LABELS, AnyPart, Gpu, Part
from configurator.core.pcie import Placement
from configurator.core.units import GIB


@dataclass
class Ctx:
    r: Resolved
    power: PowerEstimate
    placement: Placement | None
    vram: VramBreakdown | None  # per GPU, for the workload
    ram: RamEstimate | None
    findings: list[Finding] = field(default_factory=list)
    counted: list[Gpu] = field(default_factory=list)  # GPUs in a slot or on a baseboard (engine.counted_gpus)
    cloud: tuple[CloudPrice, ...] = ()  # BUD-3's rental prices
    measured: MeasuredPower | None = None  # PWR-4, BUD-3: the draw measured on this machine, if any
    # The parts a fix may name (PCI-2/PCI-3: the boards that take every card); empty where only the verdict is
    # wanted (Suggest's thousands of checks).
    catalogue: Mapping[str, AnyPart] = field(default_factory=dict)

    @property
    def workload(self) -> Workload | None:
        return self.r.build.workload

    def ram_numbers(self) -> dict[str, Any]:
        """The host-RAM findings' numbers (FIT-2, RAM-1..3): installed, and the two estimates of the need."""
        est = self.ram
        assert est is not None
        return {"ram_gb": self.r.ram_gb, "first_principles_gb": est.first_principles_gib,
                "guide_formula_gb": est.guide_gib, "parts_gb": est.parts}

    def add(self, rule: str, severity: Severity, source: str, template: str,
            numbers: dict[str, Any] | None = None, guide: str | None = None,
            rests_on: Iterable[tuple[Part | None, str]] = (), **params: Any) -> None:
        """Add a finding. ``rests_on``: the parts' figures it was judged on, as (part, field name); where one
        is in its part's ``unverified`` list, the message ends "check the vendor's figure" and the numbers
        name it (``"unverified": ["part-id.field", ...]``)."""
        message = Message("rules", template, params)
        numbers = dict(numbers or {})
        doubtful = unverified_figures(rests_on)
        if doubtful:
            message = check_vendor(message, doubtful)
            numbers["unverified"] = [f"{p.id}.{name}" for p, name in doubtful]
        self.findings.append(Finding(rule, severity, source, message, numbers, guide))


    @functools.cached_property
    def memory_options(self) -> list[FitOption]:
        """:func:`fit_options` for this build's workload on its GPUs, worked out once per check: FIT-1 names
        the ones that fit, RAM-4 lists them all. Only where there are a workload and a GPU."""
        w = self.workload
        assert w is not None and self.r.gpu_list
        return fit_options(w, len(self.counted), min(g.vram_gb for g in self.r.gpu_list),
                           self.r.build.options.display_gpu)


Check = Callable[[Ctx], None]  # a rule family's check: adds its findings to the context

def unverified_figures(rests_on: Iterable[tuple[Part | None, str]]) -> list[tuple[Part, str]]:
    """The (part, field) pairs of ``rests_on`` that their part lists as unverified, each once, in order."""
    out: list[tuple[Part, str]] = []
    for part, name in rests_on:
        if part is not None and name in part.unverified and all(
                (p.id, n) != (part.id, name) for p, n in out):
            out.append((part, name))
    return out


def check_vendor(message: Message, doubtful: list[tuple[Part, str]]) -> Message:
    """``message`` followed by the sentence that names the unverified figures it rests on."""
    figures: Message | str = ""
    for part, name in doubtful:
        label = FIELD_LABELS.get(name, (name, ""))[0]
        one = Message("rules", QT_TRANSLATE_NOOP("rules", "{part}'s {field}"),
                      {"part": part.name, "field": Message("parts", label)})
        figures = one if figures == "" else Message("rules", QT_TRANSLATE_NOOP("rules", "{a}; {b}"),
                                                      {"a": figures, "b": one})
    return Message("rules", QT_TRANSLATE_NOOP(
        "rules", "{finding} This rests on a figure not verified against a vendor source ({figures}): check the "
        "vendor's figure."), {"finding": message, "figures": figures})


def training_draw(ctx: Ctx) -> tuple[int, Message | str]:
    """The draw while training (BUD-3, PWR-4) and, where it was measured on this machine, the sentence that
    says so."""
    m = ctx.measured
    if m is None:
        return training_draw_w(ctx.r), ""
    draw, rest = measured_draw_w(ctx.r, m)
    what = (Message("rules", QT_TRANSLATE_NOOP("rules", "GPUs and CPU packages")) if m.cpu
            else Message("rules", QT_TRANSLATE_NOOP("rules", "GPUs")))
    return draw, Message("rules", QT_TRANSLATE_NOOP(
        "rules", " Draw measured: {measured:,.0f} W ({what}, mean over {source}) + {rest} W estimated for the rest of "
                 "the platform."), {"measured": m.mean_w, "what": what, "source": m.source or "—", "rest": rest})


def mid_tower(form_factor: str) -> bool:
    """A case of a mid tower's size or smaller (THERM-2; Suggest sizes its cases with it)."""
    ff = form_factor.lower()
    return "mid tower" in ff or "mini tower" in ff or "micro" in ff or "itx" in ff or "sff" in ff


# The workload's memory options (FIT-1, RAM-4). What an option is called, translated where it is shown.
_OPTION_NAMES = {
    "lora": QT_TRANSLATE_NOOP("rules", "LoRA (rank {rank})"),
    "qlora": QT_TRANSLATE_NOOP("rules", "QLoRA (4-bit base, rank {rank})"),
    "offload": QT_TRANSLATE_NOOP("rules", "optimizer states offloaded to host RAM"),
    "checkpointing": QT_TRANSLATE_NOOP("rules", "activation checkpointing"),
    "adamw8bit": QT_TRANSLATE_NOOP("rules", "8-bit AdamW (bitsandbytes)"),
    "adamw-bf16": QT_TRANSLATE_NOOP("rules", "AdamW in bf16 (no fp32 master copy)"),
    "amp": QT_TRANSLATE_NOOP("rules", "mixed precision (amp)"),
    "batch": QT_TRANSLATE_NOOP("rules", "batch {batch} with gradient accumulation"),
    "fsdp": QT_TRANSLATE_NOOP("rules", "FSDP (ZeRO-3) over {gpus} GPUs"),
    "int8": QT_TRANSLATE_NOOP("rules", "int8 weights"),
    "int4": QT_TRANSLATE_NOOP("rules", "int4 weights"),
    "tensor": QT_TRANSLATE_NOOP("rules", "tensor parallel over {gpus} GPUs"),
}
_VERDICTS = {"fits": QT_TRANSLATE_NOOP("rules", "fits"), "tight": QT_TRANSLATE_NOOP("rules", "tight"),
             "does_not_fit": QT_TRANSLATE_NOOP("rules", "does not fit")}
MIN_SAVING = 0.05  # an option that saves less than this share of the estimate is not listed
MAX_SPLIT_GPUS = 8  # the most GPUs an option splits over (boards with 7 or 8 x16-length slots, an HGX board)


@dataclass(frozen=True)
class FitOption:
    """One change to the workload (or the GPU count) and the memory estimate per GPU with it."""

    key: str
    change: dict[str, Any]
    gpus: int
    gib: float
    verdict: str
    params: dict[str, Any]

    def message(self) -> Message:
        return Message("rules", QT_TRANSLATE_NOOP("rules", "{name} {gib:.1f} GiB ({verdict})"),
                       {"name": Message("rules", _OPTION_NAMES[self.key], self.params), "gib": self.gib,
                        "verdict": Message("rules", _VERDICTS[self.verdict])})

    def to_json(self) -> dict[str, Any]:
        return {"option": self.key, "change": self.change, "gpus": self.gpus, "gib": round(self.gib, 2),
                "verdict": self.verdict}


def option_list(options: list[FitOption]) -> Message:
    """The options' messages joined by semicolons."""
    return Message("rules", "; ".join(f"{{o{i}}}" for i in range(len(options))),
                   {f"o{i}": o.message() for i, o in enumerate(options)})


def fit_options(w: Workload, n_gpus: int, have_gib: float, display_gpu: bool = False) -> list[FitOption]:
    """The options the planner models that apply to this workload, each alone, with the memory estimate
    per GPU it gives (``vram_per_gpu`` with the option changed) and its verdict on a ``have_gib`` card, the
    ones that fit first (least memory first): fine-tuning method, optimizer offload, activation
    checkpointing, 8-bit or bf16 AdamW, mixed precision, a smaller batch, sharding over more GPUs
    (training); int8/int4 weights and tensor parallelism (inference). The GPU count of a split is the
    fewest up to MAX_SPLIT_GPUS that fits (or that many)."""
    spec = w.spec()
    n = max(n_gpus, 1)
    changes: list[tuple[str, dict[str, Any], int, dict[str, Any]]] = []
    if w.task == "train":
        if spec.is_transformer and w.finetune == "full":
            changes += [("lora", {"finetune": "lora"}, n, {"rank": w.lora_rank}),
                        ("qlora", {"finetune": "qlora"}, n, {"rank": w.lora_rank})]
        if w.offload in ("none", "activations") and w.effective_optimizer not in ("sgd_nomomentum",):
            changes.append(("offload", {"offload": "optimizer" if w.offload == "none" else "all"}, n, {}))
        if not w.grad_checkpointing:
            changes.append(("checkpointing", {"grad_checkpointing": True}, n, {}))
        if w.effective_optimizer in ("adamw", "adam"):
            changes.append(("adamw8bit", {"optimizer": "adamw8bit"}, n, {}))
            if w.precision == "bf16":
                changes.append(("adamw-bf16", {"optimizer": "adamw-bf16"}, n, {}))
        if w.precision == "fp32":
            changes.append(("amp", {"precision": "amp"}, n, {}))
        batch = largest_batch(w, n, have_gib, display_gpu)
        if 0 < batch < w.effective_batch:
            changes.append(("batch", {"batch_size": batch}, n, {"batch": batch}))
        if w.sharding not in ("zero3", "fsdp") or n < MAX_SPLIT_GPUS:
            sharded = dataclasses.replace(w, sharding="fsdp")
            k = _fewest(sharded, max(n, 2) if w.sharding not in ("zero3", "fsdp") else n + 1, have_gib, display_gpu)
            if k is not None:
                changes.append(("fsdp", {"sharding": "fsdp", "gpus": k}, k, {"gpus": k}))
    else:
        if spec.is_transformer:
            for p in ("int8", "int4"):
                if WEIGHT_BYTES_ORDER.index(p) > WEIGHT_BYTES_ORDER.index(w.precision):
                    changes.append((p, {"precision": p}, n, {}))
            if w.parallel == "none" or (w.parallel == "tensor" and n < MAX_SPLIT_GPUS):
                split = dataclasses.replace(w, parallel="tensor")
                k = _fewest(split, max(n, 2) if w.parallel == "none" else n + 1, have_gib, display_gpu)
                if k is not None:
                    changes.append(("tensor", {"parallel": "tensor", "gpus": k}, k, {"gpus": k}))
    need = vram_per_gpu(w, n, display_gpu=display_gpu).total / GIB
    out: list[FitOption] = []
    for key, change, gpus, params in changes:
        fields = {f: v for f, v in change.items() if f != "gpus"}
        changed = dataclasses.replace(w, **fields)
        if workload_errors(changed):
            continue  # not a workload the planner accepts (a runtime that cannot run the precision)
        v = vram_per_gpu(changed, gpus, display_gpu=display_gpu)
        if v.total / GIB > need * (1 - MIN_SAVING):
            continue  # saves (next to) nothing for this workload: not an option
        out.append(FitOption(key, change, gpus, v.total / GIB, verdict(v, have_gib), params))
    order = {"fits": 0, "tight": 1, "does_not_fit": 2}
    return sorted(out, key=lambda o: (order[o.verdict], o.gib))


# Weight formats from the widest to the narrowest: a quantisation option only narrows.
WEIGHT_BYTES_ORDER = ("fp32", "amp", "bf16", "fp16", "int8", "int4")


def _fewest(w: Workload, start: int, have_gib: float, display_gpu: bool) -> int | None:
    """The fewest GPUs from ``start`` up to MAX_SPLIT_GPUS over which this split workload fits (else is only
    tight; a tensor split only over a GPU count that divides the heads), else the most; None: no count."""
    heads = w.spec().heads
    counts = [k for k in range(max(start, 2), MAX_SPLIT_GPUS + 1)
              if w.parallel != "tensor" or (heads > 0 and heads % k == 0)]
    verdicts = {k: verdict(vram_per_gpu(w, k, display_gpu=display_gpu), have_gib) for k in counts}
    for wanted in ("fits", "tight"):
        got = next((k for k in counts if verdicts[k] == wanted), None)
        if got is not None:
            return got
    return counts[-1] if counts else None
