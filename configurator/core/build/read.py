"""Reading a build file: its bytes as JSON bounded in size and depth (:func:`load_build_json`), then the
document as a :class:`~configurator.core.build.records.Build` with a path for every bad field
(:func:`parse_build`): the format, the name, the budget, the parts (each in the catalogue, each category's
total within its limit), the options, the workload and the cluster."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from configurator.core.build.limits import (
    FORMAT,
    MAX_BUILD_FILE_BYTES,
    MAX_DEPTH,
    MAX_ERRORS,
    MAX_PART_ENTRIES,
    OS_CHOICES,
    PART_LIMITS,
)
from configurator.core.build.records import Build, BuildError, BuildFileError, BuildPart, Cluster, Options
from configurator.core.build.wording import REQUIRED, Checked, Shown, message, short_repr
from configurator.core.build.workload_read import parse_workload
from configurator.core.build.workload_rules import gpu_errors
from configurator.core.estimate.cluster import INTERCONNECT_IDS
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import AnyPart, FieldError, Gpu, Memory
from configurator.core.schema import record_keys

_TOO_MANY = QT_TRANSLATE_NOOP("build", "{what}: at most {limit} in one build, this one has {n}")
_TOO_MANY_ENTRIES = QT_TRANSLATE_NOOP("build", "must list at most {high} parts, not {n:,}")
_MORE_ERRORS = QT_TRANSLATE_NOOP("build", "{n:,} more problems not shown")
_FILE_TOO_BIG = QT_TRANSLATE_NOOP("build", "is too large: a build file may be at most {limit:,} bytes")
_TOO_DEEP = QT_TRANSLATE_NOOP("build", "is nested too deeply: a build file may be at most {limit} levels deep")
_TOO_MANY_DIGITS = QT_TRANSLATE_NOOP("build", "has a number with more than {limit:,} digits")
# The CLI's own wording for these two (context "cli"), kept so their translations stay.
_NOT_UTF8 = QT_TRANSLATE_NOOP("cli", "is not UTF-8 text")
_NOT_JSON = QT_TRANSLATE_NOOP("cli", "not valid JSON: {error}")
CATEGORY_WORDS: dict[str, str] = {
    "gpu": QT_TRANSLATE_NOOP("build", "GPUs"),
    "cpu": QT_TRANSLATE_NOOP("build", "CPUs"),
    "motherboard": QT_TRANSLATE_NOOP("build", "motherboards"),
    "memory": QT_TRANSLATE_NOOP("build", "memory modules"),
    "storage": QT_TRANSLATE_NOOP("build", "drives"),
    "psu": QT_TRANSLATE_NOOP("build", "power supplies"),
    "case": QT_TRANSLATE_NOOP("build", "cases"),
    "cooler": QT_TRANSLATE_NOOP("build", "CPU coolers"),
    "platform": QT_TRANSLATE_NOOP("build", "GPU baseboards"),
}
_LIST = QT_TRANSLATE_NOOP("build", "must be a list")
_UNKNOWN_PART = QT_TRANSLATE_NOOP("build", "no part {id!r} in the catalogue (`configurator parts list` shows the ids)")
_FORMAT = QT_TRANSLATE_NOOP("build", "must be {expected!r}, not {got!r}")
_HOURS = QT_TRANSLATE_NOOP("build", "must be between 0 and 24")


def _capped(errors: list[FieldError]) -> list[FieldError]:
    if len(errors) <= MAX_ERRORS:
        return errors
    return [*errors[:MAX_ERRORS], FieldError("", message(_MORE_ERRORS, n=len(errors) - MAX_ERRORS))]


def _depth(value: Any) -> int:
    """How deeply lists and objects nest (a scalar: 0), without recursion; stops counting past MAX_DEPTH."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(item, Mapping):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def load_build_json(raw: bytes) -> Any:
    """The bytes of a build file as a JSON value, bounded in size and depth.

    Raises :class:`BuildFileError`."""
    def fail(path: str, template: str, **params: Any) -> BuildFileError:
        return BuildFileError([FieldError(path, message(template, **params))])

    if len(raw) > MAX_BUILD_FILE_BYTES:
        raise fail("", _FILE_TOO_BIG, limit=MAX_BUILD_FILE_BYTES)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BuildFileError([FieldError("", Message("cli", _NOT_UTF8))]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BuildFileError([FieldError(f"{exc.lineno}:{exc.colno}",
                                          Message("cli", _NOT_JSON, {"error": exc.msg}))]) from None
    except RecursionError:
        raise fail("", _TOO_DEEP, limit=MAX_DEPTH) from None
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise fail("", _TOO_MANY_DIGITS, limit=_int_max_digits()) from None
    if _depth(data) > MAX_DEPTH:
        raise fail("", _TOO_DEEP, limit=MAX_DEPTH)
    return data


def _int_max_digits() -> int:
    get = getattr(sys, "get_int_max_str_digits", None)
    return int(get()) if get is not None else 4300


def parse_build(data: Any, catalogue: Mapping[str, AnyPart]) -> Build:
    """Validate a build document; raise :class:`BuildError` listing every problem.

    Every count and size is bounded here (PART_LIMITS, WORKLOAD_INT_LIMITS, MAX_*), before anything
    expands a quantity (:attr:`Resolved.gpu_list` makes one entry per GPU)."""
    from configurator.core.schema_build import BUILD_SCHEMA, BuildDocument

    r = Checked()
    r.check(BUILD_SCHEMA, data, "")
    r.drop("workload.model")
    top = r.obj(data, "", record_keys(BuildDocument))
    if top is None:
        raise BuildError(r.errors)
    if "format" not in top:
        r.err("format", REQUIRED)
    elif top["format"] != FORMAT:
        r.err("format", _FORMAT, expected=FORMAT, got=Shown(top["format"]))
    name = ""
    if "name" in top:
        name = r.text(top["name"], "name") or ""
    budget = None
    if top.get("budget_cny") is not None:
        budget = r.number(top["budget_cny"], "budget_cny")

    parts: list[BuildPart] = []
    if "parts" not in top:
        r.err("parts", REQUIRED)
    elif not isinstance(top["parts"], list):
        r.err("parts", _LIST)
    elif len(top["parts"]) > MAX_PART_ENTRIES:
        r.err("parts", _TOO_MANY_ENTRIES, high=MAX_PART_ENTRIES, n=len(top["parts"]))
    else:
        parts = _parts(r, top["parts"], catalogue)

    options = Options()
    if "options" in top:
        from configurator.core.schema_build import OptionsEntry

        o = r.obj(top["options"], "options", record_keys(OptionsEntry))
        if o is not None:
            kw: dict[str, Any] = {}
            if "nvlink_bridge" in o and (v := r.boolean(o["nvlink_bridge"], "options.nvlink_bridge")) is not None:
                kw["nvlink_bridge"] = v
            for key in ("cloud_cny_per_month", "electricity_cny_per_kwh"):
                if key in o and (n := r.number(o[key], f"options.{key}")) is not None:
                    kw[key] = n
            if "hours_per_day" in o and (n := r.number(o["hours_per_day"], "options.hours_per_day",
                                                      over=_HOURS)) is not None:
                kw["hours_per_day"] = n
            if "os" in o and (c := r.choice(o["os"], "options.os", OS_CHOICES)) is not None:
                kw["os"] = c
            # FIT-1's display option (a separate block: the fields above keep their own handling)
            if "display_gpu" in o and (v := r.boolean(o["display_gpu"], "options.display_gpu")) is not None:
                kw["display_gpu"] = v
            options = Options(**kw)

    workload = parse_workload(r, top["workload"]) if top.get("workload") is not None else None
    if workload is not None:  # what the workload asks of the build's cards (fp8, a kernel's compute capability)
        r.errors.extend(gpu_errors(workload, [g for p in parts if isinstance(g := catalogue.get(p.id), Gpu)]))
    cluster = _cluster(r, top["cluster"]) if top.get("cluster") is not None else None
    if r.errors:
        raise BuildError(_capped(r.errors))
    return Build(tuple(parts), name, budget, options, workload, cluster)


def _cluster(r: Checked, value: Any) -> Cluster | None:
    from configurator.core.schema_build import ClusterEntry

    c = r.obj(value, "cluster", record_keys(ClusterEntry))
    if c is None:
        return None
    nodes = interconnect = None
    for key in ("nodes", "interconnect"):
        if key not in c:
            r.err(f"cluster.{key}", REQUIRED)
    if "nodes" in c:
        nodes = r.positive_int(c["nodes"], "cluster.nodes")
    if "interconnect" in c:
        interconnect = r.choice(c["interconnect"], "cluster.interconnect", INTERCONNECT_IDS)
    return Cluster(nodes, interconnect) if nodes is not None and interconnect is not None else None


def _parts(r: Checked, items: list[Any], catalogue: Mapping[str, AnyPart]) -> list[BuildPart]:
    from configurator.core.schema_build import PartEntry

    parts: list[BuildPart] = []
    counted: list[tuple[str, str, int]] = []  # (qty path, category, units: modules for memory, else qty)
    for i, item in enumerate(items):
        path = f"parts[{i}]"
        obj = r.obj(item, path, record_keys(PartEntry))
        if obj is None:
            continue
        if "id" not in obj:
            r.err(f"{path}.id", REQUIRED)
            continue
        pid = r.text(obj["id"], f"{path}.id")
        if pid is None:
            continue
        part = catalogue.get(pid)
        if part is None:
            r.err(f"{path}.id", _UNKNOWN_PART, id=Shown(pid))
        # A known part is bounded by its category's total below; any other by the largest limit.
        qty = r.positive_int(obj.get("qty", 1), f"{path}.qty", bounded=part is None)
        used = r.boolean(obj.get("used", False), f"{path}.used") or False
        if qty is not None and part is not None and part.category in PART_LIMITS:
            counted.append((f"{path}.qty", part.category, qty * (part.modules if isinstance(part, Memory) else 1)))
        parts.append(BuildPart(pid, qty or 1, used))
    totals: dict[str, int] = {}
    for _path, category, units in counted:
        totals[category] = totals.get(category, 0) + units
    running: dict[str, int] = {}
    for path, category, units in counted:
        before = running.get(category, 0)
        running[category] = before + units
        limit = PART_LIMITS[category]
        if before <= limit < running[category]:  # the entry that goes over names the category's total
            r.err(path, _TOO_MANY, what=Message("build", CATEGORY_WORDS[category]), limit=limit,
                  n=short_repr(totals[category]))
    return parts
