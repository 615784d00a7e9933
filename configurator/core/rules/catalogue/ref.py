"""The rules catalogue's REF-* entries: the guides' reference performance figures."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("REF-1", "G 五",
         QT_TRANSLATE_NOOP("rule catalogue", "ResNet-50 on RTX 3090: 230 img/s FP32, 460 img/s AMP per card"),
         "The guide's measured table (one and two cards, FP32 and AMP, with their memory). It calibrates "
         "the multi-GPU scaling estimate, the benchmark compares its ResNet-50 result with it, and EST-1 "
         "shows where current publications differ.",
         {}, where=("estimates", "benchmark")),
    Rule("REF-2", "G 二.1", QT_TRANSLATE_NOOP("rule catalogue", "GTX 1660 Super: 37 % of an RTX 3090 on ResNet-18"),
         "A ratio, not a throughput: kept with the published measurements as the guide's figure, but no "
         "estimate or comparison uses it.", {}, where=(), status="advice"),
    Rule("REF-3", "M 2.1", QT_TRANSLATE_NOOP("rule catalogue", "RTX 3060: GPT-2 Small writes 512 tokens in about 8 s"),
         "About 64 tokens/s; the benchmark's GPT-2 decode result is compared with it.",
         {}, where=("estimates", "benchmark")),
    Rule("REF-4", "M 1.3",
         QT_TRANSLATE_NOOP("rule catalogue", "INT8 quantisation: −75 % memory, 2–3× faster inference"),
         "The guide's figure for post-training quantisation; documented, not used in an estimate.",
         {}, where=(), status="advice"),
    Rule("REF-5", "M 2.3", QT_TRANSLATE_NOOP("rule catalogue", "ONNX Runtime: about 30 % faster inference"),
         "The guide's figure; documented, not used in an estimate.", {}, where=(), status="advice",
         errata=(12,)),
    Rule("REF-6", "M 四.3", QT_TRANSLATE_NOOP("rule catalogue", "Pruning half the parameters costs about 2 % accuracy"),
         "The guide's figure; documented, not used in an estimate.", {}, where=(), status="advice"),
)
