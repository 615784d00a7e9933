"""Leave-one-source-out validation of the throughput model, and the likely ranges it gives.

Leave-one-GPU-out (:func:`fit.fit`) asks how well the model predicts a GPU it was not fitted to, with
the same software and the same publication's habits in the training data. Leave-one-source-out asks the
harder question a user's own run poses: each origin of the dataset (one publication: ``Measurement.origin``)
is held out in turn, the model is fitted to every other origin's rows, and the held-out rows are predicted.

Per workload family: the rows it can state, the median and worst ``|predicted / measured − 1|``, and the
coverage, the share of held-out measured values inside the ``[low, high]`` the planner states for the row.
Rows the model cannot state yet (a model, runtime or parallel layout the estimator does not know) are
counted and listed with the reason, never dropped silently.

The planner's ranges (:func:`width_for`) take their width from held-out residuals, measured / predicted:
leave-one-source-out where a family's stated rows come from at least two origins, leave-one-GPU-out
otherwise: the narrowest of the 10th–90th, 5th–95th, 2.5th–97.5th percentiles and the extremes whose
coverage, itself checked on held-out data (:func:`cross_coverage`: each row's range comes from the
residuals of the *other* origins, or GPUs, never its own), reaches 80 %; the extremes, with the coverage
they reach, where none does. Computed once per fit (each
refit starts from the priors, as the fit does: some 20 ms per origin) and memoised with it.

Pure Python; numpy is loaded only by the fits themselves (:mod:`least_squares`).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from configurator.core import measurements as ms
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import throughput as tp
from configurator.core.parts import Gpu

# A stated range is the q-th to (1 − q)-th percentile of held-out measured / predicted: the largest q of
# TAILS whose cross-validated coverage reaches TARGET_COVERAGE (the narrowest range that holds), else the
# widest (the held-out extremes), with its coverage stated.
TAILS = (0.1, 0.05, 0.025, 0.0)
# Where even the extremes hold too few, the range stays at the extremes and its coverage is stated as it is:
# stretching them (tried: 3× in log space) did not reach 80 % for gpt-train, measured by one source on two GPUs,
# whose held-out residuals are one offset per GPU.
STRETCH: tuple[float, ...] = (1.0,)
TARGET_COVERAGE = 0.8  # issue 28: at least 80 % of held-out measurements inside [low, high]
LOSO = "leave-one-source-out"
LOGO = "leave-one-GPU-out"
# Where a family's own held-out residuals give no range that holds (one origin, or origins that disagree: llm-foundry's
# MPT pre-training against torchtune's fine-tuning recipes), its range is the spread of every family's held-out
# residuals across sources: how far the model has been off on a publication it was not fitted to. The family's
# own rows are judged against that pool without their origin's rows (cross_coverage_pooled).
POOLED = "leave-one-source-out, all families"
# The families judged: the fitted ones, and serving (task serve: the whole build's output tokens/s or requests/s, the
# median TTFT and TPOT), whose rows are predicted by core/estimate/serving.py on the fitted step model, never fitted
JUDGED_FAMILIES: tuple[str, ...] = (*fitting.FITTED_FAMILIES, *ms.SERVE_FAMILIES)

# A fitter: training rows in, a predictor out (the rate a row is predicted at; or that and the span the model states
# from physics around it, in the row's unit: Held.span)
Predictor = Callable[[ms.Measurement], "float | tuple[float, tuple[float, float] | None]"]
Fitter = Callable[[Sequence[ms.Measurement]], Predictor]
# Why the model cannot state a row, or None when it can.
Reason = Callable[[ms.Measurement], str | None]


@dataclass(frozen=True)
class Held:
    """One held-out row: what it measured and what a fit without its origin predicted."""

    m: ms.Measurement
    measured: float
    predicted: float
    # the (bottom, top) the model states for this row from physics, not residuals, the prediction inside it (a
    # closed-loop TTFT: requests arriving spread out, clients sending in step: serving.lockstep_ttft), in the row's
    # unit; None: the residuals' range alone
    span: tuple[float, float] | None = None

    @property
    def error(self) -> float:
        return self.predicted / self.measured - 1

    @property
    def spanned(self) -> bool:
        """Whether the model states a span for this row (a closed loop's clients, spread out or in step)."""
        return self.span is not None and self.span[1] > self.span[0]

    @property
    def ends(self) -> tuple[float, float]:
        """The span's bottom and top (the prediction itself, twice, where the model states none)."""
        return self.span if self.span is not None and self.spanned else (self.predicted, self.predicted)

    @property
    def ratio(self) -> float:
        """measured / predicted: the factor a range must reach to hold this row. Where the model states a span,
        what lies inside it is explained (1), and what lies beyond it is measured / the nearer end: the residual the
        range's factors must still cover."""
        if not self.spanned:
            return self.measured / self.predicted
        bottom, top = self.ends
        if self.measured > top:
            return self.measured / top
        return self.measured / bottom if self.measured < bottom else 1.0


def residuals(rows: Iterable[Held]) -> list[float]:
    """The ratios a range's factors are the quantiles of: the rows' without a stated span (where the span explains a
    row, its ratio 1 says nothing of how far the model errs), or every row's where all have one."""
    rows = list(rows)
    plain = [h.ratio for h in rows if not h.spanned]
    return plain or [h.ratio for h in rows]


@dataclass(frozen=True)
class NotStated:
    m: ms.Measurement
    reason: str


@dataclass(frozen=True)
class FamilyResult:
    family: str
    rows: int  # held-out rows the model could state
    origins: int  # origins among them
    median: float  # |predicted / measured − 1|
    worst: float
    coverage: float | None  # share inside the stated range (None: no range given)
    not_stated: int


@dataclass(frozen=True)
class Result:
    held: tuple[Held, ...]
    not_stated: tuple[NotStated, ...]
    families: Mapping[str, FamilyResult] = field(default_factory=dict)


def hold_out_origins(rows: Sequence[ms.Measurement], fitter: Fitter, reason: Reason
                     ) -> tuple[list[Held], list[NotStated]]:
    """For each origin: fit to the stated rows of every *other* origin, predict this origin's stated rows.

    The fitter never receives a row of the origin it is asked to predict. Rows ``reason`` refuses are
    returned as :class:`NotStated`; an origin whose rows are all unstated is fitted for nothing.
    """
    stated: list[ms.Measurement] = []
    refused: list[NotStated] = []
    for m in rows:
        why = reason(m)
        if why is None:
            stated.append(m)
        else:
            refused.append(NotStated(m, why))
    held: list[Held] = []
    for origin in ms.origins(stated):
        test = [m for m in stated if m.origin == origin]
        predict = fitter([m for m in stated if m.origin != origin])
        for m in test:
            p = predict(m)
            value, span = p if isinstance(p, tuple) else (p, None)
            held.append(Held(m, fitting.stream_value(m), value, span))
    return held, refused


def summarise(held: Sequence[Held], not_stated: Sequence[NotStated],
              band: Callable[[Held], tuple[float, float] | None], families: Iterable[str]) -> dict[str, FamilyResult]:
    """Median, worst and coverage per family; ``band`` gives the (low, high) stated for a held-out row."""
    out = {}
    for fam in families:
        fh = [h for h in held if h.m.family == fam]
        skipped = sum(1 for n in not_stated if n.m.family == fam)
        if not fh and not skipped:
            continue
        errs = [abs(h.error) for h in fh]
        out[fam] = FamilyResult(fam, len(fh), len({h.m.origin for h in fh}),
                                statistics.median(errs) if errs else 0.0, max(errs, default=0.0),
                                coverage(fh, band), skipped)
    return out


def inside(h: Held, low: float, high: float) -> bool:
    """Whether the measured value lies in the range the factors ``low`` and ``high`` (measured / predicted) state
    around the prediction (the planner's range always holds its central value: low ≤ 1 ≤ high); where the model
    states a span, the range runs from its bottom × low to its top × high."""
    bottom, top = h.ends
    return bottom * min(low, 1.0) <= h.measured <= top * max(high, 1.0)


def once_per(band: Callable[[Held], tuple[float, float] | None], key: Callable[[Held], Hashable]
             ) -> Callable[[Held], tuple[float, float] | None]:
    """``band`` worked out once per ``key`` of a row (a held-out row's range depends on its family and group alone,
    not on the row: asked for every row, it was worked out again for each)."""
    done: dict[Hashable, tuple[float, float] | None] = {}

    def once(h: Held) -> tuple[float, float] | None:
        k = key(h)
        if k not in done:
            done[k] = band(h)
        return done[k]

    return once


def coverage(held: Sequence[Held], band: Callable[[Held], tuple[float, float] | None]) -> float | None:
    """The share of held-out measured values inside the range ``band`` states for them (rows with no
    range are not counted); None when no row has one."""
    n = hit = 0
    for h in held:
        b = band(h)
        if b is None:
            continue
        n += 1
        hit += inside(h, b[0], b[1])
    return hit / n if n else None


def ratio_band(ratios: Sequence[float], tail: float = TAILS[0], stretch: float = 1.0
               ) -> tuple[float, float] | None:
    """The (low, high) factors around a prediction: the ``tail`` and 1 − ``tail`` quantiles of held-out
    measured / predicted ratios (each at least as far from 1 as 1 itself), raised to ``stretch``."""
    if not ratios:
        return None
    low = min(fitting.quantile(ratios, tail), 1.0)
    high = max(fitting.quantile(ratios, 1 - tail), 1.0)
    return low ** stretch, high ** stretch


def cross_coverage(held: Sequence[Held], group: Callable[[Held], str], tail: float = TAILS[0],
                   stretch: float = 1.0, judged: Sequence[Held] | None = None) -> float | None:
    """Coverage of ``judged`` (default: every row of ``held``) where each row's range comes from the residuals of
    the rows of *other* groups (origins or GPUs) of its family in ``held``: the range is never fitted to the row it
    is judged on."""
    def band(h: Held) -> tuple[float, float] | None:
        g = group(h)
        return ratio_band(residuals(o for o in held if o.m.family == h.m.family and group(o) != g), tail, stretch)

    return coverage(held if judged is None else judged, once_per(band, lambda h: (h.m.family, group(h))))


def cross_coverage_pooled(rows: Sequence[Held], pool: Sequence[Held], tail: float = TAILS[0]) -> float | None:
    """Coverage of ``rows`` where each row's range comes from the ratios of every row of ``pool`` (any family) of
    *another* origin."""
    def band(h: Held) -> tuple[float, float] | None:
        return ratio_band(residuals(o for o in pool if o.m.origin != h.m.origin), tail)

    return coverage(rows, once_per(band, lambda h: h.m.origin))


def pooled_band(rows: Sequence[Held], pool: Sequence[Held]) -> tuple[float, float | None]:
    """The largest tail of :data:`TAILS` whose pooled cross-validated coverage of ``rows`` reaches the target, with
    that coverage (the extremes and their coverage when none does)."""
    cov: float | None = None
    for tail in TAILS:
        cov = cross_coverage_pooled(rows, pool, tail)
        if cov is not None and cov >= TARGET_COVERAGE:
            return tail, cov
    return TAILS[-1], cov


def holding_band(held: Sequence[Held], group: Callable[[Held], str]) -> tuple[float, float, float | None]:
    """The narrowest (tail, stretch) of :data:`TAILS`, then :data:`STRETCH` on the extremes, whose
    cross-validated coverage reaches the target, with that coverage (the widest and its coverage when none
    does)."""
    cov: float | None = None
    # judged on the rows without a stated span where a family has both (a row inside its span is covered whatever
    # the factors: it would let the narrowest factors pass), the coverage then given over every row
    plain = [h for h in held if not h.spanned]
    judged = plain if plain and len(plain) < len(held) else None
    for tail, stretch in [(t, 1.0) for t in TAILS] + [(0.0, k) for k in STRETCH[1:]]:
        cov = cross_coverage(held, group, tail, stretch, judged)
        if cov is not None and cov >= TARGET_COVERAGE:
            return tail, stretch, cross_coverage(held, group, tail, stretch)
    return TAILS[-1], STRETCH[-1], cov


# ---------------------------------------------------------------------------------------------
# the throughput model


def reason(m: ms.Measurement, gpus: Mapping[str, Gpu]) -> str | None:
    """Why the throughput model cannot state ``m`` (or None: it can): every gap, the same filter as the fit's; a
    serving row's (task serve) from the serving model's (fit.serve_reason)."""
    if m.task == "serve":
        return fitting.serve_reason(m, gpus)
    if fitting.fit_rows([m], gpus):
        return None
    gaps = []
    if m.framework not in fitting.FITTED_FRAMEWORKS:
        gaps.append(f"runtime {m.framework}")
    if fitting.model_spec(m.model) is None:
        gaps.append(f"model {m.model}")
    elif (why := fitting.not_fitted_reason(m)) is not None:
        gaps.append(why)
    if m.gpu not in gpus:
        gaps.append(f"GPU {m.gpu}")
    if m.precision is None:
        gaps.append("precision not stated")
    if m.gpu_count > 1:
        gaps.append(f"{m.gpu_count} GPUs ({';'.join(m.flags) or 'data parallel'})")
    return "; ".join(gaps) or "not predictable"


def population(rows: Iterable[ms.Measurement]) -> list[ms.Measurement]:
    """The rows a validation is judged on: independent published figures (not the guides' own) of the
    fitted families and the serving families (predicted by serving.py on the fitted step model, not fitted),
    absolute (not ratios)."""
    return [m for m in ms.published(rows) if m.family in JUDGED_FAMILIES and not m.is_ratio]


def throughput_fitter(gpus: Mapping[str, Gpu], theta0: Sequence[float] | None = None) -> Fitter:
    """The throughput model as a :data:`Fitter` (starting each refit from ``theta0``: the prior when None)."""
    fitted: dict[tuple[str, ...], list[float]] = {}

    def fitter(train: Sequence[ms.Measurement]) -> Predictor:
        use = fitting.fit_rows(train, gpus)
        # origins of serving rows only (never fitted) leave the same rows to fit: one refit serves them all
        key = tuple(m.id for m in use)
        if key not in fitted:
            fitted[key] = list(fitting.fit_theta(use, gpus, theta0)[0]) if use else tp.prior_theta()
        theta = fitted[key]

        def predict(m: ms.Measurement) -> float | tuple[float, tuple[float, float] | None]:
            if m.task == "serve":
                return fitting.serve_prediction(m, gpus[m.gpu], theta)
            return fitting.predict_row(m, gpus[m.gpu], theta)

        return predict

    return fitter


def leave_one_source_out(rows: Sequence[ms.Measurement], gpus: Mapping[str, Gpu],
                         theta0: Sequence[float] | None = None,
                         band: Callable[[Held], tuple[float, float] | None] | None = None) -> Result:
    """Each origin of ``rows`` held out in turn from the throughput fit (see the module docstring);
    coverage against ``band`` (default: each row's range from the other origins' residuals)."""
    held, refused = hold_out_origins(population(rows), throughput_fitter(gpus, theta0), lambda m: reason(m, gpus))
    if band is None:
        def own(h: Held) -> tuple[float, float] | None:
            return ratio_band(residuals(o for o in held if o.m.family == h.m.family and o.m.origin != h.m.origin))

        band = once_per(own, lambda h: (h.m.family, h.m.origin))
    return Result(tuple(held), tuple(refused), summarise(held, refused, band, JUDGED_FAMILIES))


# ---------------------------------------------------------------------------------------------
# the planner's ranges


@dataclass(frozen=True)
class Width:
    """The factors the planner's range puts around an estimate of one family, and what they rest on."""

    family: str
    low_ratio: float
    high_ratio: float
    basis: str  # LOSO, LOGO or POOLED
    rows: int  # held-out rows the factors are the percentiles of
    origins: int
    median: float  # their median |predicted / measured − 1|
    tail: float  # the range is the tail-th to (1 − tail)-th percentile of the held-out ratios,
    stretch: float  # raised to this power (1: as measured)
    coverage: float | None  # cross-validated share inside (see cross_coverage)


def widths(fit: fitting.Fit, loso: Result) -> dict[str, Width]:
    """Per family: from the leave-one-source-out residuals where its rows come from ≥ 2 origins, else
    from the fit's leave-one-GPU-out residuals; where neither holds 80 % of the family's rows, from every
    family's leave-one-source-out residuals (POOLED), judged on the family's own held-out rows."""
    logo = [Held(r.m, fitting.stream_value(r.m), r.predicted) for r in fit.cv]
    out = {}
    for fam in JUDGED_FAMILIES:
        by_source = [h for h in loso.held if h.m.family == fam]
        if len({h.m.origin for h in by_source}) >= 2:
            pool, basis = by_source, LOSO
            tail, stretch, cov = holding_band(pool, lambda h: h.m.origin)
        else:
            pool, basis = [h for h in logo if h.m.family == fam], LOGO
            tail, stretch, cov = holding_band(pool, lambda h: h.m.gpu)
        if by_source and (cov is None or cov < TARGET_COVERAGE):
            # the pool: the throughput families' residuals, or the serving families' (other quantities: latencies)
            serve = fam in ms.SERVE_FAMILIES
            every = [h for h in loso.held if (h.m.family in ms.SERVE_FAMILIES) == serve]
            tail, pooled_cov = pooled_band(by_source, every)
            if pooled_cov is not None and (cov is None or pooled_cov > cov):
                pool, basis, stretch, cov = every, POOLED, 1.0, pooled_cov
        b = ratio_band(residuals(pool), tail, stretch)
        if b is None:
            continue
        own = by_source if basis == POOLED else pool
        out[fam] = Width(fam, b[0], b[1], basis, len(pool), len({h.m.origin for h in own}),
                         statistics.median(abs(h.error) for h in own), tail, stretch, cov)
    return out


def loso_for(fit: fitting.Fit) -> Result:
    """:func:`leave_one_source_out` of a fit's own rows on the measured GPUs' specs, once per fit (fitting.derived):
    the planner's widths rest on it, and so do the vision families' pooled ranges (estimate/vision_validation)."""
    def compute() -> Result:
        gpus = fitting.measured_gpus()
        rows = [*fit.rows, *fit.serving]
        used = {m.gpu: gpus[m.gpu] for m in rows if m.gpu in gpus}
        return leave_one_source_out(rows, used)

    return fitting.derived(fit, "loso", compute)


def widths_for(fit: fitting.Fit) -> dict[str, Width]:
    """:func:`widths` for a fit (its own rows, on the measured GPUs' specs), worked out once per fit
    (fitting.derived); the fits are memoised themselves (``fit.fit_for``), so each is validated once per process."""
    def compute() -> dict[str, Width]:
        return widths(fit, loso_for(fit)) if fit.rows else {}

    return fitting.derived(fit, "widths", compute)


def width_for(fit: fitting.Fit | None, family: str) -> Width | None:
    return None if fit is None else widths_for(fit).get(family)


# ---------------------------------------------------------------------------------------------
# the data-parallel scaling model against the published multi-GPU rows


@dataclass(frozen=True)
class ScalingBand:
    """measured / predicted data-parallel efficiency over the published pairs (an n-GPU row and the same
    publication's one-GPU row of the same workload and GPU): the factors the planner's range puts around a
    scaling efficiency."""

    low_ratio: float
    high_ratio: float
    pairs: int
    origins: int


def scaling_pairs(rows: Sequence[ms.Measurement], fit: fitting.Fit, gpus: Mapping[str, Gpu]
                  ) -> list[tuple[ms.Measurement, float, float]]:
    """(n-GPU row, measured efficiency, predicted efficiency) for each data-parallel training row with a one-GPU
    row of the same origin, GPU, model, precision, batch and sequence: measured = per-GPU value / one GPU's value;
    predicted = tp.scaling over the row's link (NVLink/NVSwitch at the card's NVLink rate, else its PCIe) at
    the fitted one-GPU step time."""
    out = []
    theta = list(fit.theta)
    f = tp.Factors(fit=fit)
    for m in rows:
        if m.is_guide or m.gpu_count < 2 or m.task != "train" or m.gpu not in gpus or "fsdp" in m.flags:
            continue
        one = next((o for o in rows if o.gpu_count == 1 and o.origin == m.origin and o.gpu == m.gpu
                    and o.model == m.model and o.precision == m.precision and o.task == m.task
                    and o.batch_size == m.batch_size and o.seq_len == m.seq_len and not o.is_guide), None)
        case = fitting.case_for(m)
        if one is None or case is None or fitting.model_spec(m.model) is None:
            continue
        gpu = gpus[m.gpu]
        hw = tp.gpu_hw(gpu)
        link = gpu.nvlink_bandwidth_gbs / 2 * 1e9 if m.interconnect in ("nvlink", "nvswitch") and \
            gpu.nvlink_bandwidth_gbs else (hw.pcie or 16e9)
        spec = case.spec
        grad = spec.params * (4.0 if m.precision in ("fp32", "tf32", "amp") else 2.0)
        step = case.units / tp.rate(case, hw, theta)  # seconds per step of one GPU (units: samples or tokens)
        predicted = tp.scaling(m.gpu_count, step, grad, link, f) / m.gpu_count
        out.append((m, m.per_gpu_value / one.value, predicted))
    return out


def scaling_band(fit: fitting.Fit | None = None) -> ScalingBand | None:
    """The extremes of measured / predicted efficiency over :func:`scaling_pairs` of the shipped measurements
    (few pairs, two publications: the extremes, not percentiles), once per fit (fitting.derived); None without
    pairs."""
    the_fit = fit or fitting.fit_for()

    def compute() -> ScalingBand | None:
        pairs = scaling_pairs(fitting.shipped(), the_fit, fitting.measured_gpus())
        ratios = [meas / pred for _m, meas, pred in pairs]
        return ScalingBand(min(min(ratios), 1.0), max(max(ratios), 1.0), len(pairs),
                           len({m.origin for m, _a, _b in pairs})) if ratios else None

    return fitting.derived(the_fit, "scaling band", compute)
