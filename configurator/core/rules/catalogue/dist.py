"""The rules catalogue's DIST-* entries: distributed training."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("DIST-1", "G 六.2", QT_TRANSLATE_NOOP("rule catalogue", "GPUs of one job out of step"),
         "When the GPUs of one job differ widely in utilisation, a rank is slow or the data is split "
         "unevenly; the alert suggests NCCL_DEBUG=INFO and equal batches per rank.",
         {"warning": "utilisation 30 points apart for a while"}, where=("monitor",), errata=(8,)),
)
