"""The rules catalogue's TIER-* entries: the guides' presets (tiers)."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("TIER-entry", "G 五.3",
         QT_TRANSLATE_NOOP("rule catalogue", "Entry tier: RTX 3060 12GB, Ryzen 5 5600X, 32 GB, 1 TB NVMe"),
         "The guide's student/personal tier as a preset; parts it leaves out are filled with the cheapest "
         "that adds no error, and marked as filled.", {}, where=("presets",)),
    Rule("TIER-pro", "G 五.3",
         QT_TRANSLATE_NOOP("rule catalogue", "Professional tier: 2× RTX 3090 + NVLink, Threadripper Pro"),
         "The guide's research-team tier (3975WX, 128 GB ECC DDR4, 2 TB NVMe + 8 TB HDD) as a preset.",
         {}, where=("presets",)),
    Rule("TIER-enterprise", "G 五.3",
         QT_TRANSLATE_NOOP("rule catalogue", "Enterprise tier: 4× A100 80GB, 2× Xeon Platinum 8380"),
         "The guide's large-scale tier as written, so checking it reports its DDR5 with a DDR4-only CPU and "
         "its SXM modules without a baseboard.", {}, where=("presets",), errata=(3, 10)),
    Rule("TIER-cnn-min", "M 1.1",
         QT_TRANSLATE_NOOP("rule catalogue", "CNN minimum: GTX 1650 Super, i5-10400F, 16 GB, 256 GB NVMe"),
         "The guide's minimum for CNN work as a preset.", {}, where=("presets",)),
    Rule("TIER-gpt-min", "M 2.1", QT_TRANSLATE_NOOP("rule catalogue", "GPT minimum: RTX 3060 12GB, 32 GB, 512 GB SSD"),
         "The guide's minimum for GPT work as a preset.", {}, where=("presets",)),
)
