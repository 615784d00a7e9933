"""Host RAM a workload needs (:func:`host_ram`, RAM-1): the OS and libraries, the weights' host copies while loading
(per process, or one shared by a memory map or a sharded load), the DataLoader's prefetched batches, what offload
puts in RAM; and the guide's rule of thumb beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from configurator.core.build import Workload
from configurator.core.estimate.memory.constants import HOST_BASE_GIB, LOADER_WORKERS_PER_GPU, PREFETCH, WEIGHT_BYTES
from configurator.core.estimate.memory.inference import weight_bytes_per_param
from configurator.core.estimate.memory.vram import vram_per_gpu
from configurator.core.units import GIB


@dataclass(frozen=True)
class RamEstimate:
    first_principles_gib: float
    guide_gib: float
    parts: dict[str, float]


def sample_bytes(w: Workload) -> float:
    spec = w.spec()
    if spec.family == "cnn":
        return 3 * spec.image_size**2 * 4.0  # a decoded image as float32
    return w.effective_seq_len * 8.0 * 2  # input ids and labels as int64


# Runtimes that read the weights through the page cache (memory-mapped files, shared by every process on the
# node and dropped once on the GPU): llama.cpp (llama_model_default_params: use_mmap = true, ggml-org/llama.cpp
# src/llama-model.cpp), vLLM / TensorRT-LLM / ExLlamaV2 (each GPU worker reads its shard of the safetensors files
# with safe_open, a memory map).
MMAP_RUNTIMES = frozenset({"llama.cpp", "vllm", "tensorrt-llm", "exllamav2"})


def load_bytes_per_param(w: Workload) -> float:
    """Bytes per parameter of the host copy made while loading: the dtype the model is loaded in
    (``from_pretrained(..., torch_dtype=torch.bfloat16)`` materialises bf16 tensors; an fp32 or AMP run loads
    fp32). QLoRA loads the 16-bit checkpoint and quantises it on the GPU, layer by layer."""
    if w.task == "train" and w.finetune == "qlora":
        return 2.0
    if w.task == "train" and w.precision == "fp8":
        return 2.0  # bf16 weights, cast to FP8 per GEMM
    return weight_bytes_per_param(w) if w.task == "infer" else WEIGHT_BYTES[w.precision]


def host_weight_copies(w: Workload, n_gpus: int) -> int:
    """How many full host copies of the weights the processes hold at the peak of loading.

    - One process per GPU (torchrun / accelerate launch for DDP, ZeRO, FSDP), and each one loads its own
      copy (transformers' "Instantiate a big model": "each process loads a pretrained model",
      https://huggingface.co/docs/transformers/v4.49.0/big_models); with ``low_cpu_mem_usage`` (the model
      made on the meta device, then filled from the checkpoint, the default of from_pretrained with
      accelerate installed) it is one copy per process, not two.
    - ZeRO-3 / FSDP: only the first rank of each node reads the checkpoint, the others start on the meta
      device and receive their shards by broadcast (accelerate's ``fsdp_cpu_ram_efficient_loading`` with
      ``sync_module_states``, transformers PR #25107; DeepSpeed's ``zero.Init``): one copy.
    - Inference runtimes that memory-map the files (MMAP_RUNTIMES): one copy in the page cache, shared.
    """
    procs = max(n_gpus, 1)
    if w.task == "train":
        return 1 if w.sharding in ("zero3", "fsdp") else procs
    return 1 if w.effective_runtime in MMAP_RUNTIMES else procs


def host_ram(w: Workload, n_gpus: int) -> RamEstimate:
    """First principles: OS and libraries + the host copies of the weights made while loading
    (:func:`host_weight_copies` × :func:`load_bytes_per_param`) + the DataLoader's prefetched batches
    (4 workers × prefetch 2 per GPU) + what offloading puts in host RAM: the optimizer states (ZeRO-Offload,
    FSDP CPUOffload), the saved tensors (pinned, activation offload), and the room paged optimizer states
    need when they page out; with no GPU, what the GPU would hold lives in RAM. The guide's RAM-1:
    params × batch × 4 B × 1.2, halved for mixed precision."""
    spec = w.spec()
    procs = max(n_gpus, 1)
    weights_host = spec.params * load_bytes_per_param(w) * host_weight_copies(w, n_gpus)
    loader = LOADER_WORKERS_PER_GPU * PREFETCH * w.effective_batch * sample_bytes(w) * procs
    parts = {"base": HOST_BASE_GIB, "weights": weights_host / GIB, "dataloader": loader / GIB}
    if n_gpus == 0:
        v = vram_per_gpu(w, 1)
        parts["model_in_ram"] = (v.total - v.context + v.offloaded + v.host_activations) / GIB
    elif w.task == "train":
        v = vram_per_gpu(w, n_gpus)
        if v.offloaded:
            parts["offloaded_optimizer"] = v.offloaded * n_gpus / GIB
        if v.host_activations:
            parts["offloaded_activations"] = v.host_activations * n_gpus / GIB
        if v.pageable:
            parts["paged_optimizer"] = v.pageable * n_gpus / GIB
    guide = spec.params * w.effective_batch * 4 * 1.2 / GIB
    if w.precision in ("amp", "bf16", "fp16"):
        guide /= 2
    return RamEstimate(round(sum(parts.values()), 2), round(guide, 2), {k: round(v, 2) for k, v in parts.items()})
