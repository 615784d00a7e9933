"""The rules catalogue's ENV-* entries: the Python environment."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("ENV-1", "M 五", QT_TRANSLATE_NOOP("rule catalogue", "Version conflicts: pip check"),
         "The doctor runs `pip check` in the chosen interpreter and reports broken requirements.",
         {"fail": "pip check finds broken requirements"}, where=("doctor",)),
    Rule("ENV-2", "M 五", QT_TRANSLATE_NOOP("rule catalogue", "Model paths with Chinese or special characters"),
         "Some loaders fail on such paths; the doctor checks the paths it is given.",
         {"warn": "a path with non-ASCII or special characters"}, where=("doctor",)),
)
