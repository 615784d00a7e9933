"""The rules catalogue's EST-* entries: estimates against the guides' reference figures."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("EST-1", "published measurements",
         QT_TRANSLATE_NOOP("rule catalogue", "Where a guide's figure and measurements disagree"),
         "When a guide's reference figure and current published measurements on the same GPU and workload "
         "differ by more than the throughput model's error, both are shown with the likely reason (real "
         "data loaded on the CPU against synthetic data, or different software).",
         {"info": "the figures differ by more than the model's error"}, where=("planner", "estimates")),
)
