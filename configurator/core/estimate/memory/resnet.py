"""What a torchvision ResNet's training step saves (:func:`resnet_saved`), from its layout, and its feature maps'
sides.
"""

from __future__ import annotations

from configurator.core.estimate.memory.constants import Saved, activation_dtypes
from configurator.core.model_specs import ModelSpec


def resnet_sides(spec: ModelSpec) -> tuple[int, int, list[int]]:
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
    e, _f, autocast = activation_dtypes(precision)
    widths = (64, 128, 256, 512)
    blocks = spec.blocks or (3, 4, 6, 3)
    expansion = 4 if spec.bottleneck else 1
    stem_side, pooled, sides = resnet_sides(spec)
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
