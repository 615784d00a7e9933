"""What the numbers behind a finding are called and in which unit they are, for people.

A finding keeps its numbers under stable keys (``peak_w``; JSON shows them as they are); the planner
shows each with a translated label and its unit. A key not listed here still gets its unit from its
suffix and words from its name, so a new rule's numbers are never shown as bare keys."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP

_N = "numbers"
# key: (label, unit). Units: "¥" (before the number), "W", "GB" (decimal), "GiB", "mm", "MB/s", "GB/s",
# "GHz", "MB", "%" (a fraction shown as a percentage), "×" (a ratio), "" (a count or a word).
NUMBER_LABELS: dict[str, tuple[str, str]] = {
    "adapter_8pin": (QT_TRANSLATE_NOOP(_N, "8-pin inputs of the card's adapter"), ""),
    "batch": (QT_TRANSLATE_NOOP(_N, "Batch per GPU"), ""),
    "best_seq_read_mbs": (QT_TRANSLATE_NOOP(_N, "Fastest drive's sequential read"), "MB/s"),
    "board_form_factor": (QT_TRANSLATE_NOOP(_N, "Board form factor"), ""),
    "board_socket": (QT_TRANSLATE_NOOP(_N, "Board socket"), ""),
    "board_type": (QT_TRANSLATE_NOOP(_N, "Board memory type"), ""),
    "board_year": (QT_TRANSLATE_NOOP(_N, "Board launch year"), ""),
    "boost_ghz": (QT_TRANSLATE_NOOP(_N, "Boost clock"), "GHz"),
    "breakdown_gib": (QT_TRANSLATE_NOOP(_N, "VRAM by use"), "GiB"),
    "budget_cny": (QT_TRANSLATE_NOOP(_N, "Budget"), "¥"),
    "card_gen": (QT_TRANSLATE_NOOP(_N, "Card's PCIe generation"), ""),
    "case_form_factors": (QT_TRANSLATE_NOOP(_N, "Boards the case takes"), ""),
    "case_max_mm": (QT_TRANSLATE_NOOP(_N, "Longest card the case takes"), "mm"),
    "case_slots": (QT_TRANSLATE_NOOP(_N, "Case expansion slots"), ""),
    "checked": (QT_TRANSLATE_NOOP(_N, "Checked"), ""),
    "cloud_cny_per_month": (QT_TRANSLATE_NOOP(_N, "Cloud rent per month"), "¥"),
    "compute_capability": (QT_TRANSLATE_NOOP(_N, "Compute capability"), ""),
    "cores": (QT_TRANSLATE_NOOP(_N, "Cores"), ""),
    "covers": (QT_TRANSLATE_NOOP(_N, "Slot positions covered"), ""),
    "cpu_socket": (QT_TRANSLATE_NOOP(_N, "CPU socket"), ""),
    "cpu_types": (QT_TRANSLATE_NOOP(_N, "CPU memory types"), ""),
    "cpu_w": (QT_TRANSLATE_NOOP(_N, "CPU power"), "W"),
    "cpu_year": (QT_TRANSLATE_NOOP(_N, "CPU launch year"), ""),
    "cpus": (QT_TRANSLATE_NOOP(_N, "CPUs"), ""),
    "display_gpu": (QT_TRANSLATE_NOOP(_N, "First GPU drives the display"), ""),
    "draw_w": (QT_TRANSLATE_NOOP(_N, "Draw while training"), "W"),
    "driver_per_cuda_major": (QT_TRANSLATE_NOOP(_N, "Minimum driver per CUDA version"), ""),
    "ecc": (QT_TRANSLATE_NOOP(_N, "ECC"), ""),
    "electricity_cny_per_kwh": (QT_TRANSLATE_NOOP(_N, "Electricity per kWh"), "¥"),
    "electricity_cny_per_month": (QT_TRANSLATE_NOOP(_N, "Electricity per month"), "¥"),
    "eps_needed": (QT_TRANSLATE_NOOP(_N, "8-pin EPS inputs needed"), ""),
    "fast_gb": (QT_TRANSLATE_NOOP(_N, "Fast (NVMe) storage"), "GB"),
    "finetune": (QT_TRANSLATE_NOOP(_N, "Fine-tuning"), ""),
    "first_cuda": (QT_TRANSLATE_NOOP(_N, "First CUDA version"), ""),
    "first_driver": (QT_TRANSLATE_NOOP(_N, "First driver"), ""),
    "first_principles_gb": (QT_TRANSLATE_NOOP(_N, "RAM need (first principles)"), "GB"),
    "from": (QT_TRANSLATE_NOOP(_N, "Lanes from"), ""),
    "gen": (QT_TRANSLATE_NOOP(_N, "PCIe generation"), ""),
    "gfx_target": (QT_TRANSLATE_NOOP(_N, "GFX target"), ""),
    "global_batch": (QT_TRANSLATE_NOOP(_N, "Global batch"), ""),
    "gpu": (QT_TRANSLATE_NOOP(_N, "GPU"), ""),
    "gpu_16pin": (QT_TRANSLATE_NOOP(_N, "16-pin inputs on the GPUs"), ""),
    "gpu_8pin": (QT_TRANSLATE_NOOP(_N, "8-pin inputs on the GPUs"), ""),
    "gpu_length_mm": (QT_TRANSLATE_NOOP(_N, "GPU length"), "mm"),
    "gpu_w": (QT_TRANSLATE_NOOP(_N, "GPU power"), "W"),
    "gpus": (QT_TRANSLATE_NOOP(_N, "GPUs"), ""),
    "guide": (QT_TRANSLATE_NOOP(_N, "The guide's figure"), ""),
    "guide_batch": (QT_TRANSLATE_NOOP(_N, "The guide's batch"), ""),
    "guide_formula_gb": (QT_TRANSLATE_NOOP(_N, "RAM need (the guide's formula)"), "GB"),
    "guide_id": (QT_TRANSLATE_NOOP(_N, "The guide's measurement"), ""),
    "guide_psu_w": (QT_TRANSLATE_NOOP(_N, "PSU the guide asks for"), "W"),
    "high_gib": (QT_TRANSLATE_NOOP(_N, "High end"), "GiB"),
    "hours_per_day": (QT_TRANSLATE_NOOP(_N, "Hours per day"), "h"),
    "kit_type": (QT_TRANSLATE_NOOP(_N, "Memory kit type"), ""),
    "l3_mb": (QT_TRANSLATE_NOOP(_N, "L3 cache"), "MB"),
    "lanes": (QT_TRANSLATE_NOOP(_N, "Lanes"), ""),
    "left_cny": (QT_TRANSLATE_NOOP(_N, "Left of the budget"), "¥"),
    "low_gib": (QT_TRANSLATE_NOOP(_N, "Low end"), "GiB"),
    "lowest_position": (QT_TRANSLATE_NOOP(_N, "Lowest slot position used"), ""),
    "max_gb": (QT_TRANSLATE_NOOP(_N, "Board's maximum memory"), "GiB"),
    "max_gpus": (QT_TRANSLATE_NOOP(_N, "GPUs per NVLink group"), ""),
    "modules": (QT_TRANSLATE_NOOP(_N, "Memory modules"), ""),
    "months": (QT_TRANSLATE_NOOP(_N, "Months to break even"), "months"),
    "need_gib": (QT_TRANSLATE_NOOP(_N, "VRAM need"), "GiB"),
    "nvlink_gbs": (QT_TRANSLATE_NOOP(_N, "NVLink bandwidth"), "GB/s"),
    "offload": (QT_TRANSLATE_NOOP(_N, "Offload"), ""),
    "parallel": (QT_TRANSLATE_NOOP(_N, "Model parallelism"), ""),
    "params_m": (QT_TRANSLATE_NOOP(_N, "Parameters (millions)"), ""),
    "part": (QT_TRANSLATE_NOOP(_N, "Part"), ""),
    "parts_gb": (QT_TRANSLATE_NOOP(_N, "RAM by use"), "GB"),
    "peak_w": (QT_TRANSLATE_NOOP(_N, "Peak power"), "W"),
    "per_gpu_batch": (QT_TRANSLATE_NOOP(_N, "Batch per GPU"), ""),
    "per_watt": (QT_TRANSLATE_NOOP(_N, "Throughput per 100 W"), ""),
    "placed": (QT_TRANSLATE_NOOP(_N, "GPUs placed"), ""),
    "platform_w": (QT_TRANSLATE_NOOP(_N, "Board, memory, drives and fans"), "W"),
    "precision": (QT_TRANSLATE_NOOP(_N, "Precision"), ""),
    "psu_16pin": (QT_TRANSLATE_NOOP(_N, "16-pin cables of the PSU"), ""),
    "psu_8pin": (QT_TRANSLATE_NOOP(_N, "8-pin PCIe cables of the PSU"), ""),
    "psu_eps": (QT_TRANSLATE_NOOP(_N, "8-pin EPS cables of the PSU"), ""),
    "psu_w": (QT_TRANSLATE_NOOP(_N, "PSU rating"), "W"),
    "published": (QT_TRANSLATE_NOOP(_N, "Published figure"), ""),
    "published_id": (QT_TRANSLATE_NOOP(_N, "Published measurement"), ""),
    "pytorch": (QT_TRANSLATE_NOOP(_N, "PyTorch builds"), ""),
    "ram_gb": (QT_TRANSLATE_NOOP(_N, "RAM installed"), "GiB"),
    "ratio": (QT_TRANSLATE_NOOP(_N, "Ratio"), "×"),
    "rdimm": (QT_TRANSLATE_NOOP(_N, "Registered (RDIMM)"), ""),
    "recommended_gb": (QT_TRANSLATE_NOOP(_N, "Recommended VRAM"), "GiB"),
    "ref": (QT_TRANSLATE_NOOP(_N, "Reference"), ""),
    "reference_cny": (QT_TRANSLATE_NOOP(_N, "The guide's price"), "¥"),
    "reference_measured": (QT_TRANSLATE_NOOP(_N, "Measured"), ""),
    "reference_theory": (QT_TRANSLATE_NOOP(_N, "In theory"), ""),
    "sharding": (QT_TRANSLATE_NOOP(_N, "Sharding"), ""),
    "slot": (QT_TRANSLATE_NOOP(_N, "Slot"), ""),
    "slots": (QT_TRANSLATE_NOOP(_N, "Memory slots"), ""),
    "sockets": (QT_TRANSLATE_NOOP(_N, "Sockets"), ""),
    "source": (QT_TRANSLATE_NOOP(_N, "Source"), ""),
    "source_url": (QT_TRANSLATE_NOOP(_N, "Source"), ""),
    "sustained_w": (QT_TRANSLATE_NOOP(_N, "Sustained power"), "W"),
    "threads": (QT_TRANSLATE_NOOP(_N, "Threads"), ""),
    "tolerance": (QT_TRANSLATE_NOOP(_N, "The model's error"), "%"),
    "total_cny": (QT_TRANSLATE_NOOP(_N, "Total price"), "¥"),
    "total_gb": (QT_TRANSLATE_NOOP(_N, "Total storage"), "GB"),
    "transient_w": (QT_TRANSLATE_NOOP(_N, "Transient headroom"), "W"),
    "unit": (QT_TRANSLATE_NOOP(_N, "Unit"), ""),
    "vendor_psu_w": (QT_TRANSLATE_NOOP(_N, "PSU the card's maker recommends"), "W"),
    "verdict": (QT_TRANSLATE_NOOP(_N, "Verdict"), ""),
    "vram_gb": (QT_TRANSLATE_NOOP(_N, "VRAM"), "GiB"),
    "vram_gib": (QT_TRANSLATE_NOOP(_N, "VRAM"), "GiB"),
    "x16_slots": (QT_TRANSLATE_NOOP(_N, "x16 slots"), ""),
    # the parts of a breakdown (breakdown_gib, parts_gb)
    "weights": (QT_TRANSLATE_NOOP(_N, "weights"), ""),
    "gradients": (QT_TRANSLATE_NOOP(_N, "gradients"), ""),
    "optimizer": (QT_TRANSLATE_NOOP(_N, "optimizer states"), ""),
    "activations": (QT_TRANSLATE_NOOP(_N, "saved activations"), ""),
    "base": (QT_TRANSLATE_NOOP(_N, "OS and libraries"), ""),
    "dataloader": (QT_TRANSLATE_NOOP(_N, "DataLoader prefetch"), ""),
    "autocast_copies": (QT_TRANSLATE_NOOP(_N, "autocast's weight copies"), ""),
    "logits": (QT_TRANSLATE_NOOP(_N, "logits and their gradients"), ""),
    "recompute": (QT_TRANSLATE_NOOP(_N, "recomputed layer"), ""),
    "kv_cache": (QT_TRANSLATE_NOOP(_N, "KV cache"), ""),
    "margin": (QT_TRANSLATE_NOOP(_N, "allocator margin"), ""),
    "context": (QT_TRANSLATE_NOOP(_N, "CUDA context"), ""),
    "display": (QT_TRANSLATE_NOOP(_N, "display"), ""),
    "total": (QT_TRANSLATE_NOOP(_N, "total"), ""),
    "low": (QT_TRANSLATE_NOOP(_N, "low end"), ""),
    "high": (QT_TRANSLATE_NOOP(_N, "high end"), ""),
}

# Words that are values of the numbers (a verdict, where lanes come from) and units that are words.
VALUE_WORDS: dict[str, str] = {
    "fits": QT_TRANSLATE_NOOP(_N, "fits"),
    "tight": QT_TRANSLATE_NOOP(_N, "tight"),
    "does_not_fit": QT_TRANSLATE_NOOP(_N, "does not fit"),
    "cpu": QT_TRANSLATE_NOOP(_N, "CPU"),
    "chipset": QT_TRANSLATE_NOOP(_N, "chipset"),
    "none": QT_TRANSLATE_NOOP(_N, "none"),
    "full": QT_TRANSLATE_NOOP(_N, "full"),
    "months": QT_TRANSLATE_NOOP(_N, "months"),
    "h": QT_TRANSLATE_NOOP(_N, "h"),
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
