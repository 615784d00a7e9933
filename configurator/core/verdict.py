"""The one-line verdict over a build's report: what the planner tab shows above the findings.

A build that lacks a part every machine needs (CPU, board, memory, a drive, a power supply) is not
judged whole: its verdict names what is missing first, whatever the rules found so far."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from configurator.core.build import Build
from configurator.core.engine import Report
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message, Translate
from configurator.core.parts import CATEGORY_LABELS, AnyPart

# What a PC needs to start at all (a case, a GPU are optional: a CPU-only or open-frame build works).
ESSENTIAL = ("cpu", "motherboard", "memory", "storage", "psu")

Level = Literal["empty", "error", "incomplete", "warning", "ok"]

_EMPTY = QT_TRANSLATE_NOOP("verdict", "Pick parts on the left, or start from a preset or Suggest. Findings and "
                                      "estimates appear here as you choose.")
_WORKLOAD = QT_TRANSLATE_NOOP("verdict", "The workload cannot be estimated: {problems}")
_ERRORS = QT_TRANSLATE_NOOP("verdict", "{n} error(s): this build will not work as planned.")
_MISSING = QT_TRANSLATE_NOOP("verdict", "Not a whole build yet: still to choose {missing}. Judged so far: "
                                        "{errors} error(s), {warnings} warning(s).")
_ALSO_MISSING = QT_TRANSLATE_NOOP("verdict", "Also still to choose: {missing}.")
_STILL = QT_TRANSLATE_NOOP("verdict", "Still to choose: {missing}. The findings judge only the parts chosen.")
_WARNINGS = QT_TRANSLATE_NOOP("verdict", "No errors; {n} recommendation(s) from the guides not met.")
_OK = QT_TRANSLATE_NOOP("verdict", "No errors and no warnings.")
_SEPARATOR = QT_TRANSLATE_NOOP("verdict", ", ")


@dataclass(frozen=True)
class Verdict:
    level: Level
    text: str
    missing: tuple[str, ...]  # categories of ESSENTIAL the build has none of


def missing_parts(build: Build, catalogue: Mapping[str, AnyPart]) -> tuple[str, ...]:
    """The essential categories a build with parts has none of (an empty build misses nothing yet)."""
    if not build.parts:
        return ()
    have = {catalogue[bp.id].category for bp in build.parts if bp.id in catalogue}
    return tuple(c for c in ESSENTIAL if c not in have)


def missing_names(missing: tuple[str, ...], translate: Translate | None = None) -> str:
    """The categories, in words of the reader's language ("CPU, Motherboard, Memory")."""
    sep = translate("verdict", _SEPARATOR) if translate else _SEPARATOR
    return sep.join(translate("parts", CATEGORY_LABELS[c]) if translate else CATEGORY_LABELS[c] for c in missing)


def still_to_choose(missing: tuple[str, ...], translate: Translate | None = None) -> str:
    """The line `configurator check` prints for an incomplete build ("" for a whole one)."""
    if not missing:
        return ""
    return Message("verdict", _STILL, {"missing": missing_names(missing, translate)}).render(translate)


def verdict(report: Report, catalogue: Mapping[str, AnyPart], translate: Translate | None = None) -> Verdict:
    def say(template: str, **params: object) -> str:
        return Message("verdict", template, params).render(translate)

    missing = missing_parts(report.build, catalogue)
    names = missing_names(missing, translate)
    errors = len(report.errors)
    warnings = sum(f.severity == "warning" for f in report.findings)
    if not report.build.parts:
        return Verdict("empty", say(_EMPTY), ())
    if report.workload_errors:
        problems = "; ".join(e.render(translate) for e in report.workload_errors)
        text = say(_WORKLOAD, problems=problems)
        return Verdict("error", text + (" " + say(_ALSO_MISSING, missing=names) if missing else ""), missing)
    if errors:
        text = say(_ERRORS, n=errors)
        return Verdict("error", text + (" " + say(_ALSO_MISSING, missing=names) if missing else ""), missing)
    if missing:
        return Verdict("incomplete", say(_MISSING, missing=names, errors=errors, warnings=warnings), missing)
    if warnings:
        return Verdict("warning", say(_WARNINGS, n=warnings), ())
    return Verdict("ok", say(_OK), ())
