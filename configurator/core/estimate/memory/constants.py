"""What every memory term shares: the CUDA context, a desktop's share of a display GPU and the caching allocator's
margin (with their low, central and high values), the activation terms' error and the published ratio that widens
the range, host RAM's base and the DataLoader's prefetch, bytes per parameter of weights, activations and
optimizer states, LoRA's and QLoRA's constants, and :class:`Saved` (a step's saved bytes by what holds them).
"""

from __future__ import annotations

from dataclasses import dataclass

# CUDA context + the cuBLAS handle and workspace, lazily loaded kernels (CUDA ≥ 11.7 loads modules
# lazily): nvidia-smi shows about 300–500 MiB for a process that has run one training step.
CUDA_CONTEXT_GIB = (0.3, 0.4, 0.5)  # low, central, high
# A GPU that also drives the desktop: the X server / compositor and the browser's GPU process
# typically hold 0.5–1 GiB (nvidia-smi on a GNOME or Windows desktop).
DISPLAY_GIB = (0.5, 0.75, 1.0)
# The caching allocator rounds blocks up (512 B, 2 MiB / 20 MiB segments) and fragments: reserved
# memory runs about 10 % over allocated in a training loop; 0 % at best, 25 % assumed at worst.
FRAGMENTATION = (0.0, 0.10, 0.25)
ACTIVATION_ERROR = 0.10  # the validation's tolerance on the saved-tensor terms
# Published peak memory / this estimate, 10th and 90th percentile over the fine-tuning recipes' own tables
# (db/measurements rows with peak_memory_gb that a build file can state: benchmarks/memory_published.py prints
# them, tests/core/test_memory_options.py holds these figures to them). The range widens to at least
# [estimate × low, estimate × high]: what the first-principles terms do not see (torch.compile's fused
# kernels saving less, recipe details such as adapters on the MLP, allocator reserve) shows up here.
PUBLISHED_RATIO = (0.71, 1.09)  # 0.720 and 1.089 over 15 torchtune rows, rounded outwards
FRAGMENTATION_CENTRAL = FRAGMENTATION[1]
HOST_BASE_GIB = 4.0  # OS, desktop, Python with torch and the CUDA libraries mapped
LOADER_WORKERS_PER_GPU = 4  # STO-5: num_workers ≥ 4
PREFETCH = 2  # DataLoader's default prefetch_factor
WEIGHT_BYTES = {"fp32": 4.0, "amp": 4.0, "bf16": 2.0, "fp16": 2.0, "int8": 1.0, "int4": 0.5, "fp8": 1.0}
ACT_BYTES = {"fp32": 4.0, "amp": 2.0, "bf16": 2.0, "fp16": 2.0, "int8": 2.0, "int4": 2.0, "fp8": 2.0}
# Optimizer state per trained parameter: AdamW exp_avg + exp_avg_sq in fp32; adamw-bf16 the same two in bf16
# (torch.optim.AdamW makes its states like the parameter: bf16 for bf16 weights, measured in
# benchmarks/memory_counts.py); SGD's momentum buffer; bitsandbytes' 8-bit AdamW: two uint8 states plus an fp32
# absmax per 2048-value block each (Optimizer2State.init_state, block_wise: ``blocks = n // 2048``; tensors under
# min_8bit_size = 4096 values keep fp32 states: the norms, a negligible share), https://github.com/
# bitsandbytes-foundation/bitsandbytes/blob/06029dd6edcc719e5831443179bcb206c6355093/bitsandbytes/optim/optimizer.py
# (not measured here: bitsandbytes is not installed; the layout is read from that source). The paged variant
# allocates the same states with cudaMallocManaged (get_paged): they live on the GPU until memory runs short,
# then page to host RAM.
OPTIMIZER_BYTES = {"adamw": 8.0, "adam": 8.0, "adamw-bf16": 4.0, "sgd": 4.0, "sgd_nomomentum": 0.0,
                   "adamw8bit": 2.0 + 8.0 / 2048, "paged-adamw8bit": 2.0 + 8.0 / 2048}
PAGED_OPTIMIZERS = frozenset({"paged-adamw8bit"})
# Optimizers whose update is applied to the 16-bit weights themselves, with no fp32 master copy in a bf16/fp16
# run: torch.optim on bf16 parameters (adamw-bf16, the "pure bf16" recipes of torchtune / torchao) and
# bitsandbytes' kernels, which read the 16-bit parameter and write it back (cadam_8bit_blockwise_grad_bf16).
# adamw / adam / sgd in a bf16 or fp16 run keep fp32 master weights as DeepSpeed and Megatron-LM do (4 B).
NO_MASTER_OPTIMIZERS = frozenset({"adamw-bf16", "adamw8bit", "paged-adamw8bit"})
NF4_BYTES = 4.127 / 8  # QLoRA: NF4 weights with double-quantised block constants (Dettmers et al. 2023)
LORA_PROJECTIONS = 4  # adapters on the Q, K, V and output projections of every layer
# peft keeps the adapters in fp32 on a 16-bit base (autocast_adapter_dtype=True) and casts each adapter's input
# to lora_A's dtype
ADAPTER_BYTES = 4.0
# Chunked cross-entropy: the head and the loss over this many chunks of the tokens (torchtune's
# LinearCrossEntropyLoss / CEWithChunkedOutputLoss: num_output_chunks = 8; Liger's fused linear cross-entropy
# splits finer, about vocab / hidden chunks, so one chunk is at most this share)
CE_CHUNKS = 8


@dataclass(frozen=True)
class Saved:
    """Bytes of one training step's forward pass, by what holds them."""

    activations: float  # saved for backward (no parameter storages, no autocast weight copies)
    autocast_copies: float  # autocast's 16-bit weight copies (AMP only)
    logits: float  # logits held by the model's output + the loss's backward gradients
    recompute: float  # checkpointing: one layer's saved tensors, rebuilt during backward


def mask_bytes(device: str, dtype_bytes: float) -> float:
    """A dropout mask: CUDA's fused dropout keeps a bool; the CPU keeps a noise tensor of the input's dtype."""
    return 1.0 if device == "cuda" else dtype_bytes


def activation_dtypes(precision: str) -> tuple[float, float, bool]:
    """(activation bytes, residual-stream bytes, autocast?) for a training precision."""
    if precision == "amp":
        return 2.0, 4.0, True  # autocast: matmuls in 16 bit, the residual stream and norms stay fp32
    if precision == "fp32":
        return 4.0, 4.0, False
    return 2.0, 2.0, False  # the whole model in bf16/fp16
