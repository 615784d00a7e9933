"""The rules catalogue's CLU-* entries: clusters."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("CLU-1", "first principles", QT_TRANSLATE_NOOP("rule catalogue", "Across nodes the network sets the scaling"),
         "For a build with a cluster (nodes and interconnect), data-parallel training is estimated as a "
         "hierarchical ring all-reduce: inside each node over its GPU links, across the nodes over one network "
         "port per node (the standard's data rate, TCP or InfiniBand framing, a stated latency per hop, DDP's "
         "25 MiB buckets). When the step waits longer for the network than it computes, the network, not the "
         "GPUs, limits the job; the slowest interconnect that would not is named.",
         {"warning": "the step waits longer for the all-reduce across nodes than it computes",
          "info": "the estimated scaling across nodes"}, where=("planner", "estimates")),
)
