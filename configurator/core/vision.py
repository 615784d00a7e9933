"""Diffusion UNets and detectors from their layouts: compute (multiply-accumulates) and the tensors a training
step saves, for the estimators (model_specs, estimate/memory, estimate/throughput).

A Stable Diffusion UNet (:class:`~configurator.core.model_specs.UNetLayout`, as diffusers' UNet2DConditionModel
builds it from the config): ``conv_in``; per level going down ``layers`` ResNet blocks, each followed by a
Transformer2DModel where the level has attention, and a stride-2 convolution except at the last level; the mid
block (ResNet, transformer, ResNet); per level going up ``layers + 1`` ResNet blocks on the down path's outputs
concatenated (the skip connections), transformers, and a nearest ×2 upsampling and 3 × 3 convolution except at
the top; GroupNorm, SiLU and ``conv_out``. It runs on the latent, image / 8 per side.

MACs per pass (T = the level's latent pixels, c its channels):

- ResNet block c_in → c_out: two 3 × 3 convolutions 9·c_in·c_out·T + 9·c_out²·T, a 1 × 1 shortcut c_in·c_out·T
  where the channels change;
- transformer of ``depth`` blocks on T tokens of width c, L context tokens of width D: projections in and out
  2·c²·T; per block self-attention Q, K, V, O 4·c²·T and its scores and weighted sum 2·T²·c; cross-attention Q
  and O 2·c²·T, K and V on the context 2·L·D·c, scores and sum 2·T·L·c; GEGLU feed-forward (c → 8c, 4c → c)
  12·c²·T;
- the VAE (Rombach et al. 2022's autoencoder, diffusers' AutoencoderKL): ResNet blocks of its ``vae_channels``,
  two per level going down and three going up, the mid block's two ResNets and one attention, at the image's
  resolution per level.

Saved tensors per training step (what autograd keeps; e = activation bytes), per ResNet block 3·(c_in + c_out)·T·e
(GroupNorm's input, SiLU's input, the convolution's input, twice) and GroupNorm's statistics; per transformer its
GroupNorm's and two projections' inputs 3·c·T·e, and per block 28·c·T·e (LayerNorms' inputs, the projections'
input, Q/K/V and the attention output, the cross-attention's Q and output, GEGLU's 8c projection, GELU output and
product) plus the log-sum-exp of the two attentions and the cross-attention's K and V. benchmarks/memory_counts.py
counts them in diffusers' own model; tests/core/test_memory_vs_pytorch.py holds the formula to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from configurator.core.model_specs import DETECTORS, Denoiser, FluxLayout, ModelSpec, UNetLayout


def _latent(layout: UNetLayout, height: int, width: int) -> tuple[int, int]:
    f = layout.vae_factor
    return max(height // f, 1), max(width // f, 1)


def _sides(h: int, w: int, levels: int) -> list[tuple[int, int]]:
    out = [(h, w)]
    for _ in range(levels - 1):
        h, w = (h + 1) // 2, (w + 1) // 2  # a stride-2 3 × 3 convolution with padding 1
        out.append((h, w))
    return out


@dataclass(frozen=True)
class _Block:
    """One module of the UNet in forward order: a ResNet block, a transformer, a resampling convolution."""

    kind: str  # "resnet" | "transformer" | "down" | "up" | "conv_in" | "out"
    c_in: int
    c_out: int
    tokens: int  # pixels at its resolution (the output's for "up": the upsampled size)
    depth: int = 0
    heads: int = 0


def _blocks(layout: UNetLayout, height: int, width: int) -> list[_Block]:
    """The UNet's modules for an image of ``height`` × ``width`` pixels (latent ÷ vae_factor)."""
    ch = layout.channels
    n = len(ch)
    sides = _sides(*_latent(layout, height, width), n)
    area = [h * w for h, w in sides]
    out = [_Block("conv_in", layout.latent_channels, ch[0], area[0])]
    skips = [ch[0]]
    prev = ch[0]
    for i, c in enumerate(ch):
        for _ in range(layout.layers):
            out.append(_Block("resnet", prev, c, area[i]))
            prev = c
            if layout.attention[i]:
                out.append(_Block("transformer", c, c, area[i], layout.depth[i], layout.heads_at(c)))
            skips.append(c)
        if i < n - 1:
            out.append(_Block("down", c, c, area[i + 1]))
            skips.append(c)
    out.append(_Block("resnet", prev, prev, area[-1]))
    if layout.attention[-1] or any(layout.attention):
        out.append(_Block("transformer", prev, prev, area[-1], layout.depth[-1], layout.heads_at(prev)))
    out.append(_Block("resnet", prev, prev, area[-1]))
    for i in reversed(range(n)):
        c = ch[i]
        for _ in range(layout.layers + 1):
            skip = skips.pop()
            out.append(_Block("resnet", prev + skip, c, area[i]))
            prev = c
            if layout.attention[i]:
                out.append(_Block("transformer", c, c, area[i], layout.depth[i], layout.heads_at(c)))
        if i > 0:
            out.append(_Block("up", c, c, area[i - 1]))
    out.append(_Block("out", ch[0], layout.latent_channels, area[0]))
    return out


def _macs(b: _Block, layout: UNetLayout) -> float:
    t, ci, co = float(b.tokens), float(b.c_in), float(b.c_out)
    if b.kind == "resnet":
        return 9 * ci * co * t + 9 * co * co * t + (ci * co * t if ci != co else 0.0)
    if b.kind in ("down", "up", "conv_in", "out"):
        return 9 * ci * co * t
    c = ci
    length, d = float(layout.context_tokens), float(layout.context_dim)
    per_block = 18 * c * c * t + 2 * t * t * c + 2 * length * d * c + 2 * t * length * c
    return 2 * c * c * t + b.depth * per_block


def unet_macs(layout: Denoiser, height: int, width: int) -> float:
    """Multiply-accumulates of one UNet pass on one image's latent (the module docstring's terms)."""
    if isinstance(layout, FluxLayout):
        return flux_macs(layout, height, width)
    return sum(_macs(b, layout) for b in _blocks(layout, height, width))


def vae_macs(layout: Denoiser, height: int, width: int, *, decoder: bool) -> float:
    """The VAE decoder's (latent → image) or encoder's (image → latent) multiply-accumulates for one image:
    per level its ResNet blocks (2 down, 3 up) of 3 × 3 convolutions, the resampling convolutions, the mid
    block's two ResNet blocks and single-head attention over the smallest feature map, the input and output
    convolutions."""
    ch = layout.vae_channels
    n = len(ch)
    sides = _sides(height, width, n)
    area = [float(h * w) for h, w in sides]
    total = 0.0
    per_level = 3 if decoder else 2
    prev = ch[0] if not decoder else ch[-1]
    levels = range(n) if not decoder else reversed(range(n))
    total += 9 * 3 * ch[0] * area[0] + 9 * layout.latent_channels * (2 if not decoder else 1) * ch[-1] * area[-1]
    for i in levels:
        c = ch[i]
        for _ in range(per_level):
            total += 9 * prev * c * area[i] + 9 * c * c * area[i] + (prev * c * area[i] if prev != c else 0.0)
            prev = c
        if not decoder and i < n - 1:
            total += 9 * c * c * area[i + 1]
        if decoder and i > 0:
            total += 9 * c * c * area[i - 1]
    top, t = float(ch[-1]), area[-1]
    total += 2 * (9 * 2 * top * top * t) + 4 * top * top * t + 2 * t * t * top  # mid: two ResNet blocks, one attention
    return total


def unet_params(layout: UNetLayout) -> float:
    """Weights of the UNet's convolutions and projections from the layout (biases and norms left out): what a
    full fine-tune trains; the catalogue's published count is what the weights term uses."""
    total = 0.0
    for b in _blocks(layout, 64, 64):
        ci, co = float(b.c_in), float(b.c_out)
        if b.kind == "resnet":
            total += 9 * ci * co + 9 * co * co + (ci * co if ci != co else 0.0)
        elif b.kind == "transformer":
            c, d = ci, float(layout.context_dim)
            total += 2 * c * c + b.depth * (4 * c * c + 2 * c * c + 2 * d * c + 12 * c * c)
        else:
            total += 9 * ci * co
    return total


def attention_projections(layout: UNetLayout) -> list[tuple[int, int]]:
    """(in, out) features of every attention projection LoRA adapts (diffusers' text-to-image LoRA script:
    to_q, to_k, to_v and to_out.0 of the self- and cross-attention of every transformer block)."""
    out: list[tuple[int, int]] = []
    for b in _blocks(layout, 64, 64):
        if b.kind != "transformer":
            continue
        c, d = b.c_in, layout.context_dim
        for _ in range(b.depth):
            out += [(c, c)] * 4  # self-attention Q, K, V, O
            out += [(c, c), (d, c), (d, c), (c, c)]  # cross-attention Q, K and V on the context, O
    return out


def adapted_projections(layout: Denoiser) -> int:
    """How many projections LoRA adapts in a denoiser (:func:`unet_lora_params`'s list)."""
    return len(flux_lora_projections(layout) if isinstance(layout, FluxLayout) else attention_projections(layout))


def unet_lora_params(layout: Denoiser, rank: int) -> float:
    """LoRA adapters A (r × in) and B (out × r) on every attention projection (Hu et al. 2021)."""
    if isinstance(layout, FluxLayout):
        return float(sum(rank * (i + o) for i, o in flux_lora_projections(layout)))
    return float(sum(rank * (i + o) for i, o in attention_projections(layout)))


def unet_saved(layout: Denoiser, height: int, width: int, batch: int, e: float) -> float:
    """Bytes a training step of the UNet saves for backward at this image size (module docstring)."""
    if isinstance(layout, FluxLayout):
        return flux_saved(layout, height, width, batch, e)
    groups = 32.0
    total = 0.0
    length, d = float(layout.context_tokens), float(layout.context_dim)
    first = True
    for b in _blocks(layout, height, width):
        t, ci, co = float(b.tokens), float(b.c_in), float(b.c_out)
        if b.kind == "resnet":
            total += 3 * (ci + co) * t * e + 2 * 2 * groups * 4.0
        elif b.kind == "transformer":
            c = ci
            per_block = 28 * c * t * e + 2 * b.heads * t * 4.0 + 3 * 8.0 * t + 2 * length * c * e
            total += 3 * c * t * e + 2 * groups * 4.0 + b.depth * per_block
            if first:
                total += length * d * e  # the text encoder's output, saved once by every cross-attention's K and V
                first = False
        elif b.kind in ("down", "conv_in"):
            total += ci * (t if b.kind == "conv_in" else t * 4) * e
        elif b.kind == "up":
            total += ci * t * e
        else:  # GroupNorm, SiLU and conv_out on the last feature map, the loss's two fp32 inputs
            total += 3 * ci * t * e + 2 * groups * 4.0 + 2 * co * t * 4.0
    return total * batch


def unet_working_set(layout: Denoiser, height: int, width: int, e: float, materialised: bool = False) -> float:
    """Bytes alive at once in an inference pass of one image: the skip connections the down path keeps for the
    up path, and the largest block's input, intermediate and output. ``materialised``: the self-attention's
    scores are written out (no fused kernel: diffusers' CrossAttention._attention under PyTorch 1.x without
    xformers, v0.11.0's src/diffusers/models/attention.py: ``torch.baddbmm`` into a (batch · heads, T, T) tensor,
    then its softmax, both alive until the product with V), so a transformer holds its input, norm, Q, K and V
    (4·c·T) and two heads·T² score tensors while it attends. A Flux transformer: :func:`flux_working_set`
    (fused attention: diffusers' Flux runs scaled_dot_product_attention)."""
    if isinstance(layout, FluxLayout):
        return flux_working_set(layout, height, width, e)
    blocks = _blocks(layout, height, width)
    skips = sum(b.c_out * b.tokens for b in blocks if b.kind in ("resnet", "down", "conv_in")) / 2

    def alive(b: _Block) -> float:
        if b.kind != "transformer":
            return 3 * max(b.c_in, b.c_out) * b.tokens
        scores = 4 * b.c_in * b.tokens + 2 * b.heads * b.tokens * b.tokens if materialised else 0
        return max(8 * b.c_in * b.tokens, scores)

    return (skips + max(alive(b) for b in blocks)) * e


def vae_working_set(layout: Denoiser, height: int, width: int, e: float) -> float:
    """Bytes alive at once while the VAE decodes one image: three feature maps of the widest top-level ResNet
    block (input, intermediate, output) and the mid block's attention scores over its smallest feature map."""
    ch = layout.vae_channels
    t = float(height * width)
    small = t / float(4 ** (len(ch) - 1))
    return float(3 * ch[0] * t * e * 2 + small * small * e)


def saved_elements(spec: ModelSpec, checkpointing: bool) -> float:
    """Elements saved per sample (fp32 bytes / 4) for the throughput model's activation traffic."""
    if spec.unet is not None:
        return unet_saved(spec.unet, spec.image_size, spec.image_width or spec.image_size, 1, 4.0) / 4.0
    if spec.arch in DETECTORS:
        from configurator.core.estimate.memory import detection_saved

        return detection_saved(spec, 1, "fp32").activations / 4.0
    raise ValueError(spec.arch)


# ---------------------------------------------------------------------------------------------
# a diffusion pipeline's call, beyond the multiply-accumulates: kernels and memory traffic

# Kernels of one module in an eager UNet pass, counted from diffusers' modules: a ResNet block's two GroupNorms, two
# SiLUs, two convolutions, the time embedding's SiLU, linear and broadcast add, the residual add (+ the 1 × 1 shortcut
# where the channels change); a transformer's GroupNorm, projections in and out and residual add, and per block three
# LayerNorms, the self-attention's Q, K, V, O projections and residual add, the cross-attention's the same, GEGLU's
# projection, split, GELU and product, the FFN's output projection and add (22), plus per attention one fused kernel
# or, materialised, the score GEMM, softmax and the GEMM with V (3); a resampling convolution (+ the upsampling).
_RESNET_KERNELS = 9
_BLOCK_KERNELS = 22
_TRANSFORMER_KERNELS = 4
# Per denoising step beyond the UNet: the timestep embedding (sinusoid, two linears, SiLU), classifier-free guidance's
# concatenation, split and weighted sum, and the scheduler's update (a few elementwise kernels): about 15.
_STEP_KERNELS = 15
# Each tensor an eager pass writes is read back once by the next kernel (unet_saved counts each once).
TRAFFIC_PER_SAVED = 2.0


def unet_pass_kernels(layout: Denoiser, fused_attention: bool) -> float:
    """Kernels one eager UNet pass launches (the constants above), whatever its batch."""
    if isinstance(layout, FluxLayout):
        return float(layout.double * _FLUX_DOUBLE_KERNELS + layout.single * _FLUX_SINGLE_KERNELS
                     + _FLUX_OUTSIDE_KERNELS)
    per_attention = 1 if fused_attention else 3
    total = 0.0
    for b in _blocks(layout, 64, 64):
        if b.kind == "resnet":
            total += _RESNET_KERNELS + (1 if b.c_in != b.c_out else 0)
        elif b.kind == "transformer":
            total += _TRANSFORMER_KERNELS + b.depth * (_BLOCK_KERNELS + 2 * per_attention)
        else:
            total += 2 if b.kind == "up" else 1
    return total


def pipeline_work(spec: ModelSpec, batch: int, e: float, fused_attention: bool) -> tuple[float, float]:
    """(DRAM bytes, kernels) of one diffusion pipeline call generating ``batch`` images beyond what the CNN path of
    the throughput model counts (one pass's activations, 3 kernels per convolution): every denoising step runs the
    UNet CFG_PASSES times on each image (diffusers batches the two halves together: one pass of 2 × batch), each pass
    writing and reading back the tensors a training step would save (``unet_saved``: every intermediate, written once
    and read once: TRAFFIC_PER_SAVED); kernels: the UNet pass's and the step's per step, once for the batch. Fused
    attention keeps the scores on chip; materialised attention adds its score GEMM, softmax and second GEMM kernels
    (its score traffic is not counted: see estimate/vision_validation.case_for)."""
    if spec.unet is None or not spec.steps:
        return 0.0, 0.0
    h, w = spec.image_size, spec.image_width or spec.image_size
    passes = spec.steps * spec.unet.passes * batch
    per_pass = TRAFFIC_PER_SAVED * unet_saved(spec.unet, h, w, 1, e)
    kernels = spec.steps * (unet_pass_kernels(spec.unet, fused_attention) + _STEP_KERNELS)
    return passes * per_pass, kernels


# Calibration of the throughput model for vision workloads (its work divided by the factor: the rate × the factor),
# fitted to the published rows of each family (db/measurements: detectron2-zoo, mmdet-vs-detectron2, lambda-diffusers,
# alexeigor-sd-benchmarks, fal-sd-benchmarks) as the geometric mean of measured / predicted, and validated leave-one-
# source-out (estimate/vision_validation.py; tests/core/test_vision_throughput.py holds these to that fit):
# - detector training 1.61: 12 rows (detectron2's model zoo, MMDetection's comparison; 8 V100, fp32, 2 images per GPU)
#   run 1.3-2.0x faster than 3x the forward multiply-accumulates at 800 x 1333 predict: the rows train at a short side
#   of 640-800 (multi-scale) and the RoI heads on 512 sampled proposals, not the 1,000 the catalogue counts;
# - detector inference 1.26: 12 rows at batch 1 (V100 fp32), the catalogue's 1,000 test-time proposals per image
#   against the frameworks' post-NMS survivors;
# - diffusion inference 0.75: 36 rows of SD 1.5 / SDXL pipelines (eager diffusers, fp16 and fp32, A100 / H100 / A6000
#   / V100 / T4) run slower than the UNet passes, their traffic and kernels predict: PyTorch's per-operator dispatch
#   from Python beyond the kernels counted (reshapes and copies of diffusers' attention, the pipeline's own ops); the
#   4 lambda-diffusers RTX A6000 rows flagged slows-with-batch are not fitted (vision_validation.NOT_STATED_FLAGS);
# - Flux-class transformer inference 1.52: 10 rows of FLUX.1-dev pipelines (diffusers-torchao on an H100, batch 1-16;
#   varadrane1707/BenchmarkFlux on an A100 and an H100; eager, 28 steps, 1024^2) run 1.36-1.66x faster than the
#   uncalibrated model predicts, and 2x faster than the UNets' 0.745 would have it (held out: -50 %): a Flux step is
#   57 blocks of a few large GEMMs over 4,608 tokens, not the UNet's many small kernels whose per-operator dispatch
#   the 0.745 absorbs; why the uncalibrated model is also 1.5x slow on these GEMMs is not established (no kernel
#   profile was read);
# - diffusion training 1.02, UNets and Flux alike (one group: vision_validation.group): 6 stated rows from 4 origins
#   (mosaicml/diffusion's SD 2 base UNet on 8 A100s at 256^2 and 512^2, SimpleTuner's FLUX.1-dev NF4 LoRA on a 4090,
#   the Flux QLoRA of huggingface/blog flux-qlora.md, diffusers' SD 1.5 LoRA docs), measured / predicted 1.03, 1.02,
#   1.61 and 0.64 by origin: the fit is the rows' geometric mean, at 1 within the scatter; the two off origins are
#   whole-run times divided by their steps (start-up, validation and checkpoints counted: they err slow, the 0.64)
#   and a run whose LoRA, NF4 and checkpointing the model does not state (the 1.61). The training model counts
#   every row as a full fine-tune (vision_validation.case_for), not the LoRA the rows ran.
VISION_CALIBRATION: dict[tuple[str, str], float] = {("det", "train"): 1.61, ("det", "infer"): 1.26,
                                                     ("diffusion", "infer"): 0.745, ("flux", "infer"): 1.52,
                                                     ("diffusion", "train"): 1.02, ("flux", "train"): 1.02}


def calibration(spec: ModelSpec, task: str) -> float:
    """The factor for a detector ("det"), a Flux-class transformer ("flux") or a UNet diffusion pipeline
    ("diffusion") in training or inference; 1 otherwise."""
    kind = ("det" if spec.arch in DETECTORS else "flux" if isinstance(spec.unet, FluxLayout)
            else "diffusion" if spec.unet is not None else "")
    return VISION_CALIBRATION.get((kind, "train" if task == "train" else "infer"), 1.0)


def vision_scaled(spec: ModelSpec, task: str, work: tuple[float, float, float]) -> tuple[float, float, float]:
    """The throughput model's (FLOPs, bytes, kernels) of a step divided by the vision calibration factor."""
    f = calibration(spec, task)
    return (work[0] / f, work[1] / f, work[2] / f) if f != 1.0 else work


# ---------------------------------------------------------------------------------------------
# Flux-class transformers (diffusers' FluxTransformer2DModel): the latent, image / 8 per side with 16 channels, is
# packed 2 × 2 into N = (H / 16)·(W / 16) tokens of in_channels = 64; the T5 context adds L tokens. d = heads ×
# head_dim, T = N + L. MACs per pass: a double block projects every token's Q, K, V and output (4·d², the image
# and the text tokens with their own weights) and runs its 4x GELU MLP (8·d²), 12·d²·T, and the joint attention's
# scores and weighted sum 2·T²·d; a single block Q, K, V (3·d²), the MLP's up projection (4·d²) and the output
# projection of [attention, MLP] (5·d²), 12·d²·T, and the same attention; the adaLN modulations (6·d² per double
# stream, 3·d² per single block) once per image; the x, context and output projections.
#
# Saved for backward per token (e activation bytes; counted in diffusers 0.42's model on the CPU, fp32 and bf16):
# a double block 20·e·d (per stream: the LayerNorm's input, its output that the modulation multiplies, the
# modulated input the projections share; Q, K, V and the attention output SDPA keeps; the gated attention
# output; the second LayerNorm's input and output and the MLP's input; GELU's input and the down projection's
# input, 4·d each; the gated MLP output) + 16·d for the RMS norms on Q and K (torch.nn.RMSNorm keeps an fp32 input
# and its normalised copy: on CUDA, PyTorch's fused rms_norm kernel keeps less, so this term errs high there) +
# two LayerNorms' statistics, 16 B, + the RMS norms' and the log-sum-exp's heads × 12 B; a single block 17·e·d
# (the LayerNorm's input and output, the modulated input; GELU's input 4·d; Q, K, V, the attention output; the
# output projection's input 5·d and its gated output) + 16·d + 8 B + heads × 12 B. Outside the blocks: the packed
# latent and the context as their projections save them, the final norm's input and output and the output
# projection's input (image tokens), the fp32 prediction and target of the MSE loss, and the rotary cos and sin.
_FLUX_DOUBLE_KERNELS = 78  # per stream 35 (norms, modulation, projections, RMS norms, rotary, gates, MLP), 3 concats,
_FLUX_SINGLE_KERNELS = 34  # one attention, the adaLN linears: counted from diffusers' forward, eager
_FLUX_OUTSIDE_KERNELS = 20  # embedders, rotary tables, final norm and projection


def flux_tokens(layout: FluxLayout, height: int, width: int) -> tuple[int, int]:
    """(image tokens N, text tokens L) of one image."""
    side = layout.vae_factor * layout.patch
    return max(height // side, 1) * max(width // side, 1), layout.context_tokens


def flux_macs(layout: FluxLayout, height: int, width: int) -> float:
    """Multiply-accumulates of one Flux transformer pass on one image (the section's terms)."""
    n, length = flux_tokens(layout, height, width)
    t, d = float(n + length), float(layout.hidden)
    blocks = layout.double + layout.single
    per_token = 12 * d * d * t + 2 * t * t * d
    modulation = (2 * 6 * layout.double + 3 * layout.single + 2) * d * d
    io = n * layout.in_channels * d * 2 + length * layout.context_dim * d
    return blocks * per_token + modulation + io


def flux_params(layout: FluxLayout) -> float:
    """Weights from the layout (biases and norms left out): a double block 36·d² (two 6·d modulations, Q, K, V
    and output for each stream, two 4x MLPs), a single block 15·d², the embedders and the output layer."""
    d = float(layout.hidden)
    embed = (layout.in_channels * 2 + layout.context_dim) * d + (3 if layout.guidance else 2) * (256 * d + d * d)
    embed += 768 * d + d * d + 2 * d * d  # pooled CLIP projection, the final norm's modulation
    return layout.double * 36 * d * d + layout.single * 15 * d * d + embed


def flux_lora_projections(layout: FluxLayout) -> list[tuple[int, int]]:
    """(in, out) of every projection diffusers' train_dreambooth_lora_flux.py adapts by default: attn.to_q, to_k,
    to_v, to_out.0, add_q/k/v_proj, to_add_out, ff.net.0.proj, ff.net.2, ff_context.net.0.proj, ff_context.net.2
    (the names also match the single blocks' attn.to_q, to_k, to_v)."""
    d, m = layout.hidden, layout.hidden * layout.mlp_ratio
    double = [(d, d)] * 8 + [(d, m), (m, d)] * 2
    return double * layout.double + [(d, d)] * 3 * layout.single


def flux_saved(layout: FluxLayout, height: int, width: int, batch: int, e: float) -> float:
    """Bytes a training step of the Flux transformer saves for backward at this image size (the section's terms)."""
    n, length = flux_tokens(layout, height, width)
    t, d, a = float(n + length), float(layout.hidden), float(layout.heads)
    double = 20 * e * d + 16 * d + 16.0 + 12 * a
    single = 17 * e * d + 16 * d + 8.0 + 12 * a
    outside = n * (layout.in_channels * (e + 8.0) + 3 * e * d + 8.0) + length * layout.context_dim * e
    outside += 8.0 * t * layout.head_dim  # rotary cos and sin, fp32
    return batch * (t * (layout.double * double + layout.single * single) + outside)


def flux_working_set(layout: FluxLayout, height: int, width: int, e: float) -> float:
    """Bytes alive at once in an inference pass of one image: the residual stream and a single block's widest
    intermediates (the modulated input, Q, K, V, the attention output, the MLP's 4·d and the 5·d concatenation)."""
    n, length = flux_tokens(layout, height, width)
    return float(n + length) * layout.hidden * (2 + 14) * e


# ---------------------------------------------------------------------------------------------
# DETR (Carion et al. 2020) as transformers' DetrConfig defaults build it (the facebook/detr-resnet-50 layout,
# configuration_detr.py at huggingface/transformers@007ecf4): a ResNet-50 (C5, stride 32) projected to d_model 256
# by a 1 × 1 convolution; 6 encoder layers over the T = (H/32)·(W/32) feature-map tokens and 6 decoder layers over
# 100 object queries, 8 heads, feed-forward 2,048 (ReLU); a class head (classes + 1) and a 3-layer box MLP.
# MACs per image: the backbone RESNET50_MACS_224 scaled with the pixels; the input projection 2048·d·T; per
# encoder layer Q, K, V, O 4·d²·T, scores and weighted sum 2·T²·d, the MLP 2·d·f·T; per decoder layer the
# self-attention 4·d²·Q + 2·Q²·d, the cross-attention's Q and O 2·d²·Q, K and V on the memory 2·d²·T, its scores and
# sum 2·Q·T·d, the MLP 2·d·f·Q; the heads d·(classes + 1)·Q + (2·d² + 4·d)·Q.
DETR_HIDDEN = 256
DETR_HEADS = 8
DETR_FFN = 2048
DETR_LAYERS = (6, 6)  # encoder, decoder
DETR_QUERIES = 100
# torchvision's ResNet50_Weights.IMAGENET1K_V1 meta: _ops 4.089 (GFLOPS as multiply-accumulates) at 224 × 224; the
# stem's 7 × 7 convolution (118.0 M) and layer1 (667.9 M: three bottleneck blocks at 56 × 56, 64 → 256 channels
# with the downsample) of it, counted from the layout
RESNET50_MACS_224 = 4.089e9
RESNET50_FROZEN_MACS_224 = (118013952.0, 667942912.0)  # stem, layer1


def _detr_tokens(height: int, width: int) -> int:
    def down(x: int) -> int:
        return (x - 1) // 2 + 1

    h, w = height, width
    for _ in range(5):
        h, w = down(h), down(w)
    return h * w


def detr_macs(height: int, width: int, classes: int) -> float:
    """Multiply-accumulates of one DETR forward pass on one height × width image (the section's terms)."""
    t, q = float(_detr_tokens(height, width)), float(DETR_QUERIES)
    d, f = float(DETR_HIDDEN), float(DETR_FFN)
    enc, dec = DETR_LAYERS
    backbone = RESNET50_MACS_224 * height * width / 224**2
    encoder = enc * (4 * d * d * t + 2 * t * t * d + 2 * d * f * t)
    decoder = dec * (4 * d * d * q + 2 * q * q * d + 2 * d * d * q + 2 * d * d * t + 2 * q * t * d + 2 * d * f * q)
    heads = d * (classes + 1) * q + (2 * d * d + 4 * d) * q
    return backbone + 2048 * d * t + encoder + decoder + heads


def detr_frozen_macs(spec: ModelSpec) -> float:
    """MACs of the backbone's frozen stem and stages (trainable_stages as torchvision counts them), which a training
    step runs forward only: no gradient reaches them."""
    pixels = spec.image_size * (spec.image_width or spec.image_size) / 224**2
    stem, layer1 = RESNET50_FROZEN_MACS_224
    frozen = (stem if spec.trainable_stages < 5 else 0.0) + (layer1 if spec.trainable_stages < 4 else 0.0)
    return frozen * pixels
