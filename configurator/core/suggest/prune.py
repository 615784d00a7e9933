"""Pruning Suggest's catalogue: parts that can never be part of its answer.

A part is dropped when enough other parts of its category cost no more (ties: a lower id) and are at
least as good in every field (equal in every field the rules read, except a few with a known better
direction: a shorter, less power-hungry card; a faster, bigger drive; a stronger supply; a roomier
case). Such a part can never be chosen (its dominator gives an equal or better, cheaper build), so
Suggest's results are the same; with a shop's 100,000 listings of the same models at different
prices the search sees a few hundred parts. GPUs need ``alternatives + 1`` dominators, since the
alternatives are GPUs.
"""

from __future__ import annotations

import bisect
import dataclasses
import heapq
import operator
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from configurator.core.parts import AnyPart, Case

# Fields no rule or estimate compares (names and prices are handled on their own).
_IGNORED = frozenset({"id", "name", "brand", "source", "notes", "price_cny", "price_date", "custom",
                      "user_edited"})
# Fields where one direction is never worse for validity, throughput or price (+1: more is better).
# Everything else must be equal for one part to dominate another.
_BETTER: dict[str, dict[str, int]] = {
    # (board power is not here: the throughput model's power limit makes more of it faster)
    "gpu": {"length_mm": -1},
    "memory": {"cas_latency": -1},
    "storage": {"capacity_gb": +1, "seq_read_mbs": +1, "seq_write_mbs": +1, "random_read_iops": +1},
    "psu": {"watts": +1},
    "case": {"max_gpu_length_mm": +1, "expansion_slots": +1, "max_cpu_cooler_mm": +1},
}


_LAYOUT: dict[type[Any], tuple[tuple[str, ...], tuple[tuple[str, int], ...]]] = {}


def _layout(part: AnyPart) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
    got = _LAYOUT.get(type(part))
    if got is None:
        better = _BETTER.get(part.category, {})
        names = [f.name for f in dataclasses.fields(part) if f.name not in _IGNORED]
        got = _LAYOUT[type(part)] = (tuple(n for n in names if n not in better),
                                     tuple((n, better[n]) for n in names if n in better))
    return got


# GPU fields that matter only through which cases they fit under (the case field is the limit).
_FITS_UNDER: dict[str, str] = {"length_mm": "max_gpu_length_mm"}


_GETTERS: dict[type[Any], tuple[Callable[[Any], Any], tuple[int, ...]]] = {}


def _equal_getter(part: AnyPart) -> tuple[Callable[[Any], Any], tuple[int, ...]]:
    """A function giving the tuple of a part type's must-be-equal fields, and where in that tuple
    the list fields are (``_frozen`` makes them hashable)."""
    got = _GETTERS.get(type(part))
    if got is None:
        names = _layout(part)[0]
        getter = operator.attrgetter(*names) if len(names) > 1 else (lambda p: tuple(getattr(p, n) for n in names))
        hints = typing.get_type_hints(type(part))
        lists = tuple(i for i, n in enumerate(names) if "list" in str(hints[n]) or dataclasses.is_dataclass(hints[n]))
        got = _GETTERS[type(part)] = (getter, lists)
    return got


def _frozen(values: tuple[Any, ...], lists: tuple[int, ...]) -> tuple[Any, ...]:
    """A hashable key of field values: lists of text as tuples; slot records by their exact repr."""
    out = list(values)
    for i in lists:
        v = out[i]
        if type(v) is list:
            out[i] = tuple(v) if all(type(x) is str for x in v) else repr(v)
        elif v is not None:
            out[i] = repr(v)
    return tuple(out)


def config_profile(part: AnyPart, limits: Mapping[str, list[int]] | None = None) -> tuple[Any, tuple[Any, ...]]:
    """The fields that must be equal (as one hashable key) and the ordered ones (better = bigger).

    ``limits``: for a GPU, the sorted limits of the kept cases per "fits under" field; such a field
    then counts as the number of limits it fits under (a card that fits every case that a longer
    one fits is as good, whatever its length)."""
    getter, lists = _equal_getter(part)
    equal = getter(part)
    ordered: list[Any] = []
    nones: list[str] = []
    for name, direction in _layout(part)[1]:
        value = getattr(part, name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            fits = limits.get(name) if limits is not None else None
            if fits is not None and value:  # 0 fits everywhere, as the rule reads it
                ordered.append(len(fits) - bisect.bisect_left(fits, value))
                continue
            ordered.append(value * direction)
        else:  # None: only equal to None
            nones.append(name)
    key = (_frozen(equal, lists) if lists else equal, tuple(nones))
    return key, tuple(ordered)


def prune(catalogue: Mapping[str, AnyPart], alternatives: int = 3) -> dict[str, AnyPart]:
    """The catalogue without parts that can never be part of suggest()'s answer (see the module doc)."""
    kept: dict[str, AnyPart] = {}
    others = [p for p in catalogue.values() if p.category != "gpu"]
    _prune_into(kept, others, alternatives, None)
    # A GPU's length matters only through the kept cases it fits (the rule compares it with the
    # build's case, and suggest's cases are the kept ones).
    limits = {name: sorted({getattr(c, limit) for c in kept.values() if isinstance(c, Case)})
              for name, limit in _FITS_UNDER.items()}
    _prune_into(kept, [p for p in catalogue.values() if p.category == "gpu"], alternatives, limits)
    return kept


def _prune_into(kept: dict[str, AnyPart], parts: Iterable[AnyPart], alternatives: int,
                limits: Mapping[str, list[int]] | None) -> None:
    # Listings of one model with the same profile: only the ``need`` cheapest can be kept (each of
    # them dominates the rest, or is itself pruned by parts that dominate the rest).
    same: dict[tuple[str, Any, tuple[Any, ...]], list[tuple[int, str, AnyPart]]] = {}
    for part in parts:
        equal, ordered = config_profile(part, limits)
        same.setdefault((part.category, equal, ordered), []).append((part.price_cny, part.id, part))
    groups: dict[tuple[str, Any, int], list[tuple[int, str, tuple[Any, ...], AnyPart]]] = {}
    for (category, equal, ordered), listed in same.items():
        need = alternatives + 1 if category == "gpu" else 1
        cheapest = heapq.nsmallest(need, listed) if len(listed) > need else listed  # ids are unique
        # Fields with a direction that are None on this part go into the equal key (via config_profile),
        # so parts in one group have the same ordered fields.
        groups.setdefault((category, equal, len(ordered)), []).extend(
            (price, pid, ordered, part) for price, pid, part in cheapest)
    for (category, _equal, _n), members in groups.items():
        need = alternatives + 1 if category == "gpu" else 1
        members.sort(key=lambda m: (m[0], m[1]))
        front: list[tuple[int, str, tuple[Any, ...], AnyPart]] = []
        for m in members:
            # Everything in ``front`` is cheaper or as cheap with a lower id; a part that is pruned
            # has ``need`` kept dominators, which dominate whatever it dominates.
            dominators = 0
            for f in front:
                if all(a >= b for a, b in zip(f[2], m[2], strict=True)):
                    dominators += 1
                    if dominators >= need:
                        break
            if dominators < need:
                front.append(m)
                kept[m[3].id] = m[3]


__all__ = ["prune"]
