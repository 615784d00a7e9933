"""The rules catalogue's THERM-* entries: cooling. The checks are in configurator/core/rules/therm.py."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("THERM-1", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "Passively cooled cards need forced airflow"),
         "Data-centre PCIe cards have no fans; they rely on the server's front-to-back airflow and overheat "
         "in a desktop case.", {"error": "a passive card in a case without server airflow",
                                "info": "a passive card with no case chosen yet"}),
    Rule("THERM-2", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "Open-air cards need a gap between them"),
         "Open-air coolers in adjacent slots starve the upper card's fans; blower cards can be stacked, and a "
         "rack chassis's fan wall forces air through stacked cards. Each open-air card blows its board power into "
         "the case: a mid tower takes at most two, with a free slot between them.",
         {"error": "open-air cards in adjacent slots outside a rack chassis, or more than two open-air cards in a "
                   "mid tower"}),
)
