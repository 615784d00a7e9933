"""The rules catalogue's OOM-* entries: running out of GPU memory."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("OOM-1", "G 六.1, M 五", QT_TRANSLATE_NOOP("rule catalogue", "Before CUDA runs out of memory"),
         "The monitor warns when a GPU's memory stays nearly full, with the guide's remedies (smaller batch "
         "and accumulation, checkpointing, mixed precision, torch.cuda.memory_summary()).",
         {"warning": "VRAM above 95 % for a while"}, where=("monitor",)),
)
