"""The workloads the planner knows: :class:`ModelSpec`, the architecture figures the estimators use, and
:data:`KNOWN_MODELS`, the model catalogue (``db/models``, read by :mod:`configurator.core.models` on first use)."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

# diffusion: a diffusion UNet (Stable Diffusion): parameters from its card, its layout from the model's config
Family = Literal["cnn", "transformer", "diffusion"]
# CNN layouts beyond torchvision's classifiers: "" (a ResNet classifier), "fasterrcnn", "maskrcnn", "retinanet"
# (torchvision's ResNet-50-FPN detectors), "yolo" (ultralytics; no layout read: activations ResNet-like per MAC),
# "detr" (DETR: a ResNet-50 and a 6 + 6-layer transformer, the layout of transformers' DetrConfig defaults)
DETECTORS = ("fasterrcnn", "maskrcnn", "retinanet", "yolo", "detr")
# diffusers' StableDiffusionPipeline / StableDiffusionXLPipeline.__call__: num_inference_steps = 50
DIFFUSERS_DEFAULT_STEPS = 50
CFG_PASSES = 2  # classifier-free guidance: the UNet runs on the prompt and on the empty prompt each step


@dataclass(frozen=True)
class UNetLayout:
    """A Stable Diffusion UNet as its config states it (CompVis / Stability-AI ``unet_config`` params, the same
    fields as diffusers' UNet2DConditionModel config): per level its channels, whether it has transformers (cross
    attention) and how many transformer blocks each has; ``layers`` ResNet blocks per level going down (one more
    going up); the transformer's heads (``heads``, or ``head_channels`` per head); the text context's width and
    length (CLIP: 77 tokens); the latent's channels (4) and the VAE's downsampling factor (8)."""

    channels: tuple[int, ...]
    attention: tuple[bool, ...]
    depth: tuple[int, ...]
    layers: int = 2
    heads: int = 0
    head_channels: int = 0
    context_dim: int = 768
    context_tokens: int = 77
    latent_channels: int = 4
    vae_factor: int = 8
    vae_channels: tuple[int, ...] = (128, 256, 512, 512)
    linear_projection: bool = False

    def heads_at(self, channels: int) -> int:
        return self.heads or max(channels // max(self.head_channels, 1), 1)

    @property
    def passes(self) -> int:
        """Denoiser passes per sampling step: classifier-free guidance runs the prompt and the empty prompt."""
        return CFG_PASSES


@dataclass(frozen=True)
class FluxLayout:
    """A Flux-class rectified-flow transformer (diffusers' FluxTransformer2DModel; Black Forest Labs' FluxParams) as
    its config states it: ``double`` MM-DiT blocks (num_layers: separate weights for the image and the text tokens,
    one joint attention) and ``single`` blocks (num_single_layers: one stream, attention and a 4x MLP in parallel),
    ``heads`` × ``head_dim`` wide, the T5 context's width (joint_attention_dim) and length (max_sequence_length),
    the packed latent's channels (in_channels: 16 latent channels × 2 × 2), the 16-channel VAE and its factor 8.
    Guidance-distilled (dev, ``guidance``) and timestep-distilled (schnell) models run one pass per step."""

    double: int
    single: int
    heads: int
    head_dim: int
    context_dim: int = 4096
    context_tokens: int = 512
    in_channels: int = 64
    latent_channels: int = 16
    vae_factor: int = 8
    patch: int = 2  # the pipeline packs 2 × 2 latent pixels into one token
    vae_channels: tuple[int, ...] = (128, 256, 512, 512)
    guidance: bool = False
    mlp_ratio: int = 4

    @property
    def hidden(self) -> int:
        return self.heads * self.head_dim

    @property
    def passes(self) -> int:
        return 1  # no classifier-free guidance: FluxPipeline's guidance_scale feeds the guidance embedding


Denoiser = UNetLayout | FluxLayout


@dataclass(frozen=True)
class ModelSpec:
    name: str
    family: Family
    params: float  # parameters
    source: str
    # transformers
    layers: int = 0
    hidden: int = 0
    heads: int = 0
    vocab: int = 0
    context: int = 0
    decoder: bool = False  # GPT-like (generates tokens) vs encoder (BERT)
    # transformer layout, as Hugging Face transformers builds it (the memory estimator counts
    # the tensors these layers save for backward; 0 / "" means the GPT-2 / BERT default)
    intermediate: int = 0  # MLP width; 0 = 4 × hidden
    activation: str = "gelu"  # "gelu" (F.gelu, BERT), "gelu_new" (GPT-2's tanh formula in Python ops), "swiglu"
    norm: str = "layernorm"  # "layernorm" or "rmsnorm" (LLaMA)
    dropout: float = 0.1  # hidden and embedding dropout (GPT-2 resid/embd_pdrop, BERT hidden_dropout_prob)
    attention_dropout: float = 0.1  # on the attention probabilities
    fused_qkv: bool = False  # one projection for Q, K and V (GPT-2's c_attn) instead of three
    learned_positions: bool = True  # a position-embedding table of `context` rows (not LLaMA's rotary)
    tied_head: bool = True  # the LM/MLM head reuses the token embedding matrix
    kv_heads: int = 0  # grouped-query attention; 0 = heads
    head_dim: int = 0  # width of one attention head where heads × head_dim ≠ hidden (Gemma); 0 = hidden / heads
    # mixture of experts (Mixtral, DeepSeek-MoE): 0 = a dense model
    experts: int = 0  # routed experts per MoE layer
    experts_per_token: int = 0  # experts each token is routed to (top-k)
    expert_intermediate: int = 0  # one expert's MLP width (Mixtral: intermediate; DeepSeek: moe_intermediate_size)
    shared_expert_intermediate: int = 0  # the always-on shared experts' MLP width, all of them together
    moe_layers: int = 0  # layers whose MLP is the experts (the rest are dense, of ``intermediate``)
    inactive_params: float = 0.0  # parameters of the experts a token does not visit (params − active_params)
    encoder_decoder: bool = False  # T5: ``layers`` counts the encoder's and the decoder's
    patch_size: int = 0  # vision transformer: square patches of this side; the sequence is (image/patch)² + 1
    model_type: str = ""  # config.json's model_type (llama, qwen2, gpt2 …); "" for CNNs
    title: str = ""  # the display name (catalogue) or the config's _name_or_path
    # CNNs
    image_size: int = 224
    gmacs_224: float = 0.0  # forward multiply-accumulates per image at 224×224
    blocks: tuple[int, ...] = ()
    bottleneck: bool = False
    classes: int = 1000  # the classifier's outputs (ImageNet)
    default_batch: int = 32
    # detection and diffusion
    arch: str = ""  # a layout of DETECTORS, or "unet" (a diffusion UNet with ``unet``)
    image_width: int = 0  # a non-square input (a detector's 800 × 1333): its width; 0 = image_size (square)
    gmacs_pixels: float = 0.0  # the pixels gmacs_224 refers to where the source states them at another size
    unet: Denoiser | None = None  # the denoiser: a UNet, or a Flux-class transformer (FluxLayout)
    frozen_params: float = 0.0  # parts a diffusion workload runs but does not train: the VAE and the text encoders
    vae_params: float = 0.0
    text_gmacs: float = 0.0  # the text encoders' forward MACs per prompt (2 × params × 77 tokens)
    steps: int = 0  # diffusion inference: denoising steps per image (the workload's ``steps``)
    # diffusion training on VAE latents and text embeddings computed beforehand: a step runs neither the VAE
    # encoder nor the text encoders
    cached_latents: bool = False
    # a diffusion model's pipeline default (num_inference_steps of its __call__ or its reference sampler): what
    # the planner runs when the workload sets no steps; 0: DIFFUSERS_DEFAULT_STEPS (diffusers' SD pipelines, 50)
    default_steps: int = 0
    # a detector's ResNet-50 backbone as its recipe trains it: torchvision's trainable_backbone_layers (5: every
    # stage and the stem; 3: the stem and layer1 frozen, detectron2's FREEZE_AT 2) and whether its BatchNorm is
    # frozen (FrozenBatchNorm2d: detectron2's FrozenBN, torchvision's detectors on a pretrained backbone, DETR)
    trainable_stages: int = 5
    frozen_bn: bool = False

    @property
    def is_transformer(self) -> bool:
        return self.family == "transformer"

    @property
    def ffn(self) -> int:
        return self.intermediate or 4 * self.hidden

    @property
    def attention_head_dim(self) -> int:
        """The width of one attention head."""
        return self.head_dim or (self.hidden // self.heads if self.heads else 0)

    @property
    def attention_width(self) -> int:
        """Q's width, heads × head_dim: what the scores QKᵀ and their product with V are computed over (K and V
        are shared by groups of query heads under grouped-query attention, which does not change these FLOPs)."""
        return self.heads * self.attention_head_dim if self.heads else self.hidden

    @property
    def active_params(self) -> float:
        """Parameters one token uses: all of a dense model's; a mixture of experts' shared parameters plus the
        experts_per_token experts it is routed to in each MoE layer."""
        return self.params - self.inactive_params

    @property
    def compute_known(self) -> bool:
        """Whether the forward FLOPs can be stated: not for a diffusion UNet without its layout or a MAC count."""
        return self.family != "diffusion" or self.gmacs_224 > 0 or self.unet is not None

    @property
    def pixels(self) -> int:
        """Pixels of one input image (height × width)."""
        return self.image_size * (self.image_width or self.image_size)

    # -- compute ---------------------------------------------------------------
    def forward_flops_per_sample(self, seq_len: int) -> float:
        """CNN: 2 × MACs, scaled with the pixel count (a detector's from the size its source counts at).
        Diffusion inference: ``steps`` × CFG_PASSES UNet passes at the latent size, the VAE decoder at the image
        size and the text encoders once per image; diffusion training (``steps`` 0): one UNet pass (see
        :meth:`train_flops_per_sample`). Transformer: 2·N per token over the active non-embedding
        parameters N (a mixture of experts: the experts a token visits) plus the attention scores 4·L·s·(heads ×
        head_dim) per token (Kaplan et al. 2020, table 1), × seq_len."""
        if self.unet is not None:
            from configurator.core.vision import unet_macs, vae_macs

            unet = unet_macs(self.unet, self.image_size, self.image_width or self.image_size)
            if not self.steps:
                return 2 * unet
            decode = vae_macs(self.unet, self.image_size, self.image_width or self.image_size, decoder=True)
            return 2 * (self.steps * self.unet.passes * unet + decode + self.text_gmacs * 1e9)
        if self.arch == "detr":
            from configurator.core.vision import detr_macs

            return 2 * detr_macs(self.image_size, self.image_width or self.image_size, self.classes)
        if self.family != "transformer":
            return 2 * self.gmacs_224 * 1e9 * self.pixels / (self.gmacs_pixels or 224 * 224)
        active = self.non_embedding_params - self.inactive_params
        return seq_len * (2 * active + 4 * self.layers * seq_len * self.attention_width)

    def train_flops_per_sample(self, recompute: bool, frozen: bool = False) -> float:
        """FLOPs of one training step per sample: forward, and backward at twice the forward (activation and weight
        gradients; ``frozen`` base weights, LoRA: the activation gradients only, once the forward); checkpointing
        runs the forward again. A diffusion UNet's step also runs the frozen VAE encoder on the image and the
        text encoders on the prompt, forward only (not on cached latents)."""
        fwd = self.forward_flops_per_sample(1)
        total = fwd * ((2 if frozen else 3) + (1 if recompute else 0))
        if self.arch == "detr":
            from configurator.core.vision import detr_frozen_macs

            # the frozen stem and first stage see no gradient: no backward through them
            total -= 2 * 2 * detr_frozen_macs(self)
        if self.unet is not None and not self.steps and not self.cached_latents:
            total += 2 * (vae_encoder_macs(self) + self.text_gmacs * 1e9)
        return total

    @property
    def non_embedding_params(self) -> float:
        if self.family != "transformer":
            return self.params
        return max(self.params - self.vocab * self.hidden, self.params * 0.5)

    # -- memory ----------------------------------------------------------------
    def activation_elements_per_sample(self, seq_len: int, checkpointing: bool) -> float:
        """Elements autograd keeps for the backward pass, per sample.

        Transformer: per layer s·h·(34 + 5·a·s/h) bytes at 16 bits (Korthikanti et al. 2022,
        eq. 1); PyTorch ≥ 2's scaled_dot_product_attention (flash / memory-efficient kernels)
        does not keep the a·s² attention scores, leaving s·h·34 bytes = 17·s·h elements per layer.
        Full checkpointing keeps the layer input, s·h per layer, plus one layer being recomputed.
        CNN: the conv, batch-norm and ReLU outputs of every layer (3 × the conv outputs),
        from the torchvision ResNet layout; checkpointing every block keeps about √blocks of them
        (Chen et al. 2016).
        """
        if self.family == "transformer":
            per_layer = 17.0 * seq_len * self.hidden
            if checkpointing:
                return self.layers * seq_len * self.hidden + per_layer
            return self.layers * per_layer
        if self.unet is not None or self.arch in DETECTORS:
            from configurator.core.vision import saved_elements

            return saved_elements(self, checkpointing)
        elements = 3 * self._conv_output_elements()
        if checkpointing:
            n = max(sum(self.blocks), 1)
            elements *= (n**0.5 + 1) / n
        return elements * self.pixels / 224**2

    def _conv_output_elements(self) -> float:
        """Σ output elements of every convolution of a torchvision ResNet at 224×224."""
        total = 64.0 * 112 * 112  # stem conv
        widths = (64, 128, 256, 512)
        sides = (56, 28, 14, 7)
        blocks = self.blocks or (3, 4, 6, 3)
        for width, side, n in zip(widths, sides, blocks, strict=True):
            area = side * side
            per_block = area * (width + width + 4 * width) if self.bottleneck else area * (width + width)
            total += n * per_block
        if not self.blocks:  # a custom CNN: ResNet-50-like, scaled by its size
            total *= self.params / 25.6e6
        return float(total)


def default_steps(spec: ModelSpec) -> int:
    """The denoising steps a diffusion model's own pipeline runs when none are asked for (FLUX.1 [dev] 28,
    [schnell] 4, the Stable Diffusion pipelines 50)."""
    return spec.default_steps or DIFFUSERS_DEFAULT_STEPS


def vae_encoder_macs(spec: ModelSpec) -> float:
    """The VAE encoder's MACs on one training image (0 without a UNet layout)."""
    if spec.unet is None:
        return 0.0
    from configurator.core.vision import vae_macs

    return vae_macs(spec.unet, spec.image_size, spec.image_width or spec.image_size, decoder=False)


class _Catalogue(Mapping[str, ModelSpec]):
    """The model catalogue's specs by id, read from db/models on first use (configurator.core.models)."""

    @staticmethod
    @functools.cache
    def _specs() -> dict[str, ModelSpec]:
        from configurator.core.models import catalogue

        return {rid: rec.spec for rid, rec in catalogue().items()}

    def __getitem__(self, key: str) -> ModelSpec:
        return self._specs()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs())

    def __len__(self) -> int:
        return len(self._specs())

    def __contains__(self, key: object) -> bool:
        return key in self._specs()


KNOWN_MODELS: Mapping[str, ModelSpec] = _Catalogue()


# A custom model's sizes where the planner's form leaves a field at 0 ("not set"): a BERT-base-sized
# transformer layer (hidden 768, 12 heads; arXiv 1810.04805) and torchvision's 224 px input.
CUSTOM_DEFAULTS: dict[str, float] = {"params": 1e6, "hidden": 768, "heads": 12, "image_size": 224}


def custom_model_fields(params: float, layers: int, hidden: int, heads: int, image_size: int) -> dict[str, object]:
    """A custom model's workload fields from a form's values, where 0 means "not set": with layers it is a
    transformer (hidden and heads default to CUSTOM_DEFAULTS), without a CNN of the given image size."""
    out: dict[str, object] = {"params": params or CUSTOM_DEFAULTS["params"]}
    if layers:
        out.update(family="transformer", layers=layers, hidden=hidden or int(CUSTOM_DEFAULTS["hidden"]),
                   heads=heads or int(CUSTOM_DEFAULTS["heads"]))
    else:
        out.update(family="cnn", image_size=image_size or int(CUSTOM_DEFAULTS["image_size"]))
    return out
