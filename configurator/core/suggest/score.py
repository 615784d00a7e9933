"""How Suggest weighs a build's warnings: the soft constraints of its optimiser.

Errors are hard constraints (a build with one is never suggested). Every warning is a penalty: a
build's score is its estimated throughput times (1 − weight) for each rule that warns, so a
balanced build beats a slightly faster one that starves its GPUs of RAM or cores. The weights
are stated here, with why, and shown beside every suggestion ("scored 15 % down: BAL-3").

The weights are a judgement, not a measurement: roughly the share of throughput (or of risk of a
lost run) a practitioner would trade to be rid of the problem. Each is at least 2 %, more than
Suggest's 1 % tie, so a penalised build never ties with the same build without the warning.

``COMPLETION_RULES`` says which of the parts Suggest adds to a configuration (memory, drive,
supply, case) can take a warning away: BAL-3 goes with more RAM, PWR-5 with a bigger supply.
Warnings of the configuration itself (GPU, CPU, board: BAL-1, THERM-2, PCI-9 …) stay with it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from configurator.core.findings import Finding
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import Case

DEFAULT_WEIGHT = 0.05

# rule -> (weight, why it costs that much)
WEIGHTS: dict[str, tuple[float, str]] = {
    "BAL-3": (0.15, QT_TRANSLATE_NOOP("suggest", "less host RAM than VRAM: pinned buffers and checkpoints stall")),
    "THERM-2": (0.15, QT_TRANSLATE_NOOP("suggest", "open-air cards stacked without a gap throttle")),
    "BAL-4": (0.10, QT_TRANSLATE_NOOP("suggest", "the drives cannot hold the data set, environment and checkpoints")),
    "BAL-1": (0.10, QT_TRANSLATE_NOOP("suggest", "too few CPU cores to feed the GPUs' data loaders")),
    "PCI-9": (0.10, QT_TRANSLATE_NOOP("suggest", "half of a dual-socket board is dead with one CPU")),
    "FIT-1": (0.10, QT_TRANSLATE_NOOP("suggest", "the model only just fits: it may run out of memory")),
    "BUD-4": (0.10, QT_TRANSLATE_NOOP("suggest", "a used GPU: its memory must be tested before paying")),
    "CUD-4": (0.10, QT_TRANSLATE_NOOP("suggest", "an AMD card: ROCm instead of CUDA")),
    "PWR-5": (0.08, QT_TRANSLATE_NOOP("suggest", "the supply runs above 90 % of its rating at peak")),
    "PWR-1": (0.05, QT_TRANSLATE_NOOP("suggest", "the supply is below the vendor's recommendation")),
    "BAL-2": (0.05, QT_TRANSLATE_NOOP("suggest", "memory channels left empty")),
    "PCI-3": (0.05, QT_TRANSLATE_NOOP("suggest", "a card gets fewer than 8 lanes")),
    "PCI-10": (0.05, QT_TRANSLATE_NOOP("suggest", "an M.2 drive takes lanes from a GPU slot")),
    "FIT-6": (0.05, QT_TRANSLATE_NOOP("suggest", "the CPU cooler is rated below the CPU")),
    "CUD-1": (0.05, QT_TRANSLATE_NOOP("suggest", "new PyTorch builds leave the GPU's architecture out")),
    "RAM-1": (0.05, QT_TRANSLATE_NOOP("suggest", "RAM below the guide's formula")),
    "RAM-2": (0.05, QT_TRANSLATE_NOOP("suggest", "RAM below the guide's figure for CNNs")),
    "RAM-3": (0.05, QT_TRANSLATE_NOOP("suggest", "RAM below the guide's figure for GPT")),
    "STO-3": (0.05, QT_TRANSLATE_NOOP("suggest", "the SSD is slower or smaller than the guide's")),
    "STO-4": (0.05, QT_TRANSLATE_NOOP("suggest", "the data set does not fit on the SSD")),
    "GPU-2": (0.05, QT_TRANSLATE_NOOP("suggest", "less than the 24 GB the guide recommends for Transformers")),
    "GPU-5": (0.05, QT_TRANSLATE_NOOP("suggest", "less GPU memory than the guide recommends for GPT")),
    "PWR-3": (0.03, QT_TRANSLATE_NOOP("suggest", "a 16-pin input through the bundled adapter")),
    "PCI-1": (0.03, QT_TRANSLATE_NOOP("suggest", "a Gen4 card on a Gen3 link")),
    "PCI-4": (0.03, QT_TRANSLATE_NOOP("suggest", "more cards than the NVLink bridge joins")),
    "PCI-11": (0.02, QT_TRANSLATE_NOOP("suggest", "no peer-to-peer: all-reduce through host memory")),
    "CPU-1": (0.03, QT_TRANSLATE_NOOP("suggest", "fewer than 8 CPU cores with several GPUs")),
    "CPU-3": (0.02, QT_TRANSLATE_NOOP("suggest", "less than 16 MB of L3 cache")),
    "CPU-4": (0.03, QT_TRANSLATE_NOOP("suggest", "CPU-only inference without AVX-512")),
    "CPU-5": (0.03, QT_TRANSLATE_NOOP("suggest", "below the guide's CPU minimum")),
    "COMP-2": (0.03, QT_TRANSLATE_NOOP("suggest", "ECC modules where ECC is not supported")),
    "COMP-5": (0.03, QT_TRANSLATE_NOOP("suggest", "the CPU may need a BIOS update on this board")),
    "GPU-1": (0.03, QT_TRANSLATE_NOOP("suggest", "a 6 GB card for a large model")),
    "GPU-3": (0.03, QT_TRANSLATE_NOOP("suggest", "a batch above the guide's for the card's memory")),
    "GPU-4": (0.03, QT_TRANSLATE_NOOP("suggest", "below the guide's CNN minimum of GPU memory")),
    "FIT-4": (0.02, QT_TRANSLATE_NOOP("suggest", "an SFX supply in an ATX bay needs a bracket")),
}
_OTHER = QT_TRANSLATE_NOOP("suggest", "a warning of the engine")

# The parts Suggest completes a configuration with, and the warnings each can take away (FIT-6: a cooler
# rated below the CPU's maximum power).
COMPLETION_RULES: dict[str, frozenset[str]] = {
    "memory": frozenset({"BAL-2", "BAL-3", "RAM-1", "RAM-2", "RAM-3", "COMP-2"}),
    "storage": frozenset({"STO-3", "STO-4", "PCI-10", "BAL-4"}),
    "psu": frozenset({"PWR-1", "PWR-3", "PWR-5", "FIT-4"}),
    "case": frozenset({"FIT-4"}),
    "cooler": frozenset({"FIT-6"}),
}

# Warnings of the configuration itself (GPUs × count, CPUs × count, board): whatever memory, drive,
# supply and case complete it, they stay. Suggest checks a configuration alone for them, which bounds
# its score before it tries any completion.
CONFIG_RULES = frozenset({"BAL-1", "PCI-1", "PCI-3", "PCI-4", "PCI-9", "PCI-11", "BUD-4", "CPU-1",
                          "CPU-3", "CPU-4", "CPU-5", "CUD-1", "CUD-4", "GPU-1", "GPU-2", "GPU-3", "GPU-4",
                          "GPU-5", "FIT-1", "COMP-5"})
assert not CONFIG_RULES & set().union(*COMPLETION_RULES.values())

# Errors that a different memory, drive, supply or case can take away (memory type and capacity, the
# case's limits and airflow, the supply's watts and connectors, the total price); any other error of
# a configuration stays whatever completes it, so Suggest drops the configuration at once.
COMPLETION_ERRORS = frozenset({"COMP-2", "COMP-3", "COMP-4", "FIT-2", "FIT-3", "FIT-4", "FIT-5", "FIT-6", "FIT-7",
                               "PWR-2", "PWR-3", "THERM-1", "THERM-2", "BUD-1"})

# Warnings Suggest holds as constraints (space.STRICT_PREFIXES) that a different memory, drive,
# supply or case takes away; BAL-1 (the CPU's cores) stays with the configuration.
COMPLETION_STRICT = frozenset({"BAL-2", "BAL-3", "BAL-4", "PWR-1", "PWR-3", "PWR-5"})

assert all(w >= 0.02 for w, _ in WEIGHTS.values()) and DEFAULT_WEIGHT >= 0.02


@dataclass(frozen=True)
class Penalty:
    rule: str
    weight: float
    why: Message


def weight(rule: str) -> float:
    return WEIGHTS.get(rule, (DEFAULT_WEIGHT, _OTHER))[0]


def penalties(findings: Iterable[Finding]) -> tuple[Penalty, ...]:
    """One penalty per rule that warns (a rule warning twice counts once), heaviest first."""
    rules = sorted({f.rule for f in findings if f.severity == "warning"})
    out = [Penalty(r, *_weight_and_why(r)) for r in rules]
    return tuple(sorted(out, key=lambda p: (-p.weight, p.rule)))


def _weight_and_why(rule: str) -> tuple[float, Message]:
    w, why = WEIGHTS.get(rule, (DEFAULT_WEIGHT, _OTHER))
    return w, Message("suggest", why)


def factor(rules: Iterable[str]) -> float:
    """What a build's throughput is multiplied by for the rules that warn on it."""
    return math.prod(1 - weight(r) for r in set(rules))


def warning_rules(findings: Iterable[Finding]) -> frozenset[str]:
    return frozenset(f.rule for f in findings if f.severity == "warning")


# Case sizes the Suggest options choose from, by the case's form factor as its vendor names it.
CASE_SIZES = ("sff", "mid", "full", "rack")
CASE_SIZE_NAMES: Mapping[str, str] = {
    "sff": QT_TRANSLATE_NOOP("suggest", "small form factor"),
    "mid": QT_TRANSLATE_NOOP("suggest", "mini or mid tower"),
    "full": QT_TRANSLATE_NOOP("suggest", "full tower"),
    "rack": QT_TRANSLATE_NOOP("suggest", "rack"),
}


def case_sizes(case: Case) -> frozenset[str]:
    """The sizes a case counts as: "4U rackmount / tower (server)" is both a rack case and a full tower."""
    ff = case.form_factor.lower()
    out = set()
    if "sff" in ff or "itx" in ff:
        out.add("sff")
    elif "mini tower" in ff or "mid tower" in ff or "micro" in ff:
        out.add("mid")
    if "full tower" in ff or "tower (server)" in ff or "super tower" in ff:
        out.add("full")
    if "rack" in ff:
        out.add("rack")
    return frozenset(out or {"mid"})


__all__ = [
    "CASE_SIZES",
    "CASE_SIZE_NAMES",
    "COMPLETION_ERRORS",
    "COMPLETION_RULES",
    "COMPLETION_STRICT",
    "CONFIG_RULES",
    "DEFAULT_WEIGHT",
    "WEIGHTS",
    "Penalty",
    "case_sizes",
    "factor",
    "penalties",
    "warning_rules",
    "weight",
]
