"""The rules catalogue's FIT-* entries: fit. The checks are in configurator/core/rules/fit.py."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("FIT-1", "first principles", QT_TRANSLATE_NOOP("rule catalogue", "The workload fits in each GPU's memory"),
         "Estimates the memory per GPU from the model and the workload (weights, gradients, optimizer "
         "states as sharded, the activations autograd saves at the batch and precision, autocast copies, "
         "logits, KV cache, the CUDA context, the display and the allocator's margin), with its range, "
         "and compares the range with the smallest card. When it does not fit, it names the options that "
         "make it fit with their figures (RAM-4), and the build shows no throughput.",
         {"error": "even the low end of the range is above the card's memory",
          "warning": "the card's memory is within the range (tight)",
          "info": "it fits, with what is left at the high end"}, where=("planner", "estimates"),
         errata=(4,)),
    Rule("FIT-2", "first principles", QT_TRANSLATE_NOOP("rule catalogue", "The host RAM holds what training needs"),
         "Estimates host memory from first principles: the OS and libraries, a host copy of the weights per "
         "process, and the DataLoader's prefetched batches.",
         {"error": "the estimate is above the installed RAM"}, where=("planner", "estimates"), errata=(5,)),
    Rule("FIT-3", "G 四.1", QT_TRANSLATE_NOOP("rule catalogue", "The data set fits on the build's storage"),
         "A data set larger than all drives together cannot be trained on from local disk.",
         {"error": "the data set is larger than the build's storage"}),
)

# Beyond the guides: what an expert builder also checks.
BEYOND = (
    Rule("FIT-4", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "The PSU's form factor fits the case"),
         "ATX, SFX and SFX-L supplies against the case's PSU mount, and the number of supplies against the "
         "case's mounts (one unless its data says more; redundant modules go in the chassis's cage).",
         {"error": "the supply's form factor is not one the case's bay takes, or more supplies than mounts",
          "warning": "an SFX or SFX-L supply in an ATX bay (it fits with an adapter bracket)"}),
    Rule("FIT-5", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "The board's dimensions fit the case"),
         "E-ATX and SSI-EEB widths differ between vendors: the board's measured size against the case's limit.",
         {"error": "the board is wider or deeper than the case takes",
          "info": "a board wider than ATX in a case that publishes no width limit"}),
    Rule("FIT-6", "vendor specs",
         QT_TRANSLATE_NOOP("rule catalogue", "The CPU cooler fits the socket, the case and the CPU"),
         "The cooler's socket support, its height against the case, and its rating against the CPU's "
         "maximum power.", {"error": "wrong socket, too tall for the case, or a radiator the case cannot mount",
                            "warning": "rated below the CPU's maximum power (it throttles)",
                            "info": "no cooler for a CPU sold without one, fewer coolers than CPUs, or no "
                                    "published rating"}),
    Rule("FIT-7", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "Drives fit M.2 slots, SATA ports and bays"),
         "Every drive needs a connector on the board and a place in the case.",
         {"error": "more M.2 drives, SATA drives or drives for the case's bays than there are",
          "info": "a U.2 drive (it needs an adapter or a backplane)"}),
)
