"""The guides' tiers (TIER-* in RULES.md) as build files.

What a guide names is used as written, even where it is wrong (the enterprise tier's DDR5
with a DDR4-only Xeon Platinum 8380 stays, so checking the preset reports it). Parts a
guide leaves out are filled with the cheapest part that adds no error finding, and are
marked as filled: the case before the supply, which must fit its bay and carry the computed peak (two or
more supplies where no single one does), and a CPU cooler per CPU that fits the case.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from configurator.core.build import PART_LIMITS, Build, BuildPart, Options, Workload
from configurator.core.engine import check
from configurator.core.i18n import QT_TRANSLATE_NOOP, Translate
from configurator.core.parts import AnyPart


@dataclass(frozen=True)
class Tier:
    id: str
    source: str
    name: str
    guide_text: str  # what the guide names, in English; translated ("tiers") to the guide's own words
    parts: tuple[BuildPart, ...]
    workload: Workload
    nvlink_bridge: bool = False


TIERS = (
    Tier("TIER-entry", "G 五.3", "入门级（学生/个人）",
         QT_TRANSLATE_NOOP("tiers", "RTX 3060 12GB, Ryzen 5 5600X, 32GB DDR4, 1TB NVMe SSD"),
         (BuildPart("nvidia-rtx-3060-12gb"), BuildPart("amd-ryzen-5-5600x"),
          BuildPart("corsair-vengeance-lpx-32gb-2x16gb-ddr4-3200"), BuildPart("samsung-970-evo-plus-1tb")),
         Workload(model="resnet50", task="train", precision="amp")),
    Tier("TIER-pro", "G 五.3", "专业级（研究团队）",
         QT_TRANSLATE_NOOP("tiers", "RTX 3090×2 + NVLink, Threadripper Pro 3975WX, 128GB ECC DDR4, 2TB NVMe SSD + "
                                    "8TB HDD"),
         (BuildPart("nvidia-rtx-3090", 2), BuildPart("amd-ryzen-threadripper-pro-3975wx"),
          BuildPart("samsung-m393a2k40db3-cwe-128gb-8x16gb-ddr4-3200-rdimm"), BuildPart("samsung-990-pro-2tb"),
          BuildPart("seagate-ironwolf-pro-8tb")),
         Workload(model="bert-large", task="train", precision="amp"), nvlink_bridge=True),
    Tier("TIER-enterprise", "G 五.3", "企业级（大规模训练）",
         QT_TRANSLATE_NOOP("tiers", "A100 80GB×4 (NVSwitch), Xeon Platinum 8380×2, 512GB DDR5, all-flash array + "
                                    "distributed FS"),
         (BuildPart("nvidia-a100-80gb-sxm", 4), BuildPart("intel-xeon-platinum-8380", 2),
          BuildPart("samsung-m321r8ga0bb0-cqk-512gb-8x64gb-ddr5-4800-rdimm"), BuildPart("samsung-pm9a3-3.84tb", 4)),
         Workload(model="llama-7b", task="train", precision="bf16", sharding="fsdp", grad_checkpointing=True)),
    Tier("TIER-cnn-min", "M 1.1", "CNN 最低配置",
         QT_TRANSLATE_NOOP("tiers", "GTX 1650 Super, i5-10400F / Ryzen 5 3600, 16GB DDR4-3200, 256GB NVMe SSD "
                                    "(≥ 2000 MB/s)"),
         (BuildPart("nvidia-gtx-1650-super"), BuildPart("intel-core-i5-10400f"),
          BuildPart("corsair-vengeance-lpx-16gb-2x8gb-ddr4-3200"), BuildPart("wd-blue-sn570-250gb")),
         Workload(model="resnet18", task="train", batch_size=32)),
    Tier("TIER-gpt-min", "M 2.1", "GPT 最低配置", QT_TRANSLATE_NOOP("tiers", "RTX 3060 12GB, 32GB RAM, 512GB SSD"),
         (BuildPart("nvidia-rtx-3060-12gb"), BuildPart("corsair-vengeance-lpx-32gb-2x16gb-ddr4-3200"),
          BuildPart("samsung-970-evo-plus-500gb")),
         Workload(model="gpt2", task="train", precision="amp")),
)

# The baseboard first (it decides which modules fit), the case before the supply (a supply must fit the
# case's bay, FIT-4) and the cooler last (its height and radiator must fit the case, FIT-6).
FILL_ORDER = ("platform", "cpu", "motherboard", "memory", "storage", "case", "psu", "cooler")

# The tiers' names for people: the guides' own words are Chinese (Tier.name, as written); these are
# translated ("tiers"): the Chinese translation is the guide's name, the English one says the same.
TIER_LABELS: dict[str, str] = {
    "TIER-entry": QT_TRANSLATE_NOOP("tiers", "Entry level (students, individuals)"),
    "TIER-pro": QT_TRANSLATE_NOOP("tiers", "Professional (research teams)"),
    "TIER-enterprise": QT_TRANSLATE_NOOP("tiers", "Enterprise (large-scale training)"),
    "TIER-cnn-min": QT_TRANSLATE_NOOP("tiers", "CNN minimum"),
    "TIER-gpt-min": QT_TRANSLATE_NOOP("tiers", "GPT minimum"),
}
# Short names, where a chart labels its bars.
TIER_SHORT: dict[str, str] = {
    "TIER-entry": QT_TRANSLATE_NOOP("tiers", "Entry"),
    "TIER-pro": QT_TRANSLATE_NOOP("tiers", "Pro"),
    "TIER-enterprise": QT_TRANSLATE_NOOP("tiers", "Enterprise"),
    "TIER-cnn-min": QT_TRANSLATE_NOOP("tiers", "CNN min."),
    "TIER-gpt-min": QT_TRANSLATE_NOOP("tiers", "GPT min."),
}


def tier_label(tier_id: str, translate: Translate | None = None, short: bool = False) -> str:
    """A tier's name in the reader's language (``short``: for a chart's bar)."""
    table = TIER_SHORT if short else TIER_LABELS
    text = table.get(tier_id)
    if text is None:
        return tier_id.removeprefix("TIER-")
    return translate("tiers", text) if translate else text


@dataclass(frozen=True)
class Preset:
    tier: Tier
    build: Build
    filled: tuple[str, ...]  # ids of parts the guide does not name


def _problems(build: Build, catalogue: Mapping[str, AnyPart]) -> tuple[int, int]:
    """(errors, warnings) apart from the budget: what a filled-in part must not add. The rules alone, as Suggest
    judges its trials: the findings drawn from the estimates are information only (engine.check)."""
    findings = [f for f in check(build, catalogue, with_estimates=False).findings if f.rule != "BUD-1"]
    return (sum(f.severity == "error" for f in findings), sum(f.severity == "warning" for f in findings))


def _cheapest(tier: Tier, options: Options, parts: list[BuildPart], candidates: list[AnyPart],
              counts: Iterable[int], catalogue: Mapping[str, AnyPart]
              ) -> tuple[tuple[int, int, int, str], BuildPart] | None:
    """The candidate (× a count) adding the fewest errors, then the fewest warnings, then the cheapest."""
    best: tuple[tuple[int, int, int, str], BuildPart] | None = None
    for n in counts:
        for candidate in candidates:
            item = BuildPart(candidate.id, n)
            trial = Build((*parts, item), name=tier.name, options=options, workload=tier.workload)
            errors, warnings = _problems(trial, catalogue)
            score = (errors, warnings, candidate.price_cny * n, candidate.id)
            if best is None or score < best[0]:
                best = (score, item)
    return best


def make_preset(tier: Tier, catalogue: Mapping[str, AnyPart]) -> Preset:
    parts = [p for p in tier.parts if p.id in catalogue]
    options = Options(nvlink_bridge=tier.nvlink_bridge)
    filled: list[str] = []
    have = {catalogue[p.id].category for p in parts}
    by_cat: dict[str, list[AnyPart]] = {}
    for part in sorted(catalogue.values(), key=lambda p: (p.price_cny, p.id)):
        if not part.custom:
            by_cat.setdefault(part.category, []).append(part)
    modules = any(getattr(catalogue[p.id], "form_factor", "pcie") in ("sxm", "oam") for p in parts
                  if catalogue[p.id].category == "gpu")
    for category in FILL_ORDER:
        if category in have or (category == "platform" and not modules):  # a baseboard only for SXM/OAM
            continue
        candidates = by_cat.get(category, [])
        # A cooler per CPU; a supply alone, or (when no single one carries the build) two or more (PWR-5).
        cpus = sum(p.qty for p in parts if catalogue[p.id].category == "cpu")
        counts = [max(cpus, 1)] if category == "cooler" else [1]
        picked = _cheapest(tier, options, parts, candidates, counts, catalogue)
        before = _problems(Build(tuple(parts), name=tier.name, options=options, workload=tier.workload),
                           catalogue)[0]
        for n in range(2, PART_LIMITS["psu"] + 1):  # the fewest supplies that carry it
            if category != "psu" or picked is None or picked[0][0] <= before:
                break
            more = _cheapest(tier, options, parts, candidates, [n], catalogue)
            if more is not None and more[0] < picked[0]:
                picked = more
        if category == "cooler" and picked is not None and picked[0][0] > before:
            picked = None  # no cooler fits: leaving it out is no error (FIT-6 says so), a wrong one is
        if picked is not None:
            parts.append(picked[1])
            filled.append(picked[1].id)
    build = Build(tuple(parts), name=tier.name, options=options, workload=tier.workload)
    return Preset(tier, build, tuple(filled))


def presets(catalogue: Mapping[str, AnyPart]) -> list[Preset]:
    return [make_preset(t, catalogue) for t in TIERS]
