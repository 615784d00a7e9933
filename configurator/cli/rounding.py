"""The numbers of the command line's JSON, rounded to what they mean.

The core, the monitor and the benchmarks keep full precision (a sum of watts is 51.00000000001239,
a load average 1.06298828125); a program reading ``--json`` wants 51.0 and 1.06. :func:`tidy` is
applied where the CLI writes a JSON document (``Cli.emit_json`` and its streaming siblings): it walks
the document and rounds every float by the display precision declared for it
(core/schema_precision.py), and by nothing else:

* the precision declared for its key: a record's field metadata (a part's ``fp32_tflops``, a build
  file's ``hours_per_day``) or the table of the output it is in (a monitor sample's ``power_w``, a
  finding's ``breakdown_gib``, a report's ``cost_cny``: :data:`~configurator.core.schema_precision.DECLARED`);
* for ``value``, ``low`` and ``high`` of an estimate, the precision its estimate key declares
  (:data:`~configurator.core.schema_precision.ESTIMATES`); for ``value``, ``median``, ``iqr``, ``low`` and
  ``high`` beside another ``unit`` (a benchmark's row, a published measurement), that unit's
  (:data:`~configurator.core.schema_precision.UNITS`);
* a float under a declared key, or under an object that declares one of those (an estimate's
  ``inputs``: ``breakdown_gib: {"weights": …}`` are GiB), takes that precision where it declares none
  of its own.

A float with no declaration is shown with :data:`~configurator.core.schema_precision.FIGURE` (2 decimals, 4
significant figures) and reported by :func:`undeclared`: tests/cli/test_cli_json_numbers.py walks every
command's output and fails on one. Rounding never turns a number into a string; prices, byte counts and
clocks become integers. A catalogue spec (``fp32_tflops: 35.58``) is never changed: each declared
precision keeps at least the digits a spec sheet gives.
"""

from __future__ import annotations

from typing import Any

from configurator.core.schema_precision import DECLARED, ESTIMATES, FIGURE, Precision, unit_precision

__all__ = ["DEFAULT", "Precision", "rule_for_key", "rule_for_unit", "tidy", "undeclared"]

DEFAULT = FIGURE

# The keys a ``unit`` beside them declares the precision of
UNIT_VALUES = frozenset({"value", "median", "iqr", "low", "high"})


def rule_for_key(key: str) -> Precision | None:
    """The precision declared for this key; None where none is."""
    return DECLARED.get(key)


def rule_for_unit(unit: Any, estimate_key: Any = None) -> Precision | None:
    """The precision an estimate's key declares for its value (else its unit's); None where neither does."""
    if estimate_key is not None:
        found = ESTIMATES.get(estimate_key) if type(estimate_key) is str else None
        if found is not None:
            return found
    return unit_precision(unit)


def undeclared(doc: Any) -> list[str]:
    """The paths of the floats in ``doc`` that no declaration gives a precision (``.gpus[0].power_w``)."""
    found: list[str] = []
    tidy(doc, None, found)
    return found


def tidy(doc: Any, inherited: Precision | None = None, missing: list[str] | None = None, path: str = "") -> Any:
    """``doc`` with every float rounded to its quantity. ``doc`` is not changed: an object or array
    holding a float to round is copied (one holding none is returned as it is, which keeps
    ``parts list --json`` of 100,000 parts quick). Strings, ints, booleans and None stay as they are.
    ``missing``: where given, the path of each float nothing declares is appended to it."""
    kind = type(doc)
    if kind is dict:
        return _tidy_dict(doc, inherited, missing, path)
    if kind is list or kind is tuple:
        return _tidy_list(doc, inherited, missing, path)
    if kind is float:
        if inherited is None:
            if missing is not None:
                missing.append(path)
            return DEFAULT(doc)
        return inherited(doc)
    return doc


def _tidy_list(items: list[Any] | tuple[Any, ...], inherited: Precision | None, missing: list[str] | None,
               path: str) -> list[Any]:
    out: list[Any] | None = None
    for i, value in enumerate(items):
        kind = type(value)
        if kind is float or kind is dict or kind is list or kind is tuple:
            new = tidy(value, inherited, missing, f"{path}[{i}]" if missing is not None else path)
            if out is None:
                if new is value and kind is not tuple:
                    continue
                out = list(items)
            out[i] = new
    if out is None:
        return list(items) if isinstance(items, tuple) else items
    return out


_PLAIN = frozenset({str, int, bool, type(None)})
_UNSET = Precision(decimals=-1)  # the unit's precision, not looked up yet


def _tidy_dict(d: dict[str, Any], inherited: Precision | None, missing: list[str] | None,
               path: str) -> dict[str, Any]:
    plain = _PLAIN
    keys = [k for k, v in d.items() if type(v) not in plain]  # floats and containers: few, if any
    if not keys:
        return d
    out: dict[str, Any] | None = None
    unit_rule: Precision | None = _UNSET
    for key in keys:
        value = d[key]
        kind = type(value)
        where = f"{path}.{key}" if missing is not None else path
        if kind is float:
            if key in UNIT_VALUES and "unit" in d:
                if unit_rule is _UNSET:
                    unit_rule = rule_for_unit(d["unit"], d.get("key"))
                rule = unit_rule
            else:
                rule = DECLARED.get(key) if type(key) is str else None
            rule = rule or inherited
            if rule is None:
                if missing is not None:
                    missing.append(where)
                rule = DEFAULT
            new: Any = rule(value)
            if new == value and type(new) is float:
                continue
        elif kind is dict or kind is list or kind is tuple:
            rule = DECLARED.get(key) if type(key) is str else None
            if rule is None and "unit" in d:
                if unit_rule is _UNSET:
                    unit_rule = rule_for_unit(d["unit"], d.get("key"))
                rule = unit_rule
            new = tidy(value, rule or inherited, missing, where)
            if new is value:
                continue
        else:
            continue  # another type (a subclass of int or str): json.dumps decides
        if out is None:
            out = dict(d)
        out[key] = new
    return d if out is None else out
