"""Parameter counts the memory terms need: a transformer's matmul weights and the rest (HF GPT-2 / BERT / LLaMA
layouts, scaled to the published count), its MLP's, LoRA's adapters, a mixture of experts' experts, and the largest
parameter tensor.
"""

from __future__ import annotations

from configurator.core.model_specs import ModelSpec


def mlp_params(spec: ModelSpec) -> int:
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
    mlp = mlp_params(spec)
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


def split_params(spec: ModelSpec) -> tuple[float, float]:
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


def expert_params(spec: ModelSpec) -> float:
    """The experts' MLP weights of a mixture-of-experts model (0 for a dense one), scaled to its parameter count."""
    experts = int(getattr(spec, "experts", 0) or 0)
    if not experts or not spec.is_transformer or spec.layers <= 0:
        return 0.0
    per_expert = (3 if spec.activation == "swiglu" else 2) * spec.hidden * spec.ffn
    linear, other = transformer_params(spec)
    scale = spec.params / (linear + other) if linear + other > 0 else 1.0
    return float(spec.layers * experts * per_expert) * scale
