"""The workloads the planner knows: architecture figures from the models' papers and
torchvision's documentation, and the counts the estimators derive from them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Family = Literal["cnn", "transformer"]


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
    # CNNs
    image_size: int = 224
    gmacs_224: float = 0.0  # forward multiply-accumulates per image at 224×224
    blocks: tuple[int, ...] = ()
    bottleneck: bool = False
    classes: int = 1000  # the classifier's outputs (ImageNet)
    default_batch: int = 32

    @property
    def is_transformer(self) -> bool:
        return self.family == "transformer"

    @property
    def ffn(self) -> int:
        return self.intermediate or 4 * self.hidden

    # -- compute ---------------------------------------------------------------
    def forward_flops_per_sample(self, seq_len: int) -> float:
        """CNN: 2 × MACs, scaled with the pixel count. Transformer: 2·N per token plus the
        attention scores 4·L·s·h per token (Kaplan et al. 2020, table 1), × seq_len."""
        if self.family == "cnn":
            return 2 * self.gmacs_224 * 1e9 * (self.image_size / 224) ** 2
        return seq_len * (2 * self.non_embedding_params + 4 * self.layers * seq_len * self.hidden)

    @property
    def non_embedding_params(self) -> float:
        if self.family == "cnn":
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
        elements = 3 * self._conv_output_elements()
        if checkpointing:
            n = max(sum(self.blocks), 1)
            elements *= (n**0.5 + 1) / n
        return elements * (self.image_size / 224) ** 2

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


def _gpt(name: str, params: float, layers: int, hidden: int, heads: int, batch: int) -> ModelSpec:
    return ModelSpec(name, "transformer", params, "https://cdn.openai.com/better-language-models/"
                     "language_models_are_unsupervised_multitask_learners.pdf", layers=layers, hidden=hidden,
                     heads=heads, vocab=50257, context=1024, decoder=True, default_batch=batch,
                     activation="gelu_new", fused_qkv=True)


KNOWN_MODELS: dict[str, ModelSpec] = {
    "resnet18": ModelSpec("resnet18", "cnn", 11.69e6, "https://pytorch.org/vision/stable/models/generated/"
                          "torchvision.models.resnet18.html", gmacs_224=1.81, blocks=(2, 2, 2, 2), default_batch=128),
    "resnet50": ModelSpec("resnet50", "cnn", 25.56e6, "https://pytorch.org/vision/stable/models/generated/"
                          "torchvision.models.resnet50.html", gmacs_224=4.09, blocks=(3, 4, 6, 3), bottleneck=True,
                          default_batch=64),
    "bert-base": ModelSpec("bert-base", "transformer", 110e6, "https://arxiv.org/abs/1810.04805", layers=12,
                           hidden=768, heads=12, vocab=30522, context=512, default_batch=32),
    "bert-large": ModelSpec("bert-large", "transformer", 340e6, "https://arxiv.org/abs/1810.04805", layers=24,
                            hidden=1024, heads=16, vocab=30522, context=512, default_batch=16),
    "gpt2": _gpt("gpt2", 124e6, 12, 768, 12, 8),
    "gpt2-medium": _gpt("gpt2-medium", 355e6, 24, 1024, 16, 8),
    "gpt2-large": _gpt("gpt2-large", 774e6, 36, 1280, 20, 4),
    "gpt2-xl": _gpt("gpt2-xl", 1558e6, 48, 1600, 25, 2),
    "llama-7b": ModelSpec("llama-7b", "transformer", 6.74e9, "https://arxiv.org/abs/2302.13971", layers=32,
                          hidden=4096, heads=32, vocab=32000, context=2048, decoder=True, default_batch=1,
                          intermediate=11008, activation="swiglu", norm="rmsnorm", dropout=0.0,
                          attention_dropout=0.0, learned_positions=False, tied_head=False),
}


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
