"""The rules catalogue's BAL-* entries: balance. The checks are in configurator/core/rules/bal.py."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("BAL-1", "G 四.2, first principles",
         QT_TRANSLATE_NOOP("rule catalogue", "Enough CPU cores per GPU to feed it"),
         "Training, per family: images are decoded and augmented on the CPU, so the guide's num_workers ≥ 4 per "
         "GPU plus the training process (cores = GPUs × 5); text is tokenized ahead and memory-mapped, so one "
         "worker per GPU plus the process (cores = GPUs × 2). Suggest holds it as a constraint unless relaxed.",
         {"warning": "fewer cores than the GPUs' loaders need"}),
    Rule("BAL-2", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "Populate the CPU's memory channels"),
         "Memory bandwidth grows with the channels populated: one module on an 8-channel CPU gets an eighth.",
         {"warning": "fewer modules than memory channels, with the bandwidth share"}),
    Rule("BAL-3", "common practice (d2l, Dettmers)",
         QT_TRANSLATE_NOOP("rule catalogue", "Host RAM at least the total VRAM"),
         "Loading, pinning and checkpointing stage the GPUs' contents in host memory: for training, host RAM at "
         "least the GPUs' total VRAM; for inference, at least the model's weights at its precision. Suggest holds "
         "it as a constraint unless relaxed.",
         {"warning": "less RAM than the GPUs' memory together (training) or the model's weights (inference)"}),
    Rule("BAL-4", "G 四.1, first principles",
         QT_TRANSLATE_NOOP("rule catalogue", "Storage for the data, the environment and the checkpoints"),
         "The drives hold the data set (default for image training: ImageNet-1k, 138 + 6.3 GB of archives, "
         "twice that while extracting), the system and PyTorch environment (25 GB Ubuntu minimum + 5.3 GB "
         "measured PyTorch with CUDA libraries), a language model's 16-bit weights, and the checkpoints kept "
         "(default 2 for training; each the weights at the training precision and the optimizer states). "
         "Suggest holds it as a constraint unless relaxed.",
         {"warning": "less storage than the data set, environment, weights and checkpoints need"}),
)
