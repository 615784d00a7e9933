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


def _whole_number_in(name: str, number: str) -> bool:
    return re.search(rf"(?:^|[^0-9.]){re.escape(number)}(?:[^0-9.]|$)", name) is not None


def _value_text(value: object) -> str:
    """A spec value as the store's text search sees it (SQLite's text of a JSON value)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, dict)):
        import json

        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def term_matches(term: Term, row: dict[str, object], specs: dict[str, object],
                 category_words: frozenset[str] = frozenset()) -> bool:
    """Whether one part matches one term. ``row``: its id, name, category and price; ``specs``: the rest.
    ``category_words``: the categories this term's word names (in the user's language), whose parts match.
    This is the meaning the store's SQL implements (tests hold the two to each other)."""
    if row.get("category") in category_words:
        return True
    if term.kind == "number":
        value = int(term.value) if term.value.is_integer() else term.value
        if any(specs.get(f) == value for f in term.fields):
            return True
        return term.in_name and _whole_number_in(str(row.get("name", "")).lower(), term.word)
    if term.kind == "flag":
        return specs.get(term.fields[0]) == 1
    if term.kind == "gen":
        gen = int(term.value)
        slots = specs.get("pcie_slots")
        return specs.get("pcie_gen") == gen or (isinstance(slots, list) and any(
            isinstance(s, dict) and s.get("gen") == gen for s in slots))
    text = " ".join(str(row.get(k, "")) for k in ("id", "name", "category", "price_cny")).lower()
    return term.word in text or any(term.word in _value_text(v).lower() for v in specs.values() if v is not None)
