"""What the numbers behind a finding are called and in which unit they are, for people.

A finding keeps its numbers under stable keys (``peak_w``; JSON shows them as they are); the planner
shows each with a translated label and its unit. A key not listed here still gets its unit from its
suffix and words from its name, so a new rule's numbers are never shown as bare keys."""

from __future__ import annotations

import math
from collections.abc import Callable

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message, fill

# key: (label, unit). Units: "¥" (before the number), "W", "GB" (decimal), "GiB", "mm", "MB/s", "GB/s",
# "GHz", "MB", "%" (a fraction shown as a percentage), "×" (a ratio), "" (a count or a word).
NUMBER_LABELS: dict[str, tuple[str, str]] = {
    "adapter_8pin": (QT_TRANSLATE_NOOP("numbers", "8-pin inputs of the card's adapter"), ""),
    "batch": (QT_TRANSLATE_NOOP("numbers", "Batch per GPU"), ""),
    "best_seq_read_mbs": (QT_TRANSLATE_NOOP("numbers", "Fastest drive's sequential read"), "MB/s"),
    "board_form_factor": (QT_TRANSLATE_NOOP("numbers", "Board form factor"), ""),
    "board_socket": (QT_TRANSLATE_NOOP("numbers", "Board socket"), ""),
    "board_type": (QT_TRANSLATE_NOOP("numbers", "Board memory type"), ""),
    "board_year": (QT_TRANSLATE_NOOP("numbers", "Board launch year"), ""),
    "boost_ghz": (QT_TRANSLATE_NOOP("numbers", "Boost clock"), "GHz"),
    "breakdown_gib": (QT_TRANSLATE_NOOP("numbers", "VRAM by use"), "GiB"),
    "budget_cny": (QT_TRANSLATE_NOOP("numbers", "Budget"), "¥"),
    "card_gen": (QT_TRANSLATE_NOOP("numbers", "Card's PCIe generation"), ""),
    "case_form_factors": (QT_TRANSLATE_NOOP("numbers", "Boards the case takes"), ""),
    "case_max_mm": (QT_TRANSLATE_NOOP("numbers", "Longest card the case takes"), "mm"),
    "case_slots": (QT_TRANSLATE_NOOP("numbers", "Case expansion slots"), ""),
    "checked": (QT_TRANSLATE_NOOP("numbers", "Checked"), ""),
    "cloud_cny_per_month": (QT_TRANSLATE_NOOP("numbers", "Cloud rent per month"), "¥"),
    "compute_capability": (QT_TRANSLATE_NOOP("numbers", "Compute capability"), ""),
    "cores": (QT_TRANSLATE_NOOP("numbers", "Cores"), ""),
    "covers": (QT_TRANSLATE_NOOP("numbers", "Slot positions covered"), ""),
    "cpu_socket": (QT_TRANSLATE_NOOP("numbers", "CPU socket"), ""),
    "cpu_types": (QT_TRANSLATE_NOOP("numbers", "CPU memory types"), ""),
    "cpu_w": (QT_TRANSLATE_NOOP("numbers", "CPU power"), "W"),
    "cpu_year": (QT_TRANSLATE_NOOP("numbers", "CPU launch year"), ""),
    "cpus": (QT_TRANSLATE_NOOP("numbers", "CPUs"), ""),
    "display_gpu": (QT_TRANSLATE_NOOP("numbers", "First GPU drives the display"), ""),
    "draw_w": (QT_TRANSLATE_NOOP("numbers", "Draw while training"), "W"),
    "driver_per_cuda_major": (QT_TRANSLATE_NOOP("numbers", "Minimum driver per CUDA version"), ""),
    "ecc": (QT_TRANSLATE_NOOP("numbers", "ECC"), ""),
    "electricity_cny_per_kwh": (QT_TRANSLATE_NOOP("numbers", "Electricity per kWh"), "¥"),
    "electricity_cny_per_month": (QT_TRANSLATE_NOOP("numbers", "Electricity per month"), "¥"),
    "eps_needed": (QT_TRANSLATE_NOOP("numbers", "8-pin EPS inputs needed"), ""),
    "fast_gb": (QT_TRANSLATE_NOOP("numbers", "Fast (NVMe) storage"), "GB"),
    "finetune": (QT_TRANSLATE_NOOP("numbers", "Fine-tuning"), ""),
    "first_cuda": (QT_TRANSLATE_NOOP("numbers", "First CUDA version"), ""),
    "first_driver": (QT_TRANSLATE_NOOP("numbers", "First driver"), ""),
    "first_principles_gb": (QT_TRANSLATE_NOOP("numbers", "RAM need (first principles)"), "GB"),
    "from": (QT_TRANSLATE_NOOP("numbers", "Lanes from"), ""),
    "gen": (QT_TRANSLATE_NOOP("numbers", "PCIe generation"), ""),
    "gfx_target": (QT_TRANSLATE_NOOP("numbers", "GFX target"), ""),
    "global_batch": (QT_TRANSLATE_NOOP("numbers", "Global batch"), ""),
    "gpu": (QT_TRANSLATE_NOOP("numbers", "GPU"), ""),
    "gpu_16pin": (QT_TRANSLATE_NOOP("numbers", "16-pin inputs on the GPUs"), ""),
    "gpu_8pin": (QT_TRANSLATE_NOOP("numbers", "8-pin inputs on the GPUs"), ""),
    "gpu_length_mm": (QT_TRANSLATE_NOOP("numbers", "GPU length"), "mm"),
    "gpu_w": (QT_TRANSLATE_NOOP("numbers", "GPU power"), "W"),
    "gpus": (QT_TRANSLATE_NOOP("numbers", "GPUs"), ""),
    "guide": (QT_TRANSLATE_NOOP("numbers", "The guide's figure"), ""),
    "guide_batch": (QT_TRANSLATE_NOOP("numbers", "The guide's batch"), ""),
    "guide_formula_gb": (QT_TRANSLATE_NOOP("numbers", "RAM need (the guide's formula)"), "GB"),
    "guide_id": (QT_TRANSLATE_NOOP("numbers", "The guide's measurement"), ""),
    "guide_psu_w": (QT_TRANSLATE_NOOP("numbers", "PSU the guide asks for"), "W"),
    "high_gib": (QT_TRANSLATE_NOOP("numbers", "High end"), "GiB"),
    "hours_per_day": (QT_TRANSLATE_NOOP("numbers", "Hours per day"), "h"),
    "kit_type": (QT_TRANSLATE_NOOP("numbers", "Memory kit type"), ""),
    "l3_mb": (QT_TRANSLATE_NOOP("numbers", "L3 cache"), "MB"),
    "lanes": (QT_TRANSLATE_NOOP("numbers", "Lanes"), ""),
    "left_cny": (QT_TRANSLATE_NOOP("numbers", "Left of the budget"), "¥"),
    "low_gib": (QT_TRANSLATE_NOOP("numbers", "Low end"), "GiB"),
    "lowest_position": (QT_TRANSLATE_NOOP("numbers", "Lowest slot position used"), ""),
    "max_gb": (QT_TRANSLATE_NOOP("numbers", "Board's maximum memory"), "GiB"),
    "max_gpus": (QT_TRANSLATE_NOOP("numbers", "GPUs per NVLink group"), ""),
    "modules": (QT_TRANSLATE_NOOP("numbers", "Memory modules"), ""),
    "months": (QT_TRANSLATE_NOOP("numbers", "Months to break even"), "months"),
    "need_gib": (QT_TRANSLATE_NOOP("numbers", "VRAM need"), "GiB"),
    "nvlink_gbs": (QT_TRANSLATE_NOOP("numbers", "NVLink bandwidth"), "GB/s"),
    "offload": (QT_TRANSLATE_NOOP("numbers", "Offload"), ""),
    "parallel": (QT_TRANSLATE_NOOP("numbers", "Model parallelism"), ""),
    "params_m": (QT_TRANSLATE_NOOP("numbers", "Parameters (millions)"), ""),
    "part": (QT_TRANSLATE_NOOP("numbers", "Part"), ""),
    "parts_gb": (QT_TRANSLATE_NOOP("numbers", "RAM by use"), "GB"),
    "peak_w": (QT_TRANSLATE_NOOP("numbers", "Peak power"), "W"),
    "per_gpu_batch": (QT_TRANSLATE_NOOP("numbers", "Batch per GPU"), ""),
    "per_watt": (QT_TRANSLATE_NOOP("numbers", "Throughput per 100 W"), ""),
    "placed": (QT_TRANSLATE_NOOP("numbers", "GPUs placed"), ""),
    "platform_w": (QT_TRANSLATE_NOOP("numbers", "Board, memory, drives and fans"), "W"),
    "precision": (QT_TRANSLATE_NOOP("numbers", "Precision"), ""),
    "psu_16pin": (QT_TRANSLATE_NOOP("numbers", "16-pin cables of the PSU"), ""),
    "psu_8pin": (QT_TRANSLATE_NOOP("numbers", "8-pin PCIe cables of the PSU"), ""),
    "psu_eps": (QT_TRANSLATE_NOOP("numbers", "8-pin EPS cables of the PSU"), ""),
    "psu_w": (QT_TRANSLATE_NOOP("numbers", "PSU rating"), "W"),
    "published": (QT_TRANSLATE_NOOP("numbers", "Published figure"), ""),
    "published_id": (QT_TRANSLATE_NOOP("numbers", "Published measurement"), ""),
    "pytorch": (QT_TRANSLATE_NOOP("numbers", "PyTorch builds"), ""),
    "ram_gb": (QT_TRANSLATE_NOOP("numbers", "RAM installed"), "GiB"),
    "ratio": (QT_TRANSLATE_NOOP("numbers", "Ratio"), "×"),
    "rdimm": (QT_TRANSLATE_NOOP("numbers", "Registered (RDIMM)"), ""),
    "recommended_gb": (QT_TRANSLATE_NOOP("numbers", "Recommended VRAM"), "GiB"),
    "ref": (QT_TRANSLATE_NOOP("numbers", "Reference"), ""),
    "reference_cny": (QT_TRANSLATE_NOOP("numbers", "The guide's price"), "¥"),
    "reference_measured": (QT_TRANSLATE_NOOP("numbers", "Measured"), ""),
    "reference_theory": (QT_TRANSLATE_NOOP("numbers", "In theory"), ""),
    "sharding": (QT_TRANSLATE_NOOP("numbers", "Sharding"), ""),
    "slot": (QT_TRANSLATE_NOOP("numbers", "Slot"), ""),
    "slots": (QT_TRANSLATE_NOOP("numbers", "Memory slots"), ""),
    "sockets": (QT_TRANSLATE_NOOP("numbers", "Sockets"), ""),
    "source": (QT_TRANSLATE_NOOP("numbers", "Source"), ""),
    "source_url": (QT_TRANSLATE_NOOP("numbers", "Source"), ""),
    "sustained_w": (QT_TRANSLATE_NOOP("numbers", "Sustained power"), "W"),
    "threads": (QT_TRANSLATE_NOOP("numbers", "Threads"), ""),
    "tolerance": (QT_TRANSLATE_NOOP("numbers", "The model's error"), "%"),
    "total_cny": (QT_TRANSLATE_NOOP("numbers", "Total price"), "¥"),
    "total_gb": (QT_TRANSLATE_NOOP("numbers", "Total storage"), "GB"),
    "transient_w": (QT_TRANSLATE_NOOP("numbers", "Transient headroom"), "W"),
    "unit": (QT_TRANSLATE_NOOP("numbers", "Unit"), ""),
    "vendor_psu_w": (QT_TRANSLATE_NOOP("numbers", "PSU the card's maker recommends"), "W"),
    "verdict": (QT_TRANSLATE_NOOP("numbers", "Verdict"), ""),
    "vram_gb": (QT_TRANSLATE_NOOP("numbers", "VRAM"), "GiB"),
    "vram_gib": (QT_TRANSLATE_NOOP("numbers", "VRAM"), "GiB"),
    "x16_slots": (QT_TRANSLATE_NOOP("numbers", "x16 slots"), ""),
    # the parts of a breakdown (breakdown_gib, parts_gb)
    "weights": (QT_TRANSLATE_NOOP("numbers", "weights"), ""),
    "gradients": (QT_TRANSLATE_NOOP("numbers", "gradients"), ""),
    "optimizer": (QT_TRANSLATE_NOOP("numbers", "optimizer states"), ""),
    "activations": (QT_TRANSLATE_NOOP("numbers", "saved activations"), ""),
    "base": (QT_TRANSLATE_NOOP("numbers", "OS and libraries"), ""),
    "dataloader": (QT_TRANSLATE_NOOP("numbers", "DataLoader prefetch"), ""),
    "autocast_copies": (QT_TRANSLATE_NOOP("numbers", "autocast's weight copies"), ""),
    "logits": (QT_TRANSLATE_NOOP("numbers", "logits and their gradients"), ""),
    "recompute": (QT_TRANSLATE_NOOP("numbers", "recomputed layer"), ""),
    "kv_cache": (QT_TRANSLATE_NOOP("numbers", "KV cache"), ""),
    "margin": (QT_TRANSLATE_NOOP("numbers", "allocator margin"), ""),
    "context": (QT_TRANSLATE_NOOP("numbers", "CUDA context"), ""),
    "display": (QT_TRANSLATE_NOOP("numbers", "display"), ""),
    "total": (QT_TRANSLATE_NOOP("numbers", "total"), ""),
    "low": (QT_TRANSLATE_NOOP("numbers", "low end"), ""),
    "high": (QT_TRANSLATE_NOOP("numbers", "high end"), ""),
}

# Words that are values of the numbers (a verdict, where lanes come from) and units that are words.
VALUE_WORDS: dict[str, str] = {
    "fits": QT_TRANSLATE_NOOP("numbers", "fits"),
    "tight": QT_TRANSLATE_NOOP("numbers", "tight"),
    "does_not_fit": QT_TRANSLATE_NOOP("numbers", "does not fit"),
    "cpu": QT_TRANSLATE_NOOP("numbers", "CPU"),
    "chipset": QT_TRANSLATE_NOOP("numbers", "chipset"),
    "none": QT_TRANSLATE_NOOP("numbers", "none"),
    "full": QT_TRANSLATE_NOOP("numbers", "full"),
    "months": QT_TRANSLATE_NOOP("numbers", "months"),
    "h": QT_TRANSLATE_NOOP("numbers", "h"),
}

# A key's unit from its suffix, for keys not in the table (longest suffix first).
_SUFFIX_UNITS = (("_cny_per_month", "¥"), ("_cny_per_kwh", "¥"), ("_cny", "¥"), ("_mbs", "MB/s"),
                 ("_gbs", "GB/s"), ("_gib", "GiB"), ("_ghz", "GHz"), ("_gb", "GB"), ("_mb", "MB"),
                 ("_mm", "mm"), ("_w", "W"))


def number_label(key: str) -> tuple[str, str]:
    """(label, unit) of a finding's number: the label is translatable in the context "numbers"."""
    if key in NUMBER_LABELS:
        return NUMBER_LABELS[key]
    for suffix, unit in _SUFFIX_UNITS:
        if key.endswith(suffix):
            return key[: -len(suffix)].replace("_", " ").capitalize() or key, unit
    return key.replace("_", " ").capitalize(), ""


def format_number(value: object, unit: str, words: dict[str, str] | None = None) -> str:
    """A number as people read it, with its unit: ``¥1,234``, ``850 W``, ``30 %``; lists and mappings
    item by item. ``words`` turns keys, word values and word units into people's words (translated)."""
    names = words or {}
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return names.get(str(value), str(value)) if value is not None else "—"
    if isinstance(value, dict):
        return ", ".join(f"{names.get(str(k), str(k))} {format_number(v, unit, words)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(format_number(v, unit, words) for v in value)
    if not isinstance(value, (int, float)):
        return str(value)
    if unit == "%":
        return f"{value:.0%}".replace("%", " %")
    number = f"{value:,}" if isinstance(value, int) else (
        f"{value:,.0f}" if abs(value) >= 1000 else f"{value:,.3g}" if abs(value) < 100 else f"{value:,.1f}")
    if unit == "¥":
        return f"¥{number}"
    if unit == "×":
        return f"{number}×"
    return f"{number} {names.get(unit, unit)}".strip()


# The units of the estimates, as people read them ("units"); "{unit} per ¥1000" is built from one.
UNIT_WORDS: dict[str, str] = {
    "img/s": QT_TRANSLATE_NOOP("units", "img/s"),
    "images/s": QT_TRANSLATE_NOOP("units", "images/s"),
    "tokens/s": QT_TRANSLATE_NOOP("units", "tokens/s"),
    "sequences/s": QT_TRANSLATE_NOOP("units", "sequences/s"),
    "samples": QT_TRANSLATE_NOOP("units", "samples"),
    "requests": QT_TRANSLATE_NOOP("units", "requests"),
    "requests/s": QT_TRANSLATE_NOOP("units", "requests/s"),
    # published vision timings, as their sources print them (core.measurements.SECONDS_UNITS)
    "s/iter": QT_TRANSLATE_NOOP("units", "s/iter"),
    "s/image": QT_TRANSLATE_NOOP("units", "s/image"),
}
_PER_KCNY = " per ¥1000"
_PER_KCNY_TEMPLATE = QT_TRANSLATE_NOOP("units", "{unit} per ¥1000")


def unit_text(unit: str, translate: Callable[[str, str], str] | None = None) -> str:
    """An estimate's unit in the reader's language ("tokens/s per ¥1000" → "tokens/s（每 ¥1000）")."""
    if translate is None:
        return unit
    if unit.endswith(_PER_KCNY):
        base = unit[: -len(_PER_KCNY)]
        return fill(translate("units", _PER_KCNY_TEMPLATE), unit=unit_text(base, translate))
    return translate("units", UNIT_WORDS[unit]) if unit in UNIT_WORDS else unit


def unit_message(unit: str) -> Message | str:
    """A unit as a message parameter: translated where the message is shown (a unit not listed stays)."""
    if unit.endswith(_PER_KCNY):
        return Message("units", _PER_KCNY_TEMPLATE, {"unit": unit_message(unit[: -len(_PER_KCNY)])})
    return Message("units", UNIT_WORDS[unit]) if unit in UNIT_WORDS else unit


def word_message(value: str) -> Message | str:
    """A word value (``none``, ``full``, ``tight``) as a message parameter, translated where shown."""
    return Message("numbers", VALUE_WORDS[value]) if value in VALUE_WORDS else value


# -- an estimate's figure and its range, at a precision that suits their size (the CLI, the planner, the PDF) ----

def decimals(value: float) -> int:
    """Decimals that show a figure to about two significant digits below 10, whole numbers from 10."""
    v = abs(value)
    if v >= 10 or v == 0 or not math.isfinite(v):
        return 0
    if v >= 1:
        return 1
    return min(-math.floor(math.log10(v)) + 1, 6)


def figure(value: float, digits: int | None = None) -> str:
    """``value`` with thousands separators at ``digits`` decimals (by default as :func:`decimals` says)."""
    return f"{value:,.{decimals(value) if digits is None else digits}f}"


def _digits(value: float) -> int:
    """The decimals :func:`value_text` shows ``value`` at."""
    return 0 if abs(value) >= 100 else decimals(value) + 1


def value_text(value: float) -> str:
    """An estimate's central figure: one decimal more than its range below 100 (36.9 ms, 0.30 img/s, 0.031
    img/s), whole numbers from 100 (1,176 tokens/s)."""
    return figure(value, _digits(value))


def range_text(low: float | None, high: float | None, whole: bool = False) -> str | None:
    """``low–high`` at the precision :func:`value_text` gives the wider end (0.0156–0.0624 img/s, 3.61–8.19
    requests/s, 42.8–97.1 ms, 94–303 ms); ``whole``: whole numbers (counts: 52–77 requests). None where there is
    no range, or where both ends read the same (256–256 requests: a runtime's batch limit at every end of its
    memory range says nothing a range would)."""
    if low is None or high is None:
        return None
    digits = 0 if whole else min(_digits(low), _digits(high))
    first, last = figure(low, digits), figure(high, digits)
    return None if first == last else f"{first}–{last}"
