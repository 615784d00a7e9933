"""What a detector's training step saves: torchvision's Faster R-CNN / Mask R-CNN / RetinaNet on ResNet-50-FPN
(:func:`detection_saved`), transformers' DETR (:func:`detr_saved`), YOLO by ResNet-50's saved bytes per
multiply-accumulate; the ResNet-50 body with frozen stages and FrozenBatchNorm2d, and the frozen backbone's
parameters (:func:`frozen_backbone_params`: no gradient, no optimizer state).
"""

from __future__ import annotations

from configurator.core.estimate.memory.constants import Saved, activation_dtypes, mask_bytes
from configurator.core.estimate.memory.resnet import resnet_saved
from configurator.core.model_specs import DETECTORS, ModelSpec

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

    e, _f, autocast = activation_dtypes(precision)
    m = mask_bytes(device, e)
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
    e, _f, autocast = activation_dtypes(precision)
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
