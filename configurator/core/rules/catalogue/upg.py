"""The rules catalogue's UPG-* entries: the upgrade path."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("UPG-1", "G 七", QT_TRANSLATE_NOOP("rule catalogue", "The upgrade path: short, medium and long term"),
         "The upgrade advisor (`configurator advise`) says what the guide's path means for the build's limit "
         "(more VRAM and a better data pipeline first, then several nodes, then new GPU generations), with "
         "its erratum about the A4000 (advice beside the limit it finds, not a finding).", {}, where=("advisor",),
         errata=(2,)),
)
