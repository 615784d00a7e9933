"""What the parts search's words mean: each term matches the fields it names.

"24 nvlink" is two terms: 24 (a size: VRAM or capacity, or a model number in the name) and nvlink
(the NVLink capability). The store turns the terms into SQL; this module only reads the words."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

# A bare number is a size (GiB of VRAM, GB/GiB of capacity), a PSU's or a card's watts, a CPU's cores,
# or a model number in the name ("4090", "5600"): whichever field the part has.
NUMBER_FIELDS = ("vram_gb", "capacity_gb", "watts", "cores")
UNIT_FIELDS: dict[str, tuple[tuple[str, ...], float]] = {
    # unit word: (fields, factor to the field's unit)
    "gb": (("vram_gb", "capacity_gb"), 1), "g": (("vram_gb", "capacity_gb"), 1),
    "gib": (("vram_gb", "capacity_gb"), 1), "tb": (("capacity_gb",), 1000), "t": (("capacity_gb",), 1000),
    "w": (("watts", "board_power_w", "tdp_w"), 1),
    "c": (("cores",), 1), "cores": (("cores",), 1), "core": (("cores",), 1),
    "mhz": (("speed_mts",), 1), "mts": (("speed_mts",), 1), "mt/s": (("speed_mts",), 1),
}
# Words that name a yes/no capability.
FLAG_WORDS: dict[str, str] = {
    "nvlink": "nvlink", "ecc": "ecc", "rdimm": "rdimm", "registered": "rdimm", "avx512": "avx512",
    "avx-512": "avx512", "rocm": "rocm_supported",
}
_NUMBER = re.compile(r"^(\d+(?:\.\d+)?)\s*([a-z/]*)$")
_GEN = re.compile(r"^(?:pcie|pci-e|gen|pcie-gen|pciegen)\s*([1-6])$")


@dataclass(frozen=True)
class Term:
    """``number``: ``value`` in one of ``fields`` (or, ``in_name``, as a whole number in the name);
    ``flag``: the field ``fields[0]`` is true; ``gen``: the PCIe generation (a card's, a drive's, a slot's);
    ``text``: the word anywhere in the part's name, id, category or spec values."""

    kind: Literal["number", "flag", "gen", "text"]
    word: str
    value: float = 0
    fields: tuple[str, ...] = ()
    in_name: bool = False


def parse_search(text: str) -> list[Term]:
    """The terms of a search box's text, one per word (a number and its unit may be two words: "24 gb")."""
    words = text.casefold().split()
    out: list[Term] = []
    i = 0
    while i < len(words):
        word = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        m = _NUMBER.match(word)
        if m and not m.group(2) and nxt in UNIT_FIELDS and nxt not in ("t", "c", "g"):
            m = _NUMBER.match(word + nxt)  # "24 gb"
            i += 1
            word = word + nxt
        i += 1
        gen = _GEN.match(word)
        if gen:
            out.append(Term("gen", word, float(gen.group(1))))
        elif word in FLAG_WORDS:
            out.append(Term("flag", word, 1, (FLAG_WORDS[word],)))
        elif m and not m.group(2):
            out.append(Term("number", word, float(m.group(1)), NUMBER_FIELDS, in_name=True))
        elif m and m.group(2) in UNIT_FIELDS:
            fields, factor = UNIT_FIELDS[m.group(2)]
            out.append(Term("number", word, float(m.group(1)) * factor, fields))
        else:
            out.append(Term("text", word))
    return out
