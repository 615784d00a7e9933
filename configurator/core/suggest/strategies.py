"""How Suggest changes a workload to make it fit, and says so: one stream of a language model split over the
GPUs with tensor parallelism (and a one-GPU answer given its workload back), LLM training sharded with FSDP,
its optimizer states offloaded, then LoRA, then QLoRA."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from configurator.core.build import Workload
from configurator.core.engine import check
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import AnyPart
from configurator.core.suggest.serve import served
from configurator.core.suggest.space import SuggestOptions
from configurator.core.suggest.suggestion import Suggestion


def split_inference(w: Workload, prefs: SuggestOptions) -> list[tuple[Workload, Message | None]]:
    """One stream of a language model (inference, no model parallelism given): searched split over the GPUs
    with tensor parallelism, which holds a model too big for one card and decodes one stream faster over
    the cards' combined memory bandwidth; a one-GPU answer goes back to the workload as given (unsplit)."""
    if w.task != "infer" or not w.spec().decoder or w.parallel != "none" or prefs.max_gpus < 2:
        return []
    return [(dataclasses.replace(w, parallel="tensor"), None)]


def unsplit(picked: list[Suggestion], catalogue: Mapping[str, AnyPart], given: Workload) -> list[Suggestion]:
    """Suggestions of a tensor-parallel search: one-GPU builds get the workload as given back (the estimates
    are the same, tensor parallelism over one GPU being none); builds over several GPUs say how they split."""
    out = []
    for i, s in enumerate(picked):
        w = s.workload
        if w is None or w.parallel == given.parallel:
            out.append(s)
            continue
        if s.gpu[1] <= 1:
            build = dataclasses.replace(s.build, workload=given)
            report = check(build, catalogue)
            out.append(dataclasses.replace(s, build=build, report=report,
                                           serving=served(report, s.serving.target) if s.serving else None))
            continue
        strategy = Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Split over {n} GPUs with tensor parallelism (vLLM or TensorRT-LLM, --tensor-parallel-size "
                       "{n}): each GPU holds 1/{n} of the weights and the KV cache, and one stream decodes over "
                       "their combined memory bandwidth."), {"n": s.gpu[1]})
        reasons = (*s.reasons, strategy) if i == 0 else s.reasons
        out.append(dataclasses.replace(s, strategy=strategy, reasons=reasons))
    return out


def memory_strategies(w: Workload, prefs: SuggestOptions) -> list[tuple[Workload, Message]]:
    """For LLM training kept as given (no sharding, full fine-tuning): sharded, then LoRA, then QLoRA."""
    spec = w.spec()
    if w.task != "train" or spec.family != "transformer" or w.sharding != "none" or w.finetune != "full":
        return []
    out: list[tuple[Workload, Message]] = []
    if prefs.max_gpus >= 2:
        out.append((dataclasses.replace(w, sharding="fsdp", offload="none"), Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Sharded with FSDP (ZeRO-3): without sharding no GPU build within the budget holds the "
                       "model's weights, gradients and optimizer states; FSDP splits them across the GPUs."))))
        # Still short: the optimizer states offloaded to host memory (ZeRO-Offload) beside the sharding.
        offloaded = dataclasses.replace(w, sharding="fsdp", offload="optimizer")
        out.append((offloaded, Message("suggest", QT_TRANSLATE_NOOP(
            "suggest", "Sharded with FSDP (ZeRO-3) and the optimizer states offloaded to host memory: sharding "
                       "alone does not fit any GPU build within the budget."))))
    if prefs.keep_finetune:
        return out  # the user chose full fine-tuning: sharding only
    out.append((dataclasses.replace(w, finetune="lora"), Message("suggest", QT_TRANSLATE_NOOP(
        "suggest", "Fine-tuned with LoRA (rank {rank}): full training does not fit any GPU build within the "
                   "budget, even sharded; LoRA trains small adapters beside the frozen weights."),
        {"rank": w.lora_rank})))
    out.append((dataclasses.replace(w, finetune="qlora"), Message("suggest", QT_TRANSLATE_NOOP(
        "suggest", "Fine-tuned with QLoRA (4-bit base, rank {rank}): neither full training nor LoRA fits any "
                   "GPU build within the budget."), {"rank": w.lora_rank})))
    return out
