"""The rules catalogue's RAM-* entries: memory (RAM). The checks are in configurator/core/rules/ram.py."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("RAM-1", "G 三.2",
         QT_TRANSLATE_NOOP("rule catalogue", "The guide's RAM formula, beside a first-principles estimate"),
         "The guide sizes RAM as params × batch × 4 B × 1.2 (halved for mixed precision). That formula "
         "scales the weights with the batch, which memory does not do, so the app shows it labelled as "
         "the guide's, next to its own estimate; the error belongs to FIT-2.",
         {"warning": "the installed RAM is below the guide's formula",
          "info": "both figures and the installed RAM"}, where=("planner", "estimates"), errata=(5,)),
    Rule("RAM-2", "M 1.1", QT_TRANSLATE_NOOP("rule catalogue", "CNN: 16 GB of DDR4-3200, 8 GB kept free"),
         "The guide's CNN minimum, and its advice to keep 8 GB free for data loading beyond what training "
         "needs.", {"warning": "less than 16 GB, or less than 8 GB left over"}),
    Rule("RAM-3", "M 2.1", QT_TRANSLATE_NOOP("rule catalogue", "GPT: 32 GB of RAM, 64 GB better"),
         "The guide's minimum host memory for decoder models.",
         {"warning": "less than 32 GB", "info": "32–63 GB (the guide prefers 64)"}),
    Rule("RAM-4", "G 三.2, 六.1", QT_TRANSLATE_NOOP("rule catalogue", "Ways to need less memory"),
         "When a workload does not fit, lists each option the planner models that applies to it, with the "
         "memory estimate per GPU it gives and whether that fits: LoRA, QLoRA, optimizer offload, activation "
         "checkpointing, 8-bit or bf16 AdamW, mixed precision, the largest batch that fits (with gradient "
         "accumulation), FSDP over the fewest GPUs that fit (training); int8/int4 weights, tensor parallel "
         "(inference).",
         {"info": "FIT-1 finds that the workload does not fit"}, errata=(7,)),
)
