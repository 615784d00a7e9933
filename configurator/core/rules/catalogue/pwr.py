"""The rules catalogue's PWR-* entries: power. The checks are in configurator/core/rules/pwr.py."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("PWR-1", "G 六.3",
         QT_TRANSLATE_NOOP("rule catalogue", "The supply meets the guide's and the vendor's PSU figure"),
         "Compares the power supply with the vendor's recommended PSU for the card (plus the board power "
         "of every further card) and, for an RTX 3090, with the guide's 850 W. These are recommendations "
         "made for an average system; whether the supply can carry the load is PWR-2's estimate.",
         {"warning": "the supply is below the vendor's or the guide's figure"}),
    Rule("PWR-2", "G 六.3", QT_TRANSLATE_NOOP("rule catalogue", "The supply covers the estimated peak draw"),
         "Estimates the peak draw (every GPU's board power, the CPUs' maximum power, the platform, and "
         "headroom for the short excursions GPUs make) and compares it with the supply's rating. A supply "
         "below the peak shuts the machine down under load. In the monitor, the GPU's hardware power brake "
         "is reported under this rule too: it means the supply or its cables did not keep up.",
         {"error": "the estimated peak is above the supply's rating",
          "warning": "monitor: a GPU is slowed by its hardware power brake",
          "info": "the peak and the supply's load, or the peak to size a supply for when none is chosen"},
         where=("planner", "monitor")),
    Rule("PWR-3", "G 六.3", QT_TRANSLATE_NOOP("rule catalogue", "The supply has the power connectors the parts need"),
         "Counts the cards' 8-pin PCIe and 16-pin (12VHPWR / 12V-2x6) inputs and the 8-pin EPS inputs of "
         "the CPUs and data-centre cards against the supply's cables. A 16-pin input without a native "
         "cable may use the card's bundled adapter, which takes 8-pin cables in turn; so may the EPS input of "
         "a workstation card that ships with a PCIe-to-EPS adapter (RTX A6000) where the CPUs take the EPS cables.",
         {"error": "too few GPU or EPS connectors, even with the adapters",
          "warning": "a 16-pin input has to use the bundled 8-pin adapter, or a workstation card's EPS input its "
                     "shipped PCIe-to-EPS adapter (named)"}),
    Rule("PWR-4", "G 二.1", QT_TRANSLATE_NOOP("rule catalogue", "Throughput per watt"),
         "Shows the estimated throughput divided by the average draw under load, the draw BUD-3 bills (GPUs at "
         "board power, CPU at TDP, the platform; for \"This machine\" the draw measured on it, marked as measured), "
         "the figure behind the guide's point "
         "that a GTX 1660 Super gives about 37 % of an RTX 3090's ResNet-18 speed at a third of its power.",
         {"info": "whenever a throughput is estimated"}, where=("planner", "estimates")),
)

# Beyond the guides: what an expert builder also checks.
BEYOND = (
    Rule("PWR-5", "ATX 3.x, vendor specs",
         QT_TRANSLATE_NOOP("rule catalogue", "Several PSUs, ATX 3.x headroom, 90 % load"),
         "Several supplies add up; an ATX 3.x supply is specified for GPU power excursions, so it needs less "
         "transient headroom; a supply above 90 % of its rating at the estimated peak, or above 80 % at the "
         "sustained draw of a training run, runs hot and loud; a redundant module alone has no spare (N+1).",
         {"warning": "above 90 % of the rating at the estimated peak, above 80 % sustained, or one redundant module "
                     "alone",
          "info": "several supplies (or redundant modules) and what they deliver together; a mix of ATX 3.x "
                  "and older supplies keeps the older headroom"}),
)
