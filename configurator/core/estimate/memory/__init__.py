"""VRAM and host RAM needed by a workload (FIT-1, FIT-2, RAM-1), from first principles.

VRAM per GPU is the sum of terms, each counted as PyTorch allocates it:

- **weights, gradients, optimizer states**: bytes per parameter from the precision (for inference with
  ``quant``, the format's bits per weight with its scales and zeros: :mod:`quant`; fp8 training keeps bf16
  weights with fp32 master copies), the optimizer and the fine-tuning method, divided over the data-parallel
  GPUs where the ZeRO stage / FSDP shards them, or over the model-parallel GPUs (tensor / pipeline inference);
  optimizer states move to host RAM with ZeRO-Offload.
- **activations**: the tensors autograd saves for the backward pass, layer by layer as the
  Hugging Face transformers / torchvision implementations save them (see
  :func:`transformer_saved` and :func:`resnet_saved`), including the loss's log-softmax.
  tests/core/test_memory_vs_pytorch.py counts the same tensors in real PyTorch training
  steps (saved_tensors_hooks) and holds these formulas within 10 %.
- **autocast copies**: with AMP, autocast keeps a 16-bit copy of every matmul/conv weight
  for the whole forward pass (its weight cache).
- **logits and loss**: the logits the model returns (held by the output) and, at the start of
  the backward pass, the log-softmax's two b × s × vocab fp32 gradients.
- **recompute**: with gradient checkpointing, one layer's saved tensors rebuilt in backward.
- **KV cache** for generation, the **CUDA context** and the caching allocator's margin.

The verdict is three-way: the low end assumes the activation terms 10 % under the estimate, no
allocator margin and the smallest CUDA context; the high end 10 % over, a 25 % margin and the
largest context. Not counted: cuDNN benchmark workspaces, NCCL buffers, memory of other
processes, and the framework's temporaries inside one kernel (e.g. a matmul's output before
it is saved), which the margin covers.

The package, one module per part of the estimate:

- ``constants``: the CUDA context, display, allocator margin, bytes per parameter and per optimizer state, LoRA's
  and QLoRA's constants, the published ratio; Saved;
- ``params``: parameter counts (transformer layout, LoRA adapters, experts, the largest tensor);
- ``transformer``: a transformer training step's saved tensors (transformer_saved);
- ``resnet``: a ResNet's (resnet_saved);
- ``detectors``: Faster / Mask R-CNN, RetinaNet, DETR, YOLO, the frozen backbone (detection_saved, detr_saved,
  frozen_backbone_params);
- ``breakdown``: the terms and their range (VramBreakdown);
- ``training``: weights, gradients, optimizer states, saved tensors, offload (saved_bytes);
- ``inference``: weights by format, the working set, the KV cache (inference_working_set, weight_bytes_per_param);
- ``vram``: the estimate per GPU, its verdict, the largest batch (vram_per_gpu, verdict, largest_batch);
- ``host``: host RAM (host_ram).
"""

from configurator.core.estimate.memory.breakdown import (
    VramBreakdown,
)
from configurator.core.estimate.memory.constants import (
    ACT_BYTES,
    ACTIVATION_ERROR,
    ADAPTER_BYTES,
    CE_CHUNKS,
    CUDA_CONTEXT_GIB,
    DISPLAY_GIB,
    FRAGMENTATION,
    FRAGMENTATION_CENTRAL,
    HOST_BASE_GIB,
    LOADER_WORKERS_PER_GPU,
    LORA_PROJECTIONS,
    NF4_BYTES,
    NO_MASTER_OPTIMIZERS,
    OPTIMIZER_BYTES,
    PAGED_OPTIMIZERS,
    PREFETCH,
    PUBLISHED_RATIO,
    WEIGHT_BYTES,
    Saved,
)
from configurator.core.estimate.memory.detectors import (
    FOCAL_COPIES,
    FPN_CHANNELS,
    POSITIVE_ROIS,
    RETINANET_ANCHORS,
    ROIS_PER_IMAGE,
    detection_saved,
    detr_saved,
    frozen_backbone_params,
)
from configurator.core.estimate.memory.host import (
    MMAP_RUNTIMES,
    RamEstimate,
    host_ram,
    host_weight_copies,
    load_bytes_per_param,
    sample_bytes,
)
from configurator.core.estimate.memory.inference import (
    inference_working_set,
    weight_bytes_per_param,
)
from configurator.core.estimate.memory.params import (
    expert_params,
    largest_param,
    lora_params,
    transformer_params,
)
from configurator.core.estimate.memory.resnet import (
    resnet_saved,
)
from configurator.core.estimate.memory.training import (
    saved_bytes,
    unet_training_saved,
)
from configurator.core.estimate.memory.transformer import (
    transformer_saved,
)
from configurator.core.estimate.memory.vram import (
    largest_batch,
    verdict,
    vram_per_gpu,
)

__all__ = [
    "ACTIVATION_ERROR",
    "ACT_BYTES",
    "ADAPTER_BYTES",
    "CE_CHUNKS",
    "CUDA_CONTEXT_GIB",
    "DISPLAY_GIB",
    "FOCAL_COPIES",
    "FPN_CHANNELS",
    "FRAGMENTATION",
    "FRAGMENTATION_CENTRAL",
    "HOST_BASE_GIB",
    "LOADER_WORKERS_PER_GPU",
    "LORA_PROJECTIONS",
    "MMAP_RUNTIMES",
    "NF4_BYTES",
    "NO_MASTER_OPTIMIZERS",
    "OPTIMIZER_BYTES",
    "PAGED_OPTIMIZERS",
    "POSITIVE_ROIS",
    "PREFETCH",
    "PUBLISHED_RATIO",
    "RETINANET_ANCHORS",
    "ROIS_PER_IMAGE",
    "WEIGHT_BYTES",
    "RamEstimate",
    "Saved",
    "VramBreakdown",
    "detection_saved",
    "detr_saved",
    "expert_params",
    "frozen_backbone_params",
    "host_ram",
    "host_weight_copies",
    "inference_working_set",
    "largest_batch",
    "largest_param",
    "load_bytes_per_param",
    "lora_params",
    "resnet_saved",
    "sample_bytes",
    "saved_bytes",
    "transformer_params",
    "transformer_saved",
    "unet_training_saved",
    "verdict",
    "vram_per_gpu",
    "weight_bytes_per_param",
]
