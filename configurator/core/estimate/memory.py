"""VRAM and host RAM needed by a workload (FIT-1, FIT-2, RAM-1), from first principles.

VRAM per GPU is the sum of terms, each counted as PyTorch allocates it:

- **weights, gradients, optimizer states**: bytes per parameter from the precision, the
  optimizer and the fine-tuning method, divided over the data-parallel GPUs where the ZeRO
  stage / FSDP shards them, or over the model-parallel GPUs (tensor / pipeline inference);
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
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from configurator.core.build import Workload
from configurator.core.model_specs import ModelSpec
from configurator.core.units import GIB

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
FRAGMENTATION_CENTRAL = FRAGMENTATION[1]
HOST_BASE_GIB = 4.0  # OS, desktop, Python with torch and the CUDA libraries mapped
LOADER_WORKERS_PER_GPU = 4  # STO-5: num_workers ≥ 4
PREFETCH = 2  # DataLoader's default prefetch_factor

WEIGHT_BYTES = {"fp32": 4.0, "amp": 4.0, "bf16": 2.0, "fp16": 2.0, "int8": 1.0, "int4": 0.5}
ACT_BYTES = {"fp32": 4.0, "amp": 2.0, "bf16": 2.0, "fp16": 2.0, "int8": 2.0, "int4": 2.0}
# Optimizer state per trained parameter: AdamW exp_avg + exp_avg_sq in fp32; SGD's momentum buffer;
# bitsandbytes' 8-bit AdamW: two uint8 states plus an fp32 absmax per 2048-value block each.
OPTIMIZER_BYTES = {"adamw": 8.0, "adam": 8.0, "adamw-bf16": 4.0, "sgd": 4.0, "sgd_nomomentum": 0.0,
                   "adamw8bit": 2.0 + 8.0 / 2048, "paged-adamw8bit": 2.0 + 8.0 / 2048}
NF4_BYTES = 4.127 / 8  # QLoRA: NF4 weights with double-quantised block constants (Dettmers et al. 2023)
LORA_PROJECTIONS = 4  # adapters on the Q, K, V and output projections of every layer


@dataclass(frozen=True)
class Saved:
    """Bytes of one training step's forward pass, by what holds them."""

    activations: float  # saved for backward (no parameter storages, no autocast weight copies)
    autocast_copies: float  # autocast's 16-bit weight copies (AMP only)
    logits: float  # logits held by the model's output + the loss's backward gradients
    recompute: float  # checkpointing: one layer's saved tensors, rebuilt during backward


def _mask_bytes(device: str, dtype_bytes: float) -> float:
    """A dropout mask: CUDA's fused dropout keeps a bool; the CPU keeps a noise tensor of the input's dtype."""
    return 1.0 if device == "cuda" else dtype_bytes


def _dtypes(precision: str) -> tuple[float, float, bool]:
    """(activation bytes, residual-stream bytes, autocast?) for a training precision."""
    if precision == "amp":
        return 2.0, 4.0, True  # autocast: matmuls in 16 bit, the residual stream and norms stay fp32
    if precision == "fp32":
        return 4.0, 4.0, False
    return 2.0, 2.0, False  # the whole model in bf16/fp16


def transformer_saved(spec: ModelSpec, batch: int, seq: int, precision: str, *, checkpointing: bool = False,
                      attention: str = "sdpa", device: str = "cuda") -> Saved:
    """What a Hugging Face GPT-2 (decoder, LM head) or BERT (encoder, MLM head) training step saves.

    Per token and layer, with e = activation bytes, f = residual-stream bytes (fp32 under autocast),
    m = a dropout mask's bytes (1 on CUDA), h = hidden, i = MLP width, a = heads:

    - two norms: their inputs f·h each, mean and rstd 2 × 4 B each (RMSNorm: input, normalised
      copy, rstd);
    - the normed activations as the projections save them: e·h each (under autocast each
      projection saves its own 16-bit cast, so BERT's separate Q/K/V save three);
    - attention, eager: Q, K, V as the matmuls copy them and the merged heads, 4·e·h, plus
      per query a·s × (softmax output, 4 B under autocast, + dropout output e + mask m when
      attention dropout > 0; the 16-bit copy of the probabilities without dropout);
      SDPA (flash / memory-efficient kernels): Q, K, V, the output, 4·e·h, and the
      log-sum-exp, 4·a B; no s² term;
    - MLP: F.gelu saves its input and output, 2·e·i; GPT-2's gelu_new, written in Python ops,
      saves the input, tanh, 0.5·x, 1 + tanh and the output, 5·e·i; SwiGLU: gate, up, SiLU
      and product, 4·e·i;
    - dropout masks on the attention and MLP outputs, 2·m·h.

    Outside the layers: token ids (and labels) 8 B each, the embedding dropout's mask, the final
    norm or BERT's MLM transform, the LM head's input, and the loss: log-softmax keeps
    b·s·vocab fp32. Held besides: the logits (e·vocab per token, fp32 without autocast, where
    they are the log-softmax's input) and, when backward starts, two b·s·vocab fp32 gradients.
    Checkpointing (``activation_checkpointing_enable``, once ``gradient_checkpointing_enable``) keeps
    each layer's input, f·h per token.
    """
    t = float(batch * seq)
    h = float(spec.hidden)
    i = float(spec.ffn)
    a = float(spec.heads)
    s = float(seq)
    v = float(spec.vocab)
    e, f, autocast = _dtypes(precision)
    m_h = _mask_bytes(device, e) if spec.dropout > 0 else 0.0
    m_emb = _mask_bytes(device, f) if spec.dropout > 0 else 0.0
    mask_attn = _mask_bytes(device, e)
    rms = spec.norm == "rmsnorm"

    def norm(out_savers: int) -> float:
        stats = 4.0 if rms else 8.0
        normalised = f * h if rms else 0.0  # HF LlamaRMSNorm keeps x·rstd before the weight multiplies it
        saved_out = out_savers * e * h if autocast else e * h  # one storage unless autocast casts per use
        return f * h + stats + normalised + saved_out

    proj_in_attn = 1 if spec.fused_qkv else 3
    proj_in_mlp = 2 if spec.activation == "swiglu" else 1
    if attention == "eager":
        probs = 4.0 if autocast else e  # softmax runs in fp32 under autocast
        # with dropout: its mask and output; without: the 16-bit copy of the probabilities the matmul saves
        scores = probs + mask_attn + e if spec.attention_dropout > 0 else probs + (e if autocast else 0.0)
        attn = 4 * e * h + a * s * scores
    else:
        attn = 4 * e * h + 4.0 * a
        if device == "cpu" and spec.decoder:
            # measured: on the CPU, SDPA's causal path receives Q and K as contiguous copies (CatBackward0);
            # CUDA's flash / memory-efficient kernels read them strided, in place
            attn += 2 * e * h
    if spec.activation == "gelu_new":
        mlp = 5 * e * i
    elif spec.activation == "swiglu":
        mlp = 4 * e * i
    else:
        mlp = 2 * e * i
    # GPT-2 (pre-LN) and BERT (post-LN: the norms sit after the additions) save the same set
    per_layer = norm(proj_in_attn) + attn + norm(proj_in_mlp) + mlp + 2 * m_h * h

    ids = 8.0 * (2 if spec.decoder else 1)  # token ids (+ shifted labels); encoder labels as ids
    outside = ids + m_emb * h
    if spec.decoder:
        outside += f * h + 8.0 + e * h  # final norm's input and stats, the LM head's input
    else:
        outside += f * h + 8.0  # embedding LayerNorm's input and stats
        outside += e * h + e * h + f * h + 8.0 + e * h  # MLM transform: dense in, GELU in, LN in, decoder in
    outside += 4.0 * v  # log-softmax output, fp32
    layers = float(spec.layers)
    stream = f * h  # a layer's input: the residual stream (GPT-2) or the last LayerNorm's output (BERT)
    if checkpointing:
        acts = t * (layers * stream + outside)
        recompute = t * per_layer
    else:
        acts = t * (layers * per_layer + outside)
        recompute = 0.0
    copies = 2.0 * _matmul_params(spec) if autocast else 0.0
    logits = t * v * (e if autocast else 4.0) + 2 * t * v * 4.0
    return Saved(acts, copies, logits, recompute)


def _matmul_params(spec: ModelSpec) -> float:
    """Weights that go through matmuls (autocast casts and caches them): the layers' projections and the head."""
    h, i = spec.hidden, spec.ffn
    kv = h * (spec.kv_heads or spec.heads) // max(spec.heads, 1)
    mlp = (3 if spec.activation == "swiglu" else 2) * h * i
    per_layer = 2 * h * h + 2 * h * kv + mlp
    head = spec.vocab * h + (0 if spec.decoder else h * h)  # BERT's MLM transform dense
    return float(spec.layers * per_layer + head)


def transformer_params(spec: ModelSpec) -> tuple[float, float]:
    """(parameters in the layers' matmuls, all other parameters) of the HF GPT-2 / BERT-MLM / LLaMA layout."""
    h, i, v = spec.hidden, spec.ffn, spec.vocab
    kv = h * (spec.kv_heads or spec.heads) // max(spec.heads, 1)
    rms = spec.norm == "rmsnorm"
    norm = h if rms else 2 * h
    bias = not rms
    mlp = (3 if spec.activation == "swiglu" else 2) * h * i
    linear = spec.layers * (2 * h * h + 2 * h * kv + mlp)
    biases = spec.layers * ((2 * h + 2 * kv + i + h) if bias else 0)
    other = biases + spec.layers * 2 * norm + v * h + norm
    if spec.learned_positions:
        other += spec.context * h
    if not spec.tied_head:
        other += v * h
    if not spec.decoder:  # BERT: token types, embedding LN instead of a final one, MLM transform, decoder bias
        other += 2 * h + h * h + h + norm + v
    return float(linear), float(other)


def _resnet_sides(spec: ModelSpec) -> tuple[int, int, list[int]]:
    """Stem output side, after the max-pool, and each stage's output side."""
    def down(x: int) -> int:
        return (x - 1) // 2 + 1

    stem = down(spec.image_size)
    pooled = down(stem)
    sides = [pooled]
    for _ in range(3):
        sides.append(down(sides[-1]))
    return stem, pooled, sides


def resnet_saved(spec: ModelSpec, batch: int, precision: str, *, checkpointing: bool = False) -> Saved:
    """What a torchvision ResNet training step saves, from its layout (He et al. 2016; torchvision v1.5).

    Every convolution's output (BatchNorm's input) and BatchNorm's output (ReLU in place, the
    next convolution's input) are saved; where a BatchNorm's output goes into the residual
    addition, the addition's output (after ReLU) is saved instead; a downsample branch saves
    its convolution's output. The stem keeps the image, conv and BN outputs and the max-pool's
    int64 indices; the head the pooled features and the log-softmax. BatchNorm's per-channel
    mean and inverse std are 2 × 4 B per channel. With checkpointing (each residual block under
    torch.utils.checkpoint), only each block's input is kept, and one block is rebuilt in backward.
    """
    e, _f, autocast = _dtypes(precision)
    widths = (64, 128, 256, 512)
    blocks = spec.blocks or (3, 4, 6, 3)
    expansion = 4 if spec.bottleneck else 1
    stem_side, pooled, sides = _resnet_sides(spec)
    stem = 3 * spec.image_size**2 * e + 2 * 64 * stem_side**2 * e + 8 * 64 * pooled**2 + 2 * 2 * 64 * 4
    saved = stem + 64 * pooled**2 * e  # the max-pool's output, the first block's input
    inputs = 0.0
    biggest_block = 0.0
    in_side, in_ch = pooled, 64
    for width, side, n in zip(widths, sides, blocks, strict=True):
        out_ch = width * expansion
        for k in range(n):
            block_in_side = in_side if k == 0 else side
            inputs += in_ch * block_in_side**2 * e
            if spec.bottleneck:
                elements = (2 * width * block_in_side**2 + 2 * width * side**2 + 2 * out_ch * side**2)
                bn_channels = 2 * width + out_ch
            else:
                elements = 2 * width * side**2 + 2 * out_ch * side**2
                bn_channels = 2 * width
            if k == 0 and (in_ch != out_ch or block_in_side != side):
                elements += out_ch * side**2
                bn_channels += out_ch
            block = elements * e + bn_channels * 8
            saved += block
            biggest_block = max(biggest_block, block)
            in_ch = out_ch
        in_side = sides[widths.index(width)]
    classes = float(spec.classes)
    head = 512 * expansion * e + 4 * classes + 8 + 4
    if checkpointing:
        acts = batch * (stem + inputs) + batch * head
        recompute = batch * biggest_block
    else:
        acts = batch * saved + batch * head
        recompute = 0.0
    copies = 2.0 * spec.params if autocast else 0.0  # conv and fc weights (BN's are a few thousand)
    return Saved(acts, copies, 0.0, recompute)


@dataclass(frozen=True)
class VramBreakdown:
    weights: float
    gradients: float
    optimizer: float
    activations: float
    kv_cache: float
    context: float
    per_sample: float  # bytes that grow with the batch (before the allocator margin)
    autocast_copies: float = 0.0
    logits: float = 0.0
    recompute: float = 0.0
    display: float = 0.0
    margin: float = 0.0  # caching allocator (central)
    low: float = 0.0
    high: float = 0.0
    offloaded: float = 0.0  # optimizer states in host RAM (ZeRO-Offload)

    @property
    def total(self) -> float:
        return (self.weights + self.gradients + self.optimizer + self.activations + self.autocast_copies
                + self.logits + self.recompute + self.kv_cache + self.margin + self.context + self.display)

    def gib(self) -> dict[str, float]:
        keys = ("weights", "gradients", "optimizer", "activations", "autocast_copies", "logits", "recompute",
                "kv_cache", "margin", "context", "display", "total", "low", "high")
        return {k: round(getattr(self, k) / GIB, 2) for k in keys}


def _shard(stage: str, n: int) -> tuple[float, float, float]:
    """Divisors for (weights, gradients, optimizer) under a ZeRO stage / FSDP over n GPUs."""
    n = max(n, 1)
    return {
        "none": (1, 1, 1),
        "zero1": (1, 1, n),
        "zero2": (1, n, n),
        "zero3": (n, n, n),
        "fsdp": (n, n, n),
    }[stage]


def saved_bytes(w: Workload, batch: int, device: str = "cuda") -> Saved:
    spec = w.spec()
    if spec.family == "cnn":
        return resnet_saved(spec, batch, w.precision, checkpointing=w.grad_checkpointing)
    return transformer_saved(spec, batch, w.effective_seq_len, w.precision, checkpointing=w.grad_checkpointing,
                             attention=w.attention, device=device)


def _split_params(spec: ModelSpec) -> tuple[float, float]:
    """(matmul weights, the rest), scaled to the published parameter count."""
    if spec.family == "cnn" or spec.hidden <= 0 or spec.layers <= 0:
        return spec.params, 0.0
    linear, other = transformer_params(spec)
    scale = spec.params / (linear + other) if linear + other > 0 else 1.0
    return linear * scale, other * scale


def lora_params(spec: ModelSpec, rank: int) -> float:
    """Adapters A (r × h) and B (h × r) on the Q, K, V and output projections of every layer (Hu et al. 2021)."""
    return float(spec.layers * LORA_PROJECTIONS * 2 * rank * spec.hidden)


def _finish(weights: float, grads: float, optimizer: float, saved: Saved, kv: float,
            per_sample: float, display_gpu: bool, offloaded: float) -> VramBreakdown:
    dynamic = saved.activations + saved.autocast_copies + saved.logits + saved.recompute + kv
    exact = weights + grads + optimizer
    ctx_low, ctx, ctx_high = (x * GIB for x in CUDA_CONTEXT_GIB)
    disp_low, disp, disp_high = ((x * GIB for x in DISPLAY_GIB) if display_gpu else (0.0, 0.0, 0.0))
    low = exact + dynamic * (1 - ACTIVATION_ERROR) * (1 + FRAGMENTATION[0]) + ctx_low + disp_low
    high = exact + dynamic * (1 + ACTIVATION_ERROR) * (1 + FRAGMENTATION[2]) + ctx_high + disp_high
    return VramBreakdown(weights, grads, optimizer, saved.activations, kv, ctx, per_sample,
                         autocast_copies=saved.autocast_copies, logits=saved.logits, recompute=saved.recompute,
                         display=disp, margin=dynamic * FRAGMENTATION[1], low=low, high=high, offloaded=offloaded)


@functools.lru_cache(maxsize=4096)
def vram_per_gpu(w: Workload, n_gpus: int, batch: int | None = None, display_gpu: bool = False) -> VramBreakdown:
    """The estimate for the GPU that needs the most (the display GPU when ``display_gpu``). A pure function
    of frozen inputs with a frozen result, cached: every check, the largest-batch search and Suggest's
    thousands of checks ask it the same few questions."""
    spec = w.spec()
    p = spec.params
    b = batch if batch is not None else w.effective_batch
    s = w.effective_seq_len
    n = max(n_gpus, 1)
    if w.task == "train":
        dw, dg, do = _shard(w.sharding, n)
        half = 2.0 if w.precision in ("amp", "bf16", "fp16") else 4.0
        opt_bytes = OPTIMIZER_BYTES[w.effective_optimizer]
        if w.finetune in ("lora", "qlora") and spec.is_transformer:
            linear, other = _split_params(spec)
            base = (linear * NF4_BYTES + other * 2.0) if w.finetune == "qlora" else (linear + other) * half
            trained = lora_params(spec, w.lora_rank)
            weights = base / dw + trained * 4.0 / dw  # adapters in fp32
            grads = trained * 4.0 / dg
            optimizer = trained * opt_bytes / do
            # activations as full fine-tuning (an upper bound: frozen projections need not save their
            # inputs); a frozen base already in 16 bit needs no autocast copies
            full = saved_bytes(w, b)
            saved = Saved(full.activations, 0.0, full.logits, full.recompute)
        else:
            weights = p * WEIGHT_BYTES[w.precision] / dw
            grads = p * (4.0 if w.precision in ("fp32", "amp") else 2.0) / dg
            if w.precision in ("bf16", "fp16"):
                opt_bytes += 4.0  # fp32 master weights
            optimizer = p * opt_bytes / do
            saved = saved_bytes(w, b)
            if w.precision == "amp" and w.sharding in ("zero3", "fsdp"):
                saved = Saved(saved.activations, saved.autocast_copies / dw, saved.logits, saved.recompute)
        offloaded = 0.0
        if w.offload == "optimizer":
            offloaded, optimizer = optimizer, 0.0
        per = saved_bytes(w, 1)
        per_sample = per.activations + per.logits + per.recompute
        return _finish(weights, grads, optimizer, saved, 0.0, per_sample, display_gpu, offloaded)
    # inference: weights, one layer's working set, the logits, and the KV cache of a generating model
    wb = WEIGHT_BYTES[w.precision]
    model_parallel = n if w.parallel in ("tensor", "pipeline") else 1
    if w.parallel == "pipeline" and spec.is_transformer and spec.layers > 0:
        linear, other = _split_params(spec)
        per_layer = linear / spec.layers
        weights = (math.ceil(spec.layers / n) * per_layer + other) * wb  # the stage that also holds the embeddings
        kv_share = math.ceil(spec.layers / n) / spec.layers
    else:
        weights = p * wb / model_parallel
        kv_share = 1.0 / model_parallel
    live_one = _inference_working_set(spec, s, w.precision, w.attention, model_parallel if w.parallel == "tensor"
                                      else 1)
    e_kv = 4.0 if w.precision == "fp32" else 2.0
    kv_heads = spec.kv_heads or spec.heads
    kv_width = spec.hidden * kv_heads / max(spec.heads, 1)
    kv_one = 2 * spec.layers * s * kv_width * e_kv * kv_share if spec.decoder else 0.0
    saved = Saved(live_one * b, 0.0, 0.0, 0.0)
    return _finish(weights, 0.0, 0.0, saved, kv_one * b, live_one + kv_one, display_gpu, 0.0)


def _inference_working_set(spec: ModelSpec, seq: int, precision: str, attention: str, tp: int) -> float:
    """Bytes per sample alive at once without autograd: the residual stream and one layer's widest
    intermediate (the MLP's, or eager attention's scores), and a decoder's next-token logits in fp32."""
    e = 4.0 if precision == "fp32" else 2.0
    if spec.family == "cnn":
        stem, _pooled, _sides = _resnet_sides(spec)
        return 2 * 64 * stem**2 * e + 3 * spec.image_size**2 * e  # the widest layer's input and output
    t = float(seq)
    stream = 2 * t * spec.hidden * e
    mlp = 2 * t * spec.ffn * e / tp
    scores = spec.heads * t * t * (e + 4.0) / tp if attention == "eager" else 4 * t * spec.hidden * e / tp
    logits = spec.vocab * 4.0 if spec.decoder else 0.0  # generate() computes the last position's logits
    return stream + max(mlp, scores) + logits


def verdict(v: VramBreakdown, capacity_gib: float) -> str:
    """"fits" when even the high end fits, "tight" when only the low end does, else "does_not_fit"."""
    cap = capacity_gib * GIB
    if v.high <= cap:
        return "fits"
    if v.low <= cap:
        return "tight"
    return "does_not_fit"


def largest_batch(w: Workload, n_gpus: int, vram_gib: float, display_gpu: bool = False) -> int:
    """Largest per-GPU batch whose estimate fits (the high end within the card; 0 if even one sample does not)."""
    def fits(b: int) -> bool:
        return verdict(vram_per_gpu(w, n_gpus, batch=b, display_gpu=display_gpu), vram_gib) == "fits"

    if not fits(1):
        return 0
    lo, hi = 1, 2
    while fits(hi):
        lo, hi = hi, hi * 2
        if hi > 1 << 24:
            return lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo


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


def host_ram(w: Workload, n_gpus: int) -> RamEstimate:
    """First principles: OS and libraries + a host copy of the weights per process while loading +
    the DataLoader's prefetched batches (4 workers × prefetch 2 per GPU) + optimizer states offloaded
    to the host (ZeRO-Offload); with no GPU, what the GPU would hold lives in RAM. The guide's RAM-1:
    params × batch × 4 B × 1.2, halved for mixed precision."""
    spec = w.spec()
    procs = max(n_gpus, 1)
    weights_host = spec.params * 4.0 * procs
    loader = LOADER_WORKERS_PER_GPU * PREFETCH * w.effective_batch * sample_bytes(w) * procs
    parts = {"base": HOST_BASE_GIB, "weights": weights_host / GIB, "dataloader": loader / GIB}
    if n_gpus == 0:
        v = vram_per_gpu(w, 1)
        parts["model_in_ram"] = (v.total - v.context + v.offloaded) / GIB
    elif w.task == "train" and w.offload == "optimizer":
        parts["offloaded_optimizer"] = vram_per_gpu(w, n_gpus).offloaded * n_gpus / GIB
    guide = spec.params * w.effective_batch * 4 * 1.2 / GIB
    if w.precision in ("amp", "bf16", "fp16"):
        guide /= 2
    return RamEstimate(round(sum(parts.values()), 2), round(guide, 2), {k: round(v, 2) for k, v in parts.items()})
