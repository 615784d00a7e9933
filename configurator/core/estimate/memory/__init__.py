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
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass

from configurator.core.build import Workload
from configurator.core.estimate.quant import QUANTS
from configurator.core.model_specs import DETECTORS, ModelSpec, UNetLayout
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
                      attention: str = "sdpa", device: str = "cuda", frozen: bool = False,
                      adapter_bytes: float = 0.0, lora_rank: int = 0, chunked_ce: bool = False) -> Saved:
    """What a Hugging Face GPT-2 (decoder, LM head), BERT (encoder, MLM head) or LLaMA (RMSNorm, rotary
    positions, SwiGLU, grouped-query attention; Mixtral with experts) training step saves.

    Per token and layer, with e = activation bytes, f = residual-stream bytes (fp32 under autocast),
    m = a dropout mask's bytes (1 on CUDA), h = hidden, k = the K/V width (h × kv_heads / heads),
    i = MLP width, a = heads:

    - two norms: their inputs f·h each (LLaMA's RMSNorm upcasts its input: 4·h), mean and rstd
      2 × 4 B each (RMSNorm: the normalised copy f·h, rstd);
    - the normed activations as the projections save them: e·h each (under autocast each
      projection saves its own 16-bit cast, so BERT's separate Q/K/V save three);
    - attention, eager: Q, K, V as the matmuls copy them (LLaMA repeats K and V to all heads) and the
      merged heads, 4·e·h, plus per query a·s × (softmax output, 4 B under autocast or where the model
      upcasts it, as LLaMA does, + dropout output e + mask m when attention dropout > 0; the 16-bit copy
      of the probabilities without dropout); SDPA (flash / memory-efficient kernels): Q, K, V, the output,
      2·e·h + 2·e·k, and the log-sum-exp, 4·a B; no s² term;
    - MLP: F.gelu saves its input and output, 2·e·i; GPT-2's gelu_new, written in Python ops,
      saves the input, tanh, 0.5·x, 1 + tanh and the output, 5·e·i; SwiGLU: gate, up, SiLU
      and product, 4·e·i; with experts (Mixtral), each token's x routed copies through k experts'
      MLPs and the router's fp32 probabilities;
    - dropout masks on the attention and MLP outputs, 2·m·h.

    ``frozen`` (LoRA / QLoRA: the base weights do not train): a frozen projection does not save its
    input (autograd saves a matmul's input only to compute its weight's gradient), nor does a frozen
    norm weight's multiply; the adapters on Q, K, V and O save their inputs instead (one 16-bit
    storage; each adapter its own cast copy under autocast, or with ``adapter_bytes`` wider than e, as
    peft's fp32 adapters on a 16-bit base) and the rank-r intermediate.

    Outside the layers: token ids (and labels) 8 B each, the embedding dropout's mask, the final
    norm or BERT's MLM transform, the LM head's input, and the loss: log-softmax keeps
    b·s·vocab fp32. Held besides: the logits (e·vocab per token, fp32 without autocast, where
    they are the log-softmax's input) and, when backward starts, two b·s·vocab fp32 gradients.
    ``chunked_ce`` (the head and the loss one chunk of the sequence at a time, the chunk rebuilt in
    backward: Liger's fused linear cross-entropy, a checkpointed chunked head): no log-softmax is
    saved and only one of CE_CHUNKS chunks' logits, log-softmax and gradients is alive at once.
    Checkpointing (``activation_checkpointing_enable``, once ``gradient_checkpointing_enable``) keeps
    each layer's input, f·h per token.
    """
    d = _LayerDims.of(spec, seq, precision, device, frozen, adapter_bytes)
    per_layer = _layer_saved(spec, d, attention, device, frozen, lora_rank)
    outside = _outside_saved(spec, d, batch, device, frozen, chunked_ce)
    t = float(batch * seq)
    layers = float(spec.layers)
    stream = d.f * d.h  # a layer's input: the residual stream (GPT-2) or the last LayerNorm's output (BERT)
    if checkpointing:
        acts = t * (layers * stream + outside)
        recompute = t * per_layer
    else:
        acts = t * (layers * per_layer + outside)
        recompute = 0.0
    copies = 2.0 * _matmul_params(spec) if d.autocast and not frozen else 0.0
    v = float(spec.vocab)
    logits_one = v * (d.e if d.autocast else 4.0) + 2 * v * 4.0
    # chunked: one chunk's logits and gradients, with its log-softmax
    logits = math.ceil(t / CE_CHUNKS) * (logits_one + 4.0 * v) if chunked_ce else t * logits_one
    return Saved(acts, copies, logits, recompute)


@dataclass(frozen=True)
class _LayerDims:
    """The widths and byte sizes transformer_saved's steps share (its docstring's symbols)."""

    h: float  # hidden
    i: float  # MLP width
    a: float  # heads
    s: float  # sequence length
    kvw: float  # K/V width
    e: float  # activation bytes
    f: float  # residual-stream bytes
    autocast: bool
    cast_bytes: float  # what each LoRA adapter's cast copy of its input costs (0: no cast)

    @staticmethod
    def of(spec: ModelSpec, seq: int, precision: str, device: str, frozen: bool,
           adapter_bytes: float) -> _LayerDims:
        e, f, autocast = _dtypes(precision)
        if frozen and autocast:
            f = e  # LoRA under autocast: the frozen base is 16-bit, and so is its residual stream
        # each adapter casts its input: autocast to 16 bit, peft to lora_A's dtype (fp32 adapters on a 16-bit base)
        cast_bytes = (e if autocast else adapter_bytes if adapter_bytes > e else 0.0) if frozen else 0.0
        h = float(spec.hidden)
        kvw = h * (spec.kv_heads or spec.heads) / max(spec.heads, 1)
        return _LayerDims(h, float(spec.ffn), float(spec.heads), float(seq), kvw, e, f, autocast, cast_bytes)


def _norm_saved(spec: ModelSpec, d: _LayerDims, frozen: bool, out_savers: int, weight_saves: bool = True) -> float:
    """A norm, per token: its input (LLaMA's RMSNorm upcasts it: 4·h), mean and rstd (RMSNorm: rstd and the
    normalised copy) and the output as the projections after it save it."""
    rms = spec.norm == "rmsnorm"
    stats = 4.0 if rms else 8.0
    inp = 4.0 * d.h if rms else d.f * d.h  # HF LlamaRMSNorm: hidden_states.to(torch.float32)
    if frozen:
        return inp + stats  # the frozen weight's multiply keeps only the weight; no projection saves x
    normalised = d.f * d.h if rms else 0.0  # HF LlamaRMSNorm keeps x·rstd before the weight multiplies it
    saved_out = out_savers * d.e * d.h if d.autocast else d.e * d.h  # one storage unless autocast casts per use
    return inp + stats + normalised + (saved_out if weight_saves else 0.0)


def _attention_saved(spec: ModelSpec, d: _LayerDims, attention: str, device: str) -> float:
    """Attention, per token: eager keeps Q, K, V, the merged heads and the a·s scores (softmax output, dropout);
    SDPA Q, K, V, its output and the log-sum-exp."""
    rotary = not spec.learned_positions
    e, h, a = d.e, d.h, d.a
    if attention == "eager":
        upcast = d.autocast or rotary  # LLaMA's eager attention: softmax(..., dtype=torch.float32).to(q.dtype)
        probs = 4.0 if upcast else e
        # with dropout: its mask and output; without: the 16-bit copy of the probabilities the matmul saves
        scores = (probs + _mask_bytes(device, e) + e if spec.attention_dropout > 0
                  else probs + (e if upcast and e < 4.0 else 0.0))
        return 4 * e * h + a * d.s * scores
    attn = 2 * e * h + 2 * e * d.kvw + 4.0 * a
    if device == "cpu" and spec.decoder and not rotary:
        # measured: on the CPU, SDPA's causal path receives GPT-2's Q and K as contiguous copies
        # (CatBackward0); CUDA's flash / memory-efficient kernels read them strided, in place
        attn += 2 * e * h
    return attn


def _mlp_saved(spec: ModelSpec, d: _LayerDims, frozen: bool) -> float:
    """The MLP, per token: GELU's input and output, GPT-2's gelu_new's five Python-op tensors, SwiGLU's four;
    a frozen down projection does not save its input; a mixture of experts routes copies of x."""
    e, i = d.e, d.i
    if spec.activation == "gelu_new":
        mlp = 5 * e * i
    elif spec.activation == "swiglu":
        mlp = 4 * e * i
    else:
        mlp = 2 * e * i
    if frozen:
        mlp -= e * i  # the down projection is frozen: its input (the activation's output) is not saved
        if spec.activation == "gelu":
            mlp = e * i  # F.gelu keeps its input only
    experts = float(getattr(spec, "experts", 0) or 0)
    routed = float(getattr(spec, "experts_per_token", 0) or 0) if experts else 1.0
    mlp *= routed
    if experts:
        # Mixtral's sparse block: router probabilities in fp32 (softmax output, top-k weights) and each
        # routed copy of x (hidden_states[top_x]) that the expert's projections save
        mlp += experts * 4.0 + routed * (8.0 + 4.0) + (0.0 if frozen else routed * e * d.h)
    return mlp


def _layer_saved(spec: ModelSpec, d: _LayerDims, attention: str, device: str, frozen: bool,
                 lora_rank: int) -> float:
    """One layer, per token: two norms, attention, the MLP, the dropout masks on the attention and MLP outputs,
    and LoRA's adapters where the base is frozen. GPT-2 (pre-LN) and BERT (post-LN) save the same set."""
    m_h = _mask_bytes(device, d.e) if spec.dropout > 0 else 0.0
    proj_in_attn = 1 if spec.fused_qkv else 3
    proj_in_mlp = 2 if spec.activation == "swiglu" else 1
    per_layer = (_norm_saved(spec, d, frozen, proj_in_attn) + _attention_saved(spec, d, attention, device)
                 + _norm_saved(spec, d, frozen, proj_in_mlp) + _mlp_saved(spec, d, frozen) + 2 * m_h * d.h)
    if frozen:
        per_layer += _adapter_saved(d.h, d.e, d.cast_bytes, lora_rank)
    return per_layer


def _outside_saved(spec: ModelSpec, d: _LayerDims, batch: int, device: str, frozen: bool,
                   chunked_ce: bool) -> float:
    """Per token outside the layers: token ids (and labels), the embedding dropout's mask, the final norm and the
    LM head's input (rotary cos and sin) or BERT's embedding LayerNorm and MLM transform, the log-softmax."""
    h = d.h
    m_emb = _mask_bytes(device, d.f) if spec.dropout > 0 else 0.0
    outside = 8.0 * (2 if spec.decoder else 1) + m_emb * h  # token ids (+ shifted labels); encoder labels as ids
    if spec.decoder:
        outside += _norm_saved(spec, d, frozen, 1)  # final norm and the LM head's input
        if not spec.learned_positions:
            outside += 2 * (h / max(d.a, 1.0)) * d.e / max(batch, 1)  # the rotary cos and sin, one per position
    else:
        outside += d.f * h + 8.0  # embedding LayerNorm's input and stats
        if not frozen:
            outside += 3 * d.e * h + d.f * h + 8.0  # MLM transform: dense in, GELU in, LN in, decoder in
        else:
            outside += d.e * h + d.f * h + 8.0  # the frozen MLM transform: GELU's input, the LayerNorm's input, stats
    if not chunked_ce:
        outside += 4.0 * spec.vocab  # log-softmax output, fp32
    return outside


def _adapter_saved(h: float, e: float, cast_bytes: float, rank: int) -> float:
    """Per token and layer, what LoRA adapters on Q, K, V and O save: their inputs and the rank-r outputs
    (lora_A's output, which lora_B saves). Shared 16-bit inputs: the normed x (one
    storage for Q, K and V) and the attention output that O's adapter reads (a view of SDPA's output);
    adapters that cast their input (autocast; peft to lora_A's dtype) keep one cast each, ``cast_bytes``."""
    inner = LORA_PROJECTIONS * rank * max(cast_bytes, e)
    if cast_bytes:
        return LORA_PROJECTIONS * cast_bytes * h + inner
    return e * h + inner  # the normed x, no longer saved by the frozen projections; O's input is SDPA's output


def _matmul_params(spec: ModelSpec) -> float:
    """Weights that go through matmuls (autocast casts and caches them): the layers' projections and the head."""
    h = spec.hidden
    kv = h * (spec.kv_heads or spec.heads) // max(spec.heads, 1)
    mlp = _mlp_params(spec)
    per_layer = 2 * h * h + 2 * h * kv + mlp
    head = spec.vocab * h + (0 if spec.decoder else h * h)  # BERT's MLM transform dense
    return float(spec.layers * per_layer + head)


def _mlp_params(spec: ModelSpec) -> int:
    """One layer's MLP weights: SwiGLU's three matrices or two; a mixture of experts has one MLP per expert
    (all resident) and the router (hidden × experts)."""
    one = (3 if spec.activation == "swiglu" else 2) * spec.hidden * spec.ffn
    experts = int(getattr(spec, "experts", 0) or 0)
    return one * experts + spec.hidden * experts if experts else one


def transformer_params(spec: ModelSpec) -> tuple[float, float]:
    """(parameters in the layers' matmuls, all other parameters) of the HF GPT-2 / BERT-MLM / LLaMA layout."""
    h, i, v = spec.hidden, spec.ffn, spec.vocab
    kv = h * (spec.kv_heads or spec.heads) // max(spec.heads, 1)
    rms = spec.norm == "rmsnorm"
    norm = h if rms else 2 * h
    bias = not rms
    mlp = _mlp_params(spec)
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


# -- detectors (torchvision's ResNet-50-FPN family) ------------------------------------------------------------
# torchvision's defaults (faster_rcnn.py / roi_heads.py / retinanet.py): the RoI heads train on 512 sampled
# proposals per image (box_batch_size_per_image), up to a quarter of them positive (box_positive_fraction); the
# box head's TwoMLPHead has a 1024-wide representation on 256 × 7 × 7 pooled features; the mask head four
# 3 × 3 convolutions at 14 × 14 on the positive RoIs; RetinaNet's heads four 3 × 3 convolutions of 256 channels
# per branch (classification and regression) on every level, with 9 anchors per position.
_RESNET50_224 = ModelSpec("resnet50-layout", "cnn", 25557032, "", blocks=(3, 4, 6, 3), bottleneck=True)
ROIS_PER_IMAGE = 512
POSITIVE_ROIS = 128
FPN_CHANNELS = 256
RETINANET_ANCHORS = 9
FOCAL_COPIES = 8  # torchvision.ops.sigmoid_focal_loss's saved tensors of the logits' size (7.9 counted)


def _down(x: int) -> int:
    return (x - 1) // 2 + 1


def _resnet50_body(h: int, w: int, e: float, trainable: int = 5, frozen_bn: bool = False) -> tuple[float, list[int]]:
    """Bytes torchvision's ResNet-50 body (no pooling, no classifier) saves per image at h × w, and the area of each
    stage's output (strides 4, 8, 16, 32). ``trainable``: torchvision's trainable_backbone_layers, the stages that
    train counted from layer4 down (5: the stem too); ``frozen_bn``: FrozenBatchNorm2d.

    A trained block with BatchNorm trained saves resnet_saved's terms (every convolution's output as BatchNorm's
    input, BatchNorm's output as the next convolution's, the residual sum after ReLU, the downsample convolution's
    output, 8 B of statistics per channel). With FrozenBatchNorm2d (``x * scale + bias`` on buffers) a convolution's
    output is not kept: the block keeps its convolutions' inputs (the ReLU outputs: width at the input's
    resolution, width and out_ch at the output's) and each frozen norm's ``scale``, 4 B per channel. A frozen stage
    (whose input needs no gradient either: stages freeze from the stem up) saves nothing; the first trained
    stage's convolutions (and the FPN's lateral convolution) keep its input. The frozen stem saves nothing.
    """
    sh, sw = _down(h), _down(w)
    ph, pw = _down(sh), _down(sw)
    areas = [ph * pw]
    dims = [(ph, pw)]
    for _ in range(3):
        dims.append((_down(dims[-1][0]), _down(dims[-1][1])))
        areas.append(dims[-1][0] * dims[-1][1])
    saved = 0.0
    if trainable >= 5:
        stem_bn = 64 * sh * sw * e + 64 * 4 if frozen_bn else 2 * 64 * sh * sw * e + 2 * 2 * 64 * 4
        saved = 3 * h * w * e + stem_bn + 8 * 64 * ph * pw + 64 * ph * pw * e  # image, conv / BN, pool indices, out
    in_area, in_ch = areas[0], 64
    for stage, (width, area, n) in enumerate(zip((64, 128, 256, 512), areas, (3, 4, 6, 3), strict=True)):
        out_ch = width * 4
        if stage < 4 - trainable:  # frozen
            in_area, in_ch = area, out_ch
            continue
        if stage == 4 - trainable and trainable < 5:
            saved += in_ch * in_area * e  # the frozen part's output, which this stage's convolutions keep
        for k in range(n):
            block_in = in_area if k == 0 else area
            channels = 2 * width + out_ch + (out_ch if k == 0 else 0)
            if frozen_bn:
                saved += (width * block_in + width * area + out_ch * area) * e + channels * 4
                continue
            elements = 2 * width * block_in + 2 * width * area + 2 * out_ch * area
            if k == 0:
                elements += out_ch * area
            saved += elements * e + channels * 8
        in_area, in_ch = area, out_ch
    return saved, areas


def frozen_backbone_params(spec: ModelSpec) -> float:
    """Parameters of a detector's frozen ResNet-50 stem and stages (``trainable_stages``, torchvision's count from
    layer4 down): their convolutions' weights, and their BatchNorm's weight and bias where BatchNorm is a module
    with parameters (FrozenBatchNorm2d keeps buffers). They get no gradient and no optimizer state."""
    if spec.arch not in DETECTORS or spec.arch == "yolo" or spec.trainable_stages >= 5:
        return 0.0
    bn = 0.0 if spec.frozen_bn else 2.0
    total = 3 * 49 * 64 + bn * 64  # the stem
    in_ch = 64
    for stage, (width, n) in enumerate(zip((64, 128, 256, 512), (3, 4, 6, 3), strict=True)):
        out_ch = width * 4
        if stage >= 4 - spec.trainable_stages:
            break
        for k in range(n):
            c_in = in_ch if k == 0 else out_ch
            total += c_in * width + 9 * width * width + width * out_ch + bn * (2 * width + out_ch)
            if k == 0:
                total += c_in * out_ch + bn * out_ch
        in_ch = out_ch
    return float(total)


def detr_saved(spec: ModelSpec, batch: int, precision: str, device: str = "cuda") -> Saved:
    """What a training step of transformers' DetrForObjectDetection (DetrConfig's defaults: vision.DETR_*) saves
    per image at the spec's image size, with SDPA attention (transformers' default; no s² term):

    - the ResNet-50 body with FrozenBatchNorm2d and the stem and layer1 frozen (DETR's backbone.py; the spec's
      ``trainable_stages``): :func:`_resnet50_body`; the input projection keeps C5, which the body counts;
    - per encoder layer and token (T = the stride-32 feature map's pixels; d = 256, f = 2048, a = 8 heads, e the
      activation bytes, m a dropout mask's): 9·d·e (the layer's input as V's projection keeps it, input +
      position as Q's and K's, Q, K, V, the attention output that O's projection reads, the first LayerNorm's input
      and output, the second's input), ReLU's output f·e, two dropout masks 2·m·d, two LayerNorms' statistics
      16 B and the log-sum-exp 4·a B;
    - per decoder layer and query (100): 13·d·e (self-attention as above less the second LayerNorm; the
      cross-attention's query input, Q, output and LayerNorm input; the MLP's input and LayerNorm input), f·e,
      three masks, 24 B of statistics, two log-sum-exps; per decoder layer and token the cross-attention's key
      input (memory + position), K and V, 3·d·e;
    - once: the encoder input's dropout (mask and output), the memory, the decoder's final LayerNorm (input,
      output, statistics), the box MLP's two ReLU outputs and sigmoid, the class log-softmax (classes + 1, fp32).

    benchmarks/memory_counts.py counts the same in transformers' model on the CPU (tests/core/test_memory_detr.py).
    """
    from configurator.core.vision import DETR_FFN, DETR_HEADS, DETR_HIDDEN, DETR_LAYERS, DETR_QUERIES

    e, _f, autocast = _dtypes(precision)
    m = _mask_bytes(device, e)
    h, w = spec.image_size, spec.image_width or spec.image_size
    body, areas = _resnet50_body(h, w, e, spec.trainable_stages, True)
    t, q = float(areas[3]), float(DETR_QUERIES)
    d, f, a = float(DETR_HIDDEN), float(DETR_FFN), float(DETR_HEADS)
    enc, dec = DETR_LAYERS
    encoder = enc * t * (9 * d * e + f * e + 2 * m * d + 16.0 + 4 * a)
    decoder = dec * (q * (13 * d * e + f * e + 3 * m * d + 24.0 + 8 * a) + t * 3 * d * e)
    once = t * (m * d + 2 * d * e) + q * (2 * d * e + 8.0 + 2 * d * e + 4 * e + 4.0 * (spec.classes + 1))
    acts = (body + encoder + decoder + once) * batch
    return Saved(acts, 2.0 * spec.params if autocast else 0.0, 0.0, 0.0)


def unet_training_saved(w: Workload, spec: ModelSpec, batch: int) -> Saved:
    """A diffusion UNet's training step at the latent of the workload's image (vision.unet_saved); under AMP the
    activations are counted at 16 bits and autocast caches a 16-bit copy of the trained weights. LoRA's frozen
    base saves the same tensors here (an upper bound: a frozen convolution needs no copy of its input)."""
    from configurator.core.vision import unet_saved

    assert spec.unet is not None
    e, _f, autocast = _dtypes(w.precision)
    acts = unet_saved(spec.unet, spec.image_size, spec.image_width or spec.image_size, batch, e)
    copies = 2.0 * spec.params if autocast and w.finetune == "full" else 0.0
    return Saved(acts, copies, 0.0, 0.0)


def detection_saved(spec: ModelSpec, batch: int, precision: str) -> Saved:
    """What a training step of torchvision's Faster R-CNN / Mask R-CNN / RetinaNet (ResNet-50-FPN) saves, at the
    spec's image size (the size the model's transform resizes to, padded to a multiple of 32), per image:

    - the ResNet-50 body (:func:`_resnet50_body`);
    - the FPN: each 3 × 3 output convolution's input (the lateral 1 × 1 convolution's output plus the upsampled
      level above), 256 channels at strides 4–32, and the extra level's max-pool indices (int64, stride 64);
    - Faster / Mask R-CNN's RPN head on the five levels: its 3 × 3 convolution's input and its ReLU output,
      2 × 256 channels; the box head per sampled RoI its pooled 256 × 7 × 7 input and two 1024-wide ReLU
      outputs, and the classifier's log-softmax; Mask R-CNN's mask head per positive RoI its pooled 256 × 14 × 14
      input, four convolutions' outputs, the transposed convolution's input and output (28 × 28);
    - RetinaNet's heads per level: per branch four 3 × 3 convolutions' inputs and ReLU outputs (256 channels),
      the final convolutions' outputs (classes × 9 and 4 × 9 per position) as the losses keep them.

    YOLO (ultralytics) is not laid out here: its saved tensors are taken as ResNet-50's per multiply-accumulate.
    """
    e, _f, autocast = _dtypes(precision)
    h, w = spec.image_size, spec.image_width or spec.image_size
    if spec.arch == "yolo":
        per_mac = resnet_saved(_RESNET50_224, 1, precision).activations / 4.089e9
        acts = per_mac * spec.gmacs_224 * 1e9 * spec.pixels / (spec.gmacs_pixels or 224 * 224) * batch
        return Saved(acts, 2.0 * spec.params if autocast else 0.0, 0.0, 0.0)
    if spec.arch == "detr":
        return detr_saved(spec, batch, precision)
    h, w = -(-h // 32) * 32, -(-w // 32) * 32
    body, areas = _resnet50_body(h, w, e, spec.trainable_stages, spec.frozen_bn)
    c = float(FPN_CHANNELS)
    p6 = _down(h // 32) * _down(w // 32)
    levels = [*areas, p6]
    fpn = c * sum(areas) * e + 8.0 * c * p6
    if spec.arch == "retinanet":
        # P3–P7: the FPN on C3–C5 and P6 / P7 by stride-2 convolutions (LastLevelP6P7, the ReLU between saved)
        hs, ws = h // 32, w // 32
        p7 = _down(_down(hs)) * _down(_down(ws))
        levels = [*areas[1:], p6, p7]
        fpn = c * sum(areas[1:]) * e + c * p6 * e
        anchors = float(sum(levels) * RETINANET_ANCHORS)
        # per level the input both heads read, and per branch four ReLU outputs; the focal loss keeps about
        # FOCAL_COPIES fp32 tensors of anchors × classes (the logits, the one-hot targets, the sigmoid, 1 − p …)
        heads = sum(levels) * 9 * c * e + FOCAL_COPIES * anchors * spec.classes * 4.0
        extra = 0.0
    else:
        heads = sum(levels) * 2 * c * e
        rois = ROIS_PER_IMAGE * ((c * 49 + 2 * 1024) * e + 4.0 * spec.classes)
        extra = rois
        if spec.arch == "maskrcnn":
            mask = (5 * c * 196 + c * 784) * e + 2 * 784 * 4.0  # + the selected mask logits and targets, fp32
            extra += POSITIVE_ROIS * mask
    acts = (body + fpn + heads + extra) * batch
    return Saved(acts, 2.0 * spec.params if autocast else 0.0, 0.0, 0.0)


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
    low_unwidened: float = 0.0  # the range from the terms' own errors, before PUBLISHED_RATIO widens it
    high_unwidened: float = 0.0
    offloaded: float = 0.0  # optimizer states in host RAM (ZeRO-Offload)
    pageable: float = 0.0  # of ``optimizer``: paged states (unified memory) that page out to host RAM under pressure
    host_activations: float = 0.0  # saved tensors offloaded to pinned host memory

    @property
    def total(self) -> float:
        return (self.weights + self.gradients + self.optimizer + self.activations + self.autocast_copies
                + self.logits + self.recompute + self.kv_cache + self.margin + self.context + self.display)

    def gib(self) -> dict[str, float]:
        keys = ("weights", "gradients", "optimizer", "activations", "autocast_copies", "logits", "recompute",
                "kv_cache", "margin", "context", "display", "total", "low", "high", "offloaded", "pageable",
                "host_activations")
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
    if spec.arch in DETECTORS:
        return detection_saved(spec, batch, w.precision)
    if spec.unet is not None:
        return unet_training_saved(w, spec, batch)
    if spec.family == "cnn":
        return resnet_saved(spec, batch, w.precision, checkpointing=w.grad_checkpointing)
    frozen = w.finetune in ("lora", "qlora")
    # LoRA's base is 16-bit in a mixed-precision run (the weights term counts it so), and QLoRA computes in 16
    # bit on a 4-bit base (bnb_4bit_compute_dtype): the activations of a bf16 run, under autocast for amp
    precision = w.precision
    if w.finetune == "qlora" and w.precision in ("fp32", "int8", "int4"):
        precision = "bf16"
    return transformer_saved(spec, batch, w.effective_seq_len, precision, checkpointing=w.grad_checkpointing,
                             attention=w.attention, device=device, frozen=frozen,
                             adapter_bytes=ADAPTER_BYTES if frozen else 0.0, lora_rank=w.lora_rank if frozen else 0,
                             chunked_ce=w.chunked_ce and spec.decoder)


def largest_param(spec: ModelSpec) -> float:
    """Values in the largest parameter tensor: the gradient that optimizer-in-backward holds at most at once.
    Transformer: the token embedding or the LM head (vocab × hidden), or one MLP matrix (hidden × MLP width);
    ResNet: the classifier or the last stage's 3 × 3 convolution."""
    if spec.family == "cnn":
        if spec.blocks:
            expansion = 4 if spec.bottleneck else 1
            return float(max(512 * expansion * spec.classes, 512 * 512 * 9))
        return spec.params / 10  # a custom CNN: its layers are not known; a tenth of the weights
    return float(max(spec.vocab * spec.hidden, spec.hidden * spec.ffn, spec.hidden * spec.hidden))


def _split_params(spec: ModelSpec) -> tuple[float, float]:
    """(matmul weights, the rest), scaled to the published parameter count."""
    if spec.family == "cnn" or spec.hidden <= 0 or spec.layers <= 0:
        return spec.params, 0.0
    linear, other = transformer_params(spec)
    scale = spec.params / (linear + other) if linear + other > 0 else 1.0
    return linear * scale, other * scale


def lora_params(spec: ModelSpec, rank: int) -> float:
    """Adapters A (r × in) and B (out × r) on the Q, K, V and output projections of every layer (Hu et al.
    2021); with grouped-query attention K's and V's outputs are the narrower K/V width."""
    h = spec.hidden
    kvw = h * (spec.kv_heads or spec.heads) // max(spec.heads, 1)
    return float(spec.layers * rank * (2 * h + 2 * h + 2 * (h + kvw)))


def _finish(weights: float, grads: float, optimizer: float, saved: Saved, kv: float,
            per_sample: float, display_gpu: bool, offloaded: float, *, pageable: float = 0.0,
            host_activations: float = 0.0, widen: tuple[float, float] = (1.0, 1.0)) -> VramBreakdown:
    """The sum and its range. Low: the saved tensors ACTIVATION_ERROR under, no allocator margin, the
    smallest context, and paged optimizer states paged out to the host; high: ACTIVATION_ERROR over, the
    largest margin and context; both widened to ``widen`` × the estimate where that is wider (training:
    PUBLISHED_RATIO, the published peaks being training recipes')."""
    dynamic = saved.activations + saved.autocast_copies + saved.logits + saved.recompute + kv
    exact = weights + grads + optimizer
    ctx_low, ctx, ctx_high = (x * GIB for x in CUDA_CONTEXT_GIB)
    disp_low, disp, disp_high = ((x * GIB for x in DISPLAY_GIB) if display_gpu else (0.0, 0.0, 0.0))
    low = exact - pageable + dynamic * (1 - ACTIVATION_ERROR) * (1 + FRAGMENTATION[0]) + ctx_low + disp_low
    high = exact + dynamic * (1 + ACTIVATION_ERROR) * (1 + FRAGMENTATION[2]) + ctx_high + disp_high
    total = exact + dynamic * (1 + FRAGMENTATION[1]) + ctx + disp
    return VramBreakdown(weights, grads, optimizer, saved.activations, kv, ctx, per_sample,
                         autocast_copies=saved.autocast_copies, logits=saved.logits, recompute=saved.recompute,
                         display=disp, margin=dynamic * FRAGMENTATION[1],
                         low=min(low, total * widen[0]), high=max(high, total * widen[1]),
                         low_unwidened=low, high_unwidened=high, offloaded=offloaded,
                         pageable=pageable, host_activations=host_activations)


@functools.lru_cache(maxsize=4096)
def vram_per_gpu(w: Workload, n_gpus: int, batch: int | None = None, display_gpu: bool = False) -> VramBreakdown:
    """The estimate for the GPU that needs the most (the display GPU when ``display_gpu``). A pure function
    of frozen inputs with a frozen result, cached: every check, the largest-batch search and Suggest's
    thousands of checks ask it the same few questions."""
    spec = w.spec()
    b = batch if batch is not None else w.effective_batch
    n = max(n_gpus, 1)
    if w.task == "train":
        # fp8 training (Transformer Engine, torchao float8) keeps bf16 weights, fp32 master weights and bf16
        # activations; its FP8 casts of each GEMM's inputs are transient
        return _train(dataclasses.replace(w, precision="bf16") if w.precision == "fp8" else w, spec, n, b, display_gpu)
    return _infer(w, spec, n, b, display_gpu)


def weight_bytes_per_param(w: Workload) -> float:
    """Bytes per parameter of inference weights: the quantised format's (its linear weights at its bits per
    weight, scales and zeros included; embeddings and head in 16 bits except GGUF's), else the precision's."""
    if w.quant is None or w.quant not in QUANTS:
        return WEIGHT_BYTES[w.precision]
    q = QUANTS[w.quant]
    spec = w.spec()
    linear, other = _split_params(spec)
    if q.head_quantised or linear + other <= 0:
        return q.bits / 8
    return (linear * q.bits / 8 + other * 2.0) / (linear + other)


def _train(w: Workload, spec: ModelSpec, n: int, b: int, display_gpu: bool) -> VramBreakdown:
    """Training: weights, gradients and optimizer states (by precision, optimizer and fine-tuning method,
    sharded by ZeRO / FSDP), the saved tensors, and the options that move them:

    - optimizer states: OPTIMIZER_BYTES; fp32 master weights (4 B) in a bf16/fp16 run only for the
      optimizers that keep them; paged states are counted on the GPU but can page out (``pageable``);
    - ``optimizer_in_backward`` (each parameter stepped in its post-accumulate-grad hook, its gradient
      freed: the PyTorch tutorial "How to save memory by fusing the optimizer step into the backward
      pass"): the largest parameter's gradient instead of all of them;
    - ``offload`` optimizer / all: the states (and master weights) in host RAM (ZeRO-Offload, FSDP
      CPUOffload); activations / all: the saved tensors in pinned host memory
      (torch.autograd.graph.save_on_cpu, torchtune's OffloadActivations), the GPU keeping one layer's
      while they are copied back in backward, and the loss's log-softmax (computed outside the offloaded
      model); ``chunked_ce``: see :func:`transformer_saved`.
    """
    p = spec.params
    dw, dg, do = _shard(w.sharding, n)
    half = 2.0 if w.precision in ("amp", "bf16", "fp16") else 4.0
    opt = w.effective_optimizer
    opt_bytes = OPTIMIZER_BYTES[opt]
    saved = saved_bytes(w, b)
    frozen_parts = spec.frozen_params * (4.0 if w.precision == "fp32" else 2.0) / dw  # a diffusion model's VAE, text
    if w.finetune in ("lora", "qlora") and spec.unet is not None:
        # LoRA on the UNet's attention projections (diffusers' train_text_to_image_lora.py: to_q, to_k, to_v,
        # to_out.0; a Flux transformer: train_dreambooth_lora_flux.py's projections, vision.flux_lora_projections); the
        # denoiser frozen in 16 bits (fp32 in an fp32 run), adapters in fp32
        from configurator.core.vision import unet_lora_params

        trained = unet_lora_params(spec.unet, w.lora_rank)
        weights = p * half / dw + trained * ADAPTER_BYTES / dw + frozen_parts
        grad_values = trained
        grad_each = ADAPTER_BYTES
        biggest = float(max(spec.unet.channels) if isinstance(spec.unet, UNetLayout) else spec.unet.hidden * 4) \
            * w.lora_rank  # the widest adapter matrix (a Flux MLP's 4·d side)
        optimizer = trained * opt_bytes / do
    elif w.finetune in ("lora", "qlora") and spec.is_transformer:
        linear, other = _split_params(spec)
        base = (linear * NF4_BYTES + other * 2.0) if w.finetune == "qlora" else (linear + other) * half
        trained = lora_params(spec, w.lora_rank)
        weights = base / dw + trained * ADAPTER_BYTES / dw  # adapters in fp32 (peft's default)
        grad_values = trained
        grad_each = ADAPTER_BYTES
        biggest = float(spec.hidden * w.lora_rank)  # one adapter matrix
        optimizer = trained * opt_bytes / do
    else:
        weights = p * WEIGHT_BYTES[w.precision] / dw + frozen_parts  # DreamBooth: the whole UNet trains
        grad_values = p - frozen_backbone_params(spec)  # a detector's frozen stem and stages: no gradient, no state
        grad_each = 4.0 if w.precision in ("fp32", "amp") else 2.0
        biggest = largest_param(spec)
        master = 4.0 if w.precision in ("bf16", "fp16") and opt not in NO_MASTER_OPTIMIZERS else 0.0
        optimizer = grad_values * (opt_bytes + master) / do
        if w.precision == "amp" and w.sharding in ("zero3", "fsdp"):
            saved = Saved(saved.activations, saved.autocast_copies / dw, saved.logits, saved.recompute)
    grads = (min(biggest, grad_values) if w.optimizer_in_backward else grad_values) * grad_each / dg
    offloaded = 0.0
    if w.offload in ("optimizer", "all"):
        offloaded, optimizer = optimizer, 0.0
    pageable = optimizer if opt in PAGED_OPTIMIZERS else 0.0
    host_acts = 0.0
    if w.offload in ("activations", "all"):
        saved, host_acts = _offload_activations(w, spec, b, saved)
    per = saved_bytes(w, 1)
    if w.offload in ("activations", "all"):
        per = _offload_activations(w, spec, 1, per)[0]
    per_sample = per.activations + per.logits + per.recompute
    return _finish(weights, grads, optimizer, saved, 0.0, per_sample, display_gpu, offloaded,
                   pageable=pageable, host_activations=host_acts, widen=PUBLISHED_RATIO)


def _offload_activations(w: Workload, spec: ModelSpec, b: int, saved: Saved) -> tuple[Saved, float]:
    """(what stays on the GPU, bytes in pinned host memory) when the saved tensors are offloaded: all but the
    loss's log-softmax go to the host; in backward they come back one autograd node at a time, and the GPU
    holds at most one layer's of them at once (with checkpointing the layer being rebuilt, which
    ``recompute`` already counts). benchmarks/memory_counts.py measures both."""
    if spec.family == "cnn" or spec.layers <= 0:
        kept = saved.activations / max(sum(spec.blocks) or 1, 1)  # one residual block's, about
        return Saved(kept, saved.autocast_copies, saved.logits, saved.recompute), saved.activations - kept
    s = w.effective_seq_len
    loss = 0.0 if (w.chunked_ce and spec.decoder) else 4.0 * spec.vocab * b * s
    if w.grad_checkpointing:
        one_layer = (saved.activations - loss) / (spec.layers + 1)  # the layers' inputs and the outside terms
    else:
        one = saved_bytes(dataclasses.replace(w, grad_checkpointing=True), b)
        one_layer = one.recompute  # one layer's saved tensors
    host = max(saved.activations - loss, 0.0)
    return Saved(min(one_layer, host) + loss, saved.autocast_copies, saved.logits, saved.recompute), host


def _infer(w: Workload, spec: ModelSpec, n: int, b: int, display_gpu: bool) -> VramBreakdown:
    """Inference: weights, one layer's working set, the logits, and the KV cache of a generating model.
    Tensor / pipeline parallel split the model over the GPUs; expert parallel spreads a mixture-of-experts
    model's experts (all of them resident somewhere) and replicates the rest."""
    p = spec.params
    s = w.effective_seq_len
    wb = weight_bytes_per_param(w)
    if w.quant is not None and w.precision not in ("fp16", "bf16"):
        w = dataclasses.replace(w, precision="fp16")  # a quantised format computes (and caches K, V) in 16 bits
    model_parallel = n if w.parallel in ("tensor", "pipeline") else 1
    if w.parallel == "pipeline" and spec.is_transformer and spec.layers > 0:
        linear, other = _split_params(spec)
        per_layer = linear / spec.layers
        weights = (math.ceil(spec.layers / n) * per_layer + other) * wb  # the stage that also holds the embeddings
        kv_share = math.ceil(spec.layers / n) / spec.layers
    elif w.parallel == "expert" and expert_params(spec) > 0:
        ex = expert_params(spec)
        weights = ((p - ex) + ex / n) * wb
        kv_share = 1.0
    else:
        weights = p * wb / model_parallel
        kv_share = 1.0 / model_parallel
    weights += spec.frozen_params * wb / model_parallel  # a diffusion model's VAE and text encoders
    live_one = inference_working_set(spec, s, w.precision, w.attention, model_parallel if w.parallel == "tensor"
                                      else 1)
    e_kv = 4.0 if w.precision == "fp32" else 2.0
    kv_heads = spec.kv_heads or spec.heads
    kv_width = spec.hidden * kv_heads / max(spec.heads, 1)
    kv_one = 2 * spec.layers * s * kv_width * e_kv * kv_share if spec.decoder else 0.0
    saved = Saved(live_one * b, 0.0, 0.0, 0.0)
    return _finish(weights, 0.0, 0.0, saved, kv_one * b, live_one + kv_one, display_gpu, 0.0)


def expert_params(spec: ModelSpec) -> float:
    """The experts' MLP weights of a mixture-of-experts model (0 for a dense one), scaled to its parameter count."""
    experts = int(getattr(spec, "experts", 0) or 0)
    if not experts or not spec.is_transformer or spec.layers <= 0:
        return 0.0
    per_expert = (3 if spec.activation == "swiglu" else 2) * spec.hidden * spec.ffn
    linear, other = transformer_params(spec)
    scale = spec.params / (linear + other) if linear + other > 0 else 1.0
    return float(spec.layers * experts * per_expert) * scale


def inference_working_set(spec: ModelSpec, seq: int, precision: str, attention: str, tp: int) -> float:
    """Bytes per sample alive at once without autograd: the residual stream and one layer's widest
    intermediate (the MLP's, or eager attention's scores), and a decoder's next-token logits in fp32."""
    e = 4.0 if precision == "fp32" else 2.0
    if spec.unet is not None:
        # a pipeline's step runs the UNet on the prompt and the empty prompt (CFG_PASSES; a Flux transformer once),
        # then the VAE decodes
        from configurator.core.vision import unet_working_set, vae_working_set

        hw = (spec.image_size, spec.image_width or spec.image_size)
        unet = unet_working_set(spec.unet, *hw, e, materialised=attention == "eager")  # eager: scores written out
        return max(spec.unet.passes * unet, vae_working_set(spec.unet, *hw, e))
    if spec.arch == "detr":
        # the backbone's widest layer (the stem at half the image) with the image; the encoder's widest moment is
        # far smaller (T tokens of d and the MLP's f, T = pixels / 1,024)
        from configurator.core.vision import DETR_FFN, DETR_HIDDEN

        encoder = spec.pixels / 1024 * (2 * DETR_HIDDEN + DETR_FFN) * e
        return 2 * 64 * spec.pixels / 4 * e + 3 * spec.pixels * e + encoder
    if spec.arch in DETECTORS:
        # the backbone's widest layer, input and output (the stem at half the image), and the FPN's top level
        return 2 * 64 * spec.pixels / 4 * e + 3 * spec.pixels * e + 2 * FPN_CHANNELS * spec.pixels / 16 * e
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
