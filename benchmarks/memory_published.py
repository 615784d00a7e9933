"""The VRAM estimate against published peak-memory figures (db/measurements, column ``peak_memory_gb``): the
fine-tuning recipes' own tables (torchtune's README). Each row's recipe is said to the estimator through the
workload keys its flags name; the residual measured / estimated sets estimate/memory's PUBLISHED_RATIO, the
range the VRAM estimate widens to. Headless: no torch.

The models are built from their Hugging Face config.json values as the model catalogue (db/models/llama.toml,
branch models) copied them; until the catalogue is merged they are written here with the same sources.
"""

from __future__ import annotations

import dataclasses
import math
from typing import NamedTuple

from configurator.core.build import Workload
from configurator.core.estimate.memory import transformer_params, vram_per_gpu
from configurator.core.measurements import Measurement, load
from configurator.core.model_specs import KNOWN_MODELS, ModelSpec
from configurator.core.units import GIB

# hidden, layers, heads, kv_heads, intermediate, vocab, tied embeddings; from each model's config.json
CONFIGS = {
    # https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json
    "llama-3.1-8b": (4096, 32, 32, 8, 14336, 128256, False),
    # https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json
    "llama-3.1-70b": (8192, 80, 64, 8, 28672, 128256, False),
    # https://huggingface.co/meta-llama/Llama-3.2-3B/blob/main/config.json
    "llama-3.2-3b": (3072, 28, 24, 8, 8192, 128256, True),
}

# Flags the estimator cannot state, and why the row is left out of the comparison
NOT_STATED = {
    "cpu-offload": "FSDP CPUOffload moves the parameters and gradients to the host too; the build file's offload "
                   "covers the optimizer states and the activations only",
}
UNPACKED = ("torchtune rows without the flag packed: seq_len is the recipe's maximum, the samples run are "
            "shorter (their lengths are not published)")


class Compared(NamedTuple):
    id: str
    measured_gib: float
    estimate_gib: float
    low_gib: float
    high_gib: float
    settings: str

    @property
    def ratio(self) -> float:
        return self.measured_gib / self.estimate_gib

    @property
    def inside(self) -> bool:
        return self.low_gib <= self.measured_gib <= self.high_gib


def spec_for(model: str) -> ModelSpec | None:
    if model in KNOWN_MODELS:
        return KNOWN_MODELS[model]
    if model not in CONFIGS:
        return None
    h, layers, heads, kv, ffn, vocab, tied = CONFIGS[model]
    spec = dataclasses.replace(KNOWN_MODELS["llama-7b"], name=model, params=0.0, hidden=h, layers=layers,
                               heads=heads, kv_heads=kv, intermediate=ffn, vocab=vocab, tied_head=tied,
                               context=131072)
    linear, other = transformer_params(spec)
    return dataclasses.replace(spec, params=linear + other)


def workload_for(m: Measurement) -> tuple[Workload, ModelSpec] | None:
    """The build file's workload that says this row's recipe, or None where its flags say what it cannot."""
    spec = spec_for(m.model)
    if spec is None or m.task != "train" or not m.batch_size or not m.seq_len:
        return None
    flags = set(m.flags)
    if flags & set(NOT_STATED) or (not flags & {"packed"} and m.origin == "torchtune"):
        return None
    optimizer = next((o for o in ("paged-adamw8bit", "adamw8bit", "adamw-bf16") if o in flags), "adamw-bf16")
    finetune = "qlora" if "qlora" in flags else "lora" if "lora" in flags else "full"
    offload = "activations" if "activation-offload" in flags else "none"
    w = Workload(model="llama-7b", task="train", precision=m.precision or "bf16", batch_size=m.batch_size,
                 seq_len=m.seq_len, optimizer=optimizer, grad_checkpointing="grad-ckpt" in flags,
                 sharding="fsdp" if "fsdp" in flags else "none", finetune=finetune, offload=offload,
                 optimizer_in_backward="optimizer-in-backward" in flags, chunked_ce="chunked-ce" in flags,
                 lora_rank=8)  # torchtune's Llama 3.x LoRA configs: lora_rank 8
    object.__setattr__(w, "_spec", spec)  # the catalogue's model, until db/models is merged
    return w, spec


def compare(rows: list[Measurement] | None = None, *, widen: bool = True) -> list[Compared]:
    """Every published peak-memory row the estimator can state, beside the estimate for its GPU count.
    ``widen=False``: the range before PUBLISHED_RATIO widens it (what the ratio is fitted on)."""
    out = []
    for m in rows if rows is not None else load():
        if m.peak_memory_gb is None:
            continue
        made = workload_for(m)
        if made is None:
            continue
        w, _spec = made
        v = vram_per_gpu(w, m.gpu_count)
        low, high = (v.low, v.high) if widen else (v.low_unwidened, v.high_unwidened)
        out.append(Compared(m.id, m.peak_memory_gb, v.total / GIB, low / GIB, high / GIB,
                            f"{m.model} {w.finetune} {w.optimizer} b{w.batch_size} s{w.seq_len} x{m.gpu_count} "
                            f"{';'.join(m.flags)}"))
    return out


def percentile(values: list[float], q: float) -> float:
    """Linear interpolation between closest ranks."""
    xs = sorted(values)
    if not xs:
        return math.nan
    k = (len(xs) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def run() -> None:
    rows = compare()
    print("\n== VRAM estimate against published peak memory (GiB per GPU) ==")
    print(f"{'row':<46} {'measured':>9} {'estimate':>9} {'low':>7} {'high':>7} {'ratio':>6}  in  settings")
    for r in rows:
        print(f"{r.id:<46} {r.measured_gib:>9.1f} {r.estimate_gib:>9.1f} {r.low_gib:>7.1f} {r.high_gib:>7.1f} "
              f"{r.ratio:>6.2f}  {'yes' if r.inside else 'no ':<3} {r.settings}")
    ratios = [r.ratio for r in rows]
    inside = sum(r.inside for r in rows)
    errors = sorted(abs(math.log(x)) for x in ratios)
    print(f"{len(rows)} rows: median |error| ×{math.exp(errors[len(errors) // 2]):.2f}, coverage {inside}/{len(rows)} "
          f"= {inside / max(len(rows), 1):.0%}; measured/estimate 10th–90th percentile "
          f"{percentile(ratios, 0.1):.2f}–{percentile(ratios, 0.9):.2f}")
    lo, hi, loo = fitted_ratio(compare(widen=False))
    print(f"PUBLISHED_RATIO from these rows: ({lo:.2f}, {hi:.2f}); leave-one-row-out coverage {loo:.0%} (each row "
          "against the ratio fitted without it)")
    for flag, why in NOT_STATED.items():
        print(f"left out: rows flagged {flag}: {why}")
    print(f"left out: {UNPACKED}")


def fitted_ratio(rows: list[Compared]) -> tuple[float, float, float]:
    """(10th, 90th percentile of measured / estimate, leave-one-row-out coverage): each row held out, the
    percentiles of the others widen the unwidened range, and the row is inside or not."""
    ratios = [r.ratio for r in rows]
    inside = 0
    for k, r in enumerate(rows):
        rest = ratios[:k] + ratios[k + 1:]
        lo, hi = percentile(rest, 0.1), percentile(rest, 0.9)
        if min(r.low_gib, r.estimate_gib * lo) <= r.measured_gib <= max(r.high_gib, r.estimate_gib * hi):
            inside += 1
    return percentile(ratios, 0.1), percentile(ratios, 0.9), inside / max(len(rows), 1)


if __name__ == "__main__":
    run()
