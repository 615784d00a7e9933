"""The likely range of a throughput estimate and its basis: the family's held-out residuals, a quantised
weight format's own held-out rows, the data-parallel scaling's published pairs; and the published rows
matched to the build, named with their software."""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Sequence
from typing import Any

from configurator.core import measurements as ms
from configurator.core.engine.report import message as _m
from configurator.core.engine.report import throughput_figure
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import throughput as tp
from configurator.core.estimate import validation
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.measurements import Measurement
from configurator.core.model_specs import DETECTORS
from configurator.core.numbers import unit_message


def scaling_range(eff: float, fit: fitting.Fit | None) -> tuple[float | None, float | None, dict[str, Any]]:
    """A data-parallel efficiency's range: the extremes of measured / predicted efficiency over the published
    n-GPU rows with a one-GPU row of the same workload (validation.scaling_band), capped at 1."""
    band = validation.scaling_band(fit) if fit is not None else None
    if band is None:
        return round(eff / 2, 3), round(min(max(eff * 1.5, eff), 1.0), 3), {
            "family": "data-parallel scaling", "measurements": 0, "prior": True, "matched": []}
    return (round(eff * band.low_ratio, 3), round(max(min(eff * band.high_ratio, 1.0), eff), 3),
            {"family": "data-parallel scaling", "measurements": band.pairs, "origins": band.origins,
             "range_basis": "published n-GPU / one-GPU pairs (extremes of measured / predicted)", "matched": []})


def _format_rows(fit: fitting.Fit) -> dict[tuple[str, str], list[fitting.CvRow]]:
    """The fit's held-out rows (leave-one-GPU-out) by (family, weight format's kernel), worked out once per fit."""
    def compute() -> dict[tuple[str, str], list[fitting.CvRow]]:
        table: dict[tuple[str, str], list[fitting.CvRow]] = {}
        for r in fit.cv:
            c = fitting.case_for(r.m)
            key = tp.format_key(c) if c is not None else None
            if key:
                table.setdefault((r.m.family, key), []).append(r)
        return table

    return fitting.derived(fit, "rows by weight format", compute)


MIN_FORMAT_ROWS = 3  # held-out rows of a kernel below which its range is the family's


def format_range(value: float, unit: str, family: str, key: str, fit: fitting.Fit | None,
                  fallback: tuple[float | None, float | None, dict[str, Any], Message]
                  ) -> tuple[float | None, float | None, dict[str, Any], Message]:
    """A quantised format's own error: the held-out rows (leave-one-GPU-out) of its kernel, their median error
    and, with at least MIN_FORMAT_ROWS of them, the range from their 10th–90th percentile of measured /
    predicted (never narrower than the estimate itself); with fewer, the family's range, said so."""
    low, high, basis, rng = fallback
    held = _format_rows(fit).get((family, key), []) if fit is not None else []
    origins = sorted({r.m.origin for r in held})
    errs = [abs(r.error) for r in held]
    basis = {**basis, "format": key, "format_rows": len(held), "format_origins": origins,
             "format_cv_median_error": round(statistics.median(errs), 3) if errs else None}
    if len(held) >= MIN_FORMAT_ROWS:
        ratios = [fitting.stream_value(r.m) / r.predicted for r in held]
        # to 0.1 outwards, so that the estimate (shown to 0.1) lies inside its range
        low = math.floor(min(value * fitting.quantile(ratios, 0.1), value) * 10) / 10
        high = math.ceil(max(value * fitting.quantile(ratios, 0.9), value) * 10) / 10
        basis["format_low_ratio"] = round(fitting.quantile(ratios, 0.1), 3)
        basis["format_high_ratio"] = round(fitting.quantile(ratios, 0.9), 3)
        rng = _m("{range} {own}", range=rng, own=_m(QT_TRANSLATE_NOOP(
            "estimates", "This weight format's kernel ({key}): {n} published rows ({origins}) held out by GPU, median "
                         "error {median:.0%}; its range {low:,.4g}–{high:,.4g} {unit}."),
            key=key, n=len(held), origins=", ".join(origins), median=statistics.median(errs), low=low, high=high,
            unit=unit_message(unit)))
    else:
        rng = _m("{range} {own}", range=rng, own=_m(QT_TRANSLATE_NOOP(
            "estimates", "This weight format's kernel ({key}): {n} published rows of this family, too few for a "
                         "range of its own; its efficiencies rest on their stated priors and the family's range "
                         "applies."), key=key, n=len(held)))
    return low, high, basis, rng


def scaled(x: float | None, factor: float) -> float | None:
    return None if x is None else throughput_figure(x * factor)


def software_of(m: Measurement) -> str:
    return m.runtime or " ".join(x for x in (m.framework, m.framework_version) if x) or "—"


_RANGE_BASIS = {validation.LOSO: Message("estimates", QT_TRANSLATE_NOOP("estimates", "leave-one-source-out")),
                validation.LOGO: Message("estimates", QT_TRANSLATE_NOOP("estimates", "leave-one-GPU-out")),
                validation.POOLED: Message("estimates", QT_TRANSLATE_NOOP(
                    "estimates", "leave-one-source-out, every family's residuals pooled: this family's own sources "
                                 "disagree"))}


def likely_range(value: float, unit: str, family: str, fit: fitting.Fit | None, matched: Sequence[Measurement]
           ) -> tuple[float | None, float | None, dict[str, Any], Message]:
    """The likely range from the family's held-out residuals (validation.width_for: leave-one-source-out
    where ≥ 2 origins, else leave-one-GPU-out; percentiles of measured / predicted chosen so that ≥ 80 % of
    held-out measurements fall inside), the basis, and the sentence that says both."""
    fe = fit.family(family) if fit is not None else None
    wd = validation.width_for(fit, family) if fe is not None else None
    matched_json = [{"id": m.id, "value": m.per_gpu_value, "unit": m.unit, "source_url": m.source_url,
                     "software": software_of(m)} for m in matched]
    if fe is None or wd is None:
        basis: dict[str, Any] = {"family": family, "measurements": 0, "cv_median_error": None,
                                 "cv_p90_error": None, "matched": matched_json}
        low, high = value / 2, value * 2
        rng = _m(QT_TRANSLATE_NOOP(
            "estimates", "≈ {value:,.4g} {unit}, likely {low:,.4g}–{high:,.4g} (no measurements of this family: "
                         "a factor of 2 either way)."), value=value, unit=unit_message(unit), low=low, high=high)
        return throughput_figure(low), throughput_figure(high), basis, rng
    low = min(value * wd.low_ratio, value)
    high = max(value * wd.high_ratio, value)
    basis = {"family": family, "measurements": fe.measurements, "gpus": fe.gpus,
             "cv_median_error": round(fe.median, 3), "cv_p90_error": round(fe.p90, 3), "range_basis": wd.basis,
             "range_held_out": wd.rows, "range_coverage": None if wd.coverage is None else round(wd.coverage, 3),
             "matched": matched_json}
    rng = _m(QT_TRANSLATE_NOOP(
        "estimates", "≈ {value:,.4g} {unit}, likely {low:,.4g}–{high:,.4g}; {n} measurements of this family "
                     "(leave-one-GPU-out error: median {median:.0%}, 90th percentile {p90:.0%})."),
        value=value, unit=unit_message(unit), low=low, high=high, n=fe.measurements, median=fe.median, p90=fe.p90)
    if wd.coverage is not None:
        rng = _m("{range} {held}", range=rng, held=_m(QT_TRANSLATE_NOOP(
            "estimates", "The range holds {coverage:.0%} of {n} held-out measurements ({basis})."),
            coverage=wd.coverage, n=wd.rows, basis=_RANGE_BASIS[wd.basis]))
    if matched:
        m = matched[0]
        rng = _m("{range} {published}", range=rng, published=_m(QT_TRANSLATE_NOOP(
            "estimates", "Published for this GPU and workload: {value:,.4g} {unit} ({software}; {url})."),
            value=m.per_gpu_value, unit=unit_message(m.unit), software=software_of(m),
            url=m.source_url or m.source_ref))
    return throughput_figure(low), throughput_figure(high), basis, rng


def vision_family(spec_arch: str, diffusion: bool, task: str) -> str | None:
    """The published vision family a detector's or a diffusion model's throughput is validated in (det-train,
    det-infer, diffusion-train, diffusion-infer: estimate/vision_validation.py); None for the others."""
    train = task == "train"
    if diffusion:
        return ms.DIFFUSION_TRAIN if train else ms.DIFFUSION_INFER
    if spec_arch in DETECTORS:
        return ms.DET_TRAIN if train else ms.DET_INFER
    return None


@functools.lru_cache(maxsize=1)
def _vision_widths() -> dict[str, validation.Width]:
    """The vision families' ranges, held out one published source at a time on the shipped rows (a second or
    two, once per process, and only for a detector's or a diffusion model's estimate)."""
    from configurator.core.estimate import vision_validation

    return dict(vision_validation.leave_one_source_out().widths)


def vision_range(value: float, unit: str, family: str, matched: Sequence[Measurement]
                 ) -> tuple[float | None, float | None, dict[str, Any], Message] | None:
    """:func:`likely_range` of a detector or a diffusion model: its vision family's published rows, each source
    held out in turn (the calibration fitted to the others), and the range that holds 80 % of them
    (vision_validation.ranges); None where the family has no rows."""
    wd = _vision_widths().get(family)
    if wd is None:
        return None
    low = min(value * wd.low_ratio, value)
    high = max(value * wd.high_ratio, value)
    basis: dict[str, Any] = {
        "family": family, "origins": wd.origins, "loso_median_error": round(wd.median, 3), "range_basis": wd.basis,
        "range_held_out": wd.rows, "range_coverage": None if wd.coverage is None else round(wd.coverage, 3),
        "matched": [{"id": m.id, "value": m.per_gpu_value, "unit": m.unit, "source_url": m.source_url,
                     "software": software_of(m)} for m in matched]}
    rng = _m(QT_TRANSLATE_NOOP(
        "estimates", "≈ {value:,.4g} {unit}, likely {low:,.4g}–{high:,.4g}; published measurements of this family "
                     "from {origins} sources, each held out in turn: median error {median:.0%}."),
        value=value, unit=unit_message(unit), low=low, high=high, origins=wd.origins, median=wd.median)
    if wd.coverage is not None:
        rng = _m("{range} {held}", range=rng, held=_m(QT_TRANSLATE_NOOP(
            "estimates", "The range holds {coverage:.0%} of {n} held-out measurements ({basis})."),
            coverage=wd.coverage, n=wd.rows, basis=_RANGE_BASIS[wd.basis]))
    return throughput_figure(low), throughput_figure(high), basis, rng
