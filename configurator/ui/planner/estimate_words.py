"""Estimates in the Planner's results and the PDF build sheet: their names, units, figures and ranges in the
user's language (the words and the precision are core's: core/findings.py ESTIMATE_LABELS, core/numbers.py; the
command line shows the same), and the serving estimates in the order they are shown."""

from __future__ import annotations

from configurator.core.build import Workload
from configurator.core.findings import SERVING_KEYS, Estimate
from configurator.core.findings import estimate_label as core_estimate_label
from configurator.core.numbers import range_text as core_range_text
from configurator.core.numbers import unit_text, value_text
from configurator.core.sheet import serving_heading as core_serving_heading
from configurator.ui.i18n import translate

__all__ = ["NOT_ESTIMATED", "SERVING_KEYS", "WHOLE_NUMBERS", "estimate_label", "range_text", "row_label",
           "serving_estimates", "serving_heading", "unit_words", "value_text"]

NOT_ESTIMATED = "serving_not_estimated"
WHOLE_NUMBERS = ("largest_batch", "serving_max_concurrency")  # counts: 143 requests, not 143.0


def estimate_label(key: str) -> str:
    """An estimate's name, translated (the key itself where none is known)."""
    return core_estimate_label(key, translate)


def unit_words(unit: str) -> str:
    """An estimate's unit in the user's language."""
    return unit_text(unit, translate)


def range_text(e: Estimate) -> str | None:
    """The estimate's likely range, ``low–high`` (None where it has none)."""
    return core_range_text(e.low, e.high, whole=e.key in WHOLE_NUMBERS)


def serving_estimates(estimates: tuple[Estimate, ...] | list[Estimate]) -> list[Estimate]:
    """The serving estimates in SERVING_KEYS order, or the one that says why there are none."""
    by_key = {e.key: e for e in estimates}
    if NOT_ESTIMATED in by_key:
        return [by_key[NOT_ESTIMATED]]
    return [by_key[k] for k in SERVING_KEYS if k in by_key]


def row_label(key: str, core_labels: dict[str, str]) -> str:
    """A workload row's name, translated."""
    return translate("workload", core_labels.get(key, key))


def serving_heading(w: Workload) -> str:
    """What the serving figures are at: "Serving at 64 requests in flight, 512 prompt + 256 output tokens per
    request"."""
    return core_serving_heading(w).render(translate)
