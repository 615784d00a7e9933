"""The rules catalogue's GPU-* entries: GPU and VRAM. The checks are in configurator/core/rules/gpu.py."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("GPU-1", "G 二.1", QT_TRANSLATE_NOOP("rule catalogue", "What a 6 GB card is good for"),
         "A card of 6 GB or less suits small data sets (< 100k samples), CNNs under 50M parameters and "
         "real-time inference under 50 ms, as the guide says of the GTX 1660 Super.",
         {"warning": "the workload is a Transformer or has 50M parameters or more",
          "info": "a smaller workload on such a card"}),
    Rule("GPU-2", "G 二.2", QT_TRANSLATE_NOOP("rule catalogue", "Transformers: 24 GB of VRAM recommended"),
         "The guide's recommendation for Transformer work; whether a given model fits is FIT-1's estimate.",
         {"warning": "a non-CNN workload on a card with less than 24 GB"}, errata=(1,)),
    Rule("GPU-3", "G 二.2", QT_TRANSLATE_NOOP("rule catalogue", "BERT-base: batch 64 on 24 GB, batch 32 on 12 GB"),
         "Compares a BERT training batch with the guide's figures and repeats its note that halving the "
         "batch on 12 GB costs about 40 % more training time.",
         {"warning": "the batch is above the guide's for the card's memory",
          "info": "a 12–23 GB card (batch 32, about 40 % slower)"}),
    Rule("GPU-4", "M 1.1, 1.3", QT_TRANSLATE_NOOP("rule catalogue", "CNN minimum: a 4 GB card, batch 32 on it"),
         "The guide's CNN minimum is a GTX 1650 Super with 4 GB, trained with batch 32.",
         {"warning": "a CNN on less than 4 GB, or above batch 32 on 4 GB"}, errata=(13,)),
    Rule("GPU-5", "M 2.1", QT_TRANSLATE_NOOP("rule catalogue", "GPT minimum: RTX 3060 12 GB; 16 GB for GPT-2 Medium"),
         "The guide's recommendation for decoder models: 12 GB with FP16 mixed precision, 16 or 24 GB "
         "(A4000, RTX 3090) for GPT-2 Medium. It stays a recommendation: whether the model fits is "
         "FIT-1's estimate, since the guide's \"a 4 GB card cannot load GPT-2 Small\" is wrong.",
         {"warning": "a decoder model on less than the recommended memory"}, errata=(4,)),
    Rule("GPU-6", "M 1.1",
         QT_TRANSLATE_NOOP("rule catalogue", "GPU busy under 70 % while training: a bottleneck elsewhere"),
         "The monitor raises it when a GPU that a training process uses stays under 70 % busy for a while, "
         "and names the likely cause from the host's signals: DataLoader workers saturating the CPU, a busy "
         "CPU, disk iowait, or a PCIe link below its maximum.",
         {"warning": "sustained low utilisation while training"}, where=("monitor",)),
    Rule("GPU-7", "G 一", QT_TRANSLATE_NOOP("rule catalogue", "No GPU: small models only"),
         "Without a GPU, MNIST-sized models still train on the CPU or integrated graphics; work like BERT "
         "pre-training needs a professional card.", {"info": "the build has no GPU"}),
)
