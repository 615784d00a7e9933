"""Suggest: a constrained optimiser over the catalogue for a budget and a workload.

The package's modules: ``search`` (the walks over the configurations, :func:`suggest`), ``space`` (the
options and the configurations, best or cheapest first), ``candidates`` (the parts that can complete a
configuration), ``complete`` (completing one: memory, drive, supply, case, cooler), ``upgrade`` (spending
left-over budget), ``strategies`` (how a workload is changed to fit: tensor split, FSDP, LoRA, QLoRA),
``pick`` (the winner and the alternatives), ``suggestion`` (the records: :class:`Suggestion`, ``Found``),
``score`` (the warnings' penalties), ``prune`` (the dominated parts), ``serve`` (a serving target) and
``explain`` (the reasons, the binding constraint, the trade-offs and why nothing was found).
What the rest of the program uses is exported here."""

from configurator.core.suggest.explain import why_nothing
from configurator.core.suggest.pick import SIMPLER
from configurator.core.suggest.prune import config_profile, prune
from configurator.core.suggest.score import CASE_SIZE_NAMES, CASE_SIZES, Penalty, case_sizes
from configurator.core.suggest.search import suggest
from configurator.core.suggest.serve import Served, ServeTarget, serve_target, target_message
from configurator.core.suggest.space import (
    DEFAULT_WORKLOAD,
    MAX_GPUS,
    MAX_GPUS_LIMIT,
    TIE,
    SuggestOptions,
    held_rules,
    report_throughput,
)
from configurator.core.suggest.suggestion import Suggestion, report_score

__all__ = ["CASE_SIZES", "CASE_SIZE_NAMES", "DEFAULT_WORKLOAD", "MAX_GPUS", "MAX_GPUS_LIMIT", "SIMPLER", "TIE",
           "Penalty", "ServeTarget", "Served", "SuggestOptions", "Suggestion", "case_sizes", "config_profile",
           "held_rules", "prune", "report_score", "report_throughput", "serve_target", "suggest", "target_message",
           "why_nothing"]
