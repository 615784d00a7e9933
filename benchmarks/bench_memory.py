"""The VRAM estimator's activation, autocast-copy and gradient+optimizer terms against what PyTorch
keeps for one real training step on this CPU (benchmarks/memory_counts.py): a table, not a timing.
Byte counts do not move with the machine's load."""

from __future__ import annotations

from benchmarks import memory_published
from benchmarks.memory_counts import (
    RESNET_CASES,
    TRANSFORMER_CASES,
    all_option_rows,
    detr_rows,
    flux_rows,
    measure_resnet,
    measure_transformer,
    vision_rows,
)


def run(repeats: int = 7) -> None:  # counts, not timings: one run says it all
    rows = [r for case in TRANSFORMER_CASES for r in measure_transformer(*case).rows]
    rows += [r for case in RESNET_CASES for r in measure_resnet(*case).rows]
    rows += all_option_rows()  # LLaMA layout, LoRA, chunked CE, optimizers, optimizer in backward, offload
    rows += vision_rows()  # torchvision's Faster R-CNN / RetinaNet, diffusers' UNet (#36)
    rows += flux_rows()  # diffusers' FluxTransformer2DModel at a reduced size (#36)
    rows += detr_rows()  # transformers' DetrForObjectDetection at reduced sizes (#36)
    print("\n== VRAM estimate against PyTorch's own counts (one CPU training step each) ==")
    print(f"{'model':<30} {'settings':<72} {'measured B':>14} {'estimated B':>14} {'error':>8}")
    for r in rows:
        exact = "   exact" if not r.estimated else "     n/a"
        err = f"{r.estimated / r.measured - 1:>+8.2%}" if r.measured else exact
        print(f"{r.model:<30} {r.settings:<72} {r.measured:>14,.0f} {r.estimated:>14,.0f} {err}")
    print("Not measured: bitsandbytes' 8-bit states (not installed; memory.py takes their layout from its source).")
    print("Offload's device share is a bound: the estimate keeps one layer's saved tensors on the GPU.")
    bounds = [r for r in rows if "most alive" in r.settings]
    rows = [r for r in rows if r.measured and r not in bounds]
    errors = sorted(abs(r.estimated / r.measured - 1) for r in rows)
    print(f"{len(rows)} terms: median |error| {errors[len(errors) // 2]:.2%}, worst {errors[-1]:.2%}")
    memory_published.run()  # the whole estimate against published peak memory, and the range it sets


if __name__ == "__main__":
    run()
