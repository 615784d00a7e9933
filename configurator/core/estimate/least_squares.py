"""The throughput fit's numerical core: Levenberg–Marquardt on log error with a ridge towards the
priors, over the model's terms (:func:`configurator.core.estimate.throughput.terms`).

Apart from :mod:`configurator.core.estimate.fit` so that the model, which the engine imports, does not
load numpy: the fit only runs once a build has a GPU or a CPU to estimate."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from configurator.core.estimate import throughput as tp

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class _Design:
    a: FloatArray  # (T,) work over rate of each term
    row: npt.NDArray[np.int64]  # (T,) the row each term belongs to
    s: FloatArray  # (T, P) exponents
    log_units: FloatArray  # (N,)
    n: int
    # (N,) each case's first term (its terms follow it; every case has one): the Jacobian's sums. The rates keep
    # bincount over ``row``: reduceat sums a 1-D run in another order, and the fitted parameters would move in their
    # last bits
    starts: npt.NDArray[np.int64]


@cache
def _term_rows(c: tp.Case, hw: tp.Hw) -> tuple[FloatArray, FloatArray]:
    """A case's terms: each one's work over rate (k,) and exponents over the parameters (k, P). The same for every
    fit the case is in (the leave-one-out folds refit the same published rows many times)."""
    found = tp.terms(c, hw)
    s = np.zeros((len(found), len(tp.NAMES)))
    for i, t in enumerate(found):
        for j, sign in t.params:
            s[i, j] += sign
    a = np.array([t.a for t in found], dtype=np.float64)
    a.setflags(write=False)  # kept for every later fit: never written
    s.setflags(write=False)
    return a, s


def _design(cases: Sequence[tuple[tp.Case, tp.Hw]]) -> _Design:
    rows = [_term_rows(c, hw) for c, hw in cases]
    if not all(len(a) for a, _s in rows):  # reduceat needs each case's run of terms to be non-empty
        raise ValueError("a case without terms cannot be fitted")
    return _Design(np.concatenate([a for a, _s in rows]),
                   np.repeat(np.arange(len(rows), dtype=np.int64), [len(a) for a, _s in rows]),
                   np.concatenate([s for _a, s in rows]),
                   np.log(np.array([c.units for c, _hw in cases], dtype=np.float64)), len(cases),
                   np.cumsum([0] + [len(a) for a, _s in rows[:-1]], dtype=np.int64))


def _rates(d: _Design, theta: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Each term's time (T,) and each case's (N,): the sum of its terms."""
    e = d.a * np.exp(d.s @ theta)
    # bincount with weights sums in float64 (its stubs say integers)
    return e, np.bincount(d.row, weights=e, minlength=d.n).astype(np.float64, copy=False)


def _log_rate(d: _Design, theta: FloatArray) -> FloatArray:
    """log predicted rate (N,)."""
    return d.log_units - np.log(_rates(d, theta)[1])


def _predict(d: _Design, theta: FloatArray) -> tuple[FloatArray, FloatArray]:
    """log predicted rate (N,) and its Jacobian (N, P): each case's terms summed as one contiguous run (reduceat;
    numpy's ufunc.at, the obvious way, is an unbuffered loop, most of the fit's time)."""
    e, t = _rates(d, theta)
    weighted = e[:, None] * d.s
    jt = np.add.reduceat(weighted, d.starts, axis=0)
    return d.log_units - np.log(t), -jt / t[:, None]


def _lm(d: _Design, y: FloatArray, theta0: FloatArray, mu: FloatArray, lam: FloatArray,
        iterations: int = 60) -> FloatArray:
    theta = theta0.copy()

    def cost(th: FloatArray) -> float:
        pred = _log_rate(d, th)
        return float(np.sum((pred - y) ** 2) + np.sum(lam * (th - mu) ** 2))

    damping = 1e-3
    current = cost(theta)
    for _ in range(iterations):
        pred, jac = _predict(d, theta)
        r = pred - y
        g = jac.T @ r + lam * (theta - mu)
        h = jac.T @ jac + np.diag(lam)
        improved = False
        for _try in range(10):
            step = np.linalg.solve(h + damping * np.diag(np.diag(h) + 1e-9), -g)
            trial = theta + step
            c = cost(trial)
            if c < current:
                theta, damping, improved = trial, max(damping / 3, 1e-7), True
                break
            damping *= 4
        if not improved or abs(current - c) < 1e-10 * max(current, 1.0):
            current = min(current, c)
            break
        current = c
    return theta


def fit_theta(cases: Sequence[tuple[tp.Case, tp.Hw]], values: Sequence[float], prior: Sequence[float],
              sigma: Sequence[float], theta0: Sequence[float] | None = None
              ) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The parameters (log space) that best predict ``values`` (each case's measured rate), pulled
    towards ``prior`` by 1/``sigma``², starting from ``theta0`` (the prior when None); and the rate
    each case is then predicted at."""
    d = _design(cases)
    y = np.log(np.array(values, dtype=np.float64))
    mu = np.array(prior, dtype=np.float64)
    lam = 1 / np.array(sigma, dtype=np.float64) ** 2
    start = mu if theta0 is None else np.array(theta0, dtype=np.float64)
    theta = _lm(d, y, start, mu, lam)
    fitted = np.exp(_log_rate(d, theta))
    return tuple(float(x) for x in theta), tuple(float(v) for v in fitted)
