"""The rules catalogue's BUD-* entries: budget and cost. The checks are in configurator/core/rules/bud.py."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("BUD-1", "G 五.3, M 结语", QT_TRANSLATE_NOOP("rule catalogue", "The parts' total stays within the budget"),
         "Adds up price × quantity of every part and compares it with the budget the user set, saying how "
         "much is left or how much too much. A plan that costs more than the buyer has cannot be bought as "
         "it stands.",
         {"error": "the total is above the budget",
          "info": "within the budget (what is left), or no budget set (the total)"}),
    Rule("BUD-2", "M 结语", QT_TRANSLATE_NOOP("rule catalogue", "A basic local AI box fits in ¥5,000"),
         "Places the build against the guide's reference point for a first machine, so a beginner sees "
         "whether the plan is in the class the guide calls basic.",
         {"info": "always, with the build's total and whether it is within ¥5,000"}),
    Rule("BUD-3", "M 四.1",
         QT_TRANSLATE_NOOP("rule catalogue", "Months until the build pays for itself against renting"),
         "Divides the build's price by what it saves each month against renting the same number of "
         "comparable GPUs: a dated, sourced price per GPU class and hour (db/cloud_prices.toml; your own "
         "prices through `configurator cloud-prices set`) times GPUs × hours per day, minus the "
         "electricity at the estimated training draw and the tariff (hours and tariff editable in the "
         "build's options); for \"This machine\" the draw measured on it (a monitor recording's energy, or a "
         "benchmark's joules per sample, chosen in the Planner's Upgrade panel) plus the platform's estimate, "
         "said in the finding. The guide's flat ¥8,000 a month for a V100 instance (an AWS p3.2xlarge) is "
         "quoted beside it as the guide's figure.",
         {"info": "always when the build has parts; \"never\" when renting costs less than the electricity"}),
    Rule("BUD-4", "M 四.2", QT_TRANSLATE_NOOP("rule catalogue", "Test a used GPU's memory before paying"),
         "A GPU marked as bought used (many RTX 30 cards come from mining) gets a reminder to run the "
         "Benchmark tab's VRAM pattern test and to look for worn fans and pads: faulty memory shows up "
         "as silent errors in training, not as a refusal to start.",
         {"warning": "a GPU of the build is marked used"}, where=("planner", "benchmark")),
)
