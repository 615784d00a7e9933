"""The numbers of the command line's JSON, rounded to what they mean.

The core, the monitor and the benchmarks keep full precision (a sum of watts is 51.00000000001239,
a load average 1.06298828125); a program reading ``--json`` wants 51.0 and 1.06. :func:`tidy` is
applied where the CLI writes a JSON document (``Cli.emit_json`` and its streaming siblings): it walks
the document and rounds every float by the quantity it holds, found from

* the precision the field of that name declares, where a record declares it (a part's ``fp32_tflops``,
  a build file's ``hours_per_day``: core/schema_precision.py's :data:`DECLARED`, registered by the records
  of core/parts.py and core/schema_build.py);
* else its key's name: the suffix says the unit (``power_w``, ``vram_gib``, ``price_cny``,
  ``cpu_percent``, ``pcie_rx_bytes_per_s`` …, :data:`KEY_RULES`), or the whole key does
  (``throughput``, ``load_1m``, ``params``, :data:`KEY_NAMES`);
* for ``value``, ``median``, ``iqr``, ``low`` and ``high``, the ``unit`` beside them in the same
  object (a benchmark row, an estimate: :data:`UNIT_RULES`);
* a key it does not know inside an object or array under a known key takes that key's rule
  (``breakdown_gib: {"weights": …}`` are GiB);
* a float nested under an object with a ``unit`` takes that unit's rule (an estimate's ``inputs``);
* anything else: :data:`DEFAULT` (2 decimals, at least 4 significant figures), so that no float is
  ever printed with noise digits.

Rounding never turns a number into a string; prices, byte counts and clocks become integers. A
catalogue spec (``fp32_tflops: 35.58``, ``base_ghz: 2.45``) is never changed: each rule keeps at
least the digits a spec sheet gives (tests/test_cli_json_numbers.py checks the shipped catalogue).
"""

from __future__ import annotations

from typing import Any

from configurator.core.schema_precision import (
    CNY,
    COUNT,
    DECIMAL_1,
    DECLARED,
    FRACTION,
    GHZ,
    MB,
    MHZ,
    MM,
    SIZES,
    TARIFF,
    THROUGHPUT,
    WATTS,
    Precision,
)

__all__ = ["DEFAULT", "Precision", "rule_for_key", "rule_for_unit", "tidy"]


PERCENT = Precision(decimals=1, significant=2)  # 0.55 % of a core stays 0.55
CELSIUS = Precision(decimals=1)
BYTES = Precision(integer=True)  # byte counts and byte rates
LOAD = Precision(decimals=2)  # load averages
SECONDS = Precision(decimals=1, significant=3)  # durations
MILLISECONDS = Precision(decimals=2, significant=3)
DEFAULT = Precision(decimals=2, significant=4)

# Key suffixes, longest first where one ends another (``_cny_per_kwh`` before ``_cny``).
KEY_RULES: tuple[tuple[str, Precision], ...] = (
    ("_cny_per_kwh", TARIFF),
    ("_cny_per_month", CNY),
    ("_bytes_per_s", BYTES),
    ("_percent", PERCENT),
    ("_bytes", BYTES),
    ("_tflops", THROUGHPUT),
    ("_tops", THROUGHPUT),
    ("_gbs", THROUGHPUT),  # GB/s
    ("_mbs", MB),  # MB/s
    ("_iops", COUNT),
    ("_cny", CNY),
    ("_gib", SIZES),
    ("_gb", SIZES),
    ("_mib", COUNT),
    ("_mb", MB),
    ("_mhz", MHZ),
    ("_mts", MHZ),
    ("_ghz", GHZ),
    ("_mm", MM),
    ("_ms", MILLISECONDS),
    ("_s", SECONDS),
    ("_w", WATTS),
    ("_c", CELSIUS),
    ("_error", FRACTION),
)

KEY_NAMES: dict[str, Precision] = {
    "throughput": THROUGHPUT, "per_watt": THROUGHPUT, "speedup": FRACTION, "share": FRACTION, "load": FRACTION,
    "efficiency": FRACTION, "e_tc": FRACTION, "e_bw": FRACTION, "e_conv": FRACTION, "e_simt": FRACTION,
    "load_1m": LOAD, "load_5m": LOAD, "load_15m": LOAD,
    "params": COUNT, "batch": COUNT, "seconds": SECONDS, "time": Precision(decimals=3),
    "months": DECIMAL_1, "hours_per_day": DECIMAL_1,  # a part's slot_width: declared (core/parts.py)
}

UNIT_RULES: dict[str, Precision] = {
    "W": WATTS, "GiB": SIZES, "GB": SIZES, "CNY": CNY, "¥": CNY, "%": PERCENT, "": FRACTION,
    "samples": COUNT, "ms": MILLISECONDS, "s": SECONDS, "°C": CELSIUS,
}
# Any other unit with a "/" (img/s, tokens/s, GB/s, "img/s per ¥1000") or TFLOPS is a rate.
UNIT_VALUES = frozenset({"value", "median", "iqr", "low", "high"})

_cache: dict[str, Precision | None] = {}


def rule_for_key(key: str) -> Precision | None:
    """The precision a record's field of this name declares, else the rule its name's suffix gives, or None
    when the name says nothing about its unit."""
    declared = DECLARED.get(key)
    if declared is not None:
        return declared
    try:
        return _cache[key]
    except KeyError:
        pass
    found = KEY_NAMES.get(key)
    if found is None:
        found = next((rule for suffix, rule in KEY_RULES if key.endswith(suffix)), None)
    _cache[key] = found
    return found


def rule_for_unit(unit: Any) -> Precision:
    if not isinstance(unit, str):
        return DEFAULT
    found = UNIT_RULES.get(unit)
    if found is not None:
        return found
    if unit.startswith("ratio"):  # a published "ratio_to:GPU"
        return FRACTION
    return THROUGHPUT if "/" in unit or unit.endswith(("FLOPS", "OPS")) else DEFAULT


def tidy(doc: Any, inherited: Precision | None = None) -> Any:
    """``doc`` with every float rounded to its quantity. ``doc`` is not changed: an object or array
    holding a float to round is copied (one holding none is returned as it is, which keeps
    ``parts list --json`` of 100,000 parts quick). Strings, ints, booleans and None stay as they are."""
    kind = type(doc)
    if kind is dict:
        return _tidy_dict(doc, inherited)
    if kind is list or kind is tuple:
        return _tidy_list(doc, inherited)
    if kind is float:
        return (inherited or DEFAULT)(doc)
    return doc


def _tidy_list(items: list[Any] | tuple[Any, ...], inherited: Precision | None) -> list[Any]:
    out: list[Any] | None = None
    for i, value in enumerate(items):
        kind = type(value)
        if kind is float or kind is dict or kind is list or kind is tuple:
            new = tidy(value, inherited)
            if out is None:
                if new is value and kind is not tuple:
                    continue
                out = list(items)
            out[i] = new
    if out is None:
        return list(items) if isinstance(items, tuple) else items
    return out


_PLAIN = frozenset({str, int, bool, type(None)})


def _tidy_dict(d: dict[str, Any], inherited: Precision | None) -> dict[str, Any]:
    plain = _PLAIN
    keys = [k for k, v in d.items() if type(v) not in plain]  # floats and containers: few, if any
    if not keys:
        return d
    out: dict[str, Any] | None = None
    unit_rule: Precision | None = None
    for key in keys:
        value = d[key]
        kind = type(value)
        if kind is float:
            if key in UNIT_VALUES and "unit" in d:
                if unit_rule is None:
                    unit_rule = rule_for_unit(d["unit"])
                new: Any = unit_rule(value)
            else:
                new = ((rule_for_key(key) if type(key) is str else None) or inherited or DEFAULT)(value)
            if new == value and type(new) is float:
                continue
        elif kind is dict or kind is list or kind is tuple:
            rule = rule_for_key(key) if type(key) is str else None
            if rule is None and "unit" in d:
                if unit_rule is None:
                    unit_rule = rule_for_unit(d["unit"])
                rule = unit_rule
            new = tidy(value, rule or inherited)
            if new is value:
                continue
        else:
            continue  # another type (a subclass of int or str): json.dumps decides
        if out is None:
            out = dict(d)
        out[key] = new
    return d if out is None else out
