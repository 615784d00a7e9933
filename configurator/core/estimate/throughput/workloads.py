"""From the planner's workload to the cases the throughput model evaluates (:func:`planner_cases`): the runtime
used, LLM inference as one stream, a batch of streams and the prompts' prefill (:func:`llm_cases`), a quantised
format's kernel in that runtime (:func:`quant_case`), and the bytes data parallelism all-reduces.
"""

from __future__ import annotations

from dataclasses import replace

from configurator.core.build import Workload
from configurator.core.estimate.memory.params import lora_params
from configurator.core.estimate.quant import QUANTS
from configurator.core.estimate.quant import kernel_for as quant_kernel
from configurator.core.estimate.throughput.case import Case, experts
from configurator.core.estimate.throughput.runtimes import EXL2_BITS, FORMATS, INFER_RUNTIME


def runtime_used(w: Workload) -> str:
    """The workload runtime the estimate is for (a key of core/build/limits.py's RUNTIMES): the stated one or the
    task's default; encoders and CNNs run in PyTorch whatever an inference runtime says (unless compiled)."""
    rt = w.effective_runtime
    spec = w.spec()
    if w.task == "infer" and not spec.decoder and rt != "torch-compile":
        return "pytorch"
    return rt


def llm_cases(one: Case, batch: int, prompt: int, generated: int) -> dict[str, Case]:
    """LLM inference as the machine runs it, from a decode case ``one`` (model, format, runtime, split):
    "main" one stream decoding alone, "batch" ``batch`` streams decoded together (the weights read once per step
    for all of them, each stream's KV cache read for it, the FLOPs per token), "prefill" the ``batch`` prompts of
    ``prompt`` tokens processed together. Decoding runs at the mean context of the generation, prompt +
    generated / 2."""
    ctx = max(prompt + generated // 2, 1)
    main = replace(one, task="decode", batch=1, seq=ctx)
    return {"main": main, "batch": replace(main, batch=batch),
            "prefill": replace(main, task="prefill", batch=batch, seq=max(prompt, 1))}


def quant_case(w: Workload, runtime: str, cc: float | None) -> tuple[str, str, float | None]:
    """(precision, kernel, bits) of the workload's weights in the model's ``runtime`` on a card of compute
    capability ``cc``: its ``quant``'s kernel there (quant.py), else its int8/int4 in that runtime's usual
    format (FORMATS)."""
    if w.quant is not None and w.quant in QUANTS:
        k = quant_kernel(w.quant, w.effective_runtime, cc) or QUANTS[w.quant].kernels.get(w.effective_runtime)
        key = k.key if k is not None else w.quant
        precision = {"marlin": "awq" if w.quant == "awq" else "gptq"}.get(key, key)
        return precision, key if key != precision else "", QUANTS[w.quant].bits
    fmt = FORMATS.get((runtime, w.precision), w.precision)
    return fmt, "", EXL2_BITS.get(w.precision) if fmt == "exl2" else None


def planner_cases(w: Workload, gpus: int = 1, cc: float | None = None) -> dict[str, Case]:
    """The cases behind the planner's figures: "main" (training step or forward pass, or for decoder
    inference the one-stream decode), and for decoder inference "prefill" and "batch" (:func:`llm_cases`:
    the workload's ``batch`` streams together). ``gpus``: the GPUs one model is split over when the workload
    is parallel; ``cc``: the card's compute capability (the kernel a quantised format runs with)."""
    spec = w.spec()
    s = w.effective_seq_len
    b = w.effective_batch
    n = max(gpus, 1)
    ways = (n if w.parallel == "tensor" else 1, n if w.parallel == "pipeline" else 1,
            n if w.parallel == "expert" and experts(spec)[0] else 1)
    if spec.decoder and w.task == "infer":
        # LLM inference in the workload's runtime (default llama.cpp, the most measured; a quant's own runtime);
        # its weights in the quant's kernel or the int8/int4 of that runtime's usual format. The sequence is
        # generated from a short prompt (mean decode context half the sequence); the prefill figure is for
        # prompts of min(sequence, 512) tokens (llama-bench's pp512), the workload's batch of them at once.
        runtime = INFER_RUNTIME.get(w.effective_runtime, "llama.cpp")
        if w.quant == "awq" and runtime == "transformers":
            runtime = "autoawq"  # transformers runs AWQ through AutoAWQ's kernels and fused modules (do_fuse)
        fmt, kernel, bits = quant_case(w, runtime, cc)
        # each decode step reads every stream's KV cache in its element type: 1 B for an FP8 cache (kv_cache fp8)
        one = Case(spec, "decode", fmt, 1, 1, runtime=runtime, lm_head=True, bits=bits, kernel=kernel,
                   tensor_parallel=ways[0], pipeline=ways[1], expert_parallel=ways[2],
                   kv_bytes=1.0 if w.kv_cache == "fp8" else 2.0)
        cases = llm_cases(one, b, 0, s)
        cases["prefill"] = replace(cases["prefill"], seq=min(s, 512))
        return cases
    task = "train" if w.task == "train" else "infer"
    # diffusers runs a UNet's attention through PyTorch 2's scaled_dot_product_attention by default (AttnProcessor2_0)
    attention = w.attention if spec.family == "transformer" else "sdpa" if spec.unet is not None else "eager"
    # "fused" is fitted on LLM training stacks (llm-foundry: FlashAttention, fused norms and FSDP), which is
    # how decoders are trained; encoders (BERT) are measured as PyTorch eager GEMM work (NVIDIA DLE, Lambda):
    # SDPA only keeps their attention scores off the memory, it does not make the rest of the model fused.
    runtime = "fused" if task == "train" and attention == "sdpa" and spec.decoder else "pytorch"
    compiled = w.effective_runtime == "torch-compile"
    if task == "train":
        return {"main": Case(spec, task, w.precision, b, s, lm_head=spec.decoder, attention=attention,
                             runtime=runtime, finetune=w.finetune, lora_rank=w.lora_rank,
                             recompute=w.grad_checkpointing, optimizer=w.effective_optimizer, offload=w.offload,
                             compiled=compiled)}
    return {"main": Case(spec, task, w.precision, b, s, lm_head=spec.decoder, attention=attention,
                         runtime=runtime, compiled=compiled, tensor_parallel=ways[0])}


def grad_bytes(w: Workload) -> float:
    """Bytes data parallelism all-reduces per step: every parameter's gradient (FP32 under fp32/amp, else 16
    bits); under LoRA/QLoRA only the adapters' (PEFT keeps them in FP32)."""
    spec = w.spec()
    if w.task == "train" and w.finetune in ("lora", "qlora") and spec.is_transformer:
        return lora_params(spec, w.lora_rank) * 4.0
    return spec.params * (4.0 if w.precision in ("fp32", "amp") else 2.0)
